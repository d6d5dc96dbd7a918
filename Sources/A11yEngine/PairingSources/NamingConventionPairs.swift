/// Pairs by naming convention across tokens: `appTextOnBrandPrimary` on `appSurfaceBrandPrimary`, inverse text on
/// inverse surfaces.
public struct NamingConventionPairs: PairingSource {
    public init() {}

    public func propose(_ input: PairingInference, surfaces: Surfaces) -> PairingProposal {
        PairingProposal(pairings: namingConventionPairings(input))
    }

    func namingConventionPairings(_ input: PairingInference) -> [Pairing] {
        let graph = input.graph
        // Only a foreground named `...On...` or `...Inverse...` is paired here. Without one (most systems) nothing is
        // listed: the lists and the suffix index below were built over every token for nothing.
        let rows = input.componentPropertyRows
        guard rows.indices.contains(where: { row in
            guard !rows[row] else { return false }
            // The role read in place first: a copy of every token's name info counted references to its words.
            let role = graph.role(row: row)
            guard role == .text || role == .graphic else { return false }
            let words = graph.nameInfo(row: row).words
            return (words.contains("on") || words.contains("inverse")) && graph.color(row: row) != nil
        }) else { return [] }
        var foregrounds: [(key: String, words: [String], role: Role)] = []
        var backgrounds: [(key: String, words: [String])] = []
        for row in input.componentPropertyRows.indices where !input.componentPropertyRows[row] {
            let role = graph.role(row: row)
            guard role == .background || role == .text || role == .graphic, graph.color(row: row) != nil else { continue }
            let (key, words) = (graph.sortedKeys[row], graph.nameInfo(row: row).words)
            if role == .background { backgrounds.append((key, words)) } else { foregrounds.append((key, words, role)) }
        }
        // Backgrounds by every proper suffix of their name words, so each foreground looks its suffix up directly.
        var bySuffix: [[String]: [String]] = [:]
        for bg in backgrounds {
            for length in 1..<max(bg.words.count, 1) { bySuffix[Array(bg.words.suffix(length)), default: []].append(bg.key) }
        }
        var pairs: [Pairing] = []
        for fg in foregrounds {
            var target: [String]?
            if let on = fg.words.firstIndex(of: "on"), on + 1 < fg.words.count {
                target = Array(fg.words[(on + 1)...])
            } else if let inverse = fg.words.firstIndex(of: "inverse") {
                target = Array(fg.words[inverse...])
            }
            guard let target else { continue }
            var suffix = target
            var matches: [String] = []
            while !suffix.isEmpty {
                matches = bySuffix[suffix] ?? []
                if !matches.isEmpty { break }
                suffix.removeLast()
            }
            if matches.isEmpty {
                // `typographyOnBrandPrimary` on `surfacesBrandInteractive`: the surface named right after its role word,
                // whatever prefix and qualifiers each side carries.
                // The plainest such surface: no state word the text does not have, fewest extra words (`surfacesBrandInteractive`,
                // not its hover, pressed or low-contrast variants).
                suffix = target
                while !suffix.isEmpty && matches.isEmpty {
                    let fitting = backgrounds.compactMap { bg -> (key: String, extra: Int)? in
                        let after = Self.afterRoleWord(bg.words)
                        guard after.starts(with: suffix),
                              !after.contains(where: { word in
                                  ComponentStylingPairs.state(of: word).map { state in !fg.words.contains { ComponentStylingPairs.state(of: $0) == state } } ?? false
                              }) else { return nil }
                        return (bg.key, after.count - suffix.count)
                    }
                    let fewest = fitting.map(\.extra).min()
                    matches = fitting.filter { $0.extra == fewest }.map(\.key)
                    if matches.isEmpty { suffix.removeLast() }
                }
            }
            for bg in matches.sorted() {
                guard let f = input.tokenEndpoint(fg.key), let b = input.tokenEndpoint(bg) else { continue }
                pairs.append(Pairing(component: nil, foreground: f, background: b, role: fg.role, reason: .namingConvention,
                                     explanation: "\(f.name) names \(suffix.joined(separator: " ")); \(b.name) is that surface",
                                     typography: nil))
            }
        }
        return pairs
    }

    /// The words after a name's last background role word (`surfacesBrandInteractive` -> brand, interactive).
    static func afterRoleWord(_ words: [String]) -> [String] {
        guard let index = words.lastIndex(where: { Role.backgroundWords.contains(Role.singular($0)) }) else { return [] }
        return Array(words[(index + 1)...])
    }
}
