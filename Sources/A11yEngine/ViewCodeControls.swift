/// How SwiftUI draws what the environment styles: controls' labels in the tint (per button style), toggles' and
/// progress views' tint, and the bars' content on `.toolbarBackground`. Read during the same walk as the pairs.
///
/// The rules (iOS; Apple's ButtonStyle and toolbar documentation):
/// - `.automatic` / `.borderless` (the default outside lists): the label is drawn in the tint unless a foreground style
///   is set; with no tint it is the app's accent color, which view code does not say, so it is not measured.
/// - `.plain`: the label as it is (text in the foreground style, `.primary` by default).
/// - `.borderedProminent`: a fill in the tint with the label in white.
/// - `.bordered`: the label on a translucent fill of the tint (an opacity the system chooses): not measured.
/// - a project style: its `makeBody` draws the label (walked on its own), so the label's color is its.
enum ButtonStyleKind: Equatable {
    case borderless, plain, bordered, borderedProminent, custom

    init(_ expr: Expr) {
        let name: String
        switch expr.kind {
        case .implicitMember(let n), .member(_, let n): name = n
        case .call(let callee, _): name = Walk.describe(callee)
        default: name = ""
        }
        switch name {
        case "automatic", "borderless", "DefaultButtonStyle", "BorderlessButtonStyle": self = .borderless
        case "plain", "PlainButtonStyle": self = .plain
        case "bordered", "BorderedButtonStyle": self = .bordered
        case "borderedProminent", "BorderedProminentButtonStyle": self = .borderedProminent
        default: self = .custom
        }
    }
}

extension Walk {
    /// Controls that draw the tint as a graphic (WCAG 1.4.11): a toggle's track, a progress bar, a slider's track.
    static let tintedGraphics: Set<String> = ["Toggle", "ProgressView", "Slider", "Gauge"]
    /// Controls whose label is drawn as a button's.
    static let buttonLike: Set<String> = ["Button", "Link", "Menu", "NavigationLink", "ShareLink"]

    /// A control: its size is a touch target, its tint a graphic, its title and label closures are drawn in the context
    /// its style gives. A navigation link's destination is another screen (on the default background, with nothing of
    /// the link's context); a menu's items (a system menu) and a button's action are not drawn here.
    mutating func visitControl(_ name: String, arguments: [CallArgument], _ context: Context, at location: SourceLocation) {
        _ = recordTappable(root: (name, location), chain: { Expr(.call(Expr(.name(name), at: location), arguments), at: location) }, context)
        if Self.tintedGraphics.contains(name), let tint = context.tint {
            var drawn = context
            drawn.foreground = tint
            emit(element: name, role: .graphic, drawn, at: location)
        }
        let label = labelContext(name, context)
        if let title = Self.title(arguments) {
            emit(element: "\(name) title", role: .text, label, at: title.location, inPrimary: true)
            if arguments.contains(where: { $0.label == "systemImage" || $0.label == "image" }) {
                emit(element: "\(name) icon", role: .graphic, label, at: title.location)
            }
        }
        for body in Self.labelClosures(arguments) { visit(body, label) }
        guard name == "NavigationLink" else { return }
        var screen = Context()
        screen.locals = context.locals
        screen.localViews = context.localViews
        screen.decided = context.decided
        screen.assumptions = context.assumptions
        screen.labels = context.labels
        screen.depth = context.depth + 1
        for destination in Self.destinations(arguments) { visit(destination, screen) }
    }

    /// A navigation link's destination: `destination:`, or its unlabelled closure after a title or before `label:`.
    static func destinations(_ arguments: [CallArgument]) -> [Expr] {
        let labelled = arguments.contains { $0.label == "label" } || title(arguments) != nil
        return arguments.filter { argument in
            if argument.label == "destination" { return true }
            if case .closure = argument.value.kind { return labelled && argument.label == nil }
            return false
        }.map(\.value)
    }

    /// The context a control's label is drawn in (the rules above). A navigation link in a list is a plain row.
    func labelContext(_ name: String, _ context: Context) -> Context {
        guard Self.buttonLike.contains(name), !(name == "NavigationLink" && context.inList) else { return context }
        var label = context
        let unstyled = label.foreground == nil && !label.foregroundUnknown
        switch context.buttonStyle?.name ?? .borderless {
        case .plain:
            break
        case .custom:
            if unstyled { label.foregroundUnknown = true }
        case .bordered:
            return context.onUnknown()
        case .borderedProminent:
            guard let tint = context.tint, let style = context.buttonStyle else { return context.onUnknown() }
            label.background = tint
            label.backgroundUnknown = false
            if unstyled, let white = SystemColors.color(named: "white") {
                label.foreground = DrawnColor(color: white, token: nil, expression: "white (.borderedProminent label)", location: style.location)
            }
        case .borderless:
            guard unstyled else { break }
            if let tint = context.tint { label.foreground = tint } else { label.foregroundUnknown = true }
        }
        return label
    }

    /// A control's title (`Button("Save") { }`, `Toggle("Sounds", isOn: $on)`): its first argument, unlabelled.
    static func title(_ arguments: [CallArgument]) -> Expr? {
        guard let first = arguments.first, first.label == nil else { return nil }
        if case .closure = first.value.kind { return nil }
        return first.value
    }

