/// One side of a pairing: a component property or a token.
public struct PairingEndpoint: Hashable, Sendable {
    /// Key into the token graph.
    public var qualifiedName: String
    /// The token's name as written, without a `Color.` prefix (`appTextPrimary`); nil for a literal value.
    public var token: String?
    /// The styling property (`label`) when the endpoint comes from a component's Colors struct.
    public var property: String?
    public var location: SourceLocation
    /// The color as view code evaluated it (one variant of a component): measured instead of the token graph's value.
    public var color: AppearanceColor?

    public init(qualifiedName: String, token: String?, property: String?, location: SourceLocation, color: AppearanceColor? = nil) {
        self.qualifiedName = qualifiedName
        self.token = token
        self.property = property
        self.location = location
        self.color = color
    }

    /// How output names this side: the property for component endpoints, else the token.
    public var name: String { property ?? token ?? qualifiedName }
}

/// Why a pairing exists, in order of trust.
public enum PairingReason: String, Hashable, Sendable, Codable, Comparable {
    case declared
    /// Drawn in view code: a foreground modifier and the background it sits on.
    case viewCode = "view-code"
    case component
    case namingConvention = "naming-convention"
    case defaultSurface = "default-surface"

    public static func < (a: PairingReason, b: PairingReason) -> Bool {
        let order: [PairingReason] = [.declared, .viewCode, .component, .namingConvention, .defaultSurface]
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
    // The fields are read in place (`_read`): with `get`, reading one field of an endpoint (`pair.foreground.location`)
    // copied the whole endpoint out of the box first, its strings and colors retained and released.
    public var component: String? {
        _read { yield fields.value.component }
        set { fields.value.component = newValue; fields.value.subject = Self.subject(newValue, foreground, background) }
    }
    public var foreground: PairingEndpoint {
        _read { yield fields.value.foreground }
        set { fields.value.foreground = newValue; fields.value.subject = Self.subject(component, newValue, background) }
    }
    public var background: PairingEndpoint {
        _read { yield fields.value.background }
        set { fields.value.background = newValue; fields.value.subject = Self.subject(component, foreground, newValue) }
    }
    /// `text`, `graphic` or `disabled` as inferred or declared; text becomes `largeText` at measurement when the font is large.
    public var role: Role { get { fields.value.role } set { fields.value.role = newValue } }
    public var reason: PairingReason { get { fields.value.reason } set { fields.value.reason = newValue } }
    /// A sentence explaining the reason ("label is text (word 'label'); menuBackground is a background").
    public var explanation: String { _read { yield fields.value.explanation } set { fields.value.explanation = newValue } }
    public var typography: TypographyChoice? { _read { yield fields.value.typography } set { fields.value.typography = newValue } }
    /// What a translucent background is composited over when it is not the default surface (a palette's base background).
    public var compositedOver: PairingEndpoint? { _read { yield fields.value.compositedOver } set { fields.value.compositedOver = newValue } }
    /// Where view code draws the foreground on the background (the modifier's file:line); nil for inferred pairs.
    public var drawnAt: SourceLocation? { _read { yield fields.value.drawnAt } set { fields.value.drawnAt = newValue } }

    public init(component: String? = nil, foreground: PairingEndpoint, background: PairingEndpoint, role: Role, reason: PairingReason,
                explanation: String, typography: TypographyChoice? = nil, compositedOver: PairingEndpoint? = nil,
                drawnAt: SourceLocation? = nil) {
        fields = CopyOnWrite(Fields(component: component, foreground: foreground, background: background,
                                    subject: Self.subject(component, foreground, background), role: role,
                                    reason: reason, explanation: explanation, typography: typography,
                                    compositedOver: compositedOver, drawnAt: drawnAt))
    }

    /// Stable identity across audits (used to match findings and to diff audits). Made when the pairing is (and again
    /// when a side changes): it is read by the resolver's ordering, the listing and every finding of the pair.
    public var subject: String { _read { yield fields.value.subject } }

    /// How an explanation says why a foreground has its role: "label is text (word 'label')", or that it has no role
    /// word. Written part by part into one allocation (interpolation grew the string segment by segment, and an array
    /// of the parts for `concatenated` was an allocation of its own).
    static func roleText(_ name: String, _ role: Role, word: String?) -> String {
        TextParts.joined { appendRoleText(name, role, word: word, to: &$0) }
    }

    /// `roleText` written into `text`: an explanation that starts with it is made in one piece.
    static func appendRoleText(_ name: String, _ role: Role, word: String?, to text: inout TextParts) {
        text.append(name)
        if let word {
            text.append(" is ")
            text.append(role.rawValue)
            text.append(" (word '")
            text.append(word)
            text.append("')")
        } else {
            text.append(" has no role word, treated as graphic")
        }
    }

    private static func subject(_ component: String?, _ foreground: PairingEndpoint, _ background: PairingEndpoint) -> String {
        TextParts.joined { text in
            if let component {
                text.append(component)
                text.append(": ")
            }
            text.append(foreground.name)
            text.append(" on ")
            text.append(background.name)
        }
    }

    public static func == (a: Pairing, b: Pairing) -> Bool { a.fields == b.fields }
    public func hash(into hasher: inout Hasher) { hasher.combine(fields.value) }

    /// The fields behind one copy-on-write reference: a pairing's fields take ~850 bytes (three endpoints with their
    /// colors, a font), and a pairing is copied into proposals, resolution, one measurement per appearance, the listing
    /// and sorts (the 5,000-token system's ~10,000 measurements held ~9 MB of copies).
    private struct Fields: Hashable, Sendable {
        var component: String?
        var foreground: PairingEndpoint
        var background: PairingEndpoint
        var subject: String
        var role: Role
        var reason: PairingReason
        var explanation: String
        var typography: TypographyChoice?
        var compositedOver: PairingEndpoint?
        var drawnAt: SourceLocation?
    }
    private var fields: CopyOnWrite<Fields>
}

/// The surfaces a clear or missing background stands for.
public struct Surfaces: Hashable, Sendable {
    public var endpoints: [PairingEndpoint]
    /// True when no `surfaces:` was configured and these were inferred from token names.
    public var inferred: Bool
    public var explanation: String
}

/// What pairing sources read (the evaluated design system and its configuration) and the helpers they share;
/// `pairings(surfaces:)` runs every registered source through the resolver. Pure: values in, values out.
public struct PairingInference {
    public let graph: TokenGraph
    public let components: [Component]
    public let configuration: ProjectConfiguration
    /// The Swift declarations and types, for sources that walk code (view code) when `viewCode` is not given.
    public let declarations: [MemberDeclaration]
    public let types: [TypeDeclaration]
    /// What the views draw, read once per audit (nil: read on demand from the declarations).
    public let viewCode: ViewCodeFacts?
    /// By the graph's rows: true where the token is a component's property (sources that pair the other tokens skip
    /// those rows without a look-up by name).
    let componentPropertyRows: [Bool]

