import Foundation
import A11yEngine
import SwiftParser
import SwiftSyntax

/// Reads Swift declarations straight from the text when it knows every form in them: types and extensions, enum cases,
/// stored and computed properties, functions and initialisers (generic, `async`, `throws`, failable) with their types
/// (generic, optional, array, dictionary, tuple and function types); expressions of names, member accesses, calls with
/// trailing closures, closures with capture lists, literals, operators folded by the standard precedence, prefix
/// operators, casts, ternaries, optional chaining, force unwraps, `try` and `await`; values the IR builder does not
/// evaluate (interpolated strings, array and dictionary literals, subscripts, key paths, macros such as `#selector`) as
/// its unsupported values named by their text; property accessors and observers; statements `return`, `let`,
/// assignments, `if`, `guard`, `switch` with enum-case, binding, tuple and literal patterns, and `for`, `while`, `do`,
/// `throw`, `defer`, `break` and local functions as the builder's unsupported statements; `#Preview` blocks (checked and
/// dropped, as the walker drops them); the active `#if` clause, read like its block.
/// Every other declaration is cut out of the text and parsed by SwiftSyntax in place, consecutive ones together. The
/// IR is the one the whole-file parse gives (`SwiftTokenFileReaderTests`; a debug build compares both on every file it
/// reads): a whole-file parse builds and walks a syntax tree for each of a token file's thousands of one-line
/// declarations.
///
/// Nil when the file has anything it does not lex with certainty (`\r`, a `#!` line, regex literals, non-ASCII outside
/// strings, comments and identifiers, unbalanced brackets) or a syntax error (a fragment or an inactive `#if` clause
/// SwiftSyntax rejects, `a= b`): the whole-file parse reads it, and reports its errors.
final class SwiftTokenFileReader {
    private let bytes: [UInt8]
    private let file: String
    /// `file`, interned once: every node gets a location.
    private let sourceFile: SourceFile
    private var lexemes: [Lexeme] = []
    private var position = 0
    private var walker: DeclarationWalker
    /// The deepest expression read in the closure body being read (`closure(height:)`).
    private var bodyHeight = 0
    private var fragmentBytes = 0
    /// Whether a large block's members may be read in parts on several threads (the file's reader; not its parts').
    private var readsInParts = true
    /// How many parts large blocks were read in (0: none was).
    private var partsRead = 0
    /// How many type or extension bodies the block being read is in (0: the file's top level).
    private var nesting = 0

    /// `fragmentBytes`: how much of the file SwiftSyntax parsed (fragments and inactive `#if` clauses); `parts`: how many
    /// parts its large blocks were read in on several threads (0: none was).
    static func read(source: String, file: String, lines: LineTable,
                     flags: Set<String>) -> (source: ParsedSource, fragmentBytes: Int, parts: Int)? {
        let reader = SwiftTokenFileReader(source: source, file: file, lines: lines, flags: flags)
        guard let lexemes = reader.bytes.withUnsafeBufferPointer({ bytes -> [Lexeme]? in
            var lexer = Lexer(bytes: bytes)
            return lexer.lexemes()
        }) else { return nil }
        reader.lexemes = lexemes
        var nested: Set<String> = []
        guard reader.items(scope: [], nested: &nested), reader.position == lexemes.count - 1 else { return nil }
        let walker = reader.walker
        return (ParsedSource(file: file, declarations: walker.declarations, types: walker.types, components: walker.components,
                             findings: walker.findings), reader.fragmentBytes, reader.partsRead)
    }

    private init(source: String, file: String, lines: LineTable, flags: Set<String>) {
        walker = DeclarationWalker(file: file, source: source, lines: lines, flags: flags)
        bytes = walker.bytes
        self.file = file
        sourceFile = SourceFile.named(file)
    }

    /// A reader of the lexemes from `start` on, for one part of a block `parent` reads in parts.
    private init(partOf parent: SwiftTokenFileReader, from start: Int) {
        walker = DeclarationWalker(sharing: parent.walker)
        bytes = parent.bytes
        file = parent.file
        sourceFile = parent.sourceFile
        lexemes = parent.lexemes
        position = start
        readsInParts = false
    }

    // MARK: Large blocks in parts

    /// A block of at least this many lexemes is read in parts (a 5,000-token `extension Color` is ~60,000).
    static let lexemesReadInParts = 20_000
    /// Parts a large block is cut into for each core: the files of a project are read side by side too, and with one part
    /// a core the core given a large file's last part read it alone while the other, done with a smaller file, waited.
    static let partsPerCore = 4

