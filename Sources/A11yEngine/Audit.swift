import Foundation

/// The result of auditing a design system: a deterministic document (stable ordering, no clock unless the daemon stamps it).
public struct Audit: Codable, Hashable, Sendable {
    public struct PolicyInfo: Codable, Hashable, Sendable {
        public var id: String
        public var name: String
    }

    public struct SurfacesInfo: Codable, Hashable, Sendable {
        public var tokens: [String]
        public var inferred: Bool
        public var explanation: String

        public init(tokens: [String], inferred: Bool, explanation: String) {
            self.tokens = tokens
            self.inferred = inferred
            self.explanation = explanation
        }
    }

    public struct Endpoint: Codable, Hashable, Sendable {
        public var token: String?
        public var property: String?
        /// The color in this appearance, `#RRGGBB` or `#RRGGBBAA`.
        public var color: String
        /// False when the appearance's value is an iOS fallback (e.g. dark falls back to any/light).
        public var explicit: Bool
        public var location: SourceLocation
    }

    public struct Typography: Codable, Hashable, Sendable {
        public var property: String
        public var size: Double?
        public var weight: String?
        public var how: String
    }

    public struct Pair: Codable, Hashable, Sendable {
        public var component: String?
        public var foreground: Endpoint
        public var background: Endpoint
        public var appearance: Appearance
        public var role: Role
        /// The theme the colors come from (schema 2); nil for design systems without themes and pairs no theme changes.
        public var theme: String?
        /// Unrounded WCAG ratio.
        public var ratio: Double
        /// nil for exempt pairs (disabled).
        public var required: Double?
        public var pass: Bool
        public var reason: PairingReason
        public var explanation: String
        public var typography: Typography?
        public var subject: String
        /// Where view code draws the foreground on the background (reason `view-code`); absent for inferred pairs.
        public var drawnAt: SourceLocation?

        enum CodingKeys: String, CodingKey {
            case component, foreground, background, appearance, theme, role, ratio, required, pass, reason, explanation, typography, subject
            case drawnAt
        }

        /// `component` and `required` are always present (null when absent): consumers rely on the keys.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(component, forKey: .component)
            try c.encode(foreground, forKey: .foreground)
            try c.encode(background, forKey: .background)
            try c.encode(appearance, forKey: .appearance)
            try c.encode(theme, forKey: .theme)
            try c.encode(role, forKey: .role)
            try c.encode(ratio, forKey: .ratio)
            try c.encode(required, forKey: .required)
            try c.encode(pass, forKey: .pass)
            try c.encode(reason, forKey: .reason)
            try c.encode(explanation, forKey: .explanation)
            try c.encodeIfPresent(typography, forKey: .typography)
            try c.encode(subject, forKey: .subject)
            try c.encodeIfPresent(drawnAt, forKey: .drawnAt)
        }
    }

    public struct Summary: Codable, Hashable, Sendable {
        public var files: Int
        public var tokens: Int
        public var components: Int
        public var pairs: Int
        public var failingPairs: Int
        public var failingByAppearance: [String: Int]
        public var errors: Int
        public var warnings: Int
        public var infos: Int
        /// Findings removed by suppressions (inline or `suppress:`).
        public var suppressed: Int
        /// Tokens whose value could not be evaluated (each root cause is one `parse` or `reference` finding); absent in
        /// audits stored before it existed.
        public var unevaluatedTokens: Int?
        /// Failing pairs per theme (every theme listed, 0 included); absent without themes.
        public var failingByTheme: [String: Int]?
    }

    /// 2: pairs and findings have `theme`, the audit lists `themes` (docs/audit-json.md).
    public var schemaVersion: Int = 2
    /// Set by the daemon: monotonically increasing, a clock for `subscribe(since:)`.
    public var id: Int?
    /// Set by the daemon (ISO 8601); absent in one-shot audits so output is byte-identical for the same input.
    public var time: String?
    public var inputDigest: String
    public var policy: PolicyInfo
    public var appearances: [Appearance]
    /// The themes audited, the default first in the code's order (empty without themes; absent in schema 1 audits).
    public var themes: [Theme]? = nil
    public var surfaces: SurfacesInfo
    public var pairs: [Pair]
    public var findings: [Finding]
    public var summary: Summary
}

