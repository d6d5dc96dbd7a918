import SwiftSyntax

/// Decides which `#if` clause is active for the app's platform: iOS with UIKit and SwiftUI. Unknown flags are off
/// unless listed in the project's `flags:`.
struct IfConfigEvaluator {
    let flags: Set<String>

    func activeClause(_ decl: IfConfigDeclSyntax) -> IfConfigClauseSyntax? {
        for clause in decl.clauses {
            guard let condition = clause.condition else { return clause } // #else
            if evaluate(condition) { return clause }
        }
        return nil
    }

    func evaluate(_ expr: ExprSyntax) -> Bool {
        if let bool = expr.as(BooleanLiteralExprSyntax.self) { return bool.literal.tokenKind == .keyword(.true) }
        if let ref = expr.as(DeclReferenceExprSyntax.self) { return flags.contains(ref.baseName.text) }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" { return !evaluate(prefix.expression) }
        if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return evaluate(only.expression)
        }
        if let infix = expr.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text {
            if op == "&&" { return evaluate(infix.leftOperand) && evaluate(infix.rightOperand) }
            if op == "||" { return evaluate(infix.leftOperand) || evaluate(infix.rightOperand) }
        }
        // #if conditions are not folded by the operator table in every case: evaluate `a && b || c` left to right by precedence.
        if let sequence = expr.as(SequenceExprSyntax.self) {
            var orGroups: [[ExprSyntax]] = [[]]
            for element in sequence.elements {
                if let op = element.as(BinaryOperatorExprSyntax.self)?.operator.text {
                    if op == "||" { orGroups.append([]) }
                    continue
                }
                orGroups[orGroups.count - 1].append(element)
            }
            return orGroups.contains { group in !group.isEmpty && group.allSatisfy(evaluate) }
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text {
            let argument = call.arguments.first?.expression.trimmedDescription ?? ""
            switch name {
            case "os": return argument == "iOS"
            case "canImport": return ["UIKit", "SwiftUI", "Foundation", "CoreGraphics", "Combine"].contains(argument.split(separator: ".").first.map(String.init) ?? "")
            case "targetEnvironment": return false // a device build: not the simulator, not Mac Catalyst
            case "arch": return argument == "arm64"
            case "swift", "compiler", "hasFeature", "hasAttribute": return true
            default: return false
            }
        }
        return false
    }
}
