import Foundation
import A11yEngine
import SwiftOperators
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Reads a Swift file into the engine's Swift IR: types, members (with their bodies), and component declarations.
/// It reads syntax only (SwiftSyntax, no regex) and evaluates nothing: the interpreter does, across files.
public struct SwiftSourceReader: Sendable {
    public let customFlags: Set<String>

    public init(customFlags: Set<String> = []) {
        self.customFlags = customFlags
    }

    /// SwiftSyntax's type lookahead tries two readings at each `[` of a run of opening brackets (`[[[`, `[(`), so its time
    /// doubles with every one: 20 take minutes, and the daemon reading such a file would hang (found by fuzzing). Real
    /// code opens a few in a row; a file with a longer run is one parse finding, not parsed.
    static let maximumBracketRun = 12

    public func read(source: String, file: String) -> ParsedSource {
        if let finding = Self.bracketRunFinding(source: source, file: file) { return ParsedSource(file: file, findings: [finding]) }
        if WorkerPool.hasDeepStack { return readOnCurrentThread(source: source, file: file) }
        final class Box: @unchecked Sendable { var result: ParsedSource? }
        let box = Box()
        Self.performOnLargeStacks(iterations: 1) { _ in box.result = readOnCurrentThread(source: source, file: file) }
        return box.result ?? ParsedSource(file: file)
    }

    /// Runs `body(i)` for each i in `0..<iterations` on threads with deep stacks (SwiftSyntax recurses once per nesting
    /// level: a long `.opacity(...)` chain is as deep as it is long, and a pathological file would overflow a default
    /// 8 MiB stack), each taking the next index until none is left, and returns when all are done: the worker pool's
    /// threads (`WorkerPool.stackSize`), and the caller when its stack is as deep (a file read in parts, a11yctl).
    public static func performOnLargeStacks(iterations: Int, _ body: (Int) -> Void) {
        WorkerPool.shared.perform(iterations: iterations, callerWorks: WorkerPool.hasDeepStack, body)
    }

