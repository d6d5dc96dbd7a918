import Dispatch

/// One way of finding where a foreground is drawn on a background. Sources propose; `PairingResolver` decides
/// (precedence, de-duplication, what a more trusted source overrides). Adding a source = one file + one line in
/// `allPairingSources`. Sources see only the input, never each other's proposals, so they run concurrently.
public protocol PairingSource: Sendable {
    /// The pairs this source sees, and problems with its input (a declared pair naming no token).
    func propose(_ input: PairingInference, surfaces: Surfaces) -> PairingProposal
    /// True for a source that evaluates code through the graph's interpreter (which is not thread-safe): such sources
    /// run one after another, beside the others.
    var evaluatesCode: Bool { get }
    /// How many parts the source's work divides into, each proposed on a worker of its own (1: it does not divide).
    func parts(_ input: PairingInference) -> Int
    /// Part `part` of `parts(input)` (a divided source's parts evaluate on interpreters of their own); the proposal is the
    /// parts' joined in order. Nil when a part cannot be proposed apart (its evaluation met a cycle or a limit, whose
    /// results depend on order): the whole proposal is then made on one thread.
    func propose(_ input: PairingInference, surfaces: Surfaces, part: Int, of parts: Int) -> PairingProposal?
}

extension PairingSource {
    public var evaluatesCode: Bool { false }
    public func parts(_ input: PairingInference) -> Int { 1 }
    public func propose(_ input: PairingInference, surfaces: Surfaces, part: Int, of parts: Int) -> PairingProposal? {
        propose(input, surfaces: surfaces)
    }
}

public struct PairingProposal: Sendable {
    public var pairings: [Pairing]
    public var findings: [Finding]
    /// Foregrounds whose backgrounds this source knows for certain (declared in the config, drawn in view code): pairs of
    /// less trusted sources for these foregrounds are dropped, unless they pair one of the same backgrounds.
    public var authoritative: Bool
    /// Further foregrounds an authoritative source settles without pairing them itself (the fields of a variant spec
    /// a view reads: `KitButtonVariant.primary.colors.foreground`), each with the pair that settles it.
    public var alsoSettles: [String: Pairing]
    /// A gap-filling source: its pairs for foregrounds a source before it in the registry proposed are dropped.
    public var fillsGaps: Bool

    public init(pairings: [Pairing], findings: [Finding] = [], authoritative: Bool = false, alsoSettles: [String: Pairing] = [:],
                fillsGaps: Bool = false) {
        self.pairings = pairings
        self.findings = findings
        self.authoritative = authoritative
        self.alsoSettles = alsoSettles
        self.fillsGaps = fillsGaps
    }

    /// The proposal of a source whose parts proposed `parts`, in order.
    init(joining parts: [PairingProposal]) {
        self = parts[0]
        for part in parts.dropFirst() {
            pairings += part.pairings
            findings += part.findings
            alsoSettles.merge(part.alsoSettles) { first, _ in first }
        }
    }
}

/// Every pairing source, most trusted first. The order is also the order sources run in.
public let allPairingSources: [any PairingSource] = [
    DeclaredPairs(), ViewCodePairs(), ComponentStylingPairs(), PalettePairs(), NamingConventionPairs(), DefaultSurfacePairs(),
]

/// A pair a more trusted source contradicted, kept so `explain` can say why it is not measured.
public struct DroppedPairing: Hashable, Sendable {
    public var pairing: Pairing
    /// "declared in .a11yd.yml:4 as label on menuBackground".
    public var because: String
}

/// Runs the sources and owns precedence: an authoritative source's foregrounds are settled by it (less trusted pairs
/// for them are dropped), and each (component, foreground, background) keeps its most trusted reason.
public struct PairingResolver {
    public let sources: [any PairingSource]

    public init(sources: [any PairingSource]) {
        self.sources = sources
    }

    public struct Resolution {
        public var pairings: [Pairing]
        public var findings: [Finding]
        public var dropped: [DroppedPairing]
    }

    /// "view-code pairs it with kitBrand, kitInk instead (Text drawn in ... at KitButton.swift:50)": the enabled pairs first.
    static func because(_ settling: [Pairing]) -> String {
        let shown = settling.filter { $0.role != .disabled }.isEmpty ? settling : settling.filter { $0.role != .disabled }
        var backgrounds: [String] = []
        for pair in shown where !backgrounds.contains(pair.background.name) { backgrounds.append(pair.background.name) }
        let listed = backgrounds.prefix(3).joined(separator: ", ") + (backgrounds.count > 3 ? " and \(backgrounds.count - 3) more" : "")
        return "\(shown[0].reason.rawValue) pairs it with \(listed) instead (\(shown[0].explanation))"
    }

