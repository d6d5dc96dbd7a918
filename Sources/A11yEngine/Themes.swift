import Foundation

/// A theme of the app (sepia, rosé, contrast dark): one more set of values for the same tokens, audited on its own.
public struct Theme: Hashable, Sendable, Codable {
    /// The name the output uses (the configured `as:`, else as found in the code).
    public var name: String
    /// The name in the code: a palette instance, a case of the theme enum, a palette type (or the selector case naming it).
    public var codeName: String
    /// The appearance the theme is drawn in when its colors are fixed (a "night" palette is dark whatever the system
    /// says); nil when its colors follow the system appearance, which is then audited in every appearance.
    public var appearance: Appearance?
    public var isDefault: Bool
    /// Where the theme comes from: `ReaderPalette.sepia (palette instance)`.
    public var source: String
    /// Why the theme has its appearance: "configured", "dark by its name", "light: paperBackground is #F8F1E3".
    public var inference: String

    public init(name: String, codeName: String, appearance: Appearance?, isDefault: Bool, source: String, inference: String) {
        self.name = name
        self.codeName = codeName
        self.appearance = appearance
        self.isDefault = isDefault
        self.source = source
        self.inference = inference
    }
}

/// One way the code selects a theme: the type whose value is the theme, and the value each theme gives it.
public struct ThemeFamily: Hashable, Sendable {
    public enum Form: String, Hashable, Sendable {
        /// `struct ReaderPalette { let paperBackground: UIColor; ... static let sepia = ReaderPalette(...) }`
        case paletteInstances = "palette instance"
        /// `enum ThemeType { case light, dark, rosé }` switched over by token functions (`primaryText(for:)`).
        case themeSwitch = "theme switch"
        /// `protocol PaletteDefinition` with conforming types (`DefaultPalette`, `ExperimentalPalette`).
        case paletteTypes = "palette type"
    }

    public struct Member: Hashable, Sendable {
        public var name: String
        /// The selector's value in this theme: an instance, an enum case, a type.
        public var value: Value
        public var location: SourceLocation
    }

    /// A static (or top-level) function giving a color or font whose one required parameter is the theme enum.
    public struct Function: Hashable, Sendable {
        public var declaration: MemberDeclaration
        public var parameter: Parameter
    }

    public var form: Form
    /// Qualified name of the selector type (the palette struct, the theme enum, the palette protocol).
    public var type: String
    public var members: [Member]
    /// A theme switch's token functions, found once at discovery (every theme's graph calls them).
    public var functions: [Function] = []
}

/// Finds the theme families of a design system with the interpreter. Names decide only whether a family is themes
/// rather than variants: instances and enum cases must be named like themes (light, dark, sepia, black, contrast...);
/// palette types may instead conform to a protocol named `...Palette`/`...Theme`/`...Scheme`.
public enum ThemeDiscovery {
    /// Words that name a theme rather than a variant (`primary`, `danger` are variants).
    static let themeWords: Set<String> = [
        "light", "dark", "sepia", "black", "night", "dim", "default", "contrast", "classic", "midnight", "day", "oled",
        "amoled", "standard", "paper", "gray", "grey", "experimental", "rose", "rosé",
    ]
    static let selectorWords: Set<String> = ["theme", "themes", "palette", "palettes", "scheme"]

    /// `themeWords` for names' words compared on their bytes (`isThemeName` is asked of every static member's name).
    private static let themeWordSet = NameWordSet(themeWords)

    static func isThemeName(_ name: String) -> Bool { themeWordSet.isAmongWords(of: name) }

    static func namesThemes(_ type: String) -> Bool {
        let last = type.lastDotPiece.map(String.init) ?? type
        return nameWords(last).contains { selectorWords.contains($0) }
    }

    public static func families(_ interpreter: Interpreter) -> [ThemeFamily] {
        var result: [ThemeFamily] = []
        for type in interpreter.typeNames {
            switch interpreter.typeKind(type) {
            case .struct?, .class?: if let f = paletteInstances(type, interpreter) { result.append(f) }
            case .enum?: if let f = themeEnum(type, interpreter) { result.append(f) }
            case .protocol?: if let f = paletteTypes(type, interpreter) { result.append(f) }
            default: break
            }
        }
        return result
    }

    private static func colorCount(_ fields: NameMap<Value>) -> Int {
        fields.values.filter { if case .color = $0 { return true } else { return false } }.count
    }

