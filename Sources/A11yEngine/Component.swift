/// A styled component: `enum NativePickerStyling { struct Colors {...} struct Layout {...} struct Typography {...} }`.
public struct Component: Hashable, Sendable {
    public enum Group: String, Hashable, Sendable, Codable, CaseIterable {
        case colors = "Colors", layout = "Layout", typography = "Typography"

        /// `Group(rawValue:)`, the name compared with each group's in turn (the string switch searched a table of the
        /// names, ~160 instructions for each token `Component.all` looks at).
        static func named(_ name: String) -> Group? {
            if name == "Colors" { return .colors }
            if name == "Layout" { return .layout }
            if name == "Typography" { return .typography }
            return nil
        }
    }

    public struct Property: Hashable, Sendable {
        public var group: Group
        public var name: String
        /// Key into the token graph: `NativePickerStyling.Colors.label`.
        public var qualifiedName: String
        public var location: SourceLocation
        /// The token the property names directly (`Color.appTextPrimary` -> `Color.appTextPrimary`), nil for literals.
        public var referencedToken: String?
    }

    public var name: String
    public var location: SourceLocation
    public var properties: [Property]

    public func properties(in group: Group) -> [Property] { properties.filter { $0.group == group } }

    /// Components found among the graph's tokens, ordered by name.
    public static func all(declarations: [ComponentDeclaration], graph: TokenGraph) -> [Component] {
        // The components by their number, and each name's number (a later declaration of a name replaces the earlier).
        // By number and hashed as bytes (`NameMap`): a dictionary of components by name hashed each name with SipHash
        // at each look-up and moved each component as it grew.
        var components: [Component] = []
        var numbers = NameMap<Int>()
        components.reserveCapacity(declarations.count)
        numbers.reserveCapacity(declarations.count)
        for declaration in declarations {
            let component = Component(name: declaration.name, location: declaration.location, properties: [])
            if let number = numbers[declaration.name] { components[number] = component } else {
                numbers[declaration.name] = components.count
                components.append(component)
            }
        }
        // Each token that is a property of a declared component, with the token it names. Resolving those names is most
        // of this (serial) phase; the graph is only read here, so a large graph's tokens are looked at on all cores, in
        // the graph's order, and the properties appended in that order as before. The owner is found by its number: the
        // grouping below, on one thread, then hashes no name.
        // (A struct, not a tuple: the runtime destroys an array of tuples through their metadata.)
        struct Found { var owner: Int; var property: Property }
        let shared = ReadOnly(value: (owners: numbers, graph: graph))
        var found = concurrentMap(graph.tokens.positions, workers: graph.workersForEveryToken) { position -> Found? in
            // The token first, its key only for a property (most tokens are not one).
            let definition = shared.value.graph.tokens.value(at: position), path = definition.qualifiedName
            guard path.count >= 3, let group = Group.named(path[path.count - 2]),
                  let owner = shared.value.owners[path.dropLast(2).joinedWithDots()] else { return nil }
            let referenced = definition.alias.flatMap(shared.value.graph.resolve)
            return Found(owner: owner, property: Property(group: group, name: definition.name,
                                                          qualifiedName: shared.value.graph.tokens.key(at: position),
                                                          location: definition.location, referencedToken: referenced))
        }
        // Each component's properties in the order of their locations (ties in the order found), each moved once into
        // its place (taken out of `found`): appended and then sorted, each was copied (a dozen references counted)
        // several times. Read in place (a copy of an element for its owner or location counted its references too).
        var indicesByOwner = [[Int]](repeating: [], count: components.count)
        let ordered = found.withUnsafeBufferPointer { found in
            // Counted first, so that each owner's list is made once at its size (grown by doubling, it was ~1,200
            // reallocations for 300 components).
            var counts = [Int](repeating: 0, count: components.count)
            for i in found.indices { if let owner = found[i]?.owner { counts[owner] += 1 } }
            for owner in counts.indices where counts[owner] > 0 { indicesByOwner[owner].reserveCapacity(counts[owner]) }
            for i in found.indices { if let owner = found[i]?.owner { indicesByOwner[owner].append(i) } }
            return indicesByOwner.map { indices in
                indices.sorted { a, b in
                    let (x, y) = (found[a]!.property.location, found[b]!.property.location)
                    return x != y ? x < y : a < b
                }
            }
        }
        for (owner, indices) in ordered.enumerated() where !indices.isEmpty {
            components[owner].properties = indices.map { found[$0].take()!.property }
        }
        for (instance, fields) in graph.structInstances where numbers[instance] == nil {
            let properties = fields.compactMap { key -> Property? in
                guard let token = graph.tokens[key], case .success(let value) = graph.value(of: key) else { return nil }
                let group: Group
                switch value {
                case .color: group = .colors
                case .number: group = .layout
                case .font: group = .typography
                default: return nil
                }
                return Property(group: group, name: token.name, qualifiedName: key, location: token.location, referencedToken: nil)
            }
            // One color is a value, not a set of colors drawn together.
            guard properties.filter({ $0.group == .colors }).count >= 2, let first = properties.first else { continue }
            numbers[instance] = components.count
            components.append(Component(name: TokenGraph.displayName(instance), location: first.location,
                                        properties: properties.sorted { $0.location < $1.location }))
        }
        // By name, compared as bytes (String's `<` on ASCII names; its general path was most of this serial step's end).
        return components.map(\.name).orderComparingBytes().map { components[$0] }
    }
}
