/// What UIKit setup code draws, within one method (`viewDidLoad`, `configure`, `apply(theme:)`): a view's
/// `textColor`, `tintColor`, `layer.borderColor` or `setTitleColor(_:for:)` on the `backgroundColor` of the same view,
/// else of the view it was added to (`addSubview`, `addArrangedSubview`), else of the controller's or cell's own view
/// (`view`, `contentView`, `self`). Colors are evaluated by the interpreter; a view with no background set in the
/// method sits on the default surface. A label's `font` set in the same method decides large text, and a font that
/// does not scale (`UIFont.systemFont(ofSize:)` without `UIFontMetrics`) is a Dynamic Type fact. A method taking an
/// enum (`apply(theme: KitTheme)`) is read once per case, each pair named by it. A system button draws its title in its
/// `tintColor` (text) when the method gives it a title and no title color, else its image (a graphic).
struct UIKitSetupAnalysis {
    let analysis: ViewCodeAnalysis

    /// Views a controller, cell or view draws everything else on.
    static let containers: [[String]] = [["view"], ["contentView"], ["self"], []]

    func facts() -> (drawn: [DrawnPair], fonts: [ViewFontFact]) {
        var pairs: [DrawnPair] = []
        var fonts: [ViewFontFact] = []
        for (type, methods) in analysis.members.sorted(by: { $0.key < $1.key }) {
            for method in methods.sorted(by: { $0.location < $1.location }) {
                guard !method.isStatic, case .function(let parameters, let body) = method.kind else { continue }
                var seen: Set<ViewCodeAnalysis.DrawnPairKey> = []
                var fontsSeen: Set<SourceLocation> = []
                for variant in variants(of: parameters, in: type) {
                    let setup = setupPairs(type: type, body: body, locals: variant.locals, variant: variant.label)
                    // Cases that draw the same colors in the same place are one pair (the first case names it).
                    pairs += setup.drawn.filter { seen.insert(ViewCodeAnalysis.DrawnPairKey($0)).inserted }
                    fonts += setup.fonts.filter { fontsSeen.insert($0.location).inserted }
                }
            }
        }
        return (pairs, fonts)
    }

    /// The method's parameters bound once per case of each enum-typed one (the others unknown), named by the case.
    func variants(of parameters: [Parameter], in type: String) -> [(label: String?, locals: [String: Value])] {
        let interpreter = analysis.interpreter
        let scope = type.splitOnDots().map(String.init)
        var result: [(label: String?, locals: [String: Value])] = []
        for parameter in parameters {
            guard let written = parameter.type.map(Interpreter.baseTypeName), let enumType = interpreter.resolveType(written, in: scope),
                  interpreter.typeKind(enumType) == .enum else { continue }
            for enumCase in interpreter.enumCases(of: enumType) where enumCase.parameters.isEmpty {
                result.append((enumCase.name, [parameter.name: .enumCase(type: enumType, name: enumCase.name, payload: [])]))
            }
        }
        return result.isEmpty ? [(nil, [:])] : result
    }

    struct Assignment {
        var view: [String]
        var color: AppearanceColor
        var token: String?
        var expression: String
        var location: SourceLocation
    }

