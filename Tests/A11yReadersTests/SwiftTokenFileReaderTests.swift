import A11yEngine
@testable import A11yReaders
import Foundation
import Testing

/// The token file reader gives the IR the whole-file parse gives, declaration for declaration and location for
/// location, on every Swift file of the fixtures and on the forms real design systems write; and it leaves to the
/// whole-file parse what it does not read with certainty.
struct SwiftTokenFileReaderTests {
    let reader = SwiftSourceReader()

    /// Read both ways; the token file reader's result when it read the file.
    func readBothWays(_ source: String, file: String = "T.swift", sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ParsedSource? {
        let whole = reader.readWholeFile(source: source, file: file)
        guard let fast = reader.readAsTokenFile(source: source, file: file) else { return nil }
        #expect(fast.declarations == whole.declarations, sourceLocation: sourceLocation)
        #expect(fast.types == whole.types, sourceLocation: sourceLocation)
        #expect(fast.components == whole.components, sourceLocation: sourceLocation)
        #expect(fast == whole, sourceLocation: sourceLocation)
        return fast
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A large block's members are read in parts on several threads and merged in order: the same IR as the whole-file
    /// parse, whatever stands at the cut (attributes and modifiers on the line before a declaration, members left to
    /// SwiftSyntax, nested types, multi-line values). A file of many types is cut between them.
    @Test func largeBlocksReadInPartsReadAsTheWholeParseReadsThem() throws {
        // Every kind of member in turn, so that each stands next to a cut in one of the block sizes below.
        let members: [(Int) -> String] = [
            { "    static let ink\($0) = adaptive(light: \"#1F2937\", dark: \"#F9FAFB\")" },
            { "    @available(iOS 15, *)\n    static let tinted\($0) = Color.accentColor.opacity(0.5)" },
            { "    public\n    static let spaced\($0): CGFloat = \($0)" },
            { "    static var computed\($0): Color {\n        let base = Color.red\n        return base.opacity(0.3)\n    }" },
            { "    struct Group\($0) {\n        static let fill = Color.blue\n    }" },
            { "    static let list\($0) = [1, 2, 3]" },
            { "    static func shade\($0)(_ amount: Double) -> Color {\n        Color.black.opacity(amount)\n    }" },
            { "    static let long\($0) = Color(\n        red: 0.1,\n        green: 0.2,\n        blue: 0.3\n    )" },
            { "    subscript(index\($0): Int) -> Int { index\($0) }" },
        ]
        for count in [2_400, 2_401, 2_403] {
            var lines = ["import SwiftUI", "", "extension Color {",
                         "    static func adaptive(light: String, dark: String) -> Color { Color(hex: light) }"]
            for i in 0..<count { lines.append(members[i % members.count](i)) }
            lines.append("}")
            let source = lines.joined(separator: "\n") + "\n"
            let read = try #require(readBothWays(source))
            // Every member but the subscripts (the IR keeps none), and the helper.
            #expect(read.declarations.count == 1 + count - (0..<count).filter { $0 % members.count == 8 }.count)
            let counted = try #require(reader.readAsTokenFileCounting(source: source, file: "T.swift"))
            #expect(counted.parts > 1, "\(count) members: not read in parts")
        }
        // Many small types at the top of a file: the file is cut between them.
        var types: [String] = ["import SwiftUI"]
        for i in 0..<800 {
            types.append("enum Chip\(i)Styling {\n    enum Colors {\n        static let label = Color.primary\n        static let background = Color.blue\n    }\n    enum Layout {\n        static let height: CGFloat = 44\n    }\n}")
        }
        let many = types.joined(separator: "\n") + "\n"
        let read = try #require(readBothWays(many))
        #expect(read.components.count == 800)
        #expect(try #require(reader.readAsTokenFileCounting(source: many, file: "T.swift")).parts > 1)
        // Below the size worth a thread, one part.
        let small = "extension Color {\n" + (0..<50).map { members[0]($0) }.joined(separator: "\n") + "\n}\n"
        #expect(try #require(reader.readAsTokenFileCounting(source: small, file: "T.swift")).parts == 0)
    }

    @Test func everySwiftFileOfTheFixturesAndTheExampleReadsTheSameBothWays() throws {
        var files: [URL] = []
        for folder in ["Tests/Fixtures", "Examples"] {
            let enumerator = FileManager.default.enumerator(at: Self.repositoryRoot.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            for case let url as URL in enumerator?.allObjects ?? [] where url.pathExtension == "swift" { files.append(url) }
        }
        #expect(files.count > 20)
        var readFast = 0
        for url in files {
            let source = try String(contentsOf: url, encoding: .utf8)
            if readBothWays(source, file: url.path) != nil { readFast += 1 }
        }
        // Nearly all of them are read without a whole-file parse (the rest have something it leaves to SwiftSyntax).
        #expect(readFast * 10 >= files.count * 9, "\(readFast) of \(files.count) files read by the token file reader")
    }

    @Test func aTokenFileIsReadAndLocatedAsWritten() throws {
        let source = """
            import SwiftUI

            // Brand colors.
            public extension Color {
                @available(iOS 15, *)
                static let brand = Color(hex: "#0B1120")
                static let `default`: Color = .brand.opacity(0.5)
                static let accent = Color.blue
                    .opacity(1_000e-3)
                static var primaryUi01Rosé = UIColor(red: 0x1F, green: 0.5, blue: 1, alpha: true)
                static let labelled = Palette.color(for: .day, `default`: .black)
            }

            enum ThemeType: Int { case light = 0, dark, rosé = 3 }
            """
        let read = try #require(readBothWays(source))
        #expect(read.declarations.map(\.name) == ["brand", "default", "accent", "primaryUi01Rosé", "labelled", "light", "dark", "rosé"])
        #expect(read.declarations[0].attributes == ["available"])
        #expect(read.declarations[1].type == "Color")
        #expect(read.declarations[3].location.line == 10 && read.declarations[3].location.column == 16)
    }

    @Test func declarationsItDoesNotReadAreParsedByFragmentsInPlace() throws {
        let source = """
            import SwiftUI

            enum ButtonStyling {
                struct Colors {
                    static let label = Color.white
                    static func background(pressed: Bool) -> Color { pressed ? .gray : .blue }
                    static var border: Color { .black }
                    static let shadow = Color.black.opacity(0.2 * 2)
                    case plain(String)
                    @Environment(\\.colorScheme) var scheme
                    static let title = "\\(1) items"
                    static let after = Color.red
                }
                struct Layout { static let height: CGFloat = 44 }
            }
            struct Badge: View {
                var body: some View { Text("New").foregroundStyle(Color.red) }
            }
            public struct Card<Content: View, Footer: Collection<Int>>: View where Footer: Equatable {
                static let corner: CGFloat = 12
                let content: Content
                var body: some View { content.padding(Self.corner) }
            }
            extension Card where Content == Text { static let plain = Color.gray }
            """
        let read = try #require(readBothWays(source))
        #expect(read.declarations.map(\.name) == ["label", "background", "border", "shadow", "plain", "scheme", "title", "after", "height", "body",
                                                   "corner", "content", "body", "plain"])
        #expect(read.types.map(\.qualifiedName) == [["ButtonStyling"], ["ButtonStyling", "Colors"], ["ButtonStyling", "Layout"], ["Badge"], ["Card"],
                                                     ["Card"]])
        #expect(read.components.map(\.qualifiedName) == [["ButtonStyling"]])
    }

    /// Token functions switching over a theme enum, computed properties, negative and computed numbers.
    @Test func tokenFunctionsAndComputedPropertiesAreReadAsTheWholeParseReadsThem() throws {
        let source = """
            import UIKit

            enum Palette: Int { case day, night, dusk }

            enum InkTokens {
                private static let bodyDay = UIColor(hex: "#1A1A1A")
                private static let bodyNight = UIColor(hex: "#F2F2F2")
                static let inset: CGFloat = -2
                static let doubled: CGFloat = 4 * 2.5
                static var hairline: CGFloat { 1 / 3 }
                static func body(for palette: Palette? = nil) -> UIColor {
                    let palette = palette ?? Palette.day
                    switch palette {
                    case .day, .dusk:
                        return InkTokens.bodyDay
                    case .night: return bodyNight
                    }
                }
                static func tint(_ base: UIColor, by amount: Double) -> UIColor { base }
                static func fallback() -> UIColor {
                    switch Palette.day {
                    case .day: return .black
                    default:
                        return .white
                    }
                }
                static func branching(_ dark: Bool) -> UIColor { if dark { return .black } else { return .white } }
                static func border(_ pressed: Bool, dark: Bool) -> UIColor {
                    guard let base = Optional(bodyDay) else { return .clear }
                    if pressed, let tint = Optional(base) {
                        return tint
                    } else if dark {
                        return dark ? bodyNight : bodyDay
                    }
                    return pressed == dark ? .gray : base
                }
                static func chained() -> UIColor { tint(.red, by: 0.5) + tint(.blue, by: 1) - 1 }
            }
            """
        let read = try #require(readBothWays(source))
        #expect(read.declarations.map(\.name) == ["day", "night", "dusk", "bodyDay", "bodyNight", "inset", "doubled", "hairline", "body",
                                                   "tint", "fallback", "branching", "border", "chained"])
        guard case .function(let parameters, let body) = read.declarations[8].kind, case .switch(_, let cases) = body.last?.kind else {
            Issue.record("body(for:) is not a function ending in a switch")
            return
        }
        #expect(parameters.map(\.label) == ["for"] && parameters.map(\.type) == ["Palette?"])
        #expect(cases.map(\.patterns) == [[.enumCase("day", nil)], [.enumCase("dusk", nil)], [.enumCase("night", nil)]])
        let graph = TokenGraph(sources: [read])
        #expect(try graph.value(of: "InkTokens.inset").get() == .number(-2))
        #expect(try graph.value(of: "InkTokens.doubled").get() == .number(10))
        guard case .function(_, let border) = read.declarations[12].kind, border.count == 3, case .guard = border[0].kind,
              case .if(let conditions, _, let otherwise?) = border[1].kind, case .return(let last?) = border[2].kind,
              case .ternary = last.kind else {
            Issue.record("border(_:dark:) is not guard, if / else if, return of a ternary")
            return
        }
        #expect(conditions.count == 2 && otherwise.count == 1)
    }

    /// Tokens as structs with light and dark members built by an initialiser that assigns them (the evaluator fixture
    /// `PairTokens.swift`), and initialisers that compute before they assign.
    @Test func initialisersAreReadAsTheWholeParseReadsThem() throws {
        let fixture = Self.repositoryRoot.appendingPathComponent("Tests/Fixtures/Evaluator/PairTokens.swift")
        let pairs = try #require(readBothWays(try String(contentsOf: fixture, encoding: .utf8), file: fixture.path))
        let initializer = try #require(pairs.declarations.first { $0.name == "init" && $0.owner == ["ColorPair"] })
        guard case .initializer(_, let assignments) = initializer.kind, case .assign(let target, nil, _) = assignments.first?.kind else {
            Issue.record("ColorPair.init is not read as assignments")
            return
        }
        #expect(target.path == ["self", "lightColor"])

        let computed = try #require(readBothWays("""
            struct Gray {
                let level: Double
                init(percent: Double) {
                    var value = percent
                    value /= 100
                    self.level = value
                }
                init?(named: String) { return nil }
            }
            """))
        guard case .initializer(let parameters, let body)? = computed.declarations.dropFirst().first?.kind, body.count == 3,
              case .assign(_, let op, _) = body[1].kind else {
            Issue.record("init(percent:) is not read as three statements")
            return
        }
        #expect(parameters.map(\.name) == ["percent"] && op == "/")
        #expect(computed.declarations.map(\.name) == ["level", "init", "init"])
    }

    /// Closures and trailing closures (a view's body is made of them), and the `{` that is not one: property observers.
    @Test func closuresAndTrailingClosuresAreReadAsTheWholeParseReadsThem() throws {
        let source = """
            import SwiftUI

            struct Chip: View {
                var selected: Bool = false {
                    didSet { print(selected) }
                }
                var label: String = "" { willSet {} }
                let onTap: (() -> Void)? = nil
                var body: some View {
                    Button(action: { print("tap") }) {
                        HStack(spacing: 4) {
                            Circle().fill(selected ? Color.accentColor : .gray)
                            Text("Chip")
                                .foregroundStyle(.primary)
                        }
                    }
                    .overlay { Capsule().stroke(Color.gray, lineWidth: 1) }
                }
                static let tint = Color { traits in traits.userInterfaceStyle == .dark ? .white : .black }
                static func doubled(_ value: Double) -> Double { apply(value) { item in item * 2 } }
                static let menu = Menu { Text("A") } label: { Text("More") }
            }
            """
        let read = try #require(readBothWays(source))
        #expect(read.declarations.map(\.name) == ["selected", "label", "onTap", "body", "tint", "doubled", "menu"])
        // SwiftSyntax parsed the observers, the optional function type and the two trailing closures of stored
        // properties (a `{` there may be observers); the view's body and the function were read without it.
        let fragmentBytes = try #require(reader.readAsTokenFileCounting(source: source, file: "T.swift")?.fragmentBytes)
        let bodyStart = try #require(source.range(of: "var body")), bodyEnd = try #require(source.range(of: "static let tint"))
        #expect(fragmentBytes < source.utf8.count - source[bodyStart.lowerBound..<bodyEnd.lowerBound].utf8.count)
        guard case .stored(let tint?) = read.declarations[4].kind, case .call(_, let arguments) = tint.kind,
              case .closure(let parameters, _) = arguments.first?.value.kind else {
            Issue.record("tint is not a call with a trailing closure")
            return
        }
        #expect(parameters == ["traits"])
        guard case .stored(let menu?) = read.declarations[6].kind, case .call(_, let menuArguments) = menu.kind else {
            Issue.record("menu is not a call")
            return
        }
        #expect(menuArguments.map(\.label) == [nil, "label"])
    }

    /// A property wrapper's property has neither a type nor a value as written; the wrapper's arguments (a key path)
    /// are skipped and its name kept, as the whole parse keeps it.
    @Test func propertyWrappersWithoutATypeAreReadAsTheWholeParseReadsThem() throws {
        let source = """
            import SwiftUI

            struct Badge: View {
                @Environment(\\.isEnabled) private var isEnabled
                @Environment(\\.colorScheme) var colorScheme
                @Environment(\\.dismiss) private var dismiss
                @State private var pressed = false
                var body: some View { Text("A").foregroundStyle(isEnabled ? Color.primary : .secondary) }
            }
            """
        let read = try #require(readBothWays(source))
        #expect(read.declarations.map(\.name) == ["isEnabled", "colorScheme", "dismiss", "pressed", "body"])
        #expect(read.declarations[0].attributes == ["Environment"] && read.declarations[0].type == nil)
        // Read without SwiftSyntax: no fragment.
        #expect(reader.readAsTokenFileCounting(source: source, file: "T.swift")?.fragmentBytes == 0)
        // Without a wrapper, a property with neither is left to SwiftSyntax.
        let bare = "struct S {\n    var x\n}\n"
        #expect((reader.readAsTokenFileCounting(source: bare, file: "T.swift")?.fragmentBytes ?? 0) > 0)
    }

    /// An interpolated string is an unsupported value named by its text, as the IR builder names it: whitespace
    /// collapsed, a comment after it on its line included, cut at 60 characters.
    @Test func interpolatedStringsAreUnsupportedValuesNamedAsTheBuilderNamesThem() throws {
        let source = """
            struct Counter: View {
                let count: Int
                var body: some View {
                    let left = "\\(count)   left" // remaining
                    VStack {
                        Text("\\(count) items")
                        Text("a long label that goes on and on about \\(count) things, more than sixty characters")
                    }
                }
            }
            """
        let read = try #require(readBothWays(source))
        guard case .computed(let body) = read.declarations.last?.kind, body.count == 2, case .binding(_, let left?) = body[0].kind,
              case .unsupported(let leftReason) = left.kind, case .expression(let stack) = body[1].kind,
              case .call(_, let arguments) = stack.kind, case .closure(_, let texts) = arguments.first?.value.kind else {
            Issue.record("the body is not a VStack with a closure")
            return
        }
        let reasons = texts.compactMap { statement -> String? in
            guard case .expression(let text) = statement.kind, case .call(_, let label) = text.kind,
                  case .unsupported(let reason) = label.first?.value.kind else { return nil }
            return reason
        }
        #expect(leftReason == "cannot evaluate `\"\\(count) left\" // remaining`")
        #expect(reasons == ["cannot evaluate `\"\\(count) items\"`",
                            "cannot evaluate `\"a long label that goes on and on about \\(count) things, ...`"])
    }

    @Test func onlyTheActiveClauseOfAConditionalBlockIsRead() throws {
        let source = """
            #if os(iOS)
            import UIKit
            extension Color {
                #if DEBUG
                static let debug = Color.red
                #elseif targetEnvironment(simulator)
                static let simulator = Color.green
                #else
                static let release = Color.blue
                #endif
                static let chained = Color.red
                #if os(iOS)
                    .opacity(0.5)
                #endif
            }
            #else
            extension Color { static let mac = Color.gray }
            #endif
            """
        let read = try #require(readBothWays(source))
        #expect(read.declarations.map(\.name) == ["release", "chained"])
        let flagged = SwiftSourceReader(customFlags: ["DEBUG"])
        #expect(flagged.readAsTokenFile(source: source, file: "T.swift")?.declarations.map(\.name) == ["debug", "chained"])
    }

    @Test func whatItCannotLexWithCertaintyIsLeftToTheWholeFileParse() {
        let unreadable = [
            "extension Color {\r\n    static let a = Color.red\r\n}\n",          // carriage returns
            "extension Color { static let x = adaptive(light: }",                // a syntax error: the whole parse reports it
            "extension Color { static let a = Color.red }\n}",                   // an extra brace
            "#!/usr/bin/swift\nlet a = 1",
            "let r = #/a+/#",
            "let é = 1",
            "enum Shade {\n    static let page: Color= .white\n}",  // `=` spaced on one side only (found by fuzzing)
            "import SwiftUI\nimport  aColor = lightColor\n",          // more after an import's module (found by fuzzing)
            "extension Color {\n#if DEBUG\nstatic let = \n#else\nstatic let a = Color.red\n#endif\n}",  // an error in an inactive clause
        ]
        for source in unreadable {
            #expect(reader.readAsTokenFile(source: source, file: "T.swift") == nil, "\(source)")
        }
    }

    @Test func aChainDeeperThanTheBuilderAllowsIsTheBuildersToCutOff() throws {
        let source = "extension Color {\n    static let x = Color.red" + String(repeating: ".opacity(0.9)", count: 150) + "\n}\n"
        let read = try #require(readBothWays(source))
        guard case .stored(let initial?) = read.declarations.first?.kind else { Issue.record("no initial value"); return }
        var depth = 0
        var expr = initial
        while case .call(let callee, _) = expr.kind, case .member(let base, _) = callee.kind { expr = base; depth += 1 }
        if case .unsupported(let reason) = expr.kind { #expect(reason.contains("nests too deeply")) } else { Issue.record("the chain was not cut off") }
        #expect(depth < 150)
    }

    /// Forms of view and UIKit code real systems write (written anew for this test): each is read without SwiftSyntax
    /// and gives the IR the whole parse gives, locations and unsupported values' texts included.
    @Test func viewCodeFormsAreReadAsTheWholeParseReadsThem() throws {
        let source = #"""
            import SwiftUI

            public struct TagPicker<Tag: Hashable & Sendable>: View {
                @Binding var selection: Tag?
                private(set) var tags: [Tag] = []
                let palette: [String: Binding<Color?>]
                let tint: (red: Double, green: Double, blue: Double, opacity: Double)
                @ViewBuilder let header: () -> AnyView
                let onDismiss: (@Sendable (Bool) async throws -> Void)?
                static let separator = "\n\t"
                var level: Int {
                    get { storedLevel }
                    set(newLevel) { storedLevel = newLevel }
                }
                var note: String = "" {
                    willSet { log(newValue) }
                    didSet { log(oldValue) }
                }
                var body: some View {
                    let width = max(0, size.width - (Spacing.large * 2) + inset / 2)
                    VStack(alignment: .leading) {
                        if !isDisabled && (count > 0 || isEmpty == false), #available(iOS 16.0, *) {
                            Text(title as String).foregroundStyle(isOn ? Color.accentColor : .secondary)
                        }
                        ForEach(tags.indices, id: \.self) { index in
                            TextField("Name", text: $query)
                                .offset(x: -width, y: items[index].height)
                        }
                        ForEach(Array(pairs.enumerated()), id: \.0) { _, pair in Text(pair.name) }
                        Button { onDismiss?(true) } label: { Text(window?.title ?? "Close") }
                        Image(systemName: "xmark").accessibilityAddTraits(isSelected ? [.isSelected] : [])
                    }
                    .task { [weak model] in
                        try? await model?.load()
                    }
                }
                func requestAccess<T: Codable>(for kind: T) async throws -> Bool where T: Sendable {
                    for (key, value) in options where value > 0 {
                        print(key)
                    }
                    defer { log("done") }
                    while attempts < 3 { attempts += 1 }
                    guard let self, let _ = try? cache.load() else { throw AccessError.denied }
                    let (granted, _) = try await center.requestAuthorization(options: [.alert])
                    let drawer = NavigationView { Text("Menu") }
                    do {
                        try await store.save()
                    } catch let error {
                        log(error)
                    }
                    switch state {
                    case let .loaded(value, _): return value > 0.5
                    case .failed(reason: "offline"), (.idle, .small): break
                    case .partial(let amount) where amount > 3: return true
                    @unknown default: return false
                    }
                }
                init?(tags: [Tag]) {
                    guard let first = tags.first, case .some = Optional(first) else { return nil }
                    self.tags = tags.map { $0 }
                    super.init()
                    let selector = #selector(UIResponder.resignFirstResponder)
                    let level: Int
                    level = Self.defaultLevel
                }
            }

            #Preview("Tags") {
                @Previewable @State var picked: String? = nil
                TagPicker(tags: ["a", "b"], selection: $picked)
            }
            """#
        let read = try #require(readBothWays(source))
        #expect(read.declarations.map(\.name) == ["selection", "tags", "palette", "tint", "header", "onDismiss", "separator", "level",
                                                  "note", "body", "requestAccess", "init"])
        #expect(read.declarations.map(\.type) == ["Tag?", "[Tag]", "[String: Binding<Color?>]",
                                                  "(red: Double, green: Double, blue: Double, opacity: Double)", "() -> AnyView",
                                                  "(@Sendable (Bool) async throws -> Void)?", nil, "Int", "String", "some View", "Bool",
                                                  "TagPicker"])
        let counted = try #require(reader.readAsTokenFileCounting(source: source, file: "T.swift"))
        #expect(counted.fragmentBytes == 0)
        // What the builder cannot evaluate is named by its text, wherever the reader met it.
        let reasons = Self.unsupportedReasons(in: read)
        #expect(reasons.contains("cannot evaluate `\\.self`"))
        #expect(reasons.contains("cannot evaluate `[.isSelected]`"))
        #expect(reasons.contains("cannot evaluate `items[index]`"))
        #expect(reasons.contains("cannot evaluate `#selector(UIResponder.resignFirstResponder)`"))
        #expect(reasons.contains { $0.hasPrefix("cannot evaluate `for (key, value) in options where value > 0 {") })
    }

    @Test func operatorsAreFoldedByTheStandardPrecedence() throws {
        let source = """
            enum Metrics {
                static let a = 1 + 2 * 3 - 4
                static let b = x ?? y ?? z
                static let c = p && q || r && s
                static let d = (1 + 2) * 3
                static let e = -offset * 2 + 0..<10.count
                static let f = value as? Double ?? 0
            }
            """
        let read = try #require(readBothWays(source))
        guard case .stored(let a?) = read.declarations[0].kind, case .binary("-", let left, _) = a.kind,
              case .binary("+", _, let product) = left.kind, case .binary("*", _, _) = product.kind else {
            Issue.record("1 + 2 * 3 - 4 is not (1 + (2 * 3)) - 4")
            return
        }
        guard case .stored(let b?) = read.declarations[1].kind, case .binary("??", _, let rest) = b.kind,
              case .binary("??", _, _) = rest.kind else {
            Issue.record("?? does not group to the right")
            return
        }
        // Chains the folding rejects, and `is`, are SwiftSyntax's to read (and the IR is the whole parse's either way).
        for chain in ["a < b < c", "a as B + c", "a == b == c", "x is Int"] {
            let chainSource = "enum E {\n    static let v = \(chain)\n}\n"
            let counted = reader.readAsTokenFileCounting(source: chainSource, file: "T.swift")
            #expect(counted == nil || counted!.fragmentBytes > 0, "\(chain)")
            _ = readBothWays(chainSource)
        }
    }

    /// A plain decimal literal's value is worked out from its bytes (`SwiftIRBuilder.plainDecimal`), any other form's is
    /// parsed from its text: both give the value Swift's parse of the text gives (both readers take the same path, so
    /// reading both ways would not tell).
    @Test func numberLiteralsHaveTheValueTheirTextParsesTo() {
        func plain(_ text: String, isFloat: Bool) -> Double? {
            Array(text.utf8).withUnsafeBufferPointer { SwiftIRBuilder.plainDecimal($0, isFloat: isFloat) }
        }
        // Plain: the bytes' value is the parse's.
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ bound: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 33) % bound
        }
        var floats = ["0.5", "0.1", "0.2", "0.3", "16.0", "1.25", "0.00000000000001", "999999999999.999", "9.99999999999999",
                      "0.33333333333333", "123456789.123456", "00.5"]
        for _ in 0..<2_000 {
            let digits = 1 + Int(random(15)), point = 1 + Int(random(UInt64(digits)))
            var text = (0..<digits).map { _ in String(random(10)) }.joined()
            if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) } else { text += ".0" }
            if text.utf8.filter({ $0 != UInt8(ascii: ".") }).count <= 15 { floats.append(text) }
        }
        // Compared first, expected once: an expectation per literal made the test slow.
        let differing = floats.filter { text in
            plain(text, isFloat: true) == nil || plain(text, isFloat: true) != Double(text)
                || SwiftIRBuilder.numberLiteral(text, isFloat: true) != Double(text)
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
        for text in ["0", "7", "16", "007", "999999999999999", "123456789012345"] {
            #expect(plain(text, isFloat: false) == Int64(text).map(Double.init), "\(text)")
        }
        // Not plain: parsed from the text.
        for text in ["1e3", "1.5e-3", "2E10", "1_000.5", "0.1234567890123456", "3.14159265358979323846", "1234567890123456.5"] {
            #expect(plain(text, isFloat: true) == nil, "\(text)")
            #expect(SwiftIRBuilder.numberLiteral(text, isFloat: true) == Double(text.filter { $0 != "_" }), "\(text)")
        }
        for (text, value) in [("1234567890123456", 1_234_567_890_123_456.0), ("9223372036854775807", Double(Int64.max)), ("1_000", 1_000),
                              ("0xFF", 255), ("0b1010", 10), ("0o17", 15), ("1.5", nil)] as [(String, Double?)] {
            #expect(plain(text, isFloat: false) == nil, "\(text)")
            #expect(SwiftIRBuilder.numberLiteral(text, isFloat: false) == value, "\(text)")
        }
        #expect(SwiftIRBuilder.numberLiteral("99999999999999999999", isFloat: false) == nil)
    }

    /// Forms where the reader's tree could differ from the folded one in shape or location: each compared both ways.
    @Test func formsWhoseShapeOrLocationIsEasyToGetWrongReadAsTheWholeParse() {
        let values = [
            "try? cache.load() ?? fallback", "try await a + b", "value as? Double ?? 0", "(a as NSString).length",
            "-a.b", "!a.b.c", "-4.description", "(a).b", "(a) + b", "a?.b ?? c", "x! + 1", "-(4)", "+x", "~mask",
            "\\Theme.accent.light", "items[0].name", "items[i][j]", "#selector(dismiss) == nil", "(x: 1, y: 2)", "()",
            "[1: \"a\", 2: \"b\"]", "[:]", "[]", "[[1, 2], [3]]", "a ? b ? c : d : e", "a ?? b ? c : d", "0...10", "a..<b + 1",
            "f { [weak self] in self?.g() }", "f { [unowned model, weak self] value, other in value }", "$0.count > 1",
            "a && b || !c && d", "a * (b + c) / d", "a - b - c", "\"\\u{1F600}\\n\" + text",
            "#selector(Coordinator.handleCheck(_:))", "scanner.scanHexInt64(&value.raw)", "UIImage.self", "{ 42 }()",
            "items.map { item -> String? in item.name }", "scroll(to:animated:)",
            "Double((int >> 16) & 0xFF) / 255", "a | b ^ c & d",
        ]
        for value in values {
            let source = "enum E {\n    static let v = \(value)\n}\n"
            _ = readBothWays(source)
            // Read by the token file reader itself, not left to SwiftSyntax.
            #expect(reader.readAsTokenFileCounting(source: source, file: "T.swift")?.fragmentBytes == 0, "\(value)")
        }
        let statements = [
            "switch x {\ncase .a(let y) where y > 1: return y\ncase let .b(p, _): return p\ncase (.c, 2): return 0\ncase \"s\", 3: return 1\ndefault: break\n}",
            "if case let .a(y) = x, #available(iOS 16, *), let self { return y }",
            "for (i, name) in names.enumerated() where i > 0 { print(name) }",
            "let (a, b) = pair\nvar c: Int\nc = a + b",
            "guard !names.isEmpty, let _ = try? load() else { throw E.empty }",
            "defer { close() }\nwhile i < 3 { i += 1 }\ndo { try run() } catch { log(error) }",
            "_ = compute()\nfor try await event in stream { print(event) }",
            "func clamp(_ v: Double) -> Double { min(1, v) }\nreturn clamp(2)",
            "while let next = node.next { node = next }",
            "switch x {\ncase .a:\n    return\ncase .b:\n    print(1)\ndefault: break\n}",
        ]
        for body in statements {
            let source = "struct S {\n    func f() {\n" + body + "\n    }\n}\n"
            _ = readBothWays(source)
            #expect(reader.readAsTokenFileCounting(source: source, file: "T.swift")?.fragmentBytes == 0, "\(body)")
        }
    }

    /// An unsupported statement's text is collapsed piece by piece until it is full: whatever sits at a piece's edge
    /// (accents, combined characters, emoji, whitespace runs, comments), the text is the builder's.
    @Test func longUnsupportedTextsAreNamedAsTheBuilderNamesThem() throws {
        // Whitespace collapses, so a piece of 128 bytes can end before the text is full: the accents and emoji after
        // the blank run fall on a piece's edge at one padding or another.
        for padding in 100..<132 {
            let blank = String(repeating: " ", count: padding)
            let source = """
                struct S {
                    func f() {
                        for item in items {\(blank)print("café e\u{301}👩‍👩‍👧 é")
                        }
                    }
                }
                """
            let read = try #require(readBothWays(source))
            #expect(reader.readAsTokenFileCounting(source: source, file: "T.swift")?.fragmentBytes == 0)
            #expect(Self.unsupportedReasons(in: read) == ["cannot evaluate `for item in items { print(\"café e\u{301}👩‍👩‍👧 é\") }`"])
        }
    }

    static func unsupportedReasons(in source: ParsedSource) -> [String] {
        var reasons: [String] = []
        func visit(_ expr: Expr) {
            switch expr.kind {
            case .unsupported(let reason): reasons.append(reason)
            case .member(let base, _): visit(base)
            case .call(let callee, let arguments): visit(callee); arguments.forEach { visit($0.value) }
            case .tuple(let elements): elements.forEach { visit($0.value) }
            case .closure(_, let body): body.forEach(visit)
            case .ternary(let a, let b, let c): visit(a); visit(b); visit(c)
            case .binary(_, let a, let b): visit(a); visit(b)
            case .prefix(_, let a): visit(a)
            default: break
            }
        }
        func visit(_ statement: Stmt) {
            switch statement.kind {
            case .unsupported(let reason): reasons.append(reason)
            case .expression(let e), .return(let e?): visit(e)
            case .binding(_, let e?): visit(e)
            case .assign(let target, _, let value): visit(target); visit(value)
            case .if(_, let then, let otherwise): then.forEach(visit); otherwise?.forEach(visit)
            case .switch(_, let cases): cases.forEach { $0.body.forEach(visit) }
            default: break
            }
        }
        for declaration in source.declarations {
            switch declaration.kind {
            case .stored(let e?): visit(e)
            case .computed(let body), .function(_, let body), .initializer(_, let body): body.forEach(visit)
            default: break
            }
        }
        return reasons
    }
}

/// The text an unsupported value is named by: whitespace runs made one space, none leading, cut at 60 characters with
/// "...". Pieces are appended as the readers cut them (ASCII pieces take a byte path).
struct SnippetTests {
    /// What a snippet of `pieces` says, computed on characters from the whole text.
    static func expected(_ pieces: [String]) -> String {
        var text = ""
        var pendingSpace = false
        for character in pieces.joined() {
            if character.isWhitespace { pendingSpace = !text.isEmpty; continue }
            if pendingSpace { text.append(" "); pendingSpace = false }
            text.append(character)
        }
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    @Test func piecesReadAsTheirWholeText() {
        let words = ["a", "  ", "\t", "\n", "Color", "(", "red:", " 0.5", "é", "🎨", "\r\n", "x", " ", "longIdentifierName", ".opacity(0.3)"]
        var state: UInt64 = 7
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33)
        }
        for _ in 0..<2_000 {
            let pieces = (0..<(1 + next() % 12)).map { _ in (0..<(next() % 6)).map { _ in words[next() % words.count] }.joined() }
            var snippet = SwiftIRBuilder.Snippet()
            for piece in pieces { snippet.append(piece) }
            #expect(snippet.value == Self.expected(pieces), "\(pieces)")
        }
    }
}
