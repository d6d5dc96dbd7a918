import Testing
@testable import A11yEngine

/// The graph evaluates the readers' IR; these build IR by hand so the engine is tested without any reader.
struct TokenGraphTests {
    static let file = "DesignTokens.swift"
    static func at(_ line: Int, _ column: Int = 16) -> A11yEngine.SourceLocation { A11yEngine.SourceLocation(file: file, line: line, column: column) }
    static func ref(_ path: String, scope: [String] = ["Color"], implicit: Bool = false, kind: TokenKind? = .color, line: Int = 99) -> TokenExpression {
        .reference(TokenReference(path: path.split(separator: ".").map(String.init), isImplicitMember: implicit,
                                  expectedKind: kind, scope: scope, location: at(line, 30)))
    }
    static func token(_ name: String, _ expression: TokenExpression, kind: TokenKind? = .color, line: Int) -> TokenDefinition {
        TokenDefinition(qualifiedName: name.split(separator: ".").map(String.init), declaredKind: kind, expression: expression, location: at(line))
    }

    func graph(_ tokens: [TokenDefinition]) -> TokenGraph {
        TokenGraph(sources: [ParsedSource(file: Self.file, tokens: tokens)])
    }

    static func hex(_ light: String, _ dark: String) -> TokenExpression {
        .adaptive([.light: .color(ColorValue(hex: light)!), .dark: .color(ColorValue(hex: dark)!)])
    }

    @Test func perAppearanceValuesFallBackAsIOSDoes() throws {
        let g = graph([Self.token("Color.appTextPrimary", Self.hex("#0F172A", "#F8FAFC"), line: 10)])
        let color = try #require(try g.value(of: "Color.appTextPrimary").get().color)
        #expect(color[.light].hex == "#0F172A")
        #expect(color[.dark].hex == "#F8FAFC")
        // High contrast falls back to the base mode, and the fallback is visible.
        #expect(color[.darkHighContrast].hex == "#F8FAFC")
        #expect(color.explicit == [.light, .dark])
        #expect(color.source(for: .darkHighContrast) == .dark)
    }

    @Test func aliasesResolveThroughScopesAndImplicitMembers() throws {
        let g = graph([
            Self.token("Color.appSurfaceBasePrimary", Self.hex("#FFFFFF", "#0B1120"), line: 5),
            Self.token("Color.appBackground", Self.ref("appSurfaceBasePrimary"), line: 6),
            Self.token("NativePickerStyling.Colors.background",
                       Self.ref("appBackground", scope: ["NativePickerStyling", "Colors"], implicit: true), line: 7),
            Self.token("NativePickerStyling.Colors.menu", Self.ref("UIColor.appBackground", scope: ["NativePickerStyling", "Colors"]), line: 8),
        ])
        for key in ["Color.appBackground", "NativePickerStyling.Colors.background", "NativePickerStyling.Colors.menu"] {
            let c = try #require(try g.value(of: key).get().color, "\(key)")
            #expect(c[.dark].hex == "#0B1120")
        }
    }

    /// `resolve` hashes each ASCII candidate where it writes it and finds it by its bytes among the rows (no string made);
    /// a candidate that is not ASCII is made and looked up as it is. Both find the innermost token, and nothing else.
    @Test func resolveFindsCandidatesHashedInPlaceAndNamesThatAreNotASCII() {
        let g = graph([
            Self.token("Color.brand", Self.hex("#FFFFFF", "#000000"), line: 1),
            Self.token("Palette.Colors.brand", Self.hex("#111111", "#222222"), line: 2),
            Self.token("Thème.Couleurs.fond", Self.hex("#333333", "#444444"), line: 3),
        ])
        func resolve(_ path: [String], scope: [String], implicit: Bool = false) -> String? {
            g.resolve(TokenReference(path: path, isImplicitMember: implicit, expectedKind: .color, scope: scope, location: Self.at(9)))
        }
        #expect(resolve(["Colors", "brand"], scope: ["Palette"]) == "Palette.Colors.brand")
        #expect(resolve(["brand"], scope: ["Palette", "Colors"], implicit: true) == "Color.brand")
        #expect(resolve(["UIColor", "brand"], scope: ["Palette", "Colors"]) == "Color.brand")
        #expect(resolve(["Couleurs", "fond"], scope: ["Thème"]) == "Thème.Couleurs.fond")
        #expect(resolve(["fond"], scope: ["Thème", "Couleurs"]) == "Thème.Couleurs.fond")
        #expect(resolve(["Couleurs", "brand"], scope: ["Thème"]) == nil)
        #expect(resolve(["brand"], scope: ["Palette", "Colours"], implicit: true) == "Color.brand")
        #expect(resolve(["Colors", "missing"], scope: ["Palette"]) == nil)
        // The whole path a key (at the outermost scope, no owner before it), and a candidate one byte short of a key.
        #expect(resolve(["Palette", "Colors", "brand"], scope: ["Other"]) == "Palette.Colors.brand")
        #expect(resolve(["Palette", "Colors", "bran"], scope: ["Other"]) == nil)
    }

    @Test func cyclicAliasIsOneReferenceFindingNamingEveryTokenInTheCycle() {
        let g = graph([
            Self.token("Color.a", Self.ref("b"), line: 1),
            Self.token("Color.b", Self.ref("c"), line: 2),
            Self.token("Color.c", Self.ref("a"), line: 3),
        ])
        let findings = g.findings()
        // One root cause, one finding (the "one finding per root cause"); it lists the three tokens.
        #expect(findings.count == 1)
        #expect(findings.allSatisfy { $0.rule == "reference" && $0.message.contains("cyclic reference") })
        #expect(findings.first?.message.contains("Color.a -> Color.b -> Color.c -> Color.a") == true)
        #expect(findings.first?.message.contains("3 tokens depend on it") == true)
        #expect(findings.first?.relatedLocations.count == 3)
    }

