import A11yEngine
import A11yReaders
import Foundation
import Testing

/// Pairs read from view code, on a small SwiftUI kit and UIKit views written here (Tests/Fixtures/ViewCode): every pair
/// the views draw is measured, in its variant and branch, with its role and the line that draws it, and nothing they do
/// not draw. Expected ratios are literals computed apart from the engine (WCAG 2.x relative luminance, SC 1.4.3), from
/// the fixture's hex values (`KitTokens.swift`; kitAlert is #CC0000 in light, #FF6666 in dark).
struct ViewCodePairsTests {
    static let fixtures = ExampleAuditTests.packageRoot.appendingPathComponent("Tests/Fixtures/ViewCode")

    let result: AuditResult
    init() throws {
        result = Auditor.run(try Workspace(root: Self.fixtures.path, policySearchDirectories: ExampleAuditTests.policies).refresh())
    }

    /// The line of a fixture holding `// drawn: marker` (or `// marker`).
    static func line(_ marker: String, in file: String) throws -> Int {
        let text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        return try #require(lines.firstIndex { $0.hasSuffix("// drawn: \(marker)") || $0.hasSuffix("// \(marker)") }) + 1
    }

    struct Expected {
        var component: String, fg: String, bg: String, role: Role, file: String, marker: String
        /// The contrast ratio in light mode, computed by hand from the hex values in the comment.
        var ratio: Double
    }

