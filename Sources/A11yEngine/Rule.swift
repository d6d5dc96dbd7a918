import Foundation

/// A self-describing check. Its description carries passing and failing examples; the test suite runs every one.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    func check(_ context: AuditContext) -> [Finding]
}

public struct RuleDescription: Hashable, Sendable {
    public var id: String
    public var summary: String
    /// The standard the rule enforces (success criterion numbers, HIG pages).
    public var standard: String
    /// Where the standard is explained (linked from SARIF and docs/rules.md).
    public var helpURL: String
    public var passing: [RuleExample]
    public var failing: [RuleExample]

    public init(id: String, summary: String, standard: String, helpURL: String, passing: [RuleExample], failing: [RuleExample]) {
        self.id = id
        self.summary = summary
        self.standard = standard
        self.helpURL = helpURL
        self.passing = passing
        self.failing = failing
    }
}

/// A small design system (one Swift source) that a rule passes or fails on.
public struct RuleExample: Hashable, Sendable {
    public var source: String
    public init(_ source: String) { self.source = source }
}

/// What rules see: the evaluated design system and its measured pairs.
public struct AuditContext {
    public var graph: TokenGraph
    public var components: [Component]
    public var surfaces: Surfaces
    public var pairings: [Pairing]
    public var measurements: [PairMeasurement]
    public var policy: Policy
    public var configuration: ProjectConfiguration
    /// The themes measurements are taken in (empty without themes).
    public var themes: [Theme] = []
    /// Pairs a more trusted source contradicted (view code drew the foreground elsewhere): not measured, explained.
    public var droppedPairings: [DroppedPairing] = []
    /// Sizes and fonts set in view code (touch targets, Dynamic Type).
    public var viewCode = ViewCodeFacts()
    /// Findings of choosing surfaces and pairs (configured names that do not resolve, contradicted pairs).
    public var pairingFindings: [Finding] = []
    /// Contrast findings by measurement index, for the next audit (`contrastFindings`), and the last audit's
    /// measurements they are checked against.
    let contrastMemo = FindingMemo<MeasuredFindings>()
    var earlierMeasurements: [PairMeasurement] = []
    /// The tokens whose definitions or values may differ from the last audit's, when the rest of what token rules read
    /// is the same (components, themes, policy, token keys); nil: everything is checked afresh.
    var changedTokens: Set<String>?
    /// Findings of rules that look at one token at a time, for the next audit (`findingsPerToken`).
    let tokenMemo = FindingMemo<[String: [Finding]]>()

    /// The findings of `rule` over every token in key order, `check` giving one token's by its row in the graph's
    /// table. Tokens no edit reached take their findings from the last audit (`changedTokens`); the result is recorded
    /// for the next one.
    func findingsPerToken(rule: String, _ check: (_ row: Int) -> [Finding]) -> [Finding] {
        var byKey: [String: [Finding]]
        if let changed = changedTokens, let earlier = tokenMemo.earlier[rule] {
            byKey = earlier
            for key in changed {
                let found = graph.row(of: key).map(check) ?? []
                byKey[key] = found.isEmpty ? nil : found
            }
        } else {
            byKey = [:]
            // By row, the key read only for a token with findings (each key was retained and released for every token).
            let keys = graph.sortedKeys
            for row in keys.indices {
                let found = check(row)
                if !found.isEmpty { byKey[keys[row]] = found }
            }
        }
        tokenMemo.record(rule: rule, byKey)
        return byKey.count * 4 < graph.sortedKeys.count
            ? byKey.keys.sorted().flatMap { byKey[$0]! } : graph.sortedKeys.flatMap { byKey[$0] ?? [] }
    }
}

/// A contrast rule's findings and the measurements they are of (`indices`, ascending; one finding each): two arrays kept
/// as the rule made them, where a table by index copied every finding and hashed every index (its growth was most of
/// the hashing in a 5,000-token audit).
struct MeasuredFindings {
    var indices: [Int] = []
    var findings: [Finding] = []

    /// The finding of the measurement at `index`, if it had one.
    func finding(of index: Int) -> Finding? {
        var (low, high) = (0, indices.count)
        while low < high {
            let mid = (low + high) / 2
            if indices[mid] < index { low = mid + 1 } else { high = mid }
        }
        return low < indices.count && indices[low] == index ? findings[low] : nil
    }
}

/// What each rule recorded for the next audit, by rule id: findings by measurement index (contrast) or by token key
/// (`AuditContext.findingsPerToken`). Rules run concurrently, so recording takes a lock.
final class FindingMemo<Recorded>: @unchecked Sendable {
    private let lock = NSLock()
    /// The last audit's (set before the rules run, only read while they do).
    var earlier: [String: Recorded] = [:]
    private var recorded: [String: Recorded] = [:]

    var current: [String: Recorded] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    func record(rule: String, _ value: Recorded) {
        lock.lock()
        recorded[rule] = value
        lock.unlock()
    }
}

/// Findings that come from reading and resolving rather than from a `Rule`: described here so SARIF and the
/// docs list every rule id a finding can carry.
public let readerRuleDescriptions: [RuleDescription] = [
    RuleDescription(id: "reference", summary: "Token references resolve: no dangling names, no cycles, no duplicate definitions",
                    standard: "a11yd (a token that does not resolve cannot be audited)",
                    helpURL: "", passing: [], failing: []),
    RuleDescription(id: "parse", summary: "Files and expressions can be read (valid Swift, valid hex, known forms)",
                    standard: "a11yd (the last good version of a broken file stays in force in the daemon)",
                    helpURL: "", passing: [], failing: []),
    RuleDescription(id: "config", summary: "The project configuration (.a11yd.yml and its policy) reads without errors",
                    standard: "a11yd (while it is broken the daemon keeps the previous configuration in force)",
                    helpURL: "", passing: [], failing: []),
    RuleDescription(id: "suppression", summary: "Suppressions carry a reason and still suppress something",
                    standard: "a11yd", helpURL: "",
                    passing: [], failing: []),
]

/// Every rule, in the order findings are produced. Adding a rule = one file + one line here.
public let allRules: [any Rule] = [
    ContrastTextRule(), ContrastLargeTextRule(), ContrastGraphicRule(), TouchTargetRule(), DynamicTypeRule(), TokenHygieneRule(),
]
