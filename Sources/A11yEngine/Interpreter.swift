import Foundation

/// Evaluates the Swift IR of a design system. Pure (no I/O), deterministic, bounded: every evaluation has a step
/// budget and a call-depth limit, and anything it cannot model is an `unknown` value with a reason and a location,
/// never a crash. Static members are memoised. Platform knowledge (SwiftUI/UIKit) is asked of `BuiltIns` only.
///
/// One instance serves one audit on one thread; its results are plain values.
public final class Interpreter {
    public struct Configuration: Hashable, Sendable {
        /// `UIDevice.current.userInterfaceIdiom` evaluates to this (`phone`, `pad`).
        public var idiom: String = "phone"
        /// Steps one top-level evaluation may take before it is cut off as unknown.
        public var stepBudget: Int = 200_000
        /// Nested calls allowed (recursion in a design system is a bug; this keeps the stack bounded).
        public var maxCallDepth: Int = 48
        /// The theme being evaluated, as the value each theme selector type takes (`ThemeType` -> `.rosé`,
        /// `ReaderPalette` -> the `sepia` instance, `PaletteDefinition` -> `ExperimentalPalette.self`): a stored
        /// property declared with one of these types reads this value, whatever its initial value says (the app
        /// sets it at run time). Keyed by the type's qualified name.
        public var theme: [String: Value] = [:]
        /// Threads a large design system's static members are evaluated on before its token graph is built (1: in
        /// order on the caller's thread; the readers pass the machine's cores). The result does not depend on it.
        public var workers: Int = 1
        public init() {}
    }

    public let configuration: Configuration
    /// Members by the key of their owner (`Color`, `ElevateTokens.Palette`, `` for top level), then by name.
    private var members: NameMap<NameMap<[MemberDeclaration]>> = [:]
    /// Every type (and extended type) by qualified key, with its inheritance clause (extensions merged).
    private var types: NameMap<(kind: TypeDeclaration.Kind, inheritance: [String], location: SourceLocation)> = [:]
    /// Typealiases by qualified key: the type they name, as written.
    private var aliases: NameMap<String> = [:]
    /// Qualified type keys by their last component, and the last components of typealiases.
    private var typesByLastName: NameMap<[String]> = [:]
    private var aliasLastNames: NameSet = []
    /// True when some member or type is named `name`: an implicit member no project declares skips the project search.
    private func isDeclared(_ name: String) -> Bool {
        let key = NameKey(name)
        return memberNames.contains(key) || typesByLastName[key] != nil
    }

    /// Names of members, and last names of nested types: a name in neither is not found by walking the scopes.
    private var memberNames: NameSet = []
    private var nestedTypeNames: NameSet = []
    /// Names of declared functions, and types that declare initialisers: most calls are to neither.
    var functionNames: NameSet = []
    private var typesWithInitializers: NameSet = []
    /// The owner and name of every function and initialiser, once each, in declaration order (`ownCallables`).
    private var callables: [(owner: String, name: String)] = []
    /// The project protocols each type conforms to (types that conform to none are not listed): asked at every look-up
    /// of a name that is not a field of `self`.
    private var protocolsByType: NameMap<[String]> = [:]
    /// Asset catalog colors by the symbol path Xcode generates (`brandPrimary`, `Signal.backgroundBase`): their declarations.
    private var assetSymbols: NameMap<MemberDeclaration> = [:]

    private var staticCache: NameMap<Value> = [:]
    /// A worker's view of what the interpreter it works for had memoised when it started (`worker()`): read before
    /// its own `staticCache`, never written, never copied.
    private var startingCache: NameMap<Value>?
    /// The static members each memoised static member read while it was evaluated (its direct dependencies), so a
    /// later audit can keep what an edit did not reach (`reuse(_:invalidating:)`).
    private var staticDependencies: NameMap<[String]> = [:]
    /// The static members being evaluated, outermost first (a key met again is a cycle).
    private var inProgress: [String] = []
    /// What each reader being evaluated (a static member, or `recordingReads`'s body) has read so far, innermost last:
    /// stored in `staticDependencies` once a member is done (not looked up at every read).
    /// Kept as lists, duplicates removed once a member is done: a set per member cost a hash and an allocation per read.
    private var readsInProgress: [[String]] = []
    /// Nesting of public entry points: the budget is reset only when an evaluation starts from outside.
    private var entries = 0
    /// Set when an evaluation met a cycle, the step budget or the depth limit: what it memoised then depends on the
    /// order values were asked for, so `prefetchStaticValues` keeps nothing from that worker.
    var orderDependent = false
    /// While a view is walked: which enum-case stored properties of instances of `type` were read, by name (`whole` once
    /// an instance was compared whole). A walk is a function of what it reads, so another variant of the view that agrees
    /// on every property read walks the same way (`ViewCodeAnalysis.walks(of:)`).
    struct FieldReads {
        let type: String
        var names: Set<String> = []
        var whole = false
    }
    var fieldReads: FieldReads?

    /// Only enum cases are noted: the variants of a view differ in enum-typed properties alone, each a case.
    private func noteFieldRead(_ type: String, _ name: String, _ field: Value) {
        guard case .enumCase = field else { return }
        noteEnumFieldRead(type, name)
    }

    private func noteEnumFieldRead(_ type: String, _ name: String) {
        for i in instanceRecordings.indices { instanceRecordings[i].fieldReads.append((type, name)) }
        guard fieldReads?.type == type else { return }
        fieldReads!.names.insert(name)
    }

    /// An instance of `type` was compared whole (`fieldReads.whole` when it is the walked type).
    private func noteWholeRead(_ type: String) {
        for i in instanceRecordings.indices { instanceRecordings[i].wholeReads.append(type) }
        if fieldReads?.type == type { fieldReads!.whole = true }
    }

    // MARK: Instance members, memoised

    /// An instance member's value, kept by the member and the instance: the same computed property of the same value is
    /// read again and again (DesignResourcesKit's `DynamicColor.color` for every case of its color enum; a view's
    /// properties in its walk). An instance is known by its box (`Value` is one reference to an immutable box, and the
    /// memo keeps the value, so the box is not freed and reused while the entry lives): hashing and comparing fields
    /// cost more than evaluating again (tried: elevate-ios +9%). An enum case without payload is known by its type and
    /// name. Evaluating also records what it read; a hit replays that, so static dependencies and a walk's field reads
    /// are what evaluating again would make.
    private struct InstanceMemberKey: Hashable {
        let member: NameKey
        let instance: Identity
        enum Identity: Hashable {
            case box(UInt)
            case enumCase(type: String, name: String)
        }
    }
    /// What an instance member's evaluation recorded: static members read at its own level of `readsInProgress`, and
    /// enum fields read and instances compared whole, whatever type a walk watched then.
    private struct InstanceRecording {
        let level: Int
        var staticReads: [NameKey] = []
        var fieldReads: [(type: String, name: String)] = []
        var wholeReads: [String] = []
    }
    private var instanceMemo: [InstanceMemberKey: (value: Value, instance: Value, recording: InstanceRecording)] = [:]
    /// The instance members being evaluated, outermost first: each records what it reads.
    private var instanceRecordings: [InstanceRecording] = []

    private static func identity(of value: Value) -> InstanceMemberKey.Identity? {
        switch value {
        case .enumCase(let type, let name, let payload) where payload.isEmpty && !type.isEmpty: return .enumCase(type: type, name: name)
        case .instance where MemoryLayout<Value>.size == MemoryLayout<UInt>.size: return .box(unsafeBitCast(value, to: UInt.self))
        default: return nil
        }
    }

    /// `declaration`'s value on `selfValue`, from the memo when it was evaluated on that instance before. Nothing is
    /// memoised once evaluation met a cycle or a limit (results then depend on order).
    private func memoisedInstanceMember(_ declaration: MemberDeclaration, self selfValue: Value, at location: SourceLocation) -> Value {
        guard !orderDependent, let identity = Self.identity(of: selfValue) else {
            return withCall(at: location) { evaluateMember(declaration, selfValue: selfValue) }
        }
        let key = InstanceMemberKey(member: NameKey(declaration.key), instance: identity)
        if let hit = instanceMemo[key] {
            for read in hit.recording.staticReads { noteStaticRead(read) }
            for read in hit.recording.fieldReads { noteEnumFieldRead(read.type, read.name) }
            for type in hit.recording.wholeReads { noteWholeRead(type) }
            return hit.value
        }
        instanceRecordings.append(InstanceRecording(level: readsInProgress.count))
        let value = withCall(at: location) { evaluateMember(declaration, selfValue: selfValue) }
        let recording = instanceRecordings.removeLast()
        if !orderDependent { instanceMemo[key] = (value, selfValue, recording) }
        return value
    }

    /// Traits read while a dynamic color provider runs (`style`, `contrast`): they decide which appearances it defines.
    var traitReads: TraitReads = []

    struct TraitReads: OptionSet {
        let rawValue: UInt8
        static let style = TraitReads(rawValue: 1)
        static let contrast = TraitReads(rawValue: 2)
    }

    /// The values a dynamic color provider's runs read, made once per interpreter rather than at every run (each value is
    /// a heap box, and a provider runs for every appearance of every adaptive token; an interpreter runs on one thread
    /// at a time, so no two cores share their reference counts): the traits per appearance, and the cases
    /// `traits.userInterfaceStyle` and `traits.accessibilityContrast` give.
    struct TraitValues {
        let traits: [Value]
        let light: Value, dark: Value, normal: Value, high: Value
        init(idiom: String) {
            traits = Appearance.allCases.map { .traits(.init(appearance: $0, idiom: idiom)) }
            func platformCase(_ name: String) -> Value { .enumCase(type: "", name: name, payload: []) }
            (light, dark, normal, high) = (platformCase("light"), platformCase("dark"), platformCase("normal"), platformCase("high"))
        }
    }
    /// Stored, not `lazy`: a lazy struct's getter copied all five references (five retains and releases) at each read.
    let traitValues: TraitValues