/// Everything an audit is computed from. Readers fill it; the engine never touches a file.
public struct AuditInput: Sendable {
    public var sources: [ParsedSource]
    public var configuration: ProjectConfiguration
    public var policy: Policy
    /// Digest of the input files' contents (computed by whoever read them).
    public var inputDigest: String
    /// Problems found before the engine ran (configuration, unreadable files).
    public var findings: [Finding]
    /// Inline suppressions found in the sources; `configuration.suppressions` are added to them.
    public var suppressions: [Suppression]
    /// Threads evaluation may use (`Interpreter.Configuration.workers`); whoever reads the files knows the machine.
    public var evaluationThreads = 1
    /// Called with each phase of the audit as it finishes (`a11y-bench phases` times them); phases an audit takes over
    /// from the previous one (the daemon's pairing) are not reported.
    public var onPhase: (@Sendable (AuditPhase) -> Void)?

    public init(sources: [ParsedSource], configuration: ProjectConfiguration, policy: Policy, inputDigest: String,
                findings: [Finding] = [], suppressions: [Suppression] = []) {
        self.sources = sources
        self.configuration = configuration
        self.policy = policy
        self.inputDigest = inputDigest
        self.findings = findings
        self.suppressions = suppressions
    }
}

/// The phases of an audit, in order (`AuditInput.onPhase`).
public enum AuditPhase: String, CaseIterable, Sendable {
    case program = "program (interpreter indexes)"
    case themeDiscovery = "theme discovery"
    case tokenGraphs = "token graphs (evaluation)"
    case viewCode = "view code"
    case components = "components and inference"
    case surfaces
    case pairing = "pairing sources and resolution"
    case measurement
    case rulesAndListing = "rules and the listing's pairs"
    case suppressionAndSorting = "suppression and sorting"
    case summary
}

/// The evaluated design system behind an audit, kept for `pairs` and `explain`.
public struct AuditResult {
    public var audit: Audit
    public var context: AuditContext
    /// What the next audit of the same design system takes from this one besides the context (`Auditor.run(_:previous:)`).
    var carried = Carried()

    struct Carried {
        /// The audit's pairs as listed, and the measurement each of them is made from (its index in the measurements).
        /// (Not kept again by measurement: a second array of the pairs copied each pair, a dozen references counted.)
        var listedPairs: [Audit.Pair] = []
        var pairOrder: [Int] = []
        /// The tokens whose colors define a high-contrast variant (`Auditor.auditedAppearances`).
        var highContrastTokens: Set<String> = []
        /// True when the design system has no view code by its structure (`ViewCodeAnalysis.readsNothing`).
        var hasNoViewCode = false
        /// True when components, surfaces and pairs were taken from the last audit (`AuditReuse`).
        var reusedPairing = false
    }
}

