/// A styled component: `enum NativePickerStyling { struct Colors {...} struct Layout {...} struct Typography {...} }`.
public struct Component: Hashable, Sendable {
    public enum Group: String, Hashable, Sendable, Codable, CaseIterable {
        case colors = "Colors", layout = "Layout", typography = "Typography"
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
        var byName: [String: Component] = [:]
        for declaration in declarations {
            byName[declaration.name] = Component(name: declaration.name, location: declaration.location, properties: [])
        }
        for (key, definition) in graph.tokens {
            let path = definition.qualifiedName
            guard path.count >= 3, let group = Group(rawValue: path[path.count - 2]) else { continue }
            let owner = path.dropLast(2).joinedWithDots()
            guard byName[owner] != nil else { continue }
            var referenced: String?
            if let ref = definition.alias { referenced = graph.resolve(ref) }
            byName[owner]?.properties.append(Property(
                group: group, name: definition.name, qualifiedName: key, location: definition.location, referencedToken: referenced))
        }
        for (instance, fields) in graph.structInstances where byName[instance] == nil {
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
            byName[instance] = Component(name: TokenGraph.displayName(instance), location: first.location, properties: properties)
        }
        return byName.values
            .map { c in
                var c = c
                c.properties.sort { $0.location < $1.location }
                return c
            }
            .sorted { $0.name < $1.name }
    }
}
