import A11yEngine
import A11yReaders
import Foundation
import Testing

/// The interpreter on the token idioms of real design systems, each reproduced in a fixture written here
/// (Tests/Fixtures/Evaluator). Expected values are computed by hand from the literals in the fixtures.
struct EvaluatorFixtureTests {
    static let fixtures = ExampleAuditTests.packageRoot.appendingPathComponent("Tests/Fixtures/Evaluator")

    static func graph(idiom: String = "phone") throws -> TokenGraph {
        let files = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".swift") }.sorted()
        let reader = SwiftSourceReader()
        let sources = try files.map { name in
            let path = fixtures.appendingPathComponent(name).path
            return reader.read(source: try String(contentsOfFile: path, encoding: .utf8), file: path)
        }
        var configuration = Interpreter.Configuration()
        configuration.idiom = idiom
        return TokenGraph(sources: sources, configuration: configuration)
    }

    let shared: TokenGraph
    init() throws { shared = try Self.graph() }

    func color(_ key: String) throws -> AppearanceColor {
        try #require(shared.value(of: key).get().color, "\(key)")
    }

    func number(_ key: String) throws -> Double {
        try #require(shared.value(of: key).get().number, "\(key)")
    }

    @Test func structWithLightAndDarkMembersAndATraitSwitch() throws {
        let surface = try color("PairTokens.surface.color")
        #expect(surface[.light] == .white)
        #expect(surface[.dark] == ColorValue(red: 0.1, green: 0.1, blue: 0.1))
        #expect(surface.explicit == [.light, .dark])
        let ink = try color("PairTokens.ink.color")
        #expect(ink[.light] == ColorValue(red: 0.1, green: 0.1, blue: 0.1) && ink[.dark] == .white)
        // The stored light and dark members are the pair's inputs, not colors anything draws: no tokens of their own.
        #expect(shared.tokens["PairTokens.surface.darkColor"] == nil && shared.tokens["PairTokens.surface.lightColor"] == nil)
    }

    @Test func integerHexInitialisersWithBitOperators() throws {
        #expect(try color("HexTokens.canvas")[.light].hex == "#F5F5F5")
        let tint = try color("HexTokens.linkTint")[.dark]
        #expect(tint.withAlpha(1).hex == "#3366CC")
        #expect(abs(tint.alpha - 0.1) < 1e-9)
        #expect(try color("HexTokens.link")[.light].hex == "#3366CC")
    }

    @Test func helpersWithLabelledTupleParameters() throws {
        let text = try color("TupleTokens.text")
        #expect(text[.light].hex == "#1A334D") // (0.1, 0.2, 0.3) x 255 rounded
        #expect(text[.dark].hex == "#E6E6E6")  // 0.9 x 255 = 229.5 -> 230
        // Unlabelled tuples take the labels of the typealias they are passed as.
        let veil = try color("TupleTokens.veil")
        #expect(veil[.light] == ColorValue(red: 0, green: 0, blue: 0, alpha: 0.5))
        #expect(veil[.dark] == ColorValue(red: 1, green: 1, blue: 1, alpha: 0.25))
    }

    @Test func staticFunctionsUsedAsImplicitMembersAndHexNamedStatics() throws {
        #expect(try color("ShadeTokens.divider")[.light] == ColorValue(red: 0, green: 0, blue: 0, alpha: 0.06))
        #expect(try color("ShadeTokens.text")[.dark].hex == "#2F2F2F")
        #expect(try color("ShadeTokens.page")[.light].hex == "#FAFAFA")
    }

    @Test func tokenFunctionsSwitchingOverAnEnumGiveOneTokenPerCase() throws {
        #expect(try color("Theme.color.text")[.light].hex == "#1A1A1A")
        // A case that calls the function again, and `default:` for the case the switch does not list.
        #expect(try color("Theme.color.textMuted")[.light] == ColorValue(hex: "#1A1A1A")!.multiplyingAlpha(0.6))
        #expect(try color("Theme.color.surface")[.dark] == .white)
        #expect(try color("Theme.color.accent")[.light].hex == "#0055FF")
        // Enum properties: raw values and a switch over self.
        #expect(try number("Spacing.small.value") == 4)
        #expect(try number("Spacing.large.value") == 16)
        #expect(try color("IconTone.neutral.color")[.light].hex == "#666666")
        #expect(try color("IconTone.danger.color")[.light].hex == "#CC0000")
    }

    @Test func structValuedTokensExposeTheirFieldsWithHandComputedContrast() throws {
        let fill = try color("Tones.primary.fill")[.light], text = try color("Tones.primary.text")[.light]
        #expect(fill.hex == "#0044CC" && text == .white)
        // White on #0044CC: L = 0.7152 x 0.0578 + 0.0722 x 0.6038 = 0.0849; (1 + 0.05) / (0.0849 + 0.05) = 7.78.
        #expect(abs(ColorValue.contrastRatio(text, fill) - 7.78) < 0.01)
        #expect(try color("Tones.primary.border")[.light].hex == "#002288")
        // A field left at its default value.
        #expect(try color("Tones.warning.border")[.light] == .clear)
        // #222222 on #FFCC00: L = 0.0160 and 0.6308; (0.6308 + 0.05) / (0.0160 + 0.05) = 10.52.
        let warningRatio = ColorValue.contrastRatio(try color("Tones.warning.text")[.light], try color("Tones.warning.fill")[.light])
        #expect(abs(warningRatio - 10.52) < 0.01)
    }

    @Test func hexStringInitialisersAreReadByTheirSignature() throws {
        #expect(try color("ScannedTokens.brand")[.light].hex == "#FF6600")
        #expect(try color("ScannedTokens.brandHalf")[.light] == ColorValue(hex: "#FF6600")!.multiplyingAlpha(0.5))
        let broken = try #require(shared.findings().first { $0.subject == "ScannedTokens.broken" })
        #expect(broken.rule == "parse" && broken.message.contains("invalid hex color \"#FF66G0\""))
    }

    @Test func contrastAndIdiomTraitsProtocolExtensionsAndFallbacks() throws {
        let emphasis = try color("TraitTokens.emphasis")
        #expect(emphasis[.light].hex == "#0066CC" && emphasis[.dark].hex == "#0066CC")
        #expect(emphasis[.lightHighContrast] == .black && emphasis[.darkHighContrast] == .white)
        #expect(emphasis.explicit == .all)
        #expect(try number("TraitTokens.chipHeight") == 32)
        #expect(try Self.graph(idiom: "pad").value(of: "TraitTokens.chipHeight").get().number == 40)
        // `UIColor(named:) ?? .label` with no such colorset: the fallback the code names.
        let ink = try color("TraitTokens.optionalInk")
        #expect(ink[.light] == .black && ink[.dark] == .white)
    }

    @Test func onlyTokensAreFindingsAndServicesProduceNothing() throws {
        let g = shared
        #expect(g.findings().map(\.subject) == ["ScannedTokens.broken"], "\(g.findings())")
        #expect(!g.tokens.keys.contains { $0.hasPrefix("NetworkService") })
    }

    @Test func idiomComesFromTheConfiguration() throws {
        #expect(try ConfigurationReader.read("idiom: pad", file: ".a11yd.yml").idiom == "pad")
        #expect(try ConfigurationReader.read("policy: wcag21-aa", file: ".a11yd.yml").idiom == "phone")
        #expect(throws: ConfigurationError.self) { try ConfigurationReader.read("idiom: watch", file: ".a11yd.yml") }
    }

    @Test func fontDescriptorsInstanceHelpersAndClosureInitialisers() throws {
        let heading = try #require(try shared.value(of: "UIFont.headingBold").get().font)
        #expect(heading.scales && heading.textStyle == "title2" && heading.size == 22)
        // UIFont(name:size:) not passed through UIFontMetrics keeps its size.
        let body = try #require(try shared.value(of: "ReaderFonts.body").get().font)
        #expect(!body.scales && body.size == 15 && body.face == "Inter")
        let quote = try #require(try shared.value(of: "ReaderFonts.quote").get().font)
        #expect(quote.scales && quote.textStyle == "body" && quote.size == 15)
    }
}
