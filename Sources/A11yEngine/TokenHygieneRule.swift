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
        let hasDarkTheme = context.themes.contains { $0.appearance?.isDark ?? false }
        let rule = Self.description.id
        let severity = context.policy.severity(of: rule)
        let graph = context.graph, components = context.components
        // Built on first use: an audit that takes most findings from the last one checks only a few tokens.
        // By row and index, not copies: a component copied into the entry of each of its properties was a dozen reference
        // counts per entry (a fortieth of a 5,000-token audit), and a look-up by name per token was most of this rule.
        var componentPropertiesBuilt: [(component: Int, property: Int)?]?
        func componentProperty(row: Int) -> (component: Int, property: Int)? {
            if componentPropertiesBuilt == nil {
                var built = [(component: Int, property: Int)?](repeating: nil, count: graph.sortedKeys.count)
                for c in components.indices {
                    for p in components[c].properties.indices {
                        if let row = graph.row(of: components[c].properties[p].qualifiedName), built[row] == nil { built[row] = (c, p) }
                    }
                }
                componentPropertiesBuilt = built
            }
            return componentPropertiesBuilt?[row]
        }
        // Number tokens by family, so a raw radius is matched with radius tokens, padding with spacing tokens.
        var numberTokensBuilt: [String: [Double: String]]?
        func numberToken(family: String, value: Double) -> String? {
            if numberTokensBuilt == nil {
                var numberTokens: [String: [Double: String]] = [:]
                for row in graph.sortedKeys.indices where componentProperty(row: row) == nil {
                    guard case .number(let n) = graph.evaluated(row: row), graph.token(row: row).declaredKind == .number,
                          let family = Self.family(of: graph.token(row: row).name) else { continue }
                    let name = TokenGraph.displayName(graph.sortedKeys[row])
                    if let existing = numberTokens[family]?[n], existing < name { continue }
                    numberTokens[family, default: [:]][n] = name
                }
                numberTokensBuilt = numberTokens
            }
            return numberTokensBuilt?[family]?[value]
        }

        return context.findingsPerToken(rule: rule) { row in
            var findings: [Finding] = []
            // By index: the component and property read in place (copies of them were a dozen reference counts a token).
            let componentProperty = componentProperty(row: row)
            if let (c, p) = componentProperty {
                let component = components[c].name
                let group = components[c].properties[p].group
                let definition = graph.token(row: row)
                var label: String { [component, ".", components[c].properties[p].name].concatenated() }  // only findings need it
                if group == .colors, let expression = definition.expression, Self.isLiteralColor(expression) {
                    findings.append(Finding(rule: rule, severity: severity, subject: label,
                                            message: "\(label) is a color literal in a styling file; use a semantic token",
                                            location: definition.location, component: component))
                }
                if let target = components[c].properties[p].referencedToken, context.policy.isPrimitive(target) {
                    findings.append(Finding(rule: rule, severity: severity, subject: label,
                                            message: "\(label) uses the primitive token \(TokenGraph.displayName(target)); use a semantic token",
                                            location: definition.location, component: component))
                }
                if group == .layout, case .number(let n)? = definition.expression?.kind, n > 0,
                   let family = Self.family(of: components[c].properties[p].name), let token = numberToken(family: family, value: n) {
                    findings.append(Finding(rule: rule, severity: .warning, subject: label,
                                            message: "\(label) is a raw \(format(n))pt where the token \(token) has that value",
                                            location: definition.location, component: component))
                }
            }
            guard let color = graph.color(row: row) else { return findings }
            // Only colors need the key (read for every token, it was retained for each).
            let key = graph.sortedKeys[row]
            var name: String { TokenGraph.displayName(key) } // only findings need it
            let role = graph.role(row: row)
            if role == .text || role == .background, let expression = graph.token(row: row).expression,
               let fixed = Self.fixedBlackOrWhite(expression, scope: graph.token(row: row).scope, graph: graph) {
                findings.append(Finding(rule: rule, severity: severity, subject: name + " (fixed color)",
                                        message: "\(name) uses Color.\(fixed) for \(role == .text ? "text" : "a surface"): it does not adapt and disappears in one mode; use a semantic token",
                                        location: graph.token(row: row).location,
                                        component: componentProperty.map { components[$0.component].name }))
            }
            // Dark mode is mandatory: a color (other than a primitive, which only feeds adaptive tokens) needs a dark value,
            // unless the app draws dark through a dark theme (a "night" palette) instead.
            if !color.explicit.contains(.dark), !hasDarkTheme, componentProperty == nil, !context.policy.isPrimitive(key), !Self.isPaletteStep(key),
               !color.isClear {
                findings.append(Finding(rule: rule, severity: severity, subject: name + " (dark)",
                                        message: "\(name) has no dark value (dark mode shows the light color \(color[.light].hex))",
                                        location: graph.token(row: row).location))
            }
            return findings
        }
    }

    static let hues: Set<String> = [
        "red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo", "purple", "pink", "brown", "gray", "grey",
        "neutral", "slate", "zinc", "stone", "amber", "lime", "emerald", "sky", "violet", "fuchsia", "rose", "magenta", "black",
        "white", "graphite", "sand", "coral", "navy",
    ]

    /// A palette step is a primitive by its shape, whatever the configuration says: a hue and a number (`blue50`,
    /// `Gray.gray90`, `Blue._600`) or a hex name (`x2F2F2F`). Primitives feed semantic tokens and need no dark value.
    static func isPaletteStep(_ qualifiedName: String) -> Bool {
        // ASCII names (nearly all) are read byte by byte: the general path below walks characters (`isNumber` looks up
        // Unicode properties, `hasSuffix` compares grapheme by grapheme), ~3,000 instructions a name, and the rule asks
        // this of every light-only color token.
        if qualifiedName.isAllASCII {
            var name = qualifiedName
            return name.withUTF8(isASCIIPaletteStep)
        }
        return isPaletteStepByCharacters(qualifiedName)
    }

    /// `hues` as bytes (all ASCII, lowercase).
    private static let asciiHues: [[UInt8]] = hues.map { Array($0.utf8) }

    /// `isPaletteStepByCharacters` for an ASCII name: in ASCII a character is a byte (identifiers hold no CR-LF pair).
    static func isASCIIPaletteStep(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let lastPart = lastDottedPart(of: name, before: name.count) else { return false }
        let last = UnsafeBufferPointer(rebasing: name[lastPart])
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var stemEnd = last.count
        while stemEnd > 0, isDigit(last[stemEnd - 1]) { stemEnd -= 1 }
        if stemEnd < last.count {
            // The stem (before the digits, `_` and `-` left out, lowercased) read backwards in place: whether it ends in
            // `hue`, and whether it is empty.
            func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") }
            func stemEnds(in hue: [UInt8]) -> Bool {
                var i = stemEnd, h = hue.count
                while h > 0 {
                    while i > 0, isSeparator(last[i - 1]) { i -= 1 }
                    guard i > 0, asciiLowercased(last[i - 1]) == hue[h - 1] else { return false }
                    i -= 1
                    h -= 1
                }
                return true
            }
            if asciiHues.contains(where: stemEnds) { return true }
            // `Blue._600`: the part before names the hue.
            if last[..<stemEnd].allSatisfy(isSeparator), let previousPart = lastDottedPart(of: name, before: lastPart.lowerBound) {
                let previous = name[previousPart]
                if asciiHues.contains(where: { $0.count == previous.count && zip($0, previous).allSatisfy { $0 == asciiLowercased($1) } }) {
                    return true
                }
            }
        }
        func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (asciiLowercased(byte) >= UInt8(ascii: "a") && asciiLowercased(byte) <= UInt8(ascii: "f")) }
        return last.count == 7 && asciiLowercased(last[0]) == UInt8(ascii: "x") && last.dropFirst().allSatisfy(isHexDigit)
    }

    /// `isPaletteStep` for any name, character by character.
    static func isPaletteStepByCharacters(_ qualifiedName: String) -> Bool {
        let parts = qualifiedName.splitOnDots()
        guard let lastPart = parts.last else { return false }
        let digits = lastPart.reversed().prefix { $0.isNumber }.count
        if digits > 0 {
            // `blue50`, `colorZinc50`, `Blue._600`.
            let stem = String(lastPart.dropLast(digits).filter { $0 != "_" && $0 != "-" }).lowercased()
            if hues.contains(where: { stem.hasSuffix($0) }) || (stem.isEmpty && parts.dropLast().last.map { hues.contains($0.lowercased()) } == true) {
                return true
            }
        }
        return lastPart.count == 7 && (lastPart.first == "x" || lastPart.first == "X") && lastPart.dropFirst().allSatisfy(\.isHexDigit)
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

    /// A color written as a literal (hex, components, white) rather than through a token.
    static func isLiteralColor(_ expression: Expr) -> Bool {
        switch expression.kind {
        case .constant(.color): return true
        case .perAppearance(let branches): return branches.values.contains(where: isLiteralColor)
        case .call(let callee, let arguments):
            if case .member(let base, "opacity") = callee.kind { return isLiteralColor(base) }
            guard let path = callee.path, let type = path.last, Interpreter.namespaceKind(type) == .color || type == "init" else { return false }
            let labels = Set(arguments.compactMap(\.label))
            return !labels.isDisjoint(with: ["hex", "hexString", "red", "white", "hue"])
                || (arguments.count == 1 && { if case .number = arguments[0].value.kind { return true } else { return false } }())
        default: return false
        }
    }

    /// `Color.black` / `.white` (SwiftUI's fixed colors, not a project token of that name).
    static func fixedBlackOrWhite(_ expression: Expr, scope: [String], graph: TokenGraph) -> String? {
        switch expression.kind {
        case .implicitMember(let name), .member(_, let name):
            guard ["black", "white"].contains(name), let path = expression.path ?? { if case .implicitMember = expression.kind { return [name] } else { return nil } }(),
                  graph.resolve(TokenReference(path: path, isImplicitMember: path.count == 1, expectedKind: .color, scope: scope,
                                               location: expression.location)) == nil else { return nil }
            return name
        case .call(let callee, _):
            if case .member(let base, "opacity") = callee.kind { return fixedBlackOrWhite(base, scope: scope, graph: graph) }
            return nil
        default: return nil
        }
    }
}
