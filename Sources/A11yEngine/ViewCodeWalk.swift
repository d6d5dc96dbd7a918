/// One branch of a color: the color and the undecided conditions it assumed (`isPressed` true), so that the same
/// condition elsewhere in the view takes the same branch.
struct Choice {
    /// nil for a clear color: nothing drawn (as a background, what is underneath shows).
    var color: DrawnColor?
    var decisions: [Decision] = []
}

struct Decision: Hashable {
    /// The condition's name (`pressed`), also the branch's label when it holds.
    var condition: String
    var holds: Bool
    /// The condition as written, re-checked when the pair is drawn: a later branch can settle it (`isFilled` is
    /// `isOn || isMixed`, so the path that assumed it false and then `isOn` true draws nothing).
    var expression: Expr? = nil
}

/// What flows down a view tree: the environment SwiftUI would pass (foreground style, font, disabled) and what is
/// drawn behind (the nearest background), with the branches taken to get here.
struct Context {
    var foreground: DrawnColor?
    var background: DrawnColor?
    /// A background is drawn but its color is unknown: pairs on it cannot be measured (and are not guessed).
    var backgroundUnknown = false
    /// A foreground style is set but its color is unknown (so the text is not in the default `.primary`).
    var foregroundUnknown = false
    /// The tappable element whose modifier chain was measured already (inner modifiers of the same chain are not).
    var measuredTappable: SourceLocation?
    var font: FontValue?
    var fontExpression: String?
    var disabled = false
    var opacity = 1.0
    /// The environment's tint (`.tint`, `.accentColor`): what buttons draw their labels in, or fill with.
    var tint: DrawnColor?
    /// The environment's button style (`.buttonStyle(.plain)`), where it is written; nil is `.automatic`.
    var buttonStyle: (name: ButtonStyleKind, location: SourceLocation)?
    /// Bars' backgrounds set by `.toolbarBackground(color, for: bars)` (`navigationBar`, `bottomBar`, `tabBar`).
    var bars: [String: DrawnColor] = [:]
    /// `.toolbarColorScheme` is set: the bars draw their own text in a scheme the walk does not follow.
    var barSchemeSet = false
    /// Inside a `List`/`Form` row (a navigation link there is a plain row, not a tinted button).
    var inList = false
    /// The environment's list style (`.listStyle(.plain)`), by name; nil is `.automatic`.
    var listStyle: String?
    var labels: [String] = []
    /// Conditions the evaluator could not decide, as assumed on this path.
    var decided: NameMap<Bool> = [:]
    /// The assumed conditions as written, with the value assumed.
    var assumptions: [(condition: Expr, holds: Bool)] = []
    var locals: [String: Value] = [:]
    /// Local `let`s that hold views (`let label = Text(...)`), visited where they are used.
    var localViews: [String: Expr] = [:]
    var depth = 0
}

/// One walk of one view in one variant.
struct Walk {
    let analysis: ViewCodeAnalysis
    let type: String
    /// `type` split into its names: the scope every evaluation of the walk runs in.
    let scope: [String]
    let variant: String?
    let selfValue: Value
    /// The view's unknown Bool properties: a condition on one of them (`isPressed`) is named by its label (`pressed`).
    /// Each flag with its label, computed (and hashed) once: `selfValue(_:)` runs for every evaluation in the walk.
    let flagLabels: [(flag: NameKey, label: NameKey)]
    var pairs: [DrawnPair] = []
    var touchTargets: [TouchTargetFact] = []
    var fonts: [ViewFontFact] = []
    var clippedText: [ClippedTextFact] = []

    init(analysis: ViewCodeAnalysis, type: String, variant: String?, selfValue: Value, flags: [String]) {
        self.analysis = analysis
        self.type = type
        scope = type.splitOnDots().map(String.init)
        self.variant = variant
        self.selfValue = selfValue
        self.flagLabels = flags.map { (NameKey($0), NameKey(Self.flagLabel($0))) }
    }

    /// `self` with the flags this path has assumed set, so the interpreter follows them inside helpers
    /// (`type.spec(subtle: subtle)` switches on `subtle` where the walk cannot see it).
    func selfValue(_ context: Context) -> Value {
        guard case .instance(let type, var fields) = selfValue, !context.decided.isEmpty else { return selfValue }
        let decisions = flagLabels.map { context.decided[$0.label] }
        guard decisions.contains(where: { $0 != nil }) else { return selfValue }
        // The same decisions give the same value, kept: one instance (one box) per path, which the interpreter's memo of
        // instance members knows again, and no fields copied at every evaluation.
        if let kept = assumed.values[decisions] { return kept }
        for ((flag, _), holds) in zip(flagLabels, decisions) {
            if let holds { fields[flag] = .bool(holds) }
        }
        let value = Value.instance(type: type, fields: fields)
        assumed.values[decisions] = value
        return value
    }

    /// `self` under each set of assumed flags met so far (`selfValue(_:)`).
    final class AssumedSelf {
        var values: [[Bool?]: Value] = [:]
    }
    private let assumed = AssumedSelf()

