/// One side of a pairing: a component property or a token.
public struct PairingEndpoint: Hashable, Sendable {
    /// Key into the token graph.
    public var qualifiedName: String
    /// The token's name as written, without a `Color.` prefix (`appTextPrimary`); nil for a literal value.
    public var token: String?
    /// The styling property (`label`) when the endpoint comes from a component's Colors struct.
    public var property: String?
    public var location: SourceLocation

    public init(qualifiedName: String, token: String?, property: String?, location: SourceLocation) {
        self.qualifiedName = qualifiedName
        self.token = token
        self.property = property
        self.location = location
    }

    /// How output names this side: the property for component endpoints, else the token.
    public var name: String { property ?? token ?? qualifiedName }
}

/// Why a pairing exists, in order of trust.
public enum PairingReason: String, Hashable, Sendable, Codable, Comparable {
    case declared
    case component
    case namingConvention = "naming-convention"
    case defaultSurface = "default-surface"

    public static func < (a: PairingReason, b: PairingReason) -> Bool {
        let order: [PairingReason] = [.declared, .component, .namingConvention, .defaultSurface]
        return order.firstIndex(of: a)! < order.firstIndex(of: b)!
    }
}

/// The typography entry that decides whether paired text is large.
public struct TypographyChoice: Hashable, Sendable {
    public var property: String
    public var font: FontValue
    /// How it was chosen: "same name", "only typography entry", "smallest in component".
    public var how: String
}

/// A foreground drawn on a background somewhere on screen.
public struct Pairing: Hashable, Sendable {
    public var component: String?
    public var foreground: PairingEndpoint
    public var background: PairingEndpoint
    /// `text`, `graphic` or `disabled` as inferred or declared; text becomes `largeText` at measurement when the font is large.
    public var role: Role
    public var reason: PairingReason
    /// A sentence explaining the reason ("label is text (word 'label'); menuBackground is a background").
    public var explanation: String
    public var typography: TypographyChoice?
    /// What a translucent background is composited over when it is not the default surface (a palette's base background).
    public var compositedOver: PairingEndpoint? = nil

    /// Stable identity across audits (used to match findings and to diff audits).
    public var subject: String {
        (component.map { $0 + ": " } ?? "") + foreground.name + " on " + background.name
    }
}

/// The surfaces a clear or missing background stands for.
public struct Surfaces: Hashable, Sendable {
    public var endpoints: [PairingEndpoint]
    /// True when no `surfaces:` was configured and these were inferred from token names.
    public var inferred: Bool
    public var explanation: String
}

/// Builds every pairing of a design system: declared, inferred inside components, by naming convention,
/// and against the default surfaces. Pure: values in, values out.
public struct PairingInference {
    public let graph: TokenGraph
    public let components: [Component]
    public let configuration: ProjectConfiguration

    public init(graph: TokenGraph, components: [Component], configuration: ProjectConfiguration) {
        self.graph = graph
        self.components = components
        self.configuration = configuration
    }

    private func color(_ key: String) -> AppearanceColor? {
        if case .success(.color(let c)) = graph.value(of: key) { return c }
        return nil
    }

    private func tokenEndpoint(_ key: String) -> PairingEndpoint? {
        guard let definition = graph.tokens[key] else { return nil }
        return PairingEndpoint(qualifiedName: key, token: TokenGraph.displayName(key), property: nil, location: definition.location)
    }

    private func propertyEndpoint(_ property: Component.Property) -> PairingEndpoint {
        PairingEndpoint(qualifiedName: property.qualifiedName, token: property.referencedToken.map(TokenGraph.displayName),
                        property: property.name, location: property.location)
    }

