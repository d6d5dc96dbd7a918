import Dispatch
import Foundation

/// A token as the audit sees it: a name, where it is declared, its kind, its value, and (for explanations and
/// hygiene) the expression that defines it.
///
/// A class of constants, not a struct: rules, pairing sources and components read tokens out of the graph on both
/// cores, and copying a struct of five references retained (atomically) each of them, shared between the workers.
public final class Token: Hashable, Sendable {
    /// Enclosing type names followed by the token's name: `["Color", "appTextPrimary"]`,
    /// `["NativePickerStyling", "Colors", "label"]`, `["Theme", "color", "textPrimary"]` (a token function's case),
    /// `["Tones", "primary", "fill"]` (a field of a struct-valued token).
    public let qualifiedName: [String]
    public let declaredKind: TokenKind?
    public let location: SourceLocation
    /// The defining expression, when the token is one declaration with one expression (nil for expanded tokens).
    public let expression: Expr?
    /// The type scope the expression is written in.
    public let scope: [String]
    /// The value the interpreter gave it. Kept here, not in a table of values by key beside the tokens' (two tables of
    /// the same keys: each token's key hashed into both, and its row's value looked up again). Not part of `==`.
    let value: Value

    public init(qualifiedName: [String], declaredKind: TokenKind?, location: SourceLocation, expression: Expr?, scope: [String],
                value: Value) {
        self.qualifiedName = qualifiedName
        self.declaredKind = declaredKind
        self.location = location
        self.expression = expression
        self.scope = scope
        self.value = value
    }

    public static func == (a: Token, b: Token) -> Bool {
        a === b || (a.qualifiedName == b.qualifiedName && a.declaredKind == b.declaredKind && a.location == b.location
                    && a.expression == b.expression && a.scope == b.scope)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(qualifiedName)
        hasher.combine(declaredKind)
        hasher.combine(location)
        hasher.combine(expression)
        hasher.combine(scope)
    }

    public var name: String { qualifiedName.last ?? "" }

    /// The token this one names directly (`static let link = Color.appTextPrimary`), as written.
    public var alias: TokenReference? {
        guard let expression else { return nil }
        switch expression.kind {
        case .implicitMember(let name):
            return TokenReference(path: [name], isImplicitMember: true, expectedKind: declaredKind, scope: scope, location: expression.location)
        case .name, .member:
            guard let path = expression.path else { return nil }
            return TokenReference(path: path, isImplicitMember: false, expectedKind: declaredKind, scope: scope, location: expression.location)
        default:
            return nil
        }
    }
}

/// Every token of a design system, across files and formats, evaluated by the interpreter. Which declarations are
/// tokens is decided here: static members and top-level values of token kinds (colors, numbers, fonts), members of
/// component groups, the cases of token functions (`color(for: .text)`) and of enum token properties, and the fields
/// of struct-valued tokens. Anything else (services, view models, `Package.swift`) is evaluated only when a token
/// uses it, and reports nothing of its own.
public final class TokenGraph {
    public struct EvaluationError: Error, Hashable, Sendable {
        public var rule: String
        public var message: String
        public var location: SourceLocation?
    }

    public private(set) var tokens: NameMap<Token> = [:]
    /// Struct-valued tokens (`Tones.primary`, `AppButtonVariant.primary.colorSpec`) and the keys of their field tokens:
    /// an instance's own fields are drawn together (text on fill), so they pair like a component's.
    public private(set) var structInstances: [String: [String]] = [:]
    /// The table: every token by its row, its place in `sortedKeys`, with its definition, value and name's words (the
    /// same as `tokens` and `nameInfo(_:)` give by key). Rules and pairing sources that walk every token read
    /// rows: no key hashed, no name compared, and nothing touched that they do not read.
    private var rowOfKey: NameMap<Int> = [:]
    private var rowTokens: [Token] = []
    private var rowValues: [Value] = []
    /// Names' words and roles, at `rowInfoIndex[row]` (they are made in the token map's order, not the rows').
    private var rowInfos: [NameInfo] = []
    private var rowInfoIndex: [Int] = []
    /// The rows by their keys' hashes, made with the rows: `resolve`'s candidates are found from their bytes, and most,
    /// naming no token, are never made strings.
    private var rowOfKeyHash = NameRowTable()
    /// Findings about the graph itself (duplicate definitions); evaluation findings come from `findings()`.
    private var graphFindings: [Finding] = []
    public let interpreter: Interpreter
    /// What the graph was evaluated from; the daemon's next audit starts from it (`Program(sources:configuration:previous:)`).
    public let program: Program
    /// The theme families this graph was evaluated with (empty: the design system has no themes).
    public let themeFamilies: [ThemeFamily]
    /// Palettes (a palette struct or protocol) and the keys of their tokens, in declaration order: drawn together,
    /// they pair by their property names.
    public private(set) var palettes: [String: [String]] = [:]
    /// Tokens a theme family defines (palette properties, theme switch functions, palette requirements): each is one
    /// declared token, though no single expression defines it.
    public private(set) var themedTokens: Set<String> = []
    /// Declarations a theme family turns into themed tokens (`ReaderPalette.sepia`, `DefaultPalette.primaryText`,
    /// `primaryText(for:)`): not tokens of their own.
    private var familyDeclarations = NameSet()

    /// Color namespaces are interchangeable for lookup: a project may declare `UIColor.x` and use `Color.x`.
    static let namespaces = Interpreter.namespaces
    static let componentGroups: NameMap<TokenKind> = ["Colors": .color, "Layout": .number, "Typography": .font]

    /// What a graph is evaluated from: the sources' declarations plus the data files' tokens as declarations, in an
    /// interpreter. Theme discovery runs on one before any graph is built.
    public struct Program {
        public let interpreter: Interpreter
        let sources: [ParsedSource]
        let dataTokens: [String: TokenDefinition]
        let dataOrder: [String]
        let findings: [Finding]
        /// What the interpreter was built from (worker interpreters are built from the same): the sources'
        /// declarations first (`sourceDeclarationCount` of them), then the data files' tokens as declarations.
        let declarations: [MemberDeclaration]
        let sourceDeclarationCount: Int
        let types: [TypeDeclaration]

        /// `previous`: the program of the last audit (the daemon's). When only static members changed in place
        /// (`changedInPlace`), those whose declarations, and everything they read, are unchanged keep the values it
        /// computed.
        public init(sources: [ParsedSource], configuration: Interpreter.Configuration = Interpreter.Configuration(),
                    previous: Program? = nil) {
            let ordered = sources.sorted { $0.file < $1.file }
            // Data tokens (per-mode files define the same token for different appearances: merged).
            var dataTokens: [String: TokenDefinition] = [:]
            var dataOrder: [String] = []
            var findings: [Finding] = []
            for token in ordered.flatMap(\.tokens) {
                let key = token.qualifiedName.joinedWithDots()
                guard let existing = dataTokens[key] else {
                    dataTokens[key] = token
                    dataOrder.append(key)
                    continue
                }
                if case .adaptive(let a) = existing.expression, case .adaptive(let b) = token.expression, Set(a.keys).isDisjoint(with: b.keys) {
                    dataTokens[key]?.expression = .adaptive(a.merging(b) { first, _ in first })
                    continue
                }
                findings.append(Finding(
                    rule: "reference", severity: .warning, subject: key,
                    message: "\(key) is defined twice; the definition at \(existing.location) is used",
                    location: token.location, relatedLocations: [existing.location]))
            }
            var declarations = ordered.flatMap(\.declarations)
            sourceDeclarationCount = declarations.count
            var types = ordered.flatMap(\.types)
            var namespaces: Set<[String]> = []
            for key in dataOrder {
                guard let token = dataTokens[key] else { continue }
                let owner = Array(token.qualifiedName.dropLast())
                declarations.append(MemberDeclaration(
                    owner: owner, name: token.name, isStatic: true, kind: .stored(initial: token.expression.lowered(at: token.location)),
                    type: nil, location: token.location))
                // Token groups are namespaces, so `{color.brand.primary}` resolves as member access.
                for depth in 1...max(1, owner.count) where depth <= owner.count { namespaces.insert(Array(owner.prefix(depth))) }
            }
            types += namespaces.sorted { $0.joinedWithDots() < $1.joinedWithDots() }.map {
                TypeDeclaration(kind: .enum, qualifiedName: $0, inheritance: [], location: SourceLocation(file: "", line: 0, column: 0))
            }
            // The usual save changes a few static members in place: the last interpreter's indexes are updated.
            let inPlace = previous.flatMap { previous in
                Self.changedInPlace(declarations, types: types, files: ordered.map(\.file), previous: previous).flatMap { changed in
                    configuration == previous.interpreter.configuration
                        ? Interpreter(updating: previous.interpreter, replacing: changed).map { ($0, changed) } : nil
                }
            }
            interpreter = inPlace?.0 ?? Interpreter(declarations: declarations, types: types, configuration: configuration)
            self.declarations = declarations
            self.types = types
            self.sources = ordered
            self.dataTokens = dataTokens
            self.dataOrder = dataOrder
            self.findings = findings
            if let previous, let changed = inPlace?.1 {
                let keys = Set(changed.map { $0.now.key })
                interpreter.reuse(previous.interpreter, invalidating: keys)
                changedSincePrevious = keys
            }
        }