public enum Auditor {
    /// `previous`: the last audit of the same design system (the daemon's), whose evaluated values an edit did not
    /// reach are reused; the result is the same as without it.
    public static func run(_ input: AuditInput, previous: AuditResult? = nil) -> AuditResult {
        var interpreter = Interpreter.Configuration()
        interpreter.idiom = input.configuration.idiom
        interpreter.workers = input.evaluationThreads
        let system = ThemedSystem.evaluate(sources: input.sources, interpreter: interpreter, project: input.configuration,
                                           previous: previous?.context.graph, onPhase: input.onPhase)
        input.onPhase?(.tokenGraphs)
        let graph = system.primary
        var carried = AuditResult.Carried()
        // Per-token and per-measurement findings of the last audit hold only under the same policy.
        let earlier = previous.flatMap { $0.context.policy == input.policy ? $0 : nil }
        // Without view code the last audit had, and with the same structure, there is none now either (a save to a token
        // file: the declarations view code reads are not even listed).
        let viewCode: ViewCodeFacts
        if let previous, previous.carried.hasNoViewCode, graph.program.changedSincePrevious != nil {
            (viewCode, carried.hasNoViewCode) = (ViewCodeFacts(), true)
        } else {
            let declarations = ViewCodeAnalysis.viewCodeDeclarations(in: input.sources, workers: input.evaluationThreads)
            let analysis = ViewCodeAnalysis(declarations: declarations, types: input.sources.flatMap(\.types), graph: graph)
            (viewCode, carried.hasNoViewCode) = (analysis.facts(), analysis.readsNothing)
        }
        input.onPhase?(.viewCode)
        let appearances: [Appearance]
        (appearances, carried.highContrastTokens) = auditedAppearances(graph, previous: previous?.carried.highContrastTokens)
        var context: AuditContext
        if let previous, let reused = AuditReuse.pairing(from: previous.context, graph: graph, configuration: input.configuration,
                                                         viewCode: viewCode, themes: system.themes) {
            context = AuditContext(graph: graph, components: reused.components, surfaces: reused.surfaces, pairings: reused.pairings,
                                   measurements: [], policy: input.policy, configuration: input.configuration, themes: system.themes,
                                   droppedPairings: reused.droppedPairings, viewCode: viewCode, pairingFindings: reused.pairingFindings)
            carried.reusedPairing = true
            if let earlier {
                context.changedTokens = graph.updatedKeys
                context.tokenMemo.earlier = earlier.context.tokenMemo.current
            }
        } else {
            let components = Component.all(declarations: input.sources.flatMap(\.components), graph: graph)
            // (What the views draw is read above: the inference needs no declarations to read it again.)
            let inference = PairingInference(graph: graph, components: components, configuration: input.configuration,
                                             viewCode: viewCode)
            input.onPhase?(.components)
            let (surfaces, surfaceFindings) = inference.surfaces()
            input.onPhase?(.surfaces)
            let resolution = inference.resolve(surfaces: surfaces)
            input.onPhase?(.pairing)
            context = AuditContext(graph: graph, components: components, surfaces: surfaces, pairings: resolution.pairings,
                                   measurements: [], policy: input.policy, configuration: input.configuration, themes: system.themes,
                                   droppedPairings: resolution.dropped, viewCode: viewCode, pairingFindings: surfaceFindings + resolution.findings)
        }
        context.measurements = measure(context.pairings, system: system, surfaces: context.surfaces, policy: input.policy,
                                       appearances: appearances,
                                       earlier: context.changedTokens.map { (earlier?.context.measurements ?? [], $0) })
        if let earlier {
            context.contrastMemo.earlier = earlier.context.contrastMemo.current
            context.earlierMeasurements = earlier.context.measurements
        }
        input.onPhase?(.measurement)
        let (components, surfaces) = (context.components, context.surfaces)

        var findings = input.findings + input.sources.flatMap(\.findings) + graph.findings() + system.findings + context.pairingFindings
        // The listing's pairs are built beside the rules (they read the same complete context).
        final class PairsBox: @unchecked Sendable { var pairs: [Audit.Pair] = []; var carried = AuditResult.Carried() }
        let listed = PairsBox()
        listed.carried = carried
        let shared = ReadOnly(value: (context, system, earlier))
        Self.checkConcurrently(allRules, context, into: &findings) {
            listed.pairs = Self.pairs(shared.value.0, system: shared.value.1, earlier: shared.value.2, carried: &listed.carried)
        }
        input.onPhase?(.rulesAndListing)
        (context.contrastMemo.earlier, context.earlierMeasurements, context.tokenMemo.earlier) = ([:], [], [:])
        // Sorted and each once before suppression, which keeps their order; its problems (rare) are sorted in after.
        let suppression = Suppression.apply(input.suppressions + input.configuration.suppressions, to: Finding.sortedOnce(consume findings))
        // (`+` copies every kept finding even when there are no problems to add.)
        findings = suppression.problems.isEmpty ? suppression.kept : Finding.sorted(suppression.kept + suppression.problems)
        input.onPhase?(.suppressionAndSorting)

        let pairs = listed.pairs
        carried = listed.carried
        // Counted by index, in place: a loop over the elements (or `filter(...).count`) copied every pair and finding.
        // Counted by the appearance's number, then named (a dictionary keyed by its name hashed the name per failing pair).
        var failingCounts = [Int](repeating: 0, count: Appearance.allCases.count)
        for i in pairs.indices where !pairs[i].pass { failingCounts[pairs[i].appearance.order] += 1 }
        var failingByAppearance: [String: Int] = [:]
        for appearance in Appearance.allCases where failingCounts[appearance.order] > 0 {
            failingByAppearance[appearance.rawValue] = failingCounts[appearance.order]
        }
        var failingByTheme: [String: Int]?
        if !system.themes.isEmpty {
            failingByTheme = Dictionary(uniqueKeysWithValues: system.themes.map { ($0.name, 0) })
            for i in pairs.indices where !pairs[i].pass { if let t = pairs[i].theme { failingByTheme?[t, default: 0] += 1 } }
        }
        var (errors, warnings, infos) = (0, 0, 0)
        for i in findings.indices {
            switch findings[i].severity {
            case .error: errors += 1
            case .warning: warnings += 1
            case .info: infos += 1
            }
        }
        let summary = Audit.Summary(
            files: input.sources.count, tokens: graph.tokens.count, components: components.count, pairs: pairs.count,
            failingPairs: failingByAppearance.values.reduce(0, +), failingByAppearance: failingByAppearance,
            errors: errors, warnings: warnings, infos: infos, suppressed: suppression.suppressed.count,
            unevaluatedTokens: graph.unevaluatedCount, failingByTheme: failingByTheme)
        let audit = Audit(
            id: nil, time: nil, inputDigest: input.inputDigest,
            policy: Audit.PolicyInfo(id: input.policy.id, name: input.policy.name), appearances: appearances, themes: system.themes,
            surfaces: Audit.SurfacesInfo(tokens: surfaces.endpoints.map(\.name), inferred: surfaces.inferred, explanation: surfaces.explanation),
            pairs: pairs, findings: findings, summary: summary)
        input.onPhase?(.summary)
        return AuditResult(audit: audit, context: context, carried: carried)
    }

