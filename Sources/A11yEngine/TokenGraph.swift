/// Every token and helper of a design system, across files and formats, with evaluation.
/// References resolve the way Swift looks names up (innermost scope outward); cycles and dangling
/// references become `reference` findings, expressions that cannot be evaluated become `parse` findings.
public final class TokenGraph {
    public struct EvaluationError: Error, Hashable, Sendable {
        public var rule: String
        public var message: String
        public var location: SourceLocation?
    }

    public private(set) var definitions: [String: TokenDefinition] = [:]
    private var helpers: [String: [HelperFunction]] = [:]
    /// Asset catalog colors by the symbol path Xcode generates for them (`brand-primary` -> `brandPrimary`).
    private var assetSymbols: [String: String] = [:]
    private var cache: [String: Result<TokenValue, EvaluationError>] = [:]
    private var nameCache: [String: (words: [String], role: Role, roleWord: String?)] = [:]
    private var inProgress: [String] = []
    /// Findings about the graph itself (duplicate definitions); evaluation findings come from `findings()`.
    private var graphFindings: [Finding] = []

    /// Color namespaces are interchangeable for lookup: a project may declare `UIColor.x` and use `Color.x`.
    static let namespaces: [TokenKind: [String]] = [
        .color: ["Color", "UIColor", "ShapeStyle", "SwiftUI.Color"],
        .number: ["CGFloat", "Double", "Float", "Int"],
        .font: ["Font", "UIFont"],
    ]

    public init(sources: [ParsedSource]) {
        for source in sources.sorted(by: { $0.file < $1.file }) {
            for token in source.tokens { add(token) }
            for helper in source.functions {
                helpers[Self.key(helper.qualifiedName), default: []].append(helper)
            }
        }
        for (key, definition) in definitions where definition.qualifiedName.first == "Asset" {
            let name = definition.qualifiedName.dropFirst().joined(separator: ".")
            assetSymbols[AssetSymbolName.symbolPath(forAssetName: name).joined(separator: ".")] = key
        }
    }

    static func key(_ path: [String]) -> String { path.joined(separator: ".") }

    private func add(_ token: TokenDefinition) {
        let key = Self.key(token.qualifiedName)
        guard let existing = definitions[key] else {
            definitions[key] = token
            return
        }
        // Per-mode sources (one token file per appearance) define the same token for different appearances.
        if case .adaptive(let a) = existing.expression, case .adaptive(let b) = token.expression,
           Set(a.keys).isDisjoint(with: b.keys) {
            var merged = existing
            merged.expression = .adaptive(a.merging(b) { first, _ in first })
            definitions[key] = merged
            return
        }
        graphFindings.append(Finding(
            rule: "reference", severity: .warning, subject: key,
            message: "\(key) is defined twice; the definition at \(existing.location) is used",
            location: token.location, relatedLocations: [existing.location]))
    }

    /// A token's name words and the role they imply, computed once per token (pairing and rules ask often).
    public func nameInfo(_ key: String) -> (words: [String], role: Role, roleWord: String?) {
        if let cached = nameCache[key] { return cached }
        let words = nameWords(definitions[key]?.name ?? key)
        let inferred = Role.inferred(fromWords: words)
        let info = (words, inferred.role, inferred.word)
        nameCache[key] = info
        return info
    }

    // MARK: - Lookup

    /// The qualified name a reference resolves to, or nil.
    public func resolve(_ reference: TokenReference) -> String? {
        for candidate in candidates(for: reference) where definitions[candidate] != nil { return candidate }
        // Xcode's generated asset symbols: `Color.brandPrimary` / `.brandPrimary` name the colorset "brand-primary".
        if reference.expectedKind == .color || reference.expectedKind == nil
            || Self.namespaces[.color]!.contains(reference.path.first ?? "") {
            var path = reference.path
            if let first = path.first, Self.namespaces[.color]!.contains(first) { path.removeFirst() }
            if let asset = assetSymbols[path.joined(separator: ".")] { return asset }
        }
        return nil
    }

