import A11yEngine
import Foundation

/// Reads policy presets (`policies/*.yml`) and custom policy files.
public enum PolicyReader {
    static let keys = ["id", "name", "sources", "large-text", "contrast", "high-contrast", "severity",
                       "touch-target", "dynamic-type", "token-hygiene"]
    static let thresholdKeys = ["text", "large-text", "graphic"]

    public static func read(_ text: String, file: String) throws(ConfigurationError) -> Policy {
        let fields = try YAMLFields.parse(text, file: file)
        try fields.rejectUnknownKeys(keys, context: "policy \(file)")
        guard let id = try fields.string("id") else { throw ConfigurationError("a policy needs an 'id'", at: fields.location) }
        let mappingName = try fields.string("large-text") ?? "wcag"
        guard let mapping = Policy.LargeTextMapping(rawValue: mappingName) else {
            throw ConfigurationError("unknown large-text mapping '\(mappingName)' (use wcag or apple-hig)", at: fields.node("large-text")?.1)
        }
        guard let contrastFields = try fields.mapping("contrast") else {
            throw ConfigurationError("a policy needs 'contrast' thresholds", at: fields.location)
        }
        var severities: [String: Severity] = [:]
        if let severity = try fields.mapping("severity") {
            for key in severity.keys {
                let value = try severity.string(key) ?? ""
                guard let s = Severity(rawValue: value) else {
                    throw ConfigurationError("severity of \(key) must be error, warning or info", at: severity.node(key)?.1)
                }
                severities[key] = s
            }
        }
        var policy = Policy(
            id: id, name: try fields.string("name") ?? id, sources: try fields.strings("sources") ?? [],
            largeText: mapping, contrast: try thresholds(contrastFields),
            highContrast: try fields.mapping("high-contrast").map { (f) throws(ConfigurationError) in try thresholds(f) },
            severities: severities)
        if let touch = try fields.mapping("touch-target") {
            try touch.rejectUnknownKeys(["minimum"], context: "touch-target")
            if let minimum = try touch.number("minimum") { policy.touchTargetMinimum = minimum }
        }
        if let type = try fields.mapping("dynamic-type") {
            try type.rejectUnknownKeys(["minimum-size"], context: "dynamic-type")
            if let minimum = try type.number("minimum-size") { policy.minimumFontSize = minimum }
        }
        if let hygiene = try fields.mapping("token-hygiene") {
            try hygiene.rejectUnknownKeys(["primitives"], context: "token-hygiene")
            if let primitives = try hygiene.strings("primitives") { policy.primitiveTokens = primitives }
        }
        return policy
    }

    private static func thresholds(_ fields: YAMLFields) throws(ConfigurationError) -> ContrastThresholds {
        try fields.rejectUnknownKeys(thresholdKeys, context: "contrast thresholds")
        func value(_ key: String) throws(ConfigurationError) -> Double {
            guard let n = try fields.number(key) else { throw ConfigurationError("missing '\(key)' threshold", at: fields.location) }
            guard n >= 1, n <= 21 else { throw ConfigurationError("'\(key)' must be a ratio between 1 and 21", at: fields.node(key)?.1) }
            return n
        }
        return ContrastThresholds(text: try value("text"), largeText: try value("large-text"), graphic: try value("graphic"))
    }

    /// This process's executable: `/proc/self/exe`, since `argv[0]` is a bare name when the program is found on PATH
    /// (`a11yctl` installed in ~/.local/bin), which would resolve against the working directory.
    public static var executablePath: String {
        PlainFile.linkTarget("/proc/self/exe") ?? CommandLine.arguments.first ?? ""
    }

    /// The directory of `executable`, symbolic links resolved.
    static func executableDirectory(_ executable: String = executablePath) -> String {
        // (Paths as strings and `realpath`, not `URL`: see `PlainFile`.)
        PlainFile.parent(PlainFile.resolvingSymlinks(executable))
    }

    /// The file `name` in the executable's directory (`a11yd` beside `a11yctl`).
    public static func installedFile(_ name: String) -> String { PlainFile.joined(executableDirectory(), name) }

    /// Where installed files named `name` (`policies`, `systemd`) are looked up: `share/a11yd/<name>` beside the
    /// executable's prefix, then `<name>` in the executable's directory and its ancestors (a source checkout's
    /// `.build/debug/a11yctl` finds the checkout's own).
    public static func installedDirectories(named name: String, executable: String = executablePath) -> [String] {
        var dir = executableDirectory(executable)
        var result = [PlainFile.joined(PlainFile.parent(dir), "share/a11yd/" + name)]
        for _ in 0..<8 {
            result.append(PlainFile.joined(dir, name))
            dir = PlainFile.parent(dir)
        }
        return result
    }

    /// Where presets are looked up: `$A11YD_POLICIES`, then `installedDirectories(named: "policies")`.
    public static func presetDirectories(executable: String = executablePath) -> [String] {
        // getenv, not ProcessInfo's environment: that copies every variable into a dictionary (~1 M instructions).
        let env = getenv("A11YD_POLICIES").map { String(cString: $0) } ?? ""
        return (env.isEmpty ? [] : [env]) + installedDirectories(named: "policies", executable: executable)
    }

    /// Loads a preset by name or a policy file by path (relative paths are relative to `relativeTo`).
    public static func load(_ nameOrPath: String, relativeTo base: String, searchDirectories: [String] = presetDirectories(),
                            referencedAt: SourceLocation? = nil) throws(ConfigurationError) -> Policy {
        let fm = FileManager.default
        var candidates: [String] = []
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".yml") || nameOrPath.hasSuffix(".yaml") {
            candidates.append(nameOrPath.hasPrefix("/") ? nameOrPath : PlainFile.joined(base, nameOrPath))
        } else {
            candidates = searchDirectories.map { PlainFile.joined($0, nameOrPath + ".yml") }
        }
        for path in candidates where fm.fileExists(atPath: path) {
            guard let text = PlainFile.text(atPath: path) else {
                throw ConfigurationError("cannot read policy file \(path)", at: referencedAt)
            }
            return try read(text, file: path)
        }
        let presets = searchDirectories.lazy.compactMap { try? fm.contentsOfDirectory(atPath: $0) }.first { !$0.isEmpty }?
            .filter { $0.hasSuffix(".yml") }.map { String($0.dropLast(4)) }.sorted() ?? []
        throw ConfigurationError(
            "unknown policy '\(nameOrPath)'" + (presets.isEmpty ? " (no presets found; set A11YD_POLICIES to the policies/ directory)"
                                                : " (presets: \(presets.joined(separator: ", ")))"),
            at: referencedAt)
    }
}