        /// The same program under another configuration (a theme bound): everything read from the sources is shared, the
        /// interpreter shares `base`'s indexes and evaluates afresh.
        public init(_ base: Program, configuration: Interpreter.Configuration) {
            interpreter = Interpreter(indexesOf: base.interpreter, configuration: configuration)
            interpreter.sharesEvaluators(with: base.interpreter)
            sources = base.sources
            dataTokens = base.dataTokens
            dataOrder = base.dataOrder
            findings = base.findings
            declarations = base.declarations
            sourceDeclarationCount = base.sourceDeclarationCount
            types = base.types
        }

        /// The static members whose declarations changed in place (the same declarations in the same order, but for
        /// some static members' values), as (before, now); nil when anything else differs (a declaration added, removed
        /// or moved, a type or function changed: the program then starts afresh).
        static func changedInPlace(_ declarations: [MemberDeclaration], types: [TypeDeclaration], files: [String],
                                   previous: Program) -> [(before: MemberDeclaration, now: MemberDeclaration)]? {
            guard files == previous.sources.map(\.file), declarations.count == previous.declarations.count, types == previous.types else { return nil }
            var changed: [(before: MemberDeclaration, now: MemberDeclaration)] = []
            for (now, before) in zip(declarations, previous.declarations) where now != before {
                guard now.owner == before.owner, now.name == before.name, previous.isStaticValue(now), previous.isStaticValue(before) else { return nil }
                changed.append((before, now))
            }
            return changed
        }

        /// The static members whose declarations changed since the program this one started from; nil when it started
        /// afresh (no previous program, or the structure changed).
        private(set) var changedSincePrevious: Set<String>?

        /// Static members (stored and computed, outside protocols) are the values an edit usually touches; everything
        /// else (types, functions, initialisers, instance members, enum cases) is structure that any value may read
        /// without the interpreter recording it.
        func isStaticValue(_ d: MemberDeclaration) -> Bool {
            isStaticValue(d, ownerIsProtocol: { interpreter.typeKind($0) == .protocol })
        }

        /// The indexes of the declarations that are static values (`isStaticValue`), in order. A large program's are found
        /// in parts on all cores: the first pass over every declaration after they were read, one cache miss per
        /// declaration on one core (and the indexes, not the declarations, so that no core retains each one again).
        var staticValueIndices: [Int] {
            let parts = interpreter.configuration.workers > 1 && declarations.count >= Interpreter.declarationsIndexedInParts
                ? interpreter.configuration.workers : 1
            let shared = ReadOnly(value: self)
            return concurrentParts(count: declarations.count, workers: parts) { shared.value.staticValueIndices(in: $0) }
        }

        /// `isStaticValue` of each declaration in `range`, the owner's kind looked up once per run of declarations of one
        /// owner (a token file's thousands of members of `Color` asked it one by one).
        private func staticValueIndices(in range: Range<Int>) -> [Int] {
            var last: (owner: String, isProtocol: Bool)?
            return range.filter { i in
                isStaticValue(declarations[i], ownerIsProtocol: { owner in
                    if let last, last.owner == owner { return last.isProtocol }
                    let isProtocol = interpreter.typeKind(owner) == .protocol
                    last = (owner, isProtocol)
                    return isProtocol
                })
            }
        }

        private func isStaticValue(_ d: MemberDeclaration, ownerIsProtocol: (String) -> Bool) -> Bool {
            guard d.isStatic || d.owner.isEmpty else { return false }
            switch d.kind {
            case .stored, .computed: return !ownerIsProtocol(d.ownerKey)
            default: return false
            }
        }

    }

    public convenience init(sources: [ParsedSource], configuration: Interpreter.Configuration = Interpreter.Configuration(),
                            themeFamilies: [ThemeFamily] = []) {
        self.init(program: Program(sources: sources, configuration: configuration), themeFamilies: themeFamilies)
    }

    /// `themeFamilies` (found by `ThemeDiscovery`) make one token per palette property, theme switch function or palette
    /// requirement, valued in the theme the interpreter's `configuration.theme` selects.
    /// Below this many static members, evaluating them one by one is faster than starting workers.
    static let prefetchThreshold = 1_000

    /// Workers for a pass over every token (keys and names, components): all cores on a large graph, one below
    /// `prefetchThreshold`.
    var workersForEveryToken: Int { tokens.count >= Self.prefetchThreshold ? interpreter.configuration.workers : 1 }

    /// `themeOnly`: `themeOnlyDeclarations(program, families: themeFamilies)`, when the caller found it once for the
    /// graphs of several themes.
    public init(program: Program, themeFamilies: [ThemeFamily] = [], themeOnly known: [Bool]? = nil) {
        self.program = program
        self.themeFamilies = themeFamilies
        themeOnly = known ?? Self.themeOnlyDeclarations(program, families: themeFamilies)
        interpreter = program.interpreter
        graphFindings = program.findings
        // The static members read below, evaluated on all cores first (a large token file is thousands of them).
        let staticValues = program.staticValueIndices
        interpreter.prefetchStaticValues(program.declarations, at: staticValues,
                                         workers: staticValues.count >= Self.prefetchThreshold ? interpreter.configuration.workers : 1)
        // Most static members are tokens: sized for them at once rather than rehashed at every doubling.
        tokens.reserveCapacity(staticValues.count + program.dataOrder.count)
        for key in program.dataOrder {
            guard let token = program.dataTokens[key] else { continue }
            add(Token(qualifiedName: token.qualifiedName, declaredKind: token.declaredKind, location: token.location,
                      expression: token.expression.lowered(at: token.location), scope: [],
                      value: interpreter.staticValue(owner: Array(token.qualifiedName.dropLast()), name: token.name)))
        }
        for family in themeFamilies { addThemedTokens(family) }
        (adding, firstKey) = (DeclarationTokens(), nil)  // (the data files' and themes' tokens are no declaration's)
        declarationTokens.reserveCapacity(program.sourceDeclarationCount)
        let sources = program.declarations[..<program.sourceDeclarationCount]
        var prepared = preparedColorTokens(sources)
        for index in sources.indices {
            // (Declarations the theme families make no token of.)
            if !familyDeclarations.isEmpty && familyDeclarations.contains(sources[index].key) || !themeOnly.isEmpty && themeOnly[index] {
                declarationTokens.append(DeclarationTokens())
                continue
            }
            // Taken out (moved, not copied: a copy retained each of its references here, on the one thread).
            if let ready = prepared?[index].take() {
                // What `readTokens` does for it: the one read its value made, then the token, by its key as the worker
                // hashed it.
                var tokens = ready.tokens
                interpreter.noteStaticRead(ready.key)
                if !insert(ready.token, key: ready.key) { tokens.keys = [] }
                declarationTokens.append(tokens)
                continue
            }
            declarationTokens.append(readTokens(of: sources[index], index: index))
        }
        // From here on the graph is only read, so rules can read it concurrently: the lookups they make are computed now.
        // Meanwhile a worker lets the prepared tokens go (thousands of references to what the table now holds, released
        // one by one: a serial step here).
        let remains = ConcurrentResults<[PreparedToken?]>(count: 1)
        if let all = prepared.take() { remains.set(0, all) }
        sortKeysAndFillRows(alongside: { _ = remains.takeValues() })
        interpreter.returnEvaluator()
    }

