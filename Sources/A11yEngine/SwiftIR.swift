/// A small intermediate form of Swift, as much as design systems use to compute their tokens: declarations
/// (types, members, enum cases, functions and initialisers with labels and defaults) and expressions and
/// statements, every node located. Readers build it from syntax (with `#if` already resolved); the interpreter
/// evaluates it. Nothing here knows SwiftUI or UIKit: those facts live in `BuiltIns`.
public struct Expr: Hashable, Sendable {
    public indirect enum Kind: Hashable, Sendable {
        case number(Double)
        case string(String)
        case bool(Bool)
        case nilLiteral
        /// An identifier: a local, a member of an enclosing type, a type, a top-level value.
        case name(String)
        /// `.member`, typed by the context it is used in.
        case implicitMember(String)
        /// `base.member` (also `base?.member`: optionals are transparent).
        case member(Expr, String)
        /// `callee(args) { trailing }`; trailing closures are arguments too (label nil, or their own label).
        case call(Expr, [CallArgument])
        case tuple([CallArgument])
        case closure(parameters: [String], body: [Stmt])
        case ternary(Expr, Expr, Expr)
        case binary(String, Expr, Expr)
        case prefix(String, Expr)
        /// `if`/`switch` used as an expression: the body's value is the value of the branch taken.
        case statement(Stmt)
        /// A value given by a data reader (asset catalog, design-token JSON), already known.
        case constant(Value)
        /// A value given per appearance by a data reader; missing appearances fall back as iOS does.
        case perAppearance([Appearance: Expr])
        /// Syntax the IR does not model; evaluating it gives an unknown value with this description.
        case unsupported(String)
    }

    public var kind: Kind
    public var location: SourceLocation

    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// The dotted path of a plain name or member chain (`Color.appText` -> ["Color", "appText"]), else nil.
    public var path: [String]? {
        // Innermost member first, reversed at the end: one array (the chain made a new one at each level).
        var names: [String] = []
        names.reserveCapacity(4)
        var expr = self
        while true {
            switch expr.kind {
            case .name(let n):
                names.append(n)
                names.reverse()
                return names
            case .member(let base, let m):
                names.append(m)
                expr = base
            default: return nil
            }
        }
    }
}

public struct CallArgument: Hashable, Sendable {
    public var label: String?
    public var value: Expr
    public init(label: String?, value: Expr) {
        self.label = label
        self.value = value
    }
}

public struct Stmt: Hashable, Sendable {
    public indirect enum Kind: Hashable, Sendable {
        case expression(Expr)
        /// `let`/`var`: names bound (a tuple pattern binds several), with an initial value if written.
        case binding(names: [String], value: Expr?)
        /// `target = value`, `target += value` (operator without `=`, nil for plain assignment).
        case assign(target: Expr, operator: String?, value: Expr)
        case `return`(Expr?)
        case `if`(conditions: [Condition], then: [Stmt], else: [Stmt]?)
        case `guard`(conditions: [Condition], else: [Stmt])
        case `switch`(subject: Expr, cases: [SwitchCase])
        case unsupported(String)
    }

    public var kind: Kind
    public var location: SourceLocation

    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }
}

public enum Condition: Hashable, Sendable {
    case expression(Expr)
    /// `if let x = e` / `if let x`: binds when `e` is not nil.
    case optionalBinding(name: String, value: Expr)
    /// `if case .a(let x) = e`.
    case matches(Pattern, Expr)
}

public struct SwitchCase: Hashable, Sendable {
    /// Empty for `default:` (and `@unknown default:`).
    public var patterns: [Pattern]
    public var guardExpression: Expr?
    public var body: [Stmt]
    public init(patterns: [Pattern], guardExpression: Expr?, body: [Stmt]) {
        self.patterns = patterns
        self.guardExpression = guardExpression
        self.body = body
    }
    public var isDefault: Bool { patterns.isEmpty }
}

public indirect enum Pattern: Hashable, Sendable {
    case wildcard
    /// `let x` / `var x`: matches anything and binds it.
    case binding(String)
    /// `.name(sub, ...)` or `Type.name(...)`: an enum case, with payload patterns when written.
    case enumCase(String, [Pattern]?)
    case tuple([Pattern])
    /// Any other expression, compared with `==` (numbers, strings, ranges are not modelled).
    case value(Expr)
}

// MARK: - Declarations

