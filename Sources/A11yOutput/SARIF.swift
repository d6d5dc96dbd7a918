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
        let root = URL(fileURLWithPath: sourceRoot, isDirectory: true).standardizedFileURL.path
        let locate = { (location: SourceLocation) in physical(location, root: root) }
        let descriptions = allRules.map { type(of: $0).description } + readerRuleDescriptions
        let ruleIndex = Dictionary(uniqueKeysWithValues: descriptions.enumerated().map { ($1.id, $0) })
        let rules: [[String: Any]] = descriptions.map { d in
            var rule: [String: Any] = [
                "id": d.id,
                "name": d.id.split(separator: ".").map { $0.capitalized }.joined().replacingOccurrences(of: "-", with: ""),
                "shortDescription": ["text": d.summary],
                "fullDescription": ["text": "\(d.summary). Standard: \(d.standard)."],
                "help": ["text": "\(d.summary). Standard: \(d.standard)." + (d.helpURL.isEmpty ? "" : " See \(d.helpURL)")],
                "defaultConfiguration": ["level": "error"],
            ]
            if !d.helpURL.isEmpty { rule["helpUri"] = d.helpURL }
            return rule
        }
        let results: [[String: Any]] = audit.findings.map { f in
            var message = f.message
            if let situation = f.situation, !message.contains(situation) { message += " (\(situation))" }
            var result: [String: Any] = [
                "ruleId": f.rule,
                "level": level(f.severity),
                "message": ["text": message],
                "partialFingerprints": ["a11ydFinding/v1": f.matchKey],
            ]
            if let index = ruleIndex[f.rule] { result["ruleIndex"] = index }
            if let location = f.location { result["locations"] = [locate(location)] }
            if !f.relatedLocations.isEmpty {
                result["relatedLocations"] = f.relatedLocations.enumerated().map { i, l -> [String: Any] in
                    var related = locate(l)
                    related["id"] = i + 1
                    related["message"] = ["text": f.rule.hasPrefix("contrast") ? "background" : "related"]
                    return related
                }
            }
            var properties: [String: Any] = ["subject": f.subject]
            if let a = f.appearance { properties["appearance"] = a.rawValue }
            if let t = f.theme { properties["theme"] = t }
            if let m = f.measured { properties["measured"] = m }
            if let r = f.required { properties["required"] = r }
            if let hint = f.fixHint { properties["fixHint"] = hint }
            result["properties"] = properties
            return result
        }
        let document: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "a11yd", "version": toolVersion, "semanticVersion": toolVersion,
                    "informationUri": "https://www.w3.org/WAI/WCAG21/quickref/", "rules": rules,
                ]],
                "columnKind": "unicodeCodePoints",
                "originalUriBaseIds": [sourceRootId: ["uri": URL(fileURLWithPath: root, isDirectory: true).absoluteString]],
                "results": results,
            ]],
        ]
        var data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        data.append(0x0A)
        return data
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
    static func physical(_ location: SourceLocation, root: String) -> [String: Any] {
        var path = location.file
        while path.hasPrefix("./") { path.removeFirst(2) }
        var artifact: [String: Any]
        if path.hasPrefix("/") {
            let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
            let prefix = root.hasSuffix("/") ? root : root + "/"
            if standardized.hasPrefix(prefix) {
                artifact = ["uri": relativeURI(String(standardized.dropFirst(prefix.count))), "uriBaseId": sourceRootId]
            } else {
                artifact = ["uri": URL(fileURLWithPath: standardized).absoluteString]
            }
        } else {
            artifact = ["uri": relativeURI(path), "uriBaseId": sourceRootId]
        }
        return ["physicalLocation": [
            "artifactLocation": artifact,
            "region": ["startLine": max(location.line, 1), "startColumn": max(location.column, 1)],
        ]]
    }

    static func relativeURI(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }
}