    /// Color, number and font namespaces are interchangeable for lookup: a project may declare `UIColor.x` and use `Color.x`.
    static let namespaces: [TokenKind: [String]] = [
        .color: ["Color", "UIColor", "ShapeStyle", "SwiftUI.Color", "CGColor", "NSColor"],
        .number: ["CGFloat", "Double", "Float", "Int", "UInt", "Int64", "UInt64", "Int32", "UInt32", "UInt8"],
        .font: ["Font", "UIFont", "SwiftUI.Font"],
    ]

    public init(declarations: [MemberDeclaration], types typeDeclarations: [TypeDeclaration],
                configuration: Configuration = Configuration()) {
        self.configuration = configuration
        traitValues = TraitValues(idiom: configuration.idiom)
        // A large program's indexes are built on several cores: the member index in parts (owners split by their names'
        // hashes, so each owner's members stay in one part, in declaration order), the other indexes beside them.
        let memberParts = configuration.workers > 1 && declarations.count >= Self.declarationsIndexedInParts ? configuration.workers : 1
        let memberIndexes = ConcurrentResults<NameMap<NameMap<[MemberDeclaration]>>>(count: memberParts)
        let otherIndexes = ConcurrentResults<OtherIndexes>(count: 1)
        let shared = ReadOnly(value: (declarations, typeDeclarations))
        if memberParts > 1 {
            // The other indexes first: the longest task (the last one taken ran alone while the other core waited).
            parallelPerform(iterations: memberParts + 1) { task in
                let (declarations, typeDeclarations) = shared.value
                if task == 0 { return otherIndexes.set(0, OtherIndexes(declarations: declarations, types: typeDeclarations)) }
                memberIndexes.set(task - 1, Self.memberIndex(declarations, part: task - 1, of: memberParts))
            }
        } else {
            memberIndexes.set(0, Self.memberIndex(declarations, part: 0, of: 1))
            otherIndexes.set(0, OtherIndexes(declarations: declarations, types: typeDeclarations))
        }
        var parts = memberIndexes.takeValues()
        members = parts[0].take()!
        for part in parts.dropFirst() {
            for position in part!.positions { members[part!.nameKey(at: position)] = part![position].value }
        }
        let other = otherIndexes.takeValues()[0]!
        (types, aliases, protocolsByType, typesByLastName, nestedTypeNames, aliasLastNames) =
            (other.types, other.aliases, other.protocolsByType, other.typesByLastName, other.nestedTypeNames, other.aliasLastNames)
        (memberNames, functionNames, typesWithInitializers, callables, assetSymbols) =
            (other.memberNames, other.functionNames, other.typesWithInitializers, other.callables, other.assetSymbols)
    }

    /// From this many declarations, the indexes are built on several cores.
    static let declarationsIndexedInParts = 2_000

    /// Members by owner, then by name: the owners whose names' hashes fall in `part` of `parts`.
    /// A type's members are consecutive declarations with one owner: each run's owner is hashed and looked up once, and
    /// its members gathered in a table sized for the run. Hashing and looking up the owner for every member, and growing
    /// a 5,000-member extension's table a doubling at a time, made the part that held it the phase's longest task.
    private static func memberIndex(_ declarations: [MemberDeclaration], part: Int, of parts: Int) -> NameMap<NameMap<[MemberDeclaration]>> {
        var index = NameMap<NameMap<[MemberDeclaration]>>()
        var start = declarations.startIndex
        while start < declarations.endIndex {
            let ownerKey = declarations[start].ownerKey
            var end = start + 1
            // (A reader makes one owner key for all the members of a type: comparing it is comparing one reference.)
            while end < declarations.endIndex, declarations[end].ownerKey == ownerKey { end += 1 }
            let run = start..<end
            start = end
            let owner = NameKey(ownerKey)
            guard parts == 1 || Int(owner.hash % UInt64(parts)) == part else { continue }
            // Taken out and put back: an owner whose members are in several runs (extensions) keeps them in order.
            var members = index.removeValue(forKey: owner) ?? [:]
            members.reserveCapacity(members.count + run.count)
            for declaration in declarations[run] { members[NameKey(declaration.name), default: []].append(declaration) }
            index[owner] = members
        }
        return index
    }

    /// The indexes other than members', built together.
    private struct OtherIndexes {
        var types: NameMap<(kind: TypeDeclaration.Kind, inheritance: [String], location: SourceLocation)> = [:]
        var aliases: NameMap<String> = [:]
        var protocolsByType: NameMap<[String]> = [:]
        var typesByLastName: NameMap<[String]> = [:]
        var nestedTypeNames: NameSet = []
        var aliasLastNames: NameSet = []
        var memberNames: NameSet = []
        var functionNames: NameSet = []
        var typesWithInitializers: NameSet = []
        var callables: [(owner: String, name: String)] = []
        var assetSymbols: NameMap<MemberDeclaration> = [:]

        init(declarations: [MemberDeclaration], types typeDeclarations: [TypeDeclaration]) {
            for type in typeDeclarations {
                let key = type.qualifiedName.joinedWithDots()
                if type.kind == .typealias, let target = type.aliasOf {
                    aliases[key] = target
                    continue
                }
                if var existing = types[key] {
                    existing.inheritance += type.inheritance
                    if existing.kind == .extension { existing.kind = type.kind; existing.location = type.location }
                    types[key] = existing
                } else {
                    types[key] = (type.kind, type.inheritance, type.location)
                }
            }
            for (type, declared) in types {
                let conformances = declared.inheritance.filter { types[$0]?.kind == .protocol }
                if !conformances.isEmpty { protocolsByType[type] = conformances }
                guard let last = type.lastDotPiece.map(String.init) else { continue }
                typesByLastName[last, default: []].append(type)
                if type.containsText(".") { nestedTypeNames.insert(last) }
            }
            for alias in aliases.keys { if let last = alias.lastDotPiece { aliasLastNames.insert(String(last)) } }
            memberNames.reserveCapacity(declarations.count)
            var callableKeys: NameSet = []
            for declaration in declarations {
                // The name hashed once for the indexes it goes into.
                let name = NameKey(declaration.name)
                memberNames.insert(name)
                switch declaration.kind {
                case .function: functionNames.insert(name)
                case .initializer: typesWithInitializers.insert(declaration.ownerKey)
                default: break
                }
                if declaration.isFunction || declaration.isInitializer, callableKeys.insert(declaration.key) {
                    callables.append((declaration.ownerKey, declaration.name))
                }
                if declaration.owner.first == "Asset" {
                    let name = declaration.qualifiedName.dropFirst().joinedWithDots()
                    assetSymbols[AssetSymbolName.symbolPath(forAssetName: name).joinedWithDots()] = declaration
                }
            }
        }
    }

    /// An interpreter over `previous`'s declarations with some static members' declarations replaced (same owner and
    /// name, `changed` as (before, now)): the indexes are taken over instead of built again. Nothing evaluated is taken
    /// here (`reuse(_:invalidating:)` does). Nil when a declaration is not where `previous` has it.
    convenience init?(updating previous: Interpreter, replacing changed: [(before: MemberDeclaration, now: MemberDeclaration)]) {
        self.init(indexesOf: previous, configuration: previous.configuration)
        for (before, now) in changed {
            let owner = now.ownerKey
            guard let index = members[owner]?[now.name]?.firstIndex(of: before) else { return nil }
            members[owner]?[now.name]?[index] = now
            if now.owner.first == "Asset" {
                let name = now.qualifiedName.dropFirst().joinedWithDots()
                assetSymbols[AssetSymbolName.symbolPath(forAssetName: name).joinedWithDots()] = now
            }
        }
    }

    /// An interpreter over the same declarations as `other` under another configuration (a theme bound): the indexes are
    /// shared (copied on write), nothing evaluated is.
    init(indexesOf other: Interpreter, configuration: Configuration) {
        self.configuration = configuration
        traitValues = TraitValues(idiom: configuration.idiom)  // its own: a worker's boxes are counted on its core only
        members = other.members
        types = other.types
        aliases = other.aliases
        typesByLastName = other.typesByLastName
        aliasLastNames = other.aliasLastNames
        memberNames = other.memberNames
        nestedTypeNames = other.nestedTypeNames
        functionNames = other.functionNames
        typesWithInitializers = other.typesWithInitializers
        callables = other.callables
        protocolsByType = other.protocolsByType
        assetSymbols = other.assetSymbols
    }

    // MARK: - Declarations

    func declarations(owner: String, name: String) -> [MemberDeclaration] { members[owner]?[name] ?? [] }

    public func typeKind(_ key: String) -> TypeDeclaration.Kind? { types[key]?.kind }

    /// Every project type's qualified name, sorted (theme discovery walks them).
    public var typeNames: [String] { types.keys.sortedComparingBytes() }

    public func typeLocation(_ key: String) -> SourceLocation? { types[key]?.location }

    /// Every member of a type (its extensions included), in declaration order.
    /// `include`: the members wanted, chosen before they are sorted (theme discovery asks of every type for a few).
    public func memberDeclarations(of type: String, where include: (MemberDeclaration) -> Bool = { _ in true }) -> [MemberDeclaration] {
        var found: [MemberDeclaration] = []
        for declarations in (members[type] ?? [:]).values {
            for d in declarations where include(d) { found.append(d) }
        }
        return found.sorted { $0.location < $1.location }
    }

    /// Whether a static stored property is declared with this type (`static var current: ColorPalette = .default`).
    public func isSelected(_ type: String) -> Bool { selectedTypes.contains(type) }

    /// Types some static stored property is declared with, computed once (discovery asks for every enum).
    private lazy var selectedTypes: Set<String> = Set(members.values.flatMap { $0.values.flatMap { $0 } }.compactMap { d in
        guard d.isStatic, case .stored = d.kind else { return nil }
        return selectorType(of: d)
    })

    /// Every function declaration (static, instance and top level), computed once.
    public private(set) lazy var allFunctions: [MemberDeclaration] =
        members.values.flatMap { $0.values.flatMap { $0 } }.filter { if case .function = $0.kind { return true } else { return false } }
            .sorted { $0.location < $1.location }

    /// Project types that name `protocolKey` in their inheritance clause (or an extension's).
    public func conformers(of protocolKey: String) -> [String] {
        let last = protocolKey.lastDotPiece.map(String.init) ?? protocolKey
        return types.filter { $0.value.kind != .protocol && $0.value.inheritance.contains { $0 == protocolKey || $0 == last } }
            .map(\.key).sorted()
    }