    /// The keys in order and the table's rows, with every token's words and role for the rules and pairing sources
    /// that ask for them. Splitting names and finding their roles is a tenth of a large graph's build, sorting its keys a
    /// twentieth: on a large graph the sort and eight parts of the names are tasks for the workers, not one after the
    /// other (with two halves, one worker sorted while the other did both, and the sort waited on the second half).
    private func sortKeysAndFillRows(alongside: () -> Void = {}) {
        // Workers read the tokens at their positions in the map: a copy of every key and name, made on this thread
        // first, retained each one here.
        let positions = tokens.positions
        let results: (order: [Int], keys: [String], infos: [NameInfo])
        @Sendable func order(_ tokens: NameMap<Token>, _ positions: [Dictionary<NameKey, Token>.Index]) -> (order: [Int], keys: [String]) {
            let keys = positions.map { tokens.key(at: $0) }
            let order = keys.orderComparingBytes()
            return (order, order.map { keys[$0] })
        }
        if workersForEveryToken > 1 {
            let partCount = 8
            let parts = (0..<partCount).map { positions.count * $0 / partCount..<positions.count * ($0 + 1) / partCount }
            let sorted = ConcurrentResults<(order: [Int], keys: [String])>(count: 1)
            let infos = ConcurrentResults<[NameInfo]>(count: partCount)
            let shared = ReadOnly(value: (tokens: tokens, positions: positions))
            parallelPerform(iterations: 2 + partCount) { task in
                let (tokens, positions) = shared.value
                if task == 0 { return sorted.set(0, order(tokens, positions)) }
                if task == 1 + partCount { return alongside() }
                infos.set(task - 1, Self.nameInfos(of: tokens, at: positions[parts[task - 1]]))
            }
            let (order, keys) = sorted.values[0]!
            results = (order, keys, infos.values.flatMap { $0! })
        } else {
            alongside()
            let (order, keys) = order(tokens, positions)
            results = (order, keys, Self.nameInfos(of: tokens, at: positions[...]))
        }
        sortedKeys = results.keys
        // The rows filled on the workers in place, the key-to-row map beside them: each element is retained once, where
        // it is stored (filled in one loop here, this was a tenth of reading the 5k system's tokens).
        let rowOfKeyResult = ConcurrentResults<(rows: NameMap<Int>, rowOfHash: NameRowTable)>(count: 1)
        let shared = ReadOnly(value: (tokens: tokens, positions: positions, order: results.order))
        rowTokens = concurrentArray(count: positions.count, workers: workersForEveryToken, alongside: {
            let (tokens, positions, order) = shared.value
            var rowOfKey = NameMap<Int>()
            rowOfKey.reserveCapacity(positions.count)
            var rowOfHash = NameRowTable(capacity: positions.count)
            // By the keys as the token map hashed them: not hashed again.
            for (row, index) in order.enumerated() {
                let key = tokens.nameKey(at: positions[index])
                rowOfHash.insert(key.hash, row: row)
                rowOfKey[key] = row
            }
            rowOfKeyResult.set(0, (rowOfKey, rowOfHash))
        }) { row in
            shared.value.tokens.value(at: shared.value.positions[shared.value.order[row]])
        }
        rowValues = concurrentArray(count: positions.count, workers: workersForEveryToken) { row in
            shared.value.tokens.value(at: shared.value.positions[shared.value.order[row]]).value
        }
        (rowOfKey, rowOfKeyHash) = rowOfKeyResult.takeValues()[0]!
        rowInfos = results.infos
        rowInfoIndex = results.order
    }

    /// The rows again after keys were added or removed (`sortedKeys` is in order): names already split are taken from
    /// `infos`.
    private func refillRows(infos: (String) -> NameInfo?) {
        rowOfKey = [:]
        rowOfKey.reserveCapacity(sortedKeys.count)
        rowOfKeyHash = NameRowTable(capacity: sortedKeys.count)
        (rowTokens, rowValues, rowInfos) = ([], [], [])
        for (row, key) in sortedKeys.enumerated() {
            let nameKey = NameKey(key), token = tokens[nameKey]!
            rowOfKey[nameKey] = row
            rowOfKeyHash.insert(nameKey.hash, row: row)
            rowTokens.append(token)
            rowValues.append(token.value)
            rowInfos.append(infos(key) ?? Self.nameInfo(of: token.name))
        }
        rowInfoIndex = Array(rowInfos.indices)
    }

    // MARK: - Updating the last graph

    /// What one declaration added to the graph and what it read, so the next graph redoes only declarations an edit
    /// reached.
    struct DeclarationTokens {
        var keys: [String] = []
        /// Struct instances it added fields to (`structInstances` keys).
        var instances: [String] = []
        /// The static members it read, each once.
        var reads: [String] = []
    }
    private var declarationTokens: [DeclarationTokens] = []
    /// The declarations (by index) that read each static member while adding their tokens: made from
    /// `declarationTokens` when an edit asks (or ahead of it, `prepareForEdits`), not kept up at every read.
    private func declarationsReading() -> [String: [Int]] {
        if let readingIndex { return readingIndex }
        let reading = readersOfEachKey(declarationTokens.enumerated().lazy.map { ($0.offset, $0.element.reads) })
        readingIndex = reading
        return reading
    }
    private var readingIndex: [String: [Int]]?

    /// Makes what the next graph asks of this one when it is updated after an edit (and what the interpreter is
    /// asked), so that audit does not wait for it: the daemon calls this once an audit is published.
    public func prepareForEdits() {
        _ = declarationsReading()
        interpreter.prepareForEdits()
    }
    /// What the declaration being read has added so far (collected by `add` and `addToken`); its first key is kept apart
    /// until the declaration is read (`readTokens`).
    private var adding = DeclarationTokens()
    private var firstKey: String?
    /// False once a token key was declared twice (which definition wins depends on order) or tokens were removed: such
    /// a graph is built afresh next time.
    private var updatable = true
    /// The tokens this graph read again when it was updated from the last one (nil: built afresh, every token is new).
    private(set) var updatedKeys: Set<String>?
    /// True when the update kept the same token keys.
    private(set) var sameKeysAsPrevious = false

    /// A static member whose memoised value is a color, number or font, made into its token on the workers.
    private struct PreparedToken {
        let token: Token
        /// The declaration's key, hashed: the key of its token and of the one read its value made.
        let key: NameKey
        /// Its `DeclarationTokens`: the read of its own value and its key.
        let tokens: DeclarationTokens
    }