    /// The parse finding for a run of more than `maximumBracketRun` `[` with only `(` and trivia between them, outside
    /// string literals and comments; nil when there is none.
    static func bracketRunFinding(source: String, file: String) -> Finding? {
        // A file with no more `[` in all than a run may hold has no such run: one count settles nearly every file.
        // Sixteen bytes compared at once, and only a block holding a `[` counted byte by byte: the compiler did not
        // vectorise a plain loop (5 instructions a byte, ~1% of an audit), nor a `reduce` (~9).
        func count(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            guard let base = bytes.baseAddress else { return 0 }
            let brackets = SIMD16<UInt8>(repeating: UInt8(ascii: "["))
            var n = 0, index = 0
            while index + 16 <= bytes.count {
                if any(UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self) .== brackets) {
                    for k in index..<(index + 16) where base[k] == UInt8(ascii: "[") { n += 1 }
                }
                index += 16
            }
            for k in index..<bytes.count where base[k] == UInt8(ascii: "[") { n += 1 }
            return n
        }
        let brackets = source.utf8.withContiguousStorageIfAvailable(count) ?? source.utf8.lazy.filter { $0 == UInt8(ascii: "[") }.count
        guard brackets > maximumBracketRun else { return nil }
        enum State { case code, lineComment, blockComment, string, multilineString }
        var source = source
        return source.withUTF8 { bytes -> Finding? in
            var state = State.code, run = 0, start = 0, index = 0
            // Byte tests on the buffer: this runs over every byte of every file with more than a run of `[`.
            func at(_ offset: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8? = nil) -> Bool {
                let i = index + offset
                guard i + (c == nil ? 1 : 2) < bytes.count else { return false }
                return bytes[i] == a && bytes[i + 1] == b && (c == nil || bytes[i + 2] == c!)
            }
            let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n")
            while index < bytes.count {
                let byte = bytes[index]
                var step = 1
                switch state {
                case .code:
                    // By the byte first: most bytes are neither `/` nor `"`.
                    if byte == slash, at(0, slash, slash) { state = .lineComment }
                    else if byte == slash, at(0, slash, star) { state = .blockComment; step = 2 }
                    else if byte == quote, at(0, quote, quote, quote) { state = .multilineString; step = 3; run = 0 }
                    else if byte == quote { state = .string; run = 0 }
                    else if byte == UInt8(ascii: "[") {
                        if run == 0 { start = index }
                        run += 1
                        if run > maximumBracketRun {
                            // Line and column (UTF-8 columns, as SwiftSyntax counts them) worked out only here.
                            let before = bytes[..<start]
                            let line = 1 + before.lazy.filter { $0 == newline }.count
                            let column = start - (before.lastIndex(of: newline).map { $0 + 1 } ?? 0) + 1
                            return Finding(rule: "parse", severity: .error, subject: file,
                                           message: "\(file) opens more than \(maximumBracketRun) `[` in a row: not read (Swift's syntax parser takes exponential time on such a run)",
                                           location: A11yEngine.SourceLocation(file: file, line: line, column: column))
                        }
                    } else if byte != UInt8(ascii: "("), byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t"), byte != newline,
                              byte != UInt8(ascii: "\r") {
                        run = 0
                    }
                case .lineComment: if byte == newline { state = .code }
                case .blockComment: if byte == star, at(0, star, slash) { state = .code; step = 2 }
                case .string:
                    if byte == UInt8(ascii: "\\") { step = 2 } else if byte == quote || byte == newline { state = .code }
                case .multilineString:
                    if byte == UInt8(ascii: "\\") { step = 2 } else if byte == quote, at(0, quote, quote, quote) { state = .code; step = 3 }
                }
                index += step
            }
            return nil
        }
    }

    private func readOnCurrentThread(source: String, file: String) -> ParsedSource {
        let lines = LineTable(file: file, source: source)
        if let read = readAsTokenFile(source: source, file: file, lines: lines) {
            assert(read == readWholeFile(source: source, file: file, lines: lines),
                   "\(file): the token file reader and the whole-file parse disagree")
            return read
        }
        return readWholeFile(source: source, file: file, lines: lines)
    }

    /// The file read by `SwiftTokenFileReader`; nil when it leaves the file to the whole-file parse.
    func readAsTokenFile(source: String, file: String, lines: LineTable? = nil) -> ParsedSource? {
        readAsTokenFileCounting(source: source, file: file, lines: lines)?.source
    }

    /// `readAsTokenFile`, with how many of the file's bytes SwiftSyntax parsed as fragments and how many parts its large
    /// blocks were read in.
    func readAsTokenFileCounting(source: String, file: String,
                                 lines: LineTable? = nil) -> (source: ParsedSource, fragmentBytes: Int, parts: Int)? {
        SwiftTokenFileReader.read(source: source, file: file, lines: lines ?? LineTable(file: file, source: source),
                                  flags: customFlags)
    }

    /// The file parsed whole by SwiftSyntax and walked.
    func readWholeFile(source: String, file: String, lines: LineTable? = nil) -> ParsedSource {
        let lines = lines ?? LineTable(file: file, source: source)
        let parsed = Parser.parse(source: source)
        if parsed.hasError {
            // A broken file yields only its parse finding: the daemon keeps the last good version in force.
            let first: (message: String, position: AbsolutePosition)?
            if let equals = parsed.tokens(viewMode: .all).first(where: { $0.tokenDiagnostic?.kind == .equalMustHaveConsistentWhitespaceOnBothSides }) {
                // The diagnostics generator also builds Fix-Its, and this one traps in swift-syntax 602 when an invalid
                // character stands before `=` (`let a \u{FFFD}= 1`, found by fuzzing): the lexer's error, said here.
                first = ("'=' must have consistent whitespace on both sides", equals.positionAfterSkippingLeadingTrivia)
            } else {
                first = ParseDiagnosticsGenerator.diagnostics(for: parsed).first.map { ($0.message, $0.position) }
            }
            let location = first.map { lines.converter.location(for: $0.position) }
            return ParsedSource(file: file, findings: [Finding(
                rule: "parse", severity: .error, subject: file,
                message: "\(file) is not valid Swift: \(first?.message ?? "syntax error")",
                location: A11yEngine.SourceLocation(file: file, line: location?.line ?? 1, column: location?.column ?? 1))])
        }
        var walker = DeclarationWalker(file: file, source: source, lines: lines, flags: customFlags)
        walker.visit(items: parsed.statements.map { Syntax($0.item) }, scope: [])
        return ParsedSource(file: file, declarations: walker.declarations, types: walker.types, components: walker.components,
                            findings: walker.findings)
    }
}

