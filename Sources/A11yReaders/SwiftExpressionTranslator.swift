import A11yEngine
import SwiftSyntax

/// Translates one Swift expression into a `TokenExpression`, in the scope where it appears.
struct ExpressionContext {
    /// Where locations come from (not the whole walker: copying its token list per expression was quadratic).
    let locator: SourceLocator
    let scope: [String]
    /// Parameter names inside a helper body: they become `.parameter`.
    let parameters: Set<String>
    /// `let` bindings in a helper body, inlined where used.
    var bindings: [String: ExprSyntax]
    /// Current translation depth: a pathological chain must become a finding, not a stack overflow.
    var depth = 0
    static let maxDepth = 200

    func location(_ node: some SyntaxProtocol) -> A11yEngine.SourceLocation { locator.location(node) }

    func unevaluable(_ node: some SyntaxProtocol) -> TokenExpression {
        var text = node.trimmedDescription.replacingOccurrences(of: "\n", with: " ")
        if text.count > 60 { text = String(text.prefix(57)) + "..." }
        return .unevaluable(reason: "cannot evaluate `\(text)`", at: location(node))
    }

    /// Implicit members that are enum cases of SwiftUI/UIKit types (weights, text styles, designs, appearance
    /// values), not tokens. Anything else written `.name` is a token reference.
    static let enumCases: Set<String> = [
        "ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black",
        "largeTitle", "title", "title1", "title2", "title3", "headline", "subheadline", "body", "callout", "footnote",
        "caption", "caption1", "caption2", "extraLargeTitle", "extraLargeTitle2",
        "default", "rounded", "monospaced", "serif", "dark", "high", "normal", "unspecified",
        "sRGB", "sRGBLinear", "displayP3",
    ]

    /// The expression of a body that is one expression, `return expr`, or `let`s followed by `return expr`.
    mutating func singleExpression(_ body: CodeBlockItemListSyntax) -> ExprSyntax? {
        var result: ExprSyntax?
        for item in body {
            if let decl = item.item.as(VariableDeclSyntax.self), decl.bindingSpecifier.tokenKind == .keyword(.let) {
                for binding in decl.bindings {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                          let value = binding.initializer?.value else { return nil }
                    bindings[name] = value
                }
            } else if let ret = item.item.as(ReturnStmtSyntax.self), let value = ret.expression {
                guard result == nil else { return nil }
                result = value
            } else if let expr = item.item.as(ExprSyntax.self) {
                guard result == nil else { return nil }
                result = expr
            } else {
                return nil
            }
        }
        return result
    }

    mutating func translateBody(_ body: CodeBlockItemListSyntax, expecting kind: A11yEngine.TokenKind?, at: A11yEngine.SourceLocation) -> TokenExpression {
        guard let expression = singleExpression(body) else {
            return .unevaluable(reason: "a computed token must be a single expression", at: at)
        }
        return translate(expression, expecting: kind)
    }

    func path(of expr: ExprSyntax) -> [String]? {
        if let ref = expr.as(DeclReferenceExprSyntax.self) { return [ref.baseName.text] }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base, let basePath = path(of: base) {
            return basePath + [member.declName.baseName.text]
        }
        return nil
    }

    func reference(_ path: [String], implicit: Bool, kind: A11yEngine.TokenKind?, at node: some SyntaxProtocol) -> TokenExpression {
        .reference(TokenReference(path: path, isImplicitMember: implicit, expectedKind: kind, scope: scope, location: location(node)))
    }

