import A11yEngine
import Foundation
import Testing
@testable import A11yReaders

func readTokens(_ text: String, appearance: Appearance? = nil, file: String = "t.tokens.json") -> ParsedSource {
    DesignTokenReader.read(text: text, file: file, appearance: appearance)
}

func token(_ source: ParsedSource, _ path: String) -> TokenDefinition? {
    source.tokens.first { $0.qualifiedName.joined(separator: ".") == path }
}

func colorValue(_ expression: TokenExpression?) -> ColorValue? {
    if case .color(let c)? = expression { return c }
    return nil
}

func referencePath(_ expression: TokenExpression?) -> [String]? {
    if case .reference(let r)? = expression { return r.path }
    return nil
}

func adaptiveValues(_ expression: TokenExpression?) -> [Appearance: TokenExpression]? {
    if case .adaptive(let values)? = expression { return values }
    return nil
}

struct DesignTokenReaderTests {
    @Test func dtcgHexColorsWithGroupTypeAndLocations() throws {
        let text = """
        {
          "color": {
            "$type": "color",
            "text": {
              "primary": { "$value": "#0F172A", "$description": "Body text" },
              "muted": { "$value": "#64748b80" }
            }
          }
        }
        """
        let source = readTokens(text)
        #expect(source.findings.isEmpty)
        let primary = try #require(token(source, "color.text.primary"))
        #expect(primary.declaredKind == .color)
        #expect(primary.location == SourceLocation(file: "t.tokens.json", line: 5, column: 7))
        #expect(colorValue(primary.expression) == ColorValue(hex: "#0F172A"))
        #expect(close(colorValue(token(source, "color.text.muted")?.expression)?.alpha ?? 0, 128.0 / 255))
    }

    @Test func dtcgColorObjectInEverySupportedSpace() throws {
        let text = """
        {"c": {"$type": "color",
          "srgb": {"$value": {"colorSpace": "srgb", "components": [1, 0.5, 0], "alpha": 0.5}},
          "p3": {"$value": {"colorSpace": "display-p3", "components": [1, 0, 0]}},
          "lin": {"$value": {"colorSpace": "srgb-linear", "components": [0.5, 0.5, 0.5]}},
          "hsl": {"$value": {"colorSpace": "hsl", "components": [120, 100, 25]}},
          "oklch": {"$value": {"colorSpace": "oklch", "components": [1, 0, "none"]}},
          "fallback": {"$value": {"colorSpace": "rec2020", "components": [1, 0, 0], "hex": "#ff0000"}}
        }}
        """
        let source = readTokens(text)
        #expect(close(colorValue(token(source, "c.srgb")?.expression), 1, 0.5, 0, alpha: 0.5))
        // Display P3 red -> sRGB (1.093, -0.227, -0.150) before clipping (CSS Color 4 matrices): clipped + info.
        #expect(close(colorValue(token(source, "c.p3")?.expression), 1, 0, 0))
        #expect(source.findings.map(\.rule) == ["gamut"])
        #expect(source.findings.first?.severity == .info)
        // Linear 0.5 -> 1.055 * 0.5^(1/2.4) - 0.055 = 0.73536.
        #expect(close(colorValue(token(source, "c.lin")?.expression), 0.73536, 0.73536, 0.73536))
        // hsl(120, 100%, 25%) = rgb(0, 127.5, 0) (CSS Color 4 § 7).
        #expect(close(colorValue(token(source, "c.hsl")?.expression), 0, 0.5, 0))
        // OKLCH L = 1, C = 0 is white (Ottosson's matrices map (1, 0, 0) to linear (1, 1, 1)).
        #expect(close(colorValue(token(source, "c.oklch")?.expression), 1, 1, 1, 0.001))
        // An unsupported space falls back on `hex`, as the DTCG color module intends.
        #expect(colorValue(token(source, "c.fallback")?.expression) == ColorValue(hex: "#ff0000"))
    }

