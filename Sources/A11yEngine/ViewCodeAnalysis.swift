import Dispatch

/// Reads what SwiftUI views draw from their IR: `View` bodies, `ViewModifier.body(content:)`, `...Style.makeBody`,
/// and the `@ViewBuilder` helpers they call. Modifier chains are walked from the outside in (as SwiftUI applies
/// them: the innermost `.foregroundStyle` wins, the nearest `.background` is what a foreground sits on), containers
/// pass their context to their content, `ZStack` layers and `.overlay` put content on what is below it, and every
/// branch of a condition the evaluator cannot decide is followed. Colors and fonts are evaluated by the interpreter
/// with the view's properties bound, once per case of each enum-typed property (its variants). Pure and bounded.
public struct ViewCodeAnalysis {
    /// The graph's interpreter; a worker of `facts()` has its own.
    private(set) var interpreter: Interpreter
    let graph: TokenGraph
    /// Types by qualified key with their inheritance (extensions merged).
    let inheritance: NameMap<[String]>
    /// Instance members and initialisers by type (what view code reads: bodies, helpers, set-up methods, the
    /// initialisers' defaults).
    let members: NameMap<[MemberDeclaration]>
    /// Names of font tokens.
    let fontTokenNames: NameSet
    /// Color tokens' keys by value: a drawn color is matched to the tokens the walk read (`token(for:)`).
    let tokenKeysByColor: [AppearanceColor: [String]]
    let entries: [(type: String, entry: MemberDeclaration)]
    /// Entry points by the type's own name (the first, by qualified name, when two nested types share one).
    let entriesByName: NameMap<(type: String, entry: MemberDeclaration)>

    /// Protocols whose conformers draw: their `body`/`makeBody` is an entry point.
    static let drawingProtocols: Set<String> = ["View", "ViewModifier", "ButtonStyle", "PrimitiveButtonStyle", "ToggleStyle",
                                                "LabelStyle", "ProgressViewStyle", "GroupBoxStyle", "MenuStyle"]
    static let textElements: Set<String> = ["Text", "TextField", "SecureField", "TextEditor"]
    static let imageElements: Set<String> = ["Image", "AsyncImage"]
    static let shapes: Set<String> = ["Circle", "Capsule", "Rectangle", "RoundedRectangle", "Ellipse", "UnevenRoundedRectangle",
                                      "ContainerRelativeShape"]
    /// Bounds: nesting of helper calls, and pairs per view (a combinatorial body is cut off, not followed forever).
    static let maxDepth = 10
    static let maxPairsPerView = 400

    public init(declarations: [MemberDeclaration], types: [TypeDeclaration], graph: TokenGraph) {
        self.interpreter = graph.interpreter
        self.graph = graph
        var inheritance: NameMap<[String]> = [:]
        for type in types where type.kind != .typealias {
            inheritance[type.qualifiedName.joinedWithDots(), default: []] += type.inheritance
        }
        self.inheritance = inheritance
        var members: NameMap<[MemberDeclaration]> = [:]
        // Instance members and initialisers (which the IR marks static): a token file's thousands of static members
        // were indexed here for nothing.
        for d in declarations where Self.isViewCodeMember(d) { members[d.ownerKey, default: []].append(d) }
        self.members = members
        entries = Self.entryPoints(inheritance: inheritance, members: members)
        var fontTokenNames = NameSet()
        var tokenKeysByColor: [AppearanceColor: [String]] = [:]
        // Only view code reads them (a token file with thousands of tokens has none).
        if !Self.readsNothing(entries: entries, members: members) {
            tokenKeysByColor.reserveCapacity(graph.tokens.count)
            // By row: each value read where the graph keeps it, no key hashed (a serial step before the walks). The order
            // of a color's keys does not matter: `token(for:)` orders them by when the walk read them.
            for row in graph.sortedKeys.indices {
                switch graph.evaluated(row: row) {
                case .color(let color): tokenKeysByColor[color, default: []].append(graph.sortedKeys[row])
                case .font: fontTokenNames.insert(graph.token(row: row).name)
                default: break
                }
            }
        }
        self.fontTokenNames = fontTokenNames
        self.tokenKeysByColor = tokenKeysByColor
        var byName: NameMap<(type: String, entry: MemberDeclaration)> = [:]
        for e in entries {
            let last = e.type.lastDotPiece.map(String.init) ?? e.type
            if byName[last] == nil { byName[last] = e }
        }
        entriesByName = byName
    }