    /// The closures of a control that are its label: `label:`, else the unlabelled closures of a control without a title
    /// (`Button(action: f) { ... }`, `NavigationLink(value: v) { ... }`). After a title (`Button("Save") { ... }`,
    /// `Menu("More") { ... }`) the closure is the action, the menu's items or the destination.
    static func labelClosures(_ arguments: [CallArgument]) -> [[Stmt]] {
        let closures = arguments.compactMap { a -> (label: String?, body: [Stmt])? in
            if case .closure(_, let body) = a.value.kind { return (a.label, body) } else { return nil }
        }
        if closures.contains(where: { $0.label == "label" }) { return closures.filter { $0.label == "label" }.map(\.body) }
        if title(arguments) != nil { return [] }
        return closures.filter { $0.label == nil }.map(\.body)
    }

    /// The background iOS draws behind a list's rows, by the list's style: `.plain` and `.inset` rows on
    /// systemBackground; `.insetGrouped` (the default), `.grouped` and every `Form` on secondarySystemGroupedBackground;
    /// other styles (`.sidebar`, a project's) unknown.
    func rowBackground(of name: String, _ context: Context, at location: SourceLocation) -> DrawnColor? {
        let system: String
        switch name == "Form" ? "grouped" : context.listStyle ?? "automatic" {
        case ".plain", ".inset", "PlainListStyle", "InsetListStyle": system = "systemBackground"
        case "automatic", ".automatic", ".grouped", ".insetGrouped", "DefaultListStyle", "GroupedListStyle", "InsetGroupedListStyle", "grouped":
            system = "secondarySystemGroupedBackground"
        default: return nil
        }
        return SystemColors.color(named: system).map { DrawnColor(color: $0, token: nil, expression: "\(system) (list row)", location: location) }
    }

    // MARK: Bars

    /// The bars a `.toolbarBackground` names (`for: .navigationBar, .tabBar`); `.automatic` is the navigation bar on iOS.
    static func bars(_ arguments: [CallArgument]) -> [String] {
        guard let start = arguments.firstIndex(where: { $0.label == "for" }) else { return ["navigationBar"] }
        return arguments[start...].enumerated().compactMap { offset, argument in
            guard offset == 0 || argument.label == nil, case .implicitMember(let bar) = argument.value.kind else { return nil }
            return bar == "automatic" ? "navigationBar" : bar
        }
    }

    /// The bar a toolbar item is placed in: nil for the navigation bar's placements (the item keeps its context).
    static func barPlacement(_ arguments: [CallArgument]) -> String? {
        guard let placement = arguments.first(where: { $0.label == "placement" }), case .implicitMember(let name) = placement.value.kind else {
            return nil
        }
        switch name {
        case "bottomBar", "status": return "bottomBar"
        case "keyboard": return "keyboard"
        default: return nil
        }
    }

    /// `.toolbarBackground(color, for: bars)`: one context per branch of the color with the bars' background set. A
    /// visibility (`.visible`) changes nothing; a style the evaluator cannot read (a material) leaves the bars unknown.
    func settingBarBackground(_ arguments: [CallArgument], _ context: Context) -> [Context] {
        guard let first = arguments.first(where: { $0.label == nil })?.value else { return [context] }
        if case .implicitMember(let visibility) = first.kind, ["visible", "hidden", "automatic"].contains(visibility) { return [context] }
        let bars = Self.bars(arguments)
        let choices = colors(first, context, background: true)
        if choices.isEmpty { return [context.settingBars(bars, to: nil)] }
        return choices.map { choice in
            var inner = context.settingBars(bars, to: choice.color)
            inner.assume(choice.decisions)
            return inner
        }
    }

    /// The contexts a chain's bars are drawn in: the bars set above it, and those `.toolbarBackground` and
    /// `.toolbarColorScheme` set below it in the same chain (they style the navigation stack wherever they are written).
    func barContexts(below base: Expr, _ context: Context) -> [Context] {
        var settings: [[CallArgument]] = []
        var schemeSet = context.barSchemeSet
        var current = base
        while case .call(let callee, let arguments) = current.kind, case .member(let inner, let name) = callee.kind, !Self.isTypeName(inner) {
            if name == "toolbarBackground" { settings.append(arguments) }
            if name == "toolbarColorScheme" { schemeSet = true }
            current = inner
        }
        var contexts = [context]
        // From the outside in, as SwiftUI applies them: the innermost wins.
        for arguments in settings { contexts = contexts.flatMap { settingBarBackground(arguments, $0) } }
        return contexts.map { c in
            var c = c
            c.barSchemeSet = schemeSet
            return c
        }
    }

    /// `.navigationTitle("Inbox")`: the navigation bar draws it in `.primary` on its background, whatever the view's
    /// own foreground style, font or opacity.
    mutating func emitBarTitle(_ title: Expr, below base: Expr, _ context: Context) {
        for bar in barContexts(below: base, context) {
            var drawn = bar
            drawn.foreground = nil
            drawn.foregroundUnknown = false
            drawn.font = nil
            drawn.fontExpression = nil
            drawn.opacity = 1
            emit(element: "navigationTitle", role: .text, drawn.onBar("navigationBar"), at: title.location, inPrimary: true)
        }
    }
}

extension Context {
    func settingBars(_ names: [String], to color: DrawnColor?) -> Context {
        var c = self
        for name in names { c.bars[name] = color }
        return c
    }

    /// A bar's content: on the bar's background, unknown when no `.toolbarBackground` sets it (the system's material).
    /// With `.toolbarColorScheme` the bar's own text color follows a scheme the walk does not.
    func onBar(_ bar: String) -> Context {
        guard let color = bars[bar] else { return onUnknown() }
        var c = self
        c.background = color
        c.backgroundUnknown = false
        if barSchemeSet && c.foreground == nil { c.foregroundUnknown = true }
        return c
    }
}
