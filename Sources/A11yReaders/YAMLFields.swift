import A11yEngine
import Yams

/// Typed access to a YAML mapping with file:line:column on every error, so configuration mistakes are never ignored.
struct YAMLFields {
    let file: String
    let node: Node
    private let entries: [(key: String, value: Node, location: SourceLocation)]

    static func parse(_ text: String, file: String) throws(ConfigurationError) -> YAMLFields {
        let root: Node?
        do {
            // Every scalar is read as text and typed here (`string`, `number`): no tag resolution, whose default rules
            // compile a dozen regular expressions on first use (~1.5 ms of every `a11yctl` run). The encoding said, not
            // `.default`: that copies the whole environment into a dictionary to look for YAMS_DEFAULT_ENCODING.
            root = try Yams.compose(yaml: text, .basic, .default, .utf8)
        } catch let error as YamlError {
            throw ConfigurationError(Self.describe(error), at: Self.location(of: error, file: file))
        } catch {
            throw ConfigurationError("cannot read YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
        // An empty file is an empty mapping: every setting takes its default.
        guard let root else { return try YAMLFields(file: file, node: Node.mapping(Node.Mapping([]))) }
        return try YAMLFields(file: file, node: root)
    }

    init(file: String, node: Node) throws(ConfigurationError) {
        self.file = file
        self.node = node
        guard case .mapping(let mapping) = node else {
            throw ConfigurationError("expected a mapping of settings", at: Self.location(node, file))
        }
        var entries: [(String, Node, SourceLocation)] = []
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else {
                throw ConfigurationError("keys must be plain names", at: Self.location(key, file))
            }
            entries.append((scalar.string, value, Self.location(key, file)))
        }
        self.entries = entries
    }

    static func location(_ node: Node, _ file: String) -> SourceLocation {
        SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    var location: SourceLocation { Self.location(node, file) }

    /// Fails on the first key not in `allowed`, naming the allowed ones.
    func rejectUnknownKeys(_ allowed: [String], context: String) throws(ConfigurationError) {
        for entry in entries where !allowed.contains(entry.key) {
            throw ConfigurationError("unknown key '\(entry.key)' in \(context) (allowed: \(allowed.joined(separator: ", ")))", at: entry.location)
        }
    }

    func has(_ key: String) -> Bool { entries.contains { $0.key == key } }

    func node(_ key: String) -> (Node, SourceLocation)? {
        entries.first { $0.key == key }.map { ($0.value, Self.location($0.value, file)) }
    }

    func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let (value, at) = node(key) else { return nil }
        guard case .scalar(let s) = value, !s.string.isEmpty else { throw ConfigurationError("'\(key)' must be a string", at: at) }
        return s.string
    }

    func number(_ key: String) throws(ConfigurationError) -> Double? {
        guard let (value, at) = node(key) else { return nil }
        guard case .scalar(let s) = value, let n = Double(s.string), n.isFinite else {
            throw ConfigurationError("'\(key)' must be a number", at: at)
        }
        return n
    }

    func strings(_ key: String) throws(ConfigurationError) -> [String]? {
        guard let (value, at) = node(key) else { return nil }
        if case .scalar(let s) = value, !s.string.isEmpty { return [s.string] }
        guard case .sequence(let seq) = value else { throw ConfigurationError("'\(key)' must be a list of strings", at: at) }
        var result: [String] = []
        for item in seq {
            guard case .scalar(let s) = item else {
                throw ConfigurationError("'\(key)' must be a list of strings", at: Self.location(item, file))
            }
            result.append(s.string)
        }
        return result
    }

    func mapping(_ key: String) throws(ConfigurationError) -> YAMLFields? {
        guard let (value, _) = node(key) else { return nil }
        return try YAMLFields(file: file, node: value)
    }

    func list(_ key: String) throws(ConfigurationError) -> [YAMLFields]? {
        guard let (value, at) = node(key) else { return nil }
        guard case .sequence(let seq) = value else { throw ConfigurationError("'\(key)' must be a list", at: at) }
        var result: [YAMLFields] = []
        for item in seq { result.append(try YAMLFields(file: file, node: item)) }
        return result
    }

    var keys: [String] { entries.map(\.key) }

    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            return "invalid YAML: \(problem)"
        case .duplicatedKeysInMapping(let duplicates, _):
            return "duplicate key \(duplicates.joined(separator: ", "))"
        default:
            return "invalid YAML: \(error)"
        }
    }

    private static func location(of error: YamlError, file: String) -> SourceLocation {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return SourceLocation(file: file, line: mark.line, column: mark.column)
        case .duplicatedKeysInMapping(_, let context):
            return SourceLocation(file: file, line: context.mark.line, column: context.mark.column)
        default:
            return SourceLocation(file: file, line: 1, column: 1)
        }
    }
}
