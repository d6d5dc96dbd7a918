import A11yEngine
import SwiftOperators
import SwiftSyntax

/// Builds the engine's Swift IR from syntax: expressions, statements, patterns. Knows Swift, not SwiftUI.
struct SwiftIRBuilder {
    let locator: SourceLocator
    let ifConfig: IfConfigEvaluator
    /// Current nesting depth: a pathological chain must become an unsupported node, not a stack overflow.
    private var depth = 0
    static let maxDepth = 200
    /// Where the tree being read starts in the file. Declarations are read as trees of their own (`detached`) and
    /// operator sequences are folded one at a time as they are met, each a new tree whose positions start at 0: its
    /// nodes are located by adding its own position in the file.
    var positionOffset = 0

    init(locator: SourceLocator, ifConfig: IfConfigEvaluator) {
        self.locator = locator
        self.ifConfig = ifConfig
    }

    func location(_ node: some SyntaxProtocol) -> A11yEngine.SourceLocation { locator.location(node, offset: positionOffset) }

    /// `a == b ? c : d` and `space8 * 2` as trees: the sequence folded by the standard operator table (an unknown
    /// operator leaves its part of the sequence as it is), read by `body` with locations kept right.
    mutating func folding<T>(_ sequence: SequenceExprSyntax, _ body: (inout Self, ExprSyntax) -> T) -> T {
        let folded = OperatorTable.standardOperators.foldSingle(sequence) { _ in }
        guard folded.id != ExprSyntax(sequence).id else { return body(&self, folded) }
        let saved = positionOffset
        positionOffset += sequence.position.utf8Offset
        defer { positionOffset = saved }
        return body(&self, folded)
    }

    /// The node's source on one line, whitespace runs collapsed, cut to 60 characters. Reads only the first tokens: an
    /// unsupported view body can be thousands of lines, and nested ones would otherwise re-print it at every level.
    static func snippet(_ node: some SyntaxProtocol) -> String {
        var snippet = Snippet()
        var first = true
        for token in node.tokens(viewMode: .sourceAccurate) {
            if !first { snippet.append(token.leadingTrivia.description) }
            first = false
            snippet.append(token.text)
            if snippet.isFull { break }
            snippet.append(token.trailingTrivia.description)
        }
        return snippet.value
    }

    /// Source text as an unsupported value names it: whitespace runs collapsed, cut to 60 characters.
    struct Snippet {
        private var text = ""
        /// `text.count`, kept as text is appended (counting characters walks the whole text).
        private var characters = 0
        private var pendingSpace = false

        mutating func append(_ piece: String) {
            // Nearly all code is ASCII: its bytes, without grapheme breaking (one ASCII byte is one character here, the
            // one two-byte character, `\r\n`, being whitespace).
            // Written into a buffer and appended once (a scalar at a time cost ~400 instructions a piece), and only
            // until the snippet is full: what follows changes neither `isFull` nor `value`.
            if piece.utf8.allSatisfy({ $0 < 0x80 }) {
                guard !isFull else { return }
                var piece = piece
                piece.withUTF8 { bytes in
                    // A byte writes itself and at most one space before it: the space a piece before left pending.
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count + 1) { out in
                        var written = 0
                        for byte in bytes {
                            if isFull { break }
                            switch byte {
                            case 0x09...0x0D, 0x20: pendingSpace = !text.isEmpty || written > 0; continue
                            default: break
                            }
                            if pendingSpace { out[written] = 0x20; written += 1; pendingSpace = false; characters += 1 }
                            out[written] = byte
                            written += 1
                            characters += 1
                        }
                        text += String(decoding: UnsafeBufferPointer(rebasing: out[..<written]), as: UTF8.self)
                    }
                }
                return
            }
            for character in piece {
                if character.isWhitespace { pendingSpace = !text.isEmpty; continue }
                if pendingSpace { text.append(" "); pendingSpace = false }
                text.append(character)
            }
            characters = text.count
        }