    /// Resolves a name from the configuration: a component property path or a token name.
    public func resolveName(_ name: String) -> String? {
        if graph.tokens[name] != nil { return name }
        let path = name.split(separator: ".").map(String.init)
        let reference = TokenReference(path: path, isImplicitMember: path.count == 1, expectedKind: .color, scope: [],
                                       location: SourceLocation(file: "", line: 0, column: 0))
        if let key = graph.resolve(reference) { return key }
        // `NativePickerStyling.label` without the group.
        if path.count == 2 {
            for group in Component.Group.allCases {
                let key = [path[0], group.rawValue, path[1]].joined(separator: ".")
                if graph.tokens[key] != nil { return key }
            }
        }
        return nil
    }

    // MARK: Surfaces

    public func surfaces() -> (Surfaces, [Finding]) {
        var findings: [Finding] = []
        if let configured = configuration.surfaces, !configured.isEmpty {
            var endpoints: [PairingEndpoint] = []
            for name in configured {
                if let key = resolveName(name), let endpoint = tokenEndpoint(key) {
                    endpoints.append(endpoint)
                } else {
                    findings.append(Finding(
                        rule: "reference", severity: .error, subject: name,
                        message: "surface \(name) in \(configuration.file ?? ".a11yd.yml") does not name a color token",
                        location: configuration.file.map { SourceLocation(file: $0, line: 1, column: 1) }))
                }
            }
            if !endpoints.isEmpty {
                return (Surfaces(endpoints: endpoints, inferred: false, explanation: "configured in \(configuration.file ?? ".a11yd.yml")"), findings)
            }
        }
        return (inferredSurfaces(), findings)
    }

    /// Base surfaces by name: a background word plus a base/primary/default word, no status or emphasis word.
    private func inferredSurfaces() -> Surfaces {
        let componentKeys = Set(components.flatMap { $0.properties.map(\.qualifiedName) })
        let excluded: Set<String> = ["inverse", "brand", "accent", "error", "danger", "success", "warning", "info",
                                     "solid", "scrim", "overlay", "disabled", "hover", "pressed", "selected", "tint"]
        var scored: [(score: Int, key: String)] = []
        for (key, definition) in graph.tokens where !componentKeys.contains(key) {
            guard definition.declaredKind != .other, color(key) != nil else { continue }
            let words = nameWords(definition.name)
            let surfaceWords: Set<String> = ["surface", "surfaces", "background", "backgrounds", "canvas", "bg"]
            let baseWords: Set<String> = ["base", "canvas", "page", "default", "app"]
            // Status words anywhere in the path exclude (`ButtonTokens.Tone.danger.colors.background`).
            guard words.contains(where: surfaceWords.contains), !nameWords(key).contains(where: excluded.contains) else { continue }
            var score = 0
            if words.contains(where: baseWords.contains) || words.count == 1 { score += 2 }
            if words.contains("primary") { score += 1 }
            // `newTabPageItemAccessoryAddBackground` is a background of something, not the base surface.
            score -= words.filter { !surfaceWords.contains($0) && !baseWords.contains($0) && !["primary", "color", "system"].contains($0) }.count
            // An alias (`appBackground = appSurfaceBasePrimary`) stands for the token it names; a field of a struct or a
            // case of a token function is a surface of something (a button's fill) before it is the page's.
            if definition.alias != nil || (definition.expression == nil && !graph.themedTokens.contains(key)) { score -= 1 }
            if score > 0 { scored.append((score, key)) }
        }
        let best = scored.map(\.score).max()
        let chosen = scored.filter { $0.score == best }.map(\.key).sorted()
        if let first = chosen.first, let endpoint = tokenEndpoint(first) {
            return Surfaces(endpoints: [endpoint], inferred: true,
                            explanation: "inferred: \(TokenGraph.displayName(first)) is the base surface by its name (set `surfaces:` in .a11yd.yml to override)")
        }
        let fallback = PairingEndpoint(qualifiedName: "UIColor.systemBackground", token: "systemBackground", property: nil,
                                       location: SourceLocation(file: "<system>", line: 0, column: 0))
        return Surfaces(endpoints: [fallback], inferred: true,
                        explanation: "inferred: no base surface token found, using systemBackground (white / black)")
    }