    /// Static instances of a struct of colors, built by its initialiser (an alias such as `static var current = light`
    /// is the app's selection, not another theme).
    private static func paletteInstances(_ type: String, _ interpreter: Interpreter) -> ThemeFamily? {
        let candidates = interpreter.memberDeclarations(of: type) { d in
            guard d.isStatic, case .stored(let initial?) = d.kind, case .call = initial.kind else { return false }
            return !holdsNoInstance(of: type, d, interpreter)
        }
        func member(_ d: MemberDeclaration) -> ThemeFamily.Member? {
            let value = interpreter.staticValue(of: d)
            guard case .instance(let t, let fields) = value, t == type, colorCount(fields) >= 2 else { return nil }
            return .init(name: d.name, value: value, location: d.location)
        }
        // Themes are named like themes (light, sepia, dark): `ButtonColors.primary/.secondary` are variants. Two
        // theme-named instances decide; the rest are evaluated only then (a token namespace's members are left to the
        // graph, which evaluates them on all cores).
        let themeNamed = candidates.filter { isThemeName($0.name) }
        guard themeNamed.count >= 2, themeNamed.compactMap(member).count >= 2 else { return nil }
        let members = candidates.compactMap(member)
        return ThemeFamily(form: .paletteInstances, type: type, members: members)
    }

    /// Whether a static member certainly holds no instance of `type`, without evaluating it: declared with a token type
    /// (`: Color`), or built by a project function of another type declared to return one (`Color.adaptive(light:dark:)`).
    private static func holdsNoInstance(of type: String, _ d: MemberDeclaration, _ interpreter: Interpreter) -> Bool {
        if let declared = d.type, Interpreter.kindOfType(declared) != nil { return true }
        guard case .stored(let initial?) = d.kind, case .call(let callee, _) = initial.kind, case .member(let base, let name) = callee.kind,
              let path = base.path else { return false }
        let owner = interpreter.typeKey(path.joinedWithDots(), in: d.owner)
        guard owner != type else { return false }
        let functions = interpreter.functions(owner, name)
        return !functions.isEmpty && functions.allSatisfy { $0.isStatic && $0.type.flatMap(Interpreter.kindOfType) != nil }
    }

    /// An enum of themes: named as one, or with two or more theme-named cases, and taken by color functions, giving
    /// colors itself, or held by a static property (the app's current choice, read by tokens as a default argument).
    private static func themeEnum(_ type: String, _ interpreter: Interpreter) -> ThemeFamily? {
        let cases = interpreter.enumCases(of: type).filter { $0.parameters.isEmpty }
        // Cases named like themes: an enum of color tokens named `ThemeStyle` (`case primaryText01`) is not a theme enum.
        guard cases.count >= 2, cases.filter({ isThemeName($0.name) }).count >= 2 else { return nil }
        let functions = colorFunctions(taking: type, interpreter)
        guard !functions.isEmpty
            || !interpreter.computedProperties(of: type).filter({ $0.type.flatMap(Interpreter.kindOfType) == .color }).isEmpty
            || interpreter.isSelected(type)
        else { return nil }
        return ThemeFamily(form: .themeSwitch, type: type, members: cases.map {
            .init(name: $0.name, value: .enumCase(type: type, name: $0.name, payload: []), location: $0.location)
        }, functions: functions)
    }

    /// Static (or top-level) functions returning a color whose one required parameter is the theme enum.
    static func colorFunctions(taking enumType: String, _ interpreter: Interpreter) -> [ThemeFamily.Function] {
        var result: [ThemeFamily.Function] = []
        for function in interpreter.allFunctions where function.isStatic || function.owner.isEmpty {
            guard case .function(let parameters, _) = function.kind, function.type.flatMap(Interpreter.kindOfType) != nil else { continue }
            let themed = parameters.filter { p in p.type.flatMap { interpreter.resolveType($0, in: function.owner) } == enumType }
            guard themed.count == 1, parameters.allSatisfy({ $0 == themed[0] || $0.defaultValue != nil }) else { continue }
            result.append(.init(declaration: function, parameter: themed[0]))
        }
        return result
    }

    /// Types conforming to one protocol, each with its own colors; a selector enum (`case .experimental: return
    /// ExperimentalPalette.self`) names them.
    private static func paletteTypes(_ proto: String, _ interpreter: Interpreter) -> ThemeFamily? {
        // Each palette type defines two or more of the protocol's colors (or, without declared requirements, two colors).
        let requirements = Set(interpreter.memberDeclarations(of: proto) { $0.type.flatMap(Interpreter.kindOfType) == .color }.map(\.name))
        let conformers = interpreter.conformers(of: proto).filter { type in
            interpreter.memberDeclarations(of: type) {
                requirements.contains($0.name) || $0.type.flatMap(Interpreter.kindOfType) == .color
            }.count >= 2
        }
        guard conformers.count >= 2 else { return nil }
        var names: [String: String] = [:]
        for type in interpreter.typeNames where interpreter.typeKind(type) == .enum {
            let protoName = proto.lastDotPiece.map(String.init) ?? proto
            for property in interpreter.computedProperties(of: type) where property.type?.contains(protoName) ?? false {
                for c in interpreter.enumCases(of: type) where c.parameters.isEmpty {
                    let value = interpreter.member(of: .enumCase(type: type, name: c.name, payload: []), named: property.name, at: property.location)
                    if case .type(let chosen) = value, conformers.contains(chosen), names[chosen] == nil { names[chosen] = c.name }
                }
            }
        }
        let members: [ThemeFamily.Member] = conformers.map {
            .init(name: names[$0] ?? ($0.lastDotPiece.map(String.init) ?? $0), value: .type($0),
                  location: interpreter.typeLocation($0) ?? SourceLocation(file: "", line: 0, column: 0))
        }
        // A protocol named as a palette or theme, or conformers named like themes (`DefaultPalette`, `DarkPalette`):
        // `PrimaryButtonColors`/`SecondaryButtonColors` conforming to one protocol are variants.
        guard namesThemes(proto) || members.filter({ isThemeName($0.name) }).count >= 2 else { return nil }
        return ThemeFamily(form: .paletteTypes, type: proto, members: members)
    }
}

