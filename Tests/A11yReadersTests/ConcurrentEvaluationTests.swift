@testable import A11yEngine
import A11yReaders
import Foundation
import Testing

/// A large token file's static members are evaluated on several threads before the graph is built; the graph must be
/// the one evaluating them in order gives, cycles, unknowns and cross references included.
struct ConcurrentEvaluationTests {
    /// 1,600 tokens: primitives, semantic tokens reading primitives in the other half of the file (another worker's
    /// share), a cycle that spans both halves, a chain through a helper, and values the interpreter cannot read.
    static func source(cycle: Bool = true) -> String {
        var lines = ["import SwiftUI", "import UIKit",
                     "func adaptive(light: String, dark: String) -> UIColor { UIColor { $0.userInterfaceStyle == .dark ? UIColor(hex: dark) : UIColor(hex: light) } }",
                     "extension UIColor { convenience init(hex: String) { self.init(red: 0, green: 0, blue: 0, alpha: 1) } }",
                     "extension Color {"]
        if cycle { lines.append("    static let loopStart = Color.loopEnd") }
        for i in 0..<800 {
            let light = String(format: "#%06X", (i * 2_654_435_761) & 0xFFFFFF), dark = String(format: "#%06X", (i * 40_503) & 0xFFFFFF)
            lines.append("    static let primitive\(i) = Color(hex: \"\(light)\", dark: \"\(dark)\")")
        }
        for i in 0..<760 { lines.append("    static let semantic\(i) = Color.primitive\((i * 7 + 400) % 800).opacity(0.5)") }
        for i in 0..<30 { lines.append("    static let chain\(i) = Color.chain\(i + 1)") }
        lines.append("    static let chain30 = Color.primitive3")
        for i in 0..<8 { lines.append("    static let unreadable\(i) = Color(named: mystery\(i))") }
        if cycle { lines.append("    static let loopEnd = Color.loopStart") }
        lines.append("}")
        lines.append("extension Color { init(hex: String, dark: String) { self.init(uiColor: adaptive(light: hex, dark: dark)) } }")
        return lines.joined(separator: "\n")
    }

