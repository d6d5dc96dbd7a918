/// A decision to accept a finding: inline (`// a11yd:ignore contrast.text -- reason` on or above the line) or
/// in `.a11yd.yml` (`suppress:` by rule and subject). Every suppression needs a reason, and one that suppresses
/// nothing is reported, so suppressions do not outlive the problem they excused.
public struct Suppression: Hashable, Sendable {
    public enum Scope: Hashable, Sendable {
        /// Findings located on this line of this file (an inline comment applies to its own line and the next).
        case lines(file: String, first: Int, last: Int)
        /// Findings with this subject (prefix match: `NativePickerStyling` covers all of its pairs).
        case subject(String)
    }

    /// Rule ids or prefixes (`contrast` covers `contrast.text` and friends); empty means every rule.
    public var rules: [String]
    public var scope: Scope
    public var reason: String?
    public var location: SourceLocation

    public init(rules: [String], scope: Scope, reason: String?, location: SourceLocation) {
        self.rules = rules
        self.scope = scope
        self.reason = reason
        self.location = location
    }

    func covers(_ finding: Finding) -> Bool {
        let ruleMatches = rules.isEmpty || rules.contains { finding.rule == $0 || finding.rule.hasPrefix($0 + ".") }
        guard ruleMatches else { return false }
        switch scope {
        case .lines(let file, let first, let last):
            let locations = [finding.location].compactMap { $0 } + finding.relatedLocations
            return locations.contains { $0.file == file && $0.line >= first && $0.line <= last }
        case .subject(let subject):
            return finding.subject == subject || finding.subject.hasPrefix(subject + ":") || finding.subject.hasPrefix(subject + ".")
                || finding.component == subject
        }
    }

    /// Removes suppressed findings and reports suppressions without a reason or without effect (rule `suppression`).
    public static func apply(_ suppressions: [Suppression], to findings: [Finding]) -> (kept: [Finding], suppressed: [Finding], problems: [Finding]) {
        // Most audits have none: the findings as they are, not copied one by one into a new array.
        guard !suppressions.isEmpty else { return (findings, [], []) }
        var used = Set<Int>()
        var kept: [Finding] = []
        var suppressed: [Finding] = []
        for finding in findings {
            if let index = suppressions.indices.first(where: { suppressions[$0].covers(finding) }) {
                used.insert(index)
                suppressed.append(finding)
            } else {
                kept.append(finding)
            }
        }
        var problems: [Finding] = []
        for (index, s) in suppressions.enumerated() {
            let what = s.rules.isEmpty ? "all rules" : s.rules.joined(separator: " ")
            if s.reason?.isEmpty ?? true {
                problems.append(Finding(rule: "suppression", severity: .warning, subject: "suppression at \(s.location)",
                                        message: "suppression of \(what) has no reason; write `-- why` after the rules",
                                        location: s.location))
            }
            if !used.contains(index) {
                problems.append(Finding(rule: "suppression", severity: .warning, subject: "unused suppression at \(s.location)",
                                        message: "suppression of \(what) no longer suppresses anything; remove it",
                                        location: s.location))
            }
        }
        return (kept, suppressed, problems)
    }
}
