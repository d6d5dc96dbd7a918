/// Pairs inferred inside each component styling enum from its property names: text and graphics on the
/// component's backgrounds (or the default surfaces when it has none or a clear one).
public struct ComponentStylingPairs: PairingSource {
    public init() {}

    /// Backgrounds returned by functions are evaluated (`functionBackgrounds`).
    public var evaluatesCode: Bool { true }

    public func propose(_ input: PairingInference, surfaces: Surfaces) -> PairingProposal {
        PairingProposal(pairings: input.components.flatMap {
            componentPairings($0, surfaces: surfaces, input, interpreter: input.graph.interpreter)
        })
    }

    /// Many components (a large design system's hundreds) are paired in parts, one per core.
    public func parts(_ input: PairingInference) -> Int {
        let interpreter = input.graph.interpreter
        let workers = interpreter.configuration.workers
        return workers > 1 && input.components.count >= 64 * workers && !interpreter.orderDependent ? workers : 1
    }

    /// The components of one part, evaluating on an interpreter of its own that starts from what the graph's memoised.
    public func propose(_ input: PairingInference, surfaces: Surfaces, part: Int, of parts: Int) -> PairingProposal? {
        let interpreter = input.graph.interpreter.worker()
        let components = input.components[input.components.count * part / parts..<input.components.count * (part + 1) / parts]
        let pairings = components.flatMap { componentPairings($0, surfaces: surfaces, input, interpreter: interpreter) }
        return interpreter.orderDependent ? nil : PairingProposal(pairings: pairings)
    }

    func componentPairings(_ component: Component, surfaces: Surfaces, _ input: PairingInference,
                           interpreter: Interpreter) -> [Pairing] {
        // The component's colors and what is known of each, side by side and by index: each color's row found once, its
        // evaluated value and its name's words and role read there as the graph keeps them for its token, whether it is
        // clear, its endpoint. (Kept by qualified name in a dictionary, each was hashed, looked up and copied again at each
        // use; looked up by name for its value and again for its words, each name was hashed twice.)
        // The colors are indices into the component's properties, read in place: a copy of a property counted its strings.
        let graph = input.graph
        let properties = component.properties
        var colors: [Int] = [], isClear: [Bool] = [], infos: [TokenGraph.NameInfo] = []
        colors.reserveCapacity(properties.count)
        isClear.reserveCapacity(properties.count)
        infos.reserveCapacity(properties.count)
        for p in properties.indices where properties[p].group == .colors {
            guard let row = graph.row(of: properties[p].qualifiedName), let value = graph.color(row: row) else { continue }
            colors.append(p)
            isClear.append(value.isClear)
            infos.append(graph.nameInfo(row: row))
        }
        // (Made for every color: made as a pair first used them, kept as optionals, they cost more than the few unused.)
        let endpoints = colors.map { input.propertyEndpoint(properties[$0]) }
        // The component's fonts, looked up once for all its text colors (not once per color), when it has one.
        var fonts: [(name: String, font: FontValue)]?
        // (Counted and kept at their size: filtered into arrays grown one by one, they were reallocated per component.)
        var opaqueBackgrounds: [Int] = [], hasClearBackground = false
        opaqueBackgrounds.reserveCapacity(colors.count)
        for c in colors.indices where infos[c].role == .background {
            if isClear[c] { hasClearBackground = true } else { opaqueBackgrounds.append(c) }
        }
        // Each background's qualifier words (its name's words but its role word, each once), matched against every
        // foreground's. A name has a few words: kept in arrays and searched, not made into sets for each foreground.
        let backgroundQualifiers = opaqueBackgrounds.map { bg in
            var unique: [String] = []
            for w in infos[bg].words where w != infos[bg].roleWord && !unique.contains(w) { unique.append(w) }
            return unique
        }
        let returnedBackgrounds = functionBackgrounds(component, input, interpreter: interpreter)
        var pairs: [Pairing] = []
        for f in colors.indices {
            let role = infos[f].role
            guard role == .text || role == .graphic || role == .disabled else { continue }
            // A clear foreground (`border: .clear`) draws nothing: there is no contrast to have.
            if isClear[f] { continue }
            let (fgName, word, words) = (properties[colors[f]].name, infos[f].roleWord, infos[f].words)
            var typography: TypographyChoice?
            if role != .graphic {
                if fonts == nil { fonts = input.fonts(of: component) }
                typography = input.typography(for: fgName, words: words, among: fonts!)
            }
            // `badgeText` is drawn on `badge`: the naming convention beats the component's general background.
            if words.count > 1, let last = words.last, Self.isDrawnOnItsOwner(last) {
                let owner = words.dropLast().concatenated()
                if let b = colors.indices.first(where: { Self.lowercased(properties[colors[$0]].name, is: owner) && $0 != f }) {
                    let bgName = properties[colors[b]].name
                    pairs.append(Pairing(component: component.name, foreground: endpoints[f], background: endpoints[b],
                                         role: role, reason: .namingConvention,
                                         explanation: "\(fgName) is drawn on \(bgName) (name \(bgName) + '\(last)')",
                                         typography: typography))
                    continue
                }
            }
            // A state's foreground is drawn in that state: `selectedDayText` on a `selected...` background, else on the
            // component's tint (iOS draws the selected day on the tint circle), never on the resting background.
            if let state = words.lazy.compactMap(Self.state(of:)).first {
                let sameState = opaqueBackgrounds.filter { infos[$0].words.contains { Self.state(of: $0) == state } }
                let tints = colors.indices.filter { c in
                    c != f && !isClear[c] && infos[c].words.contains { $0 == "tint" || $0 == "accent" }
                }
                let inState = sameState.isEmpty ? tints : sameState
                if !inState.isEmpty {
                    for b in inState {
                        pairs.append(Pairing(component: component.name, foreground: endpoints[f], background: endpoints[b],
                                             role: role, reason: .component,
                                             explanation: TextParts.joined { text in
                                                 Pairing.appendRoleText(fgName, role, word: word, to: &text)
                                                 text.append("; drawn in the ")
                                                 text.append(state)
                                                 text.append(" state, on ")
                                                 text.append(properties[colors[b]].name)
                                             },
                                             typography: typography))
                    }
                    continue
                }
            }
            // `majorText` goes on `majorFill`, `textPressed` on `fillPressed`, `text` on `background` (not `backgroundHover`):
            // the backgrounds whose qualifier words best match the foreground's.
            // Each shared qualifier counts for the background, each of its own the foreground lacks against it.
            let fits = backgroundQualifiers.map { own in
                own.reduce(0) { fit, w in fit + (w != word && words.contains(w) ? 1 : -1) }
            }
            let bestFit = fits.max()
            for (b, fit) in zip(opaqueBackgrounds, fits) where fit == bestFit {
                pairs.append(Pairing(component: component.name, foreground: endpoints[f], background: endpoints[b],
                                     role: role, reason: .component,
                                     explanation: TextParts.joined { text in
                                         Pairing.appendRoleText(fgName, role, word: word, to: &text)
                                         text.append("; ")
                                         text.append(properties[colors[b]].name)
                                         text.append(" is the component's background")
                                     },
                                     typography: typography))
            }
            if opaqueBackgrounds.isEmpty, !returnedBackgrounds.isEmpty {
                let roleText = Pairing.roleText(fgName, role, word: word)
                for (name, bg) in returnedBackgrounds {
                    pairs.append(Pairing(component: component.name, foreground: endpoints[f], background: bg, role: role, reason: .component,
                                         explanation: "\(roleText); \(name) returns the component's background", typography: typography))
                }
                continue
            }
            if opaqueBackgrounds.isEmpty || hasClearBackground {
                let roleText = Pairing.roleText(fgName, role, word: word)
                let why = opaqueBackgrounds.isEmpty
                    ? "\(component.name) has no background color, so \(fgName) sits on the default surface"
                    : "a background of \(component.name) is clear, so \(fgName) also sits on the default surface"
                for surface in surfaces.endpoints {
                    pairs.append(Pairing(component: component.name, foreground: endpoints[f], background: surface,
                                         role: role, reason: .defaultSurface, explanation: "\(roleText); \(why)", typography: typography))
                }
            }
        }
        return pairs
    }

