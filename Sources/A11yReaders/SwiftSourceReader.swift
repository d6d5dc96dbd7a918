import Foundation
import A11yEngine
import SwiftOperators
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Translates a Swift file into the engine's intermediate form: tokens (static members), helpers (single-expression
/// static functions), and component declarations. It reads syntax only (SwiftSyntax, no regex) and evaluates
/// nothing across files: references stay references for `TokenGraph`.
public struct SwiftSourceReader: Sendable {
    public let customFlags: Set<String>

    public init(customFlags: Set<String> = []) {
        self.customFlags = customFlags
    }

    /// Stack for reading one file. SwiftSyntax recurses once per nesting level (a long `.opacity(...)` chain is as
    /// deep as it is long), so a pathological file would overflow a default 8 MiB stack; only touched pages cost memory.
    static let stackSize = 1 << 30

    public func read(source: String, file: String) -> ParsedSource {
        final class Box: @unchecked Sendable { var result: ParsedSource? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            box.result = readOnCurrentThread(source: source, file: file)
            done.signal()
        }
        thread.stackSize = Self.stackSize
        thread.start()
        done.wait()
        return box.result ?? ParsedSource(file: file)
    }

    private func readOnCurrentThread(source: String, file: String) -> ParsedSource {
        let parsed = Parser.parse(source: source)
        // Operators are folded so `a == b ? c : d` and `space8 * 2` arrive as trees, not flat sequences.
        let folded = OperatorTable.standardOperators.foldAll(parsed) { _ in }.as(SourceFileSyntax.self) ?? parsed
        // Built from the text (identical to the tree's, the parser is lossless): building it from the tree recurses per
        // nesting level and overflows the stack on pathological chains.
        let converter = SourceLocationConverter(file: file, source: source)
        if parsed.hasError {
            // A broken file yields only its parse finding: the daemon keeps the last good version in force.
            let diagnostics = ParseDiagnosticsGenerator.diagnostics(for: parsed)
            let first = diagnostics.first
            let location = first.map { converter.location(for: $0.position) }
            return ParsedSource(file: file, findings: [Finding(
                rule: "parse", severity: .error, subject: file,
                message: "\(file) is not valid Swift: \(first?.message ?? "syntax error")",
                location: A11yEngine.SourceLocation(file: file, line: location?.line ?? 1, column: location?.column ?? 1))])
        }
        var walker = DeclarationWalker(file: file, converter: converter, flags: customFlags)
        walker.visit(items: folded.statements.map { Syntax($0.item) }, scope: [], kind: nil)
        return ParsedSource(file: file, tokens: walker.tokens, functions: walker.functions, components: walker.components,
                            findings: walker.findings)
    }
}

/// Turns syntax positions into 1-based file:line:column.
struct SourceLocator {
    let file: String
    let converter: SourceLocationConverter

    func location(_ node: some SyntaxProtocol) -> A11yEngine.SourceLocation {
        let l = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return A11yEngine.SourceLocation(file: file, line: l.line, column: l.column)
    }
}

/// Walks declarations (types, extensions, `#if` clauses) and collects tokens, helpers and components.
struct DeclarationWalker {
    let file: String
    let converter: SourceLocationConverter
    let flags: Set<String>
    var tokens: [TokenDefinition] = []
    var functions: [HelperFunction] = []
    var components: [ComponentDeclaration] = []
    var findings: [Finding] = []

    init(file: String, converter: SourceLocationConverter, flags: Set<String>) {
        self.file = file
        self.converter = converter
        self.flags = flags
    }

    var locator: SourceLocator { SourceLocator(file: file, converter: converter) }

    func location(_ node: some SyntaxProtocol) -> A11yEngine.SourceLocation { locator.location(node) }

    static let componentGroups: Set<String> = ["Colors", "Layout", "Typography"]

    mutating func visit(items: [Syntax], scope: [String], kind: A11yEngine.TokenKind?) {
        for item in items { visit(item, scope: scope, kind: kind) }
    }

    mutating func visit(_ node: Syntax, scope: [String], kind: A11yEngine.TokenKind?) {
        if let ifConfig = node.as(IfConfigDeclSyntax.self) {
            guard let clause = IfConfigEvaluator(flags: flags).activeClause(ifConfig), let elements = clause.elements else { return }
            switch elements {
            case .statements(let list): visit(items: list.map { Syntax($0.item) }, scope: scope, kind: kind)
            case .decls(let list): visit(items: list.map { Syntax($0.decl) }, scope: scope, kind: kind)
            default: break
            }
        } else if let ext = node.as(ExtensionDeclSyntax.self) {
            let name = typeName(ext.extendedType)
            visit(items: ext.memberBlock.members.map { Syntax($0.decl) }, scope: scope + name, kind: Self.kind(ofType: name.joined(separator: ".")))
        } else if let decl = node.asProtocol(NamedDeclSyntax.self), let members = memberBlock(of: node) {
            let name = decl.name.text
            let nested = Set(members.members.compactMap { $0.decl.asProtocol(NamedDeclSyntax.self)?.name.text })
            if !nested.isDisjoint(with: Self.componentGroups) {
                components.append(ComponentDeclaration(qualifiedName: scope + [name], location: location(decl.name)))
            }
            // Component groups imply the kind of their members: Colors hold colors, Layout numbers, Typography fonts.
            let groupKind: A11yEngine.TokenKind? = ["Colors": .color, "Layout": .number, "Typography": .font][name]
            visit(items: members.members.map { Syntax($0.decl) }, scope: scope + [name], kind: groupKind ?? kind)
        } else if let variable = node.as(VariableDeclSyntax.self) {
            visitVariable(variable, scope: scope, kind: kind)
        } else if let function = node.as(FunctionDeclSyntax.self) {
            visitFunction(function, scope: scope)
        } else if let initializer = node.as(InitializerDeclSyntax.self) {
            visitInitializer(initializer, scope: scope)
        }
    }