    // MARK: Pairings

    public func pairings(surfaces: Surfaces) -> ([Pairing], [Finding]) {
        var pairs: [Pairing] = []
        var findings: [Finding] = []
        let declared = declaredPairings()
        pairs += declared.0
        findings += declared.1
        for component in components { pairs += componentPairings(component, surfaces: surfaces) }
        pairs += PalettePairing.pairings(graph)
        pairs += namingConventionPairings()
        pairs += unusedTokenPairings(surfaces: surfaces, alreadyPaired: Set(pairs.map(\.foreground.qualifiedName)))
        // Declaring where a foreground is drawn overrides what inference guessed for it.
        let declaredForegrounds = Set(declared.0.map(\.foreground.qualifiedName))
        pairs.removeAll { $0.reason != .declared && declaredForegrounds.contains($0.foreground.qualifiedName) }
        // Keep the most trusted reason for each (component, foreground, background).
        var best: [String: Pairing] = [:]
        for pair in pairs {
            let key = [pair.component ?? "", pair.foreground.qualifiedName, pair.background.qualifiedName].joined(separator: "|")
            if let existing = best[key], existing.reason <= pair.reason { continue }
            best[key] = pair
        }
        let ordered = best.values.sorted {
            ($0.component ?? "~", $0.foreground.location, $0.background.qualifiedName)
                < ($1.component ?? "~", $1.foreground.location, $1.background.qualifiedName)
        }
        return (ordered, findings)
    }

    private func declaredPairings() -> ([Pairing], [Finding]) {
        var pairs: [Pairing] = []
        var findings: [Finding] = []
        for declared in configuration.pairs {
            guard let fgKey = resolveName(declared.foreground), let bgKey = resolveName(declared.background),
                  let fg = endpoint(for: fgKey), let bg = endpoint(for: bgKey) else {
                let missing = resolveName(declared.foreground) == nil ? declared.foreground : declared.background
                findings.append(Finding(
                    rule: "reference", severity: .error, subject: "\(declared.foreground) on \(declared.background)",
                    message: "declared pair names \(missing), which is not a token or component property",
                    location: declared.location))
                continue
            }
            let component = declared.component ?? componentOwning(fgKey)
            var pair = Pairing(component: component, foreground: fg, background: bg, role: declared.role, reason: .declared,
                               explanation: "declared in \(declared.location?.description ?? ".a11yd.yml")", typography: nil)
            if declared.role == .text, let c = components.first(where: { $0.name == component }) {
                pair.typography = typography(for: fg.property ?? fg.name, in: c)
            }
            pairs.append(pair)
        }
        return (pairs, findings)
    }

    private func componentOwning(_ key: String) -> String? {
        components.first { $0.properties.contains { $0.qualifiedName == key } }?.name
    }

    private func endpoint(for key: String) -> PairingEndpoint? {
        for component in components {
            if let property = component.properties.first(where: { $0.qualifiedName == key }) { return propertyEndpoint(property) }
        }
        return tokenEndpoint(key)
    }

    private func isClear(_ key: String) -> Bool {
        guard let c = color(key) else { return false }
        return Appearance.allCases.allSatisfy { c[$0].alpha == 0 }
    }