    /// Instance members and initialisers (which the IR marks static): all view code reads of the declarations.
    static func isViewCodeMember(_ d: MemberDeclaration) -> Bool { !d.isStatic || d.isInitializer }

    /// The declarations of `sources` that view code reads (`isViewCodeMember`), in order: a large file's picked in parts
    /// on all cores. Listing every declaration on one core (to be filtered here) retained each, a cache miss apiece on the
    /// declarations the readers' cores made, for the few a token file has.
    static func viewCodeDeclarations(in sources: [ParsedSource], workers: Int) -> [MemberDeclaration] {
        var found: [MemberDeclaration] = []
        for source in sources {
            let shared = ReadOnly(value: source.declarations)
            let parts = shared.value.count >= Interpreter.declarationsIndexedInParts ? workers : 1
            found += concurrentParts(count: shared.value.count, workers: parts) { shared.value[$0].filter(isViewCodeMember) }
        }
        return found
    }

    /// True when the design system has no view code whatever its values: no drawing type, no instance method (UIKit
    /// set-up code). A later audit of the same structure need not read it again.
    public var readsNothing: Bool { Self.readsNothing(entries: entries, members: members) }

    static func readsNothing(entries: [(type: String, entry: MemberDeclaration)], members: NameMap<[MemberDeclaration]>) -> Bool {
        entries.isEmpty && !members.values.contains { $0.contains { d in
            if !d.isStatic, case .function = d.kind { return true } else { return false }
        } }
    }

    /// Every drawing type with its entry point, ordered by name.
    func entryPoints() -> [(type: String, entry: MemberDeclaration)] { entries }

    static func entryPoints(inheritance: NameMap<[String]>, members: NameMap<[MemberDeclaration]>) -> [(type: String, entry: MemberDeclaration)] {
        var result: [(String, MemberDeclaration)] = []
        // The drawing types picked out before they are sorted by name (a large system declares thousands of other types).
        let drawing = inheritance.filter { $0.value.contains { drawingProtocols.contains($0) || $0.hasSuffix("Style") } }
        for type in drawing.map(\.key).sorted() {
            let candidates = (members[type] ?? []).filter { !$0.isStatic && ($0.name == "body" || $0.name == "makeBody") }
            if let entry = candidates.sorted(by: { $0.location < $1.location }).first { result.append((type, entry)) }
        }
        return result
    }

    /// A project view used inside another one (`StatusPill(color: .alert)`), by the name it is called with.
    func viewEntry(named name: String) -> (type: String, entry: MemberDeclaration)? { entriesByName[name] }

    public func drawnPairs() -> [DrawnPair] { facts().drawn }

    public func facts() -> ViewCodeFacts {
        var facts = ViewCodeFacts()
        for entry in factsPerEntry() {
            facts.drawn += entry.drawn
            facts.touchTargets += entry.touchTargets
            facts.fonts += entry.fonts
            facts.clippedText += entry.clippedText
        }
        let uikit = UIKitSetupAnalysis(analysis: self).facts()
        facts.drawn += uikit.drawn
        facts.fonts += uikit.fonts
        return facts
    }

    /// What the walks of one entry found, each thing once: merged on the worker that walked the entry (merged after all
    /// the walks, on one core, it was a serial step of a view-heavy system's audit: hashing every pair drawn).
    static func merged(_ walks: [Walk]) -> ViewCodeFacts {
        var facts = ViewCodeFacts()
        var seen: Set<DrawnPairKey> = []
        for walk in walks {
            for pair in walk.pairs {
                // Variants that draw the same colors in the same place are one pair (the first variant names it).
                if seen.insert(DrawnPairKey(pair)).inserted { facts.drawn.append(pair) }
            }
        }
        // Sizes and fonts: once per place, the smallest any variant gives.
        var targets: [SourceLocation: TouchTargetFact] = [:]
        for t in walks.flatMap(\.touchTargets) {
            if let existing = targets[t.location], min(existing.width ?? .infinity, existing.height ?? .infinity)
                <= min(t.width ?? .infinity, t.height ?? .infinity) { continue }
            targets[t.location] = t
        }
        facts.touchTargets = targets.values.sorted { $0.location < $1.location }
        var fonts: [SourceLocation: ViewFontFact] = [:]
        for f in walks.flatMap(\.fonts) where fonts[f.location] == nil { fonts[f.location] = f }
        facts.fonts = fonts.values.sorted { $0.location < $1.location }
        var clipped: [SourceLocation: ClippedTextFact] = [:]
        for c in walks.flatMap(\.clippedText) where clipped[c.location] == nil { clipped[c.location] = c }
        facts.clippedText = clipped.values.sorted { $0.location < $1.location }
        return facts
    }

