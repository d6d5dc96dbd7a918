import A11yEngine
import A11yReaders
import Foundation
import Testing

/// Themes in the three forms real apps write them (Tests/Fixtures/Themes, written here): palette instances, a theme
/// switch over an enum, palette types behind a protocol. Every pair's ratio is recomputed here from the fixture's
/// literals with WCAG's formula (sRGB linearisation, alpha compositing), independently of the engine.
struct ThemeFixtureTests {
    static let fixtures = ExampleAuditTests.packageRoot.appendingPathComponent("Tests/Fixtures/Themes")

    static func audit(_ form: String, configuration: String? = nil) throws -> Audit {
        var root = fixtures.appendingPathComponent(form).path
        if let configuration {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: root) {
                try FileManager.default.copyItem(atPath: root + "/" + name, toPath: dir.appendingPathComponent(name).path)
            }
            try configuration.write(to: dir.appendingPathComponent(".a11yd.yml"), atomically: true, encoding: .utf8)
            root = dir.path
        }
        return Auditor.run(try Workspace(root: root, policySearchDirectories: ExampleAuditTests.policies).refresh()).audit
    }

    // MARK: WCAG, by hand

    struct RGBA { var r, g, b, a: Double }

    static func rgb(_ hex: Int, _ alpha: Double = 1) -> RGBA {
        RGBA(r: Double((hex >> 16) & 0xFF) / 255, g: Double((hex >> 8) & 0xFF) / 255, b: Double(hex & 0xFF) / 255, a: alpha)
    }

    static func over(_ top: RGBA, _ bottom: RGBA) -> RGBA {
        RGBA(r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a),
             b: top.b * top.a + bottom.b * (1 - top.a), a: 1)
    }

    static func luminance(_ c: RGBA) -> Double {
        func lin(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)
    }

    /// Foreground on background, the background itself composited over `base` (a translucent fill over the page).
    static func ratio(_ fg: RGBA, on bg: RGBA, over base: RGBA) -> Double {
        let background = over(bg, base)
        let drawn = over(fg, background)
        let (a, b) = (luminance(drawn) + 0.05, luminance(background) + 0.05)
        return max(a, b) / min(a, b)
    }

    static func pair(_ audit: Audit, _ fg: String, _ bg: String, theme: String, appearance: Appearance) throws -> Audit.Pair {
        try #require(audit.pairs.first {
            $0.foreground.token == fg && $0.background.token == bg && $0.theme == theme && $0.appearance == appearance
        }, "\(fg) on \(bg) in \(theme), \(appearance)")
    }

    // MARK: Palette instances

    @Test func paletteInstancesAreThemesWithTheirOwnAppearanceAndPairByPropertyNames() throws {
        let audit = try Self.audit("PaletteInstances")
        let themes = try #require(audit.themes)
        #expect(themes.map(\.name) == ["light", "sepia", "dark", "black"])
        #expect(themes.map(\.appearance) == [.light, .light, .dark, .dark])
        #expect(themes.first { $0.isDefault }?.name == "light")
        #expect(themes[1].inference.contains("#F8F1E3"))
        // `static var current` is the app's selection: neither a theme nor a token of its own.
        #expect(!themes.contains { $0.name == "current" })
        #expect(!audit.pairs.contains { $0.foreground.token?.contains("current") ?? false })

        let white = Self.rgb(0xFFFFFF), parchment = Self.rgb(0xF8F1E3), ink = Self.rgb(0x202122), black = Self.rgb(0x000000)
        let expected: [(fg: String, bg: String, theme: String, appearance: Appearance, ratio: Double)] = [
            ("primaryText", "paperBackground", "light", .light, Self.ratio(Self.rgb(0x202122), on: white, over: white)),
            ("secondaryText", "paperBackground", "light", .light, Self.ratio(Self.rgb(0x72777D), on: white, over: white)),
            ("link", "paperBackground", "sepia", .light, Self.ratio(Self.rgb(0x3366CC), on: parchment, over: parchment)),
            ("secondaryText", "paperBackground", "sepia", .light, Self.ratio(Self.rgb(0x8B7D6B), on: parchment, over: parchment)),
            ("chromeText", "chromeBackground", "sepia", .light, Self.ratio(Self.rgb(0x54595D), on: Self.rgb(0xE1DACE), over: parchment)),
            // Translucent tag fills sit on the palette's paper, not on the system background.
            ("tagText", "tagBackground", "sepia", .light, Self.ratio(Self.rgb(0x3366CC), on: Self.rgb(0x3366CC, 0.2), over: parchment)),
            ("tagText", "tagBackground", "dark", .dark, Self.ratio(Self.rgb(0x6699FF), on: Self.rgb(0x6699FF, 0.3), over: ink)),
            ("tagText", "tagBackground", "black", .dark, Self.ratio(Self.rgb(0xFFFFFF), on: Self.rgb(0x6699FF, 0.5), over: black)),
            // A computed property of the palette (the link at 60%) is a token too.
            ("visitedLink", "paperBackground", "dark", .dark, Self.ratio(Self.rgb(0x6699FF, 0.6), on: ink, over: ink)),
            ("secondaryText", "paperBackground", "black", .dark, Self.ratio(Self.rgb(0x555555), on: black, over: black)),
        ]
        for e in expected {
            let p = try Self.pair(audit, "ReaderPalette." + e.fg, "ReaderPalette." + e.bg, theme: e.theme, appearance: e.appearance)
            #expect(abs(p.ratio - e.ratio) < 0.01, "\(e.fg) on \(e.bg) in \(e.theme): \(p.ratio) vs \(e.ratio)")
            #expect(p.pass == (e.ratio >= 4.5))
            #expect(p.component == "ReaderPalette")
        }
        // Each theme is audited once, in its own appearance: 6 pairs x 4 themes.
        #expect(audit.pairs.count == 24)
        #expect(audit.summary.failingByTheme?["sepia"] == audit.pairs.filter { $0.theme == "sepia" && !$0.pass }.count)
        // A failing pair's finding names the theme.
        let finding = try #require(audit.findings.first { $0.theme == "black" && $0.rule == "contrast.text" && $0.subject.contains("secondaryText") })
        #expect(finding.message.contains("black, dark"))
        // Dark mode comes from the dark themes: no "has no dark value" noise.
        #expect(!audit.findings.contains { $0.message.contains("has no dark value") })
    }

    @Test func aPaletteClassWithAnExplicitInitAndAWrapperThemeIsOnePalette() throws {
        let audit = try Self.audit("PaletteClass")
        let themes = try #require(audit.themes)
        #expect(themes.map(\.name) == ["light", "sepia", "dark", "widget"])
        // The wrapper's instances (`AppTheme.dark.colors`) are the same themes, not tokens of their own.
        #expect(!audit.pairs.contains { $0.foreground.token?.hasPrefix("AppTheme") ?? false })
        #expect(Set(audit.pairs.compactMap(\.foreground.token)) == ["ThemeColors.primaryText", "ThemeColors.secondaryText", "ThemeColors.refreshControlTint"])
        let night = Self.rgb(0x2E3136)
        let dark = try Self.pair(audit, "ThemeColors.secondaryText", "ThemeColors.paperBackground", theme: "dark", appearance: .dark)
        #expect(abs(dark.ratio - Self.ratio(Self.rgb(0xC8CCD1), on: night, over: night)) < 0.01)
        let sepia = try Self.pair(audit, "ThemeColors.refreshControlTint", "ThemeColors.paperBackground", theme: "sepia", appearance: .light)
        #expect(abs(sepia.ratio - Self.ratio(Self.rgb(0x646059), on: Self.rgb(0xF8F1E3), over: Self.rgb(0xF8F1E3))) < 0.01)
        // The transparent widget palette draws on whatever is underneath (white assumed): ink on white.
        let widget = try Self.pair(audit, "ThemeColors.primaryText", "ThemeColors.paperBackground", theme: "widget", appearance: .light)
        #expect(abs(widget.ratio - Self.ratio(Self.rgb(0x222222), on: Self.rgb(0xFFFFFF, 0), over: Self.rgb(0xFFFFFF))) < 0.01)
    }

    // MARK: Theme switch

    @Test func aThemeSwitchMakesOneTokenPerFunctionValuedInEveryCase() throws {
        let audit = try Self.audit("ThemeSwitch")
        let themes = try #require(audit.themes)
        #expect(themes.map(\.name) == ["light", "dark", "extraDark", "rosé", "contrastLight", "contrastDark"])
        #expect(themes.map(\.appearance) == [.light, .dark, .dark, .light, .lightHighContrast, .darkHighContrast])

        let page: [String: RGBA] = [
            "light": Self.rgb(0xFFFFFF), "dark": Self.rgb(0x292B2E), "extraDark": Self.rgb(0x000000), "rosé": Self.rgb(0xFCEFF0),
            "contrastLight": Self.rgb(0xFFFFFF), "contrastDark": Self.rgb(0x000000),
        ]
        // `default:` and multi-pattern cases resolve as Swift does; `if` before the `switch` wins for rosé.
        let secondary: [String: Int] = [
            "light": 0x8F97A4, "dark": 0x8F97A4, "extraDark": 0x8F97A4, "rosé": 0xC98F95, "contrastLight": 0x3D3F42, "contrastDark": 0xE0E0E0,
        ]
        let cardText: [String: Int] = [
            "light": 0x6B7079, "dark": 0xB8C3C9, "extraDark": 0xB8C3C9, "rosé": 0xB5747B, "contrastLight": 0x6B7079, "contrastDark": 0xB8C3C9,
        ]
        for theme in themes {
            let base = page[theme.name]!
            let p = try Self.pair(audit, "AppColors.secondaryText", "AppColors.primaryBackground", theme: theme.name, appearance: theme.appearance!)
            let expected = Self.ratio(Self.rgb(secondary[theme.name]!), on: base, over: base)
            #expect(abs(p.ratio - expected) < 0.01, "\(theme.name): \(p.ratio) vs \(expected)")
            let wash = ["light", "rosé", "contrastLight"].contains(theme.name) ? Self.rgb(0x000000, 0.04) : Self.rgb(0xFFFFFF, 0.08)
            let card = try Self.pair(audit, "AppColors.onCardText", "AppColors.surfaceCard", theme: theme.name, appearance: theme.appearance!)
            let expectedCard = Self.ratio(Self.rgb(cardText[theme.name]!), on: wash, over: base)
            #expect(abs(card.ratio - expectedCard) < 0.01, "\(theme.name) card: \(card.ratio) vs \(expectedCard)")
            // Contrast themes are held to the policy's increased-contrast threshold.
            #expect(card.required == (theme.name.hasPrefix("contrast") ? 7.0 : 4.5))
        }
    }

    /// A generated theme-color file: the enum reached through a module-qualified typealias, per-theme constants beside
    /// each token function, and a color that reads the theme from a shared instance that cannot be built.
    @Test func generatedThemeColorsReadTheirThemesThroughAModuleTypealiasAndAnUnbuildableSharedInstance() throws {
        let audit = try Self.audit("GeneratedThemeColors", configuration: "surfaces: [ThemeColor.primaryUi01]\n")
        let themes = try #require(audit.themes)
        #expect(themes.map(\.name) == ["light", "dark", "electric"])
        // electric is dark because its configured base surface is.
        #expect(themes.map(\.appearance) == [.light, .dark, .dark])
        #expect(themes[2].inference.contains("#19232B"))
        // The per-theme constants are values of the token functions, not tokens; `AppColors.color(for: .primaryText02)`
        // is `ThemeColor.primaryText02` under a second name in every theme: one token.
        #expect(audit.summary.tokens == 3)
        #expect(!audit.pairs.contains { $0.foreground.token?.hasPrefix("AppColors.color") ?? false })
        #expect(!audit.findings.contains { $0.rule == "parse" || $0.rule == "reference" })
        let page: [String: Int] = ["light": 0xFFFFFF, "dark": 0x292B2E, "electric": 0x19232B]
        let text: [String: Int] = ["light": 0x8F97A4, "dark": 0x8F97A4, "electric": 0x5D6A75]
        let destructive: [String: Int] = ["light": 0xF43E37, "dark": 0xFF6B63, "electric": 0xFF6B63]
        for theme in themes {
            let base = Self.rgb(page[theme.name]!)
            let secondary = try Self.pair(audit, "ThemeColor.primaryText02", "ThemeColor.primaryUi01", theme: theme.name, appearance: theme.appearance!)
            #expect(abs(secondary.ratio - Self.ratio(Self.rgb(text[theme.name]!), on: base, over: base)) < 0.01, "\(theme.name)")
            let warning = try Self.pair(audit, "AppColors.destructiveText", "ThemeColor.primaryUi01", theme: theme.name, appearance: theme.appearance!)
            #expect(abs(warning.ratio - Self.ratio(Self.rgb(destructive[theme.name]!), on: base, over: base)) < 0.01, "\(theme.name)")
        }
    }

    // MARK: Palette types

    @Test func paletteTypesAreThemesNamedByTheirSelectorAndFollowTheSystemAppearance() throws {
        let audit = try Self.audit("PaletteTypes")
        let themes = try #require(audit.themes)
        #expect(themes.map(\.name) == ["standard", "experimental", "grayscale"])
        #expect(themes.allSatisfy { $0.appearance == nil })
        // The protocol's requirements are the tokens; unset requirements are not findings.
        #expect(!audit.findings.contains { $0.rule == "parse" })
        let colors: [String: (background: (Int, Int), secondary: (Int, Int), button: (Int, Int), fill: (Int, Int), alpha: Double)] = [
            "standard": ((0xFFFFFF, 0x1C1C1E), (0x6C6C70, 0x98989F), (0x3969EF, 0x7295F6), (0x3969EF, 0x7295F6), 0.12),
            "experimental": ((0xFAF8F5, 0x222020), (0xA39E99, 0x7A7573), (0xDE5833, 0xF07A5A), (0xDE5833, 0xF07A5A), 0.18),
            "grayscale": ((0xF2F2F2, 0x111111), (0x555555, 0xAAAAAA), (0x222222, 0xDDDDDD), (0x000000, 0xFFFFFF), 0.1),
        ]
        for (theme, c) in colors {
            for appearance in [Appearance.light, .dark] {
                func pick(_ pair: (Int, Int)) -> Int { appearance == .light ? pair.0 : pair.1 }
                let base = Self.rgb(pick(c.background))
                let secondary = try Self.pair(audit, "PaletteDefinition.secondaryText", "PaletteDefinition.background", theme: theme, appearance: appearance)
                #expect(abs(secondary.ratio - Self.ratio(Self.rgb(pick(c.secondary)), on: base, over: base)) < 0.01, "\(theme) \(appearance)")
                let button = try Self.pair(audit, "PaletteDefinition.buttonText", "PaletteDefinition.buttonBackground", theme: theme, appearance: appearance)
                let expected = Self.ratio(Self.rgb(pick(c.button)), on: Self.rgb(pick(c.fill), c.alpha), over: base)
                #expect(abs(button.ratio - expected) < 0.01, "\(theme) \(appearance) button: \(button.ratio) vs \(expected)")
            }
        }
    }

    // MARK: Configuration

    @Test func configurationSelectsOrdersRenamesAndSetsAppearance() throws {
        let audit = try Self.audit("ThemeSwitch", configuration: """
            themes:
              - theme: rosé
                as: Rosé
                appearance: light
              - theme: extraDark
                as: Night
                contrast: increased
                default: true
              - theme: neon
            """)
        let themes = try #require(audit.themes)
        #expect(themes.map(\.name) == ["Rosé", "Night"])
        #expect(themes.map(\.appearance) == [.light, .darkHighContrast])
        #expect(themes.map(\.isDefault) == [false, true])
        #expect(Set(audit.pairs.compactMap(\.theme)) == ["Rosé", "Night"])
        let unknown = try #require(audit.findings.first { $0.rule == "config" })
        #expect(unknown.message.contains("neon") && unknown.message.contains("rosé"))
        #expect(unknown.location?.line == 9)
    }

    @Test func aSystemWithoutThemesHasNoThemeAnywhere() throws {
        let audit = try ExampleAuditTests.audit().audit
        #expect(audit.themes == [])
        #expect(audit.pairs.allSatisfy { $0.theme == nil })
        #expect(audit.findings.allSatisfy { $0.theme == nil })
        #expect(audit.summary.failingByTheme == nil)
    }
}