    /// The audit's pairs in listing order. An unchanged measurement of tokens no edit reached keeps the last audit's
    /// pair, and the same pairings measured in the same order keep its order. The order is found from the measurements
    /// and each pair made once, in its place (made by measurement and then put in order, each was copied).
    static func pairs(_ context: AuditContext, system: ThemedSystem, earlier: AuditResult?, carried: inout AuditResult.Carried) -> [Audit.Pair] {
        let measurements = context.measurements
        let earlierMeasurements = earlier?.context.measurements ?? []
        var sameOrder = context.changedTokens != nil && earlierMeasurements.count == measurements.count
        // Where the last audit listed the pair of each of its measurements.
        var earlierPositions: [Int] = []
        if sameOrder, let earlier, earlier.carried.pairOrder.count == earlierMeasurements.count {
            earlierPositions = [Int](repeating: 0, count: earlierMeasurements.count)
            for (position, i) in earlier.carried.pairOrder.enumerated() { earlierPositions[i] = position }
        }
        // For each measurement, the position of the last audit's pair it keeps; -1 for a pair made afresh.
        let keptPosition = measurements.indices.map { i -> Int in
            guard sameOrder else { return -1 }
            let (m, before) = (measurements[i], earlierMeasurements[i])
            guard before.pairing == m.pairing, before.appearance == m.appearance, before.theme == m.theme else {
                sameOrder = false
                return -1
            }
            if let changed = context.changedTokens, before == m, !changed.contains(m.pairing.foreground.qualifiedName),
               !changed.contains(m.pairing.background.qualifiedName), !earlierPositions.isEmpty {
                return earlierPositions[i]
            }
            return -1
        }
        if sameOrder, let earlierOrder = earlier?.carried.pairOrder {
            carried.pairOrder = earlierOrder
        } else {
            // By component (none last), the foreground's location, the background's token, the subject, the theme and the
            // appearance; the strings compared as their ranks (each distinct string compared once), but the subject,
            // compared only where all before it tie (nearly every pair's subject is its own: ranking them hashed and
            // sorted them all; a tie is mostly one pair's appearances, whose subject is one string).
            // Each measurement's pairing read in place (a copy of a pairing's endpoint counted its strings).
            let themeOrder = Dictionary(uniqueKeysWithValues: system.themes.enumerated().map { ($1.name, $0) })
            // (By index: a lazy map over the measurements themselves copied each one out.)
            // Each measurement's rank of one of its strings; one equal to the last one's is not looked up again (a
            // pair's appearances, and a component's pairs, come one after another and share their strings).
            func ranks(_ string: @escaping (Int) -> String) -> [Int] {
                let rankOf = stringRanks(measurements.indices.lazy.map(string))
                var last: (string: String, rank: Int)?
                return measurements.indices.map { i in
                    let s = string(i)
                    if let last, last.string == s { return last.rank }
                    let rank = rankOf[s]!
                    last = (s, rank)
                    return rank
                }
            }
            let components = ranks { measurements[$0].pairing.component ?? "~" }
            let files = ranks { measurements[$0].pairing.foreground.location.file }
            let backgrounds = ranks { measurements[$0].pairing.background.token ?? "" }
            let keys = measurements.indices.map { i in
                let location = measurements[i].pairing.foreground.location
                return ((components[i], files[i], location.line, location.column, backgrounds[i]),
                        (measurements[i].theme.flatMap { themeOrder[$0] } ?? -1, measurements[i].appearance.order))
            }
            carried.pairOrder = measurements.indices.sorted { i, j in
                if keys[i].0 != keys[j].0 { return keys[i].0 < keys[j].0 }
                let (a, b) = (measurements[i].pairing.subject, measurements[j].pairing.subject)
                if a != b { return a < b }  // String's order, the ranks' order (bytes for ASCII)
                return keys[i].1 < keys[j].1
            }
        }
        let earlierPairs = earlier?.carried.listedPairs ?? []
        carried.listedPairs = carried.pairOrder.map { i in keptPosition[i] >= 0 ? earlierPairs[keptPosition[i]] : pair(for: measurements[i]) }
        return carried.listedPairs
    }