    /// The facts of every entry point (`merged` over its walks, one per variant), in entry order. Entries are walked on
    /// all cores when there are many, each by the next free worker: each worker has an interpreter over the same indexes
    /// that starts from what the graph's interpreter has memoised, and memoised values do not depend on the order they
    /// are computed in, so the walks are the ones a single thread makes. When evaluation met a cycle or a limit (results
    /// that do depend on order) they run in order.
    func factsPerEntry() -> [ViewCodeFacts] {
        let entries = entryPoints()
        let workers = interpreter.configuration.workers
        let inOrder = { entries.map { Self.merged(self.walks(of: $0)) } }
        guard workers > 1, entries.count >= 4 * workers, !interpreter.orderDependent else { return inOrder() }
        let results = ConcurrentResults<ViewCodeFacts>(count: entries.count)
        let orderDependent = ConcurrentResults<Bool>(count: workers)
        let queue = WorkQueue(count: entries.count)
        let shared = ReadOnly(value: self)
        parallelPerform(iterations: workers) { w in
            // Each worker's interpreter is made and freed on its worker's thread: freed on the caller, its memos were a
            // twentieth of elevate-ios's view code that ran on one core. (What the walks found is kept, not the walks,
            // which hold the analysis and so the interpreter.)
            var analysis = shared.value
            analysis.interpreter = shared.value.interpreter.worker()
            while let next = queue.take() {
                for i in next { results.set(i, Self.merged(analysis.walks(of: entries[i]))) }
            }
            orderDependent.set(w, analysis.interpreter.orderDependent)
        }
        guard !orderDependent.values.contains(true) else { return inOrder() }
        return results.values.map { $0! }
    }

    /// One walk per variant of the entry's type, except variants that agree with one walked before on every property
    /// that walk read (`Interpreter.FieldReads`): they would walk the same way, and draw the same pairs (which `facts()`
    /// keeps once, named by the first variant). A button's `size` rarely changes its colors.
    func walks(of entry: (type: String, entry: MemberDeclaration)) -> [Walk] {
        var walks: [Walk] = []
        var walked: [(fields: NameMap<Value>, read: Set<String>?)] = []
        for variant in variants(of: entry.type) {
            let fields: NameMap<Value> = { if case .instance(_, let f) = variant.selfValue { return f } else { return [:] } }()
            if walked.contains(where: { w in w.read.map { $0.allSatisfy { fields[$0] == w.fields[$0] } } ?? false }) { continue }
            interpreter.recordingStaticReads = true
            interpreter.fieldReads = .init(type: entry.type)
            var walk = Walk(analysis: self, type: entry.type, variant: variant.label, selfValue: variant.selfValue, flags: variant.flags)
            walk.visitEntry(entry.entry, Context())
            let reads = interpreter.fieldReads
            interpreter.recordingStaticReads = false
            interpreter.fieldReads = nil
            walked.append((fields, reads.flatMap { $0.whole ? nil : $0.names }))
            walks.append(walk)
        }
        return walks
    }

    struct DrawnPairKey: Hashable {
        var foreground: AppearanceColor, background: AppearanceColor?, role: Role, drawnAt: SourceLocation, font: Double?, labels: String
        init(_ p: DrawnPair) {
            foreground = p.foreground.color
            background = p.background?.color
            role = p.role
            drawnAt = p.drawnAt
            font = p.font?.size
            // Branch labels keep states apart (pressed vs not); the variant's own name does not.
            labels = p.branches.joined(separator: ",")
        }
    }

    // MARK: Variants

    struct Variant {
        var label: String?
        var selfValue: Value
        /// Bool properties left unknown (states and flags), tried both ways where a color depends on them.
        var flags: [String] = []
    }

