import A11yEngine
import Foundation

/// Reads design-token JSON into engine tokens: W3C DTCG (`$value`, `$type` inherited from groups), Style
/// Dictionary's and Tokens Studio's legacy `value`/`type`, and Adobe Spectrum's `sets` per appearance.
///
/// A token at `color.text.primary` becomes `["color", "text", "primary"]`; `{color.text.primary}` becomes a
/// reference with that path. Chains, cross-file aliases, cycles and dangling aliases are the token graph's job.
///
/// Modes: a file for one mode (`dark.tokens.json`) is read with `appearance: .dark` and every token becomes
/// `.adaptive([.dark: value])`; the graph merges the same token from the per-mode files. The caller takes the
/// appearance from the project config (`modes:`) and may fall back on `guessAppearance(fileName:)`.
/// Modes inside a token (`$extensions.mode`, Primer's `$extensions["org.primer.overrides"]`, Spectrum's
/// `sets`) produce `.adaptive` with several appearances directly.
///
/// Only token types the audit uses become tokens (colors, dimensions and numbers, font families and weights,
/// typography). Other known types (shadow, border, duration, ...) are skipped quietly; an unknown type is a finding.
public enum DesignTokenReader {
    /// File name patterns the loader should hand to this reader by default (plus configured globs).
    public static let defaultFilePatterns = ["*.tokens.json", "*.tokens", "*.tokens.json5"]

    public static func read(text: String, file: String, appearance: Appearance?) -> ParsedSource {
        var walker = TokenDocumentWalker(file: file, appearance: appearance)
        return walker.read(text: text)
    }

    /// A default appearance from a token file's name, used when the config does not map the file:
    /// the words `dark`/`light` pick the base mode and `hc`, `ax`, `high-contrast`/`highcontrast`,
    /// `contrast` or `accessible` pick its increased-contrast variant (`light_ax.tokens.json` ->
    /// `.lightHighContrast`, `theme-dark-hc.json` -> `.darkHighContrast`). High contrast without a base word
    /// is light high contrast. No mode word -> nil (the file applies to every appearance).
    public static func guessAppearance(fileName: String) -> Appearance? {
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        let words = splitCamelCaseWords(base)
        let isDark = words.contains("dark")
        let isLight = words.contains("light")
        let highContrastWords: Set<String> = ["hc", "ax", "highcontrast", "contrast", "accessible", "a11y"]
        let isHighContrast = !highContrastWords.isDisjoint(with: words)
        switch (isDark, isLight, isHighContrast) {
        case (true, _, true): return .darkHighContrast
        case (true, _, false): return .dark
        case (false, _, true): return .lightHighContrast
        case (false, true, false): return .light
        default: return nil
        }
    }

    /// Appearance for a mode name inside a token file (`dark`, `light-high-contrast`, `dark_ax`, `lightHC`).
    /// Modes that are not appearances (`wireframe`, `dark-dimmed`, `light-tritanopia`) give nil.
    public static func appearance(forModeName name: String) -> Appearance? {
        let words = splitCamelCaseWords(name)
        let known: Set<String> = ["light", "dark", "hc", "ax", "high", "contrast", "highcontrast", "default", "mode", "theme"]
        guard !words.isEmpty, Set(words).isSubset(of: known) else { return nil }
        let isDark = words.contains("dark")
        let isHighContrast = words.contains("hc") || words.contains("ax") || words.contains("highcontrast")
            || words.contains("contrast")
        if !isDark && !words.contains("light") && !isHighContrast { return nil }
        switch (isDark, isHighContrast) {
        case (true, true): return .darkHighContrast
        case (true, false): return .dark
        case (false, true): return .lightHighContrast
        case (false, false): return .light
        }
    }

