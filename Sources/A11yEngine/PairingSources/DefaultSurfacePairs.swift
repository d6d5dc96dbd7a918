/// Text and icon tokens no other source paired, checked against the default surfaces (token-only systems,
/// tokens not used yet).
public struct DefaultSurfacePairs: PairingSource {
    public init() {}

    public func propose(_ input: PairingInference, surfaces: Surfaces) -> PairingProposal {
        // Foregrounds other sources paired are dropped by the resolver (`fillsGaps`): this runs beside them.
        PairingProposal(pairings: unusedTokenPairings(surfaces: surfaces, input), fillsGaps: true)
    }

    func unusedTokenPairings(surfaces: Surfaces, _ input: PairingInference) -> [Pairing] {
        let graph = input.graph
        // By row: components' properties, the tokens they use, and the surfaces are not paired here.
        var skipped = input.componentPropertyRows
        // By index, read in place: copies of each component and property counted their strings.
        let components = input.components
        for c in components.indices {
            for p in components[c].properties.indices {
                if let used = components[c].properties[p].referencedToken, let row = graph.row(of: used) { skipped[row] = true }
            }
        }
        for surface in surfaces.endpoints { if let row = graph.row(of: surface.qualifiedName) { skipped[row] = true } }
        var pairs: [Pairing] = []
        // Whether a name is one of a text or graphic token this source pairs (not `...On...`, not inverse).
        func isPaired(_ info: TokenGraph.NameInfo) -> Bool {
            (info.role == .text || info.role == .graphic) && info.roleWord != nil && !info.words.contains("on")
                && !info.words.contains("inverse")
        }
        for row in skipped.indices where !skipped[row] {
            guard graph.color(row: row) != nil else { continue } // (first: most tokens that are not colors stop here)
            // Swift tokens are named by their last component; design-token paths (`color.text.primary`) by all of it.
            // The graph keeps each Swift token's words and the role they imply, asked before the token itself (most
            // names are not paired here, and each token read was a cache miss); other keys are split after it.
            let key = graph.sortedKeys[row]
            let isNamespace = PairingInference.isNamespace(key)
            if isNamespace, !isPaired(graph.nameInfo(row: row)) { continue }
            let definition = graph.token(row: row)
            guard definition.declaredKind != .other else { continue }
            if definition.alias != nil { continue } // an alias is checked through what it names
            let info = isNamespace ? graph.nameInfo(row: row) : TokenGraph.nameInfo(of: key)
            guard isPaired(info) else { continue }
            let role = (role: info.role, word: info.roleWord)
            let fg = input.tokenEndpoint(row: row)
            for surface in surfaces.endpoints {
                pairs.append(Pairing(component: nil, foreground: fg, background: surface, role: role.role, reason: .defaultSurface,
                                     explanation: TextParts.joined { text in
                                         Pairing.appendRoleText(fg.name, role.role, word: role.word, to: &text)
                                         text.append(" used by no component: checked against the default surface")
                                     },
                                     typography: nil))
            }
        }
        return pairs
    }
}