    /// For a large graph without themes, the token of each declaration that `readTokens` would make by only reading its
    /// memoised value (nearly every token of a large token file: `static let x = adaptive(...)`), made on all cores:
    /// reading the declarations into the graph runs on one thread, and making each token there (its path, its object,
    /// the value's look-up) was most of that. Nil entries, and everything else, are read by `readTokens` in order. Only
    /// values the prefetch memoised are taken, so nothing is evaluated here and the interpreter is only read.
    private func preparedColorTokens(_ declarations: ArraySlice<MemberDeclaration>) -> [PreparedToken?]? {
        let workers = declarations.count >= Self.prefetchThreshold ? interpreter.configuration.workers : 1
        guard workers > 1, themeFamilies.isEmpty, familyDeclarations.isEmpty else { return nil }
        let interpreter = ReadOnly(value: interpreter)
        @Sendable func prepare(_ declaration: MemberDeclaration) -> PreparedToken? {
            switch declaration.kind {
            case .stored, .computed: break
            default: return nil
            }
            let key = NameKey(declaration.key)
            guard declaration.isStatic || declaration.owner.isEmpty, let value = interpreter.value.memoisedStaticValue(key) else { return nil }
            switch value {
            case .color, .number, .font: break
            default: return nil
            }
            var tokens = DeclarationTokens()
            // One array for both (the same one key): a second was an allocation more per token, kept for the graph's life.
            let keys = [declaration.key]
            (tokens.reads, tokens.keys) = (keys, keys)
            let token = Token(qualifiedName: declaration.qualifiedName, declaredKind: value.tokenKind, location: declaration.location,
                              expression: Self.definingExpression(declaration), scope: declaration.owner, value: value)
            return PreparedToken(token: token, key: key, tokens: tokens)
        }
        // Read where they are (the slice, not an array copied from it: a copy counted a reference to each declaration).
        let shared = ReadOnly(value: declarations)
        let start = declarations.startIndex
        return concurrentArray(count: declarations.count, workers: workers) { prepare(shared.value[start + $0]) }
    }

    /// (`adding` is empty here: what each declaration adds is swapped out below.)
    private func readTokens(of declaration: MemberDeclaration, index: Int) -> DeclarationTokens {
        adding.reads = interpreter.recordingReads { addSwiftTokens(declaration) }
        // Moved out, not copied: a copy counted a reference to each of its lists, and the next reset let them go again.
        var read = DeclarationTokens()
        swap(&read, &adding)
        if let first = firstKey.take() {
            // The usual declaration adds one token, whose key is the one static member its value read: one array for both
            // (a second was an allocation more per token, kept for the graph's life).
            read.keys = read.keys.isEmpty && read.reads.count == 1 && read.reads[0] == first ? read.reads : [first] + read.keys
        }
        return read
    }

    /// The graph of `program` built from `previous`, the graph of the program `program` started from: the tokens of
    /// declarations the edit reached (changed ones, and those that read a static member whose value was dropped) are
    /// read again, the rest are taken as they were. Nil when that is not possible: themes, a changed structure, a
    /// static member the interpreter could not carry over, a duplicate token.
    init?(program: Program, updating previous: TokenGraph) {
        // The interpreter took the last one's values over (so the program changed only static members in place).
        guard let invalid = program.interpreter.invalidated, previous.updatable, previous.themeFamilies.isEmpty,
              program.sourceDeclarationCount == previous.declarationTokens.count else { return nil }
        let declarations = program.declarations
        self.program = program
        (themeFamilies, themeOnly) = ([], [])
        interpreter = program.interpreter
        graphFindings = program.findings
        tokens = previous.tokens
        structInstances = previous.structInstances
        sortedKeys = previous.sortedKeys
        (rowOfKey, rowTokens, rowValues) = (previous.rowOfKey, previous.rowTokens, previous.rowValues)
        rowOfKeyHash = previous.rowOfKeyHash
        (rowInfos, rowInfoIndex) = (previous.rowInfos, previous.rowInfoIndex)
        declarationTokens = previous.declarationTokens
        var updated: Set<String> = [], removed: Set<String> = []
        for key in program.dataOrder where invalid.contains(key) {
            guard let token = program.dataTokens[key] else { continue }
            tokens[key] = Token(qualifiedName: token.qualifiedName, declaredKind: token.declaredKind, location: token.location,
                                expression: token.expression.lowered(at: token.location), scope: [],
                                value: interpreter.staticValue(owner: Array(token.qualifiedName.dropLast()), name: token.name))
            updated.insert(key)
        }
        let reading = previous.declarationsReading()
        let redo = Set(invalid.flatMap { reading[$0] ?? [] }).sorted()
        for index in redo {
            for key in declarationTokens[index].keys {
                tokens[key] = nil
                removed.insert(key)
            }
            for instance in declarationTokens[index].instances { structInstances[instance] = nil }
        }
        for index in redo {
            declarationTokens[index] = readTokens(of: declarations[index], index: index)
            updated.formUnion(declarationTokens[index].keys)
        }
        guard updatable else { return nil }
        sameKeysAsPrevious = removed.isSubset(of: updated) && updated.subtracting(removed).allSatisfy { key in previous.tokens[key] != nil }
        // The same keys: the rows of the tokens the edit reached are updated in place; otherwise (or should a key be
        // missing) the rows are made again.
        var rowsUpdated = sameKeysAsPrevious
        if sameKeysAsPrevious {
            for key in updated {
                guard let row = rowOfKey[key], let token = tokens[key] else {
                    rowsUpdated = false
                    break
                }
                (rowTokens[row], rowValues[row]) = (token, token.value)
            }
        }
        if !rowsUpdated {
            sortedKeys = tokens.keys.sortedComparingBytes()
            refillRows { key in previous.row(of: key).map(previous.nameInfo(row:)) }
        }
        updatedKeys = updated
    }

    // MARK: - Themed tokens

    /// The selector's value in the theme being evaluated (the family's first member when the theme is not one of it).
    private func selected(_ family: ThemeFamily) -> Value? {
        interpreter.configuration.theme[family.type] ?? family.members.first?.value
    }

    private func addThemedTokens(_ family: ThemeFamily) {
        guard let selected = selected(family) else { return }
        let owner = family.type.splitOnDots().map(String.init)
        func kind(_ d: MemberDeclaration) -> TokenKind? { d.type.flatMap(Interpreter.kindOfType) }
        switch family.form {
        case .paletteInstances:
            for member in family.members { familyDeclarations.insert(family.type + "." + member.name) }
            let properties = interpreter.memberDeclarations(of: family.type) { d in
                guard !d.isStatic, kind(d) != nil else { return false }
                if case .stored = d.kind { return true }
                if case .computed = d.kind { return true }
                return false
            }
            for p in properties {
                let value = interpreter.member(of: selected, named: p.name, at: p.location)
                addPaletteToken(owner + [p.name], value: value, kind: kind(p), location: p.location, palette: family.type)
            }
        case .themeSwitch:
            for themeFunction in family.functions {
                let (function, parameter) = (themeFunction.declaration, themeFunction.parameter)
                let key = function.key
                familyDeclarations.insert(key)
                let value = interpreter.call(function, arguments: [EvaluatedArgument(label: parameter.label, value: selected)], selfValue: .type(function.ownerKey))
                themedTokens.insert(key)
                addToken(function.qualifiedName, value: value, declaredKind: kind(function), location: function.location, expression: nil,
                         scope: function.owner)
            }
            // Palette types the enum chooses (`var paletteDefinition: ColorPaletteDefinition.Type`) hold the themes' values:
            // their members are read through the theme, not tokens of their own (no copy per palette).
            for property in interpreter.computedProperties(of: family.type) where property.type?.hasSuffix(".Type") ?? false {
                for member in family.members {
                    guard case .type(let chosen) = interpreter.member(of: member.value, named: property.name, at: property.location) else { continue }
                    for d in interpreter.memberDeclarations(of: chosen) { familyDeclarations.insert(chosen + "." + d.name) }
                }
            }
            for property in interpreter.computedProperties(of: family.type) where kind(property) != nil {
                familyDeclarations.insert(family.type + "." + property.name)
                let value = interpreter.member(of: selected, named: property.name, at: property.location)
                themedTokens.insert(family.type + "." + property.name)
                addToken(owner + [property.name], value: value, declaredKind: kind(property), location: property.location, expression: nil,
                         scope: owner)
            }
        case .paletteTypes:
            guard case .type(let type) = selected else { return }
            for member in family.members {
                if case .type(let t) = member.value {
                    for d in interpreter.memberDeclarations(of: t) { familyDeclarations.insert(t + "." + d.name) }
                }
            }
            // The protocol's requirements name the tokens; without any, the colors every palette type has.
            var requirements = interpreter.memberDeclarations(of: family.type) { kind($0) != nil }
            if requirements.isEmpty {
                let defaultType: String? = { if case .type(let t)? = family.members.first?.value { return t } else { return nil } }()
                requirements = defaultType.map { interpreter.memberDeclarations(of: $0) { kind($0) != nil } } ?? []
            }
            for d in requirements { familyDeclarations.insert(family.type + "." + d.name) }
            var seen: Set<String> = []
            for r in requirements where seen.insert(r.name).inserted {
                let isStatic = interpreter.memberDeclarations(of: type).contains { $0.name == r.name && $0.isStatic }
                let value = isStatic
                    ? interpreter.staticValue(owner: type.splitOnDots().map(String.init), name: r.name)
                    : interpreter.member(of: .instance(type: type, fields: [:]), named: r.name, at: r.location)
                addPaletteToken(owner + [r.name], value: value, kind: kind(r), location: r.location, palette: family.type)
            }
        }
    }