    /// The flag whose unknown value an evaluation stopped at (the interpreter reports the first unknown it met).
    func flag(behind unknown: Value.Unknown) -> String? {
        guard case .instance(_, let fields) = selfValue else { return nil }
        for (flag, label) in flagLabels {
            if let u = fields[flag]?.unknown, u.reason == unknown.reason, u.location == unknown.location { return label.string }
        }
        return nil
    }

    static func flagLabel(_ flag: String) -> String { label(Expr(.name(flag), at: SourceLocation(file: "", line: 0, column: 0))) ?? flag }

    var interpreter: Interpreter { analysis.interpreter }

    func evaluate(_ expr: Expr, _ context: Context, expected: String? = nil) -> Value {
        interpreter.evaluate(expr, locals: context.locals, selfValue: selfValue(context), scope: scope, expected: expected)
    }

    /// A view's `body`, or a modifier's `body(content:)` / a style's `makeBody(configuration:)`.
    mutating func visitEntry(_ entry: MemberDeclaration, _ context: Context) {
        var context = context
        switch entry.kind {
        case .computed(let body): visit(body, context)
        case .function(let parameters, let body):
            // `content` (ViewModifier) and `configuration` (styles) are what the caller passes: unknown here.
            for p in parameters { context.locals[p.name] = .unknown(.init(rule: "parse", reason: "given by the caller", location: entry.location)) }
            visit(body, context)
        default: break
        }
    }

    /// A project view called with a color (`StatusPill(text: "Late", color: .alert)`): walked with its properties bound to
    /// the arguments, so a color only its caller knows is measured (named `StatusPill in Screen`). Its own walk, with
    /// the parameter unknown, measures nothing there.
    mutating func visitNestedView(_ name: String, arguments: [CallArgument], _ context: Context) -> Bool {
        guard let nested = analysis.viewEntry(named: name), nested.type != type, context.depth < ViewCodeAnalysis.maxDepth else { return false }
        var fields: NameMap<Value> = [:]
        var passesAColor = false
        for property in interpreter.storedProperties(of: nested.type) {
            if let argument = arguments.first(where: { $0.label == property.name }) {
                let value = evaluate(argument.value, context, expected: property.type)
                if case .color = value { passesAColor = true }
                fields[property.name] = value
            } else if case .stored(nil) = property.kind {
                fields[property.name] = .unknown(.init(rule: "parse", reason: "\(property.name) is not passed", location: property.location))
            }
        }
        guard passesAColor else { return false }
        var walk = Walk(analysis: analysis, type: nested.type, variant: "in \(viewName)", selfValue: .instance(type: nested.type, fields: fields),
                        flags: [])
        var inner = Context()
        inner.inherit(context)
        walk.visitEntry(nested.entry, inner)
        pairs += walk.pairs
        return true
    }

    // MARK: Statements

    mutating func visit(_ statements: [Stmt], _ context: Context) {
        var context = context
        for statement in statements {
            switch statement.kind {
            case .expression(let e): visit(e, context)
            case .return(let e?): visit(e, context)
            case .binding(let names, let value?):
                let v = evaluate(value, context)
                for name in names {
                    context.locals[name] = names.count == 1 ? v : .unknown(.init(rule: "parse", reason: "destructured", location: statement.location))
                    if names.count == 1, v.unknown != nil { context.localViews[name] = value }
                }
            case .if(let conditions, let then, let otherwise):
                visitBranches(conditions: conditions, then: then, otherwise: otherwise, context, at: statement.location)
            case .switch(let subject, let cases):
                let value = evaluate(subject, context)
                let matching = cases.filter { c in
                    guard case .enumCase(_, let name, _) = value else { return true }
                    return c.isDefault || c.patterns.contains { if case .enumCase(name, _) = $0 { return true } else { return false } }
                }
                let taken: [SwitchCase]
                if case .enumCase = value, let first = matching.first(where: { !$0.isDefault }) ?? matching.first { taken = [first] } else { taken = matching }
                for c in taken {
                    var branch = context
                    if taken.count > 1, let name = c.patterns.first.flatMap(Self.patternLabel) {
                        branch.assume(Decision(condition: name, holds: true))
                    }
                    visit(c.body, branch)
                }
            default: break
            }
        }
    }

    static func patternLabel(_ pattern: Pattern) -> String? {
        if case .enumCase(let name, _) = pattern { return name }
        return nil
    }

    mutating func visitBranches(conditions: [Condition], then: [Stmt], otherwise: [Stmt]?, _ context: Context, at location: SourceLocation) {
        var thenContext = context
        var elseContext = context
        var decided: Bool? = true
        for condition in conditions {
            switch condition {
            case .expression(let e):
                let (value, decision) = truth(e, context)
                switch value {
                case true?: break
                case false?: decided = false
                case nil:
                    if decided == true { decided = nil }
                    thenContext.assume(decision(true))
                    if conditions.count == 1 { elseContext.assume(decision(false)) }
                }
            case .optionalBinding(let name, let value):
                let v = evaluate(value, context)
                if case .none = v { decided = false }
                thenContext.locals[name] = v
                if v.unknown != nil { thenContext.localViews[name] = value; if decided == true { decided = nil } }
            case .matches:
                decided = nil
            }
            if decided == false { break }
        }
        if decided != false { visit(then, thenContext) }
        if decided != true, let otherwise { visit(otherwise, elseContext) }
    }