    /// Lowercased words split at non-alphanumerics and camel-case humps: `lightHighContrast` -> light, high, contrast.
    static func splitCamelCaseWords(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        for character in text {
            if !(character.isLetter || character.isNumber) {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase && previousWasLower && !current.isEmpty {
                words.append(current.lowercased())
                current = ""
            }
            current.append(character)
            previousWasLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        // "high contrast" written as two words means one thing.
        var merged: [String] = []
        for word in words {
            if word == "contrast", merged.last == "high" {
                merged[merged.count - 1] = "highcontrast"
            } else {
                merged.append(word)
            }
        }
        return merged
    }
}

/// What the audit does with a token type.
enum TokenTypeUse {
    case color, number, fontFamily, fontWeight, typography
    /// A string or number kept as is (`other`).
    case plain
    /// A known type the audit has no use for.
    case ignored

    /// DTCG 2025.10 types, Tokens Studio's types, and Style Dictionary's legacy categories.
    init?(typeName: String) {
        switch typeName {
        case "color": self = .color
        case "dimension", "number", "spacing", "sizing", "size", "borderRadius", "borderWidth", "fontSizes",
             "fontSize", "lineHeights", "lineHeight", "letterSpacing", "paragraphSpacing", "paragraphIndent",
             "opacity", "math":
            self = .number
        case "fontFamily", "fontFamilies": self = .fontFamily
        case "fontWeight", "fontWeights": self = .fontWeight
        case "typography": self = .typography
        case "other", "string", "text", "content": self = .plain
        case "duration", "cubicBezier", "strokeStyle", "border", "transition", "shadow", "boxShadow", "gradient",
             "composition", "asset", "textCase", "textDecoration", "time", "font", "drop-shadow", "dropShadow",
             "boolean", "link":
            self = .ignored
        default: return nil
        }
    }

    var kind: TokenKind {
        switch self {
        case .color: return .color
        case .number: return .number
        case .fontFamily: return .string
        case .fontWeight, .plain, .ignored: return .other
        case .typography: return .font
        }
    }
}

struct TokenDocumentWalker {
    let file: String
    let sourceFile: SourceFile
    let appearance: Appearance?
    var tokens: [TokenDefinition] = []
    var findings: [Finding] = []

    init(file: String, appearance: Appearance?) {
        self.file = file
        sourceFile = SourceFile.named(file)
        self.appearance = appearance
    }

    func location(_ position: TextPosition) -> SourceLocation {
        SourceLocation(in: sourceFile, line: position.line, column: position.column)
    }

    mutating func problem(_ path: [String], _ message: String, at position: TextPosition) {
        let name = path.isEmpty ? "(root)" : path.joined(separator: ".")
        findings.append(Finding(rule: "parse", severity: .error, subject: name, message: "\(name): \(message)",
                                location: location(position)))
    }

    mutating func read(text: String) -> ParsedSource {
        let root: LocatedJSON
        do {
            root = try LocatedJSON.parse(text)
        } catch {
            findings.append(Finding(rule: "parse", severity: .error, subject: file,
                                    message: "Invalid JSON: \(error.message)", location: location(error.position)))
            return ParsedSource(file: file, findings: findings)
        }
        // Token Studio's `$themes.json` (an array) and `$metadata.json`, and DTCG resolver documents, describe
        // how to combine token files; they hold no tokens.
        guard root.members != nil else { return ParsedSource(file: file) }
        if root["resolutionOrder"] != nil || root["$schema"]?.string?.hasSuffix("resolver.json") == true {
            return ParsedSource(file: file)
        }
        walkGroup(root, path: [], inheritedType: nil)
        return ParsedSource(file: file, tokens: tokens, findings: findings)
    }

    /// A token is an object with `$value` (DTCG), `value` (legacy) or Spectrum's `sets`; anything else is a group.
    func isToken(_ node: LocatedJSON) -> Bool {
        guard node.members != nil else { return false }
        if node["$value"] != nil { return true }
        if let value = node["value"] {
            // A group that happens to be named "value" contains tokens rather than being one; an object value
            // whose members are plain values (a Tokens Studio modifier, an SD object value) is a token's value.
            if let members = value.members,
               members.contains(where: { $0.value["$value"] != nil || $0.value["value"] != nil }) {
                return false
            }
            return true
        }
        if let sets = node["sets"], let members = sets.members, !members.isEmpty,
           members.allSatisfy({ $0.value["value"] != nil || $0.value["$value"] != nil || $0.value["sets"] != nil }) {
            return true
        }
        return false
    }

    /// A group's `$type` and where it is written, so an unknown inherited type is reported at its source.
    typealias InheritedType = (name: String, position: TextPosition)

    mutating func walkGroup(_ group: LocatedJSON, path: [String], inheritedType: InheritedType?) {
        guard let members = group.members else { return }
        var groupType = inheritedType
        if let own = group["$type"], let name = own.string { groupType = (name, own.position) }
        for member in members where !member.key.hasPrefix("$") {
            guard member.value.members != nil else { continue }  // metadata such as Spectrum's "uuid" or SD's arrays
            let childPath = path + [member.key]
            if isToken(member.value) {
                readToken(member.value, path: childPath, keyPosition: member.keyPosition, inheritedType: groupType)
            } else {
                walkGroup(member.value, path: childPath, inheritedType: groupType)
            }
        }
    }

    /// The token's type: its own `$type`/`type`, the group's `$type`, or Spectrum's schema file name.
    func typeName(of token: LocatedJSON, inheritedType: InheritedType?) -> InheritedType? {
        if let own = token["$type"] ?? token["type"], let name = own.string { return (name, own.position) }
        if let schema = token["$schema"], let url = schema.string,
           let last = url.split(separator: "/").last, last.hasSuffix(".json") {
            let name = String(last.dropLast(".json".count))
            switch name {
            case "color", "color-set": return ("color", schema.position)
            case "alias", "scale-set", "set": return nil  // the value decides
            default: return (name.hasSuffix("-set") ? String(name.dropLast(4)) : name, schema.position)
            }
        }
        return inheritedType
    }

    mutating func readToken(_ token: LocatedJSON, path: [String], keyPosition: TextPosition, inheritedType: InheritedType?) {
        var use: TokenTypeUse?
        if let (name, position) = typeName(of: token, inheritedType: inheritedType) {
            guard let known = TokenTypeUse(typeName: name) else {
                problem(path, "unknown $type \"\(name)\"", at: position)
                return
            }
            if case .ignored = known { return }
            use = known
        }
        var expression: TokenExpression
        if let sets = token["sets"], token["$value"] == nil, token["value"] == nil {
            guard let (adaptive, setUse) = readSets(sets, path: path, use: use) else { return }
            expression = adaptive
            use = setUse ?? use
        } else {
            guard let raw = token["$value"] ?? token["value"] else { return }
            let resolvedUse = use ?? inferUse(raw)
            if case .ignored = resolvedUse { return }
            guard let base = translate(raw, use: resolvedUse, path: path) else { return }
            expression = applyModifiers(base, token: token, path: path)
            if let modes = readModes(token, path: path, use: resolvedUse) {
                var values = modes
                values[appearance ?? .light] = expression
                expression = .adaptive(values)
            }
            if use == nil { use = resolvedUse }
        }
        if let appearance, !isAdaptive(expression) {
            expression = .adaptive([appearance: expression])
        }
        tokens.append(TokenDefinition(qualifiedName: path, declaredKind: use.map(\.kind) ?? inferKind(expression),
                                      expression: expression, location: location(keyPosition)))
    }

    func isAdaptive(_ expression: TokenExpression) -> Bool {
        if case .adaptive = expression { return true }
        return false
    }

    func inferKind(_ expression: TokenExpression) -> TokenKind? {
        switch expression {
        case .color, .opacity: return .color
        case .number, .arithmetic: return .number
        case .font: return .font
        case .string: return .string
        default: return nil
        }
    }

    /// Untyped values (Spectrum aliases, typeless legacy tokens): a color string is a color, a number a number,
    /// a whole-value reference is typed by what it points at.
    func inferUse(_ raw: LocatedJSON) -> TokenTypeUse {
        switch raw.value {
        case .number: return .number
        case .string(let s):
            let text = s.trimmingCharacters(in: .whitespaces)
            if CSSColorText.parse(text) != nil { return .color }
            if Double(text) != nil || DimensionText.parse(text) != nil { return .number }
            return .plain
        case .object:
            return raw["colorSpace"] != nil ? .color : .ignored
        default:
            return .ignored
        }
    }

    /// Spectrum `sets: {light: {...}, dark: {...}, wireframe: {...}}` -> `.adaptive`; sets that are not
    /// appearances (wireframe, desktop/mobile scales) are left out.
    /// Each set may carry its own `$schema` (Spectrum's `overlay-opacity` is a color-set of opacity values);
    /// that type wins over the token's and is returned so the token is declared with it.
    mutating func readSets(_ sets: LocatedJSON, path: [String], use: TokenTypeUse?) -> (TokenExpression, TokenTypeUse?)? {
        var values: [Appearance: TokenExpression] = [:]
        var setUse: TokenTypeUse?
        for member in sets.members ?? [] {
            guard let target = DesignTokenReader.appearance(forModeName: member.key) else { continue }
            guard let raw = member.value["$value"] ?? member.value["value"] else { continue }
            var resolvedUse = use ?? inferUse(raw)
            if let own = typeName(of: member.value, inheritedType: nil), let known = TokenTypeUse(typeName: own.name) {
                resolvedUse = known
                setUse = known
            }
            if case .ignored = resolvedUse { continue }
            if let expression = translate(raw, use: resolvedUse, path: path + ["sets", member.key]) {
                values[target] = expression
            }
        }
        return values.isEmpty ? nil : (.adaptive(values), setUse)
    }

    /// Mode values inside a token: Terrazzo's `$extensions.mode` and Primer's `org.primer.overrides`.
    mutating func readModes(_ token: LocatedJSON, path: [String], use: TokenTypeUse) -> [Appearance: TokenExpression]? {
        guard let extensions = token["$extensions"] else { return nil }
        var values: [Appearance: TokenExpression] = [:]
        for container in [extensions["mode"], extensions["org.primer.overrides"]] {
            for member in container?.members ?? [] {
                guard let target = DesignTokenReader.appearance(forModeName: member.key) else { continue }
                // Primer writes either the value itself or an object with `$value`.
                let raw = member.value["$value"] ?? member.value
                if let expression = translate(raw, use: use, path: path + ["$extensions", member.key]) {
                    values[target] = expression
                }
            }
        }
        return values.isEmpty ? nil : values
    }

    /// Tokens Studio color modifiers (`$extensions["studio.tokens"].modify`) and Style Dictionary `modify`
    /// arrays. Alpha maps onto `.opacity`; the others (darken, lighten, mix in various spaces) depend on the
    /// tool's exact color math, so the token is marked unevaluable with that reason rather than guessed.
    func applyModifiers(_ base: TokenExpression, token: LocatedJSON, path: [String]) -> TokenExpression {
        if let modify = token["$extensions"]?["studio.tokens"]?["modify"] {
            guard let type = modify["type"]?.string else {
                return .unevaluable(reason: "Tokens Studio modifier given by reference is not evaluated",
                                    at: location(modify.position))
            }
            if type == "alpha", let amount = modify["value"], let factor = numberExpression(amount, path: path) {
                return .opacity(base, factor)
            }
            return .unevaluable(reason: "Tokens Studio '\(type)' color modifier is not evaluated",
                                at: location(modify.position))
        }
        if let modify = token["modify"], modify.elements?.isEmpty == false {
            return .unevaluable(reason: "Style Dictionary 'modify' transforms run custom code and are not evaluated",
                                at: location(modify.position))
        }
        return base
    }

    // MARK: Values

    /// A whole-value alias `{group.token}` -> `.reference`.
    func reference(_ text: String, at position: TextPosition) -> TokenExpression? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("{"), trimmed.hasSuffix("}"), trimmed.count > 2 else { return nil }
        let inner = trimmed.dropFirst().dropLast()
        guard !inner.contains("{"), !inner.contains("}") else { return nil }
        let parts = inner.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else { return nil }
        return .reference(TokenReference(path: parts, scope: [], location: location(position)))
    }

    mutating func translate(_ raw: LocatedJSON, use: TokenTypeUse, path: [String]) -> TokenExpression? {
        if let text = raw.string, let alias = reference(text, at: raw.position) { return alias }
        switch use {
        case .color: return colorExpression(raw, path: path)
        case .number:
            if let expression = numberExpression(raw, path: path) { return expression }
            if let text = raw.string, text.contains(" "), text.contains("{") {
                return .unevaluable(reason: "multi-value \"\(text)\" is not a single number", at: location(raw.position))
            }
            problem(path, "invalid dimension \(describe(raw)) (expected a number, \"16px\" or {\"value\": 16, \"unit\": \"px\"})",
                    at: raw.position)
            return nil
        case .fontFamily:
            if let text = raw.string { return .string(text) }
            if let first = raw.elements?.first?.string { return .string(first) }
            problem(path, "invalid font family \(describe(raw))", at: raw.position)
            return nil
        case .fontWeight:
            return fontWeight(raw, path: path)
        case .typography:
            return typography(raw, path: path)
        case .plain:
            if let text = raw.string { return .string(text) }
            if let n = raw.number { return .number(n) }
            return nil
        case .ignored:
            return nil
        }
    }

    mutating func colorExpression(_ raw: LocatedJSON, path: [String]) -> TokenExpression? {
        switch raw.value {
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let color = CSSColorText.parse(trimmed) { return .color(color) }
            let lowered = trimmed.lowercased()
            if lowered.hasPrefix("linear-gradient(") || lowered.hasPrefix("radial-gradient(")
                || lowered.hasPrefix("conic-gradient(") {
                return .unevaluable(reason: "a gradient has no single color to audit", at: location(raw.position))
            }
            // Tokens Studio `rgba({colors.blue}, 50%)`: a referenced color with an alpha.
            if let inner = CSSColorText.functionArguments(lowered, names: ["rgba", "rgb"]),
               inner.count == 2, let alpha = CSSColorText.fraction(inner[1]) {
                let originalArgument = trimmed[trimmed.index(after: trimmed.firstIndex(of: "(") ?? trimmed.startIndex)...]
                let referenceText = String(originalArgument.prefix(while: { $0 != "," }))
                if let alias = reference(referenceText, at: raw.position) {
                    return .opacity(alias, .number(alpha))
                }
            }
            problem(path, "invalid color \"\(text)\"", at: raw.position)
            return nil
        case .object:
            if raw["colorSpace"] != nil { return colorObject(raw, path: path) }
            // Legacy object colors: {r, g, b, a} in 0-255 and {h, s, l} with s/l in percent.
            let letters = Set((raw.members ?? []).map { $0.key.lowercased() })
            if letters.isSuperset(of: ["h", "s", "l"]) || letters.isSuperset(of: ["r", "g", "b"]) {
                let values = ["h", "s", "l", "r", "g", "b", "a"].reduce(into: [String: Double]()) { result, key in
                    if let member = raw.members?.last(where: { $0.key.lowercased() == key }) {
                        if let n = member.value.number { result[key] = n }
                        else if let s = member.value.string, let n = Double(s.trimmingCharacters(in: .whitespaces)) { result[key] = n }
                    }
                }
                let alpha = values["a"] ?? 1
                if let h = values["h"], let s = values["s"], let l = values["l"],
                   let converted = ColorSpaceConversion.toSRGB(.hsl, components: [h, s, l], alpha: alpha) {
                    return .color(converted.color)
                }
                if let r = values["r"], let g = values["g"], let b = values["b"] {
                    return .color(ColorValue(red: r / 255, green: g / 255, blue: b / 255, alpha: alpha))
                }
                return .unevaluable(reason: "object color with referenced channels needs the tool's transform",
                                    at: location(raw.position))
            }
            problem(path, "invalid color: an object color needs \"colorSpace\" and \"components\"", at: raw.position)
            return nil
        default:
            problem(path, "invalid color \(describe(raw))", at: raw.position)
            return nil
        }
    }

    /// DTCG 2025.10 color object: `{"colorSpace": "srgb", "components": [r, g, b], "alpha": 1, "hex": "#..."}`.
    /// `hex` is the spec's fallback for tools that do not support the color space, so it is used that way.
    mutating func colorObject(_ raw: LocatedJSON, path: [String]) -> TokenExpression? {
        let spaceName = raw["colorSpace"]?.string ?? ""
        let dtcgSpaces: [String: SourceColorSpace] = [
            "srgb": .sRGB, "srgb-linear": .extendedLinearSRGB, "display-p3": .displayP3, "hsl": .hsl,
            "oklab": .oklab, "oklch": .oklch, "xyz-d65": .xyzD65, "xyz": .xyzD65,
        ]
        var alpha = 1.0
        if let alphaValue = raw["alpha"] {
            guard let a = alphaValue.number, a.isFinite, (0...1).contains(a) else {
                problem(path, "invalid color: alpha \(describe(alphaValue)) must be a number between 0 and 1",
                        at: alphaValue.position)
                return nil
            }
            alpha = a
        }
        let hexFallback = raw["hex"]?.string.flatMap { ColorValue(hex: $0) }.map { $0.withAlpha(alpha) }
        guard let space = dtcgSpaces[spaceName] else {
            if let hexFallback { return .color(hexFallback) }
            problem(path, "invalid color: unsupported colorSpace \"\(spaceName)\" and no usable \"hex\" fallback",
                    at: (raw["colorSpace"] ?? raw).position)
            return nil
        }
        guard let list = raw["components"]?.elements, list.count == space.componentCount else {
            problem(path, "invalid color: \"components\" must be an array of \(space.componentCount) numbers",
                    at: (raw["components"] ?? raw).position)
            return nil
        }
        var components: [Double] = []
        for element in list {
            // DTCG allows "none" for a missing component (CSS Color 4 powerless components); it counts as 0.
            if element.string == "none" { components.append(0); continue }
            guard let n = element.number else {
                problem(path, "invalid color: component \(describe(element)) is not a number", at: element.position)
                return nil
            }
            components.append(n)
        }
        guard let converted = ColorSpaceConversion.toSRGB(space, components: components, alpha: alpha) else {
            problem(path, "invalid color: components are not finite numbers", at: raw.position)
            return nil
        }
        if converted.wasGamutMapped {
            findings.append(Finding(
                rule: "gamut", severity: .info, subject: path.joined(separator: "."),
                message: "\(path.joined(separator: ".")): \(spaceName) color is outside sRGB; contrast uses the clipped color \(converted.color.hex)",
                location: location(raw.position)))
        }
        return .color(converted.color)
    }

    /// Numbers, `"16px"`, `{"value": 16, "unit": "px"}`, and Tokens Studio math (`"{space.scale} * 1.5"`).
    func numberExpression(_ raw: LocatedJSON, path: [String]) -> TokenExpression? {
        switch raw.value {
        case .number(let n): return n.isFinite ? .number(n) : nil
        case .string(let text):
            if let alias = reference(text, at: raw.position) { return alias }
            if let n = DimensionText.parse(text) { return .number(n) }
            var parser = MathExpressionParser(text: text, location: location(raw.position))
            return parser.parse()
        case .object:
            guard let n = raw["value"]?.number, n.isFinite else { return nil }
            return .number(DimensionText.scale(n, unit: raw["unit"]?.string ?? "px"))
        default: return nil
        }
    }

    /// CSS/DTCG numeric weights and common names -> SwiftUI `Font.Weight` names (as `.enumCase`), the same
    /// form the Swift reader produces for `.weight(.semibold)`. Names per the DTCG fontWeight table.
    mutating func fontWeight(_ raw: LocatedJSON, path: [String]) -> TokenExpression? {
        var number = raw.number
        if let text = raw.string {
            if let alias = reference(text, at: raw.position) { return alias }
            number = Double(text.trimmingCharacters(in: .whitespaces))
            if number == nil {
                // Tokens Studio weights carry the style too ("Regular italic", "Bold Italic"): the style does
                // not change the weight, so it is dropped.
                var key = text.lowercased().filter { $0.isLetter }
                for style in ["italic", "oblique"] where key.hasSuffix(style) && key.count > style.count {
                    key.removeLast(style.count)
                }
                let names: [String: String] = [
                    "thin": "thin", "hairline": "thin", "extralight": "ultraLight", "ultralight": "ultraLight",
                    "light": "light", "regular": "regular", "normal": "regular", "book": "regular",
                    "medium": "medium", "semibold": "semibold", "demibold": "semibold", "bold": "bold",
                    "extrabold": "heavy", "ultrabold": "heavy", "heavy": "heavy", "black": "black",
                    "extrablack": "black", "ultrablack": "black",
                ]
                if let name = names[key] { return .enumCase(name) }
                problem(path, "invalid font weight \"\(text)\"", at: raw.position)
                return nil
            }
        }
        guard let weight = number, (1...1000).contains(weight) else {
            problem(path, "invalid font weight \(describe(raw)) (expected 1-1000 or a weight name)", at: raw.position)
            return nil
        }
        let table: [(Double, String)] = [(100, "thin"), (200, "ultraLight"), (300, "light"), (400, "regular"),
                                         (500, "medium"), (600, "semibold"), (700, "bold"), (800, "heavy"), (900, "black")]
        let nearest = table.min(by: { abs($0.0 - weight) < abs($1.0 - weight) })?.1 ?? "regular"
        return .enumCase(nearest)
    }

    /// A typography composite -> a custom font. DTCG typography has no text style to scale with, so the
    /// font has no `relativeTo` and the Dynamic Type rule reports it as fixed, which is what it is on iOS.
    mutating func typography(_ raw: LocatedJSON, path: [String]) -> TokenExpression? {
        guard raw.members != nil else {
            problem(path, "invalid typography \(describe(raw)) (expected an object with fontFamily, fontSize, fontWeight)",
                    at: raw.position)
            return nil
        }
        let size = raw["fontSize"].flatMap { numberExpression($0, path: path + ["fontSize"]) }
        let weight = raw["fontWeight"].flatMap { fontWeight($0, path: path + ["fontWeight"]) }
        var face: TokenExpression?
        if let family = raw["fontFamily"] {
            face = translate(family, use: .fontFamily, path: path + ["fontFamily"])
        }
        return .font(FontExpression(kind: .custom, size: size, weight: weight, face: face, location: location(raw.position)))
    }

    func describe(_ value: LocatedJSON) -> String {
        switch value.value {
        case .string(let s): return "\"\(s)\""
        case .number(let n): return String(n)
        default: return value.typeDescription
        }
    }
}

/// Dimension strings: `16`, `16px`, `16pt`, `1.5rem`, `25%`.
enum DimensionText {
    static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty else { return nil }
        let unitStart = trimmed.firstIndex(where: { $0.isLetter || $0 == "%" }) ?? trimmed.endIndex
        guard let n = Double(trimmed[..<unitStart]), n.isFinite else { return nil }
        let unit = String(trimmed[unitStart...])
        guard ["", "px", "pt", "dp", "rem", "em", "%"].contains(unit) else { return nil }
        return scale(n, unit: unit.isEmpty ? "px" : unit)
    }