/// A type or an extension of one, with what the interpreter needs to know about it.
public struct TypeDeclaration: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case `struct`, `class`, `enum`, `protocol`, `extension`, actor, `typealias` }
    public var kind: Kind
    /// Enclosing type names then the type's own: `["ElevateTokens", "Palette"]`; for an extension, the extended type.
    public var qualifiedName: [String]
    /// Protocols and superclass named in the inheritance clause, as written.
    public var inheritance: [String]
    /// For a typealias, the type it names as written (`(red: Double, green: Double)`, `Color`).
    public var aliasOf: String?
    public var location: SourceLocation

    public init(kind: Kind, qualifiedName: [String], inheritance: [String], aliasOf: String? = nil, location: SourceLocation) {
        self.kind = kind
        self.qualifiedName = qualifiedName
        self.inheritance = inheritance
        self.aliasOf = aliasOf
        self.location = location
    }
}

public struct Parameter: Hashable, Sendable {
    /// The argument label callers write; nil for `_`.
    public var label: String?
    /// The name used inside the body.
    public var name: String
    /// The type as written (`Color`, `(red: Double, green: Double)`), used to type implicit members in arguments.
    public var type: String?
    public var defaultValue: Expr?
    public init(label: String?, name: String, type: String?, defaultValue: Expr?) {
        self.label = label
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}

/// A member of a type (or a top-level declaration, with an empty owner).
public struct MemberDeclaration: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// `let x = e`, `var x: T = e`, `let x: T` (no value: set by an initialiser).
        case stored(initial: Expr?)
        /// `var x: T { body }`.
        case computed(body: [Stmt])
        case function(parameters: [Parameter], body: [Stmt])
        case initializer(parameters: [Parameter], body: [Stmt])
        /// `case name(payload labels)` with a raw value when written.
        case enumCase(payload: [Parameter], rawValue: Expr?)
    }

    /// The fields, behind one reference: declarations are copied wherever they are looked up, sorted and filtered, and
    /// a copy of seven fields was seven reference counts (most of the interpreter's look-ups). Copied on write.
    private final class Storage: @unchecked Sendable {
        var owner: [String]
        var name: String
        var isStatic: Bool
        var kind: Kind { didSet { (parameters, parameterTypes) = Self.parameters(of: kind) } }
        var type: String?
        var attributes: [String]
        var location: SourceLocation
        /// `owner` and `owner.name` joined with dots, made with them: members are keyed by them at every look-up.
        private(set) var ownerKey = "", key = ""
        /// The parameters `kind` has, kept beside it: a call reads them three times, and taking them out of `kind` each
        /// time counted references to the body too.
        private(set) var parameters: [Parameter]
        /// Their types, in order: the types of a call's arguments when it labels them as the parameters are labelled
        /// (`Interpreter.argumentTypes`), without a list made at each call.
        private(set) var parameterTypes: [String?]

        init(owner: [String], name: String, isStatic: Bool, kind: Kind, type: String?, attributes: [String], location: SourceLocation,
             ownerKey: String? = nil) {
            // The parameters and keys from the arguments, before they are stored: `kind` is then moved into its property
            // rather than copied, and the names are not read back out of it (`updateKeys`).
            (parameters, parameterTypes) = Self.parameters(of: kind)
            let ownerKey = ownerKey ?? MemberDeclaration.ownerKey(owner)
            key = memberKey(ownerKey, name)
            self.ownerKey = ownerKey
            (self.owner, self.name, self.isStatic, self.kind) = (owner, name, isStatic, kind)
            (self.type, self.attributes, self.location) = (type, attributes, location)
        }

        static func parameters(of kind: Kind) -> ([Parameter], [String?]) {
            switch kind {
            case .function(let p, _), .initializer(let p, _), .enumCase(let p, _): return (p, p.map(\.type))
            default: return ([], [])
            }
        }

        func updateKeys(ownerKey known: String? = nil) {
            ownerKey = known ?? MemberDeclaration.ownerKey(owner)
            key = memberKey(ownerKey, name)
        }

        func copy() -> Storage {
            Storage(owner: owner, name: name, isStatic: isStatic, kind: kind, type: type, attributes: attributes, location: location)
        }
    }
    private var storage: Storage

    /// The declaration's storage object: the same for every copy of it until one is changed (the flat core keeps what it
    /// lowered of a function by it).
    var identity: ObjectIdentifier { ObjectIdentifier(storage) }

    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The owning type's qualified name (empty at top level).
    public var owner: [String] {
        get { storage.owner }
        set { let storage = unique(); storage.owner = newValue; storage.updateKeys() }
    }
    public var name: String {
        get { storage.name }
        set { let storage = unique(); storage.name = newValue; storage.updateKeys() }
    }
    /// `owner` joined with dots (`Theme.Colors`; empty at top level), made once.
    public var ownerKey: String { storage.ownerKey }
    /// `qualifiedName` joined with dots (`Theme.Colors.brand`), made once.
    public var key: String { storage.key }
    public var isStatic: Bool { get { storage.isStatic } set { unique().isStatic = newValue } }
    public var kind: Kind { get { storage.kind } set { unique().kind = newValue } }
    /// A function (not an initialiser): asked of every declaration a call's name finds.
    public var isFunction: Bool { if case .function = storage.kind { return true } else { return false } }
    public var isInitializer: Bool { if case .initializer = storage.kind { return true } else { return false } }
    /// The declared type as written (`Color`, `CGFloat`, `ToneColors`), or a function's return type.
    public var type: String? { get { storage.type } set { unique().type = newValue } }
    /// Attribute names (`ScaledMetric`, `ViewBuilder`).
    public var attributes: [String] { get { storage.attributes } set { unique().attributes = newValue } }
    public var location: SourceLocation { get { storage.location } set { unique().location = newValue } }

    /// `ownerKey`, when given, is `owner` joined with dots as the caller already has it (a reader makes it once for all
    /// the members of a type, where each declaration joined and allocated it again).
    public init(owner: [String], name: String, isStatic: Bool, kind: Kind, type: String?, attributes: [String] = [],
                location: SourceLocation, ownerKey: String? = nil) {
        assert(ownerKey == nil || ownerKey == Self.ownerKey(owner))
        storage = Storage(owner: owner, name: name, isStatic: isStatic, kind: kind, type: type, attributes: attributes, location: location,
                          ownerKey: ownerKey)
    }

    /// The key members of `owner` have as their `ownerKey`.
    public static func ownerKey(_ owner: [String]) -> String { owner.joinedWithDots() }

    public static func == (a: MemberDeclaration, b: MemberDeclaration) -> Bool {
        a.storage === b.storage || (a.name == b.name && a.location == b.location && a.owner == b.owner && a.isStatic == b.isStatic
            && a.type == b.type && a.attributes == b.attributes && a.kind == b.kind)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(owner)
        hasher.combine(name)
        hasher.combine(isStatic)
        hasher.combine(kind)
        hasher.combine(type)
        hasher.combine(attributes)
        hasher.combine(location)
    }

    /// `owner` and `name`: appended to a copy of `owner`, one allocation (`owner + [name]` made two; the token graph asks
    /// once per token).
    public var qualifiedName: [String] {
        var path = owner
        path.append(name)
        return path
    }

    public var parameters: [Parameter] { storage.parameters }
    /// The parameters' types, in order.
    public var parameterTypes: [String?] { storage.parameterTypes }

    /// An equal declaration that shares no object with this one, down to its expressions' nodes and its arrays of names
    /// (strings aside): for a thread that calls it thousands of times, so that counting references to it does not move
    /// cache lines between cores (`Interpreter.ownCallables`).
    func deepCopy() -> MemberDeclaration {
        var copy = IRRewrite(expression: { e in
            // The rewrite makes every node with children again; leaves (each in a box of its own: `Kind` is indirect) and
            // a closure's parameter names it passes on as they are.
            switch e.kind {
            case .closure(let parameters, let body): return Expr(.closure(parameters: parameters.map { $0 }, body: body), at: e.location)
            case .name(let name): return Expr(.name(name), at: e.location)
            case .implicitMember(let name): return Expr(.implicitMember(name), at: e.location)
            case .string(let text): return Expr(.string(text), at: e.location)
            case .number(let number): return Expr(.number(number), at: e.location)
            case .bool(let bool): return Expr(.bool(bool), at: e.location)
            case .constant(let value): return Expr(.constant(value), at: e.location)
            case .unsupported(let reason): return Expr(.unsupported(reason), at: e.location)
            default: return e
            }
        }).apply(self)
        copy.owner = owner.map { $0 }
        copy.attributes = attributes.map { $0 }
        return copy
    }
}