    /// A branch's name from its condition: `isPressed` -> `pressed`, `configuration.isPressed` -> `pressed`.
    static func label(_ condition: Expr) -> String? {
        switch condition.kind {
        case .binary("&&", let a, let b): return label(a).flatMap { a in label(b).map { "\(a) and \($0)" } }
        case .binary("||", let a, let b): return label(a).flatMap { a in label(b).map { "\(a) or \($0)" } }
        case .prefix("!", let inner): return label(inner).map { "not " + $0 }
        case .binary("==", let a, let b):
            if case .implicitMember(let value) = b.kind { return label(a).map { "\($0) \(value)" } }
            return nil
        default: break
        }
        guard let last = condition.path?.last else { return nil }
        var words = nameWords(last)
        if let first = words.first, ["is", "has", "should", "show", "shows"].contains(first), words.count > 1 { words.removeFirst() }
        return words.joined(separator: " ")
    }

    /// What a compound condition's holding (or not) says of its parts: `a && !b` holding means `a` and not `b`.
    static func parts(_ condition: Expr, holds: Bool) -> [(name: String, holds: Bool)] {
        switch condition.kind {
        case .prefix("!", let inner): return parts(inner, holds: !holds)
        case .binary("&&", let a, let b) where holds: return parts(a, holds: true) + parts(b, holds: true)
        case .binary("||", let a, let b) where !holds: return parts(a, holds: false) + parts(b, holds: false)
        case .binary("&&", _, _), .binary("||", _, _): return []
        default: return label(condition).map { [($0, holds)] } ?? []
        }
    }

    /// A condition's value: evaluated, else as assumed earlier on this path, else undecided (nil). `decision(true)` is
    /// what holding it assumes (`!isPressed` holding assumes `pressed` false).
    func truth(_ condition: Expr, _ context: Context) -> (value: Bool?, decision: (Bool) -> Decision) {
        if case .prefix("!", let inner) = condition.kind {
            let (value, decision) = truth(inner, context)
            return (value.map { !$0 }, { holds in decision(!holds) })
        }
        let name = Self.label(condition) ?? "condition at line \(condition.location.line)"
        if case .bool(let b) = evaluate(condition, context) { return (b, { Decision(condition: name, holds: $0, expression: condition) }) }
        return (context.decided[name], { Decision(condition: name, holds: $0, expression: condition) })
    }

    /// Both branches of an undecided condition, each with its decision.
    func branches<T>(_ condition: Expr, _ context: Context, then: () -> [T], otherwise: () -> [T], decide: (T, Decision) -> T) -> [T] {
        let (value, decision) = truth(condition, context)
        switch value {
        case true?: return then()
        case false?: return otherwise()
        case nil: return then().map { decide($0, decision(true)) } + otherwise().map { decide($0, decision(false)) }
        }
    }

    // MARK: Colors

    /// The colors an expression can have: both sides of a condition the evaluator cannot decide, each with its label.
    func colors(_ expr: Expr, _ context: Context, background: Bool) -> [Choice] {
        if case .ternary(let condition, let a, let b) = expr.kind {
            if let darkWhenTrue = Self.colorSchemeTest(condition) {
                // `colorScheme == .dark ? x : y` is one color per appearance, not two states.
                let (dark, light) = darkWhenTrue ? (a, b) : (b, a)
                let darkChoices = colors(dark, context, background: background), lightChoices = colors(light, context, background: background)
                return darkChoices.flatMap { d in lightChoices.map { l in Self.combine(dark: d, light: l, at: expr.location) } }
            }
            return branches(condition, context, then: { colors(a, context, background: background) },
                            otherwise: { colors(b, context, background: background) },
                            decide: { choice, decision in var c = choice; c.decisions.insert(decision, at: 0); return c })
        }
        let value = evaluate(expr, context, expected: "Color")
        if let unknown = value.unknown, let flag = flag(behind: unknown), context.decided[flag] == nil {
            // The color depends on a flag the walk has not decided: both ways, each named by the flag when it holds.
            return [true, false].flatMap { holds -> [Choice] in
                var assumed = context
                assumed.decided[flag] = holds
                return colors(expr, assumed, background: background).map { choice in
                    var c = choice
                    c.decisions.insert(Decision(condition: flag, holds: holds), at: 0)
                    return c
                }
            }
        }
        guard case .color(let c) = value else { return [] }
        // A clear color draws nothing: as a background it shows what is underneath, as a foreground it has no contrast to have.
        if c.isClear { return [Choice(color: nil)] }
        return [Choice(color: DrawnColor(color: c, token: analysis.token(for: c, background: background, written: Self.colorName(expr)),
                                         expression: Self.describe(expr), location: expr.location))]
    }

    /// `colorScheme == .dark` -> true, `colorScheme == .light` / `!= .dark` -> false; nil for other conditions.
    static func colorSchemeTest(_ condition: Expr) -> Bool? {
        guard case .binary(let op, let lhs, let rhs) = condition.kind, op == "==" || op == "!=",
              lhs.path?.last == "colorScheme", case .implicitMember(let scheme) = rhs.kind, scheme == "dark" || scheme == "light" else { return nil }
        return (scheme == "dark") == (op == "==")
    }