    private func addPaletteToken(_ name: [String], value: Value, kind: TokenKind?, location: SourceLocation, palette: String) {
        addToken(name, value: value, declaredKind: kind, location: location, expression: nil, scope: Array(name.dropLast()))
        let key = name.joinedWithDots()
        themedTokens.insert(key)
        if tokens[key] != nil { palettes[palette, default: []].append(key) }
    }

    /// Removes tokens that are another token under a second name (see `ThemedSystem`), keeping the caches in step.
    func remove(_ keys: Set<String>) {
        guard !keys.isEmpty else { return }
        updatable = false
        let removed = NameSet(keys)
        // The rows removed, found by their keys (a few per theme's graph), not by hashing every row's key.
        var isRemoved = [Bool](repeating: false, count: sortedKeys.count)
        for key in keys {
            let nameKey = NameKey(key)
            tokens[nameKey] = nil
            if let row = rowOfKey.removeValue(forKey: nameKey) { isRemoved[row] = true }
        }
        // The rows that stay, in their order, each swapped up past the rows removed before it, the removed ones dropped
        // from the end, and each key's row changed in place: copied into new arrays and maps, every row's token, value,
        // key and words were retained and released again (and each key inserted again), for each theme's graph.
        let count = sortedKeys.count
        var keptRow = [Int](repeating: -1, count: count), kept = 0
        for row in 0..<count where !isRemoved[row] {
            if kept < row {
                sortedKeys.swapAt(kept, row)
                rowTokens.swapAt(kept, row)
                rowValues.swapAt(kept, row)
                rowInfoIndex.swapAt(kept, row)  // (the words stay where they are in `rowInfos`)
            }
            keptRow[row] = kept
            kept += 1
        }
        if kept < count {
            sortedKeys.removeLast(count - kept)
            rowTokens.removeLast(count - kept)
            rowValues.removeLast(count - kept)
            rowInfoIndex.removeLast(count - kept)
            rowOfKeyHash = NameRowTable(capacity: kept)
            for position in rowOfKey.positions {
                let row = keptRow[rowOfKey.value(at: position)]
                rowOfKey.updateValue(row, at: position)
                rowOfKeyHash.insert(rowOfKey.nameKey(at: position).hash, row: row)
            }
        }
        for (instance, fields) in structInstances { structInstances[instance] = fields.filter { !removed.contains($0) } }
    }

    /// `key` is the token's qualified name joined with dots and hashed, when the caller has it made already.
    /// (The token is taken, not borrowed: stored, a borrowed one was counted once more.)
    @discardableResult
    private func add(_ token: consuming Token, key: NameKey? = nil) -> Bool {
        let key = key ?? NameKey(token.qualifiedName.joinedWithDots())
        guard insert(token, key: key) else { return false }
        if adding.keys.isEmpty, firstKey == nil { firstKey = key.string } else { adding.keys.append(key.string) }
        return true
    }

    /// The token under `key`, unless the key is taken: a key declared twice keeps its first definition.
    private func insert(_ token: consuming Token, key: NameKey) -> Bool {
        // One look-up for the usual new key.
        if let first = tokens.updateValue(token, forKey: key) {
            tokens[key] = first
            updatable = false
            return false
        }
        return true
    }

    // MARK: - Which declarations are tokens

    /// (`preparedColorTokens` makes, on the workers, what this makes of a static member whose memoised value is a color,
    /// number or font: a change here is a change there.)
    private func addSwiftTokens(_ declaration: MemberDeclaration) {
        let ownerKinds = ownerKinds(of: declaration)
        let groupKind = ownerKinds.group
        switch declaration.kind {
        case .stored, .computed:
            guard declaration.isStatic || declaration.owner.isEmpty || groupKind != nil else {
                addEnumPropertyTokens(declaration)
                return
            }
            // Hashed once: the member's memo, its read and the token's tables are looked up by it.
            let key = NameKey(declaration.key)
            let value = declaration.isStatic || declaration.owner.isEmpty
                ? interpreter.staticValue(ownerKey: declaration.ownerKey, name: declaration.name, key: key)
                : interpreter.value(of: declaration, selfValue: .type(declaration.ownerKey))
            // The kind a declaration is meant to have: its annotation (a non-token type says "not a token"), its component
            // group, or the color/number/font type it extends.
            let declaredKind: TokenKind? = declaration.type.map { Interpreter.kindOfType($0) ?? .other }
                ?? groupKind ?? ownerKinds.namespace
            addToken(declaration.qualifiedName, key: key, value: value, declaredKind: declaredKind,
                     location: declaration.location, expression: Self.definingExpression(declaration), scope: declaration.owner)
        case .function(let parameters, _):
            addTokenFunctionCases(declaration, parameters)
        case .initializer(let parameters, _):
            addTokenInitializerCases(declaration, parameters)
        default:
            break
        }
    }

    /// The kinds the owner of the last declaration read gives its members: its component group's (`Colors`) and its
    /// namespace's (`Color`). A type's members are read one after another (a token file's thousands of members of
    /// `Color`), and each hashed its owner's names to look both up.
    private var lastOwnerKinds: (owner: [String], group: TokenKind?, namespace: TokenKind?)?

    private func ownerKinds(of declaration: MemberDeclaration) -> (group: TokenKind?, namespace: TokenKind?) {
        let owner = declaration.owner
        if let last = lastOwnerKinds, last.owner == owner { return (last.group, last.namespace) }
        let group = owner.last.flatMap { Self.componentGroups[$0] }, namespace = Interpreter.namespaceKind(declaration.ownerKey)
        lastOwnerKinds = (owner, group, namespace)
        return (group, namespace)
    }