    mutating func translate(_ expr: ExprSyntax, expecting kind: A11yEngine.TokenKind?) -> TokenExpression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else {
            return .unevaluable(reason: "expression nests too deeply (over \(Self.maxDepth) levels)", at: location(expr))
        }
        if let string = expr.as(StringLiteralExprSyntax.self) {
            guard string.segments.count == 1, let segment = string.segments.first?.as(StringSegmentSyntax.self) else {
                return unevaluable(expr)
            }
            return .string(segment.content.text)
        }
        if let int = expr.as(IntegerLiteralExprSyntax.self) {
            let text = int.literal.text.replacingOccurrences(of: "_", with: "")
            let value = text.hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) : Int(text)
            return value.map { .number(Double($0)) } ?? unevaluable(expr)
        }
        if let float = expr.as(FloatLiteralExprSyntax.self) {
            return Double(float.literal.text.replacingOccurrences(of: "_", with: "")).map { .number($0) } ?? unevaluable(expr)
        }
        if let bool = expr.as(BooleanLiteralExprSyntax.self) { return .bool(bool.literal.tokenKind == .keyword(.true)) }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            if case .number(let n) = translate(prefix.expression, expecting: .number) { return .number(-n) }
            return .arithmetic(.number(0), operator: "-", translate(prefix.expression, expecting: .number))
        }
        if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            return translate(only.expression, expecting: kind)
        }
        if let infix = expr.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self),
           ["+", "-", "*", "/"].contains(op.operator.text) {
            return .arithmetic(translate(infix.leftOperand, expecting: .number), operator: op.operator.text,
                               translate(infix.rightOperand, expecting: .number))
        }
        if let ref = expr.as(DeclReferenceExprSyntax.self) {
            let name = ref.baseName.text
            if parameters.contains(name) { return .parameter(name) }
            if let bound = bindings[name] {
                bindings[name] = nil // a binding cannot refer to itself
                defer { bindings[name] = bound }
                return translate(bound, expecting: kind)
            }
            return reference([name], implicit: false, kind: kind, at: ref)
        }
        if let member = expr.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            guard let base = member.base else {
                if Self.enumCases.contains(name) && kind != .color { return .enumCase(name) }
                return reference([name], implicit: true, kind: kind, at: member)
            }
            if base.trimmedDescription == "self" || base.trimmedDescription == "Self" {
                return reference([name], implicit: false, kind: kind, at: member)
            }
            if let path = path(of: base) {
                // `UIFontMetrics.default` is not a token.
                if let first = path.first, parameters.contains(first) { return unevaluable(expr) }
                return reference(path + [name], implicit: false, kind: kind, at: member)
            }
            return unevaluable(expr)
        }
        if let call = expr.as(FunctionCallExprSyntax.self) { return translateCall(call, expecting: kind) }
        if let closure = expr.as(ClosureExprSyntax.self) { return translateAppearanceClosure(closure) }
        if let force = expr.as(ForceUnwrapExprSyntax.self) { return translate(force.expression, expecting: kind) }
        if let optional = expr.as(OptionalChainingExprSyntax.self) { return translate(optional.expression, expecting: kind) }
        return unevaluable(expr)
    }

    mutating func arguments(_ call: FunctionCallExprSyntax) -> [CallArgument] {
        var result = call.arguments.map { CallArgument(label: $0.label?.text, value: translate($0.expression, expecting: nil)) }
        if let trailing = call.trailingClosure { result.append(CallArgument(label: nil, value: translateAppearanceClosure(trailing))) }
        return result
    }

    func argument(_ call: FunctionCallExprSyntax, _ label: String?) -> ExprSyntax? {
        call.arguments.first { $0.label?.text == label }?.expression
    }

    mutating func translateCall(_ call: FunctionCallExprSyntax, expecting kind: A11yEngine.TokenKind?) -> TokenExpression {
        let callee = call.calledExpression
        // A method on a value: `x.opacity(0.6)`, `font.relativeTo(.body)`, `Color.adaptive(...)`, `Font.system(...)`.
        if let member = callee.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            guard let base = member.base else {
                // `.system(size:)`, `.custom(...)`: an implicit static member, a font in a font context.
                if let font = translateFont(name, owner: "Font", call: call) { return font }
                return .call(TokenReference(path: [name], isImplicitMember: true, expectedKind: kind, scope: scope, location: location(member)),
                             arguments: arguments(call))
            }
            let basePath = path(of: base)
            // `Color.adaptive(...)`, `ElevateAliases.Action.make(...)`: a static call on a type path (all names capitalized).
            // `Color.black.opacity(0.4)`: a method on a value.
            let isType = basePath.map { p in p.allSatisfy { $0.first?.isUppercase ?? false } } ?? false
            if !isType || (basePath.map { parameters.contains($0[0]) || bindings[$0[0]] != nil } ?? false) {
                let value = translate(base, expecting: nil)
                switch name {
                case "opacity", "withAlphaComponent":
                    guard let amount = call.arguments.first?.expression else { return unevaluable(call) }
                    return .opacity(value, translate(amount, expecting: .number))
                case "relativeTo", "weight", "bold", "italic", "monospacedDigit", "smallCaps", "leading", "width":
                    return .fontModifier(value, name: name, argument: call.arguments.first.map { translate($0.expression, expecting: nil) })
                case "scaledFont":
                    guard let font = argument(call, "for") else { return unevaluable(call) }
                    var style: TokenExpression?
                    if let metrics = base.as(FunctionCallExprSyntax.self), let s = argument(metrics, "forTextStyle") {
                        style = translate(s, expecting: nil)
                    }
                    return .font(FontExpression(kind: .metricsScaled, relativeTo: style, base: translate(font, expecting: .font),
                                                location: location(call)))
                default:
                    return unevaluable(call)
                }
            }
            let owner = basePath?.joined(separator: ".") ?? ""
            if let font = translateFont(name, owner: owner, call: call) { return font }
            if name == "scaledFont" { return unevaluable(call) }
            return .call(TokenReference(path: (basePath ?? []) + [name], expectedKind: kind, scope: scope, location: location(member)),
                         arguments: arguments(call))
        }
        if let ref = callee.as(DeclReferenceExprSyntax.self) {
            let name = ref.baseName.text
            if ["Color", "UIColor", "NSColor", "CGColor"].contains(name) { return translateConstructor(typeName: name, call: call) }
            if ["CGFloat", "Double", "Float", "Int"].contains(name), call.arguments.count == 1, let only = call.arguments.first?.expression {
                return translate(only, expecting: .number)
            }
            if name == "UIFont", let face = argument(call, "name"), let size = argument(call, "size") {
                return .font(FontExpression(kind: .custom, size: translate(size, expecting: .number), face: translate(face, expecting: .string),
                                            location: location(call)))
            }
            return .call(TokenReference(path: [name], expectedKind: kind, scope: scope, location: location(ref)), arguments: arguments(call))
        }
        return unevaluable(call)
    }

    /// `Color(...)` and `UIColor(...)` initializers.
    mutating func translateConstructor(typeName: String, call: FunctionCallExprSyntax) -> TokenExpression {
        let labels = call.arguments.map { $0.label?.text }
        let labeled = labels.compactMap { $0 }
        if let trailing = call.trailingClosure, call.arguments.isEmpty { return translateAppearanceClosure(trailing) }
        if let provider = argument(call, "dynamicProvider"), let closure = provider.as(ClosureExprSyntax.self) {
            return translateAppearanceClosure(closure)
        }
        if let hex = argument(call, "hex") ?? argument(call, "hexString") {
            return .hexColor(translate(hex, expecting: .string), at: location(hex))
        }
        if labeled.contains("red"), labeled.contains("green"), labeled.contains("blue"),
           let r = argument(call, "red"), let g = argument(call, "green"), let b = argument(call, "blue") {
            let alpha = argument(call, "opacity") ?? argument(call, "alpha")
            return .rgb(red: translate(r, expecting: .number), green: translate(g, expecting: .number),
                        blue: translate(b, expecting: .number), opacity: alpha.map { translate($0, expecting: .number) })
        }
        if let white = argument(call, "white") {
            let alpha = argument(call, "opacity") ?? argument(call, "alpha")
            return .white(translate(white, expecting: .number), opacity: alpha.map { translate($0, expecting: .number) })
        }
        // Asset catalog colors: Color("Name"), UIColor(named: "Name").
        if let named = argument(call, "named") ?? (labels == [nil] ? argument(call, nil) : nil),
           let string = named.as(StringLiteralExprSyntax.self), string.segments.count == 1,
           let text = string.segments.first?.as(StringSegmentSyntax.self)?.content.text {
            return .reference(TokenReference(path: ["Asset", text], expectedKind: .color, scope: [], location: location(named)))
        }
        // Wrapping another color is transparent: Color(UIColor ...), Color(uiColor: x), UIColor(x), Color(.systemBackground).
        if call.arguments.count == 1, let only = call.arguments.first,
           only.label == nil || ["uiColor", "nsColor", "cgColor"].contains(only.label?.text ?? "") {
            return translate(only.expression, expecting: .color)
        }
        // A project initializer such as `Color(light:dark:)`.
        return .call(TokenReference(path: [typeName, "init"], expectedKind: .color, scope: scope, location: location(call)),
                     arguments: arguments(call))
    }

    /// `Font.system(size:weight:)`, `Font.system(.body)`, `.custom(_:size:relativeTo:)`, `UIFont.systemFont(ofSize:)`,
    /// `UIFont.preferredFont(forTextStyle:)`; nil when `name` is not a font constructor of `owner`.
    mutating func translateFont(_ name: String, owner: String, call: FunctionCallExprSyntax) -> TokenExpression? {
        let at = location(call)
        let fontOwner = ["Font", "SwiftUI.Font", "UIFont"].contains(owner)
        switch name {
        case "system" where fontOwner:
            if let size = argument(call, "size") {
                return .font(FontExpression(kind: .system, size: translate(size, expecting: .number),
                                            weight: argument(call, "weight").map { translate($0, expecting: nil) }, location: at))
            }
            let style = call.arguments.first { $0.label == nil }.map { translate($0.expression, expecting: nil) }
            return .font(FontExpression(kind: .textStyle, weight: argument(call, "weight").map { translate($0, expecting: nil) },
                                        relativeTo: style, location: at))
        case "custom" where fontOwner:
            let face = call.arguments.first { $0.label == nil }.map { translate($0.expression, expecting: .string) }
            if let fixed = argument(call, "fixedSize") {
                return .font(FontExpression(kind: .custom, size: translate(fixed, expecting: .number), face: face, isFixedSize: true, location: at))
            }
            return .font(FontExpression(kind: .custom, size: argument(call, "size").map { translate($0, expecting: .number) }, face: face,
                                        relativeTo: argument(call, "relativeTo").map { translate($0, expecting: nil) }, location: at))
        case "systemFont" where owner == "UIFont", "boldSystemFont" where owner == "UIFont", "italicSystemFont" where owner == "UIFont",
             "monospacedSystemFont" where owner == "UIFont", "monospacedDigitSystemFont" where owner == "UIFont":
            guard let size = argument(call, "ofSize") else { return nil }
            let weight = name == "boldSystemFont" ? .enumCase("bold") : argument(call, "weight").map { translate($0, expecting: nil) }
            return .font(FontExpression(kind: .system, size: translate(size, expecting: .number), weight: weight, location: at))
        case "preferredFont" where owner == "UIFont":
            return .font(FontExpression(kind: .textStyle, relativeTo: argument(call, "forTextStyle").map { translate($0, expecting: nil) }, location: at))
        default:
            return nil
        }
    }

    // MARK: Appearance switches

    /// `UIColor { traits in traits.userInterfaceStyle == .dark ? A : B }` (also if/else, switch, and
    /// `accessibilityContrast == .high` for the increased-contrast appearances).
    mutating func translateAppearanceClosure(_ closure: ClosureExprSyntax) -> TokenExpression {
        var branches: [Appearance: TokenExpression] = [:]
        var testsContrast = false
        guard split(statements: closure.statements, appearances: Set(Appearance.allCases), into: &branches, contrast: &testsContrast),
              !branches.isEmpty else {
            return unevaluable(closure)
        }
        // Without a contrast test the closure only distinguishes light from dark; HC falls back as iOS does.
        if !testsContrast { branches = branches.filter { !$0.key.isHighContrast } }
        return .adaptive(branches)
    }

    /// Assigns a value to each appearance in `appearances` by walking the closure body's conditions.
    mutating func split(statements: CodeBlockItemListSyntax, appearances: Set<Appearance>,
                        into branches: inout [Appearance: TokenExpression], contrast: inout Bool) -> Bool {
        if let expression = singleExpression(statements) { return split(expression, appearances, &branches, &contrast) }
        // if cond { return A } else { return B }
        guard statements.count == 1, let item = statements.first?.item else { return false }
        if let ifExpr = item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self) ?? item.as(IfExprSyntax.self) {
            return split(ifExpr, appearances, &branches, &contrast)
        }
        if let switchExpr = item.as(ExpressionStmtSyntax.self)?.expression.as(SwitchExprSyntax.self) ?? item.as(SwitchExprSyntax.self) {
            return split(switchExpr, appearances, &branches, &contrast)
        }
        return false
    }

    mutating func split(_ ifExpr: IfExprSyntax, _ appearances: Set<Appearance>, _ branches: inout [Appearance: TokenExpression],
                        _ contrast: inout Bool) -> Bool {
        guard ifExpr.conditions.count == 1, let condition = ifExpr.conditions.first?.condition.as(ExprSyntax.self),
              let (matching, tested) = appearanceSet(condition) else { return false }
        if tested == .contrast { contrast = true }
        guard split(statements: ifExpr.body.statements, appearances: appearances.intersection(matching), into: &branches, contrast: &contrast)
        else { return false }
        switch ifExpr.elseBody {
        case .codeBlock(let block)?:
            return split(statements: block.statements, appearances: appearances.subtracting(matching), into: &branches, contrast: &contrast)
        case .ifExpr(let nested)?:
            return split(nested, appearances.subtracting(matching), &branches, &contrast)
        case nil:
            return false
        }
    }

    mutating func split(_ switchExpr: SwitchExprSyntax, _ appearances: Set<Appearance>, _ branches: inout [Appearance: TokenExpression],
                        _ contrast: inout Bool) -> Bool {
        let subject = switchExpr.subject.trimmedDescription
        let isStyle = subject.hasSuffix("userInterfaceStyle"), isContrast = subject.hasSuffix("accessibilityContrast")
        guard isStyle || isContrast else { return false }
        if isContrast { contrast = true }
        var remaining = appearances
        for caseItem in switchExpr.cases {
            guard let switchCase = caseItem.as(SwitchCaseSyntax.self) else { return false }
            var matched: Set<Appearance>
            switch switchCase.label {
            case .default: matched = remaining
            case .case(let label):
                matched = []
                for item in label.caseItems {
                    let name = String(item.pattern.trimmedDescription.split(separator: ".").last ?? "")
                    matched.formUnion(Self.appearances(for: name, contrast: isContrast) ?? [])
                }
            }
            matched.formIntersection(remaining)
            guard split(statements: switchCase.statements, appearances: matched, into: &branches, contrast: &contrast) else { return false }
            remaining.subtract(matched)
        }
        return true
    }

    mutating func split(_ expr: ExprSyntax, _ appearances: Set<Appearance>, _ branches: inout [Appearance: TokenExpression],
                        _ contrast: inout Bool) -> Bool {
        if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return split(only.expression, appearances, &branches, &contrast)
        }
        if let ternary = expr.as(TernaryExprSyntax.self), let (matching, tested) = appearanceSet(ternary.condition) {
            if tested == .contrast { contrast = true }
            return split(ternary.thenExpression, appearances.intersection(matching), &branches, &contrast)
                && split(ternary.elseExpression, appearances.subtracting(matching), &branches, &contrast)
        }
        if let ifExpr = expr.as(IfExprSyntax.self) { return split(ifExpr, appearances, &branches, &contrast) }
        if let switchExpr = expr.as(SwitchExprSyntax.self) { return split(switchExpr, appearances, &branches, &contrast) }
        let value = translate(expr, expecting: .color)
        for appearance in appearances { branches[appearance] = value }
        return true
    }

    enum TestedTrait { case style, contrast }

    static func appearances(for value: String, contrast: Bool) -> Set<Appearance>? {
        switch (value, contrast) {
        case ("dark", false): return [.dark, .darkHighContrast]
        case ("light", false), ("unspecified", false): return [.light, .lightHighContrast]
        case ("high", true): return [.lightHighContrast, .darkHighContrast]
        case ("normal", true), ("unspecified", true): return [.light, .dark]
        default: return nil
        }
    }

    /// The appearances in which a condition like `traits.userInterfaceStyle == .dark` holds.
    func appearanceSet(_ condition: ExprSyntax) -> (Set<Appearance>, TestedTrait)? {
        if let prefix = condition.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!",
           let (inner, tested) = appearanceSet(prefix.expression) {
            return (Set(Appearance.allCases).subtracting(inner), tested)
        }
        if let tuple = condition.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return appearanceSet(only.expression)
        }
        guard let infix = condition.as(InfixOperatorExprSyntax.self),
              let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text, op == "==" || op == "!=" else { return nil }
        var trait = infix.leftOperand.trimmedDescription, value = infix.rightOperand.trimmedDescription
        if value.hasSuffix("userInterfaceStyle") || value.hasSuffix("accessibilityContrast") || value.hasSuffix("colorScheme") {
            swap(&trait, &value)
        }
        let isContrast = trait.hasSuffix("accessibilityContrast")
        guard isContrast || trait.hasSuffix("userInterfaceStyle") || trait.hasSuffix("colorScheme") else { return nil }
        let name = value.split(separator: ".").last.map(String.init) ?? value
        guard let set = Self.appearances(for: name, contrast: isContrast) else { return nil }
        return (op == "==" ? set : Set(Appearance.allCases).subtracting(set), isContrast ? .contrast : .style)
    }
}
