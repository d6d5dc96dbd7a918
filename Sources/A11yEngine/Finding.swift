public enum Severity: String, CaseIterable, Hashable, Sendable, Codable, Comparable {
    case info, warning, error

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }

    private var rank: Int {
        switch self {
        case .info: return 0
        case .warning: return 1
        case .error: return 2
        }
    }
}

/// One problem (or, at `info`, one observation) about the design system.
public struct Finding: Hashable, Sendable, Codable {
    /// Stable rule id: `contrast.text`, `contrast.large-text`, `contrast.graphic`, `reference`, `parse`, ...
    public var rule: String { get { fields.value.rule } set { fields.value.rule = newValue } }
    public var severity: Severity { get { fields.value.severity } set { fields.value.severity = newValue } }
    /// nil for findings that do not depend on the appearance (a parse error).
    public var appearance: Appearance? { get { fields.value.appearance } set { fields.value.appearance = newValue } }
    /// The theme of a contrast finding in a design system with themes (schema 2); nil otherwise.
    public var theme: String? { get { fields.value.theme } set { fields.value.theme = newValue } }
    /// What the finding is about, stable across edits (used to match findings between audits):
    /// `NativePickerStyling.label on NativePickerStyling.menuBackground`, a token name, a file path.
    public var subject: String { get { fields.value.subject } set { fields.value.subject = newValue } }
    public var message: String { get { fields.value.message } set { fields.value.message = newValue } }
    /// Primary location (the foreground token for contrast findings).
    public var location: SourceLocation? { get { fields.value.location } set { fields.value.location = newValue } }
    /// Further locations (the background token for contrast findings).
    public var relatedLocations: [SourceLocation] {
        get { fields.value.relatedLocations }
        set { fields.value.relatedLocations = newValue }
    }
    public var component: String? { get { fields.value.component } set { fields.value.component = newValue } }
    public var measured: Double? { get { fields.value.measured } set { fields.value.measured = newValue } }
    public var required: Double? { get { fields.value.required } set { fields.value.required = newValue } }
    public var fixHint: String? { get { fields.value.fixHint } set { fields.value.fixHint = newValue } }

