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
        switch kind {
        case .name(let n): return [n]
        case .member(let base, let m): return base.path.map { $0 + [m] }
        default: return nil
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

    /// The owning type's qualified name (empty at top level).
    public var owner: [String]
    public var name: String
    public var isStatic: Bool
    public var kind: Kind
    /// The declared type as written (`Color`, `CGFloat`, `ToneColors`), or a function's return type.
    public var type: String?
    /// Attribute names (`ScaledMetric`, `ViewBuilder`).
    public var attributes: [String]
    public var location: SourceLocation

    public init(owner: [String], name: String, isStatic: Bool, kind: Kind, type: String?, attributes: [String] = [],
                location: SourceLocation) {
        self.owner = owner
        self.name = name
        self.isStatic = isStatic
        self.kind = kind
        self.type = type
        self.attributes = attributes
        self.location = location
    }

    public var qualifiedName: [String] { owner + [name] }

    public var parameters: [Parameter] {
        switch kind {
        case .function(let p, _), .initializer(let p, _), .enumCase(let p, _): return p
        default: return []
        }
    }
}
