/// What the interpreter computes. "Unknown, because ..." is a value (as in SIL's constant evaluator), not an error:
/// it flows through expressions so that one unreadable primitive is reported once, where it is.
///
/// The large cases are boxed (`indirect`; a closure is an object of its own); numbers, strings, tuples and types are
/// held in the value itself, so that a string literal or a number evaluated makes no box on the heap and a copy of one
/// counts no reference (a string of up to 15 bytes, a helper's hex argument, is held inline).
public enum Value: Hashable, Sendable {
    case number(Double)
    case bool(Bool)
    case string(String)
    case none
    indirect case color(AppearanceColor)
    indirect case font(FontValue)
    /// An enum case of a project type (`type` set) or of a platform enum (`type` empty: `.bold`, `.body`).
    indirect case enumCase(type: String, name: String, payload: [Value])
    case tuple(labels: [String?], values: [Value])
    /// A struct or class instance of a project type: its stored properties by name.
    indirect case instance(type: String, fields: NameMap<Value>)
    case closure(Closure)
    /// A type used as a value: `Palette.self`, the base of a static member access.
    case type(String)
    /// The traits a dynamic color provider is called with, for one appearance.
    indirect case traits(Traits)
    indirect case unknown(Unknown)

    public struct Unknown: Hashable, Sendable, Error {
        /// `parse` (cannot evaluate) or `reference` (a name that names nothing, a cycle).
        public var rule: String
        public var reason: String
        public var location: SourceLocation
        /// What the value would have been, when the construct says (`Color(x)` is a color even if `x` is unknown).
        public var kind: TokenKind?
        public init(rule: String, reason: String, location: SourceLocation, kind: TokenKind? = nil) {
            self.rule = rule
            self.reason = reason
            self.location = location
            self.kind = kind
        }
    }

    /// A closure value: an object, so that taking it out of a value or passing it on counts one reference, not one for
    /// each of its five fields (a color provider is passed and applied for every adaptive token).
    public final class Closure: Hashable, Sendable {
        public let parameters: [String]
        public let body: [Stmt]
        public let captured: Locals
        /// The type scope the closure was written in (for member lookup).
        public let scope: [String]
        public let selfValue: Value?

        /// Where the evaluator made it, when it did: its evaluator applies it again from its definition, with no body
        /// lowered again (a provider read from a memoised instance member is applied once per instance).
        let origin: ClosureOrigin?

        public convenience init(parameters: [String], body: [Stmt], captured: Locals, scope: [String], selfValue: Value?) {
            self.init(parameters: parameters, body: body, captured: captured, scope: scope, selfValue: selfValue, origin: nil)
        }

        init(parameters: [String], body: [Stmt], captured: Locals, scope: [String], selfValue: Value?, origin: ClosureOrigin?) {
            (self.parameters, self.body, self.captured, self.scope, self.selfValue) = (parameters, body, captured, scope, selfValue)
            self.origin = origin
        }

        // Equal as the struct it was: field by field.
        public static func == (a: Closure, b: Closure) -> Bool {
            a === b || (a.parameters == b.parameters && a.body == b.body && a.captured == b.captured && a.scope == b.scope
                        && a.selfValue == b.selfValue)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(parameters)
            hasher.combine(body)
            hasher.combine(captured)
            hasher.combine(scope)
            hasher.combine(selfValue)
        }
    }

    public struct Traits: Hashable, Sendable {
        public var appearance: Appearance
        public var idiom: String
    }

    public var unknown: Unknown? { if case .unknown(let u) = self { return u } else { return nil } }

    public var number: Double? { if case .number(let n) = self { return n } else { return nil } }

    /// The token kind of a value, when it is one a token can have.
    public var tokenKind: TokenKind? {
        switch self {
        case .color: return .color
        case .number: return .number
        case .font: return .font
        case .string: return .string
        case .unknown(let u): return u.kind
        default: return nil
        }
    }

    /// The value as the rest of the engine sees a token, nil for values that are not token values.
    public var tokenValue: TokenValue? {
        switch self {
        case .color(let c): return .color(c)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .font(let f): return .font(f)
        case .enumCase(_, let name, let payload) where payload.isEmpty: return .enumCase(name)
        default: return nil
        }
    }

    /// Short description for messages.
    public var typeDescription: String {
        switch self {
        case .number: return "a number"
        case .bool: return "a Bool"
        case .string: return "a string"
        case .none: return "nil"
        case .color: return "a color"
        case .font: return "a font"
        case .enumCase(let t, let n, _): return "\(t.isEmpty ? "" : t).\(n)"
        case .tuple: return "a tuple"
        case .instance(let t, _): return "a \(t)"
        case .closure: return "a closure"
        case .type(let t): return "the type \(t)"
        case .traits: return "traits"
        case .unknown: return "an unknown value"
        }
    }
}

/// A call's argument once evaluated. A struct, not a `(label:, value:)` tuple: the runtime destroys an array of tuples
/// through their metadata, element by element (a twentieth of evaluating a large token file), a struct's by its own code.
public struct EvaluatedArgument {
    public var label: String?
    public var value: Value
    public init(label: String?, value: Value) {
        self.label = label
        self.value = value
    }
}