    /// Equal findings have the same rule, subject, place, appearance and theme: hashing those alone tells findings
    /// apart, and their names are hashed as `NameKey` does rather than byte by byte (an audit's findings are put in a set
    /// to drop duplicates; the message, fix hint and file path are most of their bytes).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(NameKey(rule).hash)
        hasher.combine(NameKey(subject).hash)
        hasher.combine(location?.line)
        hasher.combine(location?.column)
        hasher.combine(appearance)
        hasher.combine(theme.map { NameKey($0).hash })
    }

    public static func == (a: Finding, b: Finding) -> Bool { a.fields == b.fields }

    public init(rule: String, severity: Severity, appearance: Appearance? = nil, subject: String, message: String,
                location: SourceLocation?, relatedLocations: [SourceLocation] = [], component: String? = nil,
                measured: Double? = nil, required: Double? = nil, fixHint: String? = nil, theme: String? = nil) {
        fields = CopyOnWrite(Fields(rule: rule, severity: severity, appearance: appearance, theme: theme, subject: subject,
                                    message: message, location: location, relatedLocations: relatedLocations, component: component,
                                    measured: measured, required: required, fixHint: fixHint))
    }

    /// The fields behind one copy-on-write reference: a finding is a dozen references (rule, subject, message, fix
    /// hint, locations), and findings are copied from the rules into the audit's list, its sorts and its history; each
    /// copy retained every one, on a core other than the one that made them (the steps after the rules run on one core).
    private struct Fields: Equatable, Sendable {
        var rule: String
        var severity: Severity
        var appearance: Appearance?
        var theme: String?
        var subject: String
        var message: String
        var location: SourceLocation?
        var relatedLocations: [SourceLocation]
        var component: String?
        var measured: Double?
        var required: Double?
        var fixHint: String?
    }
    private var fields: CopyOnWrite<Fields>

    enum CodingKeys: String, CodingKey {
        case rule, severity, appearance, theme, subject, message, location, relatedLocations, component, measured, required, fixHint
    }

    /// `appearance` and `location` are always present (null when the finding has none): consumers rely on the keys.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rule, forKey: .rule)
        try c.encode(severity, forKey: .severity)
        try c.encode(appearance, forKey: .appearance)
        try c.encode(theme, forKey: .theme)
        try c.encode(subject, forKey: .subject)
        try c.encode(message, forKey: .message)
        try c.encode(location, forKey: .location)
        if !relatedLocations.isEmpty { try c.encode(relatedLocations, forKey: .relatedLocations) }
        try c.encodeIfPresent(component, forKey: .component)
        try c.encodeIfPresent(measured, forKey: .measured)
        try c.encodeIfPresent(required, forKey: .required)
        try c.encodeIfPresent(fixHint, forKey: .fixHint)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(rule: try c.decode(String.self, forKey: .rule),
                  severity: try c.decode(Severity.self, forKey: .severity),
                  appearance: try c.decodeIfPresent(Appearance.self, forKey: .appearance),
                  subject: try c.decode(String.self, forKey: .subject),
                  message: try c.decode(String.self, forKey: .message),
                  location: try c.decodeIfPresent(SourceLocation.self, forKey: .location),
                  relatedLocations: try c.decodeIfPresent([SourceLocation].self, forKey: .relatedLocations) ?? [],
                  component: try c.decodeIfPresent(String.self, forKey: .component),
                  measured: try c.decodeIfPresent(Double.self, forKey: .measured),
                  required: try c.decodeIfPresent(Double.self, forKey: .required),
                  fixHint: try c.decodeIfPresent(String.self, forKey: .fixHint),
                  theme: try c.decodeIfPresent(String.self, forKey: .theme))
    }

    /// Where on screen the finding holds: "rosé, dark", "dark"; nil when it does not depend on the appearance.
    public var situation: String? { Self.situation(theme: theme, appearance: appearance) }

    static func situation(theme: String?, appearance: Appearance?) -> String? {
        let parts = [theme, appearance?.rawValue].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// What matches a finding between audits and against a baseline: rule, subject, appearance and (with themes) theme;
    /// never the line, so moving code is not a change.
    public var matchKey: String { "\(rule)|\(subject)|\(appearance?.rawValue ?? "-")" + (theme.map { "|" + $0 } ?? "") }

    /// `findings` in `ordered` order (a stable sort). Files and rules are ranked once, so most comparisons are of
    /// integers: an audit sorts thousands of findings.
    public static func sorted(_ findings: consuming [Finding]) -> [Finding] {
        let order = order(findings)
        return rearranged(findings, order, keeping: order.count)
    }

    /// `findings` with `order[i]` moved to position `i`, then only the first `count` of them (order: a permutation).
    /// Moved by swaps, not copied into a new array: each copy counted a reference to its fields, for thousands of findings,
    /// on the one thread that runs after the rules (when a finding held a dozen references, ~40% of that step).
    private static func rearranged(_ findings: consuming [Finding], _ order: [Int], keeping count: Int) -> [Finding] {
        var placed = [Bool](repeating: false, count: order.count)
        // Swapped in the buffer: `Array.swapAt` copied the finding it held aside (a retain and a release a swap).
        findings.withUnsafeMutableBufferPointer { findings in
            for start in order.indices where !placed[start] {
                // Around the cycle through `start`: each position takes the finding its source holds, by one swap.
                var position = start
                while true {
                    placed[position] = true
                    let source = order[position]
                    if source == start { break }
                    findings.swapAt(position, source)
                    position = source
                }
            }
        }
        findings.removeLast(findings.count - count)
        return findings
    }

    /// The indices of `findings` in `ordered` order (ranked files and rules compared as integers first).
    static func order(_ findings: [Finding]) -> [Int] {
        findings.withUnsafeBufferPointer(order)
    }

    static func order(_ found: UnsafeBufferPointer<Finding>) -> [Int] {
        // Fields read in place (a finding copied whole was retained and released).
        let files = FileRanks(found.lazy.map(\.location))
        let rules = stringRanks(found.map(\.rule))
        struct Key { var file, line, column, rule, appearance, index: Int }
        let keys = found.indices.map { i in
            Key(file: files.rank(of: found[i].location), line: found[i].location?.line ?? 0,
                column: found[i].location?.column ?? 0, rule: rules[found[i].rule]!,
                appearance: found[i].appearance.map(\.order) ?? -1, index: i)
        }
        return keys.sorted { a, b in
            if (a.file, a.line, a.column, a.rule, a.appearance) != (b.file, b.line, b.column, b.rule, b.appearance) {
                return (a.file, a.line, a.column, a.rule, a.appearance) < (b.file, b.line, b.column, b.rule, b.appearance)
            }
            return ordered(found[a.index], found[b.index])
        }.map(\.index)
    }

    /// The files of some locations ranked by path (no location: the empty path), each path compared only with the other
    /// distinct ones: by the files' identities, not their paths, which were hashed and retained at every finding.
    struct FileRanks {
        private var ranks: [(file: ObjectIdentifier, rank: Int)] = []

        init(_ locations: some Sequence<SourceLocation?>) {
            var files: [SourceLocation] = []
            for location in locations {
                let location = location ?? Self.noFile
                if !files.contains(where: { $0.fileIdentity == location.fileIdentity }) { files.append(location) }
            }
            ranks = files.sorted { $0.file < $1.file }.enumerated().map { ($1.fileIdentity, $0) }
        }

        /// Findings are few files' (a design system's token and styling files): a list searched in order.
        func rank(of location: SourceLocation?) -> Int {
            let file = (location ?? Self.noFile).fileIdentity
            return ranks.first { $0.file == file }!.rank
        }

        private static let noFile = SourceLocation(file: "", line: 0, column: 0)
    }

    /// `sorted`, each finding once. Equal findings are equivalent in that order, so they end up in one run of equivalent
    /// ones (nearly always just them): each run keeps the first of each. (A `Set` made first hashed every field of
    /// every finding, messages and hints included, and copied each twice.) No finding is copied: they are moved into place.
    public static func sortedOnce(_ findings: consuming [Finding]) -> [Finding] {
        var kept: [Int] = [], dropped: [Int] = []
        kept.reserveCapacity(findings.count)
        var run = 0
        // Compared in place in the buffer (an array's element passed to `ordered` was copied first).
        findings.withUnsafeBufferPointer { findings in
            for index in order(findings) {
                if let last = kept.last, !ordered(findings[last], findings[index]) {
                    if kept[run...].contains(where: { findings[$0] == findings[index] }) {
                        dropped.append(index)
                        continue
                    }
                } else {
                    run = kept.count
                }
                kept.append(index)
            }
        }
        let count = kept.count
        // Handed over (`consume`): passed as a copy, the array was shared, and the swaps below copied every finding.
        return rearranged(consume findings, kept + dropped, keeping: count)
    }

    /// Findings are ordered by location, then rule, appearance and subject, so output is deterministic.
    public static func ordered(_ a: Finding, _ b: Finding) -> Bool {
        // Compared field by field (sorting thousands of findings calls this often); no location sorts as ("", 0, 0).
        // Paths compared only for different files (one `SourceFile` per path; no location and an empty path are alike).
        if a.location?.fileIdentity != b.location?.fileIdentity {
            let (fileA, fileB) = (a.location?.file ?? "", b.location?.file ?? "")
            if fileA != fileB { return fileA < fileB }
        }
        let placeA = (a.location?.line ?? 0, a.location?.column ?? 0), placeB = (b.location?.line ?? 0, b.location?.column ?? 0)
        if placeA != placeB { return placeA < placeB }
        if a.rule != b.rule { return a.rule < b.rule }
        if a.appearance != b.appearance {
            return (a.appearance.map(\.order) ?? -1) < (b.appearance.map(\.order) ?? -1)
        }
        if a.theme != b.theme { return (a.theme ?? "") < (b.theme ?? "") }
        if a.subject != b.subject { return a.subject < b.subject }
        return a.message < b.message
    }
}
