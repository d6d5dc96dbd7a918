/// One pairing measured in one appearance.
public struct PairMeasurement: Hashable, Sendable {
    public var pairing: Pairing
    /// The theme the colors were taken from; nil when the design system has no themes or the pair does not vary by theme.
    public var theme: String? = nil
    public var appearance: Appearance
    public var foreground: ColorValue
    public var background: ColorValue
    /// The background composited over the appearance's base surface: what the foreground is really drawn on.
    public var effectiveBackground: ColorValue
    public var ratio: Double
    /// `text` becomes `largeText` when the paired typography is large under the policy.
    public var role: Role
    public var required: Double?
    /// Whether the foreground's and the background's colors define this appearance themselves (not by falling back),
    /// as the listing shows them: found here, where the colors are looked up anyway, rather than again for each pair.
    public var foregroundExplicit = true, backgroundExplicit = true
    /// Compared unrounded: 4.496 fails 4.5.
    public var pass: Bool { required.map { ratio >= $0 } ?? true }
    public var exempt: Bool { required == nil }

    /// Measures every pairing in every audited appearance. Pairs whose colors do not evaluate are skipped here;
    /// their tokens already carry a `reference`/`parse` finding.
    ///
    /// `earlier`: the last audit's measurements of the same pairings (same policy) and the tokens that may have changed
    /// since; a pairing none of whose colors (nor the base surface) changed keeps its measurements.
    public static func measure(_ pairings: [Pairing], graph: TokenGraph, surfaces: Surfaces, policy: Policy,
                               appearances: [Appearance], theme: String? = nil,
                               earlier: (measurements: [PairMeasurement], changedTokens: Set<String>)? = nil) -> [PairMeasurement] {
        // A large graph's pairs measured afresh are measured in contiguous shares on all cores, joined in order.
        let workers = graph.workersForEveryToken
        guard earlier == nil, workers > 1, pairings.count >= 256 * workers else {
            return measureInOrder(pairings[...], graph: graph, surfaces: surfaces, policy: policy, appearances: appearances,
                                  theme: theme, earlier: earlier)
        }
        let shares = (0..<workers).map { pairings.count * $0 / workers..<pairings.count * ($0 + 1) / workers }
        let shared = ReadOnly(value: (pairings, graph, surfaces, policy))
        return concurrentMap(shares, workers: workers) { share in
            let (pairings, graph, surfaces, policy) = shared.value
            return measureInOrder(pairings[share], graph: graph, surfaces: surfaces, policy: policy, appearances: appearances,
                                  theme: theme, earlier: nil)
        }.flatMap { $0 }
    }

    private static func measureInOrder(_ pairings: ArraySlice<Pairing>, graph: TokenGraph, surfaces: Surfaces, policy: Policy,
                                       appearances: [Appearance], theme: String?,
                                       earlier: (measurements: [PairMeasurement], changedTokens: Set<String>)?) -> [PairMeasurement] {
        func color(_ key: String) -> AppearanceColor? {
            if let c = graph.color(of: key) { return c }
            if key == "UIColor.systemBackground" { return SystemColors.color(named: "systemBackground") }
            return nil
        }
        let surface = surfaces.endpoints.first.flatMap { color($0.qualifiedName) } ?? SystemColors.color(named: "systemBackground")!
        var result: [PairMeasurement] = []
        result.reserveCapacity(pairings.count * appearances.count)
        let surfaceChanged = earlier.map { e in surfaces.endpoints.first.map { e.changedTokens.contains($0.qualifiedName) } ?? false } ?? true
        var cursor = 0 // where the next pairing's measurements start in `earlier`, when it has any
        for pairing in pairings {
            if let earlier, !surfaceChanged, cursor + appearances.count <= earlier.measurements.count,
               earlier.measurements[cursor].pairing == pairing {
                let block = cursor..<(cursor + appearances.count)
                cursor = block.upperBound
                let keys = [pairing.foreground.qualifiedName, pairing.background.qualifiedName] + [pairing.compositedOver?.qualifiedName].compactMap { $0 }
                if !keys.contains(where: earlier.changedTokens.contains), earlier.measurements[block].map(\.appearance) == appearances {
                    result.append(contentsOf: earlier.measurements[block])
                    continue
                }
            }
            // The colors as given or as the graph has them (whose `explicit` the listing reports), else a fallback.
            let fgGiven = pairing.foreground.color ?? graph.color(of: pairing.foreground.qualifiedName)
            let bgGiven = pairing.background.color ?? graph.color(of: pairing.background.qualifiedName)
            guard let fg = fgGiven ?? color(pairing.foreground.qualifiedName),
                  let bg = bgGiven ?? color(pairing.background.qualifiedName) else { continue }
            var role = pairing.role
            if role == .text, let font = pairing.typography?.font, policy.isLargeText(font) { role = .largeText }
            let under = pairing.compositedOver.flatMap { color($0.qualifiedName) } ?? surface
            for appearance in appearances {
                let base = under[appearance].composited(over: .white).withAlpha(1)
                let effectiveBackground = bg[appearance].composited(over: base).withAlpha(1)
                let drawn = fg[appearance].composited(over: effectiveBackground).withAlpha(1)
                result.append(PairMeasurement(
                    pairing: pairing, theme: theme, appearance: appearance, foreground: fg[appearance], background: bg[appearance],
                    effectiveBackground: effectiveBackground, ratio: ColorValue.contrastRatio(drawn, effectiveBackground),
                    role: role, required: policy.required(for: role, in: appearance),
                    foregroundExplicit: fgGiven?.explicit.contains(appearance) ?? true,
                    backgroundExplicit: bgGiven?.explicit.contains(appearance) ?? true))
            }
        }
        return result
    }
}
