import A11yEngine
import Foundation
import Testing
@testable import A11yReaders

/// The public corpus (`../shared/corpus` next to the package root); absent outside this checkout layout.
enum Corpus {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/corpus").standardizedFileURL

    static var isPresent: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static let skipMessage: Comment = "the corpus directory ../shared/corpus is absent: corpus audit skipped"

    static func files(where include: (String) -> Bool) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter(include).sorted().map { root.path + "/" + $0 }
    }

    static func text(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}

/// A colorset with the given component dictionaries per appearance list.
func colorSet(_ entries: [(appearances: String, color: String)]) -> String {
    let body = entries.map { entry in
        """
            {
              "idiom" : "universal",\(entry.appearances.isEmpty ? "" : "\n      \"appearances\" : [\(entry.appearances)],")
              "color" : \(entry.color)
            }
        """
    }.joined(separator: ",\n")
    return "{\n  \"colors\" : [\n\(body)\n  ],\n  \"info\" : { \"author\" : \"xcode\", \"version\" : 1 }\n}"
}

func components(_ space: String, _ pairs: KeyValuePairs<String, String>) -> String {
    let fields = pairs.map { "\"\($0.key)\" : \"\($0.value)\"" }.joined(separator: ", ")
    return "{ \"color-space\" : \"\(space)\", \"components\" : { \(fields) } }"
}

let dark = #"{ "appearance" : "luminosity", "value" : "dark" }"#
let high = #"{ "appearance" : "contrast", "value" : "high" }"#

func readSet(_ text: String, name: String = "Test") -> ParsedSource {
    AssetCatalogReader.read(text: text, file: "A.xcassets/\(name).colorset/Contents.json", name: name)
}

/// The color a token gives for `appearance` (no fallback: exactly what the file says).
func color(_ source: ParsedSource, _ appearance: Appearance = .light) -> ColorValue? {
    guard let token = source.tokens.first else { return nil }
    switch token.expression {
    case .color(let c): return appearance == .light ? c : nil
    case .adaptive(let values):
        if case .color(let c)? = values[appearance] { return c }
        return nil
    default: return nil
    }
}

func close(_ a: Double, _ b: Double, _ tolerance: Double = 0.0005) -> Bool { abs(a - b) <= tolerance }

func close(_ c: ColorValue?, _ r: Double, _ g: Double, _ b: Double, alpha: Double = 1, _ tolerance: Double = 0.0005) -> Bool {
    guard let c else { return false }
    return close(c.red, r, tolerance) && close(c.green, g, tolerance) && close(c.blue, b, tolerance)
        && close(c.alpha, alpha, tolerance)
}

struct AssetCatalogReaderTests {
    // MARK: Component encodings

    static let componentEncodings: [(String, Double)] = [
        ("0xFF", 1.0), ("0x80", 128.0 / 255), ("0x0", 0.0), ("0x1f", 31.0 / 255),  // 8-bit hex
        ("0.200", 0.2), ("0.5", 0.5), ("1.000", 1.0), ("0", 0.0),  // floats; "0" is 0 in any encoding
        ("51", 0.2), ("255", 1.0), ("1", 1.0 / 255), ("128", 128.0 / 255),  // 8-bit integers: no decimal point
    ]

    @Test(arguments: componentEncodings)
    func everyComponentEncodingXcodeWrites(text: String, expected: Double) {
        let source = readSet(colorSet([("", components("srgb", ["red": text, "green": "0", "blue": "0", "alpha": "1.000"]))]))
        #expect(source.findings.isEmpty)
        #expect(close(color(source)?.red ?? -1, expected, 1e-9))
    }

    static let alphaCases: [(String, Double)] = [
        ("1.000", 1.0), ("0.5", 0.5), ("0.0600", 0.06), ("1", 1.0), ("0", 0.0), ("0x80", 128.0 / 255),
    ]

    @Test(arguments: alphaCases)
    func alphaEncodings(text: String, expected: Double) {
        let source = readSet(colorSet([("", components("srgb", ["red": "0", "green": "0", "blue": "0", "alpha": text]))]))
        #expect(source.findings.isEmpty)
        #expect(close(color(source)?.alpha ?? -1, expected, 1e-9))
    }