/// A file's line table (SwiftSyntax's `SourceLocationConverter`), built from the text on first use: a file the token
/// file reader reads without SwiftSyntax never needs one. (From the text, identical to the tree's as the parser is
/// lossless: building it from a tree recurses per nesting level and overflows the stack on pathological chains.) Used
/// by the one thread reading the file.
final class LineTable {
    private let file: String
    private let source: String
    private(set) lazy var converter = SourceLocationConverter(file: file, source: source)

    init(file: String, source: String) {
        self.file = file
        self.source = source
    }
}

/// Turns syntax positions into 1-based file:line:column.
struct SourceLocator {
    /// The file, interned once (a location per node).
    let sourceFile: SourceFile
    let lines: LineTable

    init(file: String, lines: LineTable) {
        sourceFile = SourceFile.named(file)
        self.lines = lines
    }

    /// `offset`: where the node's tree starts in the file (a folded operator sequence is a tree of its own).
    func location(_ node: some SyntaxProtocol, offset: Int = 0) -> A11yEngine.SourceLocation {
        let l = lines.converter.location(for: node.positionAfterSkippingLeadingTrivia.advanced(by: offset))
        return A11yEngine.SourceLocation(in: sourceFile, line: l.line, column: l.column)
    }
}

/// Walks declarations (types, extensions, `#if` clauses) and records types, members and components.
struct DeclarationWalker {
    let file: String
    /// The file's bytes: a node's text is cut from them (`text(of:)`).
    let bytes: [UInt8]
    let lines: LineTable
    let flags: Set<String>
    var declarations: [MemberDeclaration] = []
    var types: [TypeDeclaration] = []
    var components: [ComponentDeclaration] = []
    var findings: [Finding] = []
    var builder: SwiftIRBuilder

    init(file: String, source: String, lines: LineTable, flags: Set<String>) {
        self.file = file
        bytes = Array(source.utf8)
        self.lines = lines
        self.flags = flags
        builder = SwiftIRBuilder(locator: SourceLocator(file: file, lines: lines), ifConfig: IfConfigEvaluator(flags: flags))
    }

    /// A walker of the same file that records from nothing (for one part of a file read in parts).
    init(sharing other: DeclarationWalker) {
        (file, bytes, lines, flags) = (other.file, other.bytes, other.lines, other.flags)
        builder = SwiftIRBuilder(locator: other.builder.locator, ifConfig: other.builder.ifConfig)
    }

    func location(_ node: some SyntaxProtocol) -> A11yEngine.SourceLocation { builder.location(node) }

    /// The node's `trimmedDescription`, cut from the file (the parse is lossless): `trimmed` rebuilds the node without
    /// its outer trivia first, and type annotations are read for every declaration.
    func text(of node: some SyntaxProtocol) -> String {
        let start = builder.positionOffset + node.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = builder.positionOffset + node.endPositionBeforeTrailingTrivia.utf8Offset
        guard start >= 0, start <= end, end <= bytes.count else { return node.trimmedDescription }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        assert(text == node.trimmedDescription, "\(text) is not the node's text")
        return text
    }