// MARK: - Rewriting

/// A change applied to every node of a declaration: `location` to every expression's and statement's location,
/// then `expression` to every expression, children first. The workspace patches the IR of a file whose edit stayed
/// inside one literal with it, instead of parsing the file again.
public struct IRRewrite {
    public var location: (SourceLocation) -> SourceLocation
    public var expression: (Expr) -> Expr

    public init(location: @escaping (SourceLocation) -> SourceLocation = { $0 }, expression: @escaping (Expr) -> Expr = { $0 }) {
        self.location = location
        self.expression = expression
    }

    public func apply(_ d: MemberDeclaration) -> MemberDeclaration {
        var d = d
        switch d.kind {
        case .stored(let initial): d.kind = .stored(initial: initial.map(apply))
        case .computed(let body): d.kind = .computed(body: body.map(apply))
        case .function(let parameters, let body): d.kind = .function(parameters: parameters.map(apply), body: body.map(apply))
        case .initializer(let parameters, let body): d.kind = .initializer(parameters: parameters.map(apply), body: body.map(apply))
        case .enumCase(let payload, let rawValue): d.kind = .enumCase(payload: payload.map(apply), rawValue: rawValue.map(apply))
        }
        return d
    }

    func apply(_ p: Parameter) -> Parameter {
        var p = p
        p.defaultValue = p.defaultValue.map(apply)
        return p
    }

