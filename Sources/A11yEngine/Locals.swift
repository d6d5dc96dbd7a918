/// The local variables of an interpreter frame (parameters, bindings, a closure's captures), by name. A frame has a
/// few, so they are kept in a list searched by name: every call made a dictionary and hashed each name it bound or
/// looked up, and a short name compares faster than it hashes. Equality ignores order, as a dictionary's does.
public struct Locals: Hashable, Sendable {
    /// Name and value side by side in one array: a frame is made at every call and closure application, and two arrays
    /// (names, values) were two allocations each time. A struct, not a tuple, for the reason `EvaluatedArgument` is one.
    private struct Binding {
        var name: String
        var value: Value
    }
    private var bindings: [Binding] = []
    /// A closure's captures when it is applied, shared with the closure, under `bindings` (which shadow them): applying a
    /// closure copied every capture into a new array first, twice for every adaptive token (a provider per appearance).
    private var captured: [Binding] = []

    public init() {}

    public init(_ dictionary: [String: Value]) {
        bindings.reserveCapacity(dictionary.count)
        for (name, value) in dictionary { bindings.append(Binding(name: name, value: value)) }
    }

    /// The locals of a closure's application: its captures, under the bindings the application adds.
    public init(capturing captures: Locals) {
        // A closure made inside another closure's application captured two levels: they are made one here.
        captured = captures.captured.isEmpty ? captures.bindings : captures.flattened
    }

    /// Every binding once, captures first (in their order), then the names bound over them: the order a single list
    /// had when captures were copied into it and the application's bindings set or appended.
    private var flattened: [Binding] {
        guard !captured.isEmpty else { return bindings }
        var all = captured
        for binding in bindings {
            if let index = Self.index(of: binding.name, in: all) { all[index].value = binding.value } else { all.append(binding) }
        }
        return all
    }

    public var count: Int { flattened.count }
    public var isEmpty: Bool { bindings.isEmpty && captured.isEmpty }
    public var keys: [String] { flattened.map(\.name) }

    public mutating func reserveCapacity(_ capacity: Int) { bindings.reserveCapacity(capacity) }

    /// Lengths first: most names a frame is asked for are not its own (`Color`, a helper's name), and comparing two
    /// lengths is inline where comparing two different strings is a call into the runtime.
    private static func index(of name: String, in list: [Binding]) -> Int? {
        let length = name.utf8.count
        return list.firstIndex { $0.name.utf8.count == length && $0.name == name }
    }

    /// The value bound to `name`; setting nil unbinds it.
    public subscript(name: String) -> Value? {
        get {
            if let index = Self.index(of: name, in: bindings) { return bindings[index].value }
            return Self.index(of: name, in: captured).map { captured[$0].value }
        }
        set {
            switch (Self.index(of: name, in: bindings), newValue) {
            case (let index?, let value?): bindings[index].value = value
            case (nil, let value?): bindings.append(Binding(name: name, value: value))
            case (_, nil):
                // Unbinding must not uncover a capture of the same name: the two levels are made one first.
                if Self.index(of: name, in: captured) != nil {
                    bindings = flattened
                    captured = []
                }
                if let index = Self.index(of: name, in: bindings) { bindings.remove(at: index) }
            }
        }
    }

    public static func == (lhs: Locals, rhs: Locals) -> Bool {
        let all = lhs.flattened
        return all.count == rhs.count && all.allSatisfy { rhs[$0.name] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, as equality is: the bindings' own hashes combined commutatively.
        let all = flattened
        var combined = 0
        for binding in all {
            var one = Hasher()
            one.combine(binding.name)
            one.combine(binding.value)
            combined ^= one.finalize()
        }
        hasher.combine(all.count)
        hasher.combine(combined)
    }
}