    private func candidates(for reference: TokenReference) -> [String] {
        var path = reference.path
        if path.first == "Self" { path.removeFirst() }
        var result: [String] = []
        if reference.isImplicitMember {
            let kinds: [TokenKind] = reference.expectedKind.map { [$0] } ?? [.color, .number, .font]
            for kind in kinds { for ns in Self.namespaces[kind] ?? [] { result.append(Self.key([ns] + path)) } }
            for depth in stride(from: reference.scope.count, through: 1, by: -1) {
                result.append(Self.key(Array(reference.scope.prefix(depth)) + path))
            }
            return result
        }
        for depth in stride(from: reference.scope.count, through: 0, by: -1) {
            result.append(Self.key(Array(reference.scope.prefix(depth)) + path))
        }
        // `UIColor.appX` may be declared as `Color.appX` (and the other way round).
        for (_, names) in Self.namespaces where path.count > 1 && names.contains(path[0]) {
            for alternative in names where alternative != path[0] {
                result.append(Self.key([alternative] + path.dropFirst()))
            }
        }
        return result
    }

    private func helperCandidates(_ callee: TokenReference) -> [HelperFunction] {
        var reference = callee
        reference.isImplicitMember = callee.isImplicitMember
        var found: [HelperFunction] = []
        for candidate in candidates(for: reference) {
            if let list = helpers[candidate] { found.append(contentsOf: list) }
        }
        return found
    }

    // MARK: - Evaluation

    public func value(of qualifiedName: String) -> Result<TokenValue, EvaluationError> {
        if let cached = cache[qualifiedName] { return cached }
        guard let definition = definitions[qualifiedName] else {
            return .failure(EvaluationError(rule: "reference", message: "unknown token \(qualifiedName)", location: nil))
        }
        if let start = inProgress.firstIndex(of: qualifiedName) {
            let cycle = (inProgress[start...] + [qualifiedName]).joined(separator: " -> ")
            return .failure(EvaluationError(rule: "reference", message: "cyclic reference: \(cycle)", location: definition.location))
        }
        inProgress.append(qualifiedName)
        let result = evaluate(definition.expression, kind: definition.declaredKind, parameters: [:], depth: 0)
        inProgress.removeLast()
        cache[qualifiedName] = result
        return result
    }

    /// The name a token is written with in the design system, without a color/number/font namespace:
    /// `Color.appTextPrimary` -> `appTextPrimary`, `ElevateAliases.Action.fill` stays as is.
    public static func displayName(_ qualifiedName: String) -> String {
        let parts = qualifiedName.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count > 1, namespaces.values.contains(where: { $0.contains(parts[0]) }) || parts[0] == "Asset" {
            return parts.dropFirst().joined(separator: ".")
        }
        return qualifiedName
    }

    /// Every evaluation problem, one finding per failing token (at the token) plus graph findings. Deterministic.
    public func findings() -> [Finding] {
        var result = graphFindings
        for key in definitions.keys.sorted() {
            guard let definition = definitions[key], definition.declaredKind != .other else { continue }
            if case .failure(let error) = value(of: key) {
                var related: [SourceLocation] = []
                if let at = error.location, at != definition.location { related.append(at) }
                result.append(Finding(
                    rule: error.rule, severity: .error, subject: Self.displayName(key),
                    message: "\(Self.displayName(key)): \(error.message)",
                    location: definition.location, relatedLocations: related))
            }
        }
        return result
    }

    private typealias Outcome = Result<TokenValue, EvaluationError>
    private static let maxDepth = 64

    private func fail(_ rule: String, _ message: String, _ at: SourceLocation?) -> Outcome {
        .failure(EvaluationError(rule: rule, message: message, location: at))
    }

