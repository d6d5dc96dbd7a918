/// Pairs drawn in SwiftUI view code (`ViewCodeAnalysis`): each foreground on the background it sits on, per variant
/// and branch. What a view draws is the truth for that foreground, so the name-based sources after it only fill gaps.
public struct ViewCodePairs: PairingSource {
    public init() {}

    public func propose(_ input: PairingInference, surfaces: Surfaces) -> PairingProposal {
        let facts = input.viewCode ?? ViewCodeAnalysis(declarations: input.declarations, types: input.types, graph: input.graph).facts()
        var pairs: [Pairing] = []
        var byKey: [DrawnPairKey: Int] = [:]
        // Sized for a pair per drawn element (one background each, the usual case): grown by doubling, the keys were
        // rehashed at each (a view-heavy system draws thousands).
        pairs.reserveCapacity(facts.drawn.count)
        byKey.reserveCapacity(facts.drawn.count)
        var fieldsRead: [(field: String, color: AppearanceColor, pair: Pairing)] = []
        for drawn in facts.drawn {
            let foreground = endpoint(drawn.foreground, input)
            let backgrounds = drawn.background.map { [endpoint($0, input)] } ?? surfaces.endpoints
            let behind = drawn.background.map { "on \($0.expression)" } ?? "with nothing behind it in \(drawn.view) (the default surface)"
            let font = drawn.font.map { f in
                TypographyChoice(property: drawn.fontExpression ?? "font", font: f, how: "nearest .font in view code")
            }
            for background in backgrounds {
                let pair = Pairing(
                    component: drawn.name, foreground: foreground, background: background, role: drawn.role, reason: .viewCode,
                    explanation: "\(drawn.element) drawn in \(drawn.foreground.expression)"
                        + (drawn.opacity < 1 ? " at \(Int((drawn.opacity * 100).rounded()))% opacity" : "") + " \(behind) at \(drawn.drawnAt)",
                    typography: font, drawnAt: drawn.drawnAt)
                for side in [drawn.foreground] + [drawn.background].compactMap({ $0 }) {
                    if let field = side.expression.lastDotPiece { fieldsRead.append((String(field), side.color, pair)) }
                }
                // One pair per (variant, foreground, background): text wins over graphics, the smallest font over larger.
                let key = DrawnPairKey(component: pair.component, foreground: foreground.qualifiedName, background: background.qualifiedName,
                                       foregroundColor: foreground.color, backgroundColor: background.color)
                if let index = byKey[key] {
                    if Self.stricter(pair, than: pairs[index]) { pairs[index] = pair }
                    continue
                }
                byKey[key] = pairs.count
                pairs.append(pair)
            }
        }
        return PairingProposal(pairings: pairs, authoritative: true, alsoSettles: specFields(read: fieldsRead, input))
    }

    struct DrawnPairKey: Hashable {
        var component: String?
        var foreground: String
        var background: String
        var foregroundColor: AppearanceColor?
        var backgroundColor: AppearanceColor?
    }

    /// Fields of component styles and variant specs that views read: `colors.foreground` drawn with the value of
    /// `KitButtonVariant.primary.colors.foreground` settles that field (same name, same color), so its name-inferred
    /// pairs give way to what the view draws.
    func specFields(read: [(field: String, color: AppearanceColor, pair: Pairing)], _ input: PairingInference) -> [String: Pairing] {
        var fieldsByName: [String: [Component.Property]] = [:]
        for component in input.components {
            for property in component.properties(in: .colors) { fieldsByName[property.name, default: []].append(property) }
        }
        var settled: [String: Pairing] = [:]
        for (field, color, pair) in read {
            for property in fieldsByName[field] ?? [] where settled[property.qualifiedName] == nil && input.color(property.qualifiedName) == color {
                settled[property.qualifiedName] = pair
            }
        }
        return settled
    }

    static func stricter(_ a: Pairing, than b: Pairing) -> Bool {
        func rank(_ p: Pairing) -> Int { p.role == .text ? 0 : p.role == .graphic ? 1 : 2 }
        if rank(a) != rank(b) { return rank(a) < rank(b) }
        return (a.typography?.font.size ?? 0) < (b.typography?.font.size ?? 0) && a.typography != nil
    }

    /// A token's endpoint when the color is a token's value (so the token's edits reach the pair), else the expression's.
    func endpoint(_ drawn: DrawnColor, _ input: PairingInference) -> PairingEndpoint {
        if let key = drawn.token, let token = input.graph.tokens[key] {
            return PairingEndpoint(qualifiedName: key, token: TokenGraph.displayName(key), property: nil, location: token.location,
                                   color: drawn.color)
        }
        // An expression is its own endpoint, named by where it is written (the same text can be another color elsewhere);
        // the default `.primary` is one color everywhere, so one endpoint.
        let key = drawn.expression == DrawnColor.defaultPrimary ? "Color.primary" : "\(drawn.location)"
        return PairingEndpoint(qualifiedName: key, token: nil, property: drawn.expression, location: drawn.location, color: drawn.color)
    }
}
