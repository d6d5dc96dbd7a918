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
    /// Contrast findings of this audit by measurement, for the next audit to reuse (`ContrastFindingMemo`).
    let contrastMemo = ContrastFindingMemo()
    /// True when components, surfaces and pairs were taken from the last audit (`AuditReuse`).
    var reusedPairing = false
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