    /// The view's stored properties bound once per case of each enum-typed property (the others at their default);
    /// Bool and unset properties are unknown, so conditions on them follow every branch.
    func variants(of type: String) -> [Variant] {
        let stored = interpreter.storedProperties(of: type)
        var defaults: NameMap<Value> = [:]
        var enumerable: [(name: String, cases: [Value])] = []
        var flags: [String] = []
        let initParameters = (members[type] ?? []).filter(\.isInitializer)
            .flatMap(\.parameters)
        let scope = type.splitOnDots().map(String.init)
        for property in stored {
            let written = property.type.map(Interpreter.baseTypeName)
            var initial: Expr?
            if case .stored(let e) = property.kind { initial = e }
            if let written, let enumType = interpreter.resolveType(written, in: scope), interpreter.typeKind(enumType) == .enum {
                let cases = interpreter.enumCases(of: enumType).filter { $0.parameters.isEmpty }
                    .map { Value.enumCase(type: enumType, name: $0.name, payload: []) }
                if !cases.isEmpty {
                    let defaultExpr = initParameters.first { $0.name == property.name }?.defaultValue ?? initial
                    defaults[property.name] = defaultExpr.map {
                        interpreter.evaluate($0, locals: [:], selfValue: nil, scope: scope, expected: enumType)
                    } ?? cases[0]
                    if case .unknown = defaults[property.name]! { defaults[property.name] = cases[0] }
                    enumerable.append((property.name, cases))
                    continue
                }
            }
            let isBool = written == "Bool" || { if case .bool = initial?.kind { return true } else { return false } }()
            if isBool { flags.append(property.name) }
            if isBool || initial == nil {
                defaults[property.name] = .unknown(.init(rule: "parse", reason: "\(property.name) is set by the view's user",
                                                         location: property.location))
            }
        }
        guard !enumerable.isEmpty else { return [Variant(label: nil, selfValue: .instance(type: type, fields: defaults), flags: flags)] }
        var result: [Variant] = []
        for (name, cases) in enumerable {
            for value in cases {
                var fields = defaults
                fields[name] = value
                if case .enumCase(_, let caseName, _) = value {
                    result.append(Variant(label: caseName, selfValue: .instance(type: type, fields: fields), flags: flags))
                }
            }
        }
        return result
    }

    /// The token a drawn color is the value of: among the static members read while evaluating the variant, the first
    /// with this color, preferring one whose name says the same role (`surfaces...` for a background).
    /// `.appBodyMedium`, `Font.appTitle`, `spec.font`: a font the token graph already checks where it is declared
    /// (a literal `.system(size: 12)` is not).
    func isFontToken(_ expr: Expr) -> Bool {
        if case .ternary(_, let a, let b) = expr.kind { return isFontToken(a) && isFontToken(b) }
        guard let last = expr.path?.last ?? { if case .implicitMember(let n) = expr.kind { return n } else { return nil } }() else { return false }
        return fontTokenNames.contains(last) || expr.path.map { $0.count > 1 && $0.first?.first?.isLowercase == true } == true
    }

    /// Two tokens with one color are told apart by the name written (`colors.border` -> `borderBrand`), then by role.
    func token(for color: AppearanceColor, background: Bool, written: String?) -> String? {
        // The tokens of this color the walk read, in the order it read them: from the color's tokens or from the reads,
        // whichever are fewer (white can be the value of hundreds of tokens; a long view reads hundreds).
        let sameColor = tokenKeysByColor[color] ?? []
        let candidates = sameColor.count < interpreter.staticReads.count
            ? sameColor.compactMap { key in interpreter.staticReadOrder(of: key).map { (key, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
            : interpreter.staticReads.filter { graph.color(of: $0) == color }
        // One token or none: no choice to make (and no words to split).
        guard candidates.count > 1 else { return candidates.first }
        let writtenWords = Set(written.map(nameWords) ?? [])
        // A token's words and role, as the graph keeps them for every token (`nameInfo`).
        if let sameWord = candidates.first(where: { !writtenWords.isDisjoint(with: graph.nameInfo($0).words) }) { return sameWord }
        return candidates.first { (graph.nameInfo($0).role == .background) == background } ?? candidates.first
    }
}