    /// iOS points equal CSS px at 1x (both 1/160 in. nominal); rem/em assume the CSS default root size of
    /// 16px; a percentage becomes a fraction (opacity 25% -> 0.25, line height 110% -> 1.1).
    static func scale(_ n: Double, unit: String) -> Double {
        switch unit {
        case "rem", "em": return n * 16
        case "%": return n / 100
        default: return n
        }
    }
}

/// Tokens Studio math on references and numbers: `{space.scale} * 1.5`, `({a} + {b}) / 2`.
struct MathExpressionParser {
    enum Piece: Equatable { case number(Double), reference([String]), symbol(Character) }
    var pieces: [Piece] = []
    var index = 0
    let location: SourceLocation
    var valid = true

    init(text: String, location: SourceLocation) {
        self.location = location
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == " " { i = text.index(after: i); continue }
            if "+-*/()".contains(c) {
                pieces.append(.symbol(c)); i = text.index(after: i); continue
            }
            if c == "{" {
                guard let close = text[i...].firstIndex(of: "}") else { valid = false; return }
                let parts = text[text.index(after: i)..<close].split(separator: ".").map(String.init)
                guard !parts.isEmpty else { valid = false; return }
                pieces.append(.reference(parts)); i = text.index(after: close); continue
            }
            var end = i
            while end < text.endIndex, text[end].isNumber || text[end] == "." || text[end].isLetter || text[end] == "%" {
                end = text.index(after: end)
            }
            guard end > i, let n = DimensionText.parse(String(text[i..<end])) else { valid = false; return }
            pieces.append(.number(n)); i = end
        }
    }

    mutating func parse() -> TokenExpression? {
        guard valid, !pieces.isEmpty, pieces.contains(where: { $0 == .symbol("*") || $0 == .symbol("/") || $0 == .symbol("+") || $0 == .symbol("-") }) else {
            return nil
        }
        guard let result = sum(depth: 0), index == pieces.count else { return nil }
        return result
    }

    mutating func sum(depth: Int) -> TokenExpression? {
        guard var left = product(depth: depth) else { return nil }
        while index < pieces.count, case .symbol(let op) = pieces[index], op == "+" || op == "-" {
            index += 1
            guard let right = product(depth: depth) else { return nil }
            left = .arithmetic(left, operator: String(op), right)
        }
        return left
    }

    mutating func product(depth: Int) -> TokenExpression? {
        guard var left = primary(depth: depth) else { return nil }
        while index < pieces.count, case .symbol(let op) = pieces[index], op == "*" || op == "/" {
            index += 1
            guard let right = primary(depth: depth) else { return nil }
            left = .arithmetic(left, operator: String(op), right)
        }
        return left
    }

    mutating func primary(depth: Int) -> TokenExpression? {
        guard index < pieces.count, depth < 32 else { return nil }
        let piece = pieces[index]
        index += 1
        switch piece {
        case .number(let n): return .number(n)
        case .reference(let path): return .reference(TokenReference(path: path, scope: [], location: location))
        case .symbol("("):
            guard let inner = sum(depth: depth + 1), index < pieces.count, pieces[index] == .symbol(")") else { return nil }
            index += 1
            return inner
        case .symbol("-"):
            guard let operand = primary(depth: depth + 1) else { return nil }
            return .arithmetic(.number(0), operator: "-", operand)
        default: return nil
        }
    }
}