    func apply(_ a: CallArgument) -> CallArgument { CallArgument(label: a.label, value: apply(a.value)) }

    public func apply(_ e: Expr) -> Expr {
        var e = e
        e.location = location(e.location)
        switch e.kind {
        case .number, .string, .bool, .nilLiteral, .name, .implicitMember, .constant, .unsupported: break
        case .member(let base, let name): e.kind = .member(apply(base), name)
        case .call(let callee, let arguments): e.kind = .call(apply(callee), arguments.map(apply))
        case .tuple(let elements): e.kind = .tuple(elements.map(apply))
        case .closure(let parameters, let body): e.kind = .closure(parameters: parameters, body: body.map(apply))
        case .ternary(let condition, let then, let otherwise): e.kind = .ternary(apply(condition), apply(then), apply(otherwise))
        case .binary(let op, let left, let right): e.kind = .binary(op, apply(left), apply(right))
        case .prefix(let op, let operand): e.kind = .prefix(op, apply(operand))
        case .statement(let s): e.kind = .statement(apply(s))
        case .perAppearance(let values): e.kind = .perAppearance(values.mapValues(apply))
        }
        return expression(e)
    }

    func apply(_ s: Stmt) -> Stmt {
        var s = s
        s.location = location(s.location)
        switch s.kind {
        case .expression(let e): s.kind = .expression(apply(e))
        case .binding(let names, let value): s.kind = .binding(names: names, value: value.map(apply))
        case .assign(let target, let op, let value): s.kind = .assign(target: apply(target), operator: op, value: apply(value))
        case .return(let value): s.kind = .return(value.map(apply))
        case .if(let conditions, let then, let otherwise):
            s.kind = .if(conditions: conditions.map(apply), then: then.map(apply), else: otherwise.map { $0.map(apply) })
        case .guard(let conditions, let otherwise): s.kind = .guard(conditions: conditions.map(apply), else: otherwise.map(apply))
        case .switch(let subject, let cases): s.kind = .switch(subject: apply(subject), cases: cases.map(apply))
        case .unsupported: break
        }
        return s
    }

    func apply(_ c: Condition) -> Condition {
        switch c {
        case .expression(let e): return .expression(apply(e))
        case .optionalBinding(let name, let value): return .optionalBinding(name: name, value: apply(value))
        case .matches(let pattern, let value): return .matches(apply(pattern), apply(value))
        }
    }

    func apply(_ c: SwitchCase) -> SwitchCase {
        SwitchCase(patterns: c.patterns.map(apply), guardExpression: c.guardExpression.map(apply), body: c.body.map(apply))
    }

    func apply(_ p: Pattern) -> Pattern {
        switch p {
        case .wildcard: return p
        case .binding(let name): return .binding(name)  // in a box of its own (`deepCopy`)
        case .enumCase(let name, let payload): return .enumCase(name, payload.map { $0.map(apply) })
        case .tuple(let elements): return .tuple(elements.map(apply))
        case .value(let e): return .value(apply(e))
        }
    }
}
