import A11yEngine
import A11yReaders
import Foundation
import Testing

/// Configuration names resolve to tokens of every source the same way; the fields of a struct-valued token pair
/// with each other like a component's colors.
struct NameSpaceAndInstancePairingTests {
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-ns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func write(_ text: String, _ relative: String, in dir: URL) throws {
        let url = dir.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func surfacesAndDeclaredPairsNameColorsetsByTheirNames() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(colorSet([("", components("srgb", ["red": "0xF5", "green": "0xF5", "blue": "0xF5", "alpha": "1.000"]))]),
                       "Assets.xcassets/Canvas.colorset/Contents.json", in: dir)
        try Self.write(colorSet([("", components("srgb", ["red": "0x77", "green": "0x77", "blue": "0x77", "alpha": "1.000"]))]),
                       "Assets.xcassets/Ink.colorset/Contents.json", in: dir)
        try Self.write("""
            surfaces: [Canvas]
            pairs:
              - {fg: Ink, bg: Canvas, role: text}
            """, ".a11yd.yml", in: dir)
        let audit = Auditor.run(try Workspace(root: dir.path, policySearchDirectories: ExampleAuditTests.policies).refresh()).audit
        #expect(!audit.findings.contains { $0.rule == "reference" }, "\(audit.findings)")
        #expect(audit.surfaces.tokens == ["Canvas"] && !audit.surfaces.inferred)
        let declared = try #require(audit.pairs.first { $0.reason == .declared && $0.appearance == .light })
        #expect(declared.foreground.token == "Ink" && declared.background.token == "Canvas")
        // #777777 on #F5F5F5: L = 0.1845 and 0.9131; (0.9131 + 0.05) / (0.1845 + 0.05) = 4.11.
        #expect(abs(declared.ratio - 4.11) < 0.01)
    }

    @Test func fieldsOfAStructTokenPairByMatchingQualifiers() throws {
        let source = """
            import SwiftUI
            struct ButtonColors {
                let text: Color
                let textPressed: Color
                let background: Color
                let backgroundPressed: Color
                var border: Color = .clear
            }
            enum ButtonTokens {
                static let primary = ButtonColors(text: .white, textPressed: Color(white: 0.9),
                                                  background: Color(hex: "#0044CC"), backgroundPressed: Color(hex: "#002288"))
            }
            """
        let parsed = SwiftSourceReader().read(source: source, file: "Buttons.swift")
        let graph = TokenGraph(sources: [parsed])
        let components = Component.all(declarations: [], graph: graph)
        let component = try #require(components.first { $0.name == "ButtonTokens.primary" })
        #expect(component.properties(in: .colors).map(\.name).sorted() == ["background", "backgroundPressed", "border", "text", "textPressed"])
        let inference = PairingInference(graph: graph, components: components, configuration: ProjectConfiguration())
        let (pairs, _) = inference.pairings(surfaces: inference.surfaces().0)
        let mine = pairs.filter { $0.component == "ButtonTokens.primary" }.map { "\($0.foreground.property ?? "") on \($0.background.property ?? "")" }
        // `text` on the plain background, `textPressed` on the pressed one; the clear border draws nothing.
        #expect(Set(mine) == ["text on background", "textPressed on backgroundPressed"])
    }

    @Test func explainShowsTheRootCauseOfAColorWithoutAValue() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write("""
            import SwiftUI
            extension Color {
                static func blend(_ a: Color, _ b: Color) -> Color { a.mixed(with: b) }
                static let page = Color.white
                static let appTextMuted = blend(.gray, .black)
                static let appTextHint = appTextMuted.opacity(0.8)
            }
            """, "Tokens.swift", in: dir)
        let result = Auditor.run(try Workspace(root: dir.path, policySearchDirectories: ExampleAuditTests.policies).refresh())
        // One finding, at the helper, naming both tokens.
        let findings = result.audit.findings.filter { $0.rule == "parse" }
        #expect(findings.count == 1)
        #expect(findings.first?.location?.line == 3)
        #expect(findings.first?.message.contains("2 tokens depend on it: appTextHint, appTextMuted") == true)
        #expect(result.audit.summary.unevaluatedTokens == 2)
        let explanation = try #require(PairExplanation.explain(foreground: "appTextHint", background: "page", in: result.context)?.first)
        #expect(explanation.foreground.problem?.contains("Tokens.swift:3:") == true)
        #expect(explanation.background.problem == nil && explanation.background.values["light"] == "#FFFFFF")
    }
}