    /// A color that is `dark`'s in the dark appearances and `light`'s in the light ones.
    static func combine(dark: Choice, light: Choice, at location: SourceLocation) -> Choice {
        guard let d = dark.color, let l = light.color else { return dark.color == nil ? light : dark }
        var values: [Appearance: ColorValue] = [:]
        for appearance in Appearance.allCases {
            let darkAppearance = appearance == .dark || appearance == .darkHighContrast
            values[appearance] = darkAppearance ? d.color[appearance] : l.color[appearance]
        }
        let combined = AppearanceColor(values: values, explicit: [.light, .dark])
        return Choice(color: DrawnColor(color: combined, token: nil, expression: "\(l.expression) / \(d.expression) (light / dark)",
                                        location: location), decisions: dark.decisions + light.decisions)
    }

    /// The name a color expression ends with (`colors.border` -> border, `.kitInk` -> kitInk, `UIColor.x.cgColor` -> x).
    static func colorName(_ expr: Expr) -> String? {
        switch expr.kind {
        case .implicitMember(let n): return n
        case .member(let base, let n): return ["cgColor", "color"].contains(n) ? colorName(base) : n
        case .name(let n): return n
        default: return nil
        }
    }

    /// A view expression as written, calls shown as `(...)` (`Text(...).bold(...)`); `markingCalls: false` leaves them out
    /// (`Circle()` is `Circle`), as element names are made: removing them afterwards with Foundation's
    /// `replacingOccurrences` cost ~25,000 instructions a name.
    static func describe(_ expr: Expr, markingCalls: Bool = true) -> String {
        switch expr.kind {
        case .name(let n): return n
        case .implicitMember(let n): return "." + n
        case .member(let base, let n): return describe(base, markingCalls: markingCalls) + "." + n
        case .call(let callee, _): return describe(callee, markingCalls: markingCalls) + (markingCalls ? "(...)" : "")
        default: return "expression"
        }
    }

    // MARK: Views

    mutating func visit(_ expr: Expr, _ context: Context) {
        guard context.depth < ViewCodeAnalysis.maxDepth, pairs.count < ViewCodeAnalysis.maxPairsPerView else { return }
        switch expr.kind {
        case .call(let callee, let arguments):
            if case .member(let base, let modifier) = callee.kind, !Self.isTypeName(base) {
                visitModifier(modifier, base: base, arguments: arguments, context, at: expr.location)
            } else if case .name(let name) = callee.kind {
                visitElement(name, arguments: arguments, context, at: expr.location)
            } else if case .member(_, let name) = callee.kind {
                visitElement(name, arguments: arguments, context, at: expr.location)
            }
        case .name(let name):
            if let view = context.localViews[name] {
                var inner = context
                inner.localViews[name] = nil
                visit(view, inner)
            } else if name == "content" || name == "label" {
                // A modifier's `content`, a style's label: the caller's content, drawn as text (the strictest role).
                emit(element: name, role: .text, context, at: expr.location)
            } else if let property = member(named: name, function: false), case .computed(let body) = property.kind {
                var inner = Context()
                inner.inherit(context)
                visit(body, inner)
            } else {
                // A view given to this one (`icon`, `leadingIcon: AnyView?`): drawn in the foreground style, as an icon.
                emit(element: name, role: .graphic, context, at: expr.location)
            }
        case .member(let base, let name):
            if base.path == ["configuration"], name == "label" { emit(element: "configuration.label", role: .text, context, at: expr.location) }
            else if base.path == ["self"] { visit(Expr(.name(name), at: expr.location), context) }
            // An icon constant (`Ph.check.bold`, `Icons.close`): a graphic in the foreground style.
            else if expr.path != nil { emit(element: Self.describe(expr), role: .graphic, context, at: expr.location) }
        case .ternary(let condition, let a, let b):
            let (value, decision) = truth(condition, context)
            if value != false {
                var inner = context
                if value == nil { inner.assume(decision(true)) }
                visit(a, inner)
            }
            if value != true {
                var inner = context
                if value == nil { inner.assume(decision(false)) }
                visit(b, inner)
            }
        case .statement(let statement): visit([statement], context)
        case .closure(_, let body): visit(body, context)
        default: break
        }
    }

    static func isTypeName(_ expr: Expr) -> Bool {
        if case .name(let n) = expr.kind, let first = n.first { return first.isUppercase }
        return false
    }

    func member(named name: String, function: Bool) -> MemberDeclaration? {
        (analysis.members[type] ?? []).first { d in
            guard d.name == name, !d.isStatic else { return false }
            switch d.kind {
            case .function: return function
            case .computed: return !function
            default: return false
            }
        }
    }