    /// Runs the rules at once (they only read the context; the token graph is complete and its caches filled), and
    /// `alongside` on a worker of its own, first; their findings appended to `findings` in the registry's order.
    static func checkConcurrently(_ rules: [any Rule], _ context: AuditContext, into findings: inout [Finding],
                                  alongside: @escaping @Sendable () -> Void) {
        let results = ConcurrentResults<[Finding]>(count: rules.count)
        let shared = ReadOnly(value: (rules, context))
        // The longest first, so no core is left with one of them alone at the end: the listing (as long as a rule on a
        // system of many pairs), then the rules last to first (`allRules` ends with the rules that check every token,
        // Dynamic Type and hygiene, the longest on a large graph).
        parallelPerform(iterations: rules.count + 1) { i in
            if i == 0 { alongside() } else {
                let rule = rules.count - i
                results.set(rule, shared.value.0[rule].check(shared.value.1))
            }
        }
        // Moved out of the slots and appended once each (`flatMap` made an array that the caller's `+=` copied again).
        for case let found? in results.takeValues() { findings.append(contentsOf: found) }
    }

    /// Pairs that do not change with the theme are measured once (theme nil), in every audited appearance; pairs that do
    /// are measured in each theme, in the theme's own appearance when its colors are fixed (a "night" palette is dark).
    static func measure(_ pairings: [Pairing], system: ThemedSystem, surfaces: Surfaces, policy: Policy,
                        appearances: [Appearance], earlier: (measurements: [PairMeasurement], changedTokens: Set<String>)? = nil) -> [PairMeasurement] {
        guard !system.themes.isEmpty else {
            return PairMeasurement.measure(pairings, graph: system.primary, surfaces: surfaces, policy: policy, appearances: appearances,
                                           earlier: earlier)
        }
        let surfaceThemed = surfaces.endpoints.contains { system.themedKeys.contains($0.qualifiedName) }
        var fixed: [Pairing] = []
        var themed: [Pairing] = []
        for pairing in pairings {
            let keys = [pairing.foreground, pairing.background].map(\.qualifiedName) + [pairing.compositedOver?.qualifiedName].compactMap { $0 }
            if keys.contains(where: system.themedKeys.contains) || (surfaceThemed && pairing.compositedOver == nil) {
                themed.append(pairing)
            } else {
                fixed.append(pairing)
            }
        }
        var result = PairMeasurement.measure(fixed, graph: system.primary, surfaces: surfaces, policy: policy, appearances: appearances)
        for (theme, graph) in zip(system.themes, system.graphs) {
            result += PairMeasurement.measure(themed, graph: graph, surfaces: surfaces, policy: policy,
                                              appearances: theme.appearance.map { [$0] } ?? appearances, theme: theme.name)
        }
        return result
    }

    /// Light and dark always; the increased-contrast appearances when any token defines them.
    /// Light and dark, and the high-contrast variants when some color (not a constant one) defines one. `previous`:
    /// the tokens that defined one in the last audit, when this graph was updated from its graph (only the tokens it
    /// read again are looked at).
    static func auditedAppearances(_ graph: TokenGraph, previous: Set<String>? = nil) -> (appearances: [Appearance], highContrastTokens: Set<String>) {
        // A constant color (Color.clear, a fixed literal) is the same everywhere: it defines no high-contrast variant.
        func definesHighContrast(_ c: AppearanceColor) -> Bool {
            !c.isConstant && (c.explicit.contains(.lightHighContrast) || c.explicit.contains(.darkHighContrast))
        }
        var tokens: Set<String>
        if let previous, let updated = graph.updatedKeys, graph.sameKeysAsPrevious {
            tokens = previous.subtracting(updated).union(updated.filter { graph.color(of: $0).map(definesHighContrast) ?? false })
        } else {
            tokens = Set(graph.colorKeys(where: definesHighContrast))
        }
        return (tokens.isEmpty ? [.light, .dark] : [.light, .dark, .lightHighContrast, .darkHighContrast], tokens)
    }

