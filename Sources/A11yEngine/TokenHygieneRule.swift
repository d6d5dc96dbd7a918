/// Styling files use semantic tokens only; colors adapt to dark mode; no hard black or white for text or surfaces.
public struct TokenHygieneRule: Rule {
    public init() {}
    public static let description = RuleDescription(
        id: "token-hygiene",
        summary: "No hex or RGB literals, primitive tokens or raw point sizes in styling files; no Color.black/.white for text or surfaces; every color has a dark value",
        standard: "House rules of the design system (semantic tokens only; Dark Mode is mandatory); Apple HIG Dark Mode",
        helpURL: "https://developer.apple.com/design/human-interface-guidelines/dark-mode",
        passing: [RuleExample("""
            extension Color {
                static func adaptive(light: String, dark: String) -> Color {
                    Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(Color(hex: dark)) : UIColor(Color(hex: light)) })
                }
                static let appTextPrimary = adaptive(light: "#0F172A", dark: "#F8FAFC")
            }
            enum BadgeStyling {
                struct Colors {
                    static let text = Color.appTextPrimary
                }
            }
            """)],
        failing: [RuleExample("""
            enum BadgeStyling {
                struct Colors {
                    static let text = Color(hex: "#333333")
                    static let background = Color.white
                }
            }
            """)])

    public func check(_ context: AuditContext) -> [Finding] {
        let rule = Self.description.id
        let severity = context.policy.severity(of: rule)
        let graph = context.graph
        var findings: [Finding] = []
        let componentProperties = Dictionary(
            context.components.flatMap { c in c.properties.map { ($0.qualifiedName, (c, $0)) } }, uniquingKeysWith: { a, _ in a })
        // Number tokens by family, so a raw radius is matched with radius tokens, padding with spacing tokens.
        var numberTokens: [String: [Double: String]] = [:]
        for (key, d) in graph.definitions where componentProperties[key] == nil && d.declaredKind == .number {
            guard case .success(.number(let n)) = graph.value(of: key), let family = Self.family(of: d.name) else { continue }
            let name = TokenGraph.displayName(key)
            if let existing = numberTokens[family]?[n], existing < name { continue }
            numberTokens[family, default: [:]][n] = name
        }

        for key in graph.definitions.keys.sorted() {
            guard let definition = graph.definitions[key] else { continue }
            let name = TokenGraph.displayName(key)
            if let (component, property) = componentProperties[key] {
                let label = "\(component.name).\(property.name)"
                if property.group == .colors, Self.isLiteralColor(definition.expression) {
                    findings.append(Finding(rule: rule, severity: severity, subject: label,
                                            message: "\(label) is a color literal in a styling file; use a semantic token",
                                            location: definition.location, component: component.name))
                }
                if let target = property.referencedToken, context.policy.isPrimitive(target) {
                    findings.append(Finding(rule: rule, severity: severity, subject: label,
                                            message: "\(label) uses the primitive token \(TokenGraph.displayName(target)); use a semantic token",
                                            location: definition.location, component: component.name))
                }
                if property.group == .layout, case .number(let n) = definition.expression, n > 0,
                   let family = Self.family(of: property.name), let token = numberTokens[family]?[n] {
                    findings.append(Finding(rule: rule, severity: .warning, subject: label,
                                            message: "\(label) is a raw \(format(n))pt where the token \(token) has that value",
                                            location: definition.location, component: component.name))
                }
            }
            guard case .success(.color(let color)) = graph.value(of: key) else { continue }
            let role = graph.nameInfo(key).role
            if [.text, .background].contains(role), let fixed = Self.fixedBlackOrWhite(definition.expression, graph: graph) {
                findings.append(Finding(rule: rule, severity: severity, subject: name + " (fixed color)",
                                        message: "\(name) uses Color.\(fixed) for \(role == .text ? "text" : "a surface"): it does not adapt and disappears in one mode; use a semantic token",
                                        location: definition.location, component: componentProperties[key]?.0.name))
            }
            // Dark mode is mandatory: a color (other than a primitive, which only feeds adaptive tokens) needs a dark value.
            if componentProperties[key] == nil, !context.policy.isPrimitive(key), !color.explicit.contains(.dark),
               !Appearance.allCases.allSatisfy({ color[$0].alpha == 0 }) {
                findings.append(Finding(rule: rule, severity: severity, subject: name + " (dark)",
                                        message: "\(name) has no dark value (dark mode shows the light color \(color[.light].hex))",
                                        location: definition.location))
            }
        }
        return findings
    }

    /// The family of a dimension by its name words: spacing, radius or size.
    static func family(of name: String) -> String? {
        let words = Set(nameWords(name))
        if words.contains("radius") { return "radius" }
        if !words.isDisjoint(with: ["space", "spacing", "padding", "gap", "margin", "inset"]) || words.contains(where: { $0.hasPrefix("space") }) {
            return "spacing"
        }
        if !words.isDisjoint(with: ["height", "size", "target", "touch", "diameter", "width"]) { return "size" }
        return nil
    }

    static func isLiteralColor(_ expression: TokenExpression) -> Bool {
        switch expression {
        case .hexColor, .rgb, .white, .color: return true
        case .opacity(let base, _): return isLiteralColor(base)
        case .adaptive(let branches): return branches.values.contains(where: isLiteralColor)
        default: return false
        }
    }

    /// `Color.black` / `.white` (SwiftUI's fixed colors, not a project token of that name).
    static func fixedBlackOrWhite(_ expression: TokenExpression, graph: TokenGraph) -> String? {
        switch expression {
        case .reference(let ref):
            guard let last = ref.path.last, ["black", "white"].contains(last), graph.resolve(ref) == nil else { return nil }
            return last
        case .opacity(let base, _): return fixedBlackOrWhite(base, graph: graph)
        default: return nil
        }
    }
}