    /// The last words of a foreground drawn on the color its other words name (`badgeText` on `badge`).
    static func isDrawnOnItsOwner(_ lastWord: String) -> Bool {
        switch lastWord {
        case "text", "label", "icon", "glyph", "title": return true
        default: return false
        }
    }

    /// `name.lowercased() == lowercased`, without lowercasing an ASCII name of another length (most names: lowercasing
    /// keeps an ASCII name's length, not always another's).
    static func lowercased(_ name: String, is lowercased: String) -> Bool {
        if name.utf8.count != lowercased.utf8.count, name.isAllASCII { return false }
        return name.lowercased() == lowercased
    }

    /// Words of a state a foreground is drawn in.
    static let stateWords: Set<String> = ["selected", "pressed", "hover", "hovered", "focused", "highlighted", "checked"]

    /// The state a name word says (`hovered` is the `hover` state), nil for other words.
    static func state(of word: String) -> String? {
        // By length first: most words have none of the state words' lengths, and are not hashed.
        switch word.utf8.count {
        case 5, 7, 8, 11: break
        default: return nil
        }
        guard stateWords.contains(word) else { return nil }
        return word == "hovered" ? "hover" : word
    }

    /// Backgrounds a component's colors return from functions (`static func sheetBackground(for colorScheme:) -> Color`),
    /// evaluated per appearance: a `ColorScheme` parameter gets `.light` or `.dark`, others their defaults.
    func functionBackgrounds(_ component: Component, _ input: PairingInference,
                             interpreter: Interpreter) -> [(name: String, endpoint: PairingEndpoint)] {
        var result: [(String, PairingEndpoint)] = []
        let owner = memberKey(component.name, Component.Group.colors.rawValue)
        // The interpreter's member index, not a scan of every declaration (300 components x 8,000 declarations).
        // Only its functions (copying and sorting every member for them was most of this).
        for declaration in interpreter.memberDeclarations(of: owner, where: \.isFunction) {
            guard case .function(let parameters, _) = declaration.kind, Role.inferred(fromName: declaration.name).role == .background,
                  parameters.allSatisfy({ $0.defaultValue != nil || $0.type?.contains("ColorScheme") == true }) else { continue }
            func evaluated(_ scheme: String) -> AppearanceColor? {
                let arguments = parameters.filter { $0.defaultValue == nil }.map { p in
                    EvaluatedArgument(label: p.label, value: Value.enumCase(type: "", name: scheme, payload: []))
                }
                if case .color(let c) = interpreter.call(declaration, arguments: arguments, selfValue: .type(owner)) { return c }
                return nil
            }
            guard let light = evaluated("light"), let dark = evaluated("dark") else { continue }
            let color = AppearanceColor(values: [.light: light[.light], .lightHighContrast: light[.lightHighContrast],
                                                 .dark: dark[.dark], .darkHighContrast: dark[.darkHighContrast]],
                                        explicit: [.light, .dark])
            let name = declaration.name + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")"
            result.append((name, PairingEndpoint(qualifiedName: owner + "." + name, token: nil, property: name,
                                                 location: declaration.location, color: color)))
        }
        return result
    }
}