/// CSS color strings used in token files: hex, `rgb()`/`rgba()` (numbers 0-255 or percentages, comma or space
/// separated, `/ alpha`), `hsl()`/`hsla()`, and the keywords `transparent`, `white`, `black`.
enum CSSColorText {
    static func parse(_ text: String) -> ColorValue? {
        let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
        if lowered.hasPrefix("#") { return ColorValue(hex: lowered) }
        switch lowered {
        case "transparent": return .clear
        case "white": return .white
        case "black": return .black
        default: break
        }
        if let args = functionArguments(lowered, names: ["rgba", "rgb"]), args.count == 3 || args.count == 4 {
            var channels: [Double] = []
            for arg in args.prefix(3) {
                if arg.hasSuffix("%") {
                    guard let p = Double(arg.dropLast()) else { return nil }
                    channels.append(p / 100)
                } else {
                    guard let n = Double(arg) else { return nil }
                    channels.append(n / 255)
                }
            }
            guard channels.allSatisfy({ (0...1).contains($0) }) else { return nil }
            let alpha = args.count == 4 ? fraction(args[3]) : 1
            guard let alpha, (0...1).contains(alpha) else { return nil }
            return ColorValue(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha)
        }
        if let args = functionArguments(lowered, names: ["hsla", "hsl"]), args.count == 3 || args.count == 4 {
            guard let h = Double(args[0].replacingOccurrences(of: "deg", with: "")),
                  let s = Double(args[1].replacingOccurrences(of: "%", with: "")),
                  let l = Double(args[2].replacingOccurrences(of: "%", with: "")) else { return nil }
            let alpha = args.count == 4 ? fraction(args[3]) : 1
            guard let alpha, (0...1).contains(alpha),
                  let converted = ColorSpaceConversion.toSRGB(.hsl, components: [h, s, l], alpha: alpha),
                  !converted.wasGamutMapped else { return nil }
            return converted.color
        }
        return nil
    }

    /// `0.5` or `50%` -> 0.5.
    static func fraction(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("%") { return Double(trimmed.dropLast()).map { $0 / 100 } }
        return Double(trimmed)
    }

    /// The arguments of `name(a, b, c)` or `name(a b c / d)`, or nil when `text` is not that call.
    static func functionArguments(_ text: String, names: [String]) -> [String]? {
        guard let name = names.first(where: { text.hasPrefix($0 + "(") }), text.hasSuffix(")") else { return nil }
        let inner = text.dropFirst(name.count + 1).dropLast()
        let separators: Set<Character> = inner.contains(",") ? [","] : [" ", "/"]
        return inner.split(whereSeparator: { separators.contains($0) })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}
