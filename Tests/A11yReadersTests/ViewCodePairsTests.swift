import A11yEngine
import A11yReaders
import Foundation
import Testing

/// Pairs read from view code, on a small SwiftUI kit written here (Tests/Fixtures/ViewCode): every pair the views draw
/// is measured, in its variant and branch, with its role and the line that draws it, and nothing they do not draw.
/// Expected ratios are computed here from the fixture's hex values with the WCAG 2.x formula.
struct ViewCodePairsTests {
    static let fixtures = ExampleAuditTests.packageRoot.appendingPathComponent("Tests/Fixtures/ViewCode")

    let result: AuditResult
    init() throws {
        result = Auditor.run(try Workspace(root: Self.fixtures.path, policySearchDirectories: ExampleAuditTests.policies).refresh())
    }

    /// WCAG 2.x relative luminance of `#RRGGBB` (SC 1.4.3, definition of relative luminance).
    static func luminance(_ rgb: [Double]) -> Double {
        let linear = rgb.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    static func rgb(_ hex: String) -> [Double] {
        let digits = Array(hex.dropFirst())
        return stride(from: 0, to: 6, by: 2).map { Double(Int(String(digits[$0...($0 + 1)]), radix: 16)!) / 255 }
    }

    /// The ratio of a foreground (at an opacity, composited on gamma-encoded values) over a background.
    static func ratio(_ fg: String, on bg: String, opacity: Double = 1) -> Double {
        let b = rgb(bg)
        let f = zip(rgb(fg), b).map { opacity * $0 + (1 - opacity) * $1 }
        let (l1, l2) = (luminance(f), luminance(b))
        return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
    }

    /// The line of a fixture holding `// drawn: marker` (or `// marker`).
    static func line(_ marker: String, in file: String) throws -> Int {
        let text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        return try #require(lines.firstIndex { $0.hasSuffix("// drawn: \(marker)") || $0.hasSuffix("// \(marker)") }) + 1
    }

    struct Expected {
        var component: String, fg: String, bg: String, role: Role, file: String, marker: String
        var fgHex: String, bgHex: String, opacity: Double = 1
    }

    static let expected: [Expected] = [
        Expected(component: "KitButton primary", fg: "kitTextOnBrand", bg: "kitBrand", role: .text, file: "KitButton.swift",
                 marker: "button title", fgHex: "#FAFAFA", bgHex: "#0044CC"),
        Expected(component: "KitButton primary (pressed)", fg: "kitTextOnBrand", bg: "kitBrandPressed", role: .text, file: "KitButton.swift",
                 marker: "button title", fgHex: "#FAFAFA", bgHex: "#002288"),
        Expected(component: "KitButton secondary", fg: "kitInk", bg: "kitSurface", role: .text, file: "KitButton.swift",
                 marker: "button title", fgHex: "#222222", bgHex: "#FFFFFF"),
        Expected(component: "KitButton secondary (pressed)", fg: "kitInk", bg: "kitWarning", role: .text, file: "KitButton.swift",
                 marker: "button title", fgHex: "#222222", bgHex: "#FFCC00"),
        // 24pt bold is large text (WCAG: >= 18pt, or >= 14pt bold).
        Expected(component: "KitBadge", fg: "kitInk", bg: "kitWarning", role: .largeText, file: "KitBadge.swift",
                 marker: "badge count", fgHex: "#222222", bgHex: "#FFCC00"),
        Expected(component: "KitBadge (subtle)", fg: "kitInk", bg: "kitSurface", role: .largeText, file: "KitBadge.swift",
                 marker: "badge count", fgHex: "#222222", bgHex: "#FFFFFF"),
        // Unchecked, nothing is behind the box in its view: it sits on the default surface (systemBackground, white in
        // light). Checked, the border is drawn on a fill of its own color: no pair.
        Expected(component: "KitCheckbox", fg: "kitBorder", bg: "systemBackground", role: .graphic, file: "KitStyles.swift",
                 marker: "checkbox border", fgHex: "#999999", bgHex: "#FFFFFF"),
        Expected(component: "KitToast", fg: "kitTextOnBrand", bg: "kitInk", role: .text, file: "KitToast.swift",
                 marker: "toast message", fgHex: "#FAFAFA", bgHex: "#222222"),
        Expected(component: "KitToast", fg: "kitBorder", bg: "kitInk", role: .graphic, file: "KitToast.swift",
                 marker: "toast border", fgHex: "#999999", bgHex: "#222222"),
        Expected(component: "KitToast (icon)", fg: "kitWarning", bg: "kitInk", role: .graphic, file: "KitToast.swift",
                 marker: "toast icon", fgHex: "#FFCC00", bgHex: "#222222"),
        Expected(component: "KitChipStyle", fg: "kitInk", bg: "kitSurface", role: .text, file: "KitStyles.swift",
                 marker: "chip label", fgHex: "#222222", bgHex: "#FFFFFF"),
        Expected(component: "KitChipStyle (pressed)", fg: "kitMuted", bg: "kitSurface", role: .text, file: "KitStyles.swift",
                 marker: "chip label", fgHex: "#767676", bgHex: "#FFFFFF"),
        Expected(component: "KitCardModifier", fg: "kitAlert", bg: "kitSurface", role: .text, file: "KitStyles.swift",
                 marker: "card content", fgHex: "#CC0000", bgHex: "#FFFFFF"),
        Expected(component: "KitNotice", fg: "kitMuted", bg: "kitSurfaceBrand", role: .disabled, file: "KitStyles.swift",
                 marker: "notice disabled", fgHex: "#767676", bgHex: "#3377FF"),
        Expected(component: "KitNotice", fg: "kitInk", bg: "kitSurfaceBrand", role: .text, file: "KitStyles.swift",
                 marker: "notice faded", fgHex: "#222222", bgHex: "#3377FF", opacity: 0.5),
        Expected(component: "KitNotice", fg: "kitAlert", bg: "kitSurfaceBrand", role: .graphic, file: "KitStyles.swift",
                 marker: "notice dot", fgHex: "#CC0000", bgHex: "#3377FF"),
        // No foreground style: SwiftUI draws the text in `.primary` (black in light).
        Expected(component: "KitNotice", fg: "default .primary", bg: "kitSurfaceBrand", role: .text, file: "KitStyles.swift",
                 marker: "notice plain", fgHex: "#000000", bgHex: "#3377FF"),
        Expected(component: "KitCheckbox (filled, on)", fg: "kitSurface", bg: "kitBrand", role: .graphic, file: "KitStyles.swift",
                 marker: "checkmark", fgHex: "#FFFFFF", bgHex: "#0044CC"),
        Expected(component: "KitCheckbox (filled, mixed)", fg: "kitSurface", bg: "kitBrand", role: .graphic, file: "KitStyles.swift",
                 marker: "mixed dash", fgHex: "#FFFFFF", bgHex: "#0044CC"),
        Expected(component: "KitLink (enabled)", fg: "kitBrand", bg: "kitSurface", role: .text, file: "KitStyles.swift",
                 marker: "link", fgHex: "#0044CC", bgHex: "#FFFFFF"),
        // A helper view whose fill its caller passes: measured where it is called, with that fill.
        Expected(component: "KitStatusPill in KitScreen", fg: "kitSurface", bg: "kitAlert", role: .text, file: "KitScreen.swift",
                 marker: "pill text", fgHex: "#FFFFFF", bgHex: "#CC0000"),
        // UIKit: a label on the card it was added to, a label and a button title on the controller's view, the card's
        // border on the card.
        // 20pt bold, set in the same method: large text.
        Expected(component: "KitProfileViewController", fg: "kitTextOnBrand", bg: "kitInk", role: .largeText,
                 file: "KitProfileViewController.swift", marker: "profile name", fgHex: "#FAFAFA", bgHex: "#222222"),
        Expected(component: "KitProfileViewController", fg: "kitMuted", bg: "kitSurface", role: .text,
                 file: "KitProfileViewController.swift", marker: "profile note", fgHex: "#767676", bgHex: "#FFFFFF"),
        Expected(component: "KitProfileViewController", fg: "kitBrand", bg: "kitSurface", role: .text,
                 file: "KitProfileViewController.swift", marker: "edit title", fgHex: "#0044CC", bgHex: "#FFFFFF"),
        Expected(component: "KitProfileViewController", fg: "kitBorder", bg: "kitInk", role: .graphic,
                 file: "KitProfileViewController.swift", marker: "card border", fgHex: "#999999", bgHex: "#222222"),
        // `colorScheme == .dark ? kitSurface : kitInk`: one foreground, kitInk in light (dark is checked below).
        Expected(component: "KitAvatar", fg: "Color.kitInk / Color.kitSurface (light / dark)", bg: "kitMuted", role: .text,
                 file: "KitAvatar.swift", marker: "avatar name", fgHex: "#222222", bgHex: "#767676"),
    ]

    func viewCodePairs(_ appearance: Appearance) -> [Audit.Pair] {
        result.audit.pairs.filter { $0.reason == .viewCode && $0.appearance == appearance }
    }

    func name(_ e: Audit.Endpoint) -> String { e.token ?? e.property ?? "" }

    @Test func everyDrawnPairIsMeasuredWithItsRoleLineAndRatio() throws {
        let pairs = viewCodePairs(.light)
        for e in Self.expected {
            let pair = try #require(pairs.first { $0.component == e.component && name($0.foreground) == e.fg && name($0.background) == e.bg },
                                    "\(e.component): \(e.fg) on \(e.bg)")
            #expect(pair.role == e.role, "\(e.component) \(e.fg)")
            let drawnAt = try #require(pair.drawnAt)
            let line = try Self.line(e.marker, in: e.file)
            #expect(drawnAt.file.hasSuffix(e.file) && drawnAt.line == line, "\(e.component) \(e.fg)")
            #expect(abs(pair.ratio - Self.ratio(e.fgHex, on: e.bgHex, opacity: e.opacity)) < 0.01, "\(e.component) \(e.fg): \(pair.ratio)")
        }
    }