    public func isType(_ key: String) -> Bool { types[key] != nil }

    /// Stored instance properties of a type, in declaration order (the memberwise initialiser's parameters).
    /// Memoised per type: every memberwise initialiser and instance look-up asks.
    public func storedProperties(of type: String) -> [MemberDeclaration] {
        if let known = storedPropertiesByType[type] { return known }
        let stored = (members[type] ?? [:]).values.flatMap { $0 }
            .filter { !$0.isStatic && { if case .stored = $0.kind { return true } else { return false } }($0) }
            .sorted { $0.location < $1.location }
        storedPropertiesByType[type] = stored
        return stored
    }
    private var storedPropertiesByType: [String: [MemberDeclaration]] = [:]

    /// Cases of a project enum, in declaration order (memoised per type).
    public func enumCases(of type: String) -> [MemberDeclaration] {
        if let known = enumCasesByType[type] { return known }
        let cases = (members[type] ?? [:]).values.flatMap { $0 }
            .filter { if case .enumCase = $0.kind { return true } else { return false } }
            .sorted { $0.location < $1.location }
        enumCasesByType[type] = cases
        return cases
    }
    private var enumCasesByType: [String: [MemberDeclaration]] = [:]

    /// The protocols a type conforms to (directly, through its extensions), for protocol-extension members.
    func protocols(of type: String) -> [String] { protocolsByType[type] ?? [] }

    /// The qualified key a type name written in `scope` refers to (innermost first), or nil for non-project types.
    public func resolveType(_ name: String, in scope: [String], aliasDepth: Int = 0) -> String? {
        let clean = Self.baseTypeName(name)
        if let resolved = resolveTypeInEveryScope(clean) { return resolved }
        // The rest walk the scope, building a key per level: once per name and scope (an alias's target, looked up
        // with less of the depth budget left, is not memoised).
        guard aliasDepth == 0 else { return resolveTypeInScopes(clean, in: scope, aliasDepth: aliasDepth) }
        let query = TypeQuery(name: clean, scope: scope)
        if let known = resolvedTypes[query] { return known }
        let resolved = resolveTypeInScopes(clean, in: scope, aliasDepth: 0)
        resolvedTypes[query] = resolved
        return resolved
    }

    /// `.some(key or nil)` when `clean` resolves the same in every scope, else nil. Most names are declared once, at
    /// top level (`Color` extended), or not at all (`UIColor`): no scope walk.
    func resolveTypeInEveryScope(_ clean: String) -> String?? {
        guard !clean.containsText("."), aliasLastNames.isEmpty || !aliasLastNames.contains(clean) else { return nil }
        switch typesByLastName[clean] {
        case nil: return .some(nil)
        case let keys? where keys.count == 1 && keys[0] == clean: return .some(clean)
        default: return nil
        }
    }

    private struct TypeQuery: Hashable {
        var name: String
        var scope: [String]
    }
    private var resolvedTypes: [TypeQuery: String?] = [:]

    private func resolveTypeInScopes(_ clean: String, in scope: [String], aliasDepth: Int) -> String? {
        for depth in stride(from: scope.count, through: 0, by: -1) {
            let key = (scope.prefix(depth) + [clean]).joinedWithDots()
            if types[key] != nil { return key }
            // `typealias FontWeight = ElevateTypography.FontWeight`: the aliased type, looked up where the alias is.
            if let target = aliases[key], aliasDepth < 8 {
                return resolveType(target, in: Array(scope.prefix(depth)), aliasDepth: aliasDepth + 1)
            }
        }
        // `PocketCastsServer.ThemeType`: a module-qualified name (modules are not types here) names the type itself.
        if let dot = clean.firstDotIndex, typesByLastName[String(clean[..<dot])] == nil, aliasDepth < 8 {
            return resolveType(String(clean[clean.index(after: dot)...]), in: scope, aliasDepth: aliasDepth + 1)
        }
        return nil
    }

    /// `Color?` -> `Color`, `SwiftUI.Color` stays, `[Color]` is not a type name we use.
    static func baseTypeName(_ written: String) -> String {
        // Most names have no suffix and no `some `: returned as written (this runs at every call and type look-up).
        if let last = written.utf8.last, last != UInt8(ascii: "?"), last != UInt8(ascii: "!"), written.utf8.first != UInt8(ascii: "s") {
            return written
        }
        var t = written
        while t.hasSuffix("?") || t.hasSuffix("!") { t.removeLast() }
        if t.hasPrefix("some ") { t.removeFirst(5) }
        return t
    }

    /// The key lookups use for a type name: the project type, or the name itself for platform types.
    func typeKey(_ name: String, in scope: [String]) -> String {
        let written = expandAlias(name, in: scope)
        return resolveType(written, in: scope) ?? Self.baseTypeName(written)
    }

    /// A typealias's target (`RGBA` -> `(red: Double, ...)`), or the name itself.
    func expandAlias(_ name: String, in scope: [String]) -> String {
        var current = Self.baseTypeName(name)
        for _ in 0..<8 {
            // Most names are no alias's last name (`Color`, `CGFloat`): no scope walk.
            if !current.containsText("."), !aliasLastNames.contains(current) { break }
            var found: String?
            for depth in stride(from: scope.count, through: 0, by: -1) {
                if let target = aliases[(scope.prefix(depth) + [current]).joinedWithDots()] { found = target; break }
            }
            guard let target = found else { break }
            current = Self.baseTypeName(target)
        }
        return current
    }

    static func namespaceKind(_ type: String) -> TokenKind? { namespaceKinds[type] }

    static let namespaceKinds: NameMap<TokenKind> = {
        var result: NameMap<TokenKind> = [:]
        for (kind, names) in namespaces { for name in names { result[name] = kind } }
        return result
    }()

    /// Where members of `type` are looked up: the type, then the interchangeable namespaces of its kind.
    static func lookupOwners(_ type: String) -> [String] {
        namespaceOwners[type] ?? [type]
    }

    static let namespaceOwners: NameMap<[String]> = {
        var result: NameMap<[String]> = [:]
        for (_, names) in namespaces { for name in names { result[name] = [name] + names.filter { $0 != name } } }
        return result
    }()

    /// The asset-catalog token Xcode's generated symbol names (`brandPrimary` -> `Asset.brand-primary`), or nil.
    public func assetToken(symbol: String) -> String? { assetSymbols[symbol].map(\.key) }

    /// `Color("Name")`, `UIColor(named: "Folder/Name")`: the colorset's value, nil when there is no such colorset.
    func assetColor(named name: String) -> Value? {
        let path = ["Asset"] + name.split(separator: "/").map(String.init)
        guard !declarations(owner: path.dropLast().joinedWithDots(), name: path.last ?? "").isEmpty else { return nil }
        return staticValue(owner: Array(path.dropLast()), name: path.last!)
    }

    // MARK: - Entry points

    /// Static members read while `recordingStaticReads` is on, each once, in the order they were first asked for (an
    /// alias before what it names): view code uses them to name the token behind a color it evaluated.
    public private(set) var staticReads: [String] = []
    /// Each of `staticReads` with its place in it.
    private var staticReadOrder: NameMap<Int> = [:]
    public var recordingStaticReads = false {
        didSet {
            staticReads = []
            staticReadOrder = [:]
        }
    }

    /// Where `key` is in `staticReads`; nil when it was not read.
    public func staticReadOrder(of key: String) -> Int? { staticReadOrder[key] }

    /// The value of a static member (or top-level value, or enum case), memoised. Cycles are unknown (`reference`).
    public func staticValue(owner: [String], name: String) -> Value {
        staticValue(ownerKey: owner.joinedWithDots(), name: name)
    }

    /// What evaluates this interpreter's IR: the lowered program and the flat evaluator over it (docs/flat-core-plan.md),
    /// made at the first evaluation. The interpreter keeps the indexes, the memos and the look-ups the evaluator asks.
    var evaluator: FlatEvaluator {
        if let made = madeEvaluator { return made }
        let made = evaluatorPool.take(for: self) ?? FlatEvaluator(program: LoweredProgram(), interpreter: self)
        madeEvaluator = made
        return made
    }
    private var madeEvaluator: FlatEvaluator?
    /// Evaluators this interpreter's workers finished with (`worker()` shares it): a worker takes one with what it has
    /// lowered and planned, so each function is lowered once per thread of work rather than once per worker (prefetch
    /// rounds and every `callEach` make fresh workers).
    private var evaluatorPool = EvaluatorPool()

    deinit { returnEvaluator() }

    /// Gives the evaluator back to the pool, for the next interpreter that evaluates (a theme's graph built on the other
    /// thread) to take with what it lowered: each interpreter that kept its own lowered every function it called again.
    /// An evaluation here later takes one from the pool again.
    func returnEvaluator() {
        guard let madeEvaluator else { return }
        evaluatorPool.put(madeEvaluator)
        self.madeEvaluator = nil
    }

    /// Takes its evaluators from `other`'s pool, and gives them back to it: only for an interpreter over the very same
    /// declarations (a worker, a theme's interpreter), since what they lowered is kept by each function's key and place.
    func sharesEvaluators(with other: Interpreter) {
        evaluatorPool = other.evaluatorPool
    }

    /// The value of a static member already memoised, without noting a read or evaluating anything: safe for several
    /// threads at once while no one evaluates on this interpreter.
    func memoisedStaticValue(_ key: NameKey) -> Value? { startingCache?[key] ?? staticCache[key] }

    /// The value of a static member (or top-level declaration), by its kept keys.
    func staticValue(of declaration: MemberDeclaration) -> Value {
        staticValue(ownerKey: declaration.ownerKey, name: declaration.name, key: NameKey(declaration.key))
    }

    /// `staticValue(owner:name:)` with the owner as its qualified key (`Theme.Colors`), as look-ups have it.
    func staticValue(ownerKey owner: String, name: String) -> Value {
        staticValue(ownerKey: owner, name: name, key: NameKey(memberKey(owner, name)))
    }