    mutating func visitElement(_ name: String, arguments: [CallArgument], _ context: Context, at location: SourceLocation) {
        if ViewCodeAnalysis.textElements.contains(name) {
            emit(element: name, role: .text, context, at: location)
        } else if ViewCodeAnalysis.imageElements.contains(name) {
            emit(element: name, role: .graphic, context, at: location)
        } else if name == "Label" {
            emit(element: "Label title", role: .text, context, at: location)
            emit(element: "Label icon", role: .graphic, context, at: location)
        } else if ViewCodeAnalysis.shapes.contains(name) {
            // A shape with no fill is filled with the foreground style.
            emit(element: name, role: .graphic, context, at: location)
        } else if Self.tappables.contains(name) || Self.tintedGraphics.contains(name) {
            visitControl(name, arguments: arguments, context, at: location)
        } else if name == "List" || name == "Form" {
            // Rows sit on the row background the list's style gives, not on what is behind the list; a row's own
            // `listRowBackground` replaces it.
            var rows = rowBackground(of: name, context, at: location).map { context.on(Choice(color: $0)) } ?? context.onUnknown()
            rows.inList = true
            for argument in arguments { if case .closure(_, let body) = argument.value.kind { visit(body, rows) } }
        } else if name == "Section", context.inList {
            // A section's header and footer are drawn on the list's own background (hidden or not): unknown here.
            for argument in arguments {
                if argument.label == "header" || argument.label == "footer" { visit(argument.value, context.onUnknown()) }
                else if case .closure(_, let body) = argument.value.kind { visit(body, context) }
            }
        } else if name == "ToolbarItem" || name == "ToolbarItemGroup" {
            let items = Self.barPlacement(arguments).map { context.onBar($0) } ?? context
            for argument in arguments { if case .closure(_, let body) = argument.value.kind { visit(body, items) } }
        } else if name == "ZStack" {
            for argument in arguments { if case .closure(_, let body) = argument.value.kind { visitLayers(body, context) } }
        } else if let (body, inner) = helper(name, arguments: arguments, context, at: location) {
            // A `@ViewBuilder` helper of the view: its parameters bound to the arguments, its body walked here.
            visit(body, inner)
        } else if visitNestedView(name, arguments: arguments, context) {
            for argument in arguments { if case .closure(_, let body) = argument.value.kind { visit(body, context) } }
        } else {
            // Containers (stacks, Group, ScrollView, ForEach, NavigationStack): their content closures.
            for argument in arguments { if case .closure(_, let body) = argument.value.kind { visit(body, context) } }
        }
    }

    /// A helper function of the view with its parameters bound to the call's arguments, in a context of its own.
    func helper(_ name: String, arguments: [CallArgument], _ context: Context, at location: SourceLocation) -> ([Stmt], Context)? {
        guard let helper = member(named: name, function: true), case .function(let parameters, let body) = helper.kind else { return nil }
        var inner = Context()
        inner.inherit(context)
        var remaining = arguments
        for p in parameters {
            let index = remaining.firstIndex { $0.label == p.label }
            let value = index.map { remaining.remove(at: $0).value } ?? p.defaultValue
            inner.locals[p.name] = value.map { evaluate($0, context, expected: p.type) }
                ?? .unknown(.init(rule: "parse", reason: "no argument", location: location))
        }
        return (body, inner)
    }

    /// `ZStack { Color.x; content }`: each layer is drawn on the fill of the layers before it.
    mutating func visitLayers(_ statements: [Stmt], _ context: Context) {
        guard let statement = statements.first else { return }
        let rest = Array(statements.dropFirst())
        guard case .expression(let layer) = statement.kind else {
            visit([statement], context)
            return visitLayers(rest, context)
        }
        // A plain fill with layers on top is their background (its own contrast with the page is not information);
        // alone, or under nothing, it is a shape drawn on what is behind.
        if !(Self.isPlainFill(layer) && !rest.isEmpty) { visit(layer, context) }
        let fills = fill(of: layer, context)
        if fills.isEmpty { return visitLayers(rest, Self.isPlainFill(layer) ? context.onUnknown() : context) }
        for fill in fills { visitLayers(rest, context.on(fill)) }
    }

    /// The solid color a view paints over its whole frame (`Color.x`, `shape.fill(x)`, `v.background(x)`), per branch.
    func fill(of view: Expr, _ context: Context) -> [Choice] {
        switch view.kind {
        case .call(let callee, let arguments):
            if case .name(let name) = callee.kind, let (body, inner) = helper(name, arguments: arguments, context, at: view.location) {
                return fill(of: body, inner)
            }
            if case .member(let base, let modifier) = callee.kind, !Self.isTypeName(base) {
                switch modifier {
                case "fill": return arguments.first.map { colors($0.value, context, background: true) } ?? []
                case "background": return backgroundColors(arguments, context)
                case "frame", "padding", "clipShape", "cornerRadius", "ignoresSafeArea", "edgesIgnoringSafeArea", "shadow",
                     "overlay", "border", "contentShape", "mask", "clipped", "zIndex", "id":
                    return fill(of: base, context)
                default: return []
                }
            }
            return Self.looksLikeAColor(view) ? colors(view, context, background: true) : []
        case .closure(_, let body):
            return fill(of: body, context)
        case .statement(let statement):
            return fill(of: [statement], context)
        case .name(let name):
            if context.locals[name] == nil, let property = member(named: name, function: false), case .computed(let body) = property.kind {
                var inner = Context()
                inner.inherit(context)
                return fill(of: body, inner)
            }
            return colors(view, context, background: true)
        default:
            return Self.looksLikeAColor(view) ? colors(view, context, background: true) : []
        }
    }