    @Test func disabledStatesAreExemptAndNamedByTheirBranch() throws {
        let disabled = viewCodePairs(.light).filter { $0.component?.hasPrefix("KitButton") == true && $0.component?.contains("disabled") == true }
        #expect(Set(disabled.compactMap(\.component)) == ["KitButton primary (disabled)", "KitButton primary (disabled, pressed)",
                                                           "KitButton secondary (disabled)", "KitButton secondary (disabled, pressed)"])
        #expect(disabled.allSatisfy { $0.role == .disabled && $0.required == nil && $0.pass })
        // The branch where `isEnabled` is false is the disabled state: exempt too.
        let link = try #require(viewCodePairs(.light).first { $0.component == "KitLink" })
        #expect(name(link.foreground) == "kitBorder" && link.role == .disabled && link.required == nil)
        // Half opacity composites the title: #FAFAFA at 0.5 over #0044CC.
        let primary = try #require(disabled.first { $0.component == "KitButton primary (disabled)" })
        #expect(abs(primary.ratio - Self.ratio("#FAFAFA", on: "#0044CC", opacity: 0.5)) < 0.01)
    }

    @Test func noPairTheViewsDoNotDraw() {
        let drawn = Set(Self.expected.map { "\($0.component)|\($0.fg)|\($0.bg)" })
        let measured = Set(viewCodePairs(.light).filter { $0.role != .disabled }.map { "\($0.component ?? "")|\(name($0.foreground))|\(name($0.background))" })
        #expect(measured == drawn.subtracting(["KitNotice|kitMuted|kitSurfaceBrand"]))
        #expect(!measured.contains("KitLink|kitBorder|kitSurface"))
        // The clear border of the card draws nothing, the badge's capsule is the count's background, and every pair of this
        // kit comes from its views.
        #expect(!result.audit.pairs.contains { name($0.foreground) == "clear" })
        #expect(!result.audit.pairs.contains { $0.component == "KitBadge" && $0.role == .graphic })
        #expect(!result.audit.pairs.contains { $0.component?.hasPrefix("KitCheckbox") == true && name($0.foreground) == "kitBrand" })
        #expect(!result.audit.pairs.contains { $0.component?.hasPrefix("KitCheckbox") == true && name($0.background) == "systemBackground"
                                               && name($0.foreground) == "kitSurface" })
        #expect(result.audit.pairs.allSatisfy { $0.reason == .viewCode })
    }

    @Test func darkModeIsMeasuredPerAppearanceOfTheTokens() throws {
        let card = try #require(viewCodePairs(.dark).first { $0.component == "KitCardModifier" })
        #expect(card.foreground.color == "#FF6666")
        #expect(abs(card.ratio - Self.ratio("#FF6666", on: "#FFFFFF")) < 0.01)
        let checkbox = try #require(viewCodePairs(.dark).first { $0.component == "KitCheckbox" })
        #expect(abs(checkbox.ratio - Self.ratio("#999999", on: "#000000")) < 0.01)
    }

    @Test func aColorSchemeConditionIsOneColorPerAppearanceAndAnUnknownFillIsNotGuessed() throws {
        let light = try #require(viewCodePairs(.light).first { $0.component == "KitAvatar" })
        let dark = try #require(viewCodePairs(.dark).first { $0.component == "KitAvatar" })
        #expect(light.foreground.color == "#222222" && dark.foreground.color == "#FFFFFF")
        #expect(abs(light.ratio - Self.ratio("#222222", on: "#767676")) < 0.01)
        #expect(abs(dark.ratio - Self.ratio("#FFFFFF", on: "#767676")) < 0.01)
        let line = try Self.line("avatar name", in: "KitAvatar.swift")
        #expect(light.drawnAt?.line == line)
        // The icon sits on `tint`, a parameter, and the role text is drawn in it: one pair only.
        #expect(viewCodePairs(.light).filter { $0.component?.hasPrefix("KitAvatar") == true }.count == 1)
    }

    @Test func aNamingGuessTheViewsContradictIsDroppedAndExplained() throws {
        // `kitTextOnBrand` would pair with `kitSurfaceBrand` by name; the views draw it on kitBrand and kitInk only.
        #expect(!result.audit.pairs.contains { name($0.foreground) == "kitTextOnBrand" && name($0.background) == "kitSurfaceBrand" })
        let explanation = try #require(PairExplanation.explain(foreground: "kitTextOnBrand", background: "kitSurfaceBrand", in: result.context)?.first)
        #expect(explanation.explanation.contains("not measured"))
        #expect(explanation.explanation.contains("view-code"))
    }

    @Test func editingATokenUsedOnlyInViewCodeIsARegression() throws {
        let dir = try NameSpaceAndInstancePairingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path) {
            try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        let workspace = try Workspace(root: dir.path, policySearchDirectories: ExampleAuditTests.policies)
        let before = Auditor.run(workspace.refresh()).audit
        // kitWarning is read by no styling enum and named by no convention: only the toast's icon and the badge draw it.
        let tokens = dir.appendingPathComponent("KitTokens.swift")
        let text = try String(contentsOf: tokens, encoding: .utf8)
        try text.replacingOccurrences(of: "kitWarning = Color(hex: \"#FFCC00\")", with: "kitWarning = Color(hex: \"#333333\")")
            .write(to: tokens, atomically: true, encoding: .utf8)
        let after = Auditor.run(workspace.refresh(changed: ["KitTokens.swift"])).audit
        let regressions = AuditDiff.between(before, after).regressions.map { "\($0.rule) \($0.subject) \($0.appearance?.rawValue ?? "")" }
        #expect(regressions.contains("contrast.graphic KitToast (icon): kitWarning on kitInk light"))
        #expect(regressions.contains("contrast.large-text KitBadge: kitInk on kitWarning dark"))
    }

    @Test func aBackgroundReturnedByAFunctionIsTheComponentsBackgroundPerAppearance() throws {
        let dir = try NameSpaceAndInstancePairingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        import SwiftUI
        extension Color {
            static let sheetLight = Color(hex: "#FFFFFF")
            static let sheetDark = Color(hex: "#262626")
            static let grabber = Color(hex: "#999999")
        }
        enum SheetStyling {
            struct Colors {
                static func sheetBackground(for colorScheme: ColorScheme) -> Color {
                    colorScheme == .dark ? Color.sheetDark : Color.sheetLight
                }
                static let dragIndicator = Color.grabber
            }
        }
        """.write(to: dir.appendingPathComponent("Sheet.swift"), atomically: true, encoding: .utf8)
        let audit = Auditor.run(try Workspace(root: dir.path, policySearchDirectories: ExampleAuditTests.policies).refresh()).audit
        let indicator = audit.pairs.filter { $0.foreground.property == "dragIndicator" }
        #expect(Set(indicator.map { $0.background.property ?? "" }) == ["sheetBackground(for:)"])
        let light = try #require(indicator.first { $0.appearance == .light })
        let dark = try #require(indicator.first { $0.appearance == .dark })
        #expect(light.background.color == "#FFFFFF" && dark.background.color == "#262626")
        #expect(abs(dark.ratio - Self.ratio("#999999", on: "#262626")) < 0.01)
    }

    func findings(_ rule: String, in file: String) -> [Finding] {
        result.audit.findings.filter { $0.rule == rule && $0.location?.file.hasSuffix(file) == true }
    }

    @Test func tappableViewsSmallerThanTheMinimumAreFoundAtTheirFrame() throws {
        let lines = Set(findings("touch-target", in: "KitControls.swift").compactMap(\.location?.line))
        // 24pt and 20pt frames fail the 44pt minimum; 24 + 2 x 10 padding and minWidth/minHeight 44 pass.
        #expect(lines == [try Self.line("target: close", in: "KitControls.swift"), try Self.line("target: info", in: "KitControls.swift")])
        let info = try #require(findings("touch-target", in: "KitControls.swift").first { $0.location?.line == (try? Self.line("target: info", in: "KitControls.swift")) })
        #expect(info.measured == 20 && info.required == 44)
    }

    @Test func viewFontsThatDoNotScaleOrClipAreDynamicTypeFindings() throws {
        let found = findings("dynamic-type", in: "KitControls.swift")
        let fixed = try Self.line("font: fixed", in: "KitControls.swift")
        // `.system(size: 10)`: fixed, and below the 11pt minimum.
        #expect(found.filter { $0.location?.line == fixed }.count == 2)
        // `.custom(_:size:)` scales with body: nothing to report.
        #expect(!found.contains { $0.location?.line == (try? Self.line("font: scales", in: "KitControls.swift")) })
        // One line of `.title` in 24pt clips at AX5.
        let clip = try #require(found.first { $0.location?.line == (try? Self.line("clip: title", in: "KitControls.swift")) })
        #expect(clip.measured == 24 && (clip.required ?? 0) > 24)
    }

    @Test func uikitFontsThatDoNotScaleAreDynamicTypeFindings() throws {
        let found = findings("dynamic-type", in: "KitProfileViewController.swift").compactMap(\.location?.line)
        // `UIFont.systemFont(ofSize:)` is fixed; through `UIFontMetrics` it scales.
        #expect(found == [try Self.line("font: name", in: "KitProfileViewController.swift")])
    }
}
