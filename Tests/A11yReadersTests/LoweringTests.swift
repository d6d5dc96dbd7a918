@testable import A11yEngine
import A11yReaders
import Foundation
import Testing

/// The lowered program keeps all of the IR (docs/flat-core-plan.md, step 1): every declaration of the fixtures and the
/// example, lowered and raised back, is the IR the reader made; and names bound in a body are slots of its frame.
struct LoweringTests {
    static func declarations(under folder: String) throws -> [MemberDeclaration] {
        let root = ExampleAuditTests.packageRoot.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(atPath: root.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
        #expect(!files.isEmpty, "no Swift files under \(folder)")
        let reader = SwiftSourceReader()
        return try files.flatMap { name in
            let path = root.appendingPathComponent(name).path
            return reader.read(source: try String(contentsOfFile: path, encoding: .utf8), file: path).declarations
        }
    }

    @Test(arguments: ["Tests/Fixtures/Evaluator", "Tests/Fixtures/ViewCode", "Tests/Fixtures/Themes", "Examples/DesignSystem"])
    func everyDeclarationRaisesBackToItsIR(folder: String) throws {
        let result = LoweredProgram.roundTrips(try Self.declarations(under: folder))
        #expect(result.checked > 10, "\(folder): only \(result.checked) bodies")
        #expect(result.differing.isEmpty, "\(folder): \(result.differing.prefix(5))")
    }

    @Test func namesBoundInABodyAreSlotsAndOthersStayNames() throws {
        let source = """
            extension Color {
                static func tone(_ base: String, dark: String) -> Color {
                    let light = base
                    if let other = Optional(dark) { return Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(Color(hex: other)) : UIColor(Color(hex: light)) }) }
                    return Color(hex: light)
                }
            }
            """
        let declarations = SwiftSourceReader().read(source: source, file: "/tmp/Tone.swift").declarations
        guard case .function(let parameters, let body) = try #require(declarations.first).kind else {
            Issue.record("no function read")
            return
        }
        let program = LoweredProgram()
        let f = program.lowerFunction(parameters, body: body)
        #expect(f.parameterSlots == [0, 1])
        let ops = program.nodes.map(\.op)
        // `base`, `dark`, `light`, `other`, `traits` are slots; `Color`, `UIColor`, `Optional` names.
        let localNames = Set(program.nodes.filter { $0.op == .local }.map { program.symbols[Int($0.b)] })
        let globalNames = Set(program.nodes.filter { $0.op == .name }.map { program.symbols[Int($0.a)] })
        #expect(localNames == ["base", "dark", "light", "other", "traits"])
        #expect(globalNames == ["Color", "UIColor", "Optional"])
        // The provider captures `other` and `light` from the function's frame: its frame has its parameter, then them.
        let closure = try #require(program.closures.first)
        #expect(closure.parameterSlots == [0])
        #expect(closure.captures.count == 2 && closure.frameSize == 3)
        #expect(ops.contains(.closure) && ops.contains(.ifStatement))
        #expect(program.raise(block: f.body) == body)
    }

    @Test func closuresWithoutParametersBindDollarNamesInOrder() throws {
        let source = """
            enum Shades {
                static let pick = { $1 }
            }
            """
        let declarations = SwiftSourceReader().read(source: source, file: "/tmp/Shades.swift").declarations
        guard case .stored(let initial?) = try #require(declarations.first).kind else {
            Issue.record("no value read")
            return
        }
        let program = LoweredProgram()
        let lowered = program.lowerExpression(initial)
        let closure = try #require(program.closures.first)
        // `$0` gets a slot though the body skips it: the second argument is bound to `$1`.
        #expect(closure.parameterSlots.count == 2)
        let dollarOne = try #require(program.nodes.first { $0.op == .local })
        #expect(dollarOne.a == closure.parameterSlots[1])
        #expect(program.raise(lowered.node) == initial)
    }
}