    static func pair(for m: PairMeasurement) -> Audit.Pair {
        func endpoint(_ e: PairingEndpoint, _ color: ColorValue, explicit: Bool) -> Audit.Endpoint {
            Audit.Endpoint(token: e.token, property: e.property, color: color.hex, explicit: explicit, location: e.location)
        }
        return Audit.Pair(
            component: m.pairing.component, foreground: endpoint(m.pairing.foreground, m.foreground, explicit: m.foregroundExplicit),
            background: endpoint(m.pairing.background, m.background, explicit: m.backgroundExplicit), appearance: m.appearance, role: m.role,
            theme: m.theme, ratio: m.ratio, required: m.required, pass: m.pass, reason: m.pairing.reason, explanation: m.pairing.explanation,
            typography: m.pairing.typography.map {
                Audit.Typography(property: $0.property, size: $0.font.size, weight: $0.font.weight, how: $0.how)
            },
            subject: m.pairing.subject, drawnAt: m.pairing.drawnAt)
    }
}

extension Audit.Pair {
    /// The contrast rule that measures this pair (disabled text is reported, as info, under `contrast.text`); nil for
    /// a role no rule measures.
    public var rule: String? {
        switch role {
        case .text, .disabled: return "contrast.text"
        case .largeText: return "contrast.large-text"
        case .graphic: return "contrast.graphic"
        case .background, .decorative: return nil
        }
    }
}

extension Audit {
    /// Whether a rule id is selected by a filter naming a rule or a rule prefix (`contrast` selects `contrast.text`).
    public static func rule(_ id: String, matches filter: String) -> Bool { id == filter || id.hasPrefix(filter + ".") }

    /// The audit narrowed to what the filters select: rows and findings alike, and the summary counts what is left
    /// (so `latest --appearance dark` never shows light failures in its summary). Totals that describe the input
    /// (files, tokens, suppressed, unevaluated tokens) are kept. `rowsByRule: false` narrows only the findings by
    /// rule and keeps every pair row (the protocol's `audit.latest`, whose clients may want the rows whatever the rule).
    public func filtered(appearance: Appearance? = nil, theme: String? = nil, rule: String? = nil, severity: Severity? = nil, component: String? = nil,
                         rowsByRule: Bool = true) -> Audit {
        var audit = self
        if let appearance {
            audit.appearances = audit.appearances.filter { $0 == appearance }
            audit.pairs = audit.pairs.filter { $0.appearance == appearance }
            audit.findings = audit.findings.filter { $0.appearance == appearance || $0.appearance == nil }
        }
        if let theme {
            // Pairs no theme changes hold in every theme: kept, like findings that do not depend on the theme.
            audit.themes = audit.themes?.filter { $0.name == theme }
            audit.pairs = audit.pairs.filter { $0.theme == theme || $0.theme == nil }
            audit.findings = audit.findings.filter { $0.theme == theme || $0.theme == nil }
        }
        if let rule {
            if rowsByRule { audit.pairs = audit.pairs.filter { $0.rule.map { Self.rule($0, matches: rule) } ?? false } }
            audit.findings = audit.findings.filter { Self.rule($0.rule, matches: rule) }
        }
        if let severity {
            audit.findings = audit.findings.filter { $0.severity >= severity }
        }
        if let component {
            audit.pairs = audit.pairs.filter { $0.component == component }
            audit.findings = audit.findings.filter { $0.component == component }
            audit.summary.components = audit.pairs.isEmpty && audit.findings.isEmpty ? 0 : 1
        }
        audit.summary.pairs = audit.pairs.count
        audit.summary.failingPairs = audit.pairs.filter { !$0.pass }.count
        var failingByAppearance: [String: Int] = [:]
        for p in audit.pairs where !p.pass { failingByAppearance[p.appearance.rawValue, default: 0] += 1 }
        audit.summary.failingByAppearance = failingByAppearance
        if let byTheme = audit.summary.failingByTheme {
            var recount = byTheme.filter { name, _ in audit.themes?.contains { $0.name == name } ?? false }.mapValues { _ in 0 }
            for p in audit.pairs where !p.pass { if let t = p.theme { recount[t, default: 0] += 1 } }
            audit.summary.failingByTheme = recount
        }
        audit.summary.errors = audit.findings.filter { $0.severity == .error }.count
        audit.summary.warnings = audit.findings.filter { $0.severity == .warning }.count
        audit.summary.infos = audit.findings.filter { $0.severity == .info }.count
        return audit
    }
}
