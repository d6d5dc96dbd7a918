import A11yEngine

/// Reads `.a11yd.yml`. Unknown keys and wrong types are errors with file:line:column.
public enum ConfigurationReader {
    public static let fileName = ".a11yd.yml"
    static let keys = ["policy", "include", "exclude", "surfaces", "pairs", "flags"]
    static let pairKeys = ["fg", "bg", "role", "component"]

    public static func read(_ text: String, file: String) throws(ConfigurationError) -> ProjectConfiguration {
        let fields = try YAMLFields.parse(text, file: file)
        try fields.rejectUnknownKeys(keys, context: file)
        var configuration = ProjectConfiguration(file: file)
        if let policy = try fields.string("policy") { configuration.policy = policy }
        if let include = try fields.strings("include") { configuration.include = include }
        if let exclude = try fields.strings("exclude") { configuration.exclude = exclude }
        configuration.surfaces = try fields.strings("surfaces")
        if let flags = try fields.strings("flags") { configuration.flags = flags }
        for pair in try fields.list("pairs") ?? [] {
            try pair.rejectUnknownKeys(pairKeys, context: "a pair")
            guard let fg = try pair.string("fg") else { throw ConfigurationError("a pair needs 'fg'", at: pair.location) }
            guard let bg = try pair.string("bg") else { throw ConfigurationError("a pair needs 'bg'", at: pair.location) }
            let roleName = try pair.string("role") ?? "text"
            let roles: [String: Role] = ["text": .text, "large-text": .largeText, "graphic": .graphic, "disabled": .disabled]
            guard let role = roles[roleName] else {
                throw ConfigurationError("unknown role '\(roleName)' (use text, large-text, graphic or disabled)",
                                         at: pair.node("role")?.1 ?? pair.location)
            }
            configuration.pairs.append(ProjectConfiguration.DeclaredPair(
                foreground: fg, background: bg, role: role, component: try pair.string("component"), location: pair.location))
        }
        return configuration
    }
}