        /// More text would be cut off.
        var isFull: Bool { characters > 60 }
        var value: String { isFull ? String(text.prefix(57)) + "..." : text }
    }

    func unsupported(_ node: some SyntaxProtocol) -> Expr {
        Expr(.unsupported("cannot evaluate `\(Self.snippet(node))`"), at: location(node))
    }

    // MARK: Expressions

    mutating func expression(_ expr: ExprSyntax) -> Expr {
        depth += 1
        defer { depth -= 1 }
        let at = location(expr)
        guard depth <= Self.maxDepth else {
            return Expr(.unsupported("expression nests too deeply (over \(Self.maxDepth) levels)"), at: at)
        }
        if let sequence = expr.as(SequenceExprSyntax.self) {
            depth -= 1  // folding is not a level of the expression
            defer { depth += 1 }
            return folding(sequence) { builder, folded in
                folded.is(SequenceExprSyntax.self) ? builder.unsupported(folded) : builder.expression(folded)
            }
        }
        if let string = expr.as(StringLiteralExprSyntax.self) {
            var text = ""
            for segment in string.segments {
                guard let plain = segment.as(StringSegmentSyntax.self) else { return unsupported(expr) }
                text += plain.content.text
            }
            return Expr(.string(text), at: at)
        }
        if let int = expr.as(IntegerLiteralExprSyntax.self) {
            return Self.numberLiteral(int.literal.text, isFloat: false).map { Expr(.number($0), at: at) } ?? unsupported(expr)
        }
        if let float = expr.as(FloatLiteralExprSyntax.self) {
            return Self.numberLiteral(float.literal.text, isFloat: true).map { Expr(.number($0), at: at) } ?? unsupported(expr)
        }
        if let bool = expr.as(BooleanLiteralExprSyntax.self) { return Expr(.bool(bool.literal.tokenKind == .keyword(.true)), at: at) }
        if expr.is(NilLiteralExprSyntax.self) { return Expr(.nilLiteral, at: at) }
        if let ref = expr.as(DeclReferenceExprSyntax.self) { return Expr(.name(ref.baseName.identifierText), at: at) }
        if expr.is(SuperExprSyntax.self) { return Expr(.name("super"), at: at) }
        if let type = expr.as(TypeExprSyntax.self) { return typePath(type.type, at: at) ?? unsupported(expr) }
        if let member = expr.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.identifierText
            guard let base = member.base else { return Expr(.implicitMember(name), at: at) }
            return Expr(.member(expression(base), name), at: at)
        }
        if let call = expr.as(FunctionCallExprSyntax.self) {
            return Expr(.call(expression(call.calledExpression), arguments(call.arguments, call.trailingClosure,
                                                                            call.additionalTrailingClosures)), at: at)
        }
        if let macro = expr.as(MacroExpansionExprSyntax.self), macro.macroName.text == "colorLiteral" {
            // `#colorLiteral(red:green:blue:alpha:)` is a color initialiser.
            return Expr(.call(Expr(.name("UIColor"), at: at), arguments(macro.arguments, nil, macro.additionalTrailingClosures)), at: at)
        }
        if let tuple = expr.as(TupleExprSyntax.self) {
            let elements = tuple.elements.map { CallArgument(label: $0.label?.identifierText, value: expression($0.expression)) }
            if elements.count == 1, elements[0].label == nil { return elements[0].value }
            return Expr(.tuple(elements), at: at)
        }
        if let closure = expr.as(ClosureExprSyntax.self) { return self.closure(closure) }
        if let ternary = expr.as(TernaryExprSyntax.self) {
            return Expr(.ternary(expression(ternary.condition), expression(ternary.thenExpression), expression(ternary.elseExpression)), at: at)
        }
        if let infix = expr.as(InfixOperatorExprSyntax.self) {
            if let op = infix.operator.as(BinaryOperatorExprSyntax.self) {
                return Expr(.binary(op.operator.text, expression(infix.leftOperand), expression(infix.rightOperand)), at: at)
            }
            if let cast = infix.operator.as(UnresolvedAsExprSyntax.self) {
                _ = cast
                return expression(infix.leftOperand)
            }
            return unsupported(expr)
        }
        if let cast = expr.as(AsExprSyntax.self) { return expression(cast.expression) }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self) {
            let operand = expression(prefix.expression)
            if prefix.operator.text == "-", case .number(let n) = operand.kind { return Expr(.number(-n), at: at) }
            return Expr(.prefix(prefix.operator.text, operand), at: at)
        }
        if let force = expr.as(ForceUnwrapExprSyntax.self) { return expression(force.expression) }
        if let optional = expr.as(OptionalChainingExprSyntax.self) { return expression(optional.expression) }
        if let tryExpr = expr.as(TryExprSyntax.self) { return expression(tryExpr.expression) }
        if let awaitExpr = expr.as(AwaitExprSyntax.self) { return expression(awaitExpr.expression) }
        if let ifExpr = expr.as(IfExprSyntax.self) { return Expr(.statement(ifStatement(ifExpr)), at: at) }
        if let switchExpr = expr.as(SwitchExprSyntax.self) { return Expr(.statement(switchStatement(switchExpr)), at: at) }
        return unsupported(expr)
    }

    /// `Color.self`-style type expressions and generic-free type paths used as values.
    func typePath(_ type: TypeSyntax, at: A11yEngine.SourceLocation) -> Expr? {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return Expr(.name(identifier.name.identifierText), at: at) }
        if let member = type.as(MemberTypeSyntax.self), let base = typePath(member.baseType, at: at) {
            return Expr(.member(base, member.name.identifierText), at: at)
        }
        return nil
    }

    mutating func arguments(_ list: LabeledExprListSyntax, _ trailing: ClosureExprSyntax?,
                            _ additional: MultipleTrailingClosureElementListSyntax) -> [CallArgument] {
        var result = list.map { CallArgument(label: $0.label?.identifierText, value: expression($0.expression)) }
        if let trailing { result.append(CallArgument(label: nil, value: closure(trailing))) }
        for extra in additional { result.append(CallArgument(label: extra.label.identifierText, value: closure(extra.closure))) }
        return result
    }

    mutating func closure(_ closure: ClosureExprSyntax) -> Expr {
        var parameters: [String] = []
        if let signature = closure.signature {
            switch signature.parameterClause {
            case .simpleInput(let names)?: parameters = names.map(\.name.identifierText)
            case .parameterClause(let clause)?: parameters = clause.parameters.map { ($0.secondName ?? $0.firstName).identifierText }
            case nil: break
            }
        }
        return Expr(.closure(parameters: parameters, body: statements(closure.statements)), at: location(closure))
    }

    // MARK: Statements

    mutating func statements(_ items: CodeBlockItemListSyntax) -> [Stmt] {
        var result: [Stmt] = []
        for item in items { result += statement(item.item) }
        return result
    }

    mutating func statement(_ item: CodeBlockItemSyntax.Item) -> [Stmt] {
        let node = Syntax(item)
        let at = location(node)
        switch item {
        case .decl(let decl):
            if let variable = decl.as(VariableDeclSyntax.self) {
                return variable.bindings.map { binding in
                    let names = Self.names(in: binding.pattern)
                    return Stmt(.binding(names: names, value: binding.initializer.map { expression($0.value) }), at: location(binding))
                }
            }
            if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
                guard let clause = self.ifConfig.activeClause(ifConfig), case .statements(let list)? = clause.elements else { return [] }
                return statements(list)
            }
            return [Stmt(.unsupported("cannot evaluate `\(Self.snippet(decl))`"), at: at)]
        case .stmt(let stmt):
            if let ret = stmt.as(ReturnStmtSyntax.self) { return [Stmt(.return(ret.expression.map { expression($0) }), at: at)] }
            if let guardStmt = stmt.as(GuardStmtSyntax.self) {
                return [Stmt(.guard(conditions: conditions(guardStmt.conditions), else: statements(guardStmt.body.statements)), at: at)]
            }
            if let expressionStmt = stmt.as(ExpressionStmtSyntax.self) { return statement(.expr(expressionStmt.expression)) }
            return [Stmt(.unsupported("cannot evaluate `\(Self.snippet(stmt))`"), at: at)]
        case .expr(let expr):
            if let sequence = expr.as(SequenceExprSyntax.self) {
                return folding(sequence) { builder, folded in
                    folded.is(SequenceExprSyntax.self) ? [Stmt(.expression(builder.unsupported(folded)), at: at)] : builder.statement(.expr(folded))
                }
            }
            if let ifExpr = expr.as(IfExprSyntax.self) { return [ifStatement(ifExpr)] }
            if let switchExpr = expr.as(SwitchExprSyntax.self) { return [switchStatement(switchExpr)] }
            if let infix = expr.as(InfixOperatorExprSyntax.self) {
                if infix.operator.is(AssignmentExprSyntax.self) {
                    return [Stmt(.assign(target: expression(infix.leftOperand), operator: nil, value: expression(infix.rightOperand)), at: at)]
                }
                if let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text, ["+=", "-=", "*=", "/=", "|=", "&="].contains(op) {
                    return [Stmt(.assign(target: expression(infix.leftOperand), operator: String(op.dropLast()),
                                         value: expression(infix.rightOperand)), at: at)]
                }
            }
            return [Stmt(.expression(expression(expr)), at: at)]
        }
    }

    static func names(in pattern: PatternSyntax) -> [String] {
        if let identifier = pattern.as(IdentifierPatternSyntax.self) { return [identifier.identifier.identifierText] }
        if let tuple = pattern.as(TuplePatternSyntax.self) { return tuple.elements.flatMap { names(in: $0.pattern) } }
        if pattern.is(WildcardPatternSyntax.self) { return ["_"] }
        return []
    }

    mutating func ifStatement(_ ifExpr: IfExprSyntax) -> Stmt {
        let otherwise: [Stmt]?
        switch ifExpr.elseBody {
        case .codeBlock(let block)?: otherwise = statements(block.statements)
        case .ifExpr(let nested)?: otherwise = [ifStatement(nested)]
        case nil: otherwise = nil
        }
        return Stmt(.if(conditions: conditions(ifExpr.conditions), then: statements(ifExpr.body.statements), else: otherwise),
                    at: location(ifExpr))
    }

    mutating func conditions(_ list: ConditionElementListSyntax) -> [Condition] {
        list.map { element in
            switch element.condition {
            case .expression(let e): return .expression(expression(e))
            case .optionalBinding(let binding):
                let name = Self.names(in: binding.pattern).first ?? "_"
                let value = binding.initializer.map { expression($0.value) } ?? Expr(.name(name), at: location(binding))
                return .optionalBinding(name: name, value: value)
            case .matchingPattern(let matching):
                return .matches(pattern(matching.pattern, binding: false), expression(matching.initializer.value))
            case .availability:
                return .expression(Expr(.bool(true), at: location(element)))
            }
        }
    }

    mutating func switchStatement(_ switchExpr: SwitchExprSyntax) -> Stmt {
        var cases: [SwitchCase] = []
        func add(_ list: SwitchCaseListSyntax, _ builder: inout SwiftIRBuilder) {
            for element in list {
                switch element {
                case .switchCase(let switchCase):
                    let body = builder.statements(switchCase.statements)
                    switch switchCase.label {
                    case .default: cases.append(SwitchCase(patterns: [], guardExpression: nil, body: body))
                    case .case(let label):
                        // Items share the body; a `where` clause belongs to its item.
                        for item in label.caseItems {
                            cases.append(SwitchCase(patterns: [builder.pattern(item.pattern, binding: false)],
                                                    guardExpression: item.whereClause.map { builder.expression($0.condition) }, body: body))
                        }
                    }
                case .ifConfigDecl(let ifConfig):
                    if let clause = builder.ifConfig.activeClause(ifConfig), case .switchCases(let nested)? = clause.elements {
                        add(nested, &builder)
                    }
                }
            }
        }
        add(switchExpr.cases, &self)
        return Stmt(.switch(subject: expression(switchExpr.subject), cases: cases), at: location(switchExpr))
    }

    // MARK: Patterns

    mutating func pattern(_ syntax: PatternSyntax, binding: Bool) -> Pattern {
        if let identifier = syntax.as(IdentifierPatternSyntax.self) { return .binding(identifier.identifier.identifierText) }
        if syntax.is(WildcardPatternSyntax.self) { return .wildcard }
        if let valueBinding = syntax.as(ValueBindingPatternSyntax.self) { return pattern(valueBinding.pattern, binding: true) }
        if let tuple = syntax.as(TuplePatternSyntax.self) { return .tuple(tuple.elements.map { pattern($0.pattern, binding: binding) }) }
        if let expressionPattern = syntax.as(ExpressionPatternSyntax.self) { return pattern(expressionPattern.expression, binding: binding) }
        return .value(unsupported(syntax))
    }

    mutating func pattern(_ expr: ExprSyntax, binding: Bool) -> Pattern {
        if let member = expr.as(MemberAccessExprSyntax.self) { return .enumCase(member.declName.baseName.identifierText, nil) }
        if let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            return .enumCase(member.declName.baseName.identifierText, call.arguments.map { pattern($0.expression, binding: binding) })
        }
        if let patternExpr = expr.as(PatternExprSyntax.self) { return pattern(patternExpr.pattern, binding: binding) }
        if expr.is(DiscardAssignmentExprSyntax.self) { return .wildcard }
        if binding, let ref = expr.as(DeclReferenceExprSyntax.self) { return .binding(ref.baseName.identifierText) }
        if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count > 1 {
            return .tuple(tuple.elements.map { pattern($0.expression, binding: binding) })
        }
        return .value(expression(expr))
    }
}