    static let expected: [Expected] = [
        // #FAFAFA on #0044CC, #FAFAFA on #002288, #222222 on #FFFFFF, #222222 on #FFCC00.
        Expected(component: "KitButton primary", fg: "kitTextOnBrand", bg: "kitBrand", role: .text, file: "KitButton.swift",
                 marker: "button title", ratio: 7.4550),
        Expected(component: "KitButton primary (pressed)", fg: "kitTextOnBrand", bg: "kitBrandPressed", role: .text, file: "KitButton.swift",
                 marker: "button title", ratio: 12.6991),
        Expected(component: "KitButton secondary", fg: "kitInk", bg: "kitSurface", role: .text, file: "KitButton.swift",
                 marker: "button title", ratio: 15.9100),
        Expected(component: "KitButton secondary (pressed)", fg: "kitInk", bg: "kitWarning", role: .text, file: "KitButton.swift",
                 marker: "button title", ratio: 10.5227),
        // 24pt bold is large text (WCAG: >= 18pt, or >= 14pt bold). #222222 on #FFCC00, on #FFFFFF.
        Expected(component: "KitBadge", fg: "kitInk", bg: "kitWarning", role: .largeText, file: "KitBadge.swift",
                 marker: "badge count", ratio: 10.5227),
        Expected(component: "KitBadge (subtle)", fg: "kitInk", bg: "kitSurface", role: .largeText, file: "KitBadge.swift",
                 marker: "badge count", ratio: 15.9100),
        // Unchecked, nothing is behind the box in its view: it sits on the default surface (systemBackground, white in
        // light). Checked, the border is drawn on a fill of its own color: no pair. #999999 on #FFFFFF.
        Expected(component: "KitCheckbox", fg: "kitBorder", bg: "systemBackground", role: .graphic, file: "KitStyles.swift",
                 marker: "checkbox border", ratio: 2.8490),
        // #FAFAFA, #999999, #FFCC00 on #222222.
        Expected(component: "KitToast", fg: "kitTextOnBrand", bg: "kitInk", role: .text, file: "KitToast.swift",
                 marker: "toast message", ratio: 15.2429),
        Expected(component: "KitToast", fg: "kitBorder", bg: "kitInk", role: .graphic, file: "KitToast.swift",
                 marker: "toast border", ratio: 5.5844),
        Expected(component: "KitToast (icon)", fg: "kitWarning", bg: "kitInk", role: .graphic, file: "KitToast.swift",
                 marker: "toast icon", ratio: 10.5227),
        // #222222, #767676, #CC0000 on #FFFFFF.
        Expected(component: "KitChipStyle", fg: "kitInk", bg: "kitSurface", role: .text, file: "KitStyles.swift",
                 marker: "chip label", ratio: 15.9100),
        Expected(component: "KitChipStyle (pressed)", fg: "kitMuted", bg: "kitSurface", role: .text, file: "KitStyles.swift",
                 marker: "chip label", ratio: 4.5422),
        Expected(component: "KitCardModifier", fg: "kitAlert", bg: "kitSurface", role: .text, file: "KitStyles.swift",
                 marker: "card content", ratio: 5.8865),
        // On #3377FF: #767676 (disabled: exempt), #222222 at 50% opacity (composited channel by
        // channel on the gamma-encoded values), #CC0000, #000000.
        Expected(component: "KitNotice", fg: "kitMuted", bg: "kitSurfaceBrand", role: .disabled, file: "KitStyles.swift",
                 marker: "notice disabled", ratio: 1.1298),
        Expected(component: "KitNotice", fg: "kitInk", bg: "kitSurfaceBrand", role: .text, file: "KitStyles.swift",
                 marker: "notice faded", ratio: 2.0452),
        Expected(component: "KitNotice", fg: "kitAlert", bg: "kitSurfaceBrand", role: .graphic, file: "KitStyles.swift",
                 marker: "notice dot", ratio: 1.4642),
        // No foreground style: SwiftUI draws the text in `.primary` (black in light).
        Expected(component: "KitNotice", fg: "default .primary", bg: "kitSurfaceBrand", role: .text, file: "KitStyles.swift",
                 marker: "notice plain", ratio: 5.2235),
        // #FFFFFF on #0044CC.
        Expected(component: "KitCheckbox (filled, on)", fg: "kitSurface", bg: "kitBrand", role: .graphic, file: "KitStyles.swift",
                 marker: "checkmark", ratio: 7.7813),
        Expected(component: "KitCheckbox (filled, mixed)", fg: "kitSurface", bg: "kitBrand", role: .graphic, file: "KitStyles.swift",
                 marker: "mixed dash", ratio: 7.7813),
        // #0044CC on #FFFFFF.
        Expected(component: "KitLink (enabled)", fg: "kitBrand", bg: "kitSurface", role: .text, file: "KitStyles.swift",
                 marker: "link", ratio: 7.7813),
        // A helper view whose fill its caller passes: measured where it is called, with that fill. #FFFFFF on #CC0000.
        Expected(component: "KitStatusPill in KitScreen", fg: "kitSurface", bg: "kitAlert", role: .text, file: "KitScreen.swift",
                 marker: "pill text", ratio: 5.8865),
        // UIKit: a label on the card it was added to, a label and a button title on the controller's view, the card's
        // border on the card.
        // 20pt bold, set in the same method: large text. #FAFAFA on #222222.
        Expected(component: "KitProfileViewController", fg: "kitTextOnBrand", bg: "kitInk", role: .largeText,
                 file: "KitProfileViewController.swift", marker: "profile name", ratio: 15.2429),
        // #767676, #0044CC on #FFFFFF; #999999 on #222222.
        Expected(component: "KitProfileViewController", fg: "kitMuted", bg: "kitSurface", role: .text,
                 file: "KitProfileViewController.swift", marker: "profile note", ratio: 4.5422),
        Expected(component: "KitProfileViewController", fg: "kitBrand", bg: "kitSurface", role: .text,
                 file: "KitProfileViewController.swift", marker: "edit title", ratio: 7.7813),
        Expected(component: "KitProfileViewController", fg: "kitBorder", bg: "kitInk", role: .graphic,
                 file: "KitProfileViewController.swift", marker: "card border", ratio: 5.5844),
        // `colorScheme == .dark ? kitSurface : kitInk`: one foreground, kitInk in light (dark is checked below).
        // #222222 on #767676.
        Expected(component: "KitAvatar", fg: "Color.kitInk / Color.kitSurface (light / dark)", bg: "kitMuted", role: .text,
                 file: "KitAvatar.swift", marker: "avatar name", ratio: 3.5027),
        // Buttons in the tint of their environment (KitContainers.swift): borderless "Save" in the HStack's kitBrand
        // (#0044CC on #FFFFFF), "Share" in its own accentColor kitMuted (#767676), "Skip" (.plain) untinted in
        // `.primary` (#000000), "Delete" (.borderedProminent) white on its kitAlert fill (#FFFFFF on #CC0000).
        // "Archive" (.bordered, a translucent fill) is not measured.
        Expected(component: "KitActionRow", fg: "kitBrand", bg: "kitSurface", role: .text, file: "KitContainers.swift",
                 marker: "save title", ratio: 7.7813),
        Expected(component: "KitActionRow", fg: "kitMuted", bg: "kitSurface", role: .text, file: "KitContainers.swift",
                 marker: "share label", ratio: 4.5422),
        Expected(component: "KitActionRow", fg: "default .primary", bg: "kitSurface", role: .text, file: "KitContainers.swift",
                 marker: "skip title", ratio: 21.0),
        Expected(component: "KitActionRow", fg: "white (.borderedProminent label)", bg: "kitAlert", role: .text,
                 file: "KitContainers.swift", marker: "delete title", ratio: 5.8865),
        // The navigation bar's `toolbarBackground` kitBrand behind the title (`.primary`, #000000 on #0044CC: fails) and
        // the compose button (#FAFAFA); the content in a ScrollView and a Group on kitSurface (#767676 on #FFFFFF).
        Expected(component: "KitInboxScreen", fg: "default .primary", bg: "kitBrand", role: .text, file: "KitContainers.swift",
                 marker: "inbox title", ratio: 2.6988),
        Expected(component: "KitInboxScreen", fg: "kitTextOnBrand", bg: "kitBrand", role: .text, file: "KitContainers.swift",
                 marker: "compose", ratio: 7.4550),
        Expected(component: "KitInboxScreen", fg: "kitMuted", bg: "kitSurface", role: .text, file: "KitContainers.swift",
                 marker: "empty inbox", ratio: 4.5422),
        // List rows on their own `listRowBackground` (a Label: #FFFFFF on #002288; a navigation link's label: #222222
        // on #FFCC00), or on the row background of the list's style (#767676 on #FFFFFF: secondarySystemGroupedBackground
        // by default, systemBackground in a plain list); the link's destination on the default surface (#767676 on #FFFFFF).
        Expected(component: "KitSettingsList", fg: "kitSurface", bg: "kitBrandPressed", role: .text, file: "KitContainers.swift",
                 marker: "notifications row", ratio: 13.2549),
        Expected(component: "KitSettingsList", fg: "kitInk", bg: "kitWarning", role: .text, file: "KitContainers.swift",
                 marker: "licenses row", ratio: 10.5227),
        Expected(component: "KitSettingsList", fg: "kitMuted", bg: "systemBackground", role: .text, file: "KitContainers.swift",
                 marker: "licenses screen", ratio: 4.5422),
        Expected(component: "KitSettingsList", fg: "kitMuted", bg: "secondarySystemGroupedBackground (list row)", role: .text,
                 file: "KitContainers.swift", marker: "version row", ratio: 4.5422),
        Expected(component: "KitRecentList", fg: "kitMuted", bg: "systemBackground (list row)", role: .text,
                 file: "KitContainers.swift", marker: "recent row", ratio: 4.5422),
        // Strokes: in a color (#0044CC) and in the foreground style (#999999), on #FFFFFF.
        Expected(component: "KitStatusRing", fg: "kitBrand", bg: "kitSurface", role: .graphic, file: "KitContainers.swift",
                 marker: "status ring", ratio: 7.7813),
        Expected(component: "KitStatusRing", fg: "kitBorder", bg: "kitSurface", role: .graphic, file: "KitContainers.swift",
                 marker: "status outline", ratio: 2.8490),
        // UIKit `configure(title:isUnread:)`: on the cell's contentView (#222222): a label (#FAFAFA), an image button's
        // tintColor (#999999, a graphic).
        Expected(component: "KitMessageCell", fg: "kitTextOnBrand", bg: "kitInk", role: .text, file: "KitMessageCell.swift",
                 marker: "message title", ratio: 15.2429),
        Expected(component: "KitMessageCell", fg: "kitBorder", bg: "kitInk", role: .graphic, file: "KitMessageCell.swift",
                 marker: "reply icon", ratio: 5.5844),
        // UIKit `apply(theme:)` once per theme, on the view's own background (`self`); the titled button's tintColor is
        // its title's color (text). info: #222222 and #0044CC on #FFFFFF; alert: #FAFAFA and #FFFFFF on #CC0000.
        Expected(component: "KitBannerView info", fg: "kitInk", bg: "kitSurface", role: .text, file: "KitMessageCell.swift",
                 marker: "banner message", ratio: 15.9100),
        Expected(component: "KitBannerView info", fg: "kitBrand", bg: "kitSurface", role: .text, file: "KitMessageCell.swift",
                 marker: "banner action", ratio: 7.7813),
        Expected(component: "KitBannerView alert", fg: "kitTextOnBrand", bg: "kitAlert", role: .text, file: "KitMessageCell.swift",
                 marker: "banner message", ratio: 5.6397),
        Expected(component: "KitBannerView alert", fg: "kitSurface", bg: "kitAlert", role: .text, file: "KitMessageCell.swift",
                 marker: "banner action", ratio: 5.8865),
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
            #expect(abs(pair.ratio - e.ratio) < 0.001, "\(e.component) \(e.fg): \(pair.ratio)")
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
        // Half opacity composites the title: #FAFAFA at 0.5 over #0044CC (composited on the
        // gamma-encoded values), 2.9422:1.
        let primary = try #require(disabled.first { $0.component == "KitButton primary (disabled)" })
        #expect(abs(primary.ratio - 2.9422) < 0.001)
    }

