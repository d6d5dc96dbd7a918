/// Text scales with the user's text size, is not too small, and fits fixed heights at the largest size.
public struct DynamicTypeRule: Rule {
    public init() {}
    public static let description = RuleDescription(
        id: "dynamic-type",
        summary: "Fonts scale with Dynamic Type (text styles, custom(_:size:), relativeTo:, UIFontMetrics), are at least the minimum size, and fixed heights fit them at AX5",
        standard: "Apple HIG Typography (Dynamic Type); WCAG 2.x SC 1.4.4 Resize Text",
        helpURL: "https://developer.apple.com/design/human-interface-guidelines/typography#Supporting-Dynamic-Type",
        passing: [RuleExample("""
            extension Font {
                static let appBody = Font.custom("Inter-Regular", size: 16, relativeTo: .body)
                static let appCallout = Font.custom("Inter-Regular", size: 16)
                static let appHeadline = Font.system(size: 17, weight: .semibold).relativeTo(.headline)
            }
            """), RuleExample("""
            struct Caption: View {
                var body: some View {
                    Text("Updated").font(.custom("Inter-Regular", size: 13)).lineLimit(1)
                }
            }
            """)],
        failing: [RuleExample("""
            extension Font {
                static let appCaptionSmall = Font.custom("Inter-Regular", fixedSize: 12)
                static let appMeta = Font.system(size: 12)
            }
            """), RuleExample("""
            struct Caption: View {
                var body: some View {
                    Text("Updated").font(.system(size: 12))
                }
            }
            """), RuleExample("""
            struct Title: View {
                var body: some View {
                    Text("Inbox").font(.title).lineLimit(1).frame(height: 24)
                }
            }
            """)])

    public func check(_ context: AuditContext) -> [Finding] {
        let rule = Self.description.id
        let severity = context.policy.severity(of: rule)
        let minimum = context.policy.minimumFontSize
        let graph = context.graph
        var findings = context.findingsPerToken(rule: rule) { row in
            var findings: [Finding] = []
            // Fonts and numbers only (most tokens are colors; their definitions are not read).
            let value = graph.evaluated(row: row)
            switch value {
            case .font, .number: break
            default: return findings
            }
            let definition = graph.token(row: row)
            // An alias reports nothing: the font it names is reported where it is built.
            if definition.alias != nil { return findings }
            var name: String { TokenGraph.displayName(graph.sortedKeys[row]) }
            switch value {
            case .font(let font):
                let name = name
                if !font.scales {
                    findings.append(Finding(
                        rule: rule, severity: severity, subject: name,
                        message: "\(name) has a fixed size\(font.size.map { " of \(format($0))pt" } ?? "") and does not scale with Dynamic Type; use a text style, Font.custom(_:size:) (it scales with body) or custom(_:size:relativeTo:), or UIFontMetrics",
                        location: definition.location))
                }
                if let size = font.size, size < minimum {
                    findings.append(Finding(
                        rule: rule, severity: severity, subject: name + " (size)",
                        message: "\(name) is \(format(size))pt, below the \(format(minimum))pt minimum text size",
                        location: definition.location, measured: size, required: minimum))
                }
            case .number(let size) where definition.qualifiedName.dropLast().last == Component.Group.typography.rawValue
                && nameWords(definition.name).contains("size"):
                let name = name
                // `labelSize: CGFloat = 10` feeds UIFont.systemFont(ofSize:) in UIKit appearance code: a fixed size.
                findings.append(Finding(
                    rule: rule, severity: severity, subject: name,
                    message: "\(name) is a raw point size (\(format(size))pt) for label text and does not scale with Dynamic Type; use a text style or UIFontMetrics",
                    location: definition.location))
                if size < minimum {
                    findings.append(Finding(
                        rule: rule, severity: severity, subject: name + " (size)",
                        message: "\(name) is \(format(size))pt, below the \(format(minimum))pt minimum text size",
                        location: definition.location, measured: size, required: minimum))
                }
            default:
                break
            }
            return findings
        }
        findings += clippingFindings(context)
        return findings + viewCodeFindings(context)
    }

