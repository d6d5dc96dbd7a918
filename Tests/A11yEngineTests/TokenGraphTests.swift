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

    /// `static func adaptive(light: String, dark: String) -> Color { Color(UIColor { traits in ... dark ... light }) }`
    static let adaptiveHelper = HelperFunction(
        qualifiedName: ["Color", "adaptive"],
        parameters: [HelperParameter(label: "light", name: "light"), HelperParameter(label: "dark", name: "dark")],
        body: .adaptive([.light: .hexColor(.parameter("light"), at: at(3)), .dark: .hexColor(.parameter("dark"), at: at(3))]),
        location: at(2))

    static func adaptiveCall(_ light: String, _ dark: String, line: Int) -> TokenExpression {
        .call(TokenReference(path: ["adaptive"], scope: ["Color"], location: at(line, 40)),
              arguments: [CallArgument(label: "light", value: .string(light)), CallArgument(label: "dark", value: .string(dark))])
    }

    func graph(_ tokens: [TokenDefinition], helpers: [HelperFunction] = [adaptiveHelper]) -> TokenGraph {
        TokenGraph(sources: [ParsedSource(file: Self.file, tokens: tokens, functions: helpers)])
    }

    @Test func helperBodyIsEvaluatedWithItsArgumentsPerAppearance() throws {
        let g = graph([Self.token("Color.appTextPrimary", Self.adaptiveCall("#0F172A", "#F8FAFC", line: 10), line: 10)])
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
            Self.token("Color.appSurfaceBasePrimary", Self.adaptiveCall("#FFFFFF", "#0B1120", line: 5), line: 5),
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

    @Test func cyclicAliasIsAReferenceFindingNotACrash() {
        let g = graph([
            Self.token("Color.a", Self.ref("b"), line: 1),
            Self.token("Color.b", Self.ref("c"), line: 2),
            Self.token("Color.c", Self.ref("a"), line: 3),
        ])
        let findings = g.findings()
        #expect(findings.count == 3)
        #expect(findings.allSatisfy { $0.rule == "reference" && $0.message.contains("cyclic reference") })
        #expect(findings.first?.message.contains("Color.a -> Color.b -> Color.c -> Color.a") == true)
    }

    @Test func danglingReferenceNamesTheMissingTokenAndItsLocation() throws {
        let g = graph([Self.token("Color.appTextLink", Self.ref("appTextAcent", line: 12), line: 12)])
        let finding = try #require(g.findings().first)
        #expect(finding.rule == "reference")
        #expect(finding.message.contains("appTextAcent does not name a token"))
        #expect(finding.location == Self.at(12))
        #expect(finding.relatedLocations == [Self.at(12, 30)])
    }

    @Test func invalidHexIsAParseFindingAtTheLiteral() throws {
        let g = graph([Self.token("Color.bad", .hexColor(.string("#12G"), at: Self.at(4, 30)), line: 4)])
        let finding = try #require(g.findings().first)
        #expect(finding.rule == "parse")
        #expect(finding.message.contains("invalid hex color \"#12G\""))
    }

    @Test func unknownHelperWithLightDarkLabelsIsTreatedAsAdaptive() throws {
        let call = TokenExpression.call(
            TokenReference(path: ["dynamicColor"], scope: ["Color"], location: Self.at(3)),
            arguments: [CallArgument(label: "light", value: .color(.black)), CallArgument(label: "dark", value: .color(.white))])
        let g = graph([Self.token("Color.ink", call, line: 3)], helpers: [])
        let c = try #require(try g.value(of: "Color.ink").get().color)
        #expect(c[.light] == .black && c[.dark] == .white)
    }

    @Test func unknownHelperWithoutLabelsIsAReferenceFinding() throws {
        let call = TokenExpression.call(TokenReference(path: ["mystery"], scope: ["Color"], location: Self.at(3)),
                                        arguments: [CallArgument(label: nil, value: .number(3))])
        let g = graph([Self.token("Color.odd", call, line: 3)], helpers: [])
        let finding = try #require(g.findings().first)
        #expect(finding.message.contains("unknown helper mystery(_:)"))
    }

    @Test func overloadedHelperPicksTheOverloadThatEvaluates() throws {
        // adaptive(light: Color, dark: Color) next to adaptive(light: String, dark: String).
        let colorOverload = HelperFunction(
            qualifiedName: ["Color", "adaptive"],
            parameters: [HelperParameter(label: "light", name: "l"), HelperParameter(label: "dark", name: "d")],
            body: .adaptive([.light: .parameter("l"), .dark: .parameter("d")]), location: Self.at(20))
        let call = TokenExpression.call(TokenReference(path: ["Color", "adaptive"], scope: [], location: Self.at(30)), arguments: [
            CallArgument(label: "light", value: Self.ref("Palette.indigo600", scope: [])),
            CallArgument(label: "dark", value: Self.ref("Palette.indigo400", scope: [])),
        ])
        let g = graph([
            Self.token("Palette.indigo600", .hexColor(.string("#4F46E5"), at: Self.at(1)), line: 1),
            Self.token("Palette.indigo400", .hexColor(.string("#818CF8"), at: Self.at(2)), line: 2),
            Self.token("Color.appSurfaceBrand", call, line: 30),
        ], helpers: [Self.adaptiveHelper, colorOverload])
        let c = try #require(try g.value(of: "Color.appSurfaceBrand").get().color)
        #expect(c[.light].hex == "#4F46E5")
        #expect(c[.dark].hex == "#818CF8")
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
            Self.token("Font.appBody", .fontModifier(.font(FontExpression(kind: .system, size: .number(16), location: Self.at(4))),
                                                     name: "relativeTo", argument: .enumCase("callout")), kind: .font, line: 4),
            Self.token("Font.appTiny", .font(FontExpression(kind: .custom, size: .number(10), face: .string("Inter-Bold"), location: Self.at(5))), kind: .font, line: 5),
        ])
        #expect(try g.value(of: "Color.scrim").get().color?[.dark].alpha == 0.4)
        #expect(try g.value(of: "CGFloat.space4").get().number == 16)
        let body = try #require(try g.value(of: "Font.appBody").get().font)
        #expect(body.scales && body.textStyle == "callout" && body.size == 16)
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
