/// Shared by the three contrast rules: a finding for each failing measurement of one role.
func contrastFindings(_ context: AuditContext, role: Role, rule: String, splitFrom: Int = contrastFindingsSplitFrom) -> [Finding] {
    let measurements = context.measurements
    // The failing measurements of this role, by index (most pass or are of another role): found without copying the
    // others (a loop over the elements copied each, a dozen references counted).
    let failing: [Int] = {
        var failing: [Int] = []
        for i in measurements.indices where measurements[i].role == role && !measurements[i].pass { failing.append(i) }
        return failing
    }()
    let severity = context.policy.severity(of: rule)
    // A finding depends only on its measurement, rule and severity: an unchanged measurement at the same position in
    // the last audit (same policy) keeps its finding, fix hint and message included.
    let earlier = context.contrastMemo.earlier[rule]
    // Read by the pieces' threads (only read).
    let earlierMeasurements = ReadOnly(value: context.earlierMeasurements)
    @Sendable func earlierFinding(_ index: Int) -> Finding? {
        let earlierMeasurements = earlierMeasurements.value
        guard let earlier, index < earlierMeasurements.count, earlierMeasurements[index] == measurements[index] else { return nil }
        return earlier.finding(of: index)
    }
    // The fix hints first: many pairs share colors (one token used by many components), so each distinct search is made
    // once, and the searches (most of a contrast rule's time) are spread over the cores in small pieces that any free
    // core takes, not in a few long ones (the last of which ran alone on one core).
    struct FixKey: Hashable {
        var fg: ColorValue
        var bg: ColorValue
        var required: Double

        /// One word hashed, folded from the colors' own words and the ratio's bits (synthesized hashing fed the hasher
        /// three). Equal keys fold alike: `-0.0` folds as `0.0`, which it equals.
        func hash(into hasher: inout Hasher) {
            let colors = fg.folded &* 0x9FB2_1C65_1E98_DF25 ^ bg.folded
            hasher.combine(colors &* 0x9FB2_1C65_1E98_DF25 ^ (required == 0 ? 0 : required.bitPattern))
        }
    }
    let (fixKeys, fixOfFailing) = { () -> ([FixKey], [Int]) in
        var fixKeys: [FixKey] = []
        var fixOfFailing = [Int](repeating: -1, count: failing.count)
        var known: [FixKey: Int] = [:]
        known.reserveCapacity(failing.count)
        for (n, index) in failing.enumerated() where earlierFinding(index) == nil {
            let m = measurements[index]
            let key = FixKey(fg: m.foreground.withAlpha(1), bg: m.effectiveBackground, required: m.required ?? 0)
            if let known = known[key] { fixOfFailing[n] = known; continue }
            known[key] = fixKeys.count
            fixOfFailing[n] = fixKeys.count
            fixKeys.append(key)
        }
        return (fixKeys, fixOfFailing)
    }()
    let fixes = inSmallPieces(count: fixKeys.count, splitFrom: splitFrom) { range in
        fixKeys[range].map { nearestPassingColor(foreground: $0.fg, background: $0.bg, required: $0.required) }
    }
    let roleName: StaticString = role == .graphic ? "graphics" : role == .largeText ? "large text" : "text"
    // The findings of `failing[range]`, in order.
    @Sendable func findings(_ range: Range<Int>) -> [Finding] {
        var found: [Finding] = []
        found.reserveCapacity(range.count)
        for n in range {
            let index = failing[n]
            if let finding = earlierFinding(index) {
                found.append(finding)
                continue
            }
            let m = measurements[index]
            let required = m.required ?? 0
            // Message and hint written part by part into one string each (`TextParts`). A side is its property and token
            // (`label (appInk)`), or its name: read once for both of `joined`'s passes (each copied both endpoints whole,
            // a handful of references counted each).
            func side(_ e: PairingEndpoint) -> (name: String, token: String?) {
                guard let property = e.property, let token = e.token else { return (e.name, nil) }
                return (property, token)
            }
            let foregroundSide = side(m.pairing.foreground), backgroundSide = side(m.pairing.background)
            func describe(_ side: (name: String, token: String?), _ text: inout TextParts) {
                text.append(side.name)
                guard let token = side.token else { return }
                text.append(" (")
                text.append(token)
                text.append(")")
            }
            let hint = fixes[fixOfFailing[n]].map { fix in
                let hex = fix.color.hex
                return TextParts.joined { text in
                    text.append("nearest passing foreground: ")
                    text.append(hex)
                    text.append(" (")
                    text.appendRatio(fix.ratio)
                    text.append(":1), same hue, lightness adjusted in OKLCH")
                }
            }
            let message = TextParts.joined { text in
                describe(foregroundSide, &text)
                text.append(" on ")
                describe(backgroundSide, &text)
                text.append(", ")
                if let theme = m.theme {
                    text.append(theme)
                    text.append(", ")
                }
                text.append(m.appearance.rawValue)
                text.append(", ")
                text.appendRatio(m.ratio)
                text.append(":1 (needs ")
                text.appendRatio(required)
                text.append(":1 for ")
                text.append(roleName)
                text.append(")")
            }
            let background = m.pairing.background.location
            found.append(Finding(
                rule: rule, severity: severity, appearance: m.appearance, subject: m.pairing.subject, message: message,
                location: m.pairing.foreground.location, relatedLocations: m.pairing.drawnAt.map { [background, $0] } ?? [background],
                component: m.pairing.component, measured: m.ratio, required: required, fixHint: hint, theme: m.theme))
        }
        return found
    }
    let found = MeasuredFindings(indices: failing, findings: inSmallPieces(count: failing.count, splitFrom: splitFrom, findings))
    context.contrastMemo.record(rule: rule, found)
    return found.findings
}