    /// A static member read by whatever is being evaluated: the walk's read order, the reader in progress, and the
    /// instance members being evaluated at that reader's level. (Also the token graph's, for a token its workers made
    /// from a memoised value: `TokenGraph.preparedColorTokens`.)
    func noteStaticRead(_ key: NameKey) {
        if recordingStaticReads, staticReadOrder[key] == nil {
            staticReadOrder[key] = staticReads.count
            staticReads.append(key.string)
        }
        if !readsInProgress.isEmpty { readsInProgress[readsInProgress.count - 1].append(key.string) }
        // (Most reads are outside any instance member: the loop's set-up alone was ~45 instructions a read.)
        guard !instanceRecordings.isEmpty else { return }
        for i in instanceRecordings.indices where instanceRecordings[i].level == readsInProgress.count {
            instanceRecordings[i].staticReads.append(key)
        }
    }

    /// `nameKey`: `owner.name` hashed, as a member plan keeps it (made once, not at every look-up; the memo and the read
    /// order are looked up by it).
    func staticValue(ownerKey owner: String, name: String, key nameKey: NameKey) -> Value {
        let key = nameKey.string
        noteStaticRead(nameKey)
        if let cached = startingCache?[nameKey] ?? staticCache[nameKey] { return cached }
        let declaration = declarations(owner: owner, name: name).first { d in
            switch d.kind {
            case .stored, .computed, .enumCase: return true
            default: return false
            }
        }
        guard let declaration else {
            return .unknown(.init(rule: "reference", reason: "\(key) does not name a value", location: SourceLocation(file: "", line: 0, column: 0)))
        }
        if let start = inProgress.firstIndex(of: key) {
            orderDependent = true
            let cycle = (inProgress[start...] + [key]).map { $0 }.joined(separator: " -> ")
            return .unknown(.init(rule: "reference", reason: "cyclic reference: \(cycle)", location: declaration.location))
        }
        if let selected = themeSelection(declaration) {
            staticCache[nameKey] = selected
            return selected
        }
        inProgress.append(key)
        readsInProgress.append([])
        let value = entry { evaluateMember(declaration, selfValue: .type(owner)) }
        inProgress.removeLast()
        let reads = readsInProgress.removeLast()
        if !reads.isEmpty { (staticDependencies[nameKey], readersByKey) = (withoutDuplicates(reads), nil) }
        staticCache[nameKey] = value
        return value
    }

    /// Evaluates static members on all cores before they are asked for one by one, in rounds by what they name: first
    /// those whose value names no other static member (primitives, literal tokens), then those naming only members of
    /// earlier rounds (aliases of primitives, then component tokens of aliases), so each round's workers start from
    /// what the earlier ones memoised and a value many tokens read is evaluated once, not once per worker. In each round
    /// `workers` fresh interpreters over this one's declarations (sharing its indexes) take the keys (owner, name) a
    /// chunk at a time, whichever is free, and their memoised values become this interpreter's. Values are plain and
    /// evaluation is deterministic, so the result is the one sequential evaluation gives (the rounds only order the
    /// work); a worker that met a cycle, the step budget or the depth limit (whose results depend on evaluation order)
    /// contributes nothing, and those keys are evaluated in order later as before.
    /// `declarations[i]` for each `i` of `indices`: the members are passed by index, so that this thread does not retain
    /// each (a cache miss apiece on declarations the readers' cores made) to list them.
    func prefetchStaticValues(_ declarations: [MemberDeclaration], at indices: [Int], workers: Int) {
        // (A fresh interpreter has memoised nothing: every key looked up for nothing was a tenth of the serial steps.)
        let pending = staticCache.isEmpty ? indices : indices.filter { staticCache[declarations[$0].key] == nil }
        guard workers > 1, pending.count >= 2 * workers else {
            // Evaluated one by one as the token graph asks for them: a fresh memo sized for them at once, not rehashed
            // whole at each doubling (a memo taken over by `reuse` is shared, and would be copied).
            if staticCache.isEmpty { staticCache.reserveCapacity(pending.count) }
            return
        }
        let shared = ReadOnly(value: (declarations: declarations, pending: pending))
        // The names hashed on all cores (a tenth of the prefetch's time on one core at 5,000 tokens), numbered in order.
        let names = PrefetchNames(hashes: concurrentMap(pending, workers: workers) { NameKey(shared.value.declarations[$0].name).hash })
        // What each member mentions, on all cores, each core a contiguous share written into lists of its own.
        let shares = (0..<workers).map { pending.count * $0 / workers..<pending.count * ($0 + 1) / workers }
        let mentions = PrefetchMentions(joining: concurrentMap(shares, workers: workers) { share in
            let (declarations, pending) = shared.value
            var mentions = PrefetchMentions()
            mentions.reserveCapacity(share.count)
            for i in share { mentions.note(declarations[pending[i]], among: names) }
            return mentions
        })
        let rounds = Self.prefetchRounds(mentions, names: names)
        // The memo a fresh interpreter adopts in its first round is sized for every round's values: grown by the later
        // rounds, it was rehashed whole on this thread while the workers waited.
        let total = rounds.reduce(0) { $0 + ($1.count >= 2 * workers ? $1.count : 0) }
        for round in rounds where round.count >= 2 * workers {
            let calling = round.reduce(0) { $0 + (mentions.calls[$1] ? 1 : 0) }
            prefetchRound(declarations, at: round.map { pending[$0] }, calling: calling, workers: workers, adoptedCapacity: total)
        }
    }

    /// The pending members' names as integers: the members of each name, and what the members mention among them, are
    /// looked up once. (Only these names can hold a round back, so what a member mentions is kept only when it is one:
    /// an index of every static value's name, built on one core before the prefetch, did the same job.)
    /// A name is known by its hash (`NameKey.hash`), in a table of hashes of its own: no name is compared, nor its string
    /// counted (a `NameMap` of the names cost ~280 instructions a member, looked up and inserted by their strings).
    /// Two names of one hash would be one name here, which only orders the work.
    struct PrefetchNames: Sendable {
        /// Each member's name as its integer.
        let memberIDs: [Int]
        /// How many names there are.
        let count: Int
        /// Open addressing from a hash's top bits: each name's hash and integer (-1: an empty slot).
        private let slots: [(hash: UInt64, id: Int)]
        private let shift: UInt64

        init(_ names: [String]) { self.init(hashes: names.map { NameKey($0).hash }) }

        /// `hashes`: the members' names hashed (`NameKey.hash`), in member order.
        init(hashes: [UInt64]) {
            var bits = 3
            while 1 << bits < 2 * hashes.count { bits += 1 }
            let shift = UInt64(64 - bits)
            var slots = [(hash: UInt64, id: Int)](repeating: (0, -1), count: 1 << bits)
            var memberIDs: [Int] = []
            memberIDs.reserveCapacity(hashes.count)
            var count = 0
            for hash in hashes {
                let slot = Self.slot(of: hash, in: slots, shift: shift)
                if slots[slot].id < 0 {
                    slots[slot] = (hash, count)
                    count += 1
                }
                memberIDs.append(slots[slot].id)
            }
            self.memberIDs = memberIDs
            self.count = count
            self.slots = slots
            self.shift = shift
        }

        /// The integer of the name whose hash is `hash`; nil when no member has that name.
        func id(of hash: UInt64) -> Int? {
            let id = slots[Self.slot(of: hash, in: slots, shift: shift)].id
            return id < 0 ? nil : id
        }

        func id(of name: String) -> Int? { id(of: NameKey(name).hash) }

        /// The slot that holds `hash`, or the empty one where it would go.
        private static func slot(of hash: UInt64, in slots: [(hash: UInt64, id: Int)], shift: UInt64) -> Int {
            var slot = Int(truncatingIfNeeded: hash >> shift)
            while slots[slot].id >= 0, slots[slot].hash != hash { slot = (slot + 1) & (slots.count - 1) }
            return slot
        }
    }

    /// What each pending member's value mentions among the pending members' names (`note`), in member order, all
    /// members' integers in one list: a list per member was an allocation apiece, and a release apiece after the rounds.
    struct PrefetchMentions {
        /// The names' integers, member after member; `notLookedInto` alone for a member whose value is not looked into.
        private(set) var ids: [Int] = []
        /// Where each member's integers end in `ids`.
        private(set) var ends: [Int] = []
        /// Whether each member's value calls something (a function, an initialiser): `prefetchRound` copies the functions
        /// for a round of many such members.
        private(set) var calls: [Bool] = []
        /// Stands for a value not looked into: no round clears it.
        static let notLookedInto = -1

        init() {}

        /// Members' mentions given as lists (nil: not looked into).
        init(_ lists: [[Int]?]) {
            for list in lists {
                ids += list ?? [Self.notLookedInto]
                ends.append(ids.count)
                calls.append(false)
            }
        }

        /// The mentions of consecutive shares of the members, in order.
        init(joining shares: [PrefetchMentions]) {
            reserveCapacity(shares.reduce(0) { $0 + $1.ends.count })
            ids.reserveCapacity(shares.reduce(0) { $0 + $1.ids.count })
            for share in shares {
                let offset = ids.count
                ids += share.ids
                for end in share.ends { ends.append(offset + end) }
                calls += share.calls
            }
        }

        mutating func reserveCapacity(_ members: Int) {
            ends.reserveCapacity(members)
            calls.reserveCapacity(members)
        }

        /// The integers `member` mentions.
        func names(of member: Int) -> ArraySlice<Int> { ids[(member == 0 ? 0 : ends[member - 1])..<ends[member]] }

        /// Notes the pending members' names (`names`) a static member's initial value (or single-expression body)
        /// mentions, as a plain name or the end of a member chain: other static members it could be reading
        /// (`ElevateAliases.Action.fill`, `brandRed`); `notLookedInto` for a body it does not look into. An approximation
        /// of what evaluating it reads (calls, implicit members and closures are not followed): it only orders work.
        /// (A name mentioned twice is listed twice: the rounds only ask whether each is placed.)
        mutating func note(_ declaration: MemberDeclaration, among names: PrefetchNames) {
            var callsSomething = false
            func collect(_ e: Expr) {
                switch e.kind {
                case .name(let name): if let id = names.id(of: name) { ids.append(id) }
                case .member(let base, let name):
                    if let id = names.id(of: name) { ids.append(id) }
                    collect(base)
                case .call(let callee, let arguments):
                    callsSomething = true
                    collect(callee)
                    for a in arguments { collect(a.value) }
                case .tuple(let elements): for a in elements { collect(a.value) }
                case .ternary(let a, let b, let c): collect(a); collect(b); collect(c)
                case .binary(_, let a, let b): collect(a); collect(b)
                case .prefix(_, let a): collect(a)
                default: break
                }
            }
            switch declaration.kind {
            case .stored(let initial?): collect(initial)
            case .computed(let body) where body.count == 1:
                switch body[0].kind {
                case .expression(let e), .return(let e?): collect(e)
                default: ids.append(Self.notLookedInto)
                }
            default: ids.append(Self.notLookedInto)
            }
            ends.append(ids.count)
            calls.append(callsSomething)
        }
    }