    @Test func rgbAndRgbaStrings() {
        let source = readTokens("""
        {"a": {"value": "rgb(245, 249, 255)"}, "b": {"value": "rgba(0, 0, 0, 0.4)"},
         "c": {"$type": "color", "$value": "rgb(100% 0% 0% / 50%)"},
         "d": {"$type": "color", "$value": "rgba({colors.blue}, 50%)"}}
        """)
        #expect(source.findings.isEmpty)
        #expect(close(colorValue(token(source, "a")?.expression), 245.0 / 255, 249.0 / 255, 1))
        #expect(close(colorValue(token(source, "b")?.expression), 0, 0, 0, alpha: 0.4))
        #expect(close(colorValue(token(source, "c")?.expression), 1, 0, 0, alpha: 0.5))
        guard case .opacity(let base, .number(let alpha))? = token(source, "d")?.expression else {
            Issue.record("expected opacity over a reference"); return
        }
        #expect(referencePath(base) == ["colors", "blue"])
        #expect(alpha == 0.5)
    }

    @Test func wholeValueAliasesBecomeReferencesWithTheirLocation() throws {
        let source = readTokens("""
        {"color": {"text": {"primary": {"$type": "color", "$value": "{color.gray.900}"}}}}
        """)
        let definition = try #require(token(source, "color.text.primary"))
        guard case .reference(let reference) = definition.expression else {
            Issue.record("expected a reference"); return
        }
        #expect(reference.path == ["color", "gray", "900"])
        #expect(reference.scope.isEmpty)
        #expect(reference.location == SourceLocation(file: "t.tokens.json", line: 1, column: 61))
    }

    @Test func dimensionsInEveryForm() {
        let source = readTokens("""
        {"space": {"$type": "dimension",
          "a": {"$value": "16px"}, "b": {"$value": {"value": 44, "unit": "px"}}, "c": {"$value": 8},
          "d": {"$value": "1.5rem"}, "e": {"$value": "{space.a}"}, "f": {"$value": "{space.a} * 2"}},
         "legacy": {"value": "4", "type": "spacing"}}
        """)
        #expect(source.findings.isEmpty)
        func number(_ path: String) -> Double? {
            if case .number(let n)? = token(source, path)?.expression { return n }
            return nil
        }
        #expect(number("space.a") == 16)
        #expect(number("space.b") == 44)
        #expect(number("space.c") == 8)
        #expect(number("space.d") == 24)
        #expect(number("legacy") == 4)
        #expect(referencePath(token(source, "space.e")?.expression) == ["space", "a"])
        guard case .arithmetic(let left, let op, .number(2))? = token(source, "space.f")?.expression else {
            Issue.record("expected arithmetic"); return
        }
        #expect(op == "*")
        #expect(referencePath(left) == ["space", "a"])
        #expect(token(source, "space.a")?.declaredKind == .number)
    }

    @Test func typographyBecomesAFixedCustomFont() throws {
        let source = readTokens("""
        {"font": {"title": {"$type": "typography", "$value": {
          "fontFamily": "{font.family.sans}", "fontSize": {"value": 34, "unit": "px"}, "fontWeight": 600,
          "lineHeight": 1.2}}}}
        """)
        #expect(source.findings.isEmpty)
        let definition = try #require(token(source, "font.title"))
        #expect(definition.declaredKind == .font)
        guard case .font(let font) = definition.expression else { Issue.record("expected a font"); return }
        #expect(font.kind == .custom)
        #expect(font.size == .number(34))
        #expect(font.weight == .enumCase("semibold"))
        #expect(referencePath(font.face) == ["font", "family", "sans"])
        #expect(font.relativeTo == nil)
    }

    @Test func styleDictionaryLegacyForm() {
        let source = readTokens("""
        {"color": {"base": {"red": {"50": { "value": "#FFE5EE", "attributes": { "font": "base" }, "type": "color" }}},
                   "font": {"base": { "value": "{color.base.red.50}", "type": "color" }}}}
        """)
        #expect(source.findings.isEmpty)
        #expect(colorValue(token(source, "color.base.red.50")?.expression) == ColorValue(hex: "#FFE5EE"))
        #expect(referencePath(token(source, "color.font.base")?.expression) == ["color", "base", "red", "50"])
    }

