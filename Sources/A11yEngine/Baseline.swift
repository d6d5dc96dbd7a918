/// The accepted findings of an existing codebase, so adopting the tool reports only new problems.
/// Entries are matched by rule + subject + appearance (+ theme), never by line number.
public struct Baseline: Codable, Hashable, Sendable {
    public struct Entry: Codable, Hashable, Sendable, Comparable {
        public var rule: String
        public var subject: String
        public var appearance: Appearance?
        /// Present only for findings of a design system with themes (older baselines have none and still match).
        public var theme: String?

        public init(_ finding: Finding) {
            rule = finding.rule
            subject = finding.subject
            appearance = finding.appearance
            theme = finding.theme
        }

        public static func < (a: Entry, b: Entry) -> Bool {
            (a.rule, a.subject, a.appearance?.rawValue ?? "", a.theme ?? "") < (b.rule, b.subject, b.appearance?.rawValue ?? "", b.theme ?? "")
        }
    }

    public var version: Int = 1
    public var entries: [Entry]

    /// Every finding at warning or above (info findings are not problems to baseline).
    public init(findings: [Finding]) {
        entries = Array(Set(findings.filter { $0.severity >= .warning }.map(Entry.init))).sorted()
    }

    /// Findings not in the baseline, and baseline entries that no longer occur (fixed since).
    public func compare(_ findings: [Finding]) -> (new: [Finding], fixed: [Entry]) {
        let known = Set(entries)
        let new = findings.filter { $0.severity < .warning || !known.contains(Entry($0)) }
        let present = Set(findings.map(Entry.init))
        return (new, entries.filter { !present.contains($0) })
    }
}