/// A design system evaluated theme by theme: one token graph per theme (the default theme's first), and which
/// tokens change with the theme. Without themes it is the one graph, as before.
public struct ThemedSystem {
    public var themes: [Theme]
    /// `graphs[i]` is evaluated in `themes[i]`; one graph when there are no themes.
    public var graphs: [TokenGraph]
    /// Keys whose value differs between themes.
    public var themedKeys: Set<String>
    public var findings: [Finding]

    /// The default theme's graph (the only one without themes): pairing, hygiene and Dynamic Type read it.
    public var primary: TokenGraph { graphs[themes.firstIndex(where: \.isDefault) ?? 0] }

    public func graph(forTheme name: String?) -> TokenGraph {
        guard let name, let i = themes.firstIndex(where: { $0.name == name }) else { return primary }
        return graphs[i]
    }

    static let darkWords: Set<String> = ["dark", "black", "night", "midnight", "dim", "oled", "amoled"]
    static let defaultWords: Set<String> = ["default", "light", "standard", "classic", "day"]

    public static func evaluate(sources: [ParsedSource], interpreter configuration: Interpreter.Configuration,
                                project: ProjectConfiguration, previous: TokenGraph? = nil,
                                onPhase: (@Sendable (AuditPhase) -> Void)? = nil) -> ThemedSystem {
        // Discovery evaluates only what it looks at; the graph (every token) is built once per theme, or once without.
        // Values of the previous audit's program that an edit did not reach are kept (themes are evaluated afresh), and
        // without themes so are the tokens of declarations the edit did not reach.
        let program = TokenGraph.Program(sources: sources, configuration: configuration, previous: previous?.program)
        onPhase?(.program)
        let families = ThemeDiscovery.families(program.interpreter)
        onPhase?(.themeDiscovery)
        guard !families.isEmpty else {
            let graph = previous.flatMap { TokenGraph(program: program, updating: $0) } ?? TokenGraph(program: program)
            return ThemedSystem(themes: [], graphs: [graph], themedKeys: [], findings: [])
        }
        let base = { TokenGraph(program: program) }

        // Themes by name across families (a system may have a palette and a theme enum naming the same themes).
        var discovered: [(codeName: String, source: String)] = []
        for family in families {
            for member in family.members where !discovered.contains(where: { $0.codeName.lowercased() == member.name.lowercased() }) {
                discovered.append((member.name, "\(family.type).\(member.name) (\(family.form.rawValue))"))
            }
        }
        var findings: [Finding] = []
        var chosen: [(codeName: String, source: String, setting: ProjectConfiguration.ThemeSetting?)] = []
        if let settings = project.themes {
            for setting in settings {
                guard let found = discovered.first(where: { $0.codeName.lowercased() == setting.codeName.lowercased() }) else {
                    findings.append(Finding(
                        rule: "config", severity: .error, subject: "themes",
                        message: "themes: \(setting.codeName) is not a theme found in the code (found: \(discovered.map(\.codeName).joined(separator: ", ")))",
                        location: setting.location))
                    continue
                }
                chosen.append((found.codeName, found.source, setting))
            }
        } else {
            chosen = discovered.map { ($0.codeName, $0.source, nil) }
        }
        guard !chosen.isEmpty else { return ThemedSystem(themes: [], graphs: [base()], themedKeys: [], findings: findings) }

        let defaultIndex = chosen.firstIndex { $0.setting?.isDefault ?? false }
            ?? chosen.firstIndex { nameWords($0.codeName).contains { defaultWords.contains($0) } } ?? 0
        // One graph per theme, each with its own interpreter: built concurrently.
        let configurations = chosen.map { theme in
            var c = configuration
            c.workers = 1 // the theme graphs themselves are built on all cores
            for family in families {
                let member = family.members.first { $0.name.lowercased() == theme.codeName.lowercased() } ?? family.members[0]
                c.theme[family.type] = member.value
            }
            return c
        }
        // Each theme's program shares the sources and the interpreter's indexes (built once, above); each is then used
        // by one worker only.
        nonisolated(unsafe) let programs = configurations.map { TokenGraph.Program(program, configuration: $0) }
        let themeOnly = TokenGraph.themeOnlyDeclarations(program, families: families)
        let built = ConcurrentResults<TokenGraph>(count: configurations.count)
        parallelPerform(iterations: configurations.count) { i in
            built.set(i, TokenGraph(program: programs[i], themeFamilies: families, themeOnly: themeOnly))
        }
        let graphs = built.values.map { $0! }
        // `AppTheme.color(for: .primaryText01)` returning `ThemeColor.primaryText01(for:)` in every theme is that token
        // under a second name: one token, not a copy measured again.
        let copies = Self.caseCopies(graphs)
        for graph in graphs { graph.remove(copies) }
        var themedKeys: Set<String> = []
        for key in graphs[defaultIndex].tokens.keys {
            let first = graphs[0].value(of: key)
            if graphs.dropFirst().contains(where: { $0.value(of: key) != first }) { themedKeys.insert(key) }
        }
        for graph in graphs { for keys in graph.palettes.values { themedKeys.formUnion(keys) } }

        var themes: [Theme] = []
        for (i, theme) in chosen.enumerated() {
            let (appearance, why) = appearance(of: theme.codeName, setting: theme.setting, graph: graphs[i], themedKeys: themedKeys,
                                               project: project)
            themes.append(Theme(name: theme.setting?.name ?? theme.codeName, codeName: theme.codeName, appearance: appearance,
                                isDefault: i == defaultIndex, source: theme.source, inference: why))
        }
        return ThemedSystem(themes: themes, graphs: graphs, themedKeys: themedKeys, findings: findings)
    }