    /// Fonts written as literals in view code (`.font(.system(size: 12))`), and one-line text in a fixed height.
    func viewCodeFindings(_ context: AuditContext) -> [Finding] {
        let rule = Self.description.id
        let severity = context.policy.severity(of: rule)
        let minimum = context.policy.minimumFontSize
        var findings: [Finding] = []
        for fact in context.viewCode.fonts {
            let subject = "\(fact.view): \(fact.expression) at line \(fact.location.line)"
            if !fact.font.scales {
                findings.append(Finding(
                    rule: rule, severity: severity, subject: subject,
                    message: "\(fact.view) sets \(fact.expression)\(fact.font.size.map { " (\(format($0))pt)" } ?? ""), a fixed size that does not scale with Dynamic Type; add relativeTo: or use a text style",
                    location: fact.location, component: fact.view))
            }
            if let size = fact.font.size, size < minimum {
                findings.append(Finding(
                    rule: rule, severity: severity, subject: subject + " (size)",
                    message: "\(fact.view) sets \(format(size))pt text, below the \(format(minimum))pt minimum text size",
                    location: fact.location, component: fact.view, measured: size, required: minimum))
            }
        }
        for fact in context.viewCode.clippedText {
            guard let ax5 = DynamicTypeSizes.largestAccessibilitySize(of: fact.font) else { continue }
            let needed = ax5 * DynamicTypeSizes.lineHeightFactor
            findings.append(Finding(
                rule: rule, severity: severity, subject: "\(fact.view): text at line \(fact.location.line) (clipping)",
                message: "\(fact.view): one line of text in a fixed \(format(fact.height))pt height grows to \(format(ax5))pt at the largest accessibility size (AX5), needing about \(format(needed))pt: use minHeight or let it wrap",
                location: fact.location, component: fact.view, measured: fact.height, required: needed))
        }
        return findings
    }

    /// A fixed `height` in Layout that the component's scaling text outgrows at AX5 (the largest accessibility size).
    func clippingFindings(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        let excluded: Set<String> = ["min", "minimum", "max", "track", "dot", "thumb", "total", "paged", "line", "indicator", "icon", "image"]
        // Components and their properties read where they are, by index: `properties(in:)` copied a group's properties
        // into an array of their own, twice for every component (a few references counted a property).
        let components = context.components
        for c in components.indices {
            var largest: (size: Double, property: String)?
            for p in components[c].properties.indices where components[c].properties[p].group == .typography {
                if case .success(.font(let f)) = context.graph.value(of: components[c].properties[p].qualifiedName),
                   let ax5 = DynamicTypeSizes.largestAccessibilitySize(of: f), ax5 > (largest?.size ?? 0) {
                    largest = (ax5, components[c].properties[p].name)
                }
            }
            guard let text = largest else { continue }
            let component = components[c]
            for p in component.properties.indices where component.properties[p].group == .layout {
                // Most layout properties are not heights: those are passed over before their names are split into words.
                guard Self.mayEndInHeight(component.properties[p].name) else { continue }
                let property = component.properties[p]
                let words = nameWords(property.name)
                guard words.last == "height", Set(words).isDisjoint(with: excluded),
                      case .success(.number(let height)) = context.graph.value(of: property.qualifiedName) else { continue }
                let needed = text.size * DynamicTypeSizes.lineHeightFactor
                guard needed > height else { continue }
                findings.append(Finding(
                    rule: Self.description.id, severity: context.policy.severity(of: Self.description.id),
                    subject: "\(component.name).\(property.name) (clipping)",
                    message: "\(component.name).\(property.name) is a fixed \(format(height))pt, but \(text.property) text grows to \(format(text.size))pt at the largest accessibility size (AX5), needing about \(format(needed))pt: use a minimum height so the text is not clipped",
                    location: property.location, component: component.name, measured: height, required: needed))
            }
        }
        return findings
    }

    /// False when `name`'s last word (`nameWords`) cannot be `height`: an ASCII name whose last letters, before any
    /// separators, are not those six in some case. (Other names: true, their words are split.)
    static func mayEndInHeight(_ name: String) -> Bool {
        let onBytes = name.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            func isSeparator(_ byte: UInt8) -> Bool {  // `nameWords`' separators: _ - . space /
                byte == 0x5F || byte == 0x2D || byte == 0x2E || byte == 0x20 || byte == 0x2F
            }
            var end = bytes.count
            while end > 0, isSeparator(bytes[end - 1]) { end -= 1 }
            let height: StaticString = "height"
            guard end >= height.utf8CodeUnitCount else { return false }
            return (0..<height.utf8CodeUnitCount).allSatisfy {
                asciiLowercased(bytes[end - height.utf8CodeUnitCount + $0]) == height.utf8Start[$0]
            }
        }
        return (onBytes ?? nil) ?? true
    }
}
