/// What changed between two audits: regressions (new or worse problems) and resolutions (problems gone).
/// Findings are matched by rule + subject + appearance (+ theme), never by line number, so moving code is not a change.
public struct AuditDiff: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable {
        /// A finding that was not there before (a pass turned fail, a new error).
        case new
        /// A still-failing contrast pair whose ratio dropped.
        case worse
        /// A finding that is gone.
        case resolved
    }

    public struct Change: Codable, Hashable, Sendable {
        public var kind: Kind
        public var rule: String
        public var severity: Severity
        public var appearance: Appearance?
        public var subject: String
        public var message: String
        public var location: SourceLocation?
        public var before: Double?
        public var after: Double?
        public var required: Double?
        /// The component the finding belongs to, so lines about `label (appTextPrimary)` in three components differ.
        /// Absent in diffs stored before it existed.
        public var component: String?
        /// The theme of a contrast change in a design system with themes.
        public var theme: String?

        /// "rosé, dark", "dark", or nil.
        public var situation: String? { Finding.situation(theme: theme, appearance: appearance) }

        /// The message prefixed by the component ("NativePickerStyling: label (appTextPrimary) on ..."), for logs.
        public var messageWithComponent: String { (component.map { "\($0): " } ?? "") + message }
    }

    public var fromAudit: Int?
    public var toAudit: Int?
    public var regressions: [Change]
    public var resolutions: [Change]

    public var isEmpty: Bool { regressions.isEmpty && resolutions.isEmpty }

    /// `Finding.matchKey` as a value (no string built per finding: a diff matches thousands).
    struct MatchKey: Hashable {
        var rule: String
        var subject: String
        var appearance: Appearance?
        var theme: String?
    }

    static func key(_ f: Finding) -> MatchKey { MatchKey(rule: f.rule, subject: f.subject, appearance: f.appearance, theme: f.theme) }

    /// Info findings are observations, not problems: they never count as regressions or resolutions.
    public static func between(_ previous: Audit?, _ current: Audit) -> AuditDiff {
        let relevant = { (f: Finding) in f.severity >= .warning }
        var before: [MatchKey: Finding] = [:]
        for f in previous?.findings ?? [] where relevant(f) { before[key(f)] = f }
        var after: [MatchKey: Finding] = [:]
        for f in current.findings where relevant(f) { after[key(f)] = f }

        var regressions: [Change] = []
        for (k, f) in after {
            if let old = before[k] {
                if let was = old.measured, let now = f.measured, now < was - 1e-9 {
                    regressions.append(change(.worse, f, before: was, after: now))
                }
            } else {
                regressions.append(change(.new, f, before: nil, after: f.measured))
            }
        }
        var resolutions: [Change] = []
        for (k, f) in before where after[k] == nil {
            // The resolved pair's new ratio, when the pair still exists.
            let now = current.pairs.first { $0.subject == f.subject && $0.appearance == f.appearance && $0.theme == f.theme }?.ratio
            resolutions.append(change(.resolved, f, before: f.measured, after: now))
        }
        // Most severe first, then by rule, subject and appearance: deterministic.
        let order = { (a: Change, b: Change) -> Bool in
            if a.severity != b.severity { return a.severity > b.severity }
            return (a.rule, a.subject, a.situation ?? "") < (b.rule, b.subject, b.situation ?? "")
        }
        return AuditDiff(fromAudit: previous?.id, toAudit: current.id,
                         regressions: regressions.sorted(by: order), resolutions: resolutions.sorted(by: order))
    }

    /// The diff of a first audit, when there is nothing to compare with: it is the baseline, so nothing regressed
    /// (`between(nil, audit)` instead lists every problem, for callers that want that).
    public static func baseline(_ audit: Audit) -> AuditDiff {
        AuditDiff(fromAudit: nil, toAudit: audit.id, regressions: [], resolutions: [])
    }

    private static func change(_ kind: Kind, _ f: Finding, before: Double?, after: Double?) -> Change {
        Change(kind: kind, rule: f.rule, severity: f.severity, appearance: f.appearance, subject: f.subject,
               message: f.message, location: f.location, before: before, after: after, required: f.required,
               component: f.component, theme: f.theme)
    }
}