    /// A worker's copy of a function (`MemberDeclaration.deepCopy`) is the same declaration, calls to it give the same
    /// values, and it holds none of the original's lists: the owner path, the parameters, a closure's parameter names.
    @Test func aDeepCopyIsEqualAndSharesNoList() throws {
        let source = SwiftSourceReader().read(source: """
            import SwiftUI
            enum Tone { case soft, loud }
            extension Color {
                static func tone(_ tone: Tone, light: String = "#FFFFFF", dark: String) -> Color {
                    guard dark != "" else { return .clear }
                    switch tone {
                    case .soft: return Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(Color(hex: dark)) : UIColor(Color(hex: light)) })
                    case .loud:
                        if dark == light { return Color(hex: dark) }
                        return Color(UIColor { $0.userInterfaceStyle == .dark ? UIColor(Color(hex: light)) : UIColor(Color(hex: dark)) })
                    }
                }
            }
            """, file: "/tmp/Tone.swift")
        let function = try #require(source.declarations.first { $0.name == "tone" })
        let copy = function.deepCopy()
        #expect(copy == function)
        #expect(copy.hashValue == function.hashValue)
        func address<T>(_ array: [T]) -> UnsafeRawPointer? { array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        #expect(address(copy.owner) != address(function.owner))
        #expect(address(copy.parameters) != address(function.parameters))
        func closureParameters(_ declaration: MemberDeclaration) -> [[String]] {
            var found: [[String]] = []
            _ = IRRewrite(expression: { e in
                if case .closure(let parameters, _) = e.kind { found.append(parameters) }
                return e
            }).apply(declaration)
            return found
        }
        let (original, copied) = (closureParameters(function), closureParameters(copy))
        #expect(original.count == 2 && copied.count == 2)
        #expect(original == copied)
        // (An empty list is the runtime's one empty array, which counts no references.)
        #expect(zip(original, copied).allSatisfy { $0.isEmpty || address($0) != address($1) })
        #expect(original.contains { !$0.isEmpty })
        let interpreter = Interpreter(declarations: source.declarations, types: source.types)
        for tone in ["soft", "loud"] {
            let arguments = [EvaluatedArgument(label: nil, value: .enumCase(type: "Tone", name: tone, payload: [])),
                             EvaluatedArgument(label: "dark", value: .string("#102030"))]
            let value = interpreter.call(function, arguments: arguments, selfValue: .type("Color"))
            guard case .color = value else { Issue.record("\(tone): \(value)"); continue }
            #expect(interpreter.call(copy, arguments: arguments, selfValue: .type("Color")) == value, "\(tone)")
        }
    }

    /// A contrast rule with many failing pairs makes its findings in pieces on the free cores: the same findings, in the
    /// same order, as made in one piece (fix hints and messages included).
    @Test func contrastFindingsInPiecesAreTheFindingsInOnePiece() throws {
        let dir = try NameSpaceAndInstancePairingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var lines = ["import SwiftUI"]
        for i in 0..<160 {
            // Grey text on a grey a little lighter: every pair fails, each with colors (and a fix) of its own.
            let text = String(format: "#%02X%02X%02X", 0x60 + i % 32, 0x60 + i / 32, 0x70)
            let background = String(format: "#%02X%02X%02X", 0x90 + i % 32, 0x90 + i / 32, 0x98)
            lines += ["enum Banner\(i)Styling {", "    struct Colors {", "        static let text = Color(hex: \"\(text)\")",
                      "        static let background = Color(hex: \"\(background)\")", "    }", "}"]
        }
        try lines.joined(separator: "\n").write(to: dir.appendingPathComponent("Banners.swift"), atomically: true, encoding: .utf8)
        let result = Auditor.run(try Workspace(root: dir.path, policySearchDirectories: ExampleAuditTests.policies).refresh())
        let whole = contrastFindings(result.context, role: .text, rule: "contrast.text", splitFrom: .max)
        let pieces = contrastFindings(result.context, role: .text, rule: "contrast.text", splitFrom: 1)
        #expect(whole.count >= contrastFindingsSplitFrom)
        #expect(pieces == whole)
        #expect(pieces.map(\.fixHint) == whole.map(\.fixHint))
        #expect(whole.allSatisfy { $0.fixHint?.hasPrefix("nearest passing foreground: #") == true })
        // What the audit itself reported (made in pieces: more failing pairs than the split needs).
        #expect(result.audit.findings.filter { $0.rule == "contrast.text" } == Finding.sorted(whole))
    }

    static func graph(workers: Int, source: ParsedSource) -> TokenGraph {
        var configuration = Interpreter.Configuration()
        configuration.workers = workers
        return TokenGraph(sources: [source], configuration: configuration)
    }

    @Test func theGraphIsTheSameOnOneThreadAndOnSeveral() throws {
        let source = SwiftSourceReader().read(source: Self.source(), file: "/tmp/Many.swift")
        let inOrder = Self.graph(workers: 1, source: source)
        #expect(inOrder.tokens.count > 1_500)
        #expect(try inOrder.value(of: "Color.semantic0").get().color != nil)
        #expect(try inOrder.value(of: "Color.chain0").get().color == inOrder.value(of: "Color.primitive3").get().color)
        guard case .failure = inOrder.value(of: "Color.loopStart") else { Issue.record("a cycle must not evaluate"); return }
        for workers in [2, 3, 8] {
            let concurrent = Self.graph(workers: workers, source: source)
            #expect(concurrent.tokens == inOrder.tokens)
            for key in inOrder.tokens.keys.sorted() {
                #expect(concurrent.value(of: key) == inOrder.value(of: key), "\(key) with \(workers) workers")
            }
            #expect(concurrent.findings() == inOrder.findings())
        }
    }

    /// A second file declaring the same 1,600 tokens (one with another color): each key keeps its first definition, as
    /// on one thread, when the runs of tokens are put into the graph's two tables side by side.
    @Test func aKeyDeclaredTwiceKeepsItsFirstDefinitionOnSeveralThreads() throws {
        let original = Self.source(cycle: false)
        let changed = original.replacingOccurrences(of: "static let primitive5 = Color(hex: ", with: "static let primitive5 = Color(hex: \"#010203\", dark: \"#030201\") ?? Color(hex: ")
        #expect(changed != original)
        let first = SwiftSourceReader().read(source: original, file: "/tmp/First.swift")
        let second = SwiftSourceReader().read(source: changed, file: "/tmp/Second.swift")
        func graph(workers: Int) -> TokenGraph {
            var configuration = Interpreter.Configuration()
            configuration.workers = workers
            return TokenGraph(sources: [first, second], configuration: configuration)
        }
        let inOrder = graph(workers: 1)
        #expect(inOrder.tokens.count > 1_500)
        #expect(inOrder.tokens["Color.primitive5"]?.location.file == "/tmp/First.swift")
        for workers in [2, 3] {
            let concurrent = graph(workers: workers)
            #expect(concurrent.tokens == inOrder.tokens)
            for key in inOrder.tokens.keys.sorted() {
                #expect(concurrent.value(of: key) == inOrder.value(of: key), "\(key) with \(workers) workers")
            }
            #expect(concurrent.findings() == inOrder.findings())
        }
    }

    /// What the workers memoised carries who read what: after an in-place edit of one primitive, the next graph drops
    /// exactly that primitive and the values that read it, and equals a fresh graph of the edited file. (Without the
    /// cycle: a program that met one starts afresh after any edit.)
    @Test func anEditAfterConcurrentEvaluationDropsExactlyWhatReadTheEditedValue() throws {
        let original = Self.source(cycle: false), edited = original.replacingOccurrences(
            of: "static let primitive7 = Color(hex: ", with: "static let primitive7 = Color(hex: \"#123456\", dark: \"#654321\") ?? Color(hex: ")
        #expect(edited != original)
        let first = Self.graph(workers: 2, source: SwiftSourceReader().read(source: original, file: "/tmp/Many.swift"))
        let editedSource = SwiftSourceReader().read(source: edited, file: "/tmp/Many.swift")
        let program = TokenGraph.Program(sources: [editedSource], configuration: first.program.interpreter.configuration, previous: first.program)
        let readers = (0..<760).filter { ($0 * 7 + 400) % 800 == 7 }.map { "Color.semantic\($0)" }
        #expect(readers.count == 1)
        #expect(program.interpreter.invalidated == Set(["Color.primitive7"] + readers))
        guard let updated = TokenGraph(program: program, updating: first) else { Issue.record("the graph was not updated"); return }
        let fresh = Self.graph(workers: 1, source: editedSource)
        #expect(updated.tokens == fresh.tokens)
        for key in fresh.tokens.keys.sorted() { #expect(updated.value(of: key) == fresh.value(of: key), "\(key)") }
        #expect(try updated.value(of: "Color.primitive7").get() != first.value(of: "Color.primitive7").get())
    }

    /// A token initialiser and a token function with a case per token (as DesignResourcesKit's), each case reading a
    /// static member: their calls run on several threads (`Interpreter.callEach`).
    static func caseSource(base3: String = "#303030") -> String {
        var lines = ["import SwiftUI", "enum Tone {"]
        for i in 0..<40 { lines.append("    case tone\(i)") }
        lines += ["}", "extension Color {"]
        for i in 0..<40 { lines.append("    static let base\(i) = Color(hex: \"\(i == 3 ? base3 : String(format: "#%06X", i * 401_011 & 0xFFFFFF))\")") }
        lines.append("    init(tone: Tone) {")
        lines.append("        switch tone {")
        for i in 0..<40 { lines.append("        case .tone\(i): self = Color.base\(i * 3 % 40)") }
        lines += ["        }", "    }"]
        lines.append("    static func shade(for tone: Tone) -> Color {")
        lines.append("        switch tone {")
        for i in 0..<40 { lines.append("        case .tone\(i): return Color.base\(i * 7 % 40).opacity(0.8)") }
        lines += ["        }", "    }", "}"]
        return lines.joined(separator: "\n")
    }

    @Test func tokenCasesCalledOnSeveralThreadsAreTheOnesCalledInOrder() throws {
        let source = SwiftSourceReader().read(source: Self.caseSource(), file: "/tmp/Tones.swift")
        let inOrder = Self.graph(workers: 1, source: source)
        #expect(inOrder.tokens.count >= 120)
        #expect(try inOrder.value(of: "Color.tone.tone1").get() == inOrder.value(of: "Color.base3").get())
        #expect(try inOrder.value(of: "Color.shade.tone1").get().color != nil)
        let concurrent = Self.graph(workers: 2, source: source)
        #expect(concurrent.tokens == inOrder.tokens)
        for key in inOrder.tokens.keys.sorted() { #expect(concurrent.value(of: key) == inOrder.value(of: key), "\(key)") }
        #expect(concurrent.findings() == inOrder.findings())
    }

    /// The static members the calls on other threads read are the initialiser's and function's reads: an edit of one
    /// re-reads them, and the updated graph is a fresh graph of the edited file.
    @Test func anEditReachesTokenCasesCalledOnSeveralThreads() throws {
        let first = Self.graph(workers: 2, source: SwiftSourceReader().read(source: Self.caseSource(), file: "/tmp/Tones.swift"))
        let editedSource = SwiftSourceReader().read(source: Self.caseSource(base3: "#A0C0E0"), file: "/tmp/Tones.swift")
        let program = TokenGraph.Program(sources: [editedSource], configuration: first.program.interpreter.configuration, previous: first.program)
        guard let updated = TokenGraph(program: program, updating: first) else { Issue.record("the graph was not updated"); return }
        let fresh = Self.graph(workers: 1, source: editedSource)
        #expect(updated.tokens == fresh.tokens)
        for key in fresh.tokens.keys.sorted() { #expect(updated.value(of: key) == fresh.value(of: key), "\(key)") }
        #expect(try updated.value(of: "Color.tone.tone1").get() != first.value(of: "Color.tone.tone1").get())
    }

    /// A large system's phases over every token or pair (components, names, measurement) run on several threads: the
    /// audit must be the one a single thread makes, pairs and findings in the same order.
    @Test func aLargeAuditIsTheSameOnOneThreadAndOnSeveral() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.source(cycle: false).write(to: root.appendingPathComponent("DesignTokens.swift"), atomically: true, encoding: .utf8)
        var styling = ["import SwiftUI"]
        for i in 0..<400 {
            // Every fiftieth widget's background is a function of the color scheme (evaluated by the components' pairing,
            // which pairs 400 components in parts).
            let background = i % 50 == 0
                ? "        static func sheetBackground(for colorScheme: ColorScheme) -> Color { colorScheme == .dark ? Color.primitive\(799 - i) : Color.semantic\(i) }"
                : "        static let background = Color.primitive\(799 - i)"
            styling += ["enum Widget\(i)Styling {", "    enum Colors {",
                        "        static let text = Color.primitive\(i)", "        static let icon = Color.semantic\(i)",
                        background, "    }", "}"]
        }
        try styling.joined(separator: "\n").write(to: root.appendingPathComponent("NativeComponentStyling.swift"), atomically: true, encoding: .utf8)
        var input = try Workspace(root: root.path).refresh()
        input.evaluationThreads = 1
        let inOrder = Auditor.run(input).audit
        #expect(inOrder.pairs.count > 1_024)
        #expect(inOrder.pairs.filter { $0.background.property == "sheetBackground(for:)" }.count == 8 * 2 * 2)
        input.evaluationThreads = 2
        let concurrent = Auditor.run(input).audit
        #expect(concurrent.pairs.elementsEqual(inOrder.pairs))
        #expect(concurrent.findings.elementsEqual(inOrder.findings))
    }

    /// View code is walked on several threads when it has many drawing types (here 17): the pairs, touch targets and
    /// fonts must be the ones one thread finds, in the same order.
    @Test func viewCodeIsTheSameOnOneThreadAndOnSeveral() throws {
        let root = ExampleAuditTests.packageRoot.appendingPathComponent("Tests/Fixtures/ViewCode").path
        var input = try Workspace(root: root).refresh()
        input.evaluationThreads = 1
        let inOrder = Auditor.run(input).audit
        #expect(inOrder.pairs.filter { $0.reason == .viewCode }.count > 50)
        for workers in [2, 3, 4] {
            input.evaluationThreads = workers
            let concurrent = Auditor.run(input).audit
            #expect(concurrent.pairs.count == inOrder.pairs.count, "\(workers) workers")
            #expect(concurrent.pairs.elementsEqual(inOrder.pairs), "\(workers) workers")
            #expect(concurrent.findings.elementsEqual(inOrder.findings), "\(workers) workers")
        }
    }
}