/// `part(range)` over `0..<count`, joined in order: from `splitFrom` items, in pieces of `contrastFindingsPiece` that the
/// cores free of other rules take one at a time, else on this thread.
private func inSmallPieces<Element>(count: Int, splitFrom: Int, _ part: @escaping @Sendable (Range<Int>) -> [Element]) -> [Element] {
    guard count >= splitFrom else { return part(0..<count) }
    return concurrentParts(count: count, workers: (count + contrastFindingsPiece - 1) / contrastFindingsPiece, part)
}

/// Items in one piece of a contrast rule's work: small enough that the last piece left is short.
let contrastFindingsPiece = 32

/// From this many failing measurements (or distinct fix searches) a contrast rule's work is made in pieces on the cores
/// that are free.
let contrastFindingsSplitFrom = 256

/// Body text contrast, WCAG 2.x SC 1.4.3 (AA 4.5:1) / 1.4.6 (AAA 7:1). Disabled text is exempt and reported as info.
public struct ContrastTextRule: Rule {
    public init() {}
    public static let description = RuleDescription(
        id: "contrast.text",
        summary: "Text has enough contrast against what it is drawn on, in every appearance",
        standard: "WCAG 2.x SC 1.4.3 Contrast (Minimum) 4.5:1; SC 1.4.6 Contrast (Enhanced) 7:1; Apple HIG Accessibility",
        helpURL: "https://www.w3.org/WAI/WCAG21/Understanding/contrast-minimum.html",
        passing: [RuleExample("""
            enum BannerStyling {
                struct Colors {
                    static let text = Color(hex: "#767676")
                    static let background = Color.white
                }
            }
            """)],
        failing: [RuleExample("""
            enum BannerStyling {
                struct Colors {
                    static let text = Color(hex: "#777777")
                    static let background = Color.white
                }
            }
            """)])

    public func check(_ context: AuditContext) -> [Finding] {
        var findings = contrastFindings(context, role: .text, rule: Self.description.id)
        // Disabled controls are exempt under WCAG 1.4.3 ("part of an inactive user interface component"): info only.
        let threshold = { (a: Appearance) in context.policy.thresholds(for: a).text }
        for m in context.measurements where m.role == .disabled && m.ratio < threshold(m.appearance) {
            findings.append(Finding(
                rule: Self.description.id, severity: .info, appearance: m.appearance, subject: m.pairing.subject,
                message: "\(m.pairing.foreground.name) on \(m.pairing.background.name), \(m.theme.map { $0 + ", " } ?? "")\(m.appearance.rawValue), \(displayRatio(m.ratio)):1: disabled, so exempt from the \(displayRatio(threshold(m.appearance))):1 minimum",
                location: m.pairing.foreground.location, relatedLocations: [m.pairing.background.location] + [m.pairing.drawnAt].compactMap { $0 },
                component: m.pairing.component, measured: m.ratio, theme: m.theme))
        }
        return findings
    }
}

/// Large text contrast, WCAG 2.x SC 1.4.3 (AA 3:1) / 1.4.6 (AAA 4.5:1); "large" per the policy's mapping.
public struct ContrastLargeTextRule: Rule {
    public init() {}
    public static let description = RuleDescription(
        id: "contrast.large-text",
        summary: "Large text (per the policy: WCAG 18pt / 14pt bold, or HIG 18pt / bold) has enough contrast",
        standard: "WCAG 2.x SC 1.4.3 large-scale text 3:1; SC 1.4.6 4.5:1; Apple HIG Accessibility (18pt+ or bold: 3:1)",
        helpURL: "https://www.w3.org/WAI/WCAG21/Understanding/contrast-minimum.html",
        passing: [RuleExample("""
            enum HeroStyling {
                struct Colors {
                    static let title = Color(hex: "#949494")
                    static let background = Color.white
                }
                struct Typography {
                    static let title = Font.system(size: 28, weight: .bold).relativeTo(.title)
                }
            }
            """)],
        failing: [RuleExample("""
            enum HeroStyling {
                struct Colors {
                    static let title = Color(hex: "#AAAAAA")
                    static let background = Color.white
                }
                struct Typography {
                    static let title = Font.system(size: 28, weight: .bold).relativeTo(.title)
                }
            }
            """)])

    public func check(_ context: AuditContext) -> [Finding] {
        contrastFindings(context, role: .largeText, rule: Self.description.id)
    }
}

/// Non-text contrast of UI components and meaningful graphics, WCAG 2.1 SC 1.4.11 (3:1).
public struct ContrastGraphicRule: Rule {
    public init() {}
    public static let description = RuleDescription(
        id: "contrast.graphic",
        summary: "Icons, borders, indicators and other meaningful graphics reach 3:1 against adjacent colors",
        standard: "WCAG 2.1 SC 1.4.11 Non-text Contrast 3:1",
        helpURL: "https://www.w3.org/WAI/WCAG21/Understanding/non-text-contrast.html",
        passing: [RuleExample("""
            enum FieldStyling {
                struct Colors {
                    static let border = Color(hex: "#8A8A8A")
                    static let background = Color.white
                }
            }
            """)],
        failing: [RuleExample("""
            enum FieldStyling {
                struct Colors {
                    static let border = Color(hex: "#D1D5DB")
                    static let background = Color.white
                }
            }
            """)])

    public func check(_ context: AuditContext) -> [Finding] {
        contrastFindings(context, role: .graphic, rule: Self.description.id)
    }
}