    /// The fill of a view written as statements (`@ViewBuilder` bodies): the first view's, through every branch.
    func fill(of statements: [Stmt], _ context: Context) -> [Choice] {
        var context = context
        for statement in statements {
            switch statement.kind {
            case .expression(let e), .return(let e?):
                return fill(of: e, context)
            case .binding(let names, let value?) where names.count == 1:
                context.locals[names[0]] = evaluate(value, context)
            case .if(let conditions, let then, let otherwise):
                guard conditions.count == 1, case .expression(let condition) = conditions[0] else { return [] }
                return branches(condition, context, then: { fill(of: then, context) }, otherwise: { fill(of: otherwise ?? [], context) },
                                decide: { choice, decision in var c = choice; c.decisions.insert(decision, at: 0); return c })
            case .switch(let subject, let cases):
                guard case .enumCase(_, let name, _) = evaluate(subject, context) else {
                    return cases.flatMap { fill(of: $0.body, context) }
                }
                let taken = cases.first { $0.patterns.contains { if case .enumCase(name, _) = $0 { return true } else { return false } } }
                    ?? cases.first(where: \.isDefault)
                return taken.map { fill(of: $0.body, context) } ?? []
            default: continue
            }
        }
        return []
    }

    /// `Capsule().fill(x)`, `Color.x`, with layout modifiers: a view that only paints a color.
    static func isPlainFill(_ view: Expr) -> Bool {
        switch view.kind {
        case .call(let callee, _):
            guard case .member(let base, let modifier) = callee.kind, !isTypeName(base) else { return false }
            if modifier == "fill" { return true }
            return ["frame", "padding", "clipShape", "cornerRadius", "shadow", "ignoresSafeArea", "edgesIgnoringSafeArea", "opacity"]
                .contains(modifier) && isPlainFill(base)
        case .member, .implicitMember:
            return view.path?.first == "Color" || { if case .implicitMember = view.kind { return true } else { return false } }()
        default: return false
        }
    }

    /// `.background(x)`, `.background(x, in: shape)`, `.background { view }`, `.background(Capsule().fill(x))`.
    func backgroundColors(_ arguments: [CallArgument], _ context: Context) -> [Choice] {
        guard let first = arguments.first(where: { $0.label == nil || $0.label == "content" }) else { return [] }
        return fill(of: first.value, context)
    }