    @Test func perModeFileWrapsEveryTokenInItsAppearance() {
        let source = readTokens(##"{"bg": {"value": "#101317", "type": "color"}}"##, appearance: .darkHighContrast)
        let values = adaptiveValues(token(source, "bg")?.expression)
        #expect(values?.keys.sorted() == [.darkHighContrast])
        #expect(colorValue(values?[.darkHighContrast]) == ColorValue(hex: "#101317"))
    }

    @Test func spectrumSetsBecomeAdaptive() {
        let source = readTokens("""
        {"blue-100": {"$schema": "https://opensource.adobe.com/spectrum-design-data/schemas/token-types/color-set.json",
          "sets": {"light": {"value": "rgb(245, 249, 255)"}, "dark": {"value": "rgb(14, 23, 63)"},
                   "wireframe": {"value": "rgb(246, 248, 252)"}}}}
        """)
        #expect(source.findings.isEmpty)
        let values = adaptiveValues(token(source, "blue-100")?.expression)
        #expect(values?.keys.sorted() == [.light, .dark])
        #expect(close(colorValue(values?[.dark]), 14.0 / 255, 23.0 / 255, 63.0 / 255))
        #expect(token(source, "blue-100")?.declaredKind == .color)
    }

    @Test func modeExtensionsBecomeAdaptive() {
        let source = readTokens("""
        {"fg": {"$type": "color", "$value": "#111111",
                "$extensions": {"mode": {"dark": "#eeeeee", "dark-high-contrast": "#ffffff", "dark-dimmed": "#cccccc"}}},
         "muted": {"$type": "color", "$value": "{base.neutral.9}",
                "$extensions": {"org.primer.overrides": {"light-high-contrast": "{base.neutral.10}"}}}}
        """)
        let fg = adaptiveValues(token(source, "fg")?.expression)
        #expect(fg?.keys.sorted() == [.light, .dark, .darkHighContrast])
        #expect(colorValue(fg?[.dark]) == ColorValue(hex: "#eeeeee"))
        let muted = adaptiveValues(token(source, "muted")?.expression)
        #expect(referencePath(muted?[.lightHighContrast]) == ["base", "neutral", "10"])
        #expect(referencePath(muted?[.light]) == ["base", "neutral", "9"])
    }

    @Test func tokensStudioAlphaModifierIsOpacityAndOthersAreUnevaluable() {
        let source = readTokens("""
        {"a": {"value": "#FFFFFF", "type": "color", "$extensions": {"studio.tokens": {"modify": {"type": "alpha", "value": "0.3"}}}},
         "b": {"value": "#FFFFFF", "type": "color", "$extensions": {"studio.tokens": {"modify": {"type": "darken", "value": "0.1"}}}}}
        """)
        #expect(source.findings.isEmpty)
        guard case .opacity(.color(let base), .number(let factor))? = token(source, "a")?.expression else {
            Issue.record("expected opacity"); return
        }
        #expect(base == .white && factor == 0.3)
        guard case .unevaluable(let reason, _)? = token(source, "b")?.expression else {
            Issue.record("expected unevaluable"); return
        }
        #expect(reason.contains("darken"))
    }

    @Test func typesTheAuditDoesNotUseAreSkippedQuietly() {
        let source = readTokens("""
        {"shadow": {"$type": "shadow", "sm": {"$value": {"color": "#000", "offsetX": "0px"}}},
         "dur": {"$type": "duration", "fast": {"$value": "100ms"}}}
        """)
        #expect(source.tokens.isEmpty)
        #expect(source.findings.isEmpty)
    }

    @Test func nonTokenDocumentsGiveNothing() {
        #expect(readTokens(#"[{"id": "x", "selectedTokenSets": {}}]"#, file: "$themes.json").tokens.isEmpty)
        let resolver = readTokens(#"{"$schema": "https://www.designtokens.org/schemas/2025.10/resolver.json", "sets": {}}"#)
        #expect(resolver.tokens.isEmpty && resolver.findings.isEmpty)
    }

    // MARK: Errors: JSON path in the message, file:line:column in the location

    static let invalidDocuments: [(String, Int, Int, String)] = [
        // invalid hex
        ("{\"color\": {\"bad\": {\"$type\": \"color\",\n  \"$value\": \"#12345\"}}}", 2, 13, "color.bad: invalid color \"#12345\""),
        // not a color at all
        ("{\"c\": {\"$type\": \"color\", \"$value\": \"blue-ish\"}}", 1, 36, "c: invalid color"),
        // unknown $type (reported where the type is written)
        ("{\"g\": {\"$type\": \"colour\", \"t\": {\"$value\": \"#fff\"}}}", 1, 17, "g.t: unknown $type \"colour\""),
        // wrong value type for a dimension
        ("{\"s\": {\"$type\": \"dimension\", \"$value\": true}}", 1, 40, "s: invalid dimension"),
        // color object with a string component
        ("{\"c\": {\"$type\": \"color\", \"$value\": {\"colorSpace\": \"srgb\", \"components\": [1, \"x\", 0]}}}", 1, 77, "component \"x\" is not a number"),
        // malformed JSON: truncated
        ("{\"a\": {\"$value\": \"#fff\"", 1, 24, "Invalid JSON"),
    ]

    @Test(arguments: invalidDocuments)
    func invalidTokensAreParseFindingsWithPathAndPosition(text: String, line: Int, column: Int, message: String) throws {
        let source = readTokens(text)
        let finding = try #require(source.findings.first)
        #expect(finding.rule == "parse" && finding.severity == .error)
        #expect(finding.location == SourceLocation(file: "t.tokens.json", line: line, column: column), "\(finding.message)")
        #expect(finding.message.contains(message), "\(finding.message)")
    }

    // MARK: Mode names

    static let fileNames: [(String, Appearance?)] = [
        ("dark.tokens.json", .dark), ("light.tokens.json", .light), ("light_ax.tokens.json", .lightHighContrast),
        ("dark_ax.tokens.json", .darkHighContrast), ("light.high-contrast.tokens.json", .lightHighContrast),
        ("theme-dark-hc.json", .darkHighContrast), ("theme-semantics-light-hc.json", .lightHighContrast),
        ("colorsDarkHighContrast.json", .darkHighContrast), ("theme-semantics.json", nil),
        ("lightness.json5", nil), ("tokens/dark/base.json", nil),
    ]

    @Test(arguments: fileNames)
    func appearanceGuessedFromTheFileName(name: String, appearance: Appearance?) {
        #expect(DesignTokenReader.guessAppearance(fileName: name) == appearance)
    }

    // MARK: The real corpus

    static func isTokenFile(_ relative: String) -> Bool {
        (relative.hasSuffix(".json") || relative.hasSuffix(".json5")) && !relative.contains(".xcassets/")
    }

    @Test(.enabled(if: Corpus.isPresent, Corpus.skipMessage))
    func everyCorpusTokenFileReadsWithoutUnexpectedParseFindings() {
        let paths = Corpus.files(where: Self.isTokenFile)
        #expect(paths.count > 50)
        var tokens = 0
        for path in paths {
            guard let text = Corpus.text(path) else { Issue.record("unreadable \(path)"); continue }
            let source = DesignTokenReader.read(
                text: text, file: path, appearance: DesignTokenReader.guessAppearance(fileName: path))
            let parse = source.findings.filter { $0.rule == "parse" }
            #expect(parse.isEmpty, "\(path): \(parse.map { "\($0.location?.description ?? "") \($0.message)" })")
            tokens += source.tokens.count
        }
        #expect(tokens > 3000)
    }

    func corpusTokens(_ relative: String) throws -> ParsedSource {
        let path = Corpus.root.path + "/" + relative
        let text = try #require(Corpus.text(path))
        return DesignTokenReader.read(text: text, file: path,
                                      appearance: DesignTokenReader.guessAppearance(fileName: relative))
    }

    @Test(.enabled(if: Corpus.isPresent, Corpus.skipMessage))
    func elementDarkHighContrastThemeBackground() throws {
        // theme-dark-hc.json: "color.theme.bg" "value": "#101317" -> (16, 19, 23) / 255 in darkHighContrast.
        let source = try corpusTokens("element-hq__compound-design-tokens/tokens/theme-dark-hc.json")
        let values = try #require(adaptiveValues(token(source, "color.theme.bg")?.expression))
        #expect(values.keys.sorted() == [.darkHighContrast])
        #expect(close(colorValue(values[.darkHighContrast]), 16.0 / 255, 19.0 / 255, 23.0 / 255))
        #expect(token(source, "color.theme.bg")?.location.line == 4)
        // theme-semantics.json (no mode word): plain references resolved per appearance by the graph.
        let semantics = try corpusTokens("element-hq__compound-design-tokens/tokens/theme-semantics.json")
        #expect(referencePath(token(semantics, "color.text.primary")?.expression) == ["color", "gray", "1400"])
    }

    @Test(.enabled(if: Corpus.isPresent, Corpus.skipMessage))
    func elementSpacingMath() throws {
        let source = try corpusTokens("element-hq__compound-design-tokens/tokens/cross-platform.json")
        guard case .arithmetic(let left, "*", .number(0.5))? = token(source, "space.0_5x")?.expression else {
            Issue.record("expected {space.scale} * 0.5"); return
        }
        #expect(referencePath(left) == ["space", "scale"])
    }

    @Test(.enabled(if: Corpus.isPresent, Corpus.skipMessage))
    func appleHIGDarkAccessibleBlueAndLargeTitle() throws {
        // dark_ax.tokens.json systemBlue: components [0.25098, 0.61176, 1] = #409cff, in darkHighContrast.
        let colors = try corpusTokens("terrazzoapp__dtcg-examples/apple-hig/color/dark_ax.tokens.json")
        let blue = try #require(adaptiveValues(token(colors, "color.systemBlue")?.expression))
        #expect(close(colorValue(blue[.darkHighContrast]), 0x40 / 255.0, 0x9C / 255.0, 1))
        // White text on it, by hand: L(blue) = 0.2126*0.05127 + 0.7152*0.33245 + 0.0722*1 = 0.32087;
        // (1.05) / (0.32087 + 0.05) = 2.83: fails 4.5:1 text, fails 3:1 graphics.
        let ratio = ColorValue.contrastRatio(.white, try #require(colorValue(blue[.darkHighContrast])))
        #expect(displayRatio(ratio) == "2.83")

        let text = try corpusTokens("terrazzoapp__dtcg-examples/apple-hig/font/textStyle/large.tokens.json")
        guard case .font(let font)? = token(text, "font.textStyle.largeTitle")?.expression else {
            Issue.record("expected a font"); return
        }
        #expect(font.size == .number(34))
        #expect(font.weight == .enumCase("regular"))
        #expect(referencePath(font.face) == ["font", "design", "default"])
    }

    @Test(.enabled(if: Corpus.isPresent, Corpus.skipMessage))
    func spectrumPaletteAndPrimerOverrides() throws {
        let palette = try corpusTokens("adobe__spectrum-design-data/packages/tokens/src/color-palette.json")
        let blue = try #require(adaptiveValues(token(palette, "blue-100")?.expression))
        #expect(close(colorValue(blue[.light]), 245.0 / 255, 249.0 / 255, 1))
        #expect(close(colorValue(blue[.dark]), 14.0 / 255, 23.0 / 255, 63.0 / 255))

        let primer = try corpusTokens("terrazzoapp__dtcg-examples/github-primer/functional/color/fgColor.json5")
        let fg = try #require(adaptiveValues(token(primer, "fgColor.default")?.expression))
        #expect(referencePath(fg[.light]) == ["base", "color", "neutral", "13"])
        #expect(referencePath(fg[.dark]) == ["base", "color", "neutral", "12"])
        #expect(referencePath(fg[.darkHighContrast]) == ["base", "color", "neutral", "13"])
    }
}