    /// Where a block's members can be cut into `parts` pieces read independently: lexeme indices of declarations that
    /// start a line outside any bracket, evenly spaced, then the block's `}` (or the file's end). Nil for a small block,
    /// or one with `#if` directives among its members.
    private func partBoundaries(parts: Int) -> [Int]? {
        var depth = 0, index = position
        var starts: [Int] = []
        while true {
            let l = lexemes[index]
            if l.kind == .end { break }
            if l.kind == .punctuation {
                let byte = bytes[l.start]
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") {
                    if depth == 0 { break }  // the block's `}`
                    depth -= 1
                }
            } else if depth == 0, l.kind == .pound {
                return nil
            } else if depth == 0, l.atStartOfLine, l.kind == .identifier, index > position {
                starts.append(index)
            }
            index += 1
        }
        let end = index
        guard end - position >= Self.lexemesReadInParts else { return nil }
        var boundaries: [Int] = []
        var k = 0
        for part in 1..<parts {
            // The first declaration start at or after the target.
            let target = position + (end - position) * part / parts
            while k < starts.count, starts[k] < target || !isPartStart(starts[k]) { k += 1 }
            guard k < starts.count else { break }
            boundaries.append(starts[k])
            k += 1
        }
        // Parts of about even size, or none here: a file of one large `extension` has its members read in parts instead.
        let sizes = zip([position] + boundaries, boundaries + [end]).map { $1 - $0 }
        guard !boundaries.isEmpty, sizes.max()! * 2 <= (end - position) * 3 / parts else { return nil }
        return boundaries + [end]
    }

    /// A declaration keyword starting a line, after a line that is not only attributes or modifiers.
    private func isPartStart(_ index: Int) -> Bool {
        guard isWord(lexemes[index], in: Lexer.declarationStarts) else { return false }
        var lineStart = index - 1
        while lineStart > 0, !lexemes[lineStart].atStartOfLine { lineStart -= 1 }
        let previous = lexemes[index - 1]
        if isPunctuation(lexemes[lineStart], UInt8(ascii: "@")) { return false }
        if isWord(previous, in: Lexer.modifiers) { return false }
        return true
    }

    /// The members of a large block (a type's, an extension's or the file's) read in parts on as many threads as there
    /// are cores, merged in order; nil when the block is not read so (small, `#if` among its members, parts of uneven
    /// size, one core). False when a part cannot be read.
    private func itemsInParts(scope: [String], nested: inout Set<String>) -> Bool? {
        // (The file's top level and its types' bodies only, and only where enough of the file is left: finding a block's
        // end is a pass over it.)
        guard readsInParts, activeCores > 1, nesting <= 1, lexemes.count - position >= Self.lexemesReadInParts,
              let boundaries = partBoundaries(parts: Self.partsPerCore * activeCores) else { return nil }
        let starts = [position] + boundaries.dropLast()
        let readers = starts.map { SwiftTokenFileReader(partOf: self, from: $0) }
        let results = ConcurrentResults<Set<String>>(count: readers.count)
        let shared = ReadOnly(value: (readers, boundaries, scope))
        // On the reader's large-stack threads, as the file is.
        SwiftSourceReader.performOnLargeStacks(iterations: readers.count) { part in
            let (readers, boundaries, sharedScope) = shared.value
            // A list of its own for each part's declarations (their `owner`): the graph reads a token's owner on the core
            // that prepares it, and one list for the whole file had its reference count moved between the cores.
            let scope = sharedScope.map { $0 }
            var names: Set<String> = []
            let reader = readers[part]
            guard reader.items(scope: scope, nested: &names, end: boundaries[part]), reader.position == boundaries[part] else { return }
            results.set(part, names)
        }
        for (reader, names) in zip(readers, results.values) {
            guard let names else { return false }
            nested.formUnion(names)
            walker.declarations += reader.walker.declarations
            walker.types += reader.walker.types
            walker.components += reader.walker.components
            walker.findings += reader.walker.findings
            fragmentBytes += reader.fragmentBytes
        }
        position = boundaries.last!
        partsRead += readers.count
        return true
    }

    // MARK: Declarations

    private var current: Lexeme { lexemes[position] }
    private func lexeme(_ offset: Int) -> Lexeme { lexemes[max(0, min(position + offset, lexemes.count - 1))] }
    /// The lexeme's text.
    private func text(_ l: Lexeme) -> String { text(l.start..<l.end) }
    /// The text of a range of the file, read through a pointer: a slice of `bytes` would retain and release the array each
    /// time (and the parts of a file read in parts share it, so their cores would take its count from each other).
    private func text(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
    private func location(_ l: Lexeme) -> A11yEngine.SourceLocation { A11yEngine.SourceLocation(in: sourceFile, line: l.line, column: l.column) }
    private func isPunctuation(_ l: Lexeme, _ byte: UInt8) -> Bool { l.kind == .punctuation && bytes[l.start] == byte }
    /// Compared byte for byte: keywords are tested at nearly every lexeme, and a `String` of each would be made first.
    private func isWord(_ l: Lexeme, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard l.kind == .identifier, l.end - l.start == count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in (0..<count).allSatisfy { buffer[l.start + $0] == word.utf8Start[$0] } }
    }
    /// Whether an identifier is one of `words`, on its bytes (as above, for the keyword sets).
    private func isWord(_ l: Lexeme, in words: ByteWords) -> Bool {
        l.kind == .identifier && bytes.withUnsafeBufferPointer { words.contains(UnsafeBufferPointer(rebasing: $0[l.start..<l.end])) }
    }
    /// `Lexer.isReserved` of an identifier, on its bytes.
    private func isReserved(_ l: Lexeme) -> Bool { bytes[l.start] == UInt8(ascii: "$") || isWord(l, in: Lexer.reserved) }

    /// Members of a block (or the file) up to its `}` (or the end). False when the file must be read whole.
    private func items(scope: [String], nested: inout Set<String>, end: Int = .max) -> Bool {
        if end == .max, let read = itemsInParts(scope: scope, nested: &nested) { return read }
        // Consecutive declarations the fast reader cannot read are parsed together: a view's members are mostly such.
        var pending: Range<Int>?
        while position < end, current.kind != .end, !isPunctuation(current, UInt8(ascii: "}")) {
            let start = position
            if current.kind == .pound, text(current) == "#if" {
                if let fragment = pending {
                    guard readFragment(fragment, scope: scope, nested: &nested) else { return false }
                    pending = nil
                }
                guard conditionalBlock(scope: scope) else { return false }
                continue
            }
            let counts = (walker.declarations.count, walker.types.count, walker.components.count)
            switch declaration(scope: scope, nested: &nested) {
            case .read:
                guard let fragment = pending else { continue }
                // What was just read comes after the fragment before it.
                let read = (walker.declarations[counts.0...], walker.types[counts.1...], walker.components[counts.2...])
                walker.declarations.removeSubrange(counts.0...)
                walker.types.removeSubrange(counts.1...)
                walker.components.removeSubrange(counts.2...)
                guard readFragment(fragment, scope: scope, nested: &nested) else { return false }
                walker.declarations += read.0
                walker.types += read.1
                walker.components += read.2
                pending = nil
            case .unreadable: return false
            case .fragment:
                position = start
                guard fragmentEnd() else { return false }
                pending = (pending?.lowerBound ?? start)..<position
            }
        }
        if let fragment = pending { return readFragment(fragment, scope: scope, nested: &nested) }
        return true
    }

    private enum Outcome { case read, fragment, unreadable }

    /// `#if` ... `#endif` around declarations: the clause `IfConfigEvaluator` picks is read like the block around it; the
    /// others are read and dropped, to find a syntax error in them as the whole-file parse would (and report it).
    private func conditionalBlock(scope: [String]) -> Bool {
        var directives = [position]
        var depth = 0, index = position, closed = false
        while !closed {
            index += 1
            let l = lexemes[index]
            if l.kind == .end { return false }
            guard l.kind == .pound else { continue }
            switch text(l) {
            case "#if": depth += 1
            case "#endif":
                if depth == 0 { directives.append(index); closed = true } else { depth -= 1 }
            case "#else", "#elseif":
                if depth == 0 { directives.append(index) }
            default: break
            }
        }
        // The directives alone, parsed and evaluated as the whole-file read does.
        var skeleton = ""
        var bodies: [Range<Int>] = []
        for (k, directive) in directives.dropLast().enumerated() {
            guard lexemes[directive].atStartOfLine else { return false }
            var bodyStart = directive + 1
            while !lexemes[bodyStart].atStartOfLine, lexemes[bodyStart].kind != .end { bodyStart += 1 }
            skeleton += String(decoding: bytes[lexemes[directive].start..<lexemes[bodyStart - 1].end], as: UTF8.self) + "\n"
            bodies.append(bodyStart..<directives[k + 1])
        }
        skeleton += "#endif"
        guard case .read(let clauses, let active) = Self.directives.decision(skeleton, flags: walker.flags), clauses == bodies.count else {
            return false
        }
        for (k, body) in bodies.enumerated() where !body.isEmpty {
            if k == active {
                position = body.lowerBound
                var names: Set<String> = []  // a type's members inside `#if` do not make it a component
                guard items(scope: scope, nested: &names, end: body.upperBound), position == body.upperBound else { return false }
            } else {
                // Checked, not kept: what this reader reads is valid Swift, and the rest is parsed by SwiftSyntax.
                let kept = (walker.declarations.count, walker.types.count, walker.components.count, walker.findings.count)
                position = body.lowerBound
                var names: Set<String> = []
                guard items(scope: scope, nested: &names, end: body.upperBound), position == body.upperBound else { return false }
                walker.declarations.removeSubrange(kept.0...)
                walker.types.removeSubrange(kept.1...)
                walker.components.removeSubrange(kept.2...)
                walker.findings.removeSubrange(kept.3...)
            }
        }
        position = directives[directives.count - 1] + 1
        return current.atStartOfLine || current.kind == .end
    }

    /// What `#if` skeletons decide, by their text: a project repeats a few (`#if os(iOS)`, `#if DEBUG`) in every file,
    /// and parsing one with SwiftSyntax costs more than reading a small file. Shared by the files read concurrently.
    private static let directives = DirectiveDecisions()

    final class DirectiveDecisions: @unchecked Sendable {
        enum Decision: Equatable {
            /// The skeleton is one valid `#if` block of `clauses` clauses; `active` is the active one (nil: none).
            case read(clauses: Int, active: Int?)
            /// Not one valid block: the file is read whole.
            case unread
        }
        private let lock = NSLock()
        private var decisions: [String: Decision] = [:]
        /// Far more skeletons than a project writes (its files repeat a handful).
        static let capacity = 1_024

        func decision(_ skeleton: String, flags: Set<String>) -> Decision {
            let key = flags.sorted().joined(separator: ",") + "\n" + skeleton
            lock.lock()
            let known = decisions[key]
            lock.unlock()
            if let known { return known }
            let decided = Self.decide(skeleton, flags: flags)
            lock.lock()
            // A daemon reads edit after edit: its memory stays bounded by the project, not by the edits' history.
            if decisions.count >= Self.capacity { decisions.removeAll() }
            decisions[key] = decided
            lock.unlock()
            return decided
        }

        private static func decide(_ skeleton: String, flags: Set<String>) -> Decision {
            let parsed = Parser.parse(source: skeleton)
            guard !parsed.hasError, parsed.statements.count == 1, let block = parsed.statements.first?.item.as(IfConfigDeclSyntax.self) else {
                return .unread
            }
            let activeClause = IfConfigEvaluator(flags: flags).activeClause(block)
            return .read(clauses: block.clauses.count, active: block.clauses.enumerated().first { $0.element.id == activeClause?.id }?.offset)
        }
    }

    /// Modifiers read here (`class` only before `let`/`var`/`func`; the rest make a declaration SwiftSyntax's).
    private static let modifiers = ByteWords(Lexer.modifierWords.subtracting(["class", "mutating", "nonmutating", "indirect", "prefix", "postfix", "infix"]))
    private static let accessLevels: Set<String> = ["private", "fileprivate", "internal", "package", "public", "open"]
    private static let typeKinds: [String: TypeDeclaration.Kind] = ["enum": .enum, "struct": .struct, "class": .class, "actor": .actor]

    private func declaration(scope: [String], nested: inout Set<String>) -> Outcome {
        var isStatic = false
        var attributes: [String] = []
        while true {
            let l = current
            if isPunctuation(l, UInt8(ascii: "@")) {
                // `@MainActor`, `@available(iOS 15, *)`: the name is what is kept. A qualified name is read by SwiftSyntax.
                let name = lexeme(1)
                guard name.kind == .identifier, name.start == l.end, !isReserved(name) else { return .fragment }
                let after = lexeme(2)
                if after.start == name.end, isPunctuation(after, UInt8(ascii: ".")) { return .fragment }
                attributes.append(text(name))
                position += 2
                if after.start == name.end, isPunctuation(after, UInt8(ascii: "(")), !skipBalanced() { return .unreadable }
            } else if isWord(l, in: Self.modifiers) {
                if isPunctuation(lexeme(1), UInt8(ascii: "(")) {
                    // `private(set)`: nothing the IR keeps; other arguments are SwiftSyntax's.
                    guard Self.accessLevels.contains(text(l)), lexeme(1).start == l.end, isWord(lexeme(2), "set"),
                          isPunctuation(lexeme(3), UInt8(ascii: ")")) else { return .fragment }
                    position += 3
                }
                if isWord(l, "static") { isStatic = true }
                position += 1
            } else if isWord(l, "class"), isWord(lexeme(1), "let") || isWord(lexeme(1), "var") || isWord(lexeme(1), "func") || isWord(lexeme(1), in: Self.modifiers) {
                isStatic = true
                position += 1
            } else {
                break
            }
        }
        let keyword = current
        if keyword.kind == .pound, text(keyword) == "#Preview", attributes.isEmpty, !isStatic { return preview() }
        guard keyword.kind == .identifier else { return .fragment }
        // The usual keyword on its bytes, the others as a string.
        if isWord(keyword, "let") || isWord(keyword, "var") { return binding(scope: scope, isStatic: isStatic, attributes: attributes) }
        let word = text(keyword)
        switch word {
        case "func": return function(scope: scope, isStatic: isStatic || scope.isEmpty, attributes: attributes)
        case "init" where !scope.isEmpty: return initializer(scope: scope)
        case "case": return attributes.isEmpty ? enumCases(scope: scope) : .fragment
        case "extension": return extensionDeclaration()
        case "import" where attributes.isEmpty && !isStatic:
            // `import SwiftUI`, `import Foundation.NSString`: nothing the audit reads. Other forms are SwiftSyntax's (and
            // anything after the module's name on the line is its error to report; found by fuzzing).
            position += 1
            guard typePath() != nil, current.kind == .end || current.atStartOfLine || isPunctuation(current, UInt8(ascii: "}")) else {
                return .fragment
            }
            return .read
        default:
            if let kind = Self.typeKinds[word] { return typeDeclaration(kind, scope: scope, nested: &nested) }
            return .fragment
        }
    }

    /// `let name: Type = value`, one binding, with accessors (`{ get ... set ... }`) or observers (`{ didSet ... }`).
    private func binding(scope: [String], isStatic: Bool, attributes: [String]) -> Outcome {
        position += 1
        let nameLexeme = current
        guard let name = identifier(nameLexeme) else { return .fragment }
        position += 1
        var type: String?
        if isPunctuation(current, UInt8(ascii: ":")) {
            position += 1
            guard let written = typeText() else { return .fragment }
            type = written
        }
        var kind = MemberDeclaration.Kind.stored(initial: nil)
        if atAssignment {
            position += 1
            guard let value = initialValue() else { return .fragment }
            kind = .stored(initial: value)
            // `= "" { didSet {...} }`: observers, checked; the value is what the IR keeps.
            if isPunctuation(current, UInt8(ascii: "{")), !current.atStartOfLine {
                guard let accessors = accessorBlock(), accessors.getter == nil else { return .fragment }
            }
        } else if type != nil, isPunctuation(current, UInt8(ascii: "{")) {
            let first = lexeme(1)
            if first.kind == .identifier, Self.accessors.contains(text(first)) {
                // `var x: Color { get { ... } set { ... } }`: the getter is the property's body.
                guard let accessors = accessorBlock() else { return .fragment }
                kind = accessors.getter.map { .computed(body: $0) } ?? .stored(initial: nil)
            } else {
                // `var x: Color { .black }`
                guard let body = block() else { return .fragment }
                kind = .computed(body: body)
            }
        } else if type == nil, attributes.isEmpty {
            // Neither a type nor a value: only a property wrapper gives one (`@Environment(\.isEnabled) var isEnabled`,
            // a view's most common declaration SwiftSyntax would otherwise parse on its own).
            return .fragment
        }
        guard atDeclarationEnd else { return .fragment }
        // Moved into the declaration (passed as they were, each was copied, and the copy released after the call).
        walker.declarations.append(MemberDeclaration(owner: scope, name: consume name, isStatic: isStatic, kind: consume kind, type: consume type,
                                                     attributes: attributes, location: location(nameLexeme), ownerKey: ownerKey(of: scope)))
        return .read
    }

    /// `scope` joined with dots, made once for the run of members of one type (the last scope asked for, kept).
    private func ownerKey(of scope: [String]) -> String {
        if let last = lastOwnerKey, last.scope == scope { return last.key }
        let key = MemberDeclaration.ownerKey(scope)
        lastOwnerKey = (scope, key)
        return key
    }
    private var lastOwnerKey: (scope: [String], key: String)?

    /// At `{` before accessors: `get`, `set`, `willSet` and `didSet` blocks (a setter's or observer's parameter name
    /// allowed), past the `}`, with the getter's statements; nil for other forms (`mutating get`, effects, `_modify`, a
    /// getter without a body).
    private struct Accessors { var getter: [Stmt]? }

    private func accessorBlock() -> Accessors? {
        position += 1
        var getter: [Stmt]?
        while !isPunctuation(current, UInt8(ascii: "}")) {
            let word = current
            guard isWord(word, "get") || isWord(word, "set") || isWord(word, "willSet") || isWord(word, "didSet") else { return nil }
            position += 1
            if !isWord(word, "get"), isPunctuation(current, UInt8(ascii: "(")) {
                guard identifier(lexeme(1)) != nil, isPunctuation(lexeme(2), UInt8(ascii: ")")) else { return nil }
                position += 3
            }
            guard isPunctuation(current, UInt8(ascii: "{")), let body = block() else { return nil }
            if isWord(word, "get") {
                guard getter == nil else { return nil }
                getter = body
            }
        }
        position += 1
        return Accessors(getter: getter)
    }

    /// A binding's value: a `{` after it starts a trailing closure (`= NavigationView { ... }`) unless it holds observers
    /// (`= "" { didSet {...} }`), which are left to the caller.
    private func initialValue() -> Expr? {
        // `= { ... }()`: a closure, not accessors.
        if isPunctuation(current, UInt8(ascii: "{")) { return expression(depth: 0) }
        let start = position
        guard let value = expression(depth: 0, endsAtBrace: true) else { return nil }
        let next = lexeme(1)
        guard isPunctuation(current, UInt8(ascii: "{")), !current.atStartOfLine,
              !(next.kind == .identifier && Self.accessors.contains(text(next))) else { return value }
        position = start
        return expression(depth: 0)
    }

    private static let accessors: Set<String> = ["get", "set", "willSet", "didSet", "_read", "_modify", "unsafeAddress",
                                                    "unsafeMutableAddress", "init"]

    /// `func name(label name: Type = value) -> Type { statements }`.
    private func function(scope: [String], isStatic: Bool, attributes: [String]) -> Outcome {
        guard let declaration = functionDeclaration(scope: scope, isStatic: isStatic, attributes: attributes), atDeclarationEnd else {
            return .fragment
        }
        walker.declarations.append(declaration)
        return .read
    }

    /// At `func`: the function, up to its body's `}`; nil for a form it does not read.
    private func functionDeclaration(scope: [String], isStatic: Bool, attributes: [String]) -> MemberDeclaration? {
        position += 1
        let nameLexeme = current
        guard let name = identifier(nameLexeme) else { return nil }
        position += 1
        guard skipGenericParameters(), let parameters = parameterClause() else { return nil }
        // `async`, `throws`, `rethrows`: nothing the IR keeps.
        if isWord(current, "async") { position += 1 }
        if isWord(current, "throws") || isWord(current, "rethrows") {
            position += 1
            if isPunctuation(current, UInt8(ascii: "(")) { return nil }  // typed throws
        }
        var returnType: String?
        if current.kind == .operator, text(current) == "->" {
            position += 1
            guard let type = typeText() else { return nil }
            returnType = type
        }
        guard skipWhereClause(), isPunctuation(current, UInt8(ascii: "{")), let body = block() else { return nil }
        return MemberDeclaration(owner: scope, name: name, isStatic: isStatic, kind: .function(parameters: parameters, body: body),
                                 type: returnType, attributes: attributes, location: location(nameLexeme))
    }

    /// `#Preview("Name") { ... }`: read to check it, and dropped (the walker records nothing of a macro).
    private func preview() -> Outcome {
        position += 1
        var height = 0
        if isPunctuation(current, UInt8(ascii: "(")), current.start == lexeme(-1).end {
            position += 1
            guard argumentList(close: UInt8(ascii: ")"), depth: 0, height: &height) != nil else { return .fragment }
        }
        if isPunctuation(current, UInt8(ascii: "{")), !current.atStartOfLine {
            guard closure(height: &height) != nil else { return .fragment }
        }
        return atDeclarationEnd ? .read : .fragment
    }

    /// Past attributes written as a plain name (`@ViewBuilder`, `@State`), which the IR does not keep for parameters and
    /// locals; whether there were any. One with arguments or a qualified name is left where it is.
    @discardableResult
    private func skipPlainAttributes() -> Bool {
        var skipped = false
        while isPunctuation(current, UInt8(ascii: "@")), lexeme(1).start == current.end, identifier(lexeme(1)) != nil,
              !isPunctuation(lexeme(2), UInt8(ascii: "(")), !isPunctuation(lexeme(2), UInt8(ascii: ".")) {
            position += 2
            skipped = true
        }
        return skipped
    }

    /// `(label name: Type = value, ...)`; nil for any other form.
    private func parameterClause() -> [Parameter]? {
        guard isPunctuation(current, UInt8(ascii: "(")) else { return nil }
        position += 1
        var parameters: [Parameter] = []
        while !isPunctuation(current, UInt8(ascii: ")")) {
            // A label may be a keyword (`for theme: Theme`); `_` is no label. Attributes (`@ViewBuilder`) are not kept.
            skipPlainAttributes()
            let first = current
            guard first.kind == .identifier, bytes[first.start] != UInt8(ascii: "$") else { return nil }
            let label = text(first) == "_" ? nil : (identifier(first) ?? text(first))
            position += 1
            var parameterName = label
            if current.kind == .identifier {
                guard let second = identifier(current) else { return nil }
                parameterName = second
                position += 1
            } else if label == nil || identifier(first) == nil {
                return nil
            }
            guard isPunctuation(current, UInt8(ascii: ":")) else { return nil }
            position += 1
            guard let type = typeText() else { return nil }
            var defaultValue: Expr?
            if atAssignment {
                position += 1
                guard let value = expression(depth: 0) else { return nil }
                defaultValue = value
            }
            parameters.append(Parameter(label: label, name: parameterName ?? "_", type: type, defaultValue: defaultValue))
            guard separator(before: UInt8(ascii: ")")) else { return nil }
        }
        position += 1
        return parameters
    }

    /// `init(label name: Type) { statements }`, `init?(...)` (not throwing).
    private func initializer(scope: [String]) -> Outcome {
        let keyword = current
        position += 1
        if isPunctuation(current, UInt8(ascii: "?")) || isPunctuation(current, UInt8(ascii: "!")), current.start == keyword.end { position += 1 }
        guard let parameters = parameterClause(), isPunctuation(current, UInt8(ascii: "{")), let body = block(), atDeclarationEnd else {
            return .fragment
        }
        walker.declarations.append(MemberDeclaration(owner: scope, name: "init", isStatic: true, kind: .initializer(parameters: parameters, body: body),
                                                     type: scope.joined(separator: "."), location: location(keyword)))
        return .read
    }

    // MARK: Statements

    /// At `{`: the statements up to its `}`, and past it; nil for any statement `statement()` does not read.
    private func block() -> [Stmt]? {
        position += 1
        return statementsToBrace()
    }

    /// Statements, one per line, up to a `}`, and past it.
    private func statementsToBrace() -> [Stmt]? {
        var body: [Stmt] = []
        var first = true
        while !isPunctuation(current, UInt8(ascii: "}")) {
            guard first || current.atStartOfLine, let statement = statement() else { return nil }
            body.append(statement)
            first = false
        }
        position += 1
        return body
    }

    /// At `{`: a closure, `{ a, b in statements }`, `{ [weak self] item -> Color in statements }` or `{ statements }`
    /// (typed parameters are SwiftSyntax's). `height` counts its body's deepest expression, as the IR builder's depth limit
    /// does.
    private func closure(height: inout Int) -> Expr? {
        let open = current
        var parameters: [String] = []
        var index = position + 1
        var names: [String] = []
        var captures = false
        if isPunctuation(lexemes[index], UInt8(ascii: "[")) {
            // A capture list (`[weak self]`): nothing the IR keeps; `in` or parameters follow it.
            captures = true
            index += 1
            while true {
                if lexemes[index].kind == .identifier, ["weak", "unowned"].contains(text(lexemes[index])),
                   lexemes[index + 1].kind == .identifier { index += 1 }
                guard lexemes[index].kind == .identifier, text(lexemes[index]) == "self" || identifier(lexemes[index]) != nil else { return nil }
                index += 1
                guard isPunctuation(lexemes[index], UInt8(ascii: ",")) else { break }
                index += 1
            }
            guard isPunctuation(lexemes[index], UInt8(ascii: "]")) else { return nil }
            index += 1
            if isWord(lexemes[index], "in") { position = index }
        }
        while lexemes[index].kind == .identifier, let name = text(lexemes[index]) == "_" ? "_" : identifier(lexemes[index]) {
            names.append(name)
            index += 1
            if isPunctuation(lexemes[index], UInt8(ascii: ",")) { index += 1; continue }
            if lexemes[index].kind == .operator, text(lexemes[index]) == "->" {
                // `child -> AnyView? in`: the return type is not kept.
                let saved = position
                position = index + 1
                guard typeText() != nil, isWord(current, "in") else { position = saved; return nil }
                index = position
                position = saved
            }
            if lexemes[index].kind == .identifier, text(lexemes[index]) == "in" {
                parameters = names
                position = index  // at `in`
            }
            break
        }
        if captures, !isWord(current, "in") { return nil }  // a capture list is followed by `in`
        position += 1
        let outer = bodyHeight
        bodyHeight = 0
        defer { bodyHeight = outer }
        guard let body = statementsToBrace() else { return nil }
        height = bodyHeight + 1
        return Expr(.closure(parameters: parameters, body: body), at: location(open))
    }

    /// One statement of a body (`return`, `let`, `if`, `guard`, `switch`, a loop, an expression or assignment); nil for
    /// a form it does not read.
    private func statement() -> Stmt? {
        // `@State var show = false` in a preview: the attributes are not kept.
        let attributed = skipPlainAttributes()
        let start = current
        if attributed, !isWord(start, "let"), !isWord(start, "var") { return nil }
        guard start.kind == .identifier else { return expressionStatement() }
        switch text(start) {
        case "return":
            position += 1
            // `return` alone, or its value on the same line (one on the next line is read as its value too, with a warning).
            if isPunctuation(current, UInt8(ascii: "}")) || current.atStartOfLine && (isWord(current, "case") || isWord(current, "default")) {
                return Stmt(.return(nil), at: location(start))
            }
            guard !current.atStartOfLine, let value = expression(depth: 0) else { return nil }
            return Stmt(.return(value), at: location(start))
        case "let", "var":
            position += 1
            let nameLexeme = current
            if isPunctuation(nameLexeme, UInt8(ascii: "(")) {
                // `let (data, _) = value`: the names of a tuple pattern.
                guard let names = tupleNames(), atAssignment else { return nil }
                position += 1
                guard let value = initialValue(), !isPunctuation(current, UInt8(ascii: "{")) else { return nil }
                return Stmt(.binding(names: names, value: value), at: location(nameLexeme))
            }
            guard let name = identifier(nameLexeme) else { return nil }
            position += 1
            if isPunctuation(current, UInt8(ascii: ":")) {
                position += 1
                guard typeText() != nil else { return nil }
                // `let x: Color` assigned below.
                if current.atStartOfLine || isPunctuation(current, UInt8(ascii: "}")) {
                    return Stmt(.binding(names: [name], value: nil), at: location(nameLexeme))
                }
            }
            guard atAssignment else { return nil }
            position += 1
            guard let value = initialValue(), !isPunctuation(current, UInt8(ascii: "{")) else { return nil }
            return Stmt(.binding(names: [name], value: value), at: location(nameLexeme))
        case "if": return ifStatement()
        case "guard":
            position += 1
            guard let conditions = conditionList(), isWord(current, "else") else { return nil }
            position += 1
            guard isPunctuation(current, UInt8(ascii: "{")), let otherwise = block() else { return nil }
            return Stmt(.guard(conditions: conditions, else: otherwise), at: location(start))
        case "switch":
            position += 1
            guard let subject = expression(depth: 0, endsAtBrace: true), isPunctuation(current, UInt8(ascii: "{")) else { return nil }
            position += 1
            var cases: [SwitchCase] = []
            while !isPunctuation(current, UInt8(ascii: "}")) {
                guard current.atStartOfLine || isPunctuation(lexeme(-1), UInt8(ascii: "{")) else { return nil }
                var items: [(pattern: Pattern, guardExpression: Expr?)]? = []
                if isPunctuation(current, UInt8(ascii: "@")), isWord(lexeme(1), "unknown"), lexeme(1).start == current.end,
                   isWord(lexeme(2), "default") {
                    position += 2  // `@unknown default`: the default case
                }
                if isWord(current, "default") {
                    position += 1
                    items = nil
                } else {
                    guard isWord(current, "case") else { return nil }
                    repeat {
                        position += 1  // `case` or `,`
                        guard let pattern = casePattern(binding: false, nested: false) else { return nil }
                        var guardExpression: Expr?
                        if isWord(current, "where") {
                            position += 1
                            guard let condition = expression(depth: 0) else { return nil }
                            guardExpression = condition
                        }
                        items?.append((pattern, guardExpression))
                    } while isPunctuation(current, UInt8(ascii: ","))
                }
                guard isPunctuation(current, UInt8(ascii: ":")) else { return nil }
                position += 1
                var body: [Stmt] = []
                while !isPunctuation(current, UInt8(ascii: "}")), !isWord(current, "case"), !isWord(current, "default"),
                      !(isPunctuation(current, UInt8(ascii: "@")) && isWord(lexeme(1), "unknown")) {
                    guard current.atStartOfLine || body.isEmpty, let statement = statement() else { return nil }
                    body.append(statement)
                }
                guard !body.isEmpty else { return nil }  // an empty case is an error the whole-file parse reports
                if let items {
                    for item in items { cases.append(SwitchCase(patterns: [item.pattern], guardExpression: item.guardExpression, body: body)) }
                } else {
                    cases.append(SwitchCase(patterns: [], guardExpression: nil, body: body))
                }
            }
            position += 1
            return Stmt(.switch(subject: subject, cases: cases), at: location(start))
        case "for":
            // What the IR builder makes of a loop: an unsupported statement named by its text (read to check it).
            position += 1
            if isWord(current, "try"), isWord(lexeme(1), "await") { position += 1 }
            if isWord(current, "await") { position += 1 }
            if isPunctuation(current, UInt8(ascii: "(")) {
                guard tupleNames() != nil else { return nil }
            } else {
                guard isWord(current, "_") || identifier(current) != nil else { return nil }
                position += 1
            }
            guard isWord(current, "in") else { return nil }
            position += 1
            guard expression(depth: 0, endsAtBrace: true) != nil else { return nil }
            if isWord(current, "where") {
                position += 1
                guard expression(depth: 0, endsAtBrace: true) != nil else { return nil }
            }
            guard isPunctuation(current, UInt8(ascii: "{")), block() != nil else { return nil }
            return unsupportedStatement(from: start)
        case "func":
            // A local function: an unsupported statement named by its text (read to check it), as the builder makes it.
            guard functionDeclaration(scope: [], isStatic: false, attributes: []) != nil,
                  current.atStartOfLine || isPunctuation(current, UInt8(ascii: "}")) else { return nil }
            return unsupportedStatement(from: start)
        case "do":
            // `do { ... } catch { ... }`: an unsupported statement named by its text, as `for`.
            position += 1
            guard isPunctuation(current, UInt8(ascii: "{")), block() != nil else { return nil }
            while isWord(current, "catch") {
                position += 1
                if isWord(current, "let") {
                    guard identifier(lexeme(1)) != nil else { return nil }
                    position += 2
                }
                guard isPunctuation(current, UInt8(ascii: "{")), block() != nil else { return nil }
            }
            return unsupportedStatement(from: start)
        case "while":
            // A loop, as `for`.
            position += 1
            guard conditionList() != nil, isPunctuation(current, UInt8(ascii: "{")), block() != nil else { return nil }
            return unsupportedStatement(from: start)
        case "throw":
            position += 1
            guard !current.atStartOfLine, expression(depth: 0) != nil else { return nil }
            return unsupportedStatement(from: start)
        case "defer":
            position += 1
            guard isPunctuation(current, UInt8(ascii: "{")), block() != nil else { return nil }
            return unsupportedStatement(from: start)
        case "break", "continue", "fallthrough":
            position += 1
            guard current.atStartOfLine || isPunctuation(current, UInt8(ascii: "}")) else { return nil }
            return unsupportedStatement(from: start)
        default:
            if isReserved(start), projectedName(start) == nil,
               !["true", "false", "nil", "self", "super", "Self", "try", "await", "_"].contains(text(start)) { return nil }
            return expressionStatement()
        }
    }

    /// At `(`: `(a, _, b)`, the names of a tuple pattern (two or more), and past its `)`.
    private func tupleNames() -> [String]? {
        var names: [String] = []
        repeat {
            position += 1
            guard let name = isWord(current, "_") ? "_" : identifier(current) else { return nil }
            names.append(name)
            position += 1
        } while isPunctuation(current, UInt8(ascii: ","))
        guard names.count > 1, isPunctuation(current, UInt8(ascii: ")")) else { return nil }
        position += 1
        return names
    }

    /// What the IR builder makes of a statement it does not evaluate (a loop, `do`, `throw`, a local function), from
    /// `start` to the lexeme just read: an unsupported statement named by its text.
    private func unsupportedStatement(from start: Lexeme) -> Stmt? {
        snippet(from: start, to: lexeme(-1)).map { Stmt(.unsupported("cannot evaluate `\($0)`"), at: location(start)) }
    }

    /// A `case` pattern as the IR builder reads it: `.name`, `.name(patterns)`, `let` binding the names in what follows,
    /// `_`, tuples of patterns, names and literals (`nested`: inside a payload or tuple, where a name under `let` is bound);
    /// nil for other forms (`is`, ranges, expressions).
    private func casePattern(binding: Bool, nested: Bool) -> Pattern? {
        if isWord(current, "let") || isWord(current, "var") {
            guard !binding else { return nil }
            position += 1
            if let name = identifier(current) {
                position += 1
                return .binding(name)
            }
            return casePattern(binding: true, nested: nested)
        }
        if isWord(current, "_") {
            position += 1
            return .wildcard
        }
        if isPunctuation(current, UInt8(ascii: ".")) {
            guard let name = memberName(after: current) else { return nil }
            position += 2
            guard isPunctuation(current, UInt8(ascii: "(")), current.start == lexeme(-1).end else {
                return isPunctuation(current, UInt8(ascii: ".")) || isPunctuation(current, UInt8(ascii: "(")) ? nil : .enumCase(name, nil)
            }
            position += 1
            var payload: [Pattern] = []
            while !isPunctuation(current, UInt8(ascii: ")")) {
                // A label is dropped (`.rgb(red: let r, ...)`).
                if current.kind == .identifier, isPunctuation(lexeme(1), UInt8(ascii: ":")), identifier(current) != nil { position += 2 }
                guard let element = casePattern(binding: binding, nested: true) else { return nil }
                payload.append(element)
                guard separator(before: UInt8(ascii: ")")) else { return nil }
            }
            position += 1
            return .enumCase(name, payload)
        }
        if isPunctuation(current, UInt8(ascii: "(")) {
            // `(.circle, .small)`: a tuple of patterns.
            var elements: [Pattern] = []
            repeat {
                position += 1
                guard let element = casePattern(binding: binding, nested: true) else { return nil }
                elements.append(element)
            } while isPunctuation(current, UInt8(ascii: ","))
            guard elements.count > 1, isPunctuation(current, UInt8(ascii: ")")) else { return nil }
            position += 1
            return .tuple(elements)
        }
        let l = current
        if binding, nested, let name = identifier(l) {
            position += 1
            return .binding(name)
        }
        // A name or a literal alone: the value to compare with.
        guard l.kind == .identifier || l.kind == .number || l.kind == .float || l.kind == .string else { return nil }
        let after = lexeme(1)
        guard isPunctuation(after, UInt8(ascii: ",")) || isPunctuation(after, UInt8(ascii: ")")) || isPunctuation(after, UInt8(ascii: ":"))
                || isWord(after, "where"),
              let value = expression(depth: 0) else { return nil }
        return .value(value)
    }

    /// `if conditions { ... } else if ... { ... } else { ... }`.
    private func ifStatement() -> Stmt? {
        let start = current
        position += 1
        guard let conditions = conditionList(), isPunctuation(current, UInt8(ascii: "{")), let then = block() else { return nil }
        var otherwise: [Stmt]?
        if isWord(current, "else") {
            position += 1
            if isWord(current, "if") {
                guard let nested = ifStatement() else { return nil }
                otherwise = [nested]
            } else {
                guard isPunctuation(current, UInt8(ascii: "{")), let body = block() else { return nil }
                otherwise = body
            }
        }
        return Stmt(.if(conditions: conditions, then: then, else: otherwise), at: location(start))
    }

    /// `a == b, let x = y, let z, case .a = b, #available(...)` before an `if`, `guard` or `while` body.
    private func conditionList() -> [Condition]? {
        var conditions: [Condition] = []
        repeat {
            if !conditions.isEmpty { position += 1 }  // `,`
            if isWord(current, "let") || isWord(current, "var") {
                let binding = current
                position += 1
                // `let self` (unwrapping a weak capture) and `let _ = value` name what the builder's pattern names.
                let wildcard = isWord(current, "_")
                guard let name = isWord(current, "self") ? "self" : wildcard ? "_" : identifier(current) else { return nil }
                position += 1
                if wildcard, !atAssignment { return nil }
                if atAssignment {
                    position += 1
                    guard let value = expression(depth: 0, endsAtBrace: true) else { return nil }
                    conditions.append(.optionalBinding(name: name, value: value))
                } else {
                    // `if let x`: the value is the name itself, located where the binding starts.
                    conditions.append(.optionalBinding(name: name, value: Expr(.name(name), at: location(binding))))
                }
            } else {
                if isWord(current, "case") {
                    // `case .tableRow = block`
                    position += 1
                    guard let pattern = casePattern(binding: false, nested: false), atAssignment else { return nil }
                    position += 1
                    guard let value = expression(depth: 0, endsAtBrace: true) else { return nil }
                    conditions.append(.matches(pattern, value))
                    continue
                }
                if current.kind == .pound, text(current) == "#available" || text(current) == "#unavailable" {
                    // The builder takes an availability condition as true.
                    let at = location(current)
                    guard availability() else { return nil }
                    conditions.append(.expression(Expr(.bool(true), at: at)))
                    continue
                }
                guard let condition = expression(depth: 0, endsAtBrace: true) else { return nil }
                conditions.append(.expression(condition))
            }
        } while isPunctuation(current, UInt8(ascii: ","))
        return conditions
    }

    /// `#available(iOS 16.0, macOS 13, *)`, read to check it.
    private func availability() -> Bool {
        position += 1
        guard isPunctuation(current, UInt8(ascii: "(")), current.start == lexeme(-1).end else { return false }
        repeat {
            position += 1
            if current.kind == .operator, text(current) == "*" {
                position += 1
            } else {
                guard identifier(current) != nil, lexeme(1).kind == .number || lexeme(1).kind == .float else { return false }
                position += 2
            }
        } while isPunctuation(current, UInt8(ascii: ","))
        guard isPunctuation(current, UInt8(ascii: ")")) else { return false }
        position += 1
        return true
    }

    /// An expression, or an assignment to one (`self.light = light`, `total += 1`, `_ = value`).
    private func expressionStatement() -> Stmt? {
        let at = location(current)
        if isWord(current, "_"), lexeme(1).kind == .operator, text(lexeme(1)) == "=" {
            // `_ = value`: the builder names the discarded target by its text.
            let discard = current
            position += 1
            guard atAssignment, let target = unsupportedValue(from: discard, to: discard) else { return nil }
            position += 1
            guard let assigned = expression(depth: 0) else { return nil }
            return Stmt(.assign(target: target, operator: nil, value: assigned), at: at)
        }
        guard let value = expression(depth: 0) else { return nil }
        let op = current
        guard op.kind == .operator, Self.assignmentOperators.contains(text(op)),
              (lexeme(-1).end == op.start) == (lexeme(1).start == op.end) else { return Stmt(.expression(value), at: at) }
        position += 1
        guard let assigned = expression(depth: 0) else { return nil }
        let compound = text(op) == "=" ? nil : String(text(op).dropLast())
        return Stmt(.assign(target: value, operator: compound, value: assigned), at: at)
    }

    private static let assignmentOperators: Set<String> = ["=", "+=", "-=", "*=", "/=", "|=", "&="]

    /// `case a, b = "b"`: cases without payloads.
    private func enumCases(scope: [String]) -> Outcome {
        var cases: [MemberDeclaration] = []
        repeat {
            position += 1  // `case` or `,`
            let nameLexeme = current
            guard let name = identifier(nameLexeme) else { return .fragment }
            position += 1
            var rawValue: Expr?
            if atAssignment {
                position += 1
                guard let value = expression(depth: 0) else { return .fragment }
                rawValue = value
            }
            cases.append(MemberDeclaration(owner: scope, name: name, isStatic: true, kind: .enumCase(payload: [], rawValue: rawValue),
                                           type: scope.joined(separator: "."), location: location(nameLexeme)))
        } while isPunctuation(current, UInt8(ascii: ","))
        guard atDeclarationEnd else { return .fragment }
        walker.declarations += cases
        return .read
    }

    private func typeDeclaration(_ kind: TypeDeclaration.Kind, scope: [String], nested: inout Set<String>) -> Outcome {
        position += 1
        let nameLexeme = current
        guard let name = identifier(nameLexeme) else { return .fragment }
        position += 1
        guard skipGenericParameters(), let inheritance = inheritanceClause(), skipWhereClause(), isPunctuation(current, UInt8(ascii: "{"))
        else { return .fragment }
        position += 1
        // Made once for the type, its members' scope and its component (`scope + [name]` cost two arrays each time).
        var qualifiedName = scope
        qualifiedName.append(name)
        walker.types.append(TypeDeclaration(kind: kind, qualifiedName: qualifiedName, inheritance: inheritance, location: location(nameLexeme)))
        // The walker records a component before its members' components: its place is kept until its members are read.
        let componentIndex = walker.components.count
        var members: Set<String> = []
        nesting += 1
        defer { nesting -= 1 }
        guard items(scope: qualifiedName, nested: &members), isPunctuation(current, UInt8(ascii: "}")) else { return .unreadable }
        position += 1
        if !members.isDisjoint(with: DeclarationWalker.componentGroups) {
            walker.components.insert(ComponentDeclaration(qualifiedName: qualifiedName, location: location(nameLexeme)), at: componentIndex)
        }
        nested.insert(name)
        return atDeclarationEnd ? .read : .unreadable
    }

    private func extensionDeclaration() -> Outcome {
        position += 1
        let typeStart = current
        guard let path = typePath(), let inheritance = inheritanceClause(), skipWhereClause(), isPunctuation(current, UInt8(ascii: "{"))
        else { return .fragment }
        position += 1
        walker.types.append(TypeDeclaration(kind: .extension, qualifiedName: path, inheritance: inheritance, location: location(typeStart)))
        var members: Set<String> = []
        nesting += 1
        defer { nesting -= 1 }
        guard items(scope: path, nested: &members), isPunctuation(current, UInt8(ascii: "}")) else { return .unreadable }
        position += 1
        return atDeclarationEnd ? .read : .unreadable
    }

    /// `<Content: View, T>` after a type's name, which the IR does not keep; false for a clause it cannot skip with certainty.
    private func skipGenericParameters() -> Bool {
        guard current.kind == .operator, bytes[current.start] == UInt8(ascii: "<") else { return true }
        guard current.start == lexeme(-1).end else { return false }
        var depth = 0
        repeat {
            let l = current
            if l.kind == .operator {
                let run = bytes[l.start..<l.end]
                if run.elementsEqual([UInt8(ascii: "&")]) {  // `T: Hashable & Sendable`
                    position += 1
                    continue
                }
                // Otherwise only angle brackets (`>>` closes two); `->` or other operators are not a generic parameter list's.
                guard run.allSatisfy({ $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else { return false }
                for byte in run { depth += byte == UInt8(ascii: "<") ? 1 : -1 }
                if depth < 0 { return false }
            } else if l.kind != .identifier, !isPunctuation(l, UInt8(ascii: ":")), !isPunctuation(l, UInt8(ascii: ",")),
                      !isPunctuation(l, UInt8(ascii: ".")) {
                return false
            }
            position += 1
        } while depth > 0
        return true
    }

    /// `where T: Hashable` before a body, which the IR does not keep; false for one with brackets.
    private func skipWhereClause() -> Bool {
        guard isWord(current, "where") else { return true }
        while !isPunctuation(current, UInt8(ascii: "{")) {
            let l = current
            if l.kind == .end || isPunctuation(l, UInt8(ascii: "(")) || isPunctuation(l, UInt8(ascii: "[")) || isPunctuation(l, UInt8(ascii: "}")) { return false }
            position += 1
        }
        return true
    }

    /// `: A, B.C` (or nothing); nil for any other form.
    private func inheritanceClause() -> [String]? {
        guard isPunctuation(current, UInt8(ascii: ":")) else {
            return isPunctuation(current, UInt8(ascii: "{")) || isWord(current, "where") ? [] : nil
        }
        var inherited: [String] = []
        repeat {
            position += 1
            guard let path = typePath() else { return nil }
            inherited.append(path.joined(separator: "."))
        } while isPunctuation(current, UInt8(ascii: ","))
        return inherited
    }

    /// `A.B.C` written without spaces.
    private func typePath() -> [String]? {
        var path: [String] = []
        while true {
            guard let name = identifier(current) else { return nil }
            path.append(name)
            position += 1
            guard isPunctuation(current, UInt8(ascii: ".")), current.start == lexeme(-1).end, lexeme(1).start == current.end else { return path }
            position += 1
        }
    }

    /// A type as written (`Color`, `[String: Binding<Int>]`, `(red: Double, green: Double)`, `@escaping () -> Void`,
    /// `some View`, `A & B`, `Color?`), cut from the file as the walker cuts it; nil for other forms, or for a type that
    /// does not end where a lexeme ends (`Int?= 3`).
    private func typeText() -> String? {
        let start = current.start
        var scanner = TypeScanner(bytes: bytes, index: start)
        guard scanner.type(depth: 0) else { return nil }
        var index = position
        while lexemes[index].kind != .end, lexemes[index].end < scanner.end { index += 1 }
        guard lexemes[index].kind != .end, lexemes[index].end == scanner.end else { return nil }
        position = index + 1
        return String(decoding: bytes[start..<scanner.end], as: UTF8.self)
    }

    /// At `=` (with the same spacing on both sides: `a= b` is an error the whole-file parse reports).
    private var atAssignment: Bool {
        guard current.kind == .operator, current.end - current.start == 1, bytes[current.start] == UInt8(ascii: "=") else { return false }
        return (lexeme(-1).end == current.start) == (lexeme(1).start == current.end)
    }

    /// A declaration ends at the block's `}`, the file's end, or a line that starts another declaration.
    private var atDeclarationEnd: Bool {
        let l = current
        if l.kind == .end || isPunctuation(l, UInt8(ascii: "}")) { return true }
        guard l.atStartOfLine else { return false }
        if l.kind == .pound { return !isPostfixIfConfig(position) }
        return isPunctuation(l, UInt8(ascii: "@")) || isWord(l, in: Lexer.declarationStarts)
    }

    /// `#if` continuing the expression before it (its clause's first line starts with `.member`), as SwiftSyntax reads it.
    private func isPostfixIfConfig(_ index: Int) -> Bool {
        guard text(lexemes[index]) == "#if" else { return false }
        guard let next = lexemes[(index + 1)...].first(where: \.atStartOfLine) else { return false }
        return next.kind == .punctuation && bytes[next.start] == UInt8(ascii: ".")
    }

    /// A name as declared or used: an identifier that is not a keyword, written plainly.
    private func identifier(_ l: Lexeme) -> String? {
        guard l.kind == .identifier else { return nil }
        // The first byte from the file, not the string (`utf8.first` is a generic walk).
        if bytes[l.start] == UInt8(ascii: "`") { return String(text(l).dropFirst().dropLast()) }  // `` `default` ``
        guard !isReserved(l) else { return nil }
        return text(l)
    }

    // MARK: Expressions

    /// Names, `.implicitMember`, member accesses, calls with plain arguments, and literals; nil for anything else.
    /// `height`: levels of the tree returned. The IR builder makes a deeper tree than `SwiftIRBuilder.maxDepth` an
    /// unsupported node; such a chain is left to it.
    private func expression(depth: Int, endsAtBrace: Bool = false) -> Expr? {
        var height = 0
        let expr = expression(depth: depth, height: &height, endsAtBrace: endsAtBrace)
        bodyHeight = max(bodyHeight, height)
        return expr
    }

    /// Infix operators of the standard library's precedence groups, tightest first, as SwiftSyntax's folding ranks them.
    private static let infixOperators: [String: (precedence: Int, associativity: Associativity)] = [
        "<<": (8, .none), ">>": (8, .none),
        "*": (7, .left), "/": (7, .left), "%": (7, .left), "&": (7, .left),
        "+": (6, .left), "-": (6, .left), "|": (6, .left), "^": (6, .left),
        "..<": (5, .none), "...": (5, .none),
        // 4: casting (`as`), read apart: its right side is a type.
        "??": (3, .right),
        "==": (2, .none), "!=": (2, .none), "<": (2, .none), "<=": (2, .none), ">": (2, .none), ">=": (2, .none),
        "===": (2, .none), "!==": (2, .none),
        "&&": (1, .left),
        "||": (0, .left),
    ]
    private static let castingPrecedence = 4
    private enum Associativity { case left, right, none }

    /// An operator of the sequence read: a table entry, or `as` (casting, non-associative).
    private static func precedence(of op: String) -> (precedence: Int, associativity: Associativity) {
        op == "as" ? (castingPrecedence, .none) : infixOperators[op]!
    }

    /// An operator sequence, or `condition ? a : b` (`?` spaced on both sides: written against a value it is optional
    /// chaining). The ternary binds loosest, so its parts are read first, as SwiftSyntax's folding does. A node is
    /// located where its leftmost operand starts (not where that operand's value is: `(a)` is `a`, located at `(`).
    private func expression(depth: Int, height: inout Int, endsAtBrace: Bool) -> Expr? {
        // `try`, `try?`, `try!` and `await` cover the whole expression (the folding hoists them) and the IR reads
        // through them.
        while isWord(current, "try") || isWord(current, "await") {
            let keyword = current
            position += 1
            if text(keyword) == "try", isPunctuation(current, UInt8(ascii: "?")) || isPunctuation(current, UInt8(ascii: "!")),
               current.start == keyword.end {
                position += 1
            }
            guard !current.atStartOfLine, current.start != lexeme(-1).end else { return nil }
        }
        let start = location(current)
        guard let condition = operatorSequence(depth: depth, height: &height, endsAtBrace: endsAtBrace) else { return nil }
        let mark = current
        guard isPunctuation(mark, UInt8(ascii: "?")), lexeme(-1).end != mark.start, lexeme(1).start != mark.end else { return condition }
        position += 1
        var thenHeight = 0, elseHeight = 0
        guard let then = expression(depth: depth + 1, height: &thenHeight, endsAtBrace: false), isPunctuation(current, UInt8(ascii: ":")) else {
            return nil
        }
        position += 1
        guard let otherwise = expression(depth: depth + 1, height: &elseHeight, endsAtBrace: endsAtBrace) else { return nil }
        height = max(height, thenHeight, elseHeight) + 1
        return Expr(.ternary(condition, then, otherwise), at: start)
    }

    /// One operand of an operator sequence, with where it starts.
    private struct SequenceOperand {
        var expr: Expr
        var start: A11yEngine.SourceLocation
        var height: Int
    }

    /// Operands joined by infix operators (each spaced alike on both sides, as Swift reads it as binary) and `as` casts,
    /// folded by precedence; nil for an operator outside the table, `is`, or a chain the folding rejects (`a < b < c`).
    private func operatorSequence(depth: Int, height: inout Int, endsAtBrace: Bool) -> Expr? {
        var start = location(current)
        var operandHeight = 0
        guard let first = operand(depth: depth, height: &operandHeight, endsAtBrace: endsAtBrace) else { return nil }
        // Nearly every sequence is one operand: it is returned as it is, before its lists are made (kept aside as an
        // optional first, it was copied out of it and released, and the two empty lists released, at every expression).
        if !atCast, !atInfixOperator {
            height = operandHeight
            return first
        }
        var operands = [SequenceOperand(expr: first, start: start, height: operandHeight)]
        var operators: [String] = []
        while true {
            // `as`, `as?`, `as!` and a type: the IR reads through the cast.
            while atCast {
                position += 1
                if (isPunctuation(current, UInt8(ascii: "?")) || isPunctuation(current, UInt8(ascii: "!"))), current.start == lexeme(-1).end {
                    position += 1
                }
                guard lexeme(-1).end != current.start, typeText() != nil else { return nil }
                operators.append("as")
            }
            guard atInfixOperator else { break }
            operators.append(text(current))
            position += 1
            start = location(current)
            guard let value = operand(depth: depth, height: &operandHeight, endsAtBrace: endsAtBrace) else { return nil }
            operands.append(SequenceOperand(expr: value, start: start, height: operandHeight))
        }
        var next = 0, operandIndex = 0
        guard let folded = fold(operands, operators, minimum: 0, next: &next, operandIndex: &operandIndex),
              next == operators.count else { return nil }
        height = folded.height
        return folded.expr
    }

    /// At `as` continuing the line: a cast.
    private var atCast: Bool { isWord(current, "as") && !current.atStartOfLine }

    /// At an infix operator of the table, spaced alike on both sides.
    private var atInfixOperator: Bool {
        let op = current
        return op.kind == .operator && Self.infixOperators[text(op)] != nil && (lexeme(-1).end == op.start) == (lexeme(1).start == op.end)
    }

    /// Precedence climbing over the sequence read; `as` takes no operand of its own.
    private func fold(_ operands: [SequenceOperand], _ operators: [String], minimum: Int, next: inout Int,
                      operandIndex: inout Int) -> SequenceOperand? {
        var left = operands[operandIndex]
        operandIndex += 1
        while next < operators.count {
            let op = operators[next]
            let (precedence, associativity) = Self.precedence(of: op)
            guard precedence >= minimum else { break }
            next += 1
            if op == "as" {
                // A cast then a tighter operator (`a as B + c`), or two casts, are the folding's to judge.
                if next < operators.count, operators[next] == "as" || Self.precedence(of: operators[next]).precedence > precedence { return nil }
                left.height += 1
                continue
            }
            guard let right = fold(operands, operators, minimum: associativity == .right ? precedence : precedence + 1,
                                   next: &next, operandIndex: &operandIndex) else { return nil }
            if associativity == .none, next < operators.count, Self.precedence(of: operators[next]).precedence == precedence { return nil }
            left = SequenceOperand(expr: Expr(.binary(op, left.expr, right.expr), at: left.start), start: left.start,
                                   height: max(left.height, right.height) + 1)
        }
        return left
    }

    /// A prefix operator written against its operand (`!isEnabled`, `-offset`).
    private func isPrefixOperator(_ l: Lexeme) -> Bool {
        guard lexeme(1).start == l.end, !lexeme(1).atStartOfLine else { return false }
        if l.kind == .punctuation { return bytes[l.start] == UInt8(ascii: "!") }
        guard l.kind == .operator else { return false }
        let op = text(l)
        return op == "-" || op == "+" || op == "~"
    }

    /// `label: value, ...` up to the closing bracket `close`, and past it; nil for a trailing comma or another form.
    private func argumentList(close: UInt8, depth: Int, height: inout Int) -> [CallArgument]? {
        var arguments: [CallArgument] = []
        while !isPunctuation(current, close) {
            var label: String?
            if current.kind == .identifier, isPunctuation(lexeme(1), UInt8(ascii: ":")) {
                guard bytes[current.start] != UInt8(ascii: "$"), !isWord(current, "_") else { return nil }
                let word = text(current)
                // A keyword is a label here (`for:`); a backquoted name is its name.
                label = bytes[current.start] == UInt8(ascii: "`") ? String(word.dropFirst().dropLast()) : word
                position += 2
            }
            var argumentHeight = 0
            guard let value = expression(depth: depth + 1, height: &argumentHeight, endsAtBrace: false) else { return nil }
            if arguments.isEmpty { arguments.reserveCapacity(4) }  // grown from one, a call's list was reallocated at its second and third
            // Moved into the argument (passed as they were, each was copied, and the copy released after the call).
            arguments.append(CallArgument(label: consume label, value: consume value))
            height = max(height, argumentHeight)
            guard separator(before: close) else { return nil }
        }
        position += 1
        return arguments
    }

    /// Past the `,` between two elements of a list, or at its closing bracket `close`; false for a trailing comma (which
    /// the IR builder's Swift version may not accept) or anything else.
    private func separator(before close: UInt8) -> Bool {
        if isPunctuation(current, UInt8(ascii: ",")) {
            position += 1
            return !isPunctuation(current, close)
        }
        return isPunctuation(current, close)
    }

    /// At `[`: an array or dictionary literal, read to check it and skipped (the IR builder does not evaluate them).
    private func collectionLiteral(depth: Int) -> Bool {
        position += 1
        if isPunctuation(current, UInt8(ascii: ":")), isPunctuation(lexeme(1), UInt8(ascii: "]")) {
            position += 2
            return true
        }
        var isDictionary: Bool?
        while !isPunctuation(current, UInt8(ascii: "]")) {
            var height = 0
            guard expression(depth: depth + 1, height: &height, endsAtBrace: false) != nil else { return false }
            let hasValue = isPunctuation(current, UInt8(ascii: ":"))
            guard isDictionary == nil || isDictionary == hasValue else { return false }
            isDictionary = hasValue
            if hasValue {
                position += 1
                guard expression(depth: depth + 1, height: &height, endsAtBrace: false) != nil else { return false }
            }
            if isPunctuation(current, UInt8(ascii: ",")) {
                position += 1  // a trailing comma is allowed here
            } else if !isPunctuation(current, UInt8(ascii: "]")) {
                return false
            }
        }
        position += 1
        return true
    }

    /// At `\`: a key path of names (`\.self`, `\.element.id`, `\Theme.accent`), read to check it; false for others.
    private func keyPath() -> Bool {
        let backslash = current
        position += 1
        if current.kind == .identifier, current.start == backslash.end {
            guard identifier(current) != nil else { return false }
            position += 1
        }
        var components = 0
        while isPunctuation(current, UInt8(ascii: ".")), current.start == lexeme(-1).end {
            let name = lexeme(1)
            guard name.kind == .identifier || name.kind == .number, name.start == current.end, bytes[name.start] != UInt8(ascii: "$") else {
                return false
            }
            position += 2
            components += 1
        }
        let after = current
        if after.start == lexeme(-1).end, after.kind == .operator || isPunctuation(after, UInt8(ascii: "?"))
            || isPunctuation(after, UInt8(ascii: "!")) || isPunctuation(after, UInt8(ascii: "[")) || isPunctuation(after, UInt8(ascii: "(")) {
            return false
        }
        return components > 0
    }

    private func operand(depth: Int, height: inout Int, endsAtBrace: Bool) -> Expr? {
        guard depth < 64 else { return nil }
        height = 1
        let first = current
        let at = location(first)
        if first.kind == .operator, text(first) == "&", lexeme(1).start == first.end, !lexeme(1).atStartOfLine {
            // `&fraction`: an in-out argument the builder names by its text.
            position += 1
            var operandHeight = 0
            guard operand(depth: depth + 1, height: &operandHeight, endsAtBrace: endsAtBrace) != nil else { return nil }
            return unsupportedValue(from: first, to: lexeme(-1))
        }
        if isPrefixOperator(first) {
            // `!isEnabled`, `-offset`, `-4` (the builder folds a minus into the number it stands before).
            position += 1
            var operandHeight = 0
            guard let value = operand(depth: depth + 1, height: &operandHeight, endsAtBrace: endsAtBrace) else { return nil }
            height = operandHeight + 1
            let op = text(first)
            if op == "-", case .number(let n) = value.kind { return Expr(.number(-n), at: at) }
            return Expr(.prefix(op, value), at: at)
        }
        var expr: Expr
        switch first.kind {
        case .identifier:
            // The keywords tested on the lexeme's bytes: a string of it, then six string compares, came before the name's
            // own string at every name.
            if isWord(first, "true") || isWord(first, "false") { expr = Expr(.bool(isWord(first, "true")), at: at) }
            else if isWord(first, "nil") { expr = Expr(.nilLiteral, at: at) }
            else if isWord(first, "self") || isWord(first, "super") || isWord(first, "Self") { expr = Expr(.name(text(first)), at: at) }
            else if let name = identifier(first) ?? projectedName(first) { expr = Expr(.name(name), at: at) }
            else { return nil }
            position += 1
        case .number, .float:
            guard let value = bytes.withUnsafeBufferPointer({
                SwiftIRBuilder.numberLiteral(bytes: UnsafeBufferPointer(rebasing: $0[first.start..<first.end]), isFloat: first.kind == .float)
            }) else { return nil }
            expr = Expr(.number(value), at: at)
            position += 1
        case .string:
            expr = Expr(.string(text((first.start + 1)..<(first.end - 1))), at: at)
            position += 1
        case .interpolatedString:
            // What the IR builder makes of it: an unsupported value named by its text.
            guard let unsupported = unsupportedValue(from: first, to: first) else { return nil }
            expr = unsupported
            position += 1
        case .punctuation where bytes[first.start] == UInt8(ascii: "."):
            guard let name = memberName(after: first) else { return nil }
            expr = Expr(.implicitMember(name), at: at)
            position += 2
        case .punctuation where bytes[first.start] == UInt8(ascii: "{") && !endsAtBrace:
            guard let literal = closure(height: &height) else { return nil }
            expr = literal
        case .punctuation where bytes[first.start] == UInt8(ascii: "("):
            // `(a + b)` is its value; `(x: 1, y: 2)` and `()` are tuples.
            position += 1
            var elementsHeight = 0
            guard let elements = argumentList(close: UInt8(ascii: ")"), depth: depth, height: &elementsHeight) else { return nil }
            height = elementsHeight + 1
            expr = elements.count == 1 && elements[0].label == nil ? elements[0].value : Expr(.tuple(elements), at: at)
        case .punctuation where bytes[first.start] == UInt8(ascii: "["):
            // Array and dictionary literals, and key paths below, are values the IR builder names by their text.
            guard collectionLiteral(depth: depth), let unsupported = unsupportedValue(from: first, to: lexeme(-1)) else { return nil }
            expr = unsupported
        case .pound where !Self.poundWordsOfTheirOwn.contains(text(first)):
            // `#selector(dismiss)`, `#line`: a macro the IR builder names by its text (a trailing closure would be part of it).
            position += 1
            if isPunctuation(current, UInt8(ascii: "(")), current.start == first.end {
                position += 1
                var argumentsHeight = 0
                guard argumentList(close: UInt8(ascii: ")"), depth: depth, height: &argumentsHeight) != nil else { return nil }
            }
            guard !isPunctuation(current, UInt8(ascii: "{")), let unsupported = unsupportedValue(from: first, to: lexeme(-1)) else { return nil }
            expr = unsupported
        case .punctuation where bytes[first.start] == UInt8(ascii: "\\"):
            guard keyPath() else { return nil }
            return unsupportedValue(from: first, to: lexeme(-1))
        default:
            return nil
        }
        var lastWasCall = false
        while true {
            let l = current
            if isPunctuation(l, UInt8(ascii: ".")) {
                // A member access may start the next line (`Color.brand\n    .opacity(0.5)`); its name follows the dot.
                // `EditorCell.self` is a member access too.
                let selfMember = isWord(lexeme(1), "self") && lexeme(1).start == l.end ? "self" : nil
                guard let name = memberName(after: l) ?? selfMember else { return nil }
                expr = Expr(.member(expr, name), at: at)
                height += 1
                position += 2
                lastWasCall = false
            } else if l.kind == .operator, l.start == lexeme(-1).end, text(l) == "?." || text(l) == "!." {
                // `window?.rootViewController`, `url!.host`: the IR reads through optional chaining and force unwraps.
                guard let name = memberName(after: l) else { return nil }
                expr = Expr(.member(expr, name), at: at)
                height += 2
                position += 2
                lastWasCall = false
            } else if isPunctuation(l, UInt8(ascii: "?")) || isPunctuation(l, UInt8(ascii: "!")), l.start == lexeme(-1).end {
                // `onDismiss?()`, `URL(string: s)!`.
                height += 1
                position += 1
                lastWasCall = false
            } else if isPunctuation(l, UInt8(ascii: "(")), !l.atStartOfLine, let end = compoundNameEnd() {
                // `handleCheck(_:)`, `scroll(to:animated:)`: the builder names the function by its base name.
                position = end
                lastWasCall = false
            } else if isPunctuation(l, UInt8(ascii: "(")), !l.atStartOfLine {
                position += 1
                var calleeHeight = height
                guard let arguments = argumentList(close: UInt8(ascii: ")"), depth: depth, height: &calleeHeight) else { return nil }
                expr = Expr(.call(expr, arguments), at: at)
                height = calleeHeight + 1
                lastWasCall = true
            } else if isPunctuation(l, UInt8(ascii: "[")), !l.atStartOfLine {
                // `colors[index]`: a value the IR builder names by its text (a trailing closure would be part of it).
                position += 1
                var argumentsHeight = 0
                guard argumentList(close: UInt8(ascii: "]"), depth: depth, height: &argumentsHeight) != nil,
                      !(isPunctuation(current, UInt8(ascii: "{")) && !current.atStartOfLine && !endsAtBrace),
                      let unsupported = unsupportedValue(from: first, to: lexeme(-1)) else { return nil }
                expr = unsupported
                height = 1
                lastWasCall = false
            } else if isPunctuation(l, UInt8(ascii: "{")) && endsAtBrace {
                return height <= SwiftIRBuilder.maxDepth / 2 ? expr : nil
            } else if isPunctuation(l, UInt8(ascii: "{")), !l.atStartOfLine {
                // Trailing closures: the call just written takes them as its last arguments (`VStack(spacing: 4) { ... }`),
                // else they make a call of their own (`VStack { ... }`); more may follow, labelled (`} label: { ... }`).
                var arguments: [CallArgument] = []
                var callee = expr
                if lastWasCall, case .call(let called, let written) = expr.kind {
                    callee = called
                    arguments = written
                }
                var closureHeight = 0
                guard let first = closure(height: &closureHeight) else { return nil }
                arguments.append(CallArgument(label: nil, value: first))
                var calleeHeight = max(height, closureHeight)
                while current.kind == .identifier, !current.atStartOfLine, isPunctuation(lexeme(1), UInt8(ascii: ":")),
                      isPunctuation(lexeme(2), UInt8(ascii: "{")) {
                    let label = identifier(current) ?? text(current)
                    position += 2
                    guard let labelled = closure(height: &closureHeight) else { return nil }
                    arguments.append(CallArgument(label: label, value: labelled))
                    calleeHeight = max(calleeHeight, closureHeight)
                }
                expr = Expr(.call(callee, arguments), at: at)
                height = calleeHeight + 1
                lastWasCall = false
                if height > SwiftIRBuilder.maxDepth / 2 { return nil }
                continue
            } else if isPunctuation(l, UInt8(ascii: "{")) {
                return nil
            } else {
                return height <= SwiftIRBuilder.maxDepth / 2 ? expr : nil
            }
            if height > SwiftIRBuilder.maxDepth / 2 { return nil }
        }
    }

    /// Directives, conditions and literals the builder reads otherwise than as a macro.
    private static let poundWordsOfTheirOwn: Set<String> = ["#if", "#else", "#elseif", "#endif", "#available", "#unavailable",
                                                             "#colorLiteral", "#imageLiteral", "#fileLiteral", "#sourceLocation",
                                                             "#warning", "#error", "#Preview"]

    /// At `(` right after a name: past the `)` of argument labels alone (`(_:)`, `(to:animated:)`); nil for a call.
    private func compoundNameEnd() -> Int? {
        guard current.start == lexeme(-1).end, lexeme(-1).kind == .identifier else { return nil }
        var index = position + 1
        repeat {
            let label = lexemes[index], colon = lexemes[index + 1]
            guard label.kind == .identifier, colon.kind == .punctuation, bytes[colon.start] == UInt8(ascii: ":"), colon.start == label.end,
                  bytes[label.start] != UInt8(ascii: "$") else { return nil }
            index += 2
        } while lexemes[index].kind == .identifier
        guard isPunctuation(lexemes[index], UInt8(ascii: ")")) else { return nil }
        return index + 1
    }

    /// What the IR builder makes of a value it does not evaluate (`[.a, .b]`, `items[i]`, `\.self`, `#selector(f)`, an
    /// interpolated string), from `first` to `last`: an unsupported value named by its text, located at `first`.
    private func unsupportedValue(from first: Lexeme, to last: Lexeme) -> Expr? {
        snippet(from: first, to: last).map { Expr(.unsupported("cannot evaluate `\($0)`"), at: location(first)) }
    }

    /// `$text` (a property wrapper's projected value, or `$0`), which is a name in an expression.
    private func projectedName(_ l: Lexeme) -> String? {
        guard l.end - l.start > 1, bytes[l.start] == UInt8(ascii: "$") else { return nil }
        return text(l)
    }

    /// `SwiftIRBuilder.snippet` of the node from lexeme `first` to `last`: their text and the trivia after `last` on its
    /// line, as a `Snippet`. Nil when a block comment follows on the line (where trailing trivia ends is then
    /// SwiftSyntax's to say).
    private func snippet(from first: Lexeme, to last: Lexeme) -> String? {
        var end = last.end
        while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
        if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "/") {
            if bytes[end + 1] == UInt8(ascii: "*") { return nil }
            if bytes[end + 1] == UInt8(ascii: "/") { while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 } }
        }
        // Appended in pieces until it is full, as the builder stops at the token that fills it: a loop's text can be
        // thousands of lines, and nested loops would otherwise collapse it again at every level. A piece ends between two
        // ASCII bytes, so no character is cut in two (`\r`, the one ASCII pair that is one character, is not lexed).
        var snippet = SwiftIRBuilder.Snippet()
        var start = first.start
        while start < end, !snippet.isFull {
            var pieceEnd = min(end, start + 128)
            while pieceEnd < end, bytes[pieceEnd] >= 0x80 || bytes[pieceEnd - 1] >= 0x80 { pieceEnd += 1 }
            snippet.append(String(decoding: bytes[start..<pieceEnd], as: UTF8.self))
            start = pieceEnd
        }
        return snippet.value
    }

    /// The member name written right after a `.` (keywords are member names there: `.default`, `.init`).
    private func memberName(after dot: Lexeme) -> String? {
        let name = lexeme(1)
        guard name.kind == .identifier, name.start == dot.end, bytes[name.start] != UInt8(ascii: "$") else { return nil }
        if bytes[name.start] == UInt8(ascii: "`") { return String(text(name).dropFirst().dropLast()) }
        guard !isWord(name, "self"), !isWord(name, "Type"), !isWord(name, "Protocol") else { return nil }
        return text(name)
    }

    // MARK: Fragments

    /// At an opening bracket: past its closing one. False when they do not balance.
    private func skipBalanced() -> Bool {
        var depth = 0
        repeat {
            let l = current
            if l.kind == .end { return false }
            if l.kind == .punctuation {
                switch bytes[l.start] {
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
            position += 1
        } while depth > 0
        return depth == 0
    }

    /// Past the declaration at `position`, which SwiftSyntax is to read: it runs to the line that starts the next
    /// declaration at the same bracket depth, the block's `}`, or the end. False when the brackets do not balance.
    private func fragmentEnd() -> Bool {
        let start = position
        // Attributes and modifiers are part of the declaration they stand before, on their own lines or not.
        while true {
            if isPunctuation(current, UInt8(ascii: "@")) {
                position += 1
                while current.kind == .identifier || isPunctuation(current, UInt8(ascii: ".")) { position += 1 }
            } else if isWord(current, in: Lexer.modifiers) {
                position += 1
            } else {
                break
            }
            if isPunctuation(current, UInt8(ascii: "(")), current.start == lexeme(-1).end, !skipBalanced() { return false }
        }
        let keyword = position
        var depth = 0
        while true {
            let l = current
            if l.kind == .end { break }
            if depth == 0, position > keyword, isPunctuation(l, UInt8(ascii: "}")) || (l.atStartOfLine && atDeclarationEnd) { break }
            if l.kind == .punctuation {
                switch bytes[l.start] {
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth < 0 { return false }
                default: break
                }
            } else if l.kind == .pound {
                let word = text(l)
                if word == "#if" { depth += 1 } else if word == "#endif" { depth -= 1; if depth < 0 { return false } }
            }
            position += 1
        }
        return depth == 0 && position > start
    }

    /// A member is parsed inside a type body, as it is written (`case a(Int)` is not a top-level statement).
    private static let memberOpening = "enum Fragment {"

    /// The items of the text of `range` (lexeme indices) parsed by SwiftSyntax, positioned from the text's start plus
    /// `memberOpening` inside a type; nil when it has a syntax error.
    private func parse(_ range: Range<Int>, scope: [String]) -> [Syntax]? {
        let text = String(decoding: bytes[lexemes[range.lowerBound].start..<lexemes[range.upperBound - 1].end], as: UTF8.self)
        fragmentBytes += text.utf8.count
        let parsed = Parser.parse(source: scope.isEmpty ? text : Self.memberOpening + text + "\n}")
        guard !parsed.hasError else { return nil }
        if scope.isEmpty { return parsed.statements.map { Syntax($0.item) } }
        guard parsed.statements.count == 1, let body = parsed.statements.first?.item.as(EnumDeclSyntax.self) else { return nil }
        return body.memberBlock.members.map { Syntax($0.decl) }
    }

    /// The declarations in `range` (lexeme indices), parsed by SwiftSyntax.
    private func readFragment(_ range: Range<Int>, scope: [String], nested: inout Set<String>) -> Bool {
        guard let items = parse(range, scope: scope) else { return false }
        let startOffset = lexemes[range.lowerBound].start
        for item in items {
            if let name = item.declaredName { nested.insert(name.identifierText) }
        }
        let saved = walker.builder.positionOffset
        walker.builder.positionOffset = startOffset - (scope.isEmpty ? 0 : Self.memberOpening.utf8.count)
        walker.visit(items: items, scope: scope)
        walker.builder.positionOffset = saved
        return true
    }
}

/// One lexeme of a token file, with its byte range and 1-based line and UTF-8 column.
private struct Lexeme {
    enum Kind: UInt8 { case identifier, number, float, string, interpolatedString, otherString, punctuation, `operator`, pound, end }
    let kind: Kind
    /// A line break stands between this lexeme and the one before.
    let atStartOfLine: Bool
    // 32-bit offsets and positions: a file holds a lexeme per few bytes, and 20 bytes each instead of 48 halve the
    // memory a large token file's lexemes take (`Lexer` leaves files of 2 GB and more to the whole-file parse).
    private let start32: Int32, end32: Int32, line32: Int32, column32: Int32
    var start: Int { Int(start32) }
    var end: Int { Int(end32) }
    var line: Int { Int(line32) }
    var column: Int { Int(column32) }

    init(kind: Kind, start: Int, end: Int, line: Int, column: Int, atStartOfLine: Bool) {
        self.kind = kind
        self.atStartOfLine = atStartOfLine
        (start32, end32, line32, column32) = (Int32(start), Int32(end), Int32(line), Int32(column))
    }
}

/// Splits a file into lexemes; nil when it holds something only SwiftSyntax reads with certainty.
private struct Lexer {
    /// The file's bytes, read through a pointer: every byte is looked at once or twice, and an array's bounds check and
    /// retain at each look were an eighth of the lexer's instructions.
    let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var atStartOfLine = true

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    static let reserved = ByteWords([
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "async", "some", "any", "_",
    ])
    static func isReserved(_ word: String) -> Bool { reserved.contains(word) || word.utf8.first == UInt8(ascii: "$") }

    /// Words that start a declaration at the beginning of a line.
    static let declarationStarts = ByteWords(modifierWords.union([
        "let", "var", "func", "init", "deinit", "subscript", "struct", "enum", "actor", "protocol", "extension", "typealias",
        "associatedtype", "case", "import", "operator", "precedencegroup", "macro",
    ]))
    static let modifiers = ByteWords(modifierWords)

    /// Words that may stand before a declaration's keyword.
    static let modifierWords: Set<String> = [
        "static", "class", "public", "private", "fileprivate", "internal", "open", "package", "final", "lazy", "weak",
        "unowned", "override", "nonisolated", "dynamic", "required", "convenience", "mutating", "nonmutating", "indirect",
        "prefix", "postfix", "infix",
    ]

    static func isIdentifierStart(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
    }
    static func isIdentifierByte(_ b: UInt8) -> Bool { isIdentifierStart(b) || (b >= 0x30 && b <= 0x39) }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    /// `=-+*/%<>&|^~!?.` (a switch: a `Set<UInt8>` hashed every byte of every operator).
    static func isOperatorByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "%"),
             UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: "."): return true
        default: return false
        }
    }

    private func byte(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }

    mutating func lexemes() -> [Lexeme]? {
        // A byte-order mark or a `#!` line: the whole-file parse.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: Array("#!".utf8)) { return nil }
        guard bytes.count < Int(Int32.max) else { return nil }  // `Lexeme`'s 32-bit offsets
        var result: [Lexeme] = []
        result.reserveCapacity(bytes.count / 4)
        while true {
            guard skipTrivia() else { return nil }
            let start = index, startLine = line, column = start - lineStart + 1, startsLine = atStartOfLine
            guard index < bytes.count else {
                result.append(Lexeme(kind: .end, start: start, end: start, line: line, column: column, atStartOfLine: true))
                return result
            }
            guard let kind = lexeme() else { return nil }
            result.append(Lexeme(kind: kind, start: start, end: index, line: startLine, column: column, atStartOfLine: startsLine))
            atStartOfLine = false
        }
    }

    /// Spaces, line breaks and comments (block comments nest); false for bytes SwiftSyntax would have to judge.
    private mutating func skipTrivia() -> Bool {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
                atStartOfLine = true
            case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "/"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                    if bytes[index] == UInt8(ascii: "\r") { return false }
                    index += 1
                }
            case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "*"):
                var depth = 0
                repeat {
                    guard index < bytes.count else { return false }
                    if bytes[index] == UInt8(ascii: "/"), byte(1) == UInt8(ascii: "*") { depth += 1; index += 2 }
                    else if bytes[index] == UInt8(ascii: "*"), byte(1) == UInt8(ascii: "/") { depth -= 1; index += 2 }
                    else if bytes[index] == UInt8(ascii: "\n") { index += 1; line += 1; lineStart = index; atStartOfLine = true }
                    else if bytes[index] == UInt8(ascii: "\r") { return false }
                    else { index += 1 }
                } while depth > 0
            default:
                return true
            }
        }
        return true
    }

    private mutating func lexeme() -> Lexeme.Kind? {
        let b = bytes[index]
        if Self.isIdentifierStart(b) {
            while index < bytes.count {
                if Self.isIdentifierByte(bytes[index]) { index += 1; continue }
                guard bytes[index] >= 0x80, let length = letterLength() else { break }
                index += length
            }
            return .identifier
        }
        if Self.isDigit(b) { return number() }
        switch b {
        case UInt8(ascii: "`"):
            index += 1
            guard index < bytes.count, Self.isIdentifierStart(bytes[index]) else { return nil }
            while index < bytes.count, bytes[index] != UInt8(ascii: "`") {
                if Self.isIdentifierByte(bytes[index]) { index += 1; continue }
                guard bytes[index] >= 0x80, let length = letterLength() else { return nil }
                index += length
            }
            guard index < bytes.count else { return nil }
            index += 1
            return .identifier
        case UInt8(ascii: "\\"):  // key paths: only brackets matter in what the fast reader does not read
            index += 1
            return .punctuation
        case UInt8(ascii: "\""):
            return stringLiteral(hashes: 0)
        case UInt8(ascii: "#"):
            var hashes = 0
            while byte(hashes) == UInt8(ascii: "#") { hashes += 1 }
            if byte(hashes) == UInt8(ascii: "\"") {
                index += hashes
                return stringLiteral(hashes: hashes)
            }
            guard hashes == 1, Self.isIdentifierStart(byte(1)) else { return nil }  // regex literals
            index += 1
            while index < bytes.count, Self.isIdentifierByte(bytes[index]) { index += 1 }
            return .pound
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
             UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "@"):
            index += 1
            return .punctuation
        case UInt8(ascii: "."), UInt8(ascii: "?"), UInt8(ascii: "!"):
            // `.`, `?` and `!` alone are punctuation; in a run of operator bytes (`..<`, `??`, `!=`) an operator.
            if !Self.isOperatorByte(byte(1)) || (b == UInt8(ascii: ".") && byte(1) != UInt8(ascii: ".")) {
                index += 1
                return .punctuation
            }
            return operatorRun()
        default:
            return Self.isOperatorByte(b) ? operatorRun() : nil
        }
    }

    /// At the opening quote of a string literal (after its `hashes` `#`), to its end. A plain one-line string is `.string`
    /// (its text is the value); one with escapes or interpolation, a raw or a multiline string is `.otherString`.
    private mutating func stringLiteral(hashes: Int) -> Lexeme.Kind? {
        let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#")
        let multiline = byte(1) == quote && byte(2) == quote
        let delimiter = multiline ? 3 : 1
        index += delimiter
        var plain = hashes == 0 && !multiline
        var interpolated = false
        while index < bytes.count {
            let c = bytes[index]
            if c == quote, (0..<delimiter).allSatisfy({ byte($0) == quote }), (0..<hashes).allSatisfy({ byte(delimiter + $0) == hash }) {
                index += delimiter + hashes
                if plain { return .string }
                return interpolated && hashes == 0 && !multiline ? .interpolatedString : .otherString
            }
            if c == UInt8(ascii: "\\"), (0..<hashes).allSatisfy({ byte(1 + $0) == hash }) {
                // A plain string may hold escapes: its value is its text as written, as the builder reads a segment.
                if hashes > 0 || !isSimpleEscape(at: index + 1) { plain = false }
                index += 1 + hashes
                if byte(0) == UInt8(ascii: "(") {
                    interpolated = true
                    guard interpolation() else { return nil }
                } else if byte(0) != UInt8(ascii: "\n") {
                    index += 1
                }
                continue
            }
            if c == UInt8(ascii: "\n") {
                guard multiline else { return nil }
                index += 1
                line += 1
                lineStart = index
                continue
            }
            if c == UInt8(ascii: "\r") { return nil }
            index += 1
        }
        return nil
    }

    /// `n` of `\n`: an escape SwiftSyntax accepts (`\0 \\ \t \n \r \" \'`, `\u{1F600}`).
    private func isSimpleEscape(at k: Int) -> Bool {
        guard k < bytes.count else { return false }
        if Array(#"0\tnr"'"#.utf8).contains(bytes[k]) { return true }
        guard bytes[k] == UInt8(ascii: "u"), k + 1 < bytes.count, bytes[k + 1] == UInt8(ascii: "{") else { return false }
        var j = k + 2
        while j < bytes.count, (bytes[j] >= 0x30 && bytes[j] <= 0x39) || (bytes[j] | 0x20 >= 0x61 && bytes[j] | 0x20 <= 0x66) { j += 1 }
        return (1...8).contains(j - k - 2) && j < bytes.count && bytes[j] == UInt8(ascii: "}")
    }

    /// At the `(` of `\(...)` in a string: past its `)`, lexing what is inside (strings nest).
    private mutating func interpolation() -> Bool {
        let startsLine = atStartOfLine
        defer { atStartOfLine = startsLine }
        var depth = 0
        while true {
            guard skipTrivia(), index < bytes.count else { return false }
            let b = bytes[index]
            guard lexeme() != nil else { return false }
            if b == UInt8(ascii: "(") { depth += 1 } else if b == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 { return true }
            }
        }
    }

    /// The UTF-8 length of the letter, mark or digit at `index` (`primaryUi01Rosé`); nil for other characters, which may
    /// be operators.
    private func letterLength() -> Int? {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 0, index + length <= bytes.count else { return nil }
        var decoder = UTF8()
        var iterator = bytes[index..<(index + length)].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        let p = scalar.properties
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber: return length
        default: return p.isAlphabetic ? length : nil
        }
    }

    private mutating func operatorRun() -> Lexeme.Kind? {
        while index < bytes.count, Self.isOperatorByte(bytes[index]) {
            // A comment starting right after an operator (`=//`) is SwiftSyntax's to judge.
            if bytes[index] == UInt8(ascii: "/"), byte(1) == UInt8(ascii: "/") || byte(1) == UInt8(ascii: "*") { return nil }
            index += 1
        }
        return .operator
    }

    /// `12`, `1_000`, `0xFF`, `0b1010`, `0o17`, `0.5`, `1e-3`; nil for hexadecimal floats and digits run into letters.
    private mutating func number() -> Lexeme.Kind? {
        var isFloat = false
        if bytes[index] == UInt8(ascii: "0"), [UInt8(ascii: "x"), UInt8(ascii: "b"), UInt8(ascii: "o")].contains(byte(1)) {
            index += 2
            while index < bytes.count, Self.isIdentifierByte(bytes[index]) { index += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: "."), Self.isIdentifierByte(byte(1)) { return nil }
        } else {
            while index < bytes.count, Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_") { index += 1 }
            if byte(0) == UInt8(ascii: "."), Self.isDigit(byte(1)) {
                isFloat = true
                index += 1
                while index < bytes.count, Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_") { index += 1 }
            }
            if byte(0) == UInt8(ascii: "e") || byte(0) == UInt8(ascii: "E") {
                isFloat = true
                index += 1
                if byte(0) == UInt8(ascii: "+") || byte(0) == UInt8(ascii: "-") { index += 1 }
                guard Self.isDigit(byte(0)) else { return nil }
                while index < bytes.count, Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_") { index += 1 }
            }
            if index < bytes.count, Self.isIdentifierByte(bytes[index]) { return nil }
        }
        return isFloat ? .float : .number
    }
}