    func setupPairs(type: String, body: [Stmt], locals given: [String: Value] = [:], variant: String? = nil)
        -> (drawn: [DrawnPair], fonts: [ViewFontFact]) {
        var backgrounds: [[String]: Assignment] = [:]
        var viewFonts: [[String]: FontValue] = [:]
        var fontFacts: [ViewFontFact] = []
        var foregrounds: [(assignment: Assignment, role: Role, element: String)] = []
        var parents: [[String]: [String]] = [:]
        /// Buttons given a title, and those given a title color, in this method.
        var titled: Set<[String]> = [], titleColored: Set<[String]> = []
        var locals = given
        let scope = type.splitOnDots().map(String.init)
        let interpreter = analysis.interpreter

        func assignment(_ view: [String], _ value: Expr, background: Bool = false) -> Assignment? {
            guard case .color(let c) = interpreter.evaluate(value, locals: locals, selfValue: nil, scope: scope, expected: "UIColor"),
                  !c.isClear else { return nil }
            return Assignment(view: view, color: c, token: analysis.token(for: c, background: background, written: Walk.colorName(value)),
                              expression: Walk.describe(value), location: value.location)
        }
        func viewPath(_ expr: Expr) -> [String]? {
            guard var path = expr.path else { return nil }
            if path.first == "self" { path.removeFirst() }
            return path
        }

        interpreter.recordingStaticReads = true
        defer { interpreter.recordingStaticReads = false }
        for statement in Self.flattened(body) {
            switch statement.kind {
            case .binding(let names, let value?) where names.count == 1:
                locals[names[0]] = interpreter.evaluate(value, locals: locals, selfValue: nil, scope: scope)
            case .assign(let target, nil, let value):
                guard let path = viewPath(target), let property = path.last else { continue }
                let view = Array(path.dropLast())
                switch property {
                case "backgroundColor":
                    if let a = assignment(view, value, background: true) { backgrounds[view] = a }
                case "textColor":
                    if let a = assignment(view, value) { foregrounds.append((a, .text, (view.last ?? type) + ".textColor")) }
                case "tintColor":
                    if let a = assignment(view, value) { foregrounds.append((a, .graphic, (view.last ?? type) + ".tintColor")) }
                case "font":
                    if case .font(let f) = interpreter.evaluate(value, locals: locals, selfValue: nil, scope: scope, expected: "UIFont") {
                        viewFonts[view] = f
                        if !f.scales && !analysis.isFontToken(value) {
                            fontFacts.append(ViewFontFact(view: type.lastDotPiece.map(String.init) ?? type, font: f,
                                                          expression: Walk.describe(value), location: value.location))
                        }
                    }
                case "borderColor" where view.last == "layer":
                    let owner = Array(view.dropLast())
                    if let a = assignment(owner, value) { foregrounds.append((a, .graphic, (owner.last ?? type) + ".layer.borderColor")) }
                default: break
                }
            case .expression(let e):
                guard case .call(let callee, let arguments) = e.kind else { continue }
                let name: String, receiver: [String]
                switch callee.kind {
                case .member(let base, let method):
                    guard let path = viewPath(base) else { continue }
                    (name, receiver) = (method, path)
                // `addSubview(label)` in a view's own method: added to `self`.
                case .name(let method): (name, receiver) = (method, [])
                default: continue
                }
                switch name {
                case "addSubview", "addArrangedSubview", "insertSubview":
                    if let child = arguments.first.flatMap({ viewPath($0.value) }) { parents[child] = receiver }
                case "setTitleColor":
                    titleColored.insert(receiver)
                    if let first = arguments.first, let a = assignment(receiver, first.value) {
                        foregrounds.append((a, .text, (receiver.last ?? type) + " title"))
                    }
                case "setTitle", "setAttributedTitle":
                    titled.insert(receiver)
                default: break
                }
            default: break
            }
        }
        guard !foregrounds.isEmpty else { return ([], fontFacts) }
        // A titled system button with no title color draws its title in its tint.
        for (index, fg) in foregrounds.enumerated() where fg.element.hasSuffix(".tintColor")
            && titled.contains(fg.assignment.view) && !titleColored.contains(fg.assignment.view) {
            foregrounds[index].role = .text
            foregrounds[index].element = (fg.assignment.view.last ?? type) + " title (tintColor)"
        }
        let name = type.lastDotPiece.map(String.init) ?? type
        let drawn = foregrounds.compactMap { fg, role, element -> DrawnPair? in
            // The view's own background, else the chain of views it was added to, else the container's.
            var behind: Assignment? = backgrounds[fg.view]
            var current = fg.view
            var seen: Set<[String]> = [current]
            while behind == nil, let parent = parents[current], seen.insert(parent).inserted {
                behind = backgrounds[parent]
                current = parent
            }
            if behind == nil { behind = Self.containers.lazy.compactMap { backgrounds[$0] }.first }
            let background = behind.map { DrawnColor(color: $0.color, token: $0.token, expression: $0.expression, location: $0.location) }
            if background?.color == fg.color { return nil }
            return DrawnPair(view: name, variant: variant, branches: [], foreground: DrawnColor(color: fg.color, token: fg.token,
                             expression: fg.expression, location: fg.location),
                             background: background, role: role, element: element,
                             font: role == .text ? viewFonts[fg.view] : nil, fontExpression: role == .text && viewFonts[fg.view] != nil ? "font" : nil,
                             drawnAt: fg.location, opacity: 1)
        }
        return (drawn, fontFacts)
    }

    /// A method's statements with the bodies of its conditions inlined: every branch sets up the same views.
    static func flattened(_ statements: [Stmt]) -> [Stmt] {
        statements.flatMap { statement -> [Stmt] in
            switch statement.kind {
            case .if(_, let then, let otherwise): return flattened(then) + flattened(otherwise ?? [])
            case .switch(_, let cases): return cases.flatMap { flattened($0.body) }
            default: return [statement]
            }
        }
    }
}