    /// Rounds of at most `maximumPrefetchRounds`: indexes of members whose named members (`mentions`, as `names`'
    /// integers) all belong to earlier rounds. A name stands for every pending member of that name; what is not placed
    /// by the last round joins it.
    static func prefetchRounds(_ mentions: PrefetchMentions, names: PrefetchNames) -> [[Int]] {
        var level = [Int?](repeating: nil, count: names.memberIDs.count)
        for round in 0..<maximumPrefetchRounds - 1 {
            // The highest round of each name's members so far; a member not yet placed blocks its name.
            var highest = [Int](repeating: -1, count: names.count)
            for (i, id) in names.memberIDs.enumerated() { highest[id] = max(highest[id], level[i] ?? .max) }
            for i in names.memberIDs.indices where level[i] == nil {
                if mentions.names(of: i).allSatisfy({ $0 != PrefetchMentions.notLookedInto && highest[$0] < round }) { level[i] = round }
            }
        }
        var rounds = [[Int]](repeating: [], count: maximumPrefetchRounds)
        for i in names.memberIDs.indices { rounds[level[i] ?? maximumPrefetchRounds - 1].append(i) }
        return rounds
    }

    /// Primitives, aliases, component tokens, and the rest: deeper chains are rare, and each round costs its workers'
    /// start.
    static let maximumPrefetchRounds = 4

    /// One round of `prefetchStaticValues`: `declarations[i]` for each `i` of `members` on `workers` interpreters that
    /// start from this one's memoised values. `calling`: how many of the members' values call something.
    private func prefetchRound(_ declarations: [MemberDeclaration], at members: [Int], calling: Int, workers: Int, adoptedCapacity: Int) {
        let memos = ConcurrentResults<(values: NameMap<Value>, dependencies: NameMap<[String]>)>(count: workers)
        let queue = WorkQueue(count: members.count, chunk: 16)
        // A fresh interpreter adopts one worker's memos (below), so each is sized for what it will hold; otherwise for a
        // fair share. Growing them a doubling at a time rehashed every key each time.
        let adopting = staticCache.isEmpty && staticDependencies.isEmpty && unmergedDependencies.isEmpty
        parallelPerform(iterations: workers) { w in
            // Made on the worker's own thread, which lets it go at the end too: its copies of the functions and their
            // owners' tables (`ownCallables`), freed on this thread after the round, were a serial step between rounds.
            // It shares this interpreter's indexes (only read while the round runs) and starts from its memoised values.
            let worker = worker()
            // Worth its copies only when each function is called many times in the round (a token helper at 5,000 tokens);
            // a design system of many helpers for fewer tokens (elevate-ios: 238 for 300-800 a round) paid more to copy them,
            // and a short round (the daemon's after an edit) would pay for copying the owners' tables. Members that call
            // nothing are not counted: a round of component tokens that name earlier rounds' values calls no function.
            if calling >= max(Self.ownedCallablesRoundSize, 8 * callables.count) { worker.ownCallables() }
            let share = adopting ? max(adoptedCapacity, members.count) : members.count / workers
            worker.staticCache.reserveCapacity(share)
            worker.staticDependencies.reserveCapacity(adopting ? members.count : share)
            while let chunk = queue.take() {
                for member in members[chunk] { _ = worker.staticValue(of: declarations[member]) }
            }
            // Done reading this interpreter's memos: without this reference, merging into them below would copy them.
            worker.startingCache = nil
            guard !worker.orderDependent else { return memos.set(w, ([:], [:])) }
            // A worker's own memos are what this round added (the rest it read from this interpreter's). Handed over,
            // not shared, so that the one adopted below is not copied when it is merged into.
            let memo = (worker.staticCache, worker.staticDependencies)
            (worker.staticCache, worker.staticDependencies) = ([:], [:])
            memos.set(w, memo)
        }
        var shares = memos.takeValues()
        // A fresh interpreter's first round adopts the largest share rather than merging it into empty memos: merging
        // retains every key and value, objects the other core made, each a cache miss on this one.
        if adopting, let largest = shares.indices.max(by: { (shares[$0]?.values.count ?? -1) < (shares[$1]?.values.count ?? -1) }),
           let adopted = shares[largest].take() {
            (staticCache, staticDependencies, readersByKey) = (adopted.values, adopted.dependencies, nil)
        }
        staticCache.reserveCapacity(staticCache.count + shares.reduce(0) { $0 + ($1?.values.count ?? 0) })
        readersByKey = nil
        // The values merged by the keys as the workers hashed them; the reads kept as the workers made them, merged when
        // an edit asks for them (`mergeDependencies`): a one-shot audit never does. (Merged beside the values, on the
        // other core, they were a third of a round's merging.)
        for share in shares {
            guard let share else { continue }
            staticCache.merge(share.values) { existing, _ in existing }
            if !share.dependencies.isEmpty { unmergedDependencies.append(share.dependencies) }
        }
    }

    /// Prefetch workers' `staticDependencies`, in the order they were made, not yet merged into this interpreter's.
    private var unmergedDependencies: [NameMap<[String]>] = []

    /// Merges `unmergedDependencies` as they would have been merged at once (a key's first reads kept): whatever reads
    /// `staticDependencies` as a whole does this first.
    private func mergeDependencies() {
        for dependencies in unmergedDependencies { staticDependencies.merge(dependencies) { existing, _ in existing } }
        unmergedDependencies = []
    }

    /// The fewest members whose values call something a prefetch round has when its workers copy the functions they
    /// call (`ownCallables`).
    static let ownedCallablesRoundSize = 512

    /// Makes this interpreter's functions and initialisers its own (`MemberDeclaration.deepCopy`), with the tables of
    /// their owners' members: a prefetch worker calls a token helper (`Color.adaptive`) for thousands of tokens and looks
    /// its owner's members up for each, and the other core's worker does the same, so every reference counted to the one
    /// shared helper and table moved their cache lines between the cores (swift_retain's CPU samples in a cold 5k audit
    /// rose by two thirds from one core to two). Run on the worker's own thread.
    func ownCallables() {
        for (owner, name) in callables {
            guard let declared = members[owner]?[name] else { continue }
            members[owner]?[name] = declared.map { $0.isFunction || $0.isInitializer ? $0.deepCopy() : $0 }
        }
    }

    /// An interpreter over the same declarations for another thread, starting from what this one has memoised (read
    /// from it, not copied): prefetch rounds and view code run on several. Nothing is shared after this one met a
    /// cycle or a limit, whose results depend on evaluation order.
    func worker() -> Interpreter {
        let worker = Interpreter(indexesOf: self, configuration: configuration)
        worker.sharesEvaluators(with: self)
        if !orderDependent {
            worker.startingCache = startingCache.map { $0.merging(staticCache) { _, own in own } } ?? staticCache
        }
        return worker
    }

    /// Takes over what `previous` memoised for static members, except `changed` ones and every one that read them
    /// (directly or through others). The caller guarantees everything else the values could depend on is unchanged:
    /// the same configuration, types, functions and instance members (`TokenGraph.Program.changedInPlace`).
    /// Nothing is taken when `previous` met a cycle or a limit, whose results depend on evaluation order.
    func reuse(_ previous: Interpreter, invalidating changed: Set<String>) {
        guard !previous.orderDependent, configuration == previous.configuration, staticCache.isEmpty else { return }
        previous.mergeDependencies()
        var invalid = changed
        if !changed.isEmpty {
            let readers = previous.readersOfEachStaticMember()
            var queue = Array(changed)
            while let key = queue.popLast() {
                for reader in readers[key] ?? [] where invalid.insert(reader).inserted { queue.append(reader) }
            }
        }
        staticCache = previous.staticCache
        (staticDependencies, readersByKey) = (previous.staticDependencies, nil)
        for key in invalid {
            staticCache[key] = nil
            staticDependencies[key] = nil
        }
        invalidated = invalid
    }

    /// The other way round from `staticDependencies`: the static members that read each one. Made when an edit asks
    /// `reuse` what it reached (or ahead of it, `prepareForEdits`), not kept up at every read; dropped whenever
    /// `staticDependencies` changes.
    private func readersOfEachStaticMember() -> [String: [String]] {
        if let readersByKey { return readersByKey }
        mergeDependencies()
        let readers = readersOfEachKey(staticDependencies.lazy.map { ($0.key, $0.value) })
        readersByKey = readers
        return readers
    }
    private var readersByKey: [String: [String]]?

    /// Makes what `reuse` asks of this interpreter after an edit ahead of it (`TokenGraph.prepareForEdits`).
    func prepareForEdits() { _ = readersOfEachStaticMember() }

    /// The static members `reuse` did not take over (the changed ones and all that read them); nil when it took nothing.
    private(set) var invalidated: Set<String>?

    /// Runs `body` as a reader of its own (the token graph adding one declaration's tokens): returns the static members
    /// it read, directly or through functions and instances, as a static member's reads are recorded.
    func recordingReads(_ body: () -> Void) -> [String] {
        readsInProgress.append([])
        body()
        return withoutDuplicates(readsInProgress.removeLast())
    }

    /// Static members a worker read for this interpreter's reader in progress (`callEach`), noted as if read here.
    func noteReads(_ keys: [String]) {
        for key in keys { noteStaticRead(NameKey(key)) }
    }

