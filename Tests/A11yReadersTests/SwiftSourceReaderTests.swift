import A11yEngine
import A11yReaders
import Foundation
import Testing

/// The Swift reader on realistic and malformed sources, checked through the token graph that evaluates its output.
struct SwiftSourceReaderTests {
    static let tokens = """
        import SwiftUI

        extension Color {
            static func adaptive(light: String, dark: String) -> Color {
                Color(UIColor { traits in
                    traits.userInterfaceStyle == .dark
                        ? UIColor(Color(hex: dark))
                        : UIColor(Color(hex: light))
                })
            }
            static let appTextPrimary = adaptive(light: "#0F172A", dark: "#F8FAFC")
            static let appSurfaceBasePrimary = adaptive(
                light: "#FFFFFF",
                dark: "#0B1120"
            )
            static var appBackground: Color { appSurfaceBasePrimary }
            static var appCard: Color { return Color.appSurfaceBasePrimary }
            static let appLink = Color.appTextPrimary
            static let scrim = Color.black.opacity(0.4)
            static let ink = Color(red: 0.1, green: 0.2, blue: 0.3, opacity: 0.5)
            static let mist = Color(white: 0.9)
            static let page = Color(.systemBackground)
            // static let appTextGhost = adaptive(light: "#FFFFFF", dark: "#000000")
            /* static let appTextBlock = adaptive(light: "#FFFFFF", dark: "#000000") */
            static let dynamic = Color(UIColor { traits in
                if traits.userInterfaceStyle == .dark {
                    return traits.accessibilityContrast == .high ? UIColor(Color(hex: "#FFFFFF")) : UIColor(Color(hex: "#DDDDDD"))
                } else {
                    return UIColor(Color(hex: "#222222"))
                }
            })
        }

        enum ElevateAliases {
            enum Action {
                enum StrongPrimary {
                    static let fill_default = Color.adaptive(light: "#4F46E5", dark: "#818CF8")
                }
            }
        }

        extension CGFloat {
            static let space2: CGFloat = 8
            static let space4: CGFloat = space2 * 2
        }

        extension Font {
            static func appInter(size: CGFloat, face: String, relativeTo style: Font.TextStyle = .body) -> Font {
                .custom(face, size: size, relativeTo: style)
            }
            static let appBody = appInter(size: 16, face: "Inter-Regular", relativeTo: .callout)
            static let appBodyDefault = appInter(size: 15, face: "Inter-Regular")
            static let appHeadline = Font.system(size: 17, weight: .semibold).relativeTo(.headline)
            static let appFixed = Font.custom("Inter-Regular", size: 10)
            static let appPinned = Font.custom("Inter-Regular", fixedSize: 10)
            static let appSystemFixed = Font.system(size: 10)
            static let appUIKit = UIFont.systemFont(ofSize: 12, weight: .bold)
            static let appScaled = UIFontMetrics(forTextStyle: .footnote).scaledFont(for: UIFont.systemFont(ofSize: 13))
            static let appStyle = Font.body
        }
        """

    static func graph(_ sources: [(String, String)], flags: Set<String> = []) -> (TokenGraph, [ParsedSource]) {
        let reader = SwiftSourceReader(customFlags: flags)
        let parsed = sources.map { reader.read(source: $0.1, file: $0.0) }
        return (TokenGraph(sources: parsed), parsed)
    }

    static func color(_ g: TokenGraph, _ key: String) throws -> AppearanceColor {
        try #require(try g.value(of: key).get().color, "\(key)")
    }

    @Test func helperTokensAliasesAndLiteralsEvaluate() throws {
        let (g, parsed) = Self.graph([("DesignTokens.swift", Self.tokens)])
        #expect(parsed[0].findings.isEmpty)
        #expect(g.findings().isEmpty, "\(g.findings())")
        #expect(try Self.color(g, "Color.appTextPrimary")[.dark].hex == "#F8FAFC")
        #expect(try Self.color(g, "Color.appSurfaceBasePrimary")[.dark].hex == "#0B1120")
        #expect(try Self.color(g, "Color.appBackground")[.dark].hex == "#0B1120")
        #expect(try Self.color(g, "Color.appCard")[.light].hex == "#FFFFFF")
        #expect(try Self.color(g, "Color.appLink")[.light].hex == "#0F172A")
        #expect(try Self.color(g, "Color.scrim")[.light] == ColorValue(red: 0, green: 0, blue: 0, alpha: 0.4))
        #expect(try Self.color(g, "Color.ink")[.light] == ColorValue(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.5))
        #expect(try Self.color(g, "Color.mist")[.light] == ColorValue(white: 0.9))
        #expect(try Self.color(g, "Color.page")[.dark] == .black)
        #expect(try Self.color(g, "ElevateAliases.Action.StrongPrimary.fill_default")[.dark].hex == "#818CF8")
    }