    func memberBlock(of node: Syntax) -> MemberBlockSyntax? {
        if let d = node.as(EnumDeclSyntax.self) { return d.memberBlock }
        if let d = node.as(StructDeclSyntax.self) { return d.memberBlock }
        if let d = node.as(ClassDeclSyntax.self) { return d.memberBlock }
        if let d = node.as(ActorDeclSyntax.self) { return d.memberBlock }
        return nil
    }

    func typeName(_ type: TypeSyntax) -> [String] {
        if let member = type.as(MemberTypeSyntax.self) { return typeName(member.baseType) + [member.name.text] }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return [identifier.name.text] }
        return [type.trimmedDescription]
    }

    static func kind(ofType name: String) -> A11yEngine.TokenKind? {
        switch name {
        case "Color", "SwiftUI.Color", "UIColor", "ShapeStyle", "CGColor": return .color
        case "CGFloat", "Double", "Float", "Int": return .number
        case "Font", "UIFont", "SwiftUI.Font": return .font
        case "String": return .string
        default: return nil
        }
    }

    static func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    mutating func visitVariable(_ variable: VariableDeclSyntax, scope: [String], kind: A11yEngine.TokenKind?) {
        // Tokens are static members (or top-level constants); instance properties are not tokens.
        guard Self.isStatic(variable.modifiers) || scope.isEmpty else { return }
        for binding in variable.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            var declaredKind = kind
            if let annotation = binding.typeAnnotation?.type {
                declaredKind = Self.kind(ofType: typeName(annotation).joined(separator: ".")) ?? .other
            }
            var context = ExpressionContext(locator: locator, scope: scope, parameters: [], bindings: [:])
            let expression: TokenExpression
            if let value = binding.initializer?.value {
                expression = context.translate(value, expecting: declaredKind)
            } else if let body = binding.accessorBlock.flatMap(Self.getterBody) {
                expression = context.translateBody(body, expecting: declaredKind, at: location(binding))
            } else {
                continue
            }
            // A static that is not a design value (a URL, a formatter) is not a token: only translate failures of
            // values whose kind is known are reported.
            if declaredKind == nil, case .unevaluable = expression { declaredKind = .other }
            tokens.append(TokenDefinition(qualifiedName: scope + [name], declaredKind: declaredKind, expression: expression,
                                          location: location(binding.pattern)))
        }
    }

    static func getterBody(_ block: AccessorBlockSyntax) -> CodeBlockItemListSyntax? {
        switch block.accessors {
        case .getter(let items): return items
        case .accessors(let list):
            return list.first { $0.accessorSpecifier.tokenKind == .keyword(.get) }?.body?.statements
        }
    }

    mutating func visitFunction(_ function: FunctionDeclSyntax, scope: [String]) {
        guard Self.isStatic(function.modifiers) || scope.isEmpty, let body = function.body?.statements else { return }
        let parameters = function.signature.parameterClause.parameters.map(Self.parameter)
        var context = ExpressionContext(locator: locator, scope: scope, parameters: Set(parameters.map(\.name)), bindings: [:])
        guard let expression = context.singleExpression(body) else { return }
        let returnKind = function.signature.returnClause.map { Self.kind(ofType: typeName($0.type).joined(separator: ".")) } ?? nil
        let translated = context.translate(expression, expecting: returnKind)
        var helper = HelperFunction(qualifiedName: scope + [function.name.text], parameters: [], body: translated,
                                    location: location(function.name))
        helper.parameters = parameters.map { p in
            var p = p
            if let d = p.defaultSyntax { p.value.defaultValue = context.translate(d, expecting: nil) }
            return p
        }.map(\.value)
        functions.append(helper)
    }

    /// `init(light: Color, dark: Color) { self.init(UIColor { ... }) }` in `extension Color` is a helper named `init`.
    mutating func visitInitializer(_ initializer: InitializerDeclSyntax, scope: [String]) {
        guard let body = initializer.body?.statements, body.count == 1,
              let call = body.first?.item.as(FunctionCallExprSyntax.self),
              let callee = call.calledExpression.as(MemberAccessExprSyntax.self),
              callee.base?.trimmedDescription == "self", callee.declName.baseName.text == "init" else { return }
        let parameters = initializer.signature.parameterClause.parameters.map(Self.parameter)
        var context = ExpressionContext(locator: locator, scope: scope, parameters: Set(parameters.map(\.name)), bindings: [:])
        let translated: TokenExpression
        if call.arguments.count == 1, call.arguments.first?.label == nil, let only = call.arguments.first?.expression {
            translated = context.translate(only, expecting: .color)
        } else {
            translated = context.translateConstructor(typeName: scope.last ?? "Color", call: call)
        }
        functions.append(HelperFunction(qualifiedName: scope + ["init"], parameters: parameters.map(\.value), body: translated,
                                        location: location(initializer.initKeyword)))
    }

    struct Parameter {
        var value: HelperParameter
        var defaultSyntax: ExprSyntax?
        var name: String { value.name }
    }

    static func parameter(_ p: FunctionParameterSyntax) -> Parameter {
        let first = p.firstName.text
        let label: String? = first == "_" ? nil : first
        let name = p.secondName?.text ?? first
        return Parameter(value: HelperParameter(label: label, name: name), defaultSyntax: p.defaultValue?.value)
    }
}
