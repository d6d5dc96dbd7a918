/// Everything behind one pairing: how each side resolves (alias chain, per-appearance values and fallbacks),
/// why the pair exists, the role and threshold, and the ratio in each appearance with a fix hint when it fails.
public struct PairExplanation: Codable, Hashable, Sendable {
    public struct Side: Codable, Hashable, Sendable {
        public var name: String
        /// `NativePickerStyling.Colors.label -> Color.appTextPrimary`: each alias followed, in order.
        public var chain: [String]
        public var location: SourceLocation
        /// Color per appearance, with `(falls back to dark)` style notes for non-explicit values.
        public var values: [String: String]
        /// Why the color has no value, at its root cause (`cannot evaluate ... at File.swift:12:5`); nil when it has one.
        public var problem: String?
    }

    public struct Measurement: Codable, Hashable, Sendable {
        public var appearance: Appearance
        /// The theme, for pairs that change with the theme.
        public var theme: String?
        public var ratio: Double
        public var required: Double?
        public var pass: Bool
        public var fixHint: String?
        /// The two colors in that theme, `#8B7D6B on #F8F1E3` (the sides' values above are the default theme's).
        public var themeColors: String?
    }

    public var component: String?
    public var foreground: Side
    public var background: Side
    public var role: Role
    public var reason: PairingReason
    public var explanation: String
    public var typography: String?
    /// Where view code draws the pair (reason `view-code`).
    public var drawnAt: SourceLocation?
    public var measurements: [Measurement]

    /// Explains the pairings whose foreground and background match the given names (property, token or
    /// qualified name). A name pair that no pairing links is measured anyway, as text, so any two colors can be asked about.
    public static func explain(foreground: String, background: String, in context: AuditContext) -> [PairExplanation]? {
        func matches(_ e: PairingEndpoint, _ name: String) -> Bool {
            e.name == name || e.token == name || e.qualifiedName == name || e.qualifiedName.hasSuffix("." + name)
        }
        var pairings = context.pairings.filter { matches($0.foreground, foreground) && matches($0.background, background) }
        if pairings.isEmpty {
            // A guess a more trusted source contradicted: measured here, with why the audit does not.
            pairings = context.droppedPairings.filter { matches($0.pairing.foreground, foreground) && matches($0.pairing.background, background) }
                .map { dropped in
                    var pairing = dropped.pairing
                    pairing.explanation = "not measured: \(pairing.reason.rawValue) guessed it (\(pairing.explanation)), but \(dropped.because)"
                    return pairing
                }
        }
        if pairings.isEmpty {
            let inference = PairingInference(graph: context.graph, components: context.components, configuration: context.configuration)
            guard let fg = inference.resolveName(foreground), let bg = inference.resolveName(background),
                  let fgDefinition = context.graph.tokens[fg], let bgDefinition = context.graph.tokens[bg] else { return nil }
            pairings = [Pairing(
                component: nil,
                foreground: PairingEndpoint(qualifiedName: fg, token: TokenGraph.displayName(fg), property: nil, location: fgDefinition.location),
                background: PairingEndpoint(qualifiedName: bg, token: TokenGraph.displayName(bg), property: nil, location: bgDefinition.location),
                role: .text, reason: .declared, explanation: "not a pairing of this design system; measured on request as text",
                typography: nil)]
        }
        // The audit's own measurements (theme by theme); a pair asked about on request is measured here.
        var measured = context.measurements.filter { pairings.contains($0.pairing) }
        if measured.isEmpty {
            measured = PairMeasurement.measure(pairings, graph: context.graph, surfaces: context.surfaces, policy: context.policy,
                                               appearances: Auditor.auditedAppearances(context.graph).appearances)
        }
        return pairings.map { pairing in
            let ms = measured.filter { $0.pairing == pairing }
            return PairExplanation(
                component: pairing.component, foreground: side(pairing.foreground, context.graph),
                background: side(pairing.background, context.graph), role: ms.first?.role ?? pairing.role,
                reason: pairing.reason, explanation: pairing.explanation,
                typography: pairing.typography.map { "\($0.property): \($0.font.size.map { "\($0)pt" } ?? "size unknown") \($0.font.weight ?? "regular") (\($0.how))" },
                drawnAt: pairing.drawnAt,
                measurements: ms.map { m in
                    var hint: String?
                    if !m.pass, let required = m.required,
                       let fix = nearestPassingColor(foreground: m.foreground.withAlpha(1), background: m.effectiveBackground, required: required) {
                        hint = "\(fix.color.hex) reaches \(displayRatio(fix.ratio)):1"
                    }
                    return Measurement(appearance: m.appearance, theme: m.theme, ratio: m.ratio, required: m.required, pass: m.pass,
                                       fixHint: hint, themeColors: m.theme.map { _ in "\(m.foreground.hex) on \(m.effectiveBackground.hex)" })
                })
        }
    }

    static func side(_ endpoint: PairingEndpoint, _ graph: TokenGraph) -> Side {
        var chain = [endpoint.qualifiedName]
        var current = endpoint.qualifiedName
        while let definition = graph.tokens[current], let ref = definition.alias,
              let next = graph.resolve(ref), !chain.contains(next) {
            chain.append(next)
            current = next
        }
        var values: [String: String] = [:]
        var problem: String?
        switch graph.value(of: endpoint.qualifiedName) {
        case .success(.color(let color)):
            for appearance in Appearance.allCases {
                let source = color.source(for: appearance)
                values[appearance.rawValue] = color[appearance].hex + (source == appearance ? "" : " (falls back to \(source.rawValue))")
            }
        case .failure(let error):
            problem = error.message + (error.location.map { " at \($0)" } ?? "")
        case .success(let other):
            problem = "is \(other.kind.rawValue), not a color"
        }
        return Side(name: endpoint.name, chain: chain, location: endpoint.location, values: values, problem: problem)
    }
}