extension SyntaxProtocol {
    /// The name a named declaration declares (`asProtocol(NamedDeclSyntax.self)?.name`), found by the node's kind: that
    /// cast asked the runtime whether each node type conforms, and its first answer for each scanned every conformance
    /// record of the binary (~0.2 M instructions per type of declaration read). The cases are `NamedDeclSyntax`'s
    /// conformers in swift-syntax 602.
    var declaredName: TokenSyntax? {
        switch Syntax(self).as(SyntaxEnum.self) {
        case .actorDecl(let d): return d.name
        case .associatedTypeDecl(let d): return d.name
        case .classDecl(let d): return d.name
        case .enumDecl(let d): return d.name
        case .functionDecl(let d): return d.name
        case .macroDecl(let d): return d.name
        case .operatorDecl(let d): return d.name
        case .precedenceGroupDecl(let d): return d.name
        case .protocolDecl(let d): return d.name
        case .structDecl(let d): return d.name
        case .typeAliasDecl(let d): return d.name
        default: return nil
        }
    }
}

extension TokenSyntax {
    /// An identifier as Swift sees it: `` `default` `` is the name `default`.
    var identifierText: String {
        let raw = text
        return raw.utf8.first == UInt8(ascii: "`") ? raw.filter { $0 != "`" } : raw
    }
}