/// Reads a type's extent byte by byte (a lexeme such as `>?` or `?>` holds parts of two types' syntax).
private struct TypeScanner {
    let bytes: [UInt8]
    var index: Int
    /// Just past the last byte of the type read so far.
    var end = 0

    init(bytes: [UInt8], index: Int) {
        self.bytes = bytes
        self.index = index
    }

    private func byte(_ offset: Int = 0) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }

    /// Spaces and tabs, and line breaks when `lines`; how many.
    @discardableResult
    private mutating func skipSpace(lines: Bool) -> Int {
        let start = index
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") || (lines && bytes[index] == UInt8(ascii: "\n")) {
            index += 1
        }
        return index - start
    }

    /// A plain ASCII word at `index + offset`, not consumed.
    private func word(at offset: Int = 0) -> String? {
        guard Lexer.isIdentifierStart(byte(offset)), byte(offset) != UInt8(ascii: "$") else { return nil }
        var k = index + offset
        while k < bytes.count, Lexer.isIdentifierByte(bytes[k]) { k += 1 }
        if k < bytes.count, bytes[k] >= 0x80 || bytes[k] == UInt8(ascii: "`") { return nil }
        return String(decoding: bytes[(index + offset)..<k], as: UTF8.self)
    }

    private mutating func consume(_ word: String) {
        index += word.utf8.count
        end = index
    }

    /// A type name: not a keyword, except `Any` and `Self`.
    private func typeName() -> String? {
        guard let name = word(), name == "Any" || name == "Self" || !Lexer.isReserved(name) else { return nil }
        return name
    }

    mutating func type(depth: Int) -> Bool {
        guard depth < 32 else { return false }
        // `@escaping`, `@Sendable`, then `some` / `any` / `inout`, each followed by spaces on the same line.
        while byte() == UInt8(ascii: "@") {
            index += 1
            guard let name = word() else { return false }
            consume(name)
            guard skipSpace(lines: false) > 0 else { return false }
        }
        if let specifier = word(), ["some", "any", "inout"].contains(specifier) {
            consume(specifier)
            guard skipSpace(lines: false) > 0 else { return false }
        }
        var isParenthesized = false
        guard primary(depth: depth, isParenthesized: &isParenthesized) else { return false }
        if isParenthesized {
            // `() async throws -> Void`: a function type.
            let mark = (index, end)
            skipSpace(lines: false)
            var effects = false
            for effect in ["async", "throws"] where word() == effect {
                index += effect.utf8.count
                skipSpace(lines: false)
                effects = true
            }
            if byte() == UInt8(ascii: "-"), byte(1) == UInt8(ascii: ">"), byte(2) == UInt8(ascii: " ") {
                index += 3
                skipSpace(lines: false)
                return type(depth: depth + 1)
            }
            if effects { return false }
            (index, end) = mark
        }
        // `A & B`.
        while true {
            let mark = (index, end)
            guard skipSpace(lines: false) > 0, byte() == UInt8(ascii: "&"), byte(1) == UInt8(ascii: " ") else {
                (index, end) = mark
                return true
            }
            index += 1
            skipSpace(lines: false)
            var parenthesized = false
            guard primary(depth: depth, isParenthesized: &parenthesized), !parenthesized else { return false }
        }
    }

    /// A named, array, dictionary or parenthesised type, with postfix `?`, `!` and `.Type`.
    private mutating func primary(depth: Int, isParenthesized: inout Bool) -> Bool {
        switch byte() {
        case UInt8(ascii: "("):
            isParenthesized = true
            index += 1
            skipSpace(lines: true)
            if byte() == UInt8(ascii: ")") {
                index += 1
                end = index
                break
            }
            while true {
                // `label: Type` or `_ name: Type`.
                let mark = index
                if let first = word() {
                    index += first.utf8.count
                    skipSpace(lines: false)
                    if let second = word(), first == "_" || !Lexer.isReserved(first) {
                        index += second.utf8.count
                        skipSpace(lines: false)
                    }
                    if byte() == UInt8(ascii: ":"), byte(1) == UInt8(ascii: " ") {
                        index += 1
                        skipSpace(lines: false)
                    } else {
                        index = mark
                    }
                }
                guard type(depth: depth + 1) else { return false }
                skipSpace(lines: true)
                if byte() == UInt8(ascii: ")") { break }
                guard byte() == UInt8(ascii: ","), byte(1) == UInt8(ascii: " ") || byte(1) == UInt8(ascii: "\n") else { return false }
                index += 1
                skipSpace(lines: true)
            }
            index += 1
            end = index
        case UInt8(ascii: "["):
            index += 1
            skipSpace(lines: true)
            guard type(depth: depth + 1) else { return false }
            skipSpace(lines: true)
            if byte() == UInt8(ascii: ":") {
                index += 1
                guard skipSpace(lines: true) > 0, type(depth: depth + 1) else { return false }
                skipSpace(lines: true)
            }
            guard byte() == UInt8(ascii: "]") else { return false }
            index += 1
            end = index
        default:
            while true {
                guard let name = typeName() else { return false }
                consume(name)
                if byte() == UInt8(ascii: "<") {
                    // Generic arguments: `Binding<Int>`, `Array<Array<Int>>`.
                    index += 1
                    while true {
                        skipSpace(lines: true)
                        guard type(depth: depth + 1) else { return false }
                        skipSpace(lines: true)
                        guard byte() == UInt8(ascii: ",") else { break }
                        index += 1
                    }
                    guard byte() == UInt8(ascii: ">") else { return false }
                    index += 1
                    end = index
                }
                guard byte() == UInt8(ascii: "."), Lexer.isIdentifierStart(byte(1)) else { break }
                index += 1
            }
        }
        // `Color?`, `String!`, `Theme.Type` (a parenthesised type with a suffix does not take an arrow).
        while true {
            if byte() == UInt8(ascii: "?") || byte() == UInt8(ascii: "!") {
                index += 1
                end = index
                isParenthesized = false
            } else if byte() == UInt8(ascii: "."), let name = word(at: 1), name == "Type" || name == "Protocol" {
                index += 1
                consume(name)
                isParenthesized = false
            } else {
                index = end
                return true
            }
        }
    }
}

/// A set of ASCII words looked up by a lexeme's bytes: keywords are tested at nearly every lexeme, and making a `String`
/// of each and hashing it cost ~400 instructions a test (a tenth of reading a large token file). A word is found by its
/// length and first and last bytes, then compared.
struct ByteWords: Sendable {
    private var buckets = [[[UInt8]]](repeating: [], count: 256)

    init(_ words: some Sequence<String>) {
        for word in words {
            let bytes = Array(word.utf8)
            precondition(!bytes.isEmpty && bytes.allSatisfy { $0 < 0x80 }, "keywords are ASCII")
            buckets[Self.bucket(count: bytes.count, first: bytes[0], last: bytes[bytes.count - 1])].append(bytes)
        }
    }

    private static func bucket(count: Int, first: UInt8, last: UInt8) -> Int { (count &* 31 &+ Int(first) &* 7 &+ Int(last)) & 255 }

    func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        return buckets[Self.bucket(count: bytes.count, first: first, last: last)].contains { $0.elementsEqual(bytes) }
    }

    /// (Byte equality is `String` equality here: no keyword has another spelling that is canonically equivalent.)
    func contains(_ word: String) -> Bool {
        var word = word
        return word.withUTF8 { contains($0) }
    }
}