    static let componentGroups: Set<String> = ["Colors", "Layout", "Typography"]

    /// Each declaration is read as a tree of its own: SwiftSyntax keeps every node it has handed out until its tree is
    /// freed, so reading a 5,000-member extension through the file's tree held all of them at once (~11 MB for a
    /// 373 KB file); a detached declaration's nodes go when it has been read.
    mutating func visit(items: [Syntax], scope: [String]) {
        for item in items {
            let saved = builder.positionOffset
            builder.positionOffset += item.position.utf8Offset
            visit(item.detached, scope: scope)
            builder.positionOffset = saved
        }
    }

    mutating func visit(_ node: Syntax, scope: [String]) {
        if let ifConfig = node.as(IfConfigDeclSyntax.self) {
            guard let clause = IfConfigEvaluator(flags: flags).activeClause(ifConfig), let elements = clause.elements else { return }
            switch elements {
            case .statements(let list): visit(items: list.map { Syntax($0.item) }, scope: scope)
            case .decls(let list): visit(items: list.map { Syntax($0.decl) }, scope: scope)
            default: break
            }
        } else if let ext = node.as(ExtensionDeclSyntax.self) {
            let name = typeName(ext.extendedType)
            types.append(TypeDeclaration(kind: .extension, qualifiedName: name, inheritance: inheritance(ext.inheritanceClause),
                                         location: location(ext.extendedType)))
            visit(items: ext.memberBlock.members.map { Syntax($0.decl) }, scope: name)
        } else if let (kind, nameToken, members, clause) = typeParts(node) {
            let name = nameToken.identifierText
            types.append(TypeDeclaration(kind: kind, qualifiedName: scope + [name], inheritance: inheritance(clause), location: location(nameToken)))
            let nested = Set(members.members.compactMap { $0.decl.declaredName?.identifierText })
            if !nested.isDisjoint(with: Self.componentGroups) {
                components.append(ComponentDeclaration(qualifiedName: scope + [name], location: location(nameToken)))
            }
            visit(items: members.members.map { Syntax($0.decl) }, scope: scope + [name])
        } else if let variable = node.as(VariableDeclSyntax.self) {
            visitVariable(variable, scope: scope)
        } else if let function = node.as(FunctionDeclSyntax.self) {
            visitFunction(function, scope: scope)
        } else if let initializer = node.as(InitializerDeclSyntax.self) {
            visitInitializer(initializer, scope: scope)
        } else if let alias = node.as(TypeAliasDeclSyntax.self) {
            types.append(TypeDeclaration(kind: .typealias, qualifiedName: scope + [alias.name.identifierText], inheritance: [],
                                         aliasOf: text(of: alias.initializer.value), location: location(alias.name)))
        } else if let enumCase = node.as(EnumCaseDeclSyntax.self) {
            for element in enumCase.elements {
                let payload = element.parameterClause?.parameters.map { p in
                    Parameter(label: p.firstName.map { $0.text == "_" ? nil : $0.identifierText } ?? nil, name: (p.secondName ?? p.firstName)?.identifierText ?? "_",
                              type: text(of: p.type), defaultValue: p.defaultValue.map { builder.expression($0.value) })
                } ?? []
                declarations.append(MemberDeclaration(
                    owner: scope, name: element.name.identifierText, isStatic: true,
                    kind: .enumCase(payload: payload, rawValue: element.rawValue.map { builder.expression($0.value) }),
                    type: scope.joined(separator: "."), location: location(element.name)))
            }
        }
    }

    func typeParts(_ node: Syntax) -> (TypeDeclaration.Kind, TokenSyntax, MemberBlockSyntax, InheritanceClauseSyntax?)? {
        if let d = node.as(EnumDeclSyntax.self) { return (.enum, d.name, d.memberBlock, d.inheritanceClause) }
        if let d = node.as(StructDeclSyntax.self) { return (.struct, d.name, d.memberBlock, d.inheritanceClause) }
        if let d = node.as(ClassDeclSyntax.self) { return (.class, d.name, d.memberBlock, d.inheritanceClause) }
        if let d = node.as(ActorDeclSyntax.self) { return (.actor, d.name, d.memberBlock, d.inheritanceClause) }
        if let d = node.as(ProtocolDeclSyntax.self) { return (.protocol, d.name, d.memberBlock, d.inheritanceClause) }
        return nil
    }