    private func componentPairings(_ component: Component, surfaces: Surfaces) -> [Pairing] {
        let colors = component.properties(in: .colors).filter { color($0.qualifiedName) != nil }
        let roles = Dictionary(uniqueKeysWithValues: colors.map { ($0.qualifiedName, Role.inferred(fromName: $0.name)) })
        let backgrounds = colors.filter { roles[$0.qualifiedName]?.role == .background }
        let opaqueBackgrounds = backgrounds.filter { !isClear($0.qualifiedName) }
        let hasClearBackground = backgrounds.count > opaqueBackgrounds.count
        var pairs: [Pairing] = []
        for fg in colors {
            guard let (role, word) = roles[fg.qualifiedName], [.text, .graphic, .disabled].contains(role) else { continue }
            // A clear foreground (`border: .clear`) draws nothing: there is no contrast to have.
            if isClear(fg.qualifiedName) { continue }
            let fgEndpoint = propertyEndpoint(fg)
            let roleText = word.map { "\(fg.name) is \(role.rawValue) (word '\($0)')" } ?? "\(fg.name) has no role word, treated as graphic"
            let typography = role == .graphic ? nil : typography(for: fg.name, in: component)
            // `badgeText` is drawn on `badge`: the naming convention beats the component's general background.
            let words = nameWords(fg.name)
            if words.count > 1, ["text", "label", "icon", "glyph", "title"].contains(words.last!) {
                let owner = words.dropLast().joined()
                if let bg = colors.first(where: { $0.name.lowercased() == owner && $0.qualifiedName != fg.qualifiedName }) {
                    pairs.append(Pairing(component: component.name, foreground: fgEndpoint, background: propertyEndpoint(bg),
                                         role: role, reason: .namingConvention,
                                         explanation: "\(fg.name) is drawn on \(bg.name) (name \(bg.name) + '\(words.last!)')",
                                         typography: typography))
                    continue
                }
            }
            // `majorText` goes on `majorFill`, `textPressed` on `fillPressed`, `text` on `background` (not `backgroundHover`):
            // the backgrounds whose qualifier words best match the foreground's.
            let qualifiers = Set(words).subtracting([word].compactMap { $0 })
            func fit(_ bg: Component.Property) -> Int {
                let bgWords = Set(nameWords(bg.name)).subtracting([roles[bg.qualifiedName]?.word].compactMap { $0 })
                return bgWords.intersection(qualifiers).count - bgWords.subtracting(qualifiers).count
            }
            let bestFit = opaqueBackgrounds.map(fit).max()
            for bg in opaqueBackgrounds where fit(bg) == bestFit {
                pairs.append(Pairing(component: component.name, foreground: fgEndpoint, background: propertyEndpoint(bg),
                                     role: role, reason: .component,
                                     explanation: "\(roleText); \(bg.name) is the component's background", typography: typography))
            }
            if opaqueBackgrounds.isEmpty || hasClearBackground {
                let why = opaqueBackgrounds.isEmpty
                    ? "\(component.name) has no background color, so \(fg.name) sits on the default surface"
                    : "a background of \(component.name) is clear, so \(fg.name) also sits on the default surface"
                for surface in surfaces.endpoints {
                    pairs.append(Pairing(component: component.name, foreground: fgEndpoint, background: surface,
                                         role: role, reason: .defaultSurface, explanation: "\(roleText); \(why)", typography: typography))
                }
            }
        }
        return pairs
    }

    /// The Typography entry that styles a color property's text: same name, else the only font, else the smallest
    /// (the conservative choice: smaller text needs more contrast).
    func typography(for colorName: String, in component: Component) -> TypographyChoice? {
        var fonts: [(name: String, font: FontValue)] = []
        for property in component.properties(in: .typography) {
            switch graph.value(of: property.qualifiedName) {
            case .success(.font(let f)): fonts.append((property.name, f))
            case .success(.number(let size)) where nameWords(property.name).contains("size"):
                fonts.append((property.name, FontValue(size: size, weight: nil, face: nil, textStyle: nil, scales: false, location: property.location)))
            default: break
            }
        }
        guard !fonts.isEmpty else { return nil }
        if let same = fonts.first(where: { $0.name == colorName }) {
            return TypographyChoice(property: same.name, font: same.font, how: "same name")
        }
        let stateWords: Set<String> = ["active", "inactive", "selected", "disabled", "default", "color", "text"]
        let colorWords = Set(nameWords(colorName)).subtracting(stateWords)
        if let shared = fonts.first(where: { !Set(nameWords($0.name)).subtracting(stateWords).isDisjoint(with: colorWords) }) {
            return TypographyChoice(property: shared.name, font: shared.font, how: "shares a name word")
        }
        if fonts.count == 1 { return TypographyChoice(property: fonts[0].name, font: fonts[0].font, how: "only typography entry") }
        let smallest = fonts.min { ($0.font.size ?? 0) < ($1.font.size ?? 0) }!
        return TypographyChoice(property: smallest.name, font: smallest.font, how: "smallest in component")
    }