    /// Calls `function` once per argument list, on all cores when there are many (a token function or initialiser with a
    /// case per token: DesignResourcesKit's initialisers evaluate ~500 colors, 76,000 instructions each, which all ran
    /// on one core while the graph read its declarations). Each core has a worker interpreter that starts from what this
    /// one has memoised; the static members each call read are noted here in call order, as calling here would. In order
    /// here when a worker met a cycle or a limit (results that depend on order), or when calls are few.
    func callEach(_ function: MemberDeclaration, _ argumentLists: [[EvaluatedArgument]], selfValue: Value) -> [Value] {
        let workers = configuration.workers
        let inOrder = { argumentLists.map { self.call(function, arguments: $0, selfValue: selfValue) } }
        guard workers > 1, argumentLists.count >= 16, !orderDependent else { return inOrder() }
        let results = ConcurrentResults<(value: Value, reads: [String])>(count: argumentLists.count)
        let orderDependentWorkers = ConcurrentResults<Bool>(count: workers)
        let queue = WorkQueue(count: argumentLists.count, chunk: 4)
        let shared = ReadOnly(value: (interpreter: self, function: function, argumentLists: argumentLists, selfValue: selfValue))
        parallelPerform(iterations: workers) { w in
            let worker = shared.value.interpreter.worker()
            // The function in a copy of this worker's own, for the reason `ownCallables` gives.
            let function = shared.value.function.deepCopy()
            while let chunk = queue.take() {
                for i in chunk {
                    var value = Value.none
                    let reads = worker.recordingReads {
                        value = worker.call(function, arguments: shared.value.argumentLists[i], selfValue: shared.value.selfValue)
                    }
                    results.set(i, (value, reads))
                }
            }
            orderDependentWorkers.set(w, worker.orderDependent)
        }
        guard !orderDependentWorkers.values.contains(true) else { return inOrder() }
        return results.takeValues().map { result in
            noteReads(result!.reads)
            return result!.value
        }
    }

    /// How many static members have a memoised value (benchmarks and tests of reuse).
    public var memoisedStaticCount: Int { staticCache.count }

    /// Stored properties declared with a theme selector type, by name (names declared so more than once with
    /// different selectors are left out), and the theme's value for each.
    lazy var themeSelectionsByName: [String: Value] = {
        guard !configuration.theme.isEmpty else { return [:] }
        var result: [String: Value] = [:]
        var ambiguous: Set<String> = []
        for byName in members.values {
            for d in byName.values.flatMap({ $0 }) {
                guard let value = themeSelection(d) else { continue }
                if let existing = result[d.name], existing != value { ambiguous.insert(d.name) }
                result[d.name] = value
            }
        }
        for name in ambiguous { result[name] = nil }
        return result
    }()

    /// The theme's value for a stored property whose declared type selects the theme (`var activeTheme: ThemeType`,
    /// `static var current: ReaderPalette`, `static var palette: PaletteDefinition.Type`), else nil.
    func themeSelection(_ declaration: MemberDeclaration) -> Value? {
        guard !configuration.theme.isEmpty, case .stored = declaration.kind, let key = selectorType(of: declaration) else { return nil }
        return configuration.theme[key]
    }

    /// The project type a member's declared type names, seen through `any`, optionals and metatypes
    /// (`any PaletteDefinition.Type?` -> `PaletteDefinition`): what a theme selection is declared with.
    public func selectorType(of declaration: MemberDeclaration) -> String? {
        guard var written = declaration.type else { return nil }
        // Most types are written plainly: their first and last bytes rule out every form below, without the character-wise
        // `hasPrefix`/`hasSuffix` (this runs for every stored member of a project with themes configured).
        if let first = written.utf8.first, let last = written.utf8.last, first != UInt8(ascii: "("), first != UInt8(ascii: "a"),
           last != UInt8(ascii: "?"), last != UInt8(ascii: "!"), last != UInt8(ascii: "e") {
            return resolveType(written, in: declaration.owner)
        }
        if written.hasPrefix("(any "), written.hasSuffix(")") { written = String(written.dropFirst(5).dropLast()) }
        if written.hasPrefix("any ") { written.removeFirst(4) }
        while written.hasSuffix("?") || written.hasSuffix("!") { written.removeLast() }
        if written.hasSuffix(".Type") { written.removeLast(5) }
        return resolveType(written, in: declaration.owner)
    }

    /// A member evaluated with `self` bound (an instance for instance members): an initial value or a computed body by the
    /// evaluator.
    func evaluateMember(_ declaration: MemberDeclaration, selfValue: Value?) -> Value {
        switch declaration.kind {
        case .stored(_?), .computed:
            return evaluator.evaluateMember(declaration, selfValue: selfValue)
        case .stored(nil):
            return .unknown(.init(rule: "parse", reason: "\(declaration.name) has no value", location: declaration.location,
                                  kind: declaration.type.flatMap(Self.kindOfType)))
        case .enumCase(let payload, _):
            if payload.isEmpty { return .enumCase(type: declaration.ownerKey, name: declaration.name, payload: []) }
            return .unknown(.init(rule: "parse", reason: "\(declaration.name) needs its payload", location: declaration.location))
        case .function, .initializer:
            return .unknown(.init(rule: "parse", reason: "\(declaration.name) is a function", location: declaration.location))
        }
    }

    /// Calls a function (a token function such as `color(for: .text)`) with evaluated arguments. Top-level entry:
    /// resets the budget.
    public func call(_ function: MemberDeclaration, arguments: [EvaluatedArgument], selfValue: Value) -> Value {
        entry { evaluator.call(function, arguments: arguments, selfValue: selfValue) }
    }

    /// A member evaluated with `self` bound, top-level entry (members of component groups).
    public func value(of declaration: MemberDeclaration, selfValue: Value) -> Value {
        entry { evaluateMember(declaration, selfValue: selfValue) }
    }

    func entry(_ body: () -> Value) -> Value {
        if entries == 0 {
            // The budget and depth of this entry, kept by the evaluator that counts them.
            let evaluator = self.evaluator
            evaluator.steps = configuration.stepBudget
            evaluator.callDepth = 0
        }
        entries += 1
        defer { entries -= 1 }
        return body()
    }

    /// Computed instance properties of a type (and of the protocols it conforms to), in declaration order.
    public func computedProperties(of type: String) -> [MemberDeclaration] {
        ([type] + protocols(of: type)).flatMap { (members[$0] ?? [:]).values.flatMap { $0 } }
            .filter { !$0.isStatic && { if case .computed = $0.kind { return true } else { return false } }($0) }
            .sorted { $0.location < $1.location }
    }

    /// An expression evaluated with locals and `self` bound, in a type's scope, top-level entry (view code's colors,
    /// fonts and conditions). `expected` types implicit members (`Color` for `.foregroundStyle(.brand)`).
    public func evaluate(_ expr: Expr, locals: [String: Value], selfValue: Value?, scope: [String], expected: String? = nil) -> Value {
        entry { evaluator.evaluateExpression(expr, locals: locals, selfValue: selfValue, scope: scope, expected: expected) }
    }

    /// An instance member of a value (a computed property of a struct token, `rawValue`), top-level entry.
    public func member(of value: Value, named name: String, at location: SourceLocation) -> Value {
        entry { memberOf(value, name, at: location, frame: Frame(scope: [], selfValue: nil)) }
    }

    // MARK: - Frames

    struct Frame {
        var locals = Locals()
        /// The type whose members are in scope, outermost first.
        var scope: [String]
        var selfValue: Value?
        init(scope: [String], selfValue: Value?, locals: Locals = Locals()) {
            self.scope = scope
            self.selfValue = selfValue
            self.locals = locals
        }
    }

    func unknown(_ reason: String, _ location: SourceLocation, rule: String = "parse", kind: TokenKind? = nil) -> Value {
        .unknown(.init(rule: rule, reason: reason, location: location, kind: kind))
    }

    static func kindOfType(_ type: String) -> TokenKind? {
        namespaceKind(baseTypeName(type))
    }

    /// Numbers and colors cross the Color/UIColor and CGFloat/Double boundaries freely; an unknown keeps the declared kind.
    func coerce(_ value: Value, to type: String?, at location: SourceLocation) -> Value {
        guard let type, case .unknown(var u) = value, u.kind == nil, let kind = Self.kindOfType(type) else { return value }
        u.kind = kind
        return .unknown(u)
    }

    // MARK: - Expressions

    /// `tupleElements`, parsed once per type (a palette of `(red:green:blue:opacity:)` primitives passes hundreds).
    func tupleShape(_ type: String) -> [(label: String?, type: String)] {
        if let known = tupleShapes[type] { return known }
        let shape = Self.tupleElements(type)
        tupleShapes[type] = shape
        return shape
    }
    private var tupleShapes: [String: [(label: String?, type: String)]] = [:]