    private func evaluate(_ expression: TokenExpression, kind: TokenKind?, parameters: [String: TokenValue], depth: Int) -> Outcome {
        guard depth < Self.maxDepth else { return fail("parse", "expression nests too deeply (over \(Self.maxDepth) levels)", nil) }
        let next = depth + 1
        switch expression {
        case .string(let s): return .success(.string(s))
        case .number(let n): return .success(.number(n))
        case .bool(let b): return .success(.bool(b))
        case .enumCase(let name): return .success(.enumCase(name))
        case .color(let c): return .success(.color(AppearanceColor(constant: c)))

        case .hexColor(let inner, let at):
            return evaluate(inner, kind: .string, parameters: parameters, depth: next).flatMap { value in
                guard case .string(let text) = value else { return fail("parse", "Color(hex:) needs a string", at) }
                guard let color = ColorValue(hex: text) else {
                    return fail("parse", "invalid hex color \"\(text)\" (expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA)", at)
                }
                return .success(.color(AppearanceColor(constant: color)))
            }

        case .rgb(let r, let g, let b, let opacity):
            var components: [Double] = []
            for part in [r, g, b, opacity ?? .number(1)] {
                switch evaluate(part, kind: .number, parameters: parameters, depth: next) {
                case .success(.number(let n)): components.append(n)
                case .success: return fail("parse", "Color(red:green:blue:) needs numbers", nil)
                case .failure(let e): return .failure(e)
                }
            }
            return .success(.color(AppearanceColor(constant: ColorValue(
                red: components[0], green: components[1], blue: components[2], alpha: components[3]))))

        case .white(let w, let opacity):
            var components: [Double] = []
            for part in [w, opacity ?? .number(1)] {
                switch evaluate(part, kind: .number, parameters: parameters, depth: next) {
                case .success(.number(let n)): components.append(n)
                case .success: return fail("parse", "Color(white:opacity:) needs numbers", nil)
                case .failure(let e): return .failure(e)
                }
            }
            return .success(.color(AppearanceColor(constant: ColorValue(white: components[0], alpha: components[1]))))

        case .adaptive(let branches):
            var evaluated: [Appearance: AppearanceColor] = [:]
            for (appearance, branch) in branches {
                switch evaluate(branch, kind: .color, parameters: parameters, depth: next) {
                case .success(.color(let c)): evaluated[appearance] = c
                case .success(.string(let text)):
                    // Helpers often take hex strings per appearance.
                    guard let c = ColorValue(hex: text) else { return fail("parse", "invalid hex color \"\(text)\"", nil) }
                    evaluated[appearance] = AppearanceColor(constant: c)
                case .success: return fail("parse", "an appearance branch is not a color", nil)
                case .failure(let e): return .failure(e)
                }
            }
            guard !evaluated.isEmpty else { return fail("parse", "no appearance given", nil) }
            var values: [Appearance: ColorValue] = [:]
            var explicit: AppearanceSet = []
            for appearance in Appearance.allCases {
                var key = appearance
                while evaluated[key] == nil, let fallback = key.fallback { key = fallback }
                guard let branch = evaluated[key] ?? evaluated.values.first else { continue }
                values[appearance] = branch[appearance]
                if evaluated[appearance] != nil || branch.explicit.contains(appearance) { explicit.insert(appearance) }
            }
            return .success(.color(AppearanceColor(values: values, explicit: explicit)))

        case .opacity(let base, let amount):
            let baseValue = evaluate(base, kind: .color, parameters: parameters, depth: next)
            let amountValue = evaluate(amount, kind: .number, parameters: parameters, depth: next)
            switch (baseValue, amountValue) {
            case (.success(.color(let c)), .success(.number(let n))):
                return .success(.color(c.map { $0.multiplyingAlpha(n) }))
            case (.failure(let e), _), (_, .failure(let e)): return .failure(e)
            default: return fail("parse", ".opacity() needs a color and a number", nil)
            }

        case .reference(let reference):
            if reference.path.count == 1, !reference.isImplicitMember, let bound = parameters[reference.path[0]] {
                return .success(bound)
            }
            if let target = resolve(reference) {
                return value(of: target).mapError { error in
                    // Report the innermost cause once; the outer token only points at it.
                    error.message.hasPrefix("cyclic") || error.location != nil ? error
                        : EvaluationError(rule: error.rule, message: error.message, location: reference.location)
                }
            }
            if let builtIn = builtIn(reference, kind: kind) { return .success(builtIn) }
            return fail("reference", "\(reference.text) does not name a token", reference.location)

        case .parameter(let name):
            guard let bound = parameters[name] else { return fail("parse", "parameter \(name) is not bound", nil) }
            return .success(bound)

        case .call(let callee, let arguments):
            return call(callee, arguments: arguments, kind: kind, parameters: parameters, depth: next)

        case .font(let font):
            return evaluateFont(font, parameters: parameters, depth: next)

        case .fontModifier(let base, let name, let argument):
            let baseValue = evaluate(base, kind: .font, parameters: parameters, depth: next)
            guard case .success(.font(var font)) = baseValue else {
                if case .failure(let e) = baseValue { return .failure(e) }
                return fail("parse", ".\(name)() applies to a font", nil)
            }
            let argumentValue = argument.map { evaluate($0, kind: nil, parameters: parameters, depth: next) }
            switch name {
            case "relativeTo":
                if case .success(.enumCase(let style))? = argumentValue { font.textStyle = style; font.scales = true }
            case "weight":
                if case .success(.enumCase(let weight))? = argumentValue { font.weight = weight }
            case "bold": font.weight = "bold"
            default: break // italic(), monospacedDigit() ... do not change size, weight or scaling
            }
            return .success(.font(font))

        case .arithmetic(let lhs, let op, let rhs):
            let l = evaluate(lhs, kind: .number, parameters: parameters, depth: next)
            let r = evaluate(rhs, kind: .number, parameters: parameters, depth: next)
            switch (l, r) {
            case (.success(.number(let a)), .success(.number(let b))):
                switch op {
                case "+": return .success(.number(a + b))
                case "-": return .success(.number(a - b))
                case "*": return .success(.number(a * b))
                case "/" where b != 0: return .success(.number(a / b))
                default: return fail("parse", "cannot evaluate \(op) here", nil)
                }
            case (.failure(let e), _), (_, .failure(let e)): return .failure(e)
            default: return fail("parse", "arithmetic needs numbers", nil)
            }

        case .unevaluable(let reason, let at):
            return fail("parse", reason, at)
        }
    }