    @Test func danglingReferenceNamesTheMissingTokenAndItsLocation() throws {
        let g = graph([Self.token("Color.appTextLink", Self.ref("appTextAcent", line: 12), line: 12)])
        let finding = try #require(g.findings().first)
        #expect(finding.rule == "reference")
        #expect(finding.message.contains("appTextAcent does not name a token"))
        #expect(finding.location == Self.at(12))
        #expect(finding.relatedLocations == [Self.at(12, 30)])
    }

    @Test func tokensUsingOneBrokenPrimitiveAreOneFindingAtThePrimitive() throws {
        let g = graph([
            Self.token("Color.base", .unevaluable(reason: "cannot evaluate `mystery()`", at: Self.at(1, 20)), line: 1),
            Self.token("Color.a", Self.ref("base"), line: 2),
            Self.token("Color.b", .opacity(Self.ref("base"), .number(0.5)), line: 3),
        ])
        let findings = g.findings()
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.location == Self.at(1, 20))
        #expect(finding.message.contains("3 tokens depend on it: a, b, base"))
    }

    @Test func nestedAdaptiveTokensResolveInTheAppearanceOfTheirBranch() throws {
        // adaptive(light: X, dark: Y) where X itself has an increased-contrast value.
        let x = TokenExpression.adaptive([.light: .color(.white), .lightHighContrast: .color(ColorValue(white: 0.9))])
        let g = graph([
            Self.token("Color.x", x, line: 1),
            Self.token("Color.y", .color(.black), line: 2),
            Self.token("Color.z", .adaptive([.light: Self.ref("x"), .dark: Self.ref("y")]), line: 3),
        ])
        let z = try #require(try g.value(of: "Color.z").get().color)
        #expect(z[.lightHighContrast] == ColorValue(white: 0.9))
        #expect(z.explicit.contains(.lightHighContrast))
        #expect(z[.darkHighContrast] == .black)
        #expect(!z.explicit.contains(.darkHighContrast))
    }

    @Test func opacityAndArithmeticAndFontsEvaluate() throws {
        let g = graph([
            Self.token("Color.scrim", .opacity(.color(.black), .number(0.4)), line: 1),
            Self.token("CGFloat.space2", .number(8), kind: .number, line: 2),
            Self.token("CGFloat.space4", .arithmetic(Self.ref("space2", scope: ["CGFloat"], kind: .number), operator: "*", .number(2)), kind: .number, line: 3),
            Self.token("Font.appTiny", .font(FontExpression(kind: .custom, size: .number(10), face: .string("Inter-Bold"), location: Self.at(5))), kind: .font, line: 5),
        ])
        #expect(try g.value(of: "Color.scrim").get().color?[.dark].alpha == 0.4)
        #expect(try g.value(of: "CGFloat.space4").get().number == 16)
        let tiny = try #require(try g.value(of: "Font.appTiny").get().font)
        #expect(!tiny.scales && tiny.numericWeight == 700)
    }

    @Test func builtInSystemColorsResolveWhenNoTokenMatches() throws {
        let g = graph([
            Self.token("Color.ink", Self.ref("Color.primary", scope: []), line: 1),
            Self.token("Color.page", Self.ref("systemBackground", scope: ["Color"], implicit: true), line: 2),
        ])
        let ink = try #require(try g.value(of: "Color.ink").get().color)
        #expect(ink[.light] == .black && ink[.dark] == .white)
        let page = try #require(try g.value(of: "Color.page").get().color)
        #expect(page[.dark] == .black)
    }

    @Test func perModeSourcesMergeIntoOneToken() throws {
        let light = ParsedSource(file: "light.tokens.json", tokens: [Self.token("color.text", .adaptive([.light: .color(.black)]), line: 1)])
        let dark = ParsedSource(file: "dark.tokens.json", tokens: [Self.token("color.text", .adaptive([.dark: .color(.white)]), line: 1)])
        let g = TokenGraph(sources: [light, dark])
        let c = try #require(try g.value(of: "color.text").get().color)
        #expect(c[.light] == .black && c[.dark] == .white)
        #expect(g.findings().isEmpty)
    }

    @Test func duplicateDefinitionIsAWarningAndTheFirstFileWins() {
        let a = ParsedSource(file: "A.swift", tokens: [Self.token("Color.x", .color(.black), line: 1)])
        let b = ParsedSource(file: "B.swift", tokens: [Self.token("Color.x", .color(.white), line: 1)])
        let g = TokenGraph(sources: [b, a])
        #expect(g.findings().map(\.severity) == [.warning])
        #expect(try! g.value(of: "Color.x").get().color?[.light] == .black)
    }
}

/// `isPerThemeValue` compares ASCII member names with theme names byte by byte: the same answer as lowercasing the name
/// and asking `hasSuffix`, as it did for every name.
struct ThemeSuffixTests {
    @Test func byteComparisonAgreesWithLowercasedSuffix() {
        let names = ["primaryText01Dark", "primaryText01DARK", "primaryText01dark", "dark", "Dark", "darker", "textDarkBlue",
                     "surfaceExtraDark", "surfaceExtraDarkX", "x", "", "ROSE", "primaryRose", "primaryRoseGold", "lightDark"]
        let themes = ["dark", "light", "extradark", "rose", "rosegold", "x"]
        for name in names {
            for theme in themes {
                var bytes = name
                let byBytes = bytes.withUTF8 { TokenGraph.endsInLowercase($0, with: Array(theme.utf8)) }
                let lowered = name.lowercased()
                #expect(byBytes == (lowered.count > theme.count && lowered.hasSuffix(theme)), "\(name) / \(theme)")
            }
        }
    }
}