    static func tupleElements(_ type: String) -> [(label: String?, type: String)] {
        guard type.hasPrefix("("), type.hasSuffix(")") else { return [] }
        // Foundation's `trimmingCharacters(in: .whitespaces)` (spaces and tabs, as here) made the runtime find
        // `CharacterSet`'s metadata by name on first use, scanning every conformance record (~2 M instructions).
        func trimmed(_ text: Substring) -> String {
            func isBlank(_ c: Character) -> Bool {
                c == "\t" || c.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator }
            }
            guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) }) else { return "" }
            return String(text[first...last])
        }
        return type.dropFirst().dropLast().split(separator: ",").map { part in
            let pieces = part.split(separator: ":", maxSplits: 1).map(trimmed)
            return pieces.count == 2 ? (pieces[0], pieces[1]) : (nil, pieces[0])
        }
    }

    func truth(_ value: Value, at location: SourceLocation) -> Result<Bool, Value.Unknown> {
        switch value {
        case .bool(let b): return .success(b)
        case .unknown(let u): return .failure(u)
        default: return .failure(.init(rule: "parse", reason: "a condition is \(value.typeDescription), not a Bool", location: location))
        }
    }

    // MARK: Names

    func lookup(_ name: String, _ frame: Frame, at location: SourceLocation) -> Value {
        if let local = frame.locals[name] { return local }
        if name == "self" { return frame.selfValue ?? unknown("self outside a type", location) }
        if name == "Self" { return .type(frame.scope.joinedWithDots()) }
        if case .instance(let type, let fields)? = frame.selfValue {
            if let field = fields[name] {
                noteFieldRead(type, name, field)
                return field
            }
            if let found = instanceMember(type, name, self: frame.selfValue!, at: location) { return found }
        }
        if let selfValue = frame.selfValue, selfValue.tokenKind != nil,
           let value = BuiltIns.member(of: selfValue, name, interpreter: self, at: location) {
            // Inside `extension UIFont { func withWeight(...) }`: `pointSize`, `fontDescriptor` are members of self.
            return value
        }
        if case .enumCase(let type, _, _)? = frame.selfValue, !type.isEmpty {
            if name == "rawValue" { return memberOf(frame.selfValue!, name, at: location, frame: frame) }
            if let found = instanceMember(type, name, self: frame.selfValue!, at: location) { return found }
        }
        // Static members of the enclosing types, innermost first, then top level.
        let key = NameKey(name)
        let mayBeMember = memberNames.contains(key) || nestedTypeNames.contains(key)
        for depth in stride(from: mayBeMember ? frame.scope.count : -1, through: 0, by: -1) {
            let owner = Array(frame.scope.prefix(depth))
            if let value = staticMember(owner.joinedWithDots(), name, at: location, frame: frame, builtIns: false) { return value }
        }
        return typeInScope(name, frame.scope) ?? unknown("\(name) does not name a token", location, rule: "reference")
    }

    /// `lookup`'s last steps: a type in scope, a platform type.
    private func typeInScope(_ name: String, _ scope: [String]) -> Value? {
        if let type = resolveType(name, in: scope) { return .type(type) }
        if BuiltIns.isPlatformType(name) { return .type(name) }
        return nil
    }

    /// What `lookup` answers for `name` in `scope` when it depends on these alone: the frame has no locals and `self` is a
    /// type or none, so only a static member could take the name before a type does; nil when one could (a member or
    /// nested type of that name is declared), for `self`/`Self`, and for a name that names nothing.
    func typeNamed(_ name: String, in scope: [String]) -> Value? {
        let key = NameKey(name)
        guard name != "self", name != "Self", !memberNames.contains(key), !nestedTypeNames.contains(key) else { return nil }
        return typeInScope(name, scope)
    }

    /// `Type.name`: a project member (any color namespace for colors), a nested type, an asset symbol, or a built-in.
    func staticMember(_ type: String, _ name: String, at location: SourceLocation, frame: Frame, builtIns: Bool = true) -> Value? {
        switch memberPlan(type, name) {
        case .staticValue(let owner, let key): return staticValue(ownerKey: owner, name: name, key: key)
        case .nestedType(let nested): return .type(nested)
        case .protocolMember(let declaration): return evaluateMember(declaration, selfValue: .type(type))
        case .none: break
        }
        guard builtIns else { return nil }
        if Self.namespaceKind(type) == .color || type.isEmpty {
            if let asset = assetSymbols[name] { return staticValue(of: asset) }
        }
        return BuiltIns.staticMember(type, name, interpreter: self, at: location)
    }

    /// Where the project declares `Type.name`, decided from the indexes once per type and name: a value, a nested type
    /// or a protocol extension's static member (`none`: not the project's). `Color.brand` asks each color namespace.
    enum MemberPlan {
        case staticValue(owner: String, key: NameKey)
        case nestedType(String)
        case protocolMember(MemberDeclaration)
        case none
    }
    /// A type and a member name, hashed as the two names' kept hashes combined (`NameKey`).
    private struct MemberQuery: Hashable {
        let type: NameKey
        let name: NameKey
        init(type: String, name: String) { (self.type, self.name) = (NameKey(type), NameKey(name)) }
        func hash(into hasher: inout Hasher) { hasher.combine(combined) }
        func _rawHashValue(seed: Int) -> Int { NameKey.finalMix(combined, seed: seed) }
        private var combined: UInt64 { name.hash(after: type.hash) }
    }
    private var memberPlans: [MemberQuery: MemberPlan] = [:]

    private func memberPlan(_ type: String, _ name: String) -> MemberPlan {
        let query = MemberQuery(type: type, name: name)
        if let known = memberPlans[query] { return known }
        var plan = MemberPlan.none
        // Each name hashed once (the type's and the member's are the query's: `lookupOwners` starts with the type).
        for (i, owner) in Self.lookupOwners(type).enumerated() {
            let qualified = NameKey(memberKey(owner, name))
            let found = members[i == 0 ? query.type : NameKey(owner)]?[query.name] ?? []
            if found.contains(where: { d in
                switch d.kind {
                case .stored, .computed, .enumCase: return d.isStatic || d.owner.isEmpty
                default: return false
                }
            }) {
                plan = .staticValue(owner: owner, key: qualified)
                break
            }
            if types[qualified] != nil {
                plan = .nestedType(qualified.string)
                break
            }
        }
        if case .none = plan, let declaration = protocolStaticDeclaration(type, name) { plan = .protocolMember(declaration) }
        memberPlans[query] = plan
        return plan
    }

    /// A static member declared in a protocol extension the type conforms to.
    private func protocolStaticMember(_ type: String, _ name: String) -> Value? {
        protocolStaticDeclaration(type, name).map { evaluateMember($0, selfValue: .type(type)) }
    }

    private func protocolStaticDeclaration(_ type: String, _ name: String) -> MemberDeclaration? {
        for proto in protocols(of: type) where !declarations(owner: proto, name: name).isEmpty {
            if let d = declarations(owner: proto, name: name).first(where: { $0.isStatic }) { return d }
        }
        return nil
    }

    func implicitMember(_ name: String, _ frame: Frame, expected: String?, at location: SourceLocation) -> Value {
        if let expected {
            let type = typeKey(expected, in: frame.scope)
            if let value = staticMember(type, name, at: location, frame: frame) { return value }
            if BuiltIns.isPlatformType(type) && Self.namespaceKind(type) == nil { return .enumCase(type: "", name: name, payload: []) }
        }
        // Untyped context: a project color/number/font member, an enclosing scope's member, then a platform color or enum case.
        for kind in [TokenKind.color, .number, .font] where isDeclared(name) {
            // `staticMember` looks in every type of the namespace; only protocol extensions depend on the type asked.
            let owners = Self.namespaces[kind]!
            if let v = staticMember(owners[0], name, at: location, frame: frame, builtIns: false) { return v }
            for owner in owners.dropFirst() { if let v = protocolStaticMember(owner, name) { return v } }
        }
        for depth in stride(from: frame.scope.count, through: 1, by: -1) where isDeclared(name) {
            let owner = frame.scope.prefix(depth).joinedWithDots()
            // A member being evaluated cannot be its own argument (`static let title = font.relativeTo(.title)`): Swift
            // would type `.title` as something else, here a platform enum case.
            if inProgress.contains(memberKey(owner, name)) { continue }
            if let v = staticMember(owner, name, at: location, frame: frame, builtIns: false) { return v }
        }
        if let asset = assetSymbols[name] { return staticValue(of: asset) }
        if let color = BuiltIns.staticMember("Color", name, interpreter: self, at: location), color.unknown == nil,
           !BuiltIns.platformEnumCases.contains(name) {
            return color
        }
        return .enumCase(type: "", name: name, payload: [])
    }

    /// `value.name`.
    func memberOf(_ base: Value, _ name: String, at location: SourceLocation, frame: Frame) -> Value {
        // `Theme.sharedTheme.activeTheme` where the shared instance cannot be built (its init reads the settings):
        // a property declared with the theme type reads the theme being evaluated all the same.
        if !configuration.theme.isEmpty, base.unknown != nil || base == .none, let selected = themeSelectionsByName[name] {
            return selected
        }
        switch base {
        case .unknown: return base
        case .type(let type):
            if name == "self" { return base }
            return staticMember(type, name, at: location, frame: frame)
                ?? unknown("\(type).\(name) does not name a token", location, rule: "reference",
                           kind: Self.namespaceKind(type))
        case .instance(let type, let fields) where types[type] != nil:
            if !configuration.theme.isEmpty, let d = declarations(owner: type, name: name).first(where: { !$0.isStatic }),
               let selected = themeSelection(d) { return selected }
            if let field = fields[name] {
                noteFieldRead(type, name, field)
                return field
            }
            return instanceMember(type, name, self: base, at: location)
                ?? unknown("\(type) has no member \(name)", location, rule: "reference")
        case .enumCase(let type, let caseName, let payload):
            if name == "rawValue", !type.isEmpty {
                if let d = declarations(owner: type, name: caseName).first, case .enumCase(_, let raw) = d.kind {
                    if let raw { return evaluator.evaluateExpression(raw, locals: [:], selfValue: nil, scope: d.owner, expected: nil) }
                    return .string(caseName)
                }
            }
            if !type.isEmpty, let found = instanceMember(type, name, self: base, at: location) { return found }
            if type.isEmpty, let v = BuiltIns.member(of: base, name, interpreter: self, at: location) { return v }
            _ = payload
            return unknown("\(type.isEmpty ? "" : type).\(caseName) has no member \(name)", location, rule: "reference")
        case .tuple(let labels, let values):
            if let i = labels.firstIndex(of: name) { return values[i] }
            if let i = Int(name), i < values.count { return values[i] }
            return unknown("the tuple has no element \(name)", location)
        default:
            if let value = BuiltIns.member(of: base, name, interpreter: self, at: location) { return value }
            for owner in base.tokenKind.flatMap({ Self.namespaces[$0] }) ?? [] {
                if let value = instanceMember(owner, name, self: base, at: location) { return value }
            }
            return unknown("cannot read .\(name) of \(base.typeDescription)", location)
        }
    }

    /// A computed instance property of a project type (or a protocol extension it conforms to) with `self` bound.
    func instanceMember(_ type: String, _ name: String, self selfValue: Value, at location: SourceLocation) -> Value? {
        for owner in [type] + protocols(of: type) {
            for d in declarations(owner: owner, name: name) where !d.isStatic {
                switch d.kind {
                case .computed, .stored:
                    return memoisedInstanceMember(d, self: selfValue, at: location)
                default: continue
                }
            }
        }
        return nil
    }

    /// One call deeper, bounded (recursion in a design system is a bug; its value is unknown).
    func withCall(at location: SourceLocation, _ body: () -> Value) -> Value {
        guard evaluator.callDepth < configuration.maxCallDepth else {
            orderDependent = true
            return unknown("calls nest more than \(configuration.maxCallDepth) deep (recursion?)", location)
        }
        evaluator.callDepth += 1
        defer { evaluator.callDepth -= 1 }
        return body()
    }

    // MARK: Operators

    /// The rest of `binary`, both sides evaluated: an unknown side, numbers (division by zero unknown), integer bit
    /// operators, string `+`.
    func arithmetic(_ op: String, _ l: Value, _ r: Value, at location: SourceLocation) -> Value {
        if case .unknown = l { return l }
        if case .unknown = r { return r }
        switch (l, r) {
        case (.number(let a), .number(let b)):
            switch op {
            case "+": return .number(a + b)
            case "-": return .number(a - b)
            case "*": return .number(a * b)
            case "/": return b == 0 ? unknown("division by zero", location) : .number(a / b)
            case "%": return b == 0 ? unknown("division by zero", location) : .number(a.truncatingRemainder(dividingBy: b))
            case "<": return .bool(a < b)
            case "<=": return .bool(a <= b)
            case ">": return .bool(a > b)
            case ">=": return .bool(a >= b)
            case ">>", "<<", "&", "|", "^":
                guard let x = Int64(exactly: a.rounded(.towardZero)), let y = Int64(exactly: b.rounded(.towardZero)) else { break }
                switch op {
                case ">>": return .number(Double(y >= 64 ? 0 : x >> y))
                case "<<": return .number(Double(y >= 64 ? 0 : x << y))
                case "&": return .number(Double(x & y))
                case "|": return .number(Double(x | y))
                default: return .number(Double(x ^ y))
                }
            default: break
            }
        case (.string(let a), .string(let b)) where op == "+": return .string(a + b)
        default: break
        }
        return unknown("cannot evaluate \(l.typeDescription) \(op) \(r.typeDescription)", location)
    }

    func equal(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.enumCase(let t1, let n1, let p1), .enumCase(let t2, let n2, let p2)):
            // `.dark` written without a type matches `UIUserInterfaceStyle.dark`.
            return n1 == n2 && (t1.isEmpty || t2.isEmpty || t1 == t2) && p1 == p2
        default:
            if case .instance(let type, _) = a { noteWholeRead(type) }
            if case .instance(let type, _) = b { noteWholeRead(type) }
            return a == b
        }
    }

    // MARK: Calls

    func functions(_ owner: String, _ name: String) -> [MemberDeclaration] {
        let declared = declarations(owner: owner, name: name)
        // Usually every declaration of the name is a function (overloads): the index's array as it is, not a copy.
        return declared.allSatisfy(\.isFunction) ? declared : declared.filter(\.isFunction)
    }

    func enumCaseDeclarations(_ owner: String, _ name: String) -> [MemberDeclaration] {
        declarations(owner: owner, name: name).filter { if case .enumCase = $0.kind { return true } else { return false } }
    }

    /// What `Type.name(args)` calls, decided once per type and name (a helper such as `Color.adaptive(...)` is called
    /// for every token; each owner of a namespace was asked for functions and enum cases at every call).
    enum StaticCallPlan {
        case functions([MemberDeclaration], owner: String)
        case enumCase(MemberDeclaration, owner: String)
        case protocolFunctions([MemberDeclaration])
        case builtIn
    }
    private var staticCallPlans: [MemberQuery: StaticCallPlan] = [:]

    func staticCallPlan(_ type: String, _ name: String) -> StaticCallPlan {
        let query = MemberQuery(type: type, name: name)
        if let known = staticCallPlans[query] { return known }
        let plan: StaticCallPlan = {
            for owner in Self.lookupOwners(type) {
                let candidates = functions(owner, name)
                if !candidates.isEmpty { return .functions(candidates, owner: owner) }
                if let c = enumCaseDeclarations(owner, name).first { return .enumCase(c, owner: owner) }
            }
            for proto in protocols(of: type) {
                let candidates = functions(proto, name).filter(\.isStatic)
                if !candidates.isEmpty { return .protocolFunctions(candidates) }
            }
            return .builtIn
        }()
        staticCallPlans[query] = plan
        return plan
    }

    /// What `Type(args)` may call, listed once per type and interpreter (`Color(...)` is built several times for every
    /// adaptive token): the project's initialisers, grouped by owner in look-up order (`lookupOwners`; usually none: a
    /// platform type, a struct with its memberwise initialiser), and whether the type is a project struct or class.
    struct ConstructPlan {
        let type: String
        let initializers: [[MemberDeclaration]]
        let hasMemberwiseInitializer: Bool
    }
    private var constructPlans: NameMap<ConstructPlan> = [:]
    /// Plans by the name called (`Color(...)`), for names no function has and every scope resolves alike.
    private var constructorCalls: NameMap<ConstructPlan> = [:]

    func constructPlan(_ type: String) -> ConstructPlan {
        if let known = constructPlans[type] { return known }
        let kind = types[type]?.kind
        let plan = ConstructPlan(
            type: type,
            initializers: Self.lookupOwners(type).filter(typesWithInitializers.contains).map { declarations(owner: $0, name: "init") },
            hasMemberwiseInitializer: kind == .struct || kind == .class)
        constructPlans[type] = plan
        return plan
    }

    /// Stored properties that have initial values, evaluated (they need no initialiser).
    func defaultFields(_ type: String) -> NameMap<Value> {
        var fields: NameMap<Value> = [:]
        for property in storedProperties(of: type) {
            if case .stored(let initial?) = property.kind {
                fields[property.name] = evaluator.evaluateExpression(initial, locals: [:], selfValue: nil, scope: property.owner,
                                                                    expected: property.type)
            }
        }
        return fields
    }

    static func labelsMatch(_ parameters: [Parameter], _ arguments: [CallArgument]) -> Bool {
        var index = 0
        for parameter in parameters {
            if index < arguments.count, arguments[index].label == parameter.label {
                guard plausible(arguments[index].value, for: parameter.type) else { return false }
                index += 1
            } else if parameter.defaultValue == nil {
                return false
            }
        }
        return index == arguments.count
    }

    private var spareArgumentLists: [[EvaluatedArgument]] = []

    /// Rules out overloads the type checker would never pick: a closure for a non-function parameter, a string for a
    /// number, a number for a string.
    static func plausible(_ argument: Expr, for type: String?) -> Bool {
        guard let type else { return true }
        // A string for a `String` (a token helper's hex, a name): the usual case, decided without the look-ups below.
        if case .string = argument.kind, type == "String" { return true }
        let base = baseTypeName(type)
        switch argument.kind {
        case .closure: return type.containsText("->")
        case .string: return namespaceKind(base) != .number && !type.containsText("->")
        case .number: return base != "String" && !type.containsText("->")
        default: return true
        }
    }

    /// False when a value certainly cannot be passed as `type` (a color for an integer, a number for a color).
    static func fits(_ value: Value, _ type: String?) -> Bool {
        guard let type, let kind = kindOfType(type) else { return true }
        switch value {
        case .color: return kind == .color
        case .number: return kind == .number
        case .font: return kind == .font
        case .string, .closure, .tuple: return false
        default: return true
        }
    }

    /// The parameter types `function`'s arguments are passed as: when the call labels its arguments as the parameters are
    /// labelled, in order (the usual call), the declaration's own list of types, not a list made for the call.
    static func argumentTypes(_ function: MemberDeclaration, _ arguments: [CallArgument]) -> [String?] {
        let parameters = function.parameters
        guard parameters.count == arguments.count, parameters.indices.allSatisfy({ parameters[$0].label == arguments[$0].label }) else {
            return argumentTypes(parameters, arguments)
        }
        return function.parameterTypes
    }

    /// The declared type of the parameter each argument binds to.
    static func argumentTypes(_ parameters: [Parameter], _ arguments: [CallArgument]) -> [String?] {
        var result: [String?] = []
        result.reserveCapacity(arguments.count)
        var p = 0
        for argument in arguments {
            while p < parameters.count, parameters[p].label != argument.label { p += 1 }
            result.append(p < parameters.count ? parameters[p].type : nil)
            p += 1
        }
        return result
    }

    func score(_ function: MemberDeclaration, _ values: [EvaluatedArgument]) -> Int {
        let types = Self.argumentTypes(function.parameters, values.map { CallArgument(label: $0.label, value: Expr(.nilLiteral, at: function.location)) })
        var score = 0
        for (type, value) in zip(types, values.map(\.value)) {
            guard let type else { continue }
            let base = Self.baseTypeName(type)
            switch value {
            case .string where base == "String": score += 2
            case .color where Self.namespaceKind(base) == .color: score += 2
            case .number where Self.namespaceKind(base) == .number: score += 2
            case .font where Self.namespaceKind(base) == .font: score += 2
            case .instance(let t, _) where t.hasSuffix(base): score += 2
            case .enumCase(let t, _, _) where t.hasSuffix(base): score += 2
            default: score -= 1
            }
        }
        return score
    }

    /// A closure value applied to arguments (a color provider `BuiltIns.dynamicColor` runs per appearance).
    func apply(_ closure: Value.Closure, _ arguments: some Collection<Value>, expected: String? = nil, at location: SourceLocation) -> Value {
        evaluator.apply(closure, Array(arguments), expected: expected, at: location)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

/// Who read each key, from what each reader read (`reads`: reader and keys), readers in the order given: the inverse
/// the interpreter and the token graph make when an edit asks what it reached.
func readersOfEachKey<Reader, Keys: Sequence<String>>(_ reads: some Sequence<(Reader, Keys)>) -> [String: [Reader]] {
    var readers: [String: [Reader]] = [:]
    for (reader, keys) in reads {
        for key in keys { readers[key, default: []].append(reader) }
    }
    return readers
}

/// `keys` in their order, each once: a member reads a few, so a short list is searched rather than hashed.
func withoutDuplicates(_ keys: [String]) -> [String] {
    guard keys.count > 1 else { return keys }
    if keys.count > 16 {
        var seen: Set<String> = []
        return keys.filter { seen.insert($0).inserted }
    }
    var unique: [String] = []
    unique.reserveCapacity(keys.count)
    for key in keys where !unique.contains(key) { unique.append(key) }
    return unique
}
