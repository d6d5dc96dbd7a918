@testable import A11yEngine
import A11yReaders
import Foundation
import Testing

/// Themes in the three forms real apps write them (Tests/Fixtures/Themes, written here): palette instances, a theme
/// switch over an enum, palette types behind a protocol. Every pair row each fixture audits to is listed below with
/// its ratio as a literal, computed by hand outside the project (independently of the engine) with WCAG 2.x (SC 1.4.3,
/// 1.4.6 "relative luminance" and "contrast ratio"): sRGB components linearised with the 0.04045 threshold
/// (IEC 61966-2-1), L = 0.2126 R + 0.7152 G + 0.0722 B, ratio (L1 + 0.05) / (L2 + 0.05). A translucent color is first
/// composited source-over on gamma-encoded sRGB components (c = a * top + (1 - a) * bottom, as UIKit draws): a
/// translucent background over the palette's base background, a translucent foreground over that background.
struct ThemeFixtureTests {
    static let fixtures = ExampleAuditTests.packageRoot.appendingPathComponent("Tests/Fixtures/Themes")

    static func audit(_ form: String, configuration: String? = nil) throws -> Audit {
        var root = fixtures.appendingPathComponent(form).path
        var copy: URL?
        defer { if let copy { try? FileManager.default.removeItem(at: copy) } }
        if let configuration {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID().uuidString)")
            copy = dir
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: root) {
                try FileManager.default.copyItem(atPath: root + "/" + name, toPath: dir.appendingPathComponent(name).path)
            }
            try configuration.write(to: dir.appendingPathComponent(".a11yd.yml"), atomically: true, encoding: .utf8)
            root = dir.path
        }
        return Auditor.run(try Workspace(root: root, policySearchDirectories: ExampleAuditTests.policies).refresh()).audit
    }

    // MARK: Every pair row, against ratios computed by hand

    /// One pair row an audit must produce: foreground and background tokens (`type.` is prepended to a name without a
    /// dot), theme, appearance, and the ratio computed by hand (rounded to 4 decimals).
    typealias Row = (foreground: String, background: String, theme: String, appearance: Appearance, ratio: Double)

    /// The hand values are rounded to 4 decimals (at most 0.00005 off); the engine computes in Double.
    static let tolerance = 0.0005

    /// The audit's pair rows are exactly `expected` (a missing, an extra or a repeated row fails), each with its hand
    /// ratio, and each passes exactly when the hand ratio reaches the policy's minimum.
    static func expectEveryPair(of audit: Audit, type: String, _ expected: [Row], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        func token(_ name: String) -> String { name.contains(".") ? name : type + "." + name }
        func key(_ foreground: String?, _ background: String?, _ theme: String?, _ appearance: Appearance) -> String {
            "\(foreground ?? "(literal)") on \(background ?? "(literal)") in \(theme ?? "(no theme)"), \(appearance.rawValue)"
        }
        let wanted = expected.map { (key(token($0.foreground), token($0.background), $0.theme, $0.appearance), $0.ratio) }
        let ratios = Dictionary(wanted) { first, _ in first }
        #expect(ratios.count == expected.count, "a row is listed twice", sourceLocation: sourceLocation)
        let produced = audit.pairs.map { (key($0.foreground.token, $0.background.token, $0.theme, $0.appearance), $0) }
        let names = produced.map(\.0)
        #expect(wanted.map(\.0).filter { !names.contains($0) } == [], "rows the audit lacks", sourceLocation: sourceLocation)
        #expect(names.filter { ratios[$0] == nil } == [], "rows not listed", sourceLocation: sourceLocation)
        #expect(Set(names).count == names.count, "a row produced twice", sourceLocation: sourceLocation)
        for (name, pair) in produced {
            guard let ratio = ratios[name] else { continue }
            #expect(abs(pair.ratio - ratio) < tolerance, "\(name): \(pair.ratio), by hand \(ratio)", sourceLocation: sourceLocation)
            if let required = pair.required {
                #expect(pair.pass == (ratio >= required), "\(name): pass \(pair.pass) at \(ratio) (needs \(required))", sourceLocation: sourceLocation)
            }
        }
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

        // Each theme once, in its own appearance: 6 pairs x 4 themes. Colors from ReaderPalette.swift:
        // paper light #FFFFFF, sepia #F8F1E3, dark #202122, black #000000 (the base background of every row);
        // chrome #F8F9FA / #E1DACE / #27292D / #101418; primaryText #202122 / #333333 / #EAECF0 / #DDDDDD;
        // secondaryText #72777D / #8B7D6B / #A2A9B1 / #555555; link #3366CC (light, sepia), #6699FF (dark, black);
        // chromeText #202122 / #54595D / #C8CCD1 / #AAAAAA; tagText #3366CC / #3366CC / #6699FF / #FFFFFF.
        // Translucent: visitedLink is the link at alpha 0.6 over the paper; tagBackground is #3366CC at 0.1 (light) and
        // 0.2 (sepia), #6699FF at 0.3 (dark) and 0.5 (black), composited over that theme's paper, not the system's.
        Self.expectEveryPair(of: audit, type: "ReaderPalette", [
            ("primaryText", "paperBackground", "light", .light, 16.1283),
            ("secondaryText", "paperBackground", "light", .light, 4.5158),
            ("link", "paperBackground", "light", .light, 5.3664),
            ("visitedLink", "paperBackground", "light", .light, 2.5226),
            ("chromeText", "chromeBackground", "light", .light, 15.3004),
            ("tagText", "tagBackground", "light", .light, 4.6833),
            ("primaryText", "paperBackground", "sepia", .light, 11.2404),
            ("secondaryText", "paperBackground", "sepia", .light, 3.5630),
            ("link", "paperBackground", "sepia", .light, 4.7742),
            ("visitedLink", "paperBackground", "sepia", .light, 2.4037),
            ("chromeText", "chromeBackground", "sepia", .light, 5.1017),
            ("tagText", "tagBackground", "sepia", .light, 3.6533),
            ("primaryText", "paperBackground", "dark", .dark, 13.6361),
            ("secondaryText", "paperBackground", "dark", .dark, 6.7941),
            ("link", "paperBackground", "dark", .dark, 5.8104),
            ("visitedLink", "paperBackground", "dark", .dark, 2.9698),
            ("chromeText", "chromeBackground", "dark", .dark, 9.0289),
            ("tagText", "tagBackground", "dark", .dark, 3.4580),
            ("primaryText", "paperBackground", "black", .dark, 15.4611),
            ("secondaryText", "paperBackground", "black", .dark, 2.8168),
            ("link", "paperBackground", "black", .dark, 7.5654),
            ("visitedLink", "paperBackground", "black", .dark, 3.1836),
            ("chromeText", "chromeBackground", "black", .dark, 7.9624),
            ("tagText", "tagBackground", "black", .dark, 8.4086),
        ])
        #expect(audit.pairs.allSatisfy { $0.component == "ReaderPalette" && $0.required == 4.5 })
        #expect(audit.summary.failingByTheme == ["light": 1, "sepia": 3, "dark": 2, "black": 2])
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
        // Colors from Colors.swift: paper light #FFFFFF, sepia #F8F1E3, dark #2E3136, widget clear (drawn on whatever is
        // underneath: white assumed, so #FFFFFF); primaryText #222222 (#FFFFFF in dark); secondaryText #72777D /
        // #646059 / #C8CCD1 / #222222; refreshControlTint is secondaryText. The optional `icon` is not a token.
        Self.expectEveryPair(of: audit, type: "ThemeColors", [
            ("primaryText", "paperBackground", "light", .light, 15.9100),
            ("secondaryText", "paperBackground", "light", .light, 4.5158),
            ("refreshControlTint", "paperBackground", "light", .light, 4.5158),
            ("primaryText", "paperBackground", "sepia", .light, 14.1543),
            ("secondaryText", "paperBackground", "sepia", .light, 5.5615),
            ("refreshControlTint", "paperBackground", "sepia", .light, 5.5615),
            ("primaryText", "paperBackground", "dark", .dark, 13.0535),
            ("secondaryText", "paperBackground", "dark", .dark, 8.0893),
            ("refreshControlTint", "paperBackground", "dark", .dark, 8.0893),
            ("primaryText", "paperBackground", "widget", .light, 15.9100),
            ("secondaryText", "paperBackground", "widget", .light, 15.9100),
            ("refreshControlTint", "paperBackground", "widget", .light, 15.9100),
        ])
    }

    // MARK: Theme switch

    @Test func aThemeSwitchMakesOneTokenPerFunctionValuedInEveryCase() throws {
        let audit = try Self.audit("ThemeSwitch")
        let themes = try #require(audit.themes)
        #expect(themes.map(\.name) == ["light", "dark", "extraDark", "rosé", "contrastLight", "contrastDark"])
        #expect(themes.map(\.appearance) == [.light, .dark, .dark, .light, .lightHighContrast, .darkHighContrast])

        // Colors from AppTheme.swift, each function's value in each case (`default:` and multi-pattern cases as Swift
        // resolves them; the `if` before the `switch` wins for rosé). primaryBackground (the base background):
        // light #FFFFFF, dark #292B2E, extraDark #000000, rosé #FCEFF0, contrastLight #FFFFFF, contrastDark #000000;
        // primaryText #292B2E / #FFFFFF / #FFFFFF / #5D2E35 / #292B2E (default) / #FFFFFF; secondaryText #8F97A4 /
        // #8F97A4 / #8F97A4 / #C98F95 / #3D3F42 / #E0E0E0; onCardText #6B7079 / #B8C3C9 / #B8C3C9 / #B5747B / #6B7079 /
        // #B8C3C9. surfaceCard is translucent: #000000 at 0.04 (light, rosé, contrastLight), else #FFFFFF at 0.08,
        // composited over that theme's primaryBackground.
        Self.expectEveryPair(of: audit, type: "AppColors", [
            ("primaryText", "primaryBackground", "light", .light, 14.1960),
            ("secondaryText", "primaryBackground", "light", .light, 2.9450),
            ("onCardText", "surfaceCard", "light", .light, 4.5576),
            ("primaryText", "primaryBackground", "dark", .dark, 14.1960),
            ("secondaryText", "primaryBackground", "dark", .dark, 4.8203),
            ("onCardText", "surfaceCard", "dark", .dark, 6.1601),
            ("primaryText", "primaryBackground", "extraDark", .dark, 21.0000),
            ("secondaryText", "primaryBackground", "extraDark", .dark, 7.1306),
            ("onCardText", "surfaceCard", "extraDark", .dark, 10.2174),
            ("primaryText", "primaryBackground", "rosé", .light, 9.8257),
            ("secondaryText", "primaryBackground", "rosé", .light, 2.3888),
            ("onCardText", "surfaceCard", "rosé", .light, 2.9877),
            ("primaryText", "primaryBackground", "contrastLight", .lightHighContrast, 14.1960),
            ("secondaryText", "primaryBackground", "contrastLight", .lightHighContrast, 10.5629),
            ("onCardText", "surfaceCard", "contrastLight", .lightHighContrast, 4.5576),
            ("primaryText", "primaryBackground", "contrastDark", .darkHighContrast, 21.0000),
            ("secondaryText", "primaryBackground", "contrastDark", .darkHighContrast, 15.9081),
            ("onCardText", "surfaceCard", "contrastDark", .darkHighContrast, 10.2174),
        ])
        // Contrast themes are held to the policy's increased-contrast threshold (WCAG 1.4.6: 7:1), the others to 4.5:1.
        for pair in audit.pairs {
            #expect(pair.required == (pair.theme?.hasPrefix("contrast") == true ? 7.0 : 4.5), "\(pair.subject) in \(pair.theme ?? "-")")
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
        #expect(!audit.findings.contains { $0.rule == "parse" || $0.rule == "reference" })
        // Colors from ThemeColor.swift: primaryUi01 light #FFFFFF, dark #292B2E, electric #19232B; primaryText02
        // #8F97A4 / #8F97A4 / #5D6A75; destructiveText #F43E37 in light, else #FF6B63. All opaque.
        Self.expectEveryPair(of: audit, type: "ThemeColor", [
            ("primaryText02", "primaryUi01", "light", .light, 2.9450),
            ("AppColors.destructiveText", "primaryUi01", "light", .light, 3.7561),
            ("primaryText02", "primaryUi01", "dark", .dark, 4.8203),
            ("AppColors.destructiveText", "primaryUi01", "dark", .dark, 5.0938),
            ("primaryText02", "primaryUi01", "electric", .dark, 2.8739),
            ("AppColors.destructiveText", "primaryUi01", "electric", .dark, 5.7231),
        ])
    }

    // MARK: Palette types

    @Test func paletteTypesAreThemesNamedByTheirSelectorAndFollowTheSystemAppearance() throws {
        let audit = try Self.audit("PaletteTypes")
        let themes = try #require(audit.themes)
        #expect(themes.map(\.name) == ["standard", "experimental", "grayscale"])
        #expect(themes.allSatisfy { $0.appearance == nil })
        // The protocol's requirements are the tokens; unset requirements are not findings.
        #expect(!audit.findings.contains { $0.rule == "parse" })
        // The palettes are dynamic, so every theme is measured in light and dark. Colors from BrowserPalettes.swift,
        // `adaptive(light, dark)`: background (the base background) standard #FFFFFF / #1C1C1E, experimental
        // #FAF8F5 / #222020, grayscale #F2F2F2 / #111111; text #000000 / #FFFFFF, #1F1F1F / #F2F2F2, #111111 / #EEEEEE;
        // secondaryText #6C6C70 / #98989F, #A39E99 / #7A7573, #555555 / #AAAAAA; buttonText #3969EF / #7295F6,
        // #DE5833 / #F07A5A, #222222 / #DDDDDD. buttonBackground is translucent: #3969EF / #7295F6 at 0.12,
        // #DE5833 / #F07A5A at 0.18, #000000 / #FFFFFF at 0.1, composited over that palette's background.
        Self.expectEveryPair(of: audit, type: "PaletteDefinition", [
            ("text", "background", "standard", .light, 21.0000),
            ("secondaryText", "background", "standard", .light, 5.2283),
            ("buttonText", "buttonBackground", "standard", .light, 4.0394),
            ("text", "background", "standard", .dark, 17.0147),
            ("secondaryText", "background", "standard", .dark, 5.9365),
            ("buttonText", "buttonBackground", "standard", .dark, 4.9657),
            ("text", "background", "experimental", .light, 15.5492),
            ("secondaryText", "background", "experimental", .light, 2.5051),
            ("buttonText", "buttonBackground", "experimental", .light, 2.8770),
            ("text", "background", "experimental", .dark, 14.4800),
            ("secondaryText", "background", "experimental", .dark, 3.5659),
            ("buttonText", "buttonBackground", "experimental", .dark, 4.4176),
            ("text", "background", "grayscale", .light, 16.8675),
            ("secondaryText", "background", "grayscale", .light, 6.6594),
            ("buttonText", "buttonBackground", "grayscale", .light, 11.3590),
            ("text", "background", "grayscale", .dark, 16.2753),
            ("secondaryText", "background", "grayscale", .dark, 8.1283),
            ("buttonText", "buttonBackground", "grayscale", .dark, 10.7397),
        ])
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

    /// `ThemedSystem` finds the declarations that are a family's own (the theme choice, one theme's values) once, with
    /// the program's interpreter, for all its graphs; a theme's graph built alone finds them with its own. Both find the
    /// same, and the graph built alone has every token of the system's graph for that theme.
    @Test func theDeclarationsAThemeOwnsAreFoundOnceForEveryTheme() throws {
        for form in ["PaletteInstances", "ThemeSwitch", "PaletteTypes", "PaletteClass", "GeneratedThemeColors"] {
            let directory = Self.fixtures.appendingPathComponent(form).path
            let sources = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }.sorted().map {
                SwiftSourceReader().read(source: try String(contentsOfFile: directory + "/" + $0, encoding: .utf8), file: directory + "/" + $0)
            }
            let system = ThemedSystem.evaluate(sources: sources, interpreter: Interpreter.Configuration(), project: ProjectConfiguration())
            let program = TokenGraph.Program(sources: sources)
            let families = ThemeDiscovery.families(program.interpreter)
            let first = try #require(system.themes.first?.codeName, "\(form)")
            // The system's first theme: each family's member of that name, else its first (as `ThemedSystem` binds them).
            var configuration = Interpreter.Configuration()
            configuration.workers = 1
            for family in families {
                configuration.theme[family.type] = (family.members.first { $0.name.lowercased() == first.lowercased() } ?? family.members[0]).value
            }
            let themeProgram = TokenGraph.Program(program, configuration: configuration)
            let once = TokenGraph.themeOnlyDeclarations(program, families: families)
            #expect(once == TokenGraph.themeOnlyDeclarations(themeProgram, families: families), "\(form)")
            if form == "PaletteInstances" { #expect(once.contains(true)) }  // (`static var current: ReaderPalette`)
            let alone = TokenGraph(program: themeProgram, themeFamilies: families)
            #expect(Set(system.graphs[0].sortedKeys).isSubset(of: alone.sortedKeys), "\(form)")
        }
    }

    @Test func aSystemWithoutThemesHasNoThemeAnywhere() throws {
        let audit = try ExampleAuditTests.audit().audit
        #expect(audit.themes == [])
        #expect(audit.pairs.allSatisfy { $0.theme == nil })
        #expect(audit.findings.allSatisfy { $0.theme == nil })
        #expect(audit.summary.failingByTheme == nil)
    }
}