    @Test func appearanceClosureWithIfAndContrastTestFillsHighContrast() throws {
        let (g, _) = Self.graph([("DesignTokens.swift", Self.tokens)])
        let c = try Self.color(g, "Color.dynamic")
        #expect(c[.light].hex == "#222222")
        #expect(c[.dark].hex == "#DDDDDD")
        #expect(c[.darkHighContrast].hex == "#FFFFFF")
        #expect(c[.lightHighContrast].hex == "#222222")
        #expect(c.explicit.contains(.darkHighContrast))
    }

    /// Argument lists are reused from call to call (`Interpreter.withEvaluatedArguments`): a call made while another
    /// call's arguments are evaluated, a longer list after a shorter one, and a helper whose argument is a closure that
    /// is applied later each keep their own values.
    @Test func nestedCallsKeepTheirOwnArguments() throws {
        let source = """
            import SwiftUI

            extension Color {
                static func pick(first: String, second: String) -> String { second }
                static func pick3(a: String, b: String, c: String) -> String { b }
                static func adaptive(light: String, dark: String) -> Color {
                    Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(Color(hex: dark)) : UIColor(Color(hex: light)) })
                }
                static let nested = Color(hex: pick(first: pick(first: "#000000", second: "#111111"), second: pick3(a: "#222222", b: pick(first: "#333333", second: "#444444"), c: "#555555")))
                static let inner = adaptive(light: pick3(a: "#666666", b: pick(first: "#777777", second: "#888888"), c: "#999999"), dark: pick(first: "#AAAAAA", second: "#BBBBBB"))
                static let after = adaptive(light: "#CCCCCC", dark: pick3(a: "#DDDDDD", b: "#EEEEEE", c: "#FFFFFF"))
            }
            """
        let (g, _) = Self.graph([("DesignTokens.swift", source)])
        #expect(g.findings().isEmpty, "\(g.findings())")
        #expect(try Self.color(g, "Color.nested")[.light].hex == "#444444")
        #expect(try Self.color(g, "Color.inner")[.light].hex == "#888888")
        #expect(try Self.color(g, "Color.inner")[.dark].hex == "#BBBBBB")
        #expect(try Self.color(g, "Color.after")[.light].hex == "#CCCCCC")
        #expect(try Self.color(g, "Color.after")[.dark].hex == "#EEEEEE")
    }

    /// Conditions decide `==` and `!=` themselves (without making a `Bool` value): against a platform case written
    /// `.dark`, a project enum's case, and with an unknown side, in a ternary, an `if`, a `guard` and a `switch` guard.
    @Test func equalityConditionsDecideTheBranchTaken() throws {
        let source = """
            import SwiftUI
            enum Mode { case compact, regular }
            extension Color {
                static let mode: Mode = .regular
                static let notDark = Color(UIColor { t in t.userInterfaceStyle != .dark ? UIColor(Color(hex: "#111111")) : UIColor(Color(hex: "#EEEEEE")) })
                static let byIf = Color(UIColor { t in
                    if t.accessibilityContrast == .high { return UIColor(Color(hex: "#000000")) }
                    return UIColor(Color(hex: "#333333"))
                })
                static let byGuard = Color(UIColor { t in
                    guard t.userInterfaceStyle == .dark else { return UIColor(Color(hex: "#444444")) }
                    return UIColor(Color(hex: "#CCCCCC"))
                })
                static let byProjectCase = mode == .compact ? Color(hex: "#555555") : Color(hex: "#666666")
                static let byProjectCaseNot = mode != .compact ? Color(hex: "#777777") : Color(hex: "#888888")
                static let bySwitchGuard: Color = {
                    switch mode {
                    case let m where m == .regular: return Color(hex: "#999999")
                    default: return Color(hex: "#AAAAAA")
                    }
                }()
                static let byUnknown = nowhere == .dark ? Color(hex: "#BBBBBB") : Color(hex: "#CCCCCC")
            }
            """
        let (g, _) = Self.graph([("DesignTokens.swift", source)])
        let notDark = try Self.color(g, "Color.notDark")
        #expect(notDark[.light].hex == "#111111" && notDark[.dark].hex == "#EEEEEE")
        let byIf = try Self.color(g, "Color.byIf")
        #expect(byIf[.light].hex == "#333333" && byIf[.lightHighContrast].hex == "#000000")
        let byGuard = try Self.color(g, "Color.byGuard")
        #expect(byGuard[.light].hex == "#444444" && byGuard[.dark].hex == "#CCCCCC")
        #expect(try Self.color(g, "Color.byProjectCase")[.light].hex == "#666666")
        #expect(try Self.color(g, "Color.byProjectCaseNot")[.light].hex == "#777777")
        #expect(try Self.color(g, "Color.bySwitchGuard")[.light].hex == "#999999")
        guard case .failure(let unknown) = g.value(of: "Color.byUnknown") else {
            Issue.record("a condition with an unknown side has no branch")
            return
        }
        #expect(unknown.message.contains("nowhere"), "\(unknown.message)")
    }

