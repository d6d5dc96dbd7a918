/// The local variables of an interpreter frame (parameters, bindings, a closure's captures), by name. A frame has a
/// few, so they are kept in a list searched by name: every call made a dictionary and hashed each name it bound or
/// looked up, and a short name compares faster than it hashes. Equality ignores order, as a dictionary's does.
public struct Locals: Hashable, Sendable {
    private var names: [String] = []
    private var values: [Value] = []

    public init() {}

    public init(_ dictionary: [String: Value]) {
        names.reserveCapacity(dictionary.count)
        values.reserveCapacity(dictionary.count)
        for (name, value) in dictionary {
            names.append(name)
            values.append(value)
        }
    }

    public var count: Int { names.count }
    public var isEmpty: Bool { names.isEmpty }
    public var keys: [String] { names }

    public mutating func reserveCapacity(_ capacity: Int) {
        names.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// The value bound to `name`; setting nil unbinds it.
    public subscript(name: String) -> Value? {
        get { names.firstIndex(of: name).map { values[$0] } }
        set {
            switch (names.firstIndex(of: name), newValue) {
            case (let index?, let value?): values[index] = value
            case (nil, let value?):
                names.append(name)
                values.append(value)
            case (let index?, nil):
                names.remove(at: index)
                values.remove(at: index)
            case (nil, nil): break
            }
        }
    }

    public static func == (lhs: Locals, rhs: Locals) -> Bool {
        lhs.count == rhs.count && zip(lhs.names, lhs.values).allSatisfy { rhs[$0] == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, as equality is: the bindings' own hashes combined commutatively.
        var combined = 0
        for (name, value) in zip(names, values) {
            var binding = Hasher()
            binding.combine(name)
            binding.combine(value)
            combined ^= binding.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
