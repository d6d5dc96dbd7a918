/// Text and icon tokens no other source paired, checked against the default surfaces (token-only systems,
/// tokens not used yet).
public struct DefaultSurfacePairs: PairingSource {
    public init() {}

    public func propose(_ input: PairingInference, surfaces: Surfaces) -> PairingProposal {
        // Foregrounds other sources paired are dropped by the resolver (`fillsGaps`): this runs beside them.
        PairingProposal(pairings: unusedTokenPairings(surfaces: surfaces, input), fillsGaps: true)
    }

    func unusedTokenPairings(surfaces: Surfaces, _ input: PairingInference) -> [Pairing] {
        let used = Set(input.components.flatMap { $0.properties.compactMap(\.referencedToken) })
        let componentKeys = Set(input.components.flatMap { $0.properties.map(\.qualifiedName) })
        let surfaceKeys = Set(surfaces.endpoints.map(\.qualifiedName))
        var pairs: [Pairing] = []
        for key in input.graph.sortedKeys where !componentKeys.contains(key) && !used.contains(key) && !surfaceKeys.contains(key) {
            guard let definition = input.graph.tokens[key], definition.declaredKind != .other else { continue }
            if definition.alias != nil { continue } // an alias is checked through what it names
            guard input.color(key) != nil else { continue } // (before its name's words: one look-up, not a split)
            // Swift tokens are named by their last component; design-token paths (`color.text.primary`) by all of it.
            // The graph keeps each token's words and the role they imply; other keys are split here.
            let info = PairingInference.isNamespace(key) ? input.graph.nameInfo(key) : TokenGraph.nameInfo(ofWords: nameWords(key))
            guard !info.words.contains("on"), !info.words.contains("inverse") else { continue }
            let role = (role: info.role, word: info.roleWord)
            guard (role.role == .text && role.word != nil) || (role.role == .graphic && role.word != nil),
                  let fg = input.tokenEndpoint(key) else { continue }
            for surface in surfaces.endpoints {
                pairs.append(Pairing(component: nil, foreground: fg, background: surface, role: role.role, reason: .defaultSurface,
                                     explanation: "\(fg.name) is \(role.role.rawValue) (word '\(role.word!)') used by no component: checked against the default surface",
                                     typography: nil))
            }
        }
        return pairs
    }
}