    /// A value becomes a token when it has a token kind; a struct instance contributes its fields.
    /// (`key`: `name` joined with dots and hashed, when the caller has it.) The name, location, expression and scope are
    /// taken, not borrowed: the token keeps them, and borrowed ones were each counted once more to be stored.
    private func addToken(_ name: consuming [String], key: NameKey? = nil, value: Value, declaredKind: TokenKind?, location: consuming SourceLocation,
                          expression: consuming Expr?, scope: consuming [String], depth: Int = 0) {
        if depth > 0, value.tokenKind != nil, value.unknown == nil {
            let instance = (copy name).dropLast().joinedWithDots()
            if structInstances[instance] == nil { adding.instances.append(instance) }
            structInstances[instance, default: []].append(name.joinedWithDots())
        }
        switch value {
        case .color, .number, .font:
            add(Token(qualifiedName: name, declaredKind: value.tokenKind, location: location, expression: expression, scope: scope, value: value), key: key)
        case .string where declaredKind == .string:
            add(Token(qualifiedName: name, declaredKind: .string, location: location, expression: expression, scope: scope, value: value), key: key)
        case .unknown(let u):
            // Only values that are meant to be tokens are findings when they cannot be evaluated.
            guard let kind = declaredKind ?? u.kind, kind != .other, kind != .string else { return }
            add(Token(qualifiedName: name, declaredKind: kind, location: location, expression: expression, scope: scope, value: value), key: key)
        case .instance(let type, let fields) where depth < 3 && interpreter.isType(type) && !isThemeSelector(type):
            // (A palette held by another value, `AppTheme.dark.colors`, is a theme: its colors are the palette's tokens.)
            // A struct that computes a color from stored colors (`DynamicColor { lightColor, darkColor; var color }`)
            // is one token: its computed color. Its stored colors are inputs, not colors anything draws.
            let computed = interpreter.computedProperties(of: type).filter { $0.type.flatMap(Interpreter.kindOfType) != nil }
            let computedKinds = Set(computed.compactMap { $0.type.flatMap(Interpreter.kindOfType) })
            for property in interpreter.storedProperties(of: type) {
                guard let field = fields[property.name] else { continue }
                if let kind = field.tokenKind, computedKinds.contains(kind) { continue }
                addToken(name + [property.name], value: field, declaredKind: property.type.flatMap(Interpreter.kindOfType), location: copy location,
                         expression: nil, scope: copy scope, depth: depth + 1)
            }
            var seen: [Value] = []
            for property in computed {
                let member = interpreter.member(of: value, named: property.name, at: location)
                // `uiColor` and `color` of the same value are one token, named by the first.
                if member.unknown == nil, seen.contains(member) { continue }
                seen.append(member)
                addToken(name + [property.name], value: member, declaredKind: property.type.flatMap(Interpreter.kindOfType), location: copy location,
                         expression: nil, scope: copy scope, depth: depth + 1)
            }
        default:
            break
        }
    }

    /// The kind a function or property's declared type promises: a token kind, or nil for a project type whose
    /// instances may hold tokens (a struct of colors); `.other` for anything else.
    private func returnKind(_ type: String?, scope: [String]) -> TokenKind? {
        guard let type else { return .other }
        if let kind = Interpreter.kindOfType(type) { return kind }
        if let key = interpreter.resolveType(type, in: scope), [.struct, .class].contains(interpreter.typeKind(key)) { return nil }
        return .other
    }

    /// `static func color(for token: ColorToken) -> Color` (or `-> ToneColors`): one token per case of the enum, named
    /// `color.<case>`; `init(designSystemColor: DesignSystemColor)` on a color type likewise, named by its label; a
    /// static function without parameters (`static func daxTitle1() -> UIFont`) is one token.
    private func addTokenFunctionCases(_ function: MemberDeclaration, _ parameters: [Parameter]) {
        guard function.isStatic || function.owner.isEmpty else { return }
        let kind = returnKind(function.type, scope: function.owner)
        guard kind != .other else { return }
        let selfValue = Value.type(function.ownerKey)
        if parameters.allSatisfy({ $0.defaultValue != nil }) {
            guard kind != nil else { return }
            addToken(function.qualifiedName, value: interpreter.call(function, arguments: [], selfValue: selfValue), declaredKind: kind,
                     location: function.location, expression: nil, scope: function.owner)
            return
        }
        guard let first = parameters.first, parameters.dropFirst().allSatisfy({ $0.defaultValue != nil }),
              let typeName = first.type, let enumType = interpreter.resolveType(typeName, in: function.owner),
              interpreter.typeKind(enumType) == .enum, !isThemeSelector(enumType) else { return }
        for (c, value) in caseValues(function, label: first.label, enumType: enumType, selfValue: selfValue) {
            addToken(function.qualifiedName + [c.name], value: value, declaredKind: kind, location: function.location, expression: nil,
                     scope: function.owner)
        }
    }

    private func addTokenInitializerCases(_ initializer: MemberDeclaration, _ parameters: [Parameter]) {
        guard let owner = initializer.owner.last, Interpreter.namespaceKind(owner) != nil, let first = parameters.first, let label = first.label,
              parameters.dropFirst().allSatisfy({ $0.defaultValue != nil }),
              let typeName = first.type, let enumType = interpreter.resolveType(typeName, in: initializer.owner),
              interpreter.typeKind(enumType) == .enum else { return }
        for (c, value) in caseValues(initializer, label: label, enumType: enumType, selfValue: .type(owner)) {
            addToken(initializer.owner + [label, c.name], value: value, declaredKind: Interpreter.namespaceKind(owner), location: initializer.location,
                     expression: nil, scope: initializer.owner)
        }
    }

    /// Each payload-free case of `enumType` with the value `function` gives for it (on all cores when there are many:
    /// `Interpreter.callEach`).
    private func caseValues(_ function: MemberDeclaration, label: String?, enumType: String,
                            selfValue: Value) -> Zip2Sequence<[MemberDeclaration], [Value]> {
        let cases = interpreter.enumCases(of: enumType).filter { $0.parameters.isEmpty }
        let argumentLists = cases.map { [EvaluatedArgument(label: label, value: .enumCase(type: enumType, name: $0.name, payload: []))] }
        return zip(cases, interpreter.callEach(function, argumentLists, selfValue: selfValue))
    }

    /// `enum ColorToken { case text; var color: Color { switch self { ... } } }`: one token per case (cases with
    /// payloads are skipped: they have no single value).
    private func addEnumPropertyTokens(_ property: MemberDeclaration) {
        guard case .computed = property.kind, interpreter.typeKind(property.ownerKey) == .enum,
              !isThemeSelector(property.ownerKey) else { return }
        let kind = returnKind(property.type, scope: property.owner)
        guard kind != .other else { return }
        let owner = property.ownerKey
        for c in interpreter.enumCases(of: owner) where c.parameters.isEmpty {
            let value = interpreter.member(of: .enumCase(type: owner, name: c.name, payload: []), named: property.name, at: property.location)
            addToken(property.owner + [c.name, property.name], value: value, declaredKind: kind, location: property.location,
                     expression: nil, scope: property.owner)
        }
    }

    private func isThemeSelector(_ type: String) -> Bool { themeFamilies.contains { $0.type == type } }

    /// Which source declarations the theme families make no token of (by index; empty without themes): the theme choice
    /// (`static var current: ReaderPalette = .light`) and one theme's values (`primaryText01Rosé`). The same in every
    /// theme's graph: `ThemedSystem` finds them once for all (each graph asked both of every static member, lowercasing
    /// each name that is not ASCII at ~10,000 instructions).
    private let themeOnly: [Bool]

    static func themeOnlyDeclarations(_ program: Program, families: [ThemeFamily]) -> [Bool] {
        guard !families.isEmpty else { return [] }
        // Theme names lowercased, with their length in characters (counted once: every static member's name is compared
        // with every theme's), and the ASCII ones' bytes.
        let themeNames = families.flatMap { $0.members.map { member in let name = member.name.lowercased(); return (name: name, length: name.count) } }
        let asciiThemeNames = themeNames.filter { $0.name.isAllASCII }.map { Array($0.name.utf8) }
        return program.declarations[..<program.sourceDeclarationCount].map { declaration in
            // The theme choice: a member whose type is a family's selector.
            if let key = program.interpreter.selectorType(of: declaration), families.contains(where: { $0.type == key }) { return true }
            guard declaration.isStatic, case .stored = declaration.kind else { return false }
            // One theme's value of a token read through a theme switch: named with a theme's name at its end. An ASCII
            // name (nearly all) is compared with the ASCII theme names byte by byte, lowercased as it is read (in ASCII a
            // character is a byte; `lowercased()` and `hasSuffix` walked characters, ~400 instructions a comparison). An
            // ASCII name cannot end in another theme's name, `rosé`: no ASCII text is canonically equivalent to text with
            // other characters.
            if declaration.name.isAllASCII {
                var name = declaration.name
                return name.withUTF8 { bytes in asciiThemeNames.contains { endsInLowercase(bytes, with: $0) } }
            }
            let name = declaration.name.lowercased()
            let length = name.count
            return themeNames.contains { length > $0.length && name.hasSuffix($0.name) }
        }
    }

