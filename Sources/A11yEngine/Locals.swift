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

    public init() {}

    public init(_ dictionary: [String: Value]) {
        bindings.reserveCapacity(dictionary.count)
        for (name, value) in dictionary { bindings.append(Binding(name: name, value: value)) }
    }

    public var count: Int { bindings.count }
    public var isEmpty: Bool { bindings.isEmpty }
    public var keys: [String] { bindings.map(\.name) }

    public mutating func reserveCapacity(_ capacity: Int) { bindings.reserveCapacity(capacity) }

    /// Lengths first: most names a frame is asked for are not its own (`Color`, a helper's name), and comparing two
    /// lengths is inline where comparing two different strings is a call into the runtime.
    private func index(of name: String) -> Int? {
        let length = name.utf8.count
        return bindings.firstIndex { $0.name.utf8.count == length && $0.name == name }
    }

    /// The value bound to `name`; setting nil unbinds it.
    public subscript(name: String) -> Value? {
        get { index(of: name).map { bindings[$0].value } }
        set {
            switch (index(of: name), newValue) {
            case (let index?, let value?): bindings[index].value = value
            case (nil, let value?): bindings.append(Binding(name: name, value: value))
            case (let index?, nil): bindings.remove(at: index)
            case (nil, nil): break
            }
        }
    }

    public static func == (lhs: Locals, rhs: Locals) -> Bool {
        lhs.count == rhs.count && lhs.bindings.allSatisfy { rhs[$0.name] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, as equality is: the bindings' own hashes combined commutatively.
        var combined = 0
        for binding in bindings {
            var one = Hasher()
            one.combine(binding.name)
            one.combine(binding.value)
            combined ^= one.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