    mutating func visitModifier(_ modifier: String, base: Expr, arguments: [CallArgument], _ context: Context, at location: SourceLocation) {
        let first = arguments.first?.value
        switch modifier {
        case "foregroundStyle", "foregroundColor":
            guard let first else { return visit(base, context) }
            let choices = colors(first, context, background: false)
            if choices.isEmpty {
                // A style the evaluator cannot read: the text is not in `.primary` either.
                var unknown = context
                unknown.foregroundUnknown = true
                return visit(base, unknown)
            }
            for choice in choices { visit(base, context.drawing(choice)) }
        case "tint", "accentColor":
            // The environment's tint, drawn by the controls below (`visitControl`); text keeps its foreground style. A
            // tint the evaluator cannot read is as unknown as the app's accent color.
            guard let first else { return visit(base, context) }
            let choices = colors(first, context, background: false)
            if choices.isEmpty {
                var inner = context
                inner.tint = nil
                return visit(base, inner)
            }
            for choice in choices {
                var inner = context
                inner.tint = choice.color
                inner.assume(choice.decisions)
                visit(base, inner)
            }
        case "buttonStyle":
            var inner = context
            if let first { inner.buttonStyle = (ButtonStyleKind(first), first.location) }
            visit(base, inner)
        case "listStyle":
            var inner = context
            inner.listStyle = first.map { Self.describe($0, markingCalls: false) }
            visit(base, inner)
        case "toolbarBackground":
            for inner in settingBarBackground(arguments, context) { visit(base, inner) }
        case "toolbarColorScheme":
            var inner = context
            inner.barSchemeSet = true
            visit(base, inner)
        case "toolbar":
            // Toolbar items are drawn on the navigation bar (`ToolbarItem(placement: .bottomBar)` on the bottom bar).
            for bar in barContexts(below: base, context) {
                let items = bar.onBar("navigationBar")
                for argument in arguments { if case .closure(_, let body) = argument.value.kind { visit(body, items) } }
            }
            visit(base, context)
        case "navigationTitle":
            if let title = arguments.first(where: { $0.label == nil })?.value { emitBarTitle(title, below: base, context) }
            visit(base, context)
        case "fill", "stroke", "strokeBorder":
            let element = Self.describe(base, markingCalls: false) + " " + modifier
            // `.stroke(lineWidth: 1)`, `.fill()`: drawn in the foreground style.
            guard let first = arguments.first(where: { $0.label == nil || $0.label == "content" })?.value else {
                return emit(element: element, role: .graphic, context, at: location)
            }
            for choice in colors(first, context, background: false) {
                emit(element: element, role: .graphic, context.drawing(choice), at: first.location)
            }
        case "border":
            guard let first else { return visit(base, context) }
            for behind in behind(base, context) {
                for choice in colors(first, behind, background: false) {
                    emit(element: "border", role: .graphic, behind.drawing(choice), at: first.location)
                }
            }
            visit(base, context)
        case "background", "listRowBackground", "presentationBackground", "containerBackground":
            let backgrounds = backgroundColors(arguments, context)
            // Content drawn in the background view itself (`.background(Capsule().stroke(x))`) sits on what is behind.
            if let view = arguments.first(where: { $0.label == nil || $0.label == "content" })?.value, backgrounds.isEmpty {
                visit(view, context)
            }
            if backgrounds.isEmpty {
                // A color the evaluator cannot read (a material, a parameter's color): what is drawn on it is unknown.
                if let view = arguments.first?.value, Self.looksLikeAColor(view) { return visit(base, context.onUnknown()) }
                return visit(base, context)
            }
            for choice in backgrounds { visit(base, context.on(choice)) }
        case "overlay":
            // Overlay content is drawn on the base's fill.
            for onTop in behind(base, context) {
                for argument in arguments where argument.label == nil || argument.label == "content" { visit(argument.value, onTop) }
            }
            // A plain fill under an overlay is the overlay's background.
            if !Self.isPlainFill(base) { visit(base, context) }
        case "font":
            guard let first else { return visit(base, context) }
            var inner = context
            if case .font(let f) = evaluate(first, context, expected: "Font") {
                inner.font = f
                inner.fontExpression = Self.describe(first)
                // A font on an image only sizes the symbol: Dynamic Type is about text.
                if !analysis.isFontToken(first), Self.drawsText(base) {
                    fonts.append(ViewFontFact(view: viewName, font: f, expression: Self.describe(first), location: first.location))
                }
            }
            visit(base, inner)
        case "opacity":
            guard let first else { return visit(base, context) }
            for (decisions, amount) in numbers(first, context) {
                var inner = context
                inner.opacity *= amount
                inner.assume(decisions)
                // `.opacity(isDisabled ? 0.5 : 1)`: the faded branch is the disabled state.
                if decisions.contains(where: { $0.holds && $0.condition.split(separator: " ").contains("disabled") }) { inner.disabled = true }
                visit(base, inner)
            }
        case "disabled":
            var inner = context
            if case .bool(true)? = first.map({ evaluate($0, context) }) { inner.disabled = true }
            visit(base, inner)
        case "onTapGesture", "onLongPressGesture":
            recordTarget(modifier, size: size(of: base, context), at: location, context)
            visit(base, context)
        default:
            if modifier == "frame" { checkClipping(base: base, arguments: arguments, context, at: first?.location ?? location) }
            var inner = context
            if let tappable = recordTappable(root: Self.chainRoot(modifiedBy: base), chain: { Expr(.call(Expr(.member(base, modifier), at: location), arguments), at: location) },
                                             context) {
                inner.measuredTappable = tappable
            }
            visit(base, inner)
        }
    }

    /// Contexts for what is drawn over a view (its overlay, its border): one per branch of the view's fill.
    func behind(_ view: Expr, _ context: Context) -> [Context] {
        let fills = fill(of: view, context)
        if fills.isEmpty { return [Self.isPlainFill(view) ? context.onUnknown() : context] }
        return fills.map { context.on($0) }
    }

    /// `.ultraThinMaterial.opacity(0.5)`, `card.color`, `shape.fill(x)`: written as a color or a fill, not as a view.
    static func looksLikeAColor(_ expr: Expr) -> Bool {
        switch expr.kind {
        case .ternary(_, let a, let b): return looksLikeAColor(a) || looksLikeAColor(b)
        case .member, .implicitMember, .name: return true
        case .call(let callee, _):
            if case .member(let base, let name) = callee.kind { return name == "opacity" ? looksLikeAColor(base) : isPlainFill(expr) }
            // `Color(hex: ...)`, `Color("Brand")`, `UIColor(...)`.
            if case .name(let name) = callee.kind { return name == "Color" || name == "UIColor" }
            return false
        default: return false
        }
    }

    /// Whether a view expression has text in it (`Text`, a field, a `Label`, a style's label), as written.
    static func drawsText(_ expr: Expr) -> Bool {
        switch expr.kind {
        case .call(let callee, let arguments):
            if case .name(let name) = callee.kind, ViewCodeAnalysis.textElements.contains(name) || name == "Label" { return true }
            if case .member(let base, _) = callee.kind, drawsText(base) { return true }
            return arguments.contains { drawsText($0.value) }
        case .closure(_, let body):
            return body.contains { statement in
                switch statement.kind {
                case .expression(let e), .return(let e?): return drawsText(e)
                case .if(_, let then, let otherwise): return drawsText(Expr(.closure(parameters: [], body: then + (otherwise ?? [])), at: statement.location))
                default: return false
                }
            }
        case .member(let base, let name): return name == "label" && base.path == ["configuration"]
        case .name(let name): return name == "content" || name == "label"
        case .ternary(_, let a, let b): return drawsText(a) || drawsText(b)
        default: return false
        }
    }

