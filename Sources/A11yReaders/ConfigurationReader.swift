import A11yEngine

/// Reads `.a11yd.yml`. Unknown keys and wrong types are errors with file:line:column.
public enum ConfigurationReader {
    public static let fileName = ".a11yd.yml"
    static let keys = ["policy", "extends", "include", "exclude", "surfaces", "pairs", "flags", "severity", "touch-target",
                       "dynamic-type", "token-hygiene", "suppress", "modes", "idiom", "themes"]
    static let ruleIDs = ["contrast.text", "contrast.large-text", "contrast.graphic", "touch-target", "dynamic-type",
                          "token-hygiene", "reference", "parse", "suppression", "config"]
    static let pairKeys = ["fg", "bg", "role", "component"]

    public static func read(_ text: String, file: String) throws(ConfigurationError) -> ProjectConfiguration {
        let fields = try YAMLFields.parse(text, file: file)
        try fields.rejectUnknownKeys(keys, context: file)
        var configuration = ProjectConfiguration(file: file)
        if fields.has("policy"), fields.has("extends") {
            throw ConfigurationError("use either 'policy' or 'extends', not both", at: fields.node("extends")?.1)
        }
        let extends = try fields.string("extends")
        if let policy = try fields.string("policy") ?? extends { configuration.policy = policy }
        if let severity = try fields.mapping("severity") {
            try severity.rejectUnknownKeys(ruleIDs, context: "severity")
            for key in severity.keys {
                let value = try severity.string(key) ?? ""
                guard let level = Severity(rawValue: value) else {
                    throw ConfigurationError("severity of \(key) must be error, warning or info", at: severity.node(key)?.1)
                }
                configuration.severities[key] = level
            }
        }
        if let touch = try fields.mapping("touch-target") {
            try touch.rejectUnknownKeys(["minimum"], context: "touch-target")
            configuration.touchTargetMinimum = try touch.number("minimum")
        }
        if let type = try fields.mapping("dynamic-type") {
            try type.rejectUnknownKeys(["minimum-size"], context: "dynamic-type")
            configuration.minimumFontSize = try type.number("minimum-size")
        }
        if let hygiene = try fields.mapping("token-hygiene") {
            try hygiene.rejectUnknownKeys(["primitives"], context: "token-hygiene")
            configuration.primitiveTokens = try hygiene.strings("primitives")
        }
        if let modes = try fields.mapping("modes") {
            try modes.rejectUnknownKeys(Appearance.allCases.map(\.rawValue), context: "modes")
            for key in modes.keys {
                guard let appearance = Appearance(rawValue: key), let globs = try modes.strings(key) else { continue }
                configuration.modes[appearance] = globs
            }
        }
        for entry in try fields.list("suppress") ?? [] {
            try entry.rejectUnknownKeys(["rule", "subject", "reason"], context: "a suppression")
            guard let subject = try entry.string("subject") else {
                throw ConfigurationError("a suppression needs 'subject' (a pair, token or component)", at: entry.location)
            }
            let rules = try entry.strings("rule") ?? []
            configuration.suppressions.append(Suppression(
                rules: rules, scope: .subject(subject), reason: try entry.string("reason"), location: entry.location))
        }
        if let include = try fields.strings("include") { configuration.include = include }
        if let exclude = try fields.strings("exclude") { configuration.exclude = exclude }
        configuration.surfaces = try fields.strings("surfaces")
        if let flags = try fields.strings("flags") { configuration.flags = flags }
        if let idiom = try fields.string("idiom") {
            guard ["phone", "pad", "mac", "tv", "vision", "carPlay"].contains(idiom) else {
                throw ConfigurationError("unknown idiom '\(idiom)' (use phone, pad, mac, tv, vision or carPlay)", at: fields.node("idiom")?.1)
            }
            configuration.idiom = idiom
        }
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
        if let themes = try fields.list("themes") {
            configuration.themes = try themes.map(readTheme)
        }
        return configuration
    }

    /// `- theme: night` with `as:`, `appearance: light|dark`, `contrast: standard|increased`, `default: true`.
    static func readTheme(_ entry: YAMLFields) throws(ConfigurationError) -> ProjectConfiguration.ThemeSetting {
        try entry.rejectUnknownKeys(["theme", "as", "appearance", "contrast", "default"], context: "a theme")
        guard let codeName = try entry.string("theme") else {
            throw ConfigurationError("a theme needs 'theme' (its name in the code: a palette instance, enum case or palette type)",
                                     at: entry.location)
        }
        var setting = ProjectConfiguration.ThemeSetting(codeName: codeName, name: try entry.string("as"), location: entry.location)
        if let appearance = try entry.string("appearance") {
            guard appearance == "light" || appearance == "dark" else {
                throw ConfigurationError("appearance of a theme must be light or dark", at: entry.node("appearance")?.1)
            }
            setting.appearance = Appearance(rawValue: appearance)
        }
        if let contrast = try entry.string("contrast") {
            guard contrast == "standard" || contrast == "increased" else {
                throw ConfigurationError("contrast of a theme must be standard or increased", at: entry.node("contrast")?.1)
            }
            setting.increasedContrast = contrast == "increased"
        }
        if let isDefault = try entry.string("default") {
            guard isDefault == "true" || isDefault == "false" else {
                throw ConfigurationError("default of a theme must be true or false", at: entry.node("default")?.1)
            }
            setting.isDefault = isDefault == "true"
        }
        return setting
    }
}