    /// Whether the ASCII `name`, lowercased, is longer than `suffix` (lowercase ASCII) and ends with it.
    static func endsInLowercase(_ name: UnsafeBufferPointer<UInt8>, with suffix: [UInt8]) -> Bool {
        guard name.count > suffix.count else { return false }
        let start = name.count - suffix.count
        return suffix.indices.allSatisfy { asciiLowercased(name[start + $0]) == suffix[$0] }
    }

    /// The one expression a stored or computed member is defined by, if it is that simple.
    static func definingExpression(_ declaration: MemberDeclaration) -> Expr? {
        switch declaration.kind {
        case .stored(let initial): return initial
        case .computed(let body):
            guard body.count == 1 else { return nil }
            switch body[0].kind {
            case .expression(let e), .return(let e?): return e
            default: return nil
            }
        default: return nil
        }
    }

    /// A token name's words and the role they imply (the word that implies it, if one does). A struct, not a tuple: the
    /// runtime destroys arrays of tuples through their metadata.
    public struct NameInfo: Sendable {
        public let words: [String]
        public let role: Role
        public let roleWord: String?
    }

    /// A token's name words and the role they imply, computed once per token (pairing and rules ask often).
    public func nameInfo(_ key: String) -> NameInfo {
        row(of: key).map(nameInfo(row:)) ?? Self.nameInfo(of: tokens[key]?.name ?? key)
    }

    // MARK: - Rows

    /// The row of a token (its place in `sortedKeys`), nil for none.
    public func row(of key: String) -> Int? { rowOfKey[key] }
    public func token(row: Int) -> Token { rowTokens[row] }
    func evaluated(row: Int) -> Value { rowValues[row] }
    public func nameInfo(row: Int) -> NameInfo { rowInfos[rowInfoIndex[row]] }
    /// The role alone, read in place (a copy of the `NameInfo` counted references to its words).
    public func role(row: Int) -> Role { rowInfos[rowInfoIndex[row]].role }
    public func color(row: Int) -> AppearanceColor? {
        if case .color(let color) = rowValues[row] { return color }
        return nil
    }

    static func nameInfo(of name: String) -> NameInfo {
        let (words, role, word) = wordsAndRole(of: name)
        return NameInfo(words: words, role: role, roleWord: word)
    }

    static func nameInfo(ofWords words: [String]) -> NameInfo {
        let inferred = Role.inferred(fromWords: words)
        return NameInfo(words: words, role: inferred.role, roleWord: inferred.word)
    }

    /// The names' words and roles of the tokens at `positions`. The names of types' members (`Component.Colors.label`)
    /// recur from type to type (`label`, `background`, `paddingH` in each component), and each ASCII one is split once:
    /// splitting a name and finding its role cost ~2,000 instructions, a look-up ~250. Names directly in a namespace
    /// (`Color.brandPrimary`) are nearly all distinct, and are not looked up. (A name that is not ASCII is split each
    /// time: a spelling of it that is canonically equivalent is the same key, but not the same words.)
    private static func nameInfos(of tokens: NameMap<Token>, at positions: ArraySlice<Dictionary<NameKey, Token>.Index>) -> [NameInfo] {
        var split: [NameKey: NameInfo] = [:]
        return positions.map { position in
            let token = tokens.value(at: position), name = token.name
            guard token.qualifiedName.count > 2, let key = NameKey(ascii: name) else { return nameInfo(of: name) }
            if let info = split[key] { return info }
            let info = nameInfo(of: name)
            split[key] = info
            return info
        }
    }

    // MARK: - Lookup