    /// Token-function cases (`Owner.function.case`) equal in every theme to the token named like the case.
    static func caseCopies(_ graphs: [TokenGraph]) -> Set<String> {
        guard let first = graphs.first else { return [] }
        var byName: [String: [String]] = [:]
        for key in first.sortedKeys { byName[first.tokens[key]!.name, default: []].append(key) }
        var copies: Set<String> = []
        for key in first.sortedKeys {
            guard let token = first.tokens[key], token.qualifiedName.count >= 3, token.expression == nil else { continue }
            let original = byName[token.name, default: []].first { other in
                other != key && !copies.contains(other) && first.tokens[other]!.qualifiedName.count < token.qualifiedName.count
                    && graphs.allSatisfy { g in
                        if case .success(let v) = g.value(of: key), case .success(let w) = g.value(of: other) { return v == w }
                        return false
                    }
            }
            if original != nil { copies.insert(key) }
        }
        return copies
    }

    /// The appearance a theme is drawn in: configured; none when its colors are dynamic (the system decides); else by
    /// its name (a "night" theme is dark, a "contrast" theme is increased contrast), else by its base background.
    static func appearance(of codeName: String, setting: ProjectConfiguration.ThemeSetting?, graph: TokenGraph,
                           themedKeys: Set<String>, project: ProjectConfiguration) -> (Appearance?, String) {
        let words = nameWords(codeName)
        let contrastByName = words.contains("contrast")
        func withContrast(_ base: Appearance, _ increased: Bool) -> Appearance {
            increased ? (base.isDark ? .darkHighContrast : .lightHighContrast) : base
        }
        if let setting, setting.appearance != nil || setting.increasedContrast != nil {
            let base = setting.appearance ?? (words.contains { darkWords.contains($0) } ? .dark : .light)
            return (withContrast(base, setting.increasedContrast ?? contrastByName), "configured")
        }
        // (Any themed color will do: the keys are not sorted for it, once per theme.)
        if themedKeys.contains(where: { key in graph.color(of: key).map { !$0.isConstant } ?? false }) {
            return (nil, "its colors are dynamic, so it follows the system appearance")
        }
        let increased = contrastByName
        if let word = words.first(where: { darkWords.contains($0) }) {
            return (withContrast(.dark, increased), "by its name ('\(word)'" + (increased ? ", 'contrast')" : ")"))
        }
        if let background = PalettePairing.baseBackground(of: graph, configuration: project) {
            let color = background.color.composited(over: .white)
            let dark = color.relativeLuminance < 0.18
            return (withContrast(dark ? .dark : .light, increased),
                    "\(TokenGraph.displayName(background.key)) is \(color.withAlpha(1).hex)" + (increased ? ", 'contrast' in its name" : ""))
        }
        return (withContrast(.light, increased), "no base background found, light assumed")
    }
}
