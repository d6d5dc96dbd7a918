import A11yEngine

/// Finds `// a11yd:ignore <rule>[ <rule>...] -- reason` comments. A comment on its own line applies to the next
/// line; a trailing comment applies to its own line.
public enum InlineSuppressions {
    static let marker = "a11yd:ignore"

    public static func scan(_ text: String, file: String) -> [Suppression] {
        // Most files have none: one substring search instead of a per-line scan.
        guard text.containsText(marker) else { return [] }
        var result: [Suppression] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let comment = line.range(of: "//"), let found = line.range(of: marker, range: comment.upperBound..<line.endIndex) else { continue }
            let rest = line[found.upperBound...]
            let parts = rest.components(separatedBy: "--")
            let rules = parts[0].split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
            let reason = parts.count > 1 ? parts[1...].joined(separator: "--").trimmingCharacters(in: .whitespaces) : nil
            let ownLine = line[..<comment.lowerBound].allSatisfy { $0 == " " || $0 == "\t" }
            let column = line.distance(from: line.startIndex, to: comment.lowerBound) + 1
            result.append(Suppression(
                rules: rules,
                scope: .lines(file: file, first: lineNumber, last: ownLine ? lineNumber + 1 : lineNumber),
                reason: reason,
                location: SourceLocation(file: file, line: lineNumber, column: column)))
        }
        return result
    }
}