    @Test func missingAlphaIsOpaque() {
        let source = readSet(colorSet([("", components("srgb", ["red": "0", "green": "0", "blue": "0"]))]))
        #expect(color(source)?.alpha == 1)
    }

    // MARK: Color spaces (expected sRGB values computed by hand, see each comment)

    @Test func displayP3RedIsOutsideSRGBAndClippedWithAnInfoFinding() throws {
        // Linear P3 (1,0,0) -> XYZ (0.48657, 0.22897, 0) (CSS Color 4 lin_P3_to_XYZ) -> linear sRGB
        // (1.22494, -0.04206, -0.01964) (XYZ_to_lin_sRGB) -> gamma-encoded (1.0931, -0.2267, -0.1501).
        let converted = try #require(ColorSpaceConversion.toSRGB(.displayP3, components: [1, 0, 0]))
        #expect(close(converted.unclipped[0], 1.0931) && close(converted.unclipped[1], -0.2267)
                && close(converted.unclipped[2], -0.1501))
        #expect(converted.wasGamutMapped)
        #expect(close(converted.color, 1, 0, 0))

        let source = readSet(colorSet([("", components("display-p3", ["red": "1.000", "green": "0.000", "blue": "0.000", "alpha": "1.000"]))]))
        let gamut = try #require(source.findings.first)
        #expect(gamut.rule == "gamut" && gamut.severity == .info)
        #expect(gamut.message.contains("1.093, -0.227, -0.150"))
        #expect(gamut.location?.line == 5)
        #expect(close(color(source), 1, 0, 0))
    }

    @Test func displayP3GrayKeepsItsValueInSRGB() {
        // Both spaces share D65 white and the sRGB curve, so a neutral P3 gray is the same sRGB gray.
        let source = readSet(colorSet([("", components("display-p3", ["red": "0xFA", "green": "0xFA", "blue": "0xFA", "alpha": "1.000"]))]))
        #expect(source.findings.isEmpty)
        #expect(close(color(source), 250.0 / 255, 250.0 / 255, 250.0 / 255))
    }

    @Test func extendedSRGBInsideTheGamutIsUnchangedAndOutsideIsClipped() {
        let inside = readSet(colorSet([("", components("extended-srgb", ["red": "0.933", "green": "0.933", "blue": "0.933", "alpha": "1.000"]))]))
        #expect(inside.findings.isEmpty)
        #expect(close(color(inside), 0.933, 0.933, 0.933))
        let outside = readSet(colorSet([("", components("extended-srgb", ["red": "1.200", "green": "-0.100", "blue": "0.500", "alpha": "1.000"]))]))
        #expect(outside.findings.map(\.rule) == ["gamut"])
        #expect(close(color(outside), 1, 0, 0.5))
    }

    @Test func extendedLinearSRGBIsGammaEncoded() {
        // sRGB curve: 1.055 * 0.5^(1/2.4) - 0.055 = 1.055 * 0.74915 - 0.055 = 0.73536.
        let source = readSet(colorSet([("", components("extended-linear-srgb", ["red": "0.500", "green": "0.000", "blue": "1.000", "alpha": "1.000"]))]))
        #expect(source.findings.isEmpty)
        #expect(close(color(source), 0.73536, 0, 1))
    }

    @Test func grayGamma22UsesTheWhiteComponent() {
        // 0.5^2.2 = 0.21764 linear; sRGB-encoded: 1.055 * 0.21764^(1/2.4) - 0.055 = 0.50387.
        let source = readSet(colorSet([("", components("gray-gamma-22", ["white": "0.500", "alpha": "0.600"]))]))
        #expect(source.findings.isEmpty)
        #expect(close(color(source), 0.50387, 0.50387, 0.50387, alpha: 0.6))
    }

    @Test func extendedGrayReflectsTheCurveForNegativeValues() throws {
        // Apple, CGColorSpace.extendedGray: "sign(x) * gamma22Function(abs(x))"; -0.5 -> -0.50387, clipped to 0.
        let converted = try #require(ColorSpaceConversion.toSRGB(.extendedGray, components: [-0.5]))
        #expect(close(converted.unclipped[0], -0.50387))
        #expect(converted.wasGamutMapped)
        let source = readSet(colorSet([("", components("extended-gray", ["white": "1.000", "alpha": "1.000"]))]))
        #expect(source.findings.isEmpty)
        #expect(close(color(source), 1, 1, 1))
    }

    // MARK: Appearances, idioms, references

    @Test func appearancesMapToTheFourAppearances() throws {
        let text = colorSet([
            ("", components("srgb", ["red": "0.100", "green": "0", "blue": "0", "alpha": "1.000"])),
            (high, components("srgb", ["red": "0.200", "green": "0", "blue": "0", "alpha": "1.000"])),
            (dark, components("srgb", ["red": "0.300", "green": "0", "blue": "0", "alpha": "1.000"])),
            (dark + ", " + high, components("srgb", ["red": "0.400", "green": "0", "blue": "0", "alpha": "1.000"])),
        ])
        let source = readSet(text, name: "Ink")
        #expect(source.findings.isEmpty)
        let token = try #require(source.tokens.first)
        #expect(token.qualifiedName == ["Asset", "Ink"])
        #expect(token.declaredKind == .color)
        #expect(token.location.line == 2)
        #expect(close(color(source, .light)?.red ?? 0, 0.1))
        #expect(close(color(source, .lightHighContrast)?.red ?? 0, 0.2))
        #expect(close(color(source, .dark)?.red ?? 0, 0.3))
        #expect(close(color(source, .darkHighContrast)?.red ?? 0, 0.4))
    }

    @Test func missingAppearancesAreLeftToTheEngineFallback() throws {
        let source = readSet(colorSet([
            ("", components("srgb", ["red": "0.100", "green": "0", "blue": "0", "alpha": "1.000"])),
            (dark, components("srgb", ["red": "0.300", "green": "0", "blue": "0", "alpha": "1.000"])),
        ]))
        guard case .adaptive(let values)? = source.tokens.first?.expression else {
            Issue.record("expected adaptive"); return
        }
        #expect(Set(values.keys) == [.light, .dark])
    }

    @Test func explicitLightWinsOverAnyAndUniversalWinsOverDeviceIdioms() throws {
        let light = #"{ "appearance" : "luminosity", "value" : "light" }"#
        let text = """
        {"colors": [
          {"idiom": "iphone", "color": \(components("srgb", ["red": "0.900", "green": "0", "blue": "0"]))},
          {"idiom": "universal", "color": \(components("srgb", ["red": "0.100", "green": "0", "blue": "0"]))},
          {"idiom": "universal", "appearances": [\(light)], "color": \(components("srgb", ["red": "0.200", "green": "0", "blue": "0"]))},
          {"idiom": "ipad", "appearances": [\(dark)], "color": \(components("srgb", ["red": "0.700", "green": "0", "blue": "0"]))}
        ]}
        """
        let source = readSet(text)
        #expect(source.findings.isEmpty)
        #expect(close(color(source, .light)?.red ?? 0, 0.2))
        // No universal dark entry: the device-specific one is the only dark value there is.
        #expect(close(color(source, .dark)?.red ?? 0, 0.7))
    }

    @Test func systemColorReferencesBecomeUIColorReferences() throws {
        let text = colorSet([
            ("", #"{ "platform" : "ios", "reference" : "systemBackgroundColor" }"#),
            (dark, components("gray-gamma-22", ["white": "0.000", "alpha": "1.000"])),
        ])
        let source = readSet(text)
        guard case .adaptive(let values)? = source.tokens.first?.expression,
              case .reference(let reference)? = values[.light] else {
            Issue.record("expected a reference for light"); return
        }
        #expect(reference.path == ["UIColor", "systemBackground"])
        #expect(reference.location.line == 5)
        #expect(AssetCatalogReader.systemColorPath(reference: "quaternaryLabelColor", platform: "osx")
                == ["NSColor", "quaternaryLabel"])
    }

    @Test func emptyColorSetsGiveNoTokenAndNoError() {
        for text in [#"{"info": {"author": "xcode", "version": 1}}"#,
                     #"{"colors": [{"idiom": "universal"}], "info": {"version": 1}}"#,
                     #"{"colors": []}"#] {
            let source = readSet(text, name: "AccentColor")
            #expect(source.tokens.isEmpty)
            #expect(source.findings.isEmpty)
        }
    }

    // MARK: Malformed input: a parse finding at the exact line:column

    static let malformedColorSets: [(String, Int, Int, String)] = [
        // truncated JSON
        ("{\n  \"colors\" : [\n    {", 3, 6, "invalid JSON"),
        // wrong component type (a number where Xcode writes strings is fine, an object is not)
        ("{\"colors\":[{\"color\":{\"color-space\":\"srgb\",\"components\":{\"red\":{},\"green\":\"0\",\"blue\":\"0\"}}}]}", 1, 63, "must be a string"),
        // invalid hex byte
        ("{\"colors\":[{\"color\":{\"color-space\":\"srgb\",\n\"components\":{\"red\":\"0xGG\",\"green\":\"0\",\"blue\":\"0\"}}}]}", 2, 21, "not a hex byte"),
        // 8-bit integer out of range
        ("{\"colors\":[{\"color\":{\"color-space\":\"srgb\",\"components\":{\"red\":\"256\",\"green\":\"0\",\"blue\":\"0\"}}}]}", 1, 63, "0...255"),
        // float outside 0...1 in a non-extended space
        ("{\"colors\":[{\"color\":{\"color-space\":\"srgb\",\"components\":{\"red\":\"1.5\",\"green\":\"0\",\"blue\":\"0\"}}}]}", 1, 63, "outside 0...1"),
        // unknown color space
        ("{\"colors\":[{\"color\":{\"color-space\":\"cmyk\",\"components\":{}}}]}", 1, 36, "unsupported color-space"),
        // missing channel
        ("{\"colors\":[{\"color\":{\"color-space\":\"srgb\",\"components\":{\"red\":\"0\"}}}]}", 1, 56, "missing the \"green\""),
        // alpha out of range
        ("{\"colors\":[{\"color\":{\"components\":{\"red\":\"0\",\"green\":\"0\",\"blue\":\"0\",\"alpha\":\"2\"}}}]}", 1, 77, "alpha"),
        ("{\"colors\": 3}", 1, 12, "must be an array"),
    ]

    @Test(arguments: malformedColorSets)
    func malformedColorSetsAreParseFindingsWithTheirPosition(text: String, line: Int, column: Int, message: String) throws {
        let source = readSet(text, name: "Broken")
        #expect(source.tokens.isEmpty)
        let finding = try #require(source.findings.first)
        #expect(finding.rule == "parse")
        #expect(finding.severity == .error)
        #expect(finding.location == SourceLocation(file: "A.xcassets/Broken.colorset/Contents.json", line: line, column: column),
                "\(finding.message)")
        #expect(finding.message.contains(message), "\(finding.message)")
    }

    // MARK: Names

    @Test func namespaceFoldersPrefixTheName() {
        let folders = [
            "Root/Colors.xcassets/Brand": #"{"info": {"version": 1}, "properties": {"provides-namespace": true}}"#,
            "Root/Colors.xcassets/Brand/Plain": #"{"info": {"version": 1}}"#,
        ]
        let name = AssetCatalogReader.colorSetName(
            path: "Root/Colors.xcassets/Brand/Plain/Primary.colorset/Contents.json", folderContents: { folders[$0] })
        #expect(name == "Brand/Primary")
        #expect(AssetCatalogReader.colorSetName(path: "X.xcassets/Top.colorset", folderContents: { _ in nil }) == "Top")
        #expect(AssetCatalogReader.colorSetName(path: "X/Contents.json", folderContents: { _ in nil }) == nil)
        let source = AssetCatalogReader.read(
            text: colorSet([("", components("srgb", ["red": "0", "green": "0", "blue": "0"]))]),
            file: "Root/Colors.xcassets/Brand/Plain/Primary.colorset/Contents.json", folderContents: { folders[$0] })
        #expect(source.tokens.first?.qualifiedName == ["Asset", "Brand/Primary"])
    }

    /// Names seen in Xcode-generated GeneratedAssetSymbols.swift files and nicklockwood/SwiftFormat#1634.
    static let symbolNames: [(String, String)] = [
        ("brand-primary", "brandPrimary"), ("Brand Primary", "brandPrimary"), ("some_blue", "someBlue"),
        ("someBlueColor", "someBlue"), ("AccentColor", "accent"), ("greenColor", "green"),
        ("BlackGrayColor", "blackGray"), ("BGColorOne", "bgColorOne"), ("UIColour", "uiColour"),
        ("Launch_screen_colour", "launchScreenColour"), ("BackIOSPrimary", "backIOSPrimary"),
        ("compose.poll", "composePoll"), ("Color", "color"), ("300", "_300"),
    ]

    @Test(arguments: symbolNames)
    func generatedAssetSymbolNames(name: String, symbol: String) {
        #expect(AssetSymbolName.symbol(forColorSetName: name) == symbol)
    }

    @Test func namespacedAssetSymbolsAreNestedTypes() {
        #expect(AssetSymbolName.symbolPath(forAssetName: "Signal/BackgroundLevels/backgroundBase")
                == ["Signal", "BackgroundLevels", "backgroundBase"])
        #expect(AssetSymbolName.symbolPath(forAssetName: "Edit History/StatusBackground") == ["EditHistory", "statusBackground"])
    }

    // MARK: The real corpus

    @Test(.enabled(if: Corpus.isPresent, Corpus.skipMessage))
    func everyCorpusColorSetReadsWithoutParseFindings() {
        let paths = Corpus.files(where: { $0.hasSuffix(".colorset/Contents.json") })
        #expect(paths.count > 300)
        var tokens = 0
        for path in paths {
            guard let text = Corpus.text(path) else { Issue.record("unreadable \(path)"); continue }
            let source = AssetCatalogReader.read(text: text, file: path, folderContents: { folder in
                Corpus.text(folder + "/Contents.json")
            })
            let parse = source.findings.filter { $0.rule == "parse" }
            #expect(parse.isEmpty, "\(path): \(parse.map(\.message))")
            tokens += source.tokens.count
        }
        // Empty colorsets (AccentColor placeholders) give no token; every other colorset gives one.
        #expect(tokens > 290)
    }

    func corpusColorSet(_ relative: String) throws -> ParsedSource {
        let path = Corpus.root.path + "/" + relative
        let text = try #require(Corpus.text(path))
        return AssetCatalogReader.read(text: text, file: path, folderContents: { Corpus.text($0 + "/Contents.json") })
    }

    @Test(.enabled(if: Corpus.isPresent, Corpus.skipMessage))
    func duckDuckGoDisplayP3DestructiveRed() throws {
        // Light: display-p3 (0.925, 0.216, 0.141). Linearized (sRGB curve): (0.8378, 0.0383, 0.0176);
        // linear sRGB = M * that with M = CSS Color 4 XYZ_to_lin_sRGB * lin_P3_to_XYZ
        // ([1.22494, -0.22494, 0], [-0.04206, 1.04206, 0], [-0.01964, -0.07864, 1.09827]):
        // (1.0189, 0.0045, -0.0001) -> encoded (1.0077, 0.0579, -0.0017): slightly outside sRGB, clipped.
        let source = try corpusColorSet(
            "duckduckgo__iOS/DuckDuckGo/DeprecatedColors.xcassets/AlertButtonDestructiveTitleColor.colorset/Contents.json")
        #expect(source.tokens.first?.qualifiedName == ["Asset", "AlertButtonDestructiveTitleColor"])
        #expect(close(color(source, .light), 1, 0.0579, 0))
        // Dark: display-p3 (1.000, 0.271, 0.227) -> (1.0878, 0.1523, 0.1599) -> clipped (1, 0.1523, 0.1599).
        #expect(close(color(source, .dark), 1, 0.1523, 0.1599))
        #expect(source.findings.filter { $0.rule == "gamut" }.count == 2)
    }

    @Test(.enabled(if: Corpus.isPresent, Corpus.skipMessage))
    func netNewsWireGrayGamma22() throws {
        // white 0.900: 0.9^2.2 = 0.79311 linear -> sRGB 1.055 * 0.79311^(1/2.4) - 0.055 = 0.90287.
        let source = try corpusColorSet(
            "Ranchero-Software__NetNewsWire/Mac/Resources/Assets.xcassets/timelineSeparatorColor.colorset/Contents.json")
        #expect(close(color(source, .light), 0.90287, 0.90287, 0.90287))
        guard case .adaptive(let values)? = source.tokens.first?.expression,
              case .reference(let reference)? = values[.dark] else {
            Issue.record("expected the dark macOS system reference"); return
        }
        #expect(reference.path == ["NSColor", "quaternaryLabel"])
    }

    @Test(.enabled(if: Corpus.isPresent, Corpus.skipMessage))
    func netNewsWireEightBitIntegers() throws {
        // "red": "0", "green": "98", "blue": "189" are 8-bit integers: 98/255 = 0.38431, 189/255 = 0.74118.
        let source = try corpusColorSet(
            "Ranchero-Software__NetNewsWire/iOS/Resources/Assets.xcassets/Account icon colors/freshRSSColor.colorset/Contents.json")
        #expect(close(color(source, .light), 0, 0.38431, 0.74118))
        // Dark "red": "1" is 1/255, not 1.0.
        #expect(close(color(source, .dark)?.red ?? -1, 1.0 / 255, 1e-9))
    }

    @Test(.enabled(if: Corpus.isPresent, Corpus.skipMessage))
    func elementDarkHighContrastTextOnThemeBackgroundRatio() throws {
        let ink = try corpusColorSet("element-hq__compound-design-tokens/assets/ios/swift/Colors.xcassets/gray1400.colorset/Contents.json")
        let background = try corpusColorSet("element-hq__compound-design-tokens/assets/ios/swift/Colors.xcassets/themeBg.colorset/Contents.json")
        let fg = try #require(color(ink, .darkHighContrast))
        let bg = try #require(color(background, .darkHighContrast))
        #expect(close(fg, 0.9490, 0.9608, 0.9686))
        #expect(close(bg, 0.0627, 0.0745, 0.0902))
        // By hand, WCAG 2.x: linearized fg (0.88788, 0.91313, 0.93005), bg (0.00518, 0.00651, 0.00857);
        // L(fg) = 0.2126*0.88788 + 0.7152*0.91313 + 0.0722*0.93005 = 0.90899;
        // L(bg) = 0.2126*0.00518 + 0.7152*0.00651 + 0.0722*0.00857 = 0.00638;
        // ratio = (0.90899 + 0.05) / (0.00638 + 0.05) = 17.01.
        let ratio = ColorValue.contrastRatio(fg, bg)
        #expect(abs(ratio - 17.0106) < 0.01)
        #expect(displayRatio(ratio) == "17.01")
    }

    @Test(.enabled(if: Corpus.isPresent, Corpus.skipMessage))
    func homeAssistantNamespacedDisplayP3Gray() throws {
        let source = try corpusColorSet(
            "home-assistant__iOS/Sources/Shared/Assets/Colors.xcassets/Background/primaryBackground.colorset/Contents.json")
        // Background/ has no provides-namespace; P3 gray 0xFA stays 250/255 in sRGB.
        #expect(source.tokens.first?.qualifiedName == ["Asset", "primaryBackground"])
        #expect(close(color(source, .light), 250.0 / 255, 250.0 / 255, 250.0 / 255))
        let switchSet = try corpusColorSet("home-assistant__iOS/Sources/Shared/Assets/Colors.xcassets/Domain/switch.colorset/Contents.json")
        #expect(switchSet.tokens.first?.qualifiedName == ["Asset", "Domain/switch"])
    }
}

/// Inputs that crashed a reader under fuzzing (docs/reliability.md), kept as regression tests.
struct FuzzRegressionTests {
    @Test func aColorComponentThatIsNotAFiniteIntegerIsAFindingNotATrap() {
        for number in ["1e999", "-1e999", "1e300"] {
            let parsed = readSet(colorSet([("", "{ \"color-space\" : \"srgb\", \"components\" : { \"red\" : \(number), \"green\" : 0, \"blue\" : 0, \"alpha\" : 1 } }")]))
            #expect(parsed.findings.contains { $0.rule == "parse" }, "\(number): \(parsed.findings)")
        }
    }
}