extension SwiftIRBuilder {
    /// The value of a number literal as written (`0xFF`, `0b1010`, `1_000`, `0.5`, `1e3`); nil for integers beyond 64
    /// bits.
    static func numberLiteral(_ written: String, isFloat: Bool) -> Double? {
        if let value = written.utf8.withContiguousStorageIfAvailable({ plainDecimal($0, isFloat: isFloat) }) ?? nil { return value }
        // (Only a literal with separators is rebuilt: Foundation's replacing took a tenth of reading a view-heavy system.)
        let text = written.utf8.contains(UInt8(ascii: "_")) ? String(written.filter { $0 != "_" }) : written
        if isFloat { return Double(text) }
        let value: Int64?
        if text.hasPrefix("0x") { value = Int64(text.dropFirst(2), radix: 16) }
        else if text.hasPrefix("0b") { value = Int64(text.dropFirst(2), radix: 2) }
        else if text.hasPrefix("0o") { value = Int64(text.dropFirst(2), radix: 8) }
        else { value = Int64(text) }
        return value.map(Double.init)
    }

    /// `numberLiteral` of a literal's bytes, made a string only when it is not a plain decimal.
    static func numberLiteral(bytes: UnsafeBufferPointer<UInt8>, isFloat: Bool) -> Double? {
        plainDecimal(bytes, isFloat: isFloat) ?? numberLiteral(String(decoding: bytes, as: UTF8.self), isFloat: isFloat)
    }

    /// The value of a decimal literal of at most 15 digits (`16`, `0.5`, `1.25`; a `.` between them only when `isFloat`),
    /// worked out from its bytes; nil for any other form. The same value as parsing its text (`Int64`, `Double`, ~800
    /// instructions a literal): the digits make an integer below 2^53 and the power of ten is below 10^16, both exact
    /// as doubles, and their quotient is rounded once, as the parse rounds the decimal.
    static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>, isFloat: Bool) -> Double? {
        var digits = 0, mantissa = 0, fractionDigits = 0, afterPoint = false
        for byte in bytes {
            if byte == UInt8(ascii: "."), isFloat, !afterPoint, digits > 0 {
                afterPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 15 else { return nil }
            mantissa = mantissa * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            if afterPoint { fractionDigits += 1 }
        }
        guard digits > 0, !afterPoint || fractionDigits > 0 else { return nil }
        var scale = 1.0
        for _ in 0..<fractionDigits { scale *= 10 }
        return Double(mantissa) / scale
    }
}