    private func builtIn(_ reference: TokenReference, kind: TokenKind?) -> TokenValue? {
        guard let name = reference.path.last else { return nil }
        let prefix = reference.path.dropLast()
        let colorContext = prefix.isEmpty ? (kind == .color || kind == nil) : Self.namespaces[.color]!.contains(prefix.joined(separator: "."))
        if colorContext, let color = SystemColors.color(named: name) { return .color(color) }
        let fontContext = prefix.isEmpty ? (kind == .font) : Self.namespaces[.font]!.contains(prefix.joined(separator: "."))
        if fontContext, let style = SystemColors.textStyles[name] {
            return .font(FontValue(size: style.size, weight: style.weight, face: nil, textStyle: name, scales: true, location: reference.location))
        }
        return nil
    }

    private func call(_ callee: TokenReference, arguments: [CallArgument], kind: TokenKind?,
                      parameters: [String: TokenValue], depth: Int) -> Outcome {
        var values: [(label: String?, value: TokenValue)] = []
        for argument in arguments {
            switch evaluate(argument.value, kind: nil, parameters: parameters, depth: depth) {
            case .success(let v): values.append((argument.label, v))
            case .failure(let e): return .failure(e)
            }
        }
        var lastError: EvaluationError?
        // Overloads (`adaptive(light: String, ...)` and `adaptive(light: Color, ...)`): the first that binds and evaluates wins.
        for helper in helperCandidates(callee) {
            guard let bound = bind(helper, values) else { continue }
            let key = "call:" + Self.key(helper.qualifiedName)
            if inProgress.contains(key) { return fail("reference", "\(callee.text) calls itself", callee.location) }
            inProgress.append(key)
            let result = evaluate(helper.body, kind: kind, parameters: bound, depth: depth)
            inProgress.removeLast()
            switch result {
            case .success: return result
            case .failure(let e): lastError = e
            }
        }
        if let lastError { return .failure(lastError) }
        // A helper we cannot read (defined in a binary framework, say) but called with light:/dark: labels is adaptive.
        let labels = Dictionary(values.compactMap { v in v.label.map { ($0, v.value) } }, uniquingKeysWith: { a, _ in a })
        if let light = labels["light"] ?? labels["any"], let dark = labels["dark"] {
            var branches: [Appearance: TokenExpression] = [:]
            func expression(_ value: TokenValue) -> TokenExpression? {
                switch value {
                case .color(let c): return .adaptive([.light: .color(c[.light]), .dark: .color(c[.dark])])
                case .string(let s): return .string(s)
                default: return nil
                }
            }
            guard let l = expression(light), let d = expression(dark) else {
                return fail("parse", "\(callee.text)(light:dark:) needs colors or hex strings", callee.location)
            }
            branches[.light] = l
            branches[.dark] = d
            if let hc = labels["lightHighContrast"].flatMap(expression) { branches[.lightHighContrast] = hc }
            if let hc = labels["darkHighContrast"].flatMap(expression) { branches[.darkHighContrast] = hc }
            return evaluate(.adaptive(branches), kind: .color, parameters: [:], depth: depth)
        }
        return fail("reference", "unknown helper \(callee.text)(\(arguments.map { ($0.label ?? "_") + ":" }.joined()))", callee.location)
    }