    @Test func numbersAndFontsEvaluate() throws {
        let (g, _) = Self.graph([("DesignTokens.swift", Self.tokens)])
        #expect(try g.value(of: "CGFloat.space4").get().number == 16)
        func font(_ key: String) throws -> FontValue { try #require(try g.value(of: key).get().font, "\(key)") }
        #expect(try font("Font.appBody").textStyle == "callout")
        #expect(try font("Font.appBody").size == 16)
        #expect(try font("Font.appBodyDefault").textStyle == "body") // default argument value
        #expect(try font("Font.appHeadline").scales && (try font("Font.appHeadline").weight) == "semibold")
        // Apple: custom(_:size:) "scales with the body text style" (it was reported as fixed before the interpreter);
        // only custom(_:fixedSize:) and system(size:) without relativeTo: keep their size.
        #expect(try font("Font.appFixed").scales && (try font("Font.appFixed").textStyle) == "body")
        #expect(try !font("Font.appPinned").scales)
        #expect(try !font("Font.appSystemFixed").scales)
        #expect(try !font("Font.appUIKit").scales && (try font("Font.appUIKit").numericWeight) == 700)
        #expect(try font("Font.appScaled").scales && (try font("Font.appScaled").textStyle) == "footnote")
        #expect(try font("Font.appStyle").size == 17)
    }

    @Test func locationsPointAtTheTokenName() throws {
        let (g, _) = Self.graph([("DesignTokens.swift", Self.tokens)])
        let definition = try #require(g.tokens["Color.appSurfaceBasePrimary"])
        #expect(definition.location == A11yEngine.SourceLocation(file: "DesignTokens.swift", line: 12, column: 16))
    }

    @Test func tokensInCommentsAndInactiveBranchesDoNotExist() {
        let source = """
            import SwiftUI
            extension Color {
                // static let commented = Color.red
                #if false
                static let never = Color.red
                #elseif os(macOS)
                static let mac = Color.red
                #elseif os(iOS) && canImport(UIKit)
                static let ios = Color.blue
                #else
                static let other = Color.red
                #endif
                #if DEBUG
                static let debug = Color.red
                #endif
                #if !os(watchOS)
                static let notWatch = Color.green
                #endif
            }
            """
        let (g, _) = Self.graph([("T.swift", source)])
        #expect(Set(g.tokens.keys) == ["Color.ios", "Color.notWatch"])
        let (withDebug, _) = Self.graph([("T.swift", source)], flags: ["DEBUG"])
        #expect(withDebug.tokens["Color.debug"] != nil)
    }

    @Test func componentEnumsAreDeclaredAcrossFiles() throws {
        let styling = """
            enum NativePickerStyling {
                struct Colors {
                    static let label = Color.appTextPrimary
                    static let background = Color.appSurfaceBasePrimary
                }
                struct Layout {
                    static let paddingV = CGFloat.space2
                }
                struct Typography {
                    static let label = Font.appBody
                }
                static func applyAppearance() {
                    let x = 1
                    print(x)
                }
            }
            """
        let (g, parsed) = Self.graph([("DesignTokens.swift", Self.tokens), ("NativeComponentStyling.swift", styling)])
        #expect(parsed[1].components.map(\.name) == ["NativePickerStyling"])
        let components = Component.all(declarations: parsed.flatMap(\.components), graph: g)
        let picker = try #require(components.first)
        #expect(picker.properties.map(\.name) == ["label", "background", "paddingV", "label"])
        #expect(try g.value(of: "NativePickerStyling.Colors.label").get().color?[.dark].hex == "#F8FAFC")
        #expect(try g.value(of: "NativePickerStyling.Layout.paddingV").get().number == 8)
        #expect(g.findings().isEmpty, "\(g.findings())")
    }

    @Test func truncatedFileIsOneParseFindingAndNoTokens() throws {
        let truncated = String(Self.tokens.prefix(400))
        let (_, parsed) = Self.graph([("DesignTokens.swift", truncated)])
        #expect(parsed[0].tokens.isEmpty)
        let finding = try #require(parsed[0].findings.first)
        #expect(parsed[0].findings.count == 1)
        #expect(finding.rule == "parse" && finding.severity == .error)
        #expect(finding.message.contains("is not valid Swift"))
        #expect((finding.location?.line ?? 0) > 1)
    }

    @Test func invalidHexUnknownHelperCycleAndDanglingReferenceAreFindingsWithLocations() throws {
        let source = """
            extension Color {
                static let badHex = Color(hex: "#12345")
                static let mystery = blend(Color.red, 0.5)
                static let loopA = Color.loopB
                static let loopB = Color.loopA
                static let dangling = Color.appTextPrimery
            }
            """
        let (g, _) = Self.graph([("Broken.swift", source)])
        let findings = g.findings()
        func finding(_ subject: String) throws -> Finding { try #require(findings.first { $0.subject == subject }, "\(subject)") }
        #expect(try finding("badHex").rule == "parse")
        #expect(try finding("badHex").message.contains("invalid hex color \"#12345\""))
        #expect(try finding("badHex").relatedLocations.first == A11yEngine.SourceLocation(file: "Broken.swift", line: 2, column: 36))
        #expect(try finding("mystery").message.contains("unknown helper blend(_:_:)"))
        #expect(try finding("loopA").message.contains("cyclic reference"))
        #expect(try finding("dangling").message.contains("Color.appTextPrimery does not name a token"))
        #expect(try finding("dangling").location?.line == 6)
    }

    /// Operator sequences are folded one by one as they are read, each into a tree of its own: a value found inside
    /// one (here inside a sequence inside another) must still be located in the file.
    @Test func valuesInsideFoldedOperatorSequencesKeepTheirFileLocations() throws {
        let source = """
            extension CGFloat { static let gap: CGFloat = 4 }
            extension Color {
                static let flag = CGFloat.gap * 2 > 6
                static let picked = flag
                    ? Color(hex: "#12")
                    : Color(hex: CGFloat.gap + 1 > 2 ? "#12345" : "#000000")
            }
            """
        let (g, _) = Self.graph([("Folded.swift", source)])
        let finding = try #require(g.findings().first { $0.subject == "picked" })
        #expect(finding.message.contains("invalid hex color \"#12\""))
        #expect(finding.relatedLocations.first == A11yEngine.SourceLocation(file: "Folded.swift", line: 5, column: 22))
        #expect(finding.location?.line == 4)
    }

    @Test func unevaluableExpressionIsAParseFindingNotASilentSkip() throws {
        let source = """
            extension Color {
                static let computed = Color.allCases.randomElement()!
            }
            """
        let (g, _) = Self.graph([("Odd.swift", source)])
        let finding = try #require(g.findings().first)
        // `Color.allCases` is not an API: the finding names what does not exist (it said "cannot evaluate" before the
        // interpreter, which could not tell a missing name from an unsupported construct).
        #expect(finding.rule == "reference")
        #expect(finding.message.contains("Color.allCases does not name a token"))
        #expect(finding.location?.line == 2)
    }

    @Test func hundredKilobyteFileIsReadCompletely() throws {
        var source = "import SwiftUI\nextension Color {\n"
        var count = 0
        while source.utf8.count < 100_000 {
            source += "    static let token\(count) = Color(hex: \"#\(String(format: "%06X", count * 97 % 0xFFFFFF))\")\n"
            count += 1
        }
        source += "}\n"
        let (g, parsed) = Self.graph([("Big.swift", source)])
        #expect(parsed[0].declarations.count == count)
        #expect(g.tokens.count == count)
        #expect(g.findings().isEmpty)
        #expect(try Self.color(g, "Color.token\(count - 1)")[.light].hex == "#" + String(format: "%06X", (count - 1) * 97 % 0xFFFFFF))
    }

    @Test func garbageInputNeverCrashes() {
        let reader = SwiftSourceReader()
        for garbage in ["", "}}}}", "static let = ", "extension Color { static let x = adaptive(light: }", String(repeating: "(", count: 5000),
                        "extension Color { static let x = Color(UIColor { t in t.userInterfaceStyle == .dark ? }) }"] {
            let parsed = reader.read(source: garbage, file: "G.swift")
            _ = TokenGraph(sources: [parsed]).findings()
        }
    }
}

struct PathologicalInputTests {
    /// SwiftSyntax recurses once per level; a 20,000-deep `.opacity` chain must be a finding, not a stack overflow.
    @Test func aTwentyThousandLevelChainIsAFindingNotACrash() throws {
        let source = "extension Color {\n    static let x = Color.red" + String(repeating: ".opacity(0.9)", count: 20_000) + "\n}\n"
        let parsed = SwiftSourceReader().read(source: source, file: "Deep.swift")
        let finding = try #require(TokenGraph(sources: [parsed]).findings().first)
        #expect(finding.rule == "parse")
        #expect(finding.message.contains("nests too deeply"))
        #expect(finding.location?.line == 2)
    }
}

struct InterpreterLimitsTests {
    /// Recursion and huge computations end as one finding each, never a hang or a crash.
    @Test func unboundedRecursionAndDeepNestingAreFindings() throws {
        let nested = String(repeating: "(", count: 12) + "0.5" + String(repeating: ")", count: 12)
        let source = """
            import SwiftUI
            extension Color {
                static func forever(_ n: Double) -> Color { forever(n + 1) }
                static func deep(_ n: Double) -> Color { n > 40 ? .black.opacity(\(nested)) : deep(n + 1) }
                static let loop = forever(0)
                static let deepest = deep(0)
                static let fine = Color.white
            }
            """
        let parsed = SwiftSourceReader().read(source: source, file: "Limits.swift")
        // Run where a daemon would: a secondary thread with a default-sized stack.
        final class Box: @unchecked Sendable { var findings: [Finding] = []; var deepest: Result<TokenValue, TokenGraph.EvaluationError>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let graph = TokenGraph(sources: [parsed])
            box.findings = graph.findings()
            box.deepest = graph.value(of: "Color.deepest")
            done.signal()
        }
        thread.start()
        done.wait()
        let loop = try #require(box.findings.first { $0.subject == "loop" }, "\(box.findings)")
        #expect(loop.message.contains("calls nest more than"))
        // 41 nested calls, each with a nested expression, still evaluate.
        #expect(try box.deepest?.get().color?[.light] == ColorValue(red: 0, green: 0, blue: 0, alpha: 0.5))
        #expect(box.findings.count == 1)
    }
}

extension FuzzRegressionTests {
    /// A run of opening brackets made SwiftSyntax's type lookahead take exponential time (the fuzzer's input, 23 `[` then
    /// garbage, read for minutes). More than 12 in a row is one parse finding at the run, read at once; 12 are still
    /// parsed, and brackets in comments and string literals do not count.
    @Test func aLongRunOfOpeningBracketsIsAFindingNotAnExponentialParse() throws {
        for opening in ["[", "[(", "[ \n"] {
            let source = "import SwiftUI\nlet x = " + String(repeating: opening, count: 40) + "1\n"
            let parsed = SwiftSourceReader().read(source: source, file: "Brackets.swift")
            let finding = try #require(parsed.findings.first)
            #expect(finding.rule == "parse" && finding.message.contains("opens more than 12 `[` in a row"), "\(finding)")
            #expect(finding.location?.line == 2 && finding.location?.column == 9, "\(finding)")
        }
        func bracketFindings(_ source: String) -> [Finding] {
            SwiftSourceReader().read(source: source, file: "T.swift").findings.filter { $0.message.contains("in a row") }
        }
        let twelve = String(repeating: "[", count: 12) + "Color.red" + String(repeating: "]", count: 12)
        #expect(bracketFindings("extension Color {\n    static let x = \(twelve)\n}\n").isEmpty)
        let forty = String(repeating: "[", count: 40)
        #expect(bracketFindings("// \(forty)\n/* \(forty) */\nlet s = \"\(forty)\"\nlet t = \"\"\"\n\(forty)\n\"\"\"\n").isEmpty)
    }

    /// swift-syntax 602's diagnostics generator traps building a Fix-It for `=` after an invalid character (a replacement
    /// character a paste can leave in a valid UTF-8 file): one parse finding at the `=`, no trap.
    @Test func anInvalidCharacterBeforeAnEqualsSignIsAFindingNotATrap() throws {
        for source in ["let a \u{FFFD}= 1\n", "enum E: Int {\n    case a \u{FFFD}= 1\n}\n"] {
            let parsed = SwiftSourceReader().read(source: source, file: "Equals.swift")
            let finding = try #require(parsed.findings.first)
            #expect(parsed.findings.count == 1)
            #expect(finding.rule == "parse" && finding.message.contains("is not valid Swift: '=' must have consistent whitespace"), "\(finding)")
            #expect(finding.location?.line == source.split(separator: "\n").firstIndex { $0.contains("=") }.map { $0 + 1 }, "\(finding)")
        }
    }
}