    public init(graph: TokenGraph, components: [Component], configuration: ProjectConfiguration,
                declarations: [MemberDeclaration] = [], types: [TypeDeclaration] = [], viewCode: ViewCodeFacts? = nil) {
        self.graph = graph
        self.components = components
        self.configuration = configuration
        self.declarations = declarations
        self.types = types
        self.viewCode = viewCode
        var rows = [Bool](repeating: false, count: graph.sortedKeys.count)
        // By index, read in place: copies of each component and property counted their strings.
        for c in components.indices {
            for p in components[c].properties.indices {
                if let row = graph.row(of: components[c].properties[p].qualifiedName) { rows[row] = true }
            }
        }
        componentPropertyRows = rows
    }

    func color(_ key: String) -> AppearanceColor? {
        if let c = graph.color(of: key) { return c }
        return nil
    }

    func tokenEndpoint(_ key: String) -> PairingEndpoint? {
        graph.row(of: key).map(tokenEndpoint(row:))
    }

    func tokenEndpoint(row: Int) -> PairingEndpoint {
        let key = graph.sortedKeys[row]
        return PairingEndpoint(qualifiedName: key, token: TokenGraph.displayName(key), property: nil, location: graph.token(row: row).location)
    }

    func propertyEndpoint(_ property: Component.Property) -> PairingEndpoint {
        PairingEndpoint(qualifiedName: property.qualifiedName, token: property.referencedToken.map(TokenGraph.displayName),
                        property: property.name, location: property.location)
    }