    /// Text and icon tokens that no component uses and no convention pairs are checked against the default surfaces,
    /// so token-only systems (asset catalogs, design-token JSON) and not-yet-used tokens are audited too.
    private func unusedTokenPairings(surfaces: Surfaces, alreadyPaired: Set<String>) -> [Pairing] {
        let used = Set(components.flatMap { $0.properties.compactMap(\.referencedToken) })
        let componentKeys = Set(components.flatMap { $0.properties.map(\.qualifiedName) })
        let surfaceKeys = Set(surfaces.endpoints.map(\.qualifiedName))
        var pairs: [Pairing] = []
        for key in graph.tokens.keys.sorted() where !componentKeys.contains(key) && !used.contains(key)
            && !alreadyPaired.contains(key) && !surfaceKeys.contains(key) {
            guard let definition = graph.tokens[key], definition.declaredKind != .other else { continue }
            if definition.alias != nil { continue } // an alias is checked through what it names
            // Swift tokens are named by their last component; design-token paths (`color.text.primary`) by all of it.
            let words = Self.isNamespace(key) ? graph.nameInfo(key).words : nameWords(key)
            guard !words.contains("on"), !words.contains("inverse") else { continue }
            let role = Role.inferred(fromName: words.joined(separator: "_"))
            guard (role.role == .text && role.word != nil) || (role.role == .graphic && role.word != nil),
                  color(key) != nil, let fg = tokenEndpoint(key) else { continue }
            for surface in surfaces.endpoints {
                pairs.append(Pairing(component: nil, foreground: fg, background: surface, role: role.role, reason: .defaultSurface,
                                     explanation: "\(fg.name) is \(role.role.rawValue) (word '\(role.word!)') used by no component: checked against the default surface",
                                     typography: nil))
            }
        }
        return pairs
    }

    static func isNamespace(_ key: String) -> Bool {
        guard let first = key.split(separator: ".").first else { return false }
        return TokenGraph.namespaces.values.contains { $0.contains(String(first)) } || first == "Asset"
    }

    /// `appTextOnBrandPrimary` pairs with `appSurfaceBrandPrimary` (or `appSurfaceBrand`); inverse text with inverse surfaces.
    private func namingConventionPairings() -> [Pairing] {
        let componentKeys = Set(components.flatMap { $0.properties.map(\.qualifiedName) })
        var foregrounds: [(key: String, words: [String], role: Role)] = []
        var backgrounds: [(key: String, words: [String])] = []
        for key in graph.tokens.keys where !componentKeys.contains(key) {
            let (words, role, _) = graph.nameInfo(key)
            guard role == .background || role == .text || role == .graphic, color(key) != nil else { continue }
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
            guard var suffix = target else { continue }
            while !suffix.isEmpty {
                if let matches = bySuffix[suffix], !matches.isEmpty {
                    for bg in matches.sorted() {
                        guard let f = tokenEndpoint(fg.key), let b = tokenEndpoint(bg) else { continue }
                        pairs.append(Pairing(component: nil, foreground: f, background: b, role: fg.role, reason: .namingConvention,
                                             explanation: "\(f.name) names \(suffix.joined(separator: " ")); \(b.name) is that surface",
                                             typography: nil))
                    }
                    break
                }
                suffix.removeLast()
            }
        }
        return pairs
    }
}