    @Test func noPairTheViewsDoNotDraw() {
        let drawn = Set(Self.expected.map { "\($0.component)|\($0.fg)|\($0.bg)" })
        let rows = viewCodePairs(.light).filter { $0.role != .disabled }.map { "\($0.component ?? "")|\(name($0.foreground))|\(name($0.background))" }
        let measured = Set(rows)
        #expect(measured == drawn.subtracting(["KitNotice|kitMuted|kitSurfaceBrand"]))
        #expect(rows.count == measured.count, "one row per drawn pair: \(rows.sorted())")
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

    func pairs(of component: String) -> [String] {
        viewCodePairs(.light).filter { $0.component == component }.map { "\(name($0.foreground)) on \(name($0.background))" }.sorted()
    }

    @Test func aButtonDrawsItsLabelInTheTintItsStyleGives() throws {
        // `.tint` on the stack reaches the borderless "Save"; "Share" has its own accentColor; "Skip" is `.plain` (not
        // tinted); "Delete" fills with its own tint and draws a white title; "Archive" (`.bordered`) and the buttons'
        // actions draw nothing measured.
        #expect(pairs(of: "KitActionRow") == ["default .primary on kitSurface", "kitBrand on kitSurface", "kitMuted on kitSurface",
                                              "white (.borderedProminent label) on kitAlert"])
        let save = try #require(viewCodePairs(.light).first { $0.component == "KitActionRow" && name($0.foreground) == "kitBrand" })
        #expect(save.explanation.contains("Button title"))
        // The prominent title stays white in dark mode, on kitAlert's dark value: #FFFFFF on #FF6666.
        let delete = try #require(viewCodePairs(.dark).first { $0.component == "KitActionRow" && name($0.background) == "kitAlert" })
        #expect(delete.foreground.color == "#FFFFFF" && abs(delete.ratio - 2.8593) < 0.001 && !delete.pass)
    }

    @Test func theTitleAndToolbarItemsAreDrawnOnTheToolbarBackground() throws {
        // The bottom bar has no `toolbarBackground`: its item is not measured (on the system's bar material).
        #expect(pairs(of: "KitInboxScreen") == ["default .primary on kitBrand", "kitMuted on kitSurface", "kitTextOnBrand on kitBrand"])
        let title = try #require(viewCodePairs(.light).first { $0.component == "KitInboxScreen" && name($0.foreground) == "default .primary" })
        #expect(title.role == .text && !title.pass)
        // In dark mode `.primary` is white: #FFFFFF on #0044CC.
        let dark = try #require(viewCodePairs(.dark).first { $0.component == "KitInboxScreen" && name($0.foreground) == "default .primary" })
        #expect(abs(dark.ratio - 7.7813) < 0.001)
    }

    @Test func listRowsAreMeasuredOnTheirRowBackgroundNotOnWhatIsBehindTheList() throws {
        // "Version 2.1" is on the system's row background (not on the list's kitSurfaceBrand), the section header on the
        // list's own background (not measured), and the link's destination is another screen (not on the row's kitWarning).
        #expect(pairs(of: "KitSettingsList") == ["kitInk on kitWarning", "kitMuted on secondarySystemGroupedBackground (list row)",
                                                 "kitMuted on systemBackground", "kitSurface on kitBrandPressed"])
        // The style decides the row color in dark mode: #767676 on #1C1C1E (inset grouped), on #000000 (plain).
        let grouped = try #require(viewCodePairs(.dark).first { $0.component == "KitSettingsList" && name($0.background).hasSuffix("(list row)") })
        #expect(grouped.background.color == "#1C1C1E" && abs(grouped.ratio - 3.7459) < 0.001)
        let plain = try #require(viewCodePairs(.dark).first { $0.component == "KitRecentList" })
        #expect(plain.background.color == "#000000" && abs(plain.ratio - 4.6233) < 0.001)
    }

    @Test func uikitMethodsPairOnTheirContainersOncePerTheme() throws {
        #expect(pairs(of: "KitMessageCell") == ["kitBorder on kitInk", "kitTextOnBrand on kitInk"])
        #expect(pairs(of: "KitBannerView info") == ["kitBrand on kitSurface", "kitInk on kitSurface"])
        #expect(pairs(of: "KitBannerView alert") == ["kitSurface on kitAlert", "kitTextOnBrand on kitAlert"])
        #expect(!viewCodePairs(.light).contains { $0.component == "KitBannerView" })
        // An image button's tint is a graphic, a titled button's tint is its title (text).
        let reply = try #require(viewCodePairs(.light).first { $0.component == "KitMessageCell" && name($0.foreground) == "kitBorder" })
        #expect(reply.role == .graphic)
        let undo = try #require(viewCodePairs(.light).first { $0.component == "KitBannerView info" && name($0.foreground) == "kitBrand" })
        #expect(undo.role == .text && undo.explanation.contains("title (tintColor)"))
    }

    @Test func darkModeIsMeasuredPerAppearanceOfTheTokens() throws {
        let card = try #require(viewCodePairs(.dark).first { $0.component == "KitCardModifier" })
        #expect(card.foreground.color == "#FF6666")
        #expect(abs(card.ratio - 2.8593) < 0.001)
        let checkbox = try #require(viewCodePairs(.dark).first { $0.component == "KitCheckbox" })
        #expect(abs(checkbox.ratio - 7.3709) < 0.001)
    }

    @Test func aColorSchemeConditionIsOneColorPerAppearanceAndAnUnknownFillIsNotGuessed() throws {
        let light = try #require(viewCodePairs(.light).first { $0.component == "KitAvatar" })
        let dark = try #require(viewCodePairs(.dark).first { $0.component == "KitAvatar" })
        #expect(light.foreground.color == "#222222" && dark.foreground.color == "#FFFFFF")
        #expect(abs(light.ratio - 3.5027) < 0.001)
        #expect(abs(dark.ratio - 4.5422) < 0.001)
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
        // kitWarning is read by no styling enum and named by no convention: only views draw it (the toast's icon, the
        // badge's fill, a list row's background).
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
        #expect(abs(dark.ratio - 5.3118) < 0.001)
    }

    func findings(_ rule: String, in file: String) -> [Finding] {
        result.audit.findings.filter { $0.rule == rule && $0.location?.file.hasSuffix(file) == true }
    }

    @Test func tappableViewsSmallerThanTheMinimumAreFoundAtTheirFrame() throws {
        let found = findings("touch-target", in: "KitControls.swift")
        func measured(_ marker: String) throws -> Double? {
            let line = try Self.line("target: \(marker)", in: "KitControls.swift")
            return found.first { $0.location?.line == line }?.measured
        }
        // Frames under the 44pt minimum on a Button, an onTapGesture, a Toggle, a Link, a Menu's label and a
        // NavigationLink. 24 + 2 x 10 padding, minWidth/minHeight 44, a content shape inset by -12 around 20pt, and
        // 20 + 2 x 12 padding under `contentShape(Rectangle())` reach 44 and pass.
        #expect(Set(found.compactMap(\.location?.line)) == Set(try ["close", "info", "mute", "help", "more", "next"].map {
            try Self.line("target: \($0)", in: "KitControls.swift")
        }))
        #expect(try measured("close") == 24 && measured("info") == 20 && measured("mute") == 28 && measured("help") == 22
                && measured("more") == 24 && measured("next") == 30)
        #expect(found.allSatisfy { $0.required == 44 })
        #expect(Set(found.map(\.subject)) == ["KitIconButton: Button at line \(try Self.line("target: close", in: "KitControls.swift"))",
                                               "KitIconButton: onTapGesture at line \(try Self.line("target: info", in: "KitControls.swift"))",
                                               "KitIconButton: Toggle at line \(try Self.line("target: mute", in: "KitControls.swift"))",
                                               "KitIconButton: Link at line \(try Self.line("target: help", in: "KitControls.swift"))",
                                               "KitIconButton: Menu at line \(try Self.line("target: more", in: "KitControls.swift"))",
                                               "KitIconButton: NavigationLink at line \(try Self.line("target: next", in: "KitControls.swift"))"])
    }

    @Test func viewFontsThatDoNotScaleOrClipAreDynamicTypeFindings() throws {
        let found = findings("dynamic-type", in: "KitControls.swift")
        let fixed = try Self.line("font: fixed", in: "KitControls.swift")
        // `.system(size: 10)`: fixed, and below the 11pt minimum.
        #expect(found.filter { $0.location?.line == fixed }.count == 2)
        // `.custom(_:size:)` scales with body, `relativeTo:` with its style: nothing to report.
        for marker in ["font: scales", "font: relative custom", "font: relative system"] {
            let line = try Self.line(marker, in: "KitControls.swift")
            #expect(!found.contains { $0.location?.line == line }, "\(marker)")
        }
        // `Font.custom(_:fixedSize:)` and `.system(size:)` on text do not scale (13 and 15pt: no size finding).
        for marker in ["font: fixed custom", "font: fixed system"] {
            let line = try Self.line(marker, in: "KitControls.swift")
            let atLine = found.filter { $0.location?.line == line }
            #expect(atLine.count == 1 && atLine.allSatisfy { $0.message.contains("does not scale") }, "\(marker): \(atLine.map(\.message))")
        }
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