    /// Resolves a name from the configuration: a component property path or a token name.
    public func resolveName(_ name: String) -> String? {
        if graph.tokens[name] != nil { return name }
        let path = name.splitOnDots().map(String.init)
        let reference = TokenReference(path: path, isImplicitMember: path.count == 1, expectedKind: .color, scope: [],
                                       location: SourceLocation(file: "", line: 0, column: 0))
        if let key = graph.resolve(reference) { return key }
        // `NativePickerStyling.label` without the group.
        if path.count == 2 {
            for group in Component.Group.allCases {
                let key = [path[0], group.rawValue, path[1]].joinedWithDots()
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
        let excluded: Set<String> = ["inverse", "brand", "accent", "error", "danger", "success", "warning", "info",
                                     "solid", "scrim", "overlay", "disabled", "hover", "pressed", "selected", "tint"]
        let surfaceWords: Set<String> = ["surface", "surfaces", "background", "backgrounds", "canvas", "bg"]
        let baseWords: Set<String> = ["base", "canvas", "page", "default", "app"]
        var scored: [(score: Int, key: String)] = []
        // By row, not by key: each token's words, definition and color are read where the graph keeps them, with no name
        // hashed (a look-up by name per token was most of this step, on one core). The order does not matter: the best
        // scores are sorted by name below.
        for row in componentPropertyRows.indices where !componentPropertyRows[row] {
            // The name first (the graph keeps every token's words): few tokens are named as surfaces.
            let words = graph.nameInfo(row: row).words
            guard words.contains(where: surfaceWords.contains) else { continue }
            let definition = graph.token(row: row)
            guard definition.declaredKind != .other, graph.color(row: row) != nil else { continue }
            let key = graph.sortedKeys[row]
            // Status words anywhere in the path exclude (`ButtonTokens.Tone.danger.colors.background`).
            guard !nameWords(key).contains(where: excluded.contains) else { continue }
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

    /// Every pairing, from every source in `allPairingSources`, resolved by `PairingResolver`.
    public func pairings(surfaces: Surfaces) -> ([Pairing], [Finding]) {
        let resolution = resolve(surfaces: surfaces)
        return (resolution.pairings, resolution.findings)
    }

    public func resolve(surfaces: Surfaces) -> PairingResolver.Resolution {
        PairingResolver(sources: allPairingSources).resolve(self, surfaces: surfaces)
    }

    func componentOwning(_ key: String) -> String? {
        components.first { $0.properties.contains { $0.qualifiedName == key } }?.name
    }

    func endpoint(for key: String) -> PairingEndpoint? {
        for component in components {
            if let property = component.properties.first(where: { $0.qualifiedName == key }) { return propertyEndpoint(property) }
        }
        return tokenEndpoint(key)
    }

    func isClear(_ key: String) -> Bool {
        color(key)?.isClear ?? false
    }

    /// Words left out when a color's name is matched with a typography entry's by shared words: states and generic words.
    /// (A static: the set was built again for every text color of every component.)
    static let typographyStateWords: Set<String> = ["active", "inactive", "selected", "disabled", "default", "color", "text"]

    /// The Typography entry that styles a color property's text: same name, else the only font, else the smallest
    /// (the conservative choice: smaller text needs more contrast).
    func typography(for colorName: String, in component: Component) -> TypographyChoice? {
        typography(for: colorName, among: fonts(of: component))
    }

    /// A component's Typography entries that give a font or a point size, in order: found once per component and
    /// matched against each of its text colors (`typography(for:among:)`).
    func fonts(of component: Component) -> [(name: String, font: FontValue)] {
        var fonts: [(name: String, font: FontValue)] = []
        // By index, read in place: a copy of each property counted its strings.
        let properties = component.properties
        for p in properties.indices where properties[p].group == .typography {
            switch graph.value(of: properties[p].qualifiedName) {
            case .success(.font(let f)): fonts.append((properties[p].name, f))
            case .success(.number(let size)) where nameWords(properties[p].name).contains("size"):
                fonts.append((properties[p].name, FontValue(size: size, weight: nil, face: nil, textStyle: nil, scales: false,
                                                            location: properties[p].location)))
            default: break
            }
        }
        return fonts
    }

    func typography(for colorName: String, among fonts: [(name: String, font: FontValue)]) -> TypographyChoice? {
        typography(for: colorName, words: nil, among: fonts)
    }

    /// `words`: the color name's words when the caller has them (`nameWords(colorName)`, as the graph keeps them).
    func typography(for colorName: String, words: [String]?, among fonts: [(name: String, font: FontValue)]) -> TypographyChoice? {
        guard !fonts.isEmpty else { return nil }
        if let same = fonts.first(where: { $0.name == colorName }) {
            return TypographyChoice(property: same.name, font: same.font, how: "same name")
        }
        // A name has a few words: searched in place, not made into sets or filtered into arrays (this runs for every text
        // color of a component). A shared word that is not a state word: shared first (the set hashes each word asked).
        let colorWords = words ?? nameWords(colorName)
        if let shared = fonts.first(where: { font in
            nameWords(font.name).contains { colorWords.contains($0) && !Self.typographyStateWords.contains($0) }
        }) {
            return TypographyChoice(property: shared.name, font: shared.font, how: "shares a name word")
        }
        if fonts.count == 1 { return TypographyChoice(property: fonts[0].name, font: fonts[0].font, how: "only typography entry") }
        let smallest = fonts.min { ($0.font.size ?? 0) < ($1.font.size ?? 0) }!
        return TypographyChoice(property: smallest.name, font: smallest.font, how: "smallest in component")
    }

    /// Whether the key's first name is a color, number or font namespace or `Asset` (`Color.appText`).
    static func isNamespace(_ key: String) -> Bool { TokenGraph.firstName(of: key).isDisplayPrefix }
}