    private func bind(_ helper: HelperFunction, _ arguments: [(label: String?, value: TokenValue)]) -> [String: TokenValue]? {
        var bound: [String: TokenValue] = [:]
        var index = 0
        for parameter in helper.parameters {
            if index < arguments.count, arguments[index].label == parameter.label {
                bound[parameter.name] = arguments[index].value
                index += 1
            } else if let defaultValue = parameter.defaultValue,
                      case .success(let v) = evaluate(defaultValue, kind: nil, parameters: bound, depth: 1) {
                bound[parameter.name] = v
            } else {
                return nil
            }
        }
        return index == arguments.count ? bound : nil
    }

    private func evaluateFont(_ font: FontExpression, parameters: [String: TokenValue], depth: Int) -> Outcome {
        func number(_ e: TokenExpression?) -> Result<Double?, EvaluationError> {
            guard let e else { return .success(nil) }
            switch evaluate(e, kind: .number, parameters: parameters, depth: depth) {
            case .success(.number(let n)): return .success(n)
            case .success: return .failure(EvaluationError(rule: "parse", message: "font size is not a number", location: font.location))
            case .failure(let err): return .failure(err)
            }
        }
        func name(_ e: TokenExpression?) -> String? {
            guard let e, case .success(let v) = evaluate(e, kind: nil, parameters: parameters, depth: depth) else { return nil }
            switch v {
            case .enumCase(let s), .string(let s): return s
            default: return nil
            }
        }
        switch font.kind {
        case .metricsScaled:
            guard let base = font.base else { return fail("parse", "scaledFont(for:) without a font", font.location) }
            return evaluate(base, kind: .font, parameters: parameters, depth: depth).flatMap { value in
                guard case .font(var f) = value else { return fail("parse", "scaledFont(for:) needs a font", font.location) }
                f.scales = true
                f.textStyle = f.textStyle ?? name(font.relativeTo) ?? "body"
                return .success(.font(f))
            }
        case .textStyle:
            let style = name(font.relativeTo) ?? "body"
            let known = SystemColors.textStyles[style]
            return .success(.font(FontValue(size: known?.size, weight: name(font.weight) ?? known?.weight, face: nil,
                                            textStyle: style, scales: true, location: font.location)))
        case .system, .custom:
            switch number(font.size) {
            case .failure(let e): return .failure(e)
            case .success(let size):
                let style = font.isFixedSize ? nil : name(font.relativeTo)
                return .success(.font(FontValue(size: size, weight: name(font.weight), face: name(font.face),
                                                textStyle: style, scales: style != nil, location: font.location)))
            }
        }
    }
}