    func inheritance(_ clause: InheritanceClauseSyntax?) -> [String] {
        clause?.inheritedTypes.map { typeName($0.type).joined(separator: ".") } ?? []
    }

    func typeName(_ type: TypeSyntax) -> [String] {
        if let member = type.as(MemberTypeSyntax.self) { return typeName(member.baseType) + [member.name.identifierText] }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return [identifier.name.identifierText] }
        return [text(of: type)]
    }

    static func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    func attributes(_ list: AttributeListSyntax) -> [String] {
        list.compactMap { $0.as(AttributeSyntax.self).map { text(of: $0.attributeName) } }
    }

    mutating func visitVariable(_ variable: VariableDeclSyntax, scope: [String]) {
        let isStatic = Self.isStatic(variable.modifiers)
        let attributeNames = attributes(variable.attributes)
        // `static let a: Color = x, b: Color = y` and `let a, b: CGFloat` (the type applies to the names before it).
        var pendingType: String?
        for binding in variable.bindings.reversed() {
            if let annotation = binding.typeAnnotation?.type { pendingType = text(of: annotation) }
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.identifierText else { continue }
            let kind: MemberDeclaration.Kind
            if let value = binding.initializer?.value {
                kind = .stored(initial: builder.expression(value))
            } else if let block = binding.accessorBlock, let body = Self.getterBody(block) {
                kind = .computed(body: builder.statements(body))
            } else {
                kind = .stored(initial: nil)
            }
            declarations.append(MemberDeclaration(owner: scope, name: name, isStatic: isStatic, kind: kind, type: pendingType,
                                                  attributes: attributeNames, location: location(binding.pattern)))
        }
    }

    /// The getter of a computed property; nil for stored properties with observers.
    static func getterBody(_ block: AccessorBlockSyntax) -> CodeBlockItemListSyntax? {
        switch block.accessors {
        case .getter(let items): return items
        case .accessors(let list):
            return list.first { $0.accessorSpecifier.tokenKind == .keyword(.get) }?.body?.statements
        }
    }

    mutating func parameters(_ clause: FunctionParameterClauseSyntax) -> [Parameter] {
        clause.parameters.map { p in
            let first = p.firstName.identifierText
            return Parameter(label: first == "_" ? nil : first, name: p.secondName?.identifierText ?? first, type: text(of: p.type),
                             defaultValue: p.defaultValue.map { builder.expression($0.value) })
        }
    }

    mutating func visitFunction(_ function: FunctionDeclSyntax, scope: [String]) {
        guard let body = function.body?.statements else { return }
        if case .binaryOperator = function.name.tokenKind { return }
        let parameters = parameters(function.signature.parameterClause)
        declarations.append(MemberDeclaration(
            owner: scope, name: function.name.identifierText, isStatic: Self.isStatic(function.modifiers) || scope.isEmpty,
            kind: .function(parameters: parameters, body: builder.statements(body)),
            type: function.signature.returnClause.map { text(of: $0.type) }, attributes: attributes(function.attributes),
            location: location(function.name)))
    }

    mutating func visitInitializer(_ initializer: InitializerDeclSyntax, scope: [String]) {
        guard let body = initializer.body?.statements else { return }
        let parameters = parameters(initializer.signature.parameterClause)
        declarations.append(MemberDeclaration(
            owner: scope, name: "init", isStatic: true, kind: .initializer(parameters: parameters, body: builder.statements(body)),
            type: scope.joined(separator: "."), location: location(initializer.initKeyword)))
    }
}