    public func resolve(_ input: PairingInference, surfaces: Surfaces) -> Resolution {
        var proposals = propose(input, surfaces: surfaces)
        // The foregrounds paired before a proposal that only fills gaps, kept while one is still to come (usually none
        // has pairs: each foreground name was hashed into the set for nothing).
        let lastFilling = proposals.lastIndex { $0.fillsGaps && !$0.pairings.isEmpty } ?? -1
        var proposed: Set<String> = []
        for i in proposals.indices where i <= lastFilling {
            if proposals[i].fillsGaps { proposals[i].pairings.removeAll { proposed.contains($0.foreground.qualifiedName) } }
            if i < lastFilling { proposed.formUnion(proposals[i].pairings.map(\.foreground.qualifiedName)) }
        }
        // Foregrounds an authoritative source settled, with the pairs that settle them.
        var settled: [String: [Pairing]] = [:]
        var dropped: [DroppedPairing] = []
        var kept: [Pairing] = []
        for proposal in proposals {
            var settledHere: [String: [Pairing]] = [:]
            for pair in proposal.pairings {
                if let settling = settled[pair.foreground.qualifiedName], !settling.isEmpty {
                    dropped.append(DroppedPairing(pairing: pair, because: Self.because(settling)))
                    continue
                }
                kept.append(pair)
                if proposal.authoritative { settledHere[pair.foreground.qualifiedName, default: []].append(pair) }
            }
            if proposal.authoritative { for (key, pair) in proposal.alsoSettles { settledHere[key, default: []].append(pair) } }
            settled.merge(settledHere) { $0 + $1 }
        }
        // Keep the most trusted reason for each (component, foreground, background). The keys (three names hashed a pair)
        // are made on all cores for many pairs: on one, they were most of this serial step.
        let workers = kept.count >= Self.pairsRankedConcurrently ? input.graph.interpreter.configuration.workers : 1
        let keys = concurrentMap(kept, workers: workers) { pair in
            BestKey(component: NameKey(pair.component ?? ""), foreground: NameKey(pair.foreground.qualifiedName),
                    background: NameKey(pair.background.qualifiedName))
        }
        var best: [BestKey: Pairing] = [:]
        best.reserveCapacity(kept.count)
        for i in kept.indices {
            if let existing = best[keys[i]], existing.reason <= kept[i].reason { continue }
            best[keys[i]] = kept[i]
        }
        return Resolution(pairings: Self.ordered(Array(best.values)), findings: proposals.flatMap(\.findings), dropped: dropped)
    }

    /// Every source's proposal, in registry order. A divided source's parts first, each on a worker of its own (the
    /// largest work: one source alone on a core set the phase's length); then the undivided sources that evaluate code,
    /// one after another on one worker; then each of the others on a worker of its own, the least trusted first (they
    /// look at every token; declared and drawn pairs are few).
    func propose(_ input: PairingInference, surfaces: Surfaces) -> [PairingProposal] {
        struct Job { var source: Int, part: Int, of: Int }
        let parts = sources.map { $0.parts(input) }
        var lanes: [[Job]] = []
        for i in sources.indices where parts[i] > 1 { lanes += (0..<parts[i]).map { [Job(source: i, part: $0, of: parts[i])] } }
        let evaluating = sources.indices.filter { parts[$0] == 1 && sources[$0].evaluatesCode }.map { Job(source: $0, part: 0, of: 1) }
        if !evaluating.isEmpty { lanes.append(evaluating) }
        lanes += sources.indices.reversed().filter { parts[$0] == 1 && !sources[$0].evaluatesCode }.map { [Job(source: $0, part: 0, of: 1)] }
        // Each job's proposal, by source and part.
        let offsets = parts.indices.map { parts[..<$0].reduce(0, +) }
        let results = ConcurrentResults<PairingProposal?>(count: parts.reduce(0, +))
        let shared = ReadOnly(value: (sources, input, surfaces, lanes))
        parallelPerform(iterations: lanes.count) { lane in
            let (sources, input, surfaces, lanes) = shared.value
            for job in lanes[lane] {
                let proposal = job.of == 1 ? sources[job.source].propose(input, surfaces: surfaces)
                    : sources[job.source].propose(input, surfaces: surfaces, part: job.part, of: job.of)
                results.set(offsets[job.source] + job.part, proposal)
            }
        }
        let proposals = results.takeValues()
        return sources.indices.map { i in
            let own = proposals[offsets[i]..<offsets[i] + parts[i]].map { $0 ?? nil }
            guard own.allSatisfy({ $0 != nil }) else { return sources[i].propose(input, surfaces: surfaces) }
            return parts[i] == 1 ? own[0]! : PairingProposal(joining: own.map { $0! })
        }
    }

