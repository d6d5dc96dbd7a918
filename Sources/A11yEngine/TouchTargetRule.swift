/// Interactive components offer at least the policy's minimum hit area.
public struct TouchTargetRule: Rule {
    public init() {}
    public static let description = RuleDescription(
        id: "touch-target",
        summary: "Interactive components offer at least the policy's minimum hit area (explicit size, or content plus padding)",
        standard: "Apple HIG Accessibility 44x44pt; WCAG 2.5.5 Target Size (AAA) 44px; WCAG 2.2 2.5.8 Target Size (Minimum, AA) 24px; Material 48dp",
        helpURL: "https://developer.apple.com/design/human-interface-guidelines/accessibility#Buttons-and-controls",
        passing: [RuleExample("""
            enum NativeRangeSliderStyling {
                struct Layout {
                    static let thumbDiameter: CGFloat = 24
                    static let totalHeight: CGFloat = 44
                }
            }
            """), RuleExample("""
            struct CloseButton: View {
                var body: some View {
                    Button(action: {}) { Image(systemName: "xmark") }
                        .frame(minWidth: 44, minHeight: 44)
                }
            }
            """)],
        failing: [RuleExample("""
            enum NativeCarouselStyling {
                struct Layout {
                    static let dotHeight: CGFloat = 6
                    static let dotActiveWidth: CGFloat = 18
                }
            }
            """), RuleExample("""
            struct CloseButton: View {
                var body: some View {
                    Button(action: {}) {
                        Image(systemName: "xmark").frame(width: 24, height: 24)
                    }
                }
            }
            """)])

    /// Component name words that make a component interactive.
    static let interactiveComponentWords: Set<String> = [
        "picker", "button", "chip", "toggle", "switch", "slider", "stepper", "tab", "nav", "toolbar", "menu",
        "carousel", "date", "segmented", "checkbox", "radio", "link", "field", "search", "tag",
    ]
    /// Layout words naming a tappable part.
    static let targetWords: Set<String> = ["thumb", "dot", "row", "item", "cell", "button", "knob", "handle", "chip", "tab"]
    /// Layout words naming a part that is not itself tapped.
    static let nonTargetWords: Set<String> = [
        "track", "paged", "page", "card", "sheet", "image", "indicator", "label", "spacing", "gap", "radius", "offset",
        "border", "line", "max", "scale", "badge", "shadow", "icon",
    ]
    /// Layout words declaring the whole hit area.
    static let hitAreaWords: Set<String> = ["total", "hit", "tap", "touch", "min", "minimum"]

