import A11yEngine
import Foundation

/// SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format), the format GitHub code scanning accepts.
/// Both locations of a contrast finding are given (the foreground as the result's location, the background
/// as a related location) and the appearance is part of the message.
public enum SARIF {
    /// The base every relative artifact URI is relative to: `%SRCROOT%`, given in `originalUriBaseIds` as the
    /// directory the audit ran from (a CI job runs at the repository root, which is what code scanning expects).
    static let sourceRootId = "%SRCROOT%"

    public static func encode(_ audit: Audit, toolVersion: String,
                              sourceRoot: String = FileManager.default.currentDirectoryPath) throws -> Data {
        try AuditJSON.encode(document(audit, toolVersion: toolVersion, sourceRoot: sourceRoot))
    }

    /// The same text as `encode`, written to `handle` as it is produced.
    public static func write(_ audit: Audit, toolVersion: String,
                             sourceRoot: String = FileManager.default.currentDirectoryPath, to handle: FileHandle) throws {
        try AuditJSON.write(document(audit, toolVersion: toolVersion, sourceRoot: sourceRoot), to: handle)
    }

    static func document(_ audit: Audit, toolVersion: String, sourceRoot: String) -> JSONValue {
        let root = URL(fileURLWithPath: sourceRoot, isDirectory: true).standardizedFileURL.path
        let locate = { (location: SourceLocation) in physical(location, root: root) }
        let descriptions = allRules.map { type(of: $0).description } + readerRuleDescriptions
        let ruleIndex = Dictionary(uniqueKeysWithValues: descriptions.enumerated().map { ($1.id, $0) })
        let rules: [JSONValue] = descriptions.map { d in
            var rule: [String: JSONValue] = [
                "id": .string(d.id),
                "name": .string(d.id.split(separator: ".").map { $0.capitalized }.joined().replacingOccurrences(of: "-", with: "")),
                "shortDescription": ["text": .string(d.summary)],
                "fullDescription": ["text": .string("\(d.summary). Standard: \(d.standard).")],
                "help": ["text": .string("\(d.summary). Standard: \(d.standard)." + (d.helpURL.isEmpty ? "" : " See \(d.helpURL)"))],
                "defaultConfiguration": ["level": "error"],
            ]
            if !d.helpURL.isEmpty { rule["helpUri"] = .string(d.helpURL) }
            return .object(rule)
        }
        let results: [JSONValue] = audit.findings.map { f in
            var message = f.message
            if let situation = f.situation, !message.contains(situation) { message += " (\(situation))" }
            var result: [String: JSONValue] = [
                "ruleId": .string(f.rule),
                "level": .string(level(f.severity)),
                "message": ["text": .string(message)],
                "partialFingerprints": ["a11ydFinding/v1": .string(f.matchKey)],
            ]
            if let index = ruleIndex[f.rule] { result["ruleIndex"] = .integer(index) }
            if let location = f.location { result["locations"] = [.object(locate(location))] }
            if !f.relatedLocations.isEmpty {
                result["relatedLocations"] = .array(f.relatedLocations.enumerated().map { i, l -> JSONValue in
                    var related = locate(l)
                    related["id"] = .integer(i + 1)
                    related["message"] = ["text": f.rule.hasPrefix("contrast") ? "background" : "related"]
                    return .object(related)
                })
            }
            var properties: [String: JSONValue] = ["subject": .string(f.subject)]
            if let a = f.appearance { properties["appearance"] = .string(a.rawValue) }
            if let t = f.theme { properties["theme"] = .string(t) }
            if let m = f.measured { properties["measured"] = .number(m) }
            if let r = f.required { properties["required"] = .number(r) }
            if let hint = f.fixHint { properties["fixHint"] = .string(hint) }
            result["properties"] = .object(properties)
            return .object(result)
        }
        let document: JSONValue = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "a11yd", "version": .string(toolVersion), "semanticVersion": .string(toolVersion),
                    "informationUri": "https://www.w3.org/WAI/WCAG21/quickref/", "rules": .array(rules),
                ]],
                "columnKind": "unicodeCodePoints",
                "originalUriBaseIds": .object([sourceRootId: ["uri": .string(URL(fileURLWithPath: root, isDirectory: true).absoluteString)]]),
                "results": .array(results),
            ]],
        ]
        return document
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    /// A path under the source root (or relative, as given) becomes a relative URI with `uriBaseId: %SRCROOT%`;
    /// a path outside it an absolute `file://` URI.
    static func physical(_ location: SourceLocation, root: String) -> [String: JSONValue] {
        var path = location.file
        while path.hasPrefix("./") { path.removeFirst(2) }
        var artifact: [String: JSONValue]
        if path.hasPrefix("/") {
            let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
            let prefix = root.hasSuffix("/") ? root : root + "/"
            if standardized.hasPrefix(prefix) {
                artifact = ["uri": .string(relativeURI(String(standardized.dropFirst(prefix.count)))), "uriBaseId": .string(sourceRootId)]
            } else {
                artifact = ["uri": .string(URL(fileURLWithPath: standardized).absoluteString)]
            }
        } else {
            artifact = ["uri": .string(relativeURI(path)), "uriBaseId": .string(sourceRootId)]
        }
        return ["physicalLocation": [
            "artifactLocation": .object(artifact),
            "region": ["startLine": .integer(max(location.line, 1)), "startColumn": .integer(max(location.column, 1))],
        ]]
    }

    static func relativeURI(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }
}
