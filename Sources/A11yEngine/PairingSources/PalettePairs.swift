/// Pairs inside a palette (a theme's set of colors): text and icons on the background named like them
/// (`chromeText` on `chromeBackground`, `tagText` on `tagBackground`), else on the palette's base background
/// (`primaryText`, `link` on `paperBackground`). Translucent backgrounds are composited over that base background.
public enum PalettePairing {
    struct Entry {
        var key: String
        var name: String
        var words: [String]
        var role: Role
        var roleWord: String?
        var color: AppearanceColor
        var location: SourceLocation
        var qualifiers: Set<String> { Set(words).subtracting([roleWord].compactMap { $0 }) }
    }

    static let baseWords: Set<String> = ["paper", "page", "base", "canvas", "primary", "app", "main", "default", "window"]

    static func entries(_ keys: [String], _ graph: TokenGraph) -> [Entry] {
        keys.compactMap { key in
            guard let token = graph.tokens[key], let c = graph.color(of: key) else { return nil }
            let (words, role, roleWord) = wordsAndRole(of: token.name)
            return Entry(key: key, name: token.name, words: words, role: role, roleWord: roleWord, color: c, location: token.location)
        }
    }

    /// The background everything else in the palette sits on: one named only by its role word (`background`), else
    /// one with a base word (`paperBackground`), else the first declared.
    static func base(_ backgrounds: [Entry]) -> Entry? {
        backgrounds.first { $0.qualifiers.isEmpty }
            ?? backgrounds.first { !$0.qualifiers.isDisjoint(with: baseWords) }
            ?? backgrounds.first
    }

    /// The base background of a theme's graph: its first palette's, else the configured or inferred base surface.
    public static func baseBackground(of graph: TokenGraph, configuration: ProjectConfiguration = ProjectConfiguration()) -> (key: String, color: ColorValue)? {
        for palette in graph.palettes.keys.sorted() {
            let backgrounds = entries(graph.palettes[palette]!, graph).filter { $0.role == .background && !$0.color.isClear }
            if let base = base(backgrounds) { return (base.key, base.color.light) }
        }
        let surface = PairingInference(graph: graph, components: [], configuration: configuration).surfaces().0.endpoints.first
        if let key = surface?.qualifiedName, let c = graph.color(of: key) { return (key, c.light) }
        return nil
    }

    static func endpoint(_ e: Entry) -> PairingEndpoint {
        PairingEndpoint(qualifiedName: e.key, token: TokenGraph.displayName(e.key), property: e.name, location: e.location)
    }

    public static func pairings(_ graph: TokenGraph) -> [Pairing] {
        var pairs: [Pairing] = []
        for palette in graph.palettes.keys.sorted() {
            let name = palette.lastDotPiece.map(String.init) ?? palette
            let all = entries(graph.palettes[palette]!, graph)
            let backgrounds = all.filter { $0.role == .background && !$0.color.isClear }
            guard let base = base(backgrounds) else { continue }
            for fg in all where [.text, .graphic, .disabled].contains(fg.role) && !fg.color.isClear {
                let roleText = Pairing.roleText(fg.name, fg.role, word: fg.roleWord)
                let named = fg.qualifiers.isEmpty ? nil : backgrounds.first { $0.qualifiers == fg.qualifiers }
                let bg = named ?? base
                let why = named != nil
                    ? "\(bg.name) is the palette's background named like it"
                    : "\(bg.name) is the palette's base background"
                var pair = Pairing(component: name, foreground: endpoint(fg), background: endpoint(bg), role: fg.role,
                                   reason: .component, explanation: "\(roleText) in palette \(name); \(why)", typography: nil)
                pair.compositedOver = endpoint(base)
                pairs.append(pair)
            }
        }
        return pairs
    }
}

/// The pairing source for palettes (themes issue): inside each palette, by property names.
public struct PalettePairs: PairingSource {
    public init() {}

    public func propose(_ input: PairingInference, surfaces: Surfaces) -> PairingProposal {
        PairingProposal(pairings: PalettePairing.pairings(input.graph))
    }
}