    public func check(_ context: AuditContext) -> [Finding] {
        let minimum = context.policy.touchTargetMinimum
        var findings: [Finding] = []
        for component in context.components {
            let componentWords = Set(nameWords(component.name))
            guard !componentWords.isDisjoint(with: Self.interactiveComponentWords) else { continue }
            var sizes: [(property: Component.Property, value: Double, words: [String])] = []
            for property in component.properties(in: .layout) {
                guard case .success(.number(let value)) = context.graph.value(of: property.qualifiedName) else { continue }
                let words = nameWords(property.name)
                guard words.contains(where: { ["height", "size", "width", "diameter", "target", "area"].contains($0) }) else { continue }
                sizes.append((property, value, words))
            }
            // A declared hit area (totalHeight, minHeight, hitArea, tapTarget) that reaches the minimum covers the component.
            // A width alone (a menu's minWidth) says nothing about the height a finger needs.
            sizes.removeAll { $0.words.contains("width") && Set($0.words).isDisjoint(with: Self.targetWords) }
            let hitAreas = sizes.filter { !Set($0.words).isDisjoint(with: Self.hitAreaWords) }
            if hitAreas.contains(where: { $0.value >= minimum }) { continue }
            let explicit = sizes.filter {
                Set($0.words).isDisjoint(with: Self.nonTargetWords)
                    && (!Set($0.words).isDisjoint(with: Self.targetWords) || !Set($0.words).isDisjoint(with: Self.hitAreaWords)
                        || $0.words == ["height"] || $0.words == ["size"])
            }
            if !explicit.isEmpty {
                // Report each tapped part once, by its smallest side.
                var byPart: [String: (Component.Property, Double)] = [:]
                for s in explicit {
                    let part = s.words.first { Self.targetWords.contains($0) } ?? "target"
                    if let existing = byPart[part], existing.1 <= s.value { continue }
                    byPart[part] = (s.property, s.value)
                }
                for part in byPart.keys.sorted() {
                    let (property, value) = byPart[part]!
                    guard value < minimum else { continue }
                    findings.append(Finding(
                        rule: Self.description.id, severity: context.policy.severity(of: Self.description.id),
                        subject: "\(component.name).\(property.name)",
                        message: "\(component.name).\(property.name) is \(format(value))pt: the \(part == "target" ? "hit area" : part) is smaller than the \(format(minimum))x\(format(minimum))pt minimum; add padding or declare a larger hit area (e.g. minHeight/hitArea)",
                        location: property.location, component: component.name, measured: value, required: minimum))
                }
                continue
            }
            if let estimate = estimatedHeight(component, context) , estimate.height < minimum {
                findings.append(Finding(
                    rule: Self.description.id, severity: min(context.policy.severity(of: Self.description.id), .warning),
                    subject: "\(component.name) (estimated height)",
                    message: "\(component.name): estimated hit height \(format(estimate.height))pt (\(estimate.explanation)) is below the \(format(minimum))pt minimum; this is an estimate, declare minHeight to settle it",
                    location: estimate.location, component: component.name, measured: estimate.height, required: minimum))
            }
        }
        return findings + viewCodeFindings(context)
    }

    /// Tappable views whose frame view code sets below the minimum (`.frame(minWidth: 44, minHeight: 44)` passes).
    func viewCodeFindings(_ context: AuditContext) -> [Finding] {
        let minimum = context.policy.touchTargetMinimum
        return context.viewCode.touchTargets.compactMap { target in
            let sides = [target.width, target.height].compactMap { $0 }
            guard let smallest = sides.min(), smallest < minimum else { return nil }
            let size = "\(target.width.map(format) ?? "content")x\(target.height.map(format) ?? "content")pt"
            return Finding(
                rule: Self.description.id, severity: context.policy.severity(of: Self.description.id),
                subject: "\(target.view): \(target.element) at line \(target.location.line)",
                message: "\(target.view): this \(target.element) is \(size), smaller than the \(format(minimum))x\(format(minimum))pt minimum; use .frame(minWidth: \(format(minimum)), minHeight: \(format(minimum))) or padding to grow the hit area",
                location: target.location, component: target.view, measured: smallest, required: minimum)
        }
    }

    /// Content plus vertical padding on both sides, content height from the paired font (size x line height).
    func estimatedHeight(_ component: Component, _ context: AuditContext) -> (height: Double, explanation: String, location: SourceLocation)? {
        let layout = component.properties(in: .layout)
        guard let padding = layout.first(where: {
            let w = nameWords($0.name)
            return w.contains("padding") && (w.contains("v") || w.contains("vertical") || w.contains("top"))
        }), case .success(.number(let pad)) = context.graph.value(of: padding.qualifiedName) else { return nil }
        var fontSize: Double?
        for property in component.properties(in: .typography) {
            if case .success(.font(let f)) = context.graph.value(of: property.qualifiedName), let size = f.size {
                fontSize = max(fontSize ?? 0, size)
            }
        }
        guard let size = fontSize else { return nil }
        let content = size * DynamicTypeSizes.lineHeightFactor
        return (content + 2 * pad,
                "\(format(size))pt text x \(DynamicTypeSizes.lineHeightFactor) line height + 2 x \(padding.name) \(format(pad))pt",
                padding.location)
    }
}

func format(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String((value * 10).rounded() / 10)
}