    /// The numbers an expression can be (`isDisabled ? 0.5 : 1`), each with the branches it assumed.
    func numbers(_ expr: Expr, _ context: Context) -> [(decisions: [Decision], value: Double)] {
        if case .ternary(let condition, let a, let b) = expr.kind {
            return branches(condition, context, then: { numbers(a, context) }, otherwise: { numbers(b, context) },
                            decide: { n, decision in ([decision] + n.decisions, n.value) })
        }
        if case .number(let n) = evaluate(expr, context) { return [([], n)] }
        return [([], 1)]
    }

    // MARK: Pairs

    /// One pair of what `context` draws; `inPrimary`: text drawn in `.primary` when no foreground style is set (a `Text`,
    /// a control's title).
    mutating func emit(element: String, role: Role, _ context: Context, at location: SourceLocation, inPrimary: Bool? = nil) {
        guard pairs.count < ViewCodeAnalysis.maxPairsPerView else { return }
        var foreground: DrawnColor
        if let style = context.foreground {
            foreground = style
        } else if inPrimary ?? ViewCodeAnalysis.textElements.contains(element), context.background != nil, !context.foregroundUnknown,
                  let primary = SystemColors.color(named: "label") {
            // Text with no foreground style is drawn in `.primary` (black / white): on a background the view sets, that
            // is a pair too (dark text on a brand fill in dark mode).
            foreground = DrawnColor(color: primary, token: nil, expression: DrawnColor.defaultPrimary, location: location)
        } else {
            return
        }
        // Invisible (`.opacity(0)`), or drawn in the color it sits on (a stroke on its own fill): nothing to tell apart.
        if context.opacity == 0 || foreground.color == context.background?.color || context.backgroundUnknown { return }
        // A path whose assumptions contradict each other once all its flags are set is not drawn.
        for (condition, holds) in context.assumptions {
            if case .bool(let value) = evaluate(condition, context), value != holds { return }
        }
        if context.opacity < 1 { foreground.color = foreground.color.map { $0.multiplyingAlpha(context.opacity) } }
        pairs.append(DrawnPair(
            view: type.lastDotPiece.map(String.init) ?? type, variant: variant, branches: context.labels, foreground: foreground,
            background: context.background, role: context.disabled || context.inDisabledState ? .disabled : role, element: element,
            font: role == .text ? context.font : nil, fontExpression: role == .text ? context.fontExpression : nil,
            drawnAt: context.foreground?.location ?? location, opacity: context.opacity))
    }
}

extension Context {
    /// This context with a foreground (one branch of it).
    func drawing(_ choice: Choice) -> Context {
        var c = self
        c.foreground = choice.color
        // A clear style draws nothing: not the default `.primary` either.
        c.foregroundUnknown = choice.color == nil
        c.assume(choice.decisions)
        return c
    }

    /// This context on a background the evaluator cannot read: nothing drawn on it is measured.
    func onUnknown() -> Context {
        var c = self
        c.background = nil
        c.backgroundUnknown = true
        return c
    }

    /// This context on a background (one branch of it).
    func on(_ choice: Choice) -> Context {
        var c = self
        if let color = choice.color {
            c.background = color
            c.backgroundUnknown = false
        }
        c.assume(choice.decisions)
        return c
    }

    /// A branch of a disabled state was taken (`isDisabled ? muted : ink`, `isEnabled` false): exempt under WCAG 1.4.3.
    var inDisabledState: Bool {
        decided.contains { condition, holds in
            // Compound conditions (`showing and not disabled`) are settled through their parts, also in `decided`.
            let words = condition.split(onASCII: UInt8(ascii: " "))
            if words.contains("and") || words.contains("or") || words.contains("not") { return false }
            return (holds && words.contains("disabled")) || (!holds && words.last == "enabled")
        }
    }

    /// Records a branch taken: the condition is assumed from here on, and names the variant when it holds.
    mutating func assume(_ decision: Decision) {
        decided[decision.condition] = decision.holds
        if let expression = decision.expression {
            assumptions.append((expression, decision.holds))
            for (name, holds) in Walk.parts(expression, holds: decision.holds) { decided[name] = holds }
        }
        if decision.holds, !labels.contains(decision.condition) { labels.append(decision.condition) }
    }

    mutating func assume(_ decisions: [Decision]) { for d in decisions { assume(d) } }

    /// A helper's context: the caller's environment and background, the helper's own locals.
    mutating func inherit(_ caller: Context) {
        foreground = caller.foreground
        foregroundUnknown = caller.foregroundUnknown
        background = caller.background
        backgroundUnknown = caller.backgroundUnknown
        font = caller.font
        fontExpression = caller.fontExpression
        disabled = caller.disabled
        opacity = caller.opacity
        tint = caller.tint
        buttonStyle = caller.buttonStyle
        bars = caller.bars
        barSchemeSet = caller.barSchemeSet
        inList = caller.inList
        listStyle = caller.listStyle
        labels = caller.labels
        decided = caller.decided
        assumptions = caller.assumptions
        depth = caller.depth + 1
    }
}