    /// The token a name refers to, the way Swift looks names up (innermost scope outward), or nil. Configuration
    /// names go through here too, so `Canvas` names `Canvas.colorset` as well as `Color.Canvas`.
    public func resolve(_ reference: TokenReference) -> String? {
        var path = reference.path
        if path.first == "Self" || path.first == "self" { path.removeFirst() }
        guard !path.isEmpty else { return nil }
        // The path joined with dots, written once on the stack: each candidate is an owner and these bytes (made a
        // string, the path was an allocation for each reference, and most of its candidates name no token).
        let length = path.reduce(path.count - 1) { $0 + $1.utf8.count }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(length, 1)) { buffer in
            var end = 0
            for (index, part) in path.enumerated() {
                if index > 0 {
                    buffer[end] = UInt8(ascii: ".")
                    end += 1
                }
                end += writeUTF8(part, to: buffer.baseAddress! + end)
            }
            return resolve(reference, path: path, key: UnsafeBufferPointer(rebasing: buffer[..<length]))
        }
    }

    private func resolve(_ reference: TokenReference, path: [String], key: UnsafeBufferPointer<UInt8>) -> String? {
        // Candidates in the order Swift would look, each checked as it is made (the first that names a token wins).
        if reference.isImplicitMember || path.count == 1 {
            let kinds: [TokenKind] = reference.expectedKind.map { [$0] } ?? [.color, .number, .font]
            for kind in kinds {
                for ns in Self.namespaces[kind] ?? [] {
                    if let candidate = tokenKey(CollectionOfOne(ns), key) { return candidate }
                }
            }
        }
        for depth in stride(from: reference.scope.count, through: reference.isImplicitMember ? 1 : 0, by: -1) {
            if let candidate = tokenKey(reference.scope.prefix(depth), key) { return candidate }
        }
        // `UIColor.appX` may be declared as `Color.appX` (and the other way round).
        if path.count > 1 {
            let rest = UnsafeBufferPointer(rebasing: key[(path[0].utf8.count + 1)...])
            for (_, names) in Self.namespaces where names.contains(path[0]) {
                for alternative in names where alternative != path[0] {
                    if let candidate = tokenKey(CollectionOfOne(alternative), rest) { return candidate }
                }
            }
        }
        if let candidate = tokenKey(CollectionOfOne("Asset"), key) { return candidate }
        // Xcode's generated asset symbols: `Color.brandPrimary` / `.brandPrimary` name the colorset "brand-primary".
        var symbol = path
        if let first = symbol.first, Self.namespaces[.color]!.contains(first) { symbol.removeFirst() }
        return interpreter.assetToken(symbol: symbol.joinedWithDots())
    }

    /// `memberKey(owner.joinedWithDots(), name)` when that is a token's key, else nil (`name`: the UTF-8 bytes of a
    /// name). `resolve` tries up to a dozen candidates for a reference and most name no token, so each is written and
    /// hashed in a buffer on the stack, and found by its bytes among the rows' keys (`rowOfKeyHash`),
    /// the row's own key returned: made in one allocation and looked up, the candidates of a component's alias cost
    /// ~4,000 instructions, and components resolve thousands.
    private func tokenKey(_ owner: some Collection<String>, _ name: UnsafeBufferPointer<UInt8>) -> String? {
        var ownerLength = owner.count - 1
        for part in owner { ownerLength += part.utf8.count }
        // (An empty owner: the name alone.)
        let length = ownerLength > 0 ? ownerLength + 1 + name.count : name.count
        if !rowOfKeyHash.isEmpty, length <= 512 {
            // Some(nil): certainly no token; nil: a name that is not ASCII, looked up as a string below.
            let found: String?? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(length, 1)) { buffer in
                let base = buffer.baseAddress!
                var end = 0
                if ownerLength > 0 {
                    for part in owner {
                        end += writeUTF8(part, to: base + end)
                        base[end] = UInt8(ascii: ".")
                        end += 1
                    }
                }
                if let nameBase = name.baseAddress { (base + end).initialize(from: nameBase, count: name.count) }
                guard let hash = NameKey.asciiHash(of: UnsafeBufferPointer(rebasing: buffer[..<length])) else { return nil }
                let row = rowOfKeyHash.row(of: hash) { row in
                    row < sortedKeys.count && sortedKeys[row].utf8.withContiguousStorageIfAvailable { key in
                        key.count == length && memcmp(key.baseAddress!, base, length) == 0
                    } == true
                }
                // (The rows are the tokens' keys, as the hashes are: a name without a row is no token.)
                return .some(row.map { sortedKeys[$0] })
            }
            if let found { return found }
        }
        let nameString = String(decoding: name, as: UTF8.self)
        let candidate = ownerLength > 0 ? memberKey(owner.joinedWithDots(), nameString) : nameString
        return tokens[candidate] != nil ? candidate : nil
    }

    // MARK: - Values

    public func value(of qualifiedName: String) -> Result<TokenValue, EvaluationError> {
        guard let value = tokens[qualifiedName]?.value else {
            return .failure(EvaluationError(rule: "reference", message: "unknown token \(qualifiedName)", location: nil))
        }
        if let u = value.unknown { return .failure(EvaluationError(rule: u.rule, message: u.reason, location: u.location)) }
        guard let tokenValue = value.tokenValue else {
            return .failure(EvaluationError(rule: "parse", message: "is \(value.typeDescription), not a token value", location: nil))
        }
        return .success(tokenValue)
    }

    /// A token's evaluated value as the interpreter gave it (nil: no such token), for rules that only look at some kinds.
    func evaluated(_ qualifiedName: String) -> Value? { tokens[qualifiedName]?.value }

    /// A color token's value; nil for other tokens and for unevaluated ones. Rules and pairing ask for each token's
    /// color, and `value(of:)` builds a result (or an error) around it first.
    public func color(of qualifiedName: String) -> AppearanceColor? {
        if case .color(let color)? = tokens[qualifiedName]?.value { return color }
        return nil
    }

    /// The keys of the color tokens whose color satisfies `predicate`, in key order: one pass over the rows by index (a
    /// loop over the values' table copied every key and value, references counted, to find the few that match).
    func colorKeys(where predicate: (AppearanceColor) -> Bool) -> [String] {
        var keys: [String] = []
        for row in rowValues.indices { if case .color(let color) = rowValues[row], predicate(color) { keys.append(sortedKeys[row]) } }
        return keys
    }

    /// The name a token is written with in the design system, without a color/number/font namespace:
    /// `Color.appTextPrimary` -> `appTextPrimary`, `ElevateAliases.Action.fill` stays as is.
    public static func displayName(_ qualifiedName: String) -> String {
        let first = firstName(of: qualifiedName)
        guard first.isDisplayPrefix, first.end < qualifiedName.endIndex else { return qualifiedName }
        // Made from the bytes after the dot (one byte): a substring made a string walked its indices (~700 instructions a
        // name, for each component property's endpoint).
        return String(decoding: qualifiedName.utf8[qualifiedName.utf8.index(after: first.end)...], as: UTF8.self)
    }

    /// Where a key's first name ends (its first dot, or the key's end) and whether that name is one of `displayPrefixes`
    /// (`Color.appText`). Found on the bytes when the dot is a character of its own (`firstDotOffset`): no substring made,
    /// no grapheme walked (`firstDotIndex` checks the whole key is ASCII first; rules and pairing ask this of every key).
    static func firstName(of key: String) -> (end: String.Index, isDisplayPrefix: Bool) {
        let onBytes = key.utf8.withContiguousStorageIfAvailable { bytes -> (Int, Bool)? in
            guard let dot = firstDotOffset(bytes) else { return nil }
            return (dot, isDisplayPrefix(bytes: UnsafeBufferPointer(rebasing: bytes[..<dot])))
        }
        if let onBytes, let (dot, isPrefix) = onBytes { return (key.utf8.index(key.utf8.startIndex, offsetBy: dot), isPrefix) }
        let end = key.firstDotIndex ?? key.endIndex
        return (end, isDisplayPrefix(key[..<end]))
    }

    /// Where a key's first dot is on its bytes (its length when it has none), when that dot is a character of its own,
    /// between ASCII bytes or at an end: the place `firstDotIndex` finds. Nil for a dot beside a non-ASCII byte (callers
    /// take the general path).
    static func firstDotOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return bytes.count }
        guard dot + 1 == bytes.count || bytes[dot + 1] < 0x80, dot == 0 || bytes[dot - 1] < 0x80 else { return nil }
        return dot
    }

    /// Namespaces a display name drops (`Color.`, `UIColor.`, `Asset.`, ...).
    static let displayPrefixes: Set<String> = Set(namespaces.values.flatMap { $0 } + ["Asset"])

    /// Whether a key's first component is one of `displayPrefixes`: its bytes compared with the prefixes of its length
    /// (rules and pairing ask this of thousands of keys; a string made of the component and hashed cost ~1,000
    /// instructions a key).
    static func isDisplayPrefix(_ component: Substring) -> Bool {
        let bytes = component.utf8
        return bytes.withContiguousStorageIfAvailable(isDisplayPrefix(bytes:))
            ?? displayPrefixBytes.contains { $0.count == bytes.count && $0.elementsEqual(bytes) }
    }

    /// `isDisplayPrefix` of a name's bytes (callers that have them make no substring).
    static func isDisplayPrefix(bytes text: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = text.count
        // Most keys' first names have a length no namespace has (`BenchComponent0Styling`): no byte compared.
        guard count < 64, displayPrefixLengths & (1 << UInt64(count)) != 0 else { return false }
        return displayPrefixBytes.contains { prefix in
            prefix.count == count && prefix.withUnsafeBufferPointer { memcmp($0.baseAddress!, text.baseAddress!, count) == 0 }
        }
    }
    /// Bit n set when some namespace is n bytes long.
    private static let displayPrefixLengths: UInt64 = displayPrefixBytes.reduce(0) { $0 | ($1.count < 64 ? 1 << UInt64($1.count) : 0) }
    private static let displayPrefixBytes: [[UInt8]] = displayPrefixes.sorted().map { Array($0.utf8) }

    /// Token keys in order, computed once (rules and pairing sources walk them in a deterministic order).
    public private(set) var sortedKeys: [String] = []

    /// Whether `key` has a different value in `other` (the graph this one was updated from).
    func values(differ other: TokenGraph, at key: String) -> Bool { tokens[key]?.value != other.tokens[key]?.value }

    /// How many tokens have no value (their root causes are `findings()`).
    public var unevaluatedCount: Int {
        // The rows, read in place (the values' table copied each value out, references counted).
        var count = 0
        for row in rowValues.indices { if case .unknown = rowValues[row] { count += 1 } }
        return count
    }

    /// Tokens that could not be evaluated, one finding per root cause: when a primitive or helper cannot be
    /// evaluated, the finding is at it and names the tokens that depend on it. Deterministic.
    public func findings() -> [Finding] {
        var result = graphFindings
        var groups: [Value.Unknown: [String]] = [:]
        // The unevaluated tokens (usually few), in key order: the rows are (read by index, not copied one by one).
        for row in rowValues.indices {
            guard case .unknown(var cause) = rowValues[row] else { continue }
            cause.kind = nil
            groups[cause, default: []].append(sortedKeys[row])
        }
        for (cause, keys) in groups {
            let names = keys.map(Self.displayName)
            if keys.count == 1, let token = tokens[keys[0]] {
                result.append(Finding(
                    rule: cause.rule, severity: .error, subject: names[0], message: "\(names[0]): \(cause.reason)",
                    location: token.location, relatedLocations: cause.location != token.location && cause.location.line > 0 ? [cause.location] : []))
                continue
            }
            let shown = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "")
            let at = cause.location.line > 0 ? cause.location : tokens[keys[0]]!.location
            result.append(Finding(
                rule: cause.rule, severity: .error, subject: names[0],
                message: "\(cause.reason); \(keys.count) tokens depend on it: \(shown)",
                location: at, relatedLocations: keys.prefix(10).compactMap { tokens[$0]?.location }))
        }
        return Finding.sorted(result)
    }
}
