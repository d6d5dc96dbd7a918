/// Sizes view code sets (touch targets) and text that a fixed height clips: read during the same walk as the pairs.
extension Walk {
    static let tappables: Set<String> = ["Button", "Toggle", "NavigationLink", "Link", "Menu"]

    var viewName: String { type.lastDotPiece.map(String.init) ?? type }

    /// A modifier chain on a tappable element (`Button {...}.frame(width: 30, height: 30)`), measured once at its
    /// outermost modifier: the chain's explicit size is the hit area.
    /// `chain` (a modifier chain, or the element alone) is built only when `root`, its element, is a tappable one not
    /// measured yet: most modifiers visited are on other views.
    mutating func recordTappable(root: (name: String, location: SourceLocation)?, chain: () -> Expr, _ context: Context) -> SourceLocation? {
        guard let root, Self.tappables.contains(root.name), context.measuredTappable != root.location else { return nil }
        let chain = chain()
        recordTarget(root.name, size: size(of: chain, context), at: chain.location, context)
        return root.location
    }

    mutating func recordTarget(_ element: String, size: (width: Double?, height: Double?, location: SourceLocation?), at location: SourceLocation,
                               _ context: Context) {
        guard size.width != nil || size.height != nil else { return }
        touchTargets.append(TouchTargetFact(view: viewName, element: element, width: size.width, height: size.height,
                                            location: size.location ?? location))
    }

    /// The element a modifier chain is applied to, and where it is written.
    static func chainRoot(_ expr: Expr) -> (name: String, location: SourceLocation)? {
        guard case .call(let callee, _) = expr.kind else { return nil }
        switch callee.kind {
        case .name(let name): return (name, expr.location)
        case .member(let base, _): return chainRoot(modifiedBy: base)
        default: return nil
        }
    }

    /// The element of the chain a modifier on `base` ends (`base.padding()`), without building that chain.
    static func chainRoot(modifiedBy base: Expr) -> (name: String, location: SourceLocation)? {
        isTypeName(base) ? nil : chainRoot(base)
    }

    /// The size a view's modifiers set explicitly (frames, and padding around a known size), and the frame that sets it;
    /// nil sides are sized by content, which view code does not know.
    func size(of view: Expr, _ context: Context) -> (width: Double?, height: Double?, location: SourceLocation?) {
        func number(_ label: String, _ arguments: [CallArgument]) -> Double? {
            arguments.first { $0.label == label }.flatMap { evaluate($0.value, context).number }
        }
        switch view.kind {
        case .call(let callee, let arguments):
            if case .member(let base, let modifier) = callee.kind, !Self.isTypeName(base) {
                let inner = size(of: base, context)
                switch modifier {
                case "frame":
                    // A minimum (`minWidth: 44`) is what the hit area reaches at least; `width` is what it is.
                    let width = number("width", arguments) ?? number("minWidth", arguments)
                    let height = number("height", arguments) ?? number("minHeight", arguments)
                    if width == nil && height == nil { return inner }
                    // Located at the modifier's first argument: the call itself starts where its chain starts.
                    return (width ?? inner.width, height ?? inner.height, arguments.first?.value.location ?? view.location)
                case "padding":
                    var (width, height) = (inner.width, inner.height)
                    let amount = arguments.compactMap { evaluate($0.value, context).number }.first ?? 16 // SwiftUI's default on iOS
                    // `.padding(.horizontal, 8)` grows the width only; other edge sets are not modelled (the size stays as it was).
                    var horizontal = true, vertical = true
                    if let edges = arguments.first(where: { evaluate($0.value, context).number == nil })?.value.kind {
                        switch edges {
                        case .implicitMember("horizontal"): vertical = false
                        case .implicitMember("vertical"): horizontal = false
                        default: return inner
                        }
                    }
                    if horizontal { width = width.map { $0 + 2 * amount } }
                    if vertical { height = height.map { $0 + 2 * amount } }
                    return (width, height, inner.location)
                case "contentShape":
                    // The hit area is the shape: `Rectangle()` is the frame so far (padding included), and
                    // `.inset(by: -12)` grows it by 12pt on every side. `contentShape(.interaction, shape)`: the last one.
                    guard let shape = arguments.last(where: { $0.label == nil })?.value else { return inner }
                    let grown = -2 * inset(of: shape, context)
                    return (inner.width.map { $0 + grown }, inner.height.map { $0 + grown }, inner.location)
                default:
                    return inner
                }
            }
            if case .name(let name) = callee.kind, Self.tappables.contains(name),
               let body = Self.labelClosures(arguments).last, body.count == 1, case .expression(let label) = body[0].kind {
                // A button is as large as its label.
                return size(of: label, context)
            }
            return (nil, nil, nil)
        default:
            return (nil, nil, nil)
        }
    }

    /// How far a shape is inset from the frame it fills (`Rectangle().inset(by: -12)`: -12), through its modifiers.
    func inset(of shape: Expr, _ context: Context) -> Double {
        guard case .call(let callee, let arguments) = shape.kind, case .member(let base, let modifier) = callee.kind,
              !Self.isTypeName(base) else { return 0 }
        let own = modifier == "inset" ? arguments.first { $0.label == "by" }.flatMap { evaluate($0.value, context).number } ?? 0 : 0
        return own + inset(of: base, context)
    }

    /// `.lineLimit(1)` text in a fixed `.frame(height:)` that its font outgrows at AX5 (the largest accessibility size).
    mutating func checkClipping(base: Expr, arguments: [CallArgument], _ context: Context, at location: SourceLocation) {
        guard let heightArgument = arguments.first(where: { $0.label == "height" }),
              let height = evaluate(heightArgument.value, context).number else { return }
        var font = context.font
        var limitedToOneLine = false
        var current = base
        while case .call(let callee, let args) = current.kind, case .member(let inner, let modifier) = callee.kind, !Self.isTypeName(inner) {
            if modifier == "lineLimit", args.first.flatMap({ evaluate($0.value, context).number }) == 1 { limitedToOneLine = true }
            if modifier == "font", let first = args.first, case .font(let f) = evaluate(first.value, context, expected: "Font") { font = f }
            current = inner
        }
        guard limitedToOneLine, Self.chainRoot(current).map({ ViewCodeAnalysis.textElements.contains($0.name) }) == true,
              let font, let ax5 = DynamicTypeSizes.largestAccessibilitySize(of: font),
              ax5 * DynamicTypeSizes.lineHeightFactor > height else { return }
        clippedText.append(ClippedTextFact(view: viewName, height: height, font: font, location: location))
    }
}