    /// Hashed from its names' kept hashes (`NameKey`), not with SipHash over three strings at each look-up.
    struct BestKey: Hashable {
        var component: NameKey, foreground: NameKey, background: NameKey
        func hash(into hasher: inout Hasher) { hasher.combine(combined) }
        func _rawHashValue(seed: Int) -> Int { NameKey.finalMix(combined, seed: seed) }
        private var combined: UInt64 { background.hash(after: foreground.hash(after: component.hash)) }
    }

    /// Pairs by component (none last), the foreground's location, its name (tokens a function or initialiser makes
    /// per case share a location: without the name they kept the order of a dictionary's values, another each run),
    /// then the background's name. Sorted as integer ranks of those strings (each distinct string compared once),
    /// moving indices rather than whole pairs.
    static func ordered(_ pairs: [Pairing]) -> [Pairing] {
        // The four rankings side by side for many pairs (each hashes every pair's string: a serial step of the phase).
        let ranks = ConcurrentResults<[Int]>(count: 4)
        let shared = ReadOnly(value: pairs)
        let rank = { (field: Int) in
            let pairs = shared.value
            switch field {
            // By index, each pair read in place (a lazy map over the pairs themselves copied each one out).
            case 0: ranks.set(0, positionRanks(pairs.indices.lazy.map { pairs[$0].component ?? "~" }))
            case 1: ranks.set(1, positionRanks(pairs.indices.lazy.map { pairs[$0].foreground.location.file }))
            case 2: ranks.set(2, positionRanks(pairs.indices.lazy.map { pairs[$0].foreground.qualifiedName }))
            default: ranks.set(3, positionRanks(pairs.indices.lazy.map { pairs[$0].background.qualifiedName }))
            }
        }
        if pairs.count >= Self.pairsRankedConcurrently { parallelPerform(iterations: 4, rank) } else { (0..<4).forEach(rank) }
        let all = ranks.values
        let (components, files, foregrounds, backgrounds) = (all[0]!, all[1]!, all[2]!, all[3]!)
        let keys = pairs.indices.map { i in
            (components[i], files[i], pairs[i].foreground.location.line, pairs[i].foreground.location.column, foregrounds[i], backgrounds[i])
        }
        return pairs.indices.sorted { keys[$0] < keys[$1] }.map { pairs[$0] }
    }
}

extension PairingResolver {
    /// From this many pairs on, `resolve` makes their keys and `ordered` ranks their four fields on several cores.
    static let pairsRankedConcurrently = 1_000
}

/// The rank of each of `strings` (`stringRanks`), by position: each string is hashed once, and its rank is not looked up
/// again by it (`ordered` hashed each pair's four strings again to find their ranks in the maps).
func positionRanks(_ strings: some Sequence<String>) -> [Int] {
    var numbers = NameMap<Int>()
    var distinct: [String] = []
    // Each position's string by its number in `distinct`, then its rank.
    var ranks: [Int] = []
    ranks.reserveCapacity(strings.underestimatedCount)
    // A string equal to the one before it is not hashed again: a pair's appearances, and a component's pairs, come one
    // after another and share their strings (one storage: compared without reading their bytes).
    var previous: String?
    for string in strings {
        if string == previous, let last = ranks.last {
            ranks.append(last)
            continue
        }
        previous = string
        // Hashed once, for the look-up and the insertion of a new one (the defaulted subscript boxed its default).
        let key = NameKey(string)
        if let number = numbers[key] { ranks.append(number) } else {
            numbers[key] = distinct.count
            ranks.append(distinct.count)
            distinct.append(string)
        }
    }
    var rankOfNumber = [Int](repeating: 0, count: distinct.count)
    for (rank, number) in distinct.orderComparingBytes().enumerated() { rankOfNumber[number] = rank }
    for i in ranks.indices { ranks[i] = rankOfNumber[ranks[i]] }
    return ranks
}

/// Each distinct string's place in sorted order: sorting by ranks compares each string once, not at every comparison.
func stringRanks(_ strings: some Sequence<String>) -> NameMap<Int> {
    var ranks = NameMap<Int>()
    var distinct: [String] = []
    // A string equal to the one before it is not hashed again: a pair's appearances, and a component's pairs, come one
    // after another and share their strings (one storage: compared without reading their bytes).
    var previous: String?
    for string in strings where string != previous {
        previous = string
        if ranks.updateValue(0, forKey: string) == nil { distinct.append(string) }
    }
    for (rank, string) in distinct.sortedComparingBytes().enumerated() { ranks[string] = rank }
    return ranks
}
