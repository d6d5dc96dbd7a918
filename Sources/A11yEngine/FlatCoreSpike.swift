import Foundation

// SPIKE, branch `flat-core-spike` only (issue 12, docs/flat-core-plan.md): what a token costs when the IR is lowered to
// flat nodes and evaluated with values that hold no counted reference, inside the product's own data structures (its
// declarations, its interpreter's indexes, its color types), for the constructs the 5k synthetic system's tokens use.
// Not an evaluator of the product: it covers a handful of node kinds and checks each token it evaluates against the
// interpreter's value. `a11y-bench flat PATH` runs it.

/// A value with no counted reference: strings are literals of the program, colors and closures rows of the evaluator's
/// tables.
enum FlatValue {
    case number(Double)
    case bool(Bool)
    case string(Int32)
    case none
    case color(Int32)
    case closure(Int32)
    case traits(UInt8)  // Appearance.order
    /// A platform enum case (`.dark`): its symbol.
    case platformCase(Int32)
    case unknown
}

/// Evaluates a `LoweredProgram` for the spike's constructs. `unsupported` is set when it meets one it lacks.
final class FlatEvaluator {
    let program: LoweredProgram
    let interpreter: Interpreter
    var slots = [FlatValue](repeating: .none, count: 1024)
    /// The running frame's first slot, and the first slot no frame uses (a call's frame starts there).
    var base = 0, top = 0
    var colors: [AppearanceColor] = []
    var closureValues: [(definition: Int32, captures: Int32)] = []
    var captured: [FlatValue] = []
    var traitReads: Interpreter.TraitReads = []
    var unsupported = false
    let userInterfaceStyle: Int32, dark: Int32, light: Int32, hex: Int32, equals: Int32, notEquals: Int32

    /// What a call of a name calls, decided at its first call (the spike's tokens are all members of one owner).
    enum CallPlan {
        case function(Int32)  // functions
        case color
    }
    var plans: [CallPlan?] = []  // by the callee's symbol
    var functions: [LoweredProgram.Function] = []
    /// The owner whose members the code being evaluated sees.
    var owner = ""

    init(program: LoweredProgram, interpreter: Interpreter) {
        self.program = program
        self.interpreter = interpreter
        (userInterfaceStyle, dark, light, hex) = (program.symbol("userInterfaceStyle"), program.symbol("dark"), program.symbol("light"),
                                                  program.symbol("hex"))
        (equals, notEquals) = (program.symbol("=="), program.symbol("!="))
    }

    /// A body of one expression or one `return` (the spike's helpers and providers).
    func run(_ body: LoweredProgram.Span) -> FlatValue {
        guard body.count == 1 else { unsupported = true; return .unknown }
        let statement = program.nodes[Int(program.lists[Int(body.start)])]
        switch statement.op {
        case .expressionStatement, .returnStatement where statement.a >= 0: return evaluate(statement.a)
        default: unsupported = true; return .unknown
        }
    }

    func evaluate(_ index: Int32) -> FlatValue {
        let n = program.nodes[Int(index)]
        switch n.op {
        case .number: return .number(program.numbers[Int(n.a)])
        case .string: return .string(n.a)
        case .bool: return .bool(n.a != 0)
        case .nilLiteral: return .none
        case .local: return slots[base + Int(n.a)]
        case .implicitMember: return .platformCase(n.a)
        case .member:
            guard case .traits(let order) = evaluate(n.a), n.b == userInterfaceStyle else { unsupported = true; return .unknown }
            traitReads.insert(.style)
            return .platformCase(Appearance.allCases[Int(order)].isDark ? dark : light)
        case .binary where n.c == equals || n.c == notEquals:
            guard case .platformCase(let l) = evaluate(n.a), case .platformCase(let r) = evaluate(n.b) else { unsupported = true; return .unknown }
            return .bool((l == r) == (n.c == equals))
        case .ternary:
            guard case .bool(let b) = evaluate(n.a) else { unsupported = true; return .unknown }
            return evaluate(b ? n.b : n.c)
        case .closure:
            let start = Int32(captured.count)
            for i in 0..<program.closures[Int(n.a)].captures.count {
                captured.append(slots[base + Int(program.closures[Int(n.a)].captures[i].outer)])
            }
            closureValues.append((n.a, start))
            return .closure(Int32(closureValues.count - 1))
        case .call:
            return call(n)
        default:
            unsupported = true
            return .unknown
        }
    }

    /// Room for a frame of `size` slots at `top`: its first slot.
    private func push(_ size: Int32) -> Int {
        let frame = top
        top += Int(size)
        if top > slots.count { slots.append(contentsOf: repeatElement(FlatValue.none, count: top - slots.count + 256)) }
        return frame
    }

    private func plan(_ n: LoweredProgram.Node) -> CallPlan? {
        let callee = program.nodes[Int(n.a)]
        guard callee.op == .name else { return nil }
        let symbol = Int(callee.a)
        if symbol < plans.count, let known = plans[symbol] { return known }
        let name = program.symbols[symbol]
        let plan: CallPlan
        if name == "Color" || name == "UIColor" {
            plan = .color
        } else {
            let candidates = interpreter.functions(owner, name)
            guard candidates.count == 1, case .function(let parameters, let body) = candidates[0].kind,
                  parameters.allSatisfy({ $0.defaultValue == nil }) else { return nil }
            functions.append(program.lowerFunction(parameters, body: body))
            labels.append(parameters.map { $0.label.map(program.symbol) ?? -1 })
            plan = .function(Int32(functions.count - 1))
        }
        if plans.count <= symbol { plans.append(contentsOf: repeatElement(nil, count: symbol + 1 - plans.count)) }
        plans[symbol] = plan
        return plan
    }
    /// Each function's parameter labels (symbols, -1 for `_`).
    var labels: [[Int32]] = []

    private func call(_ n: LoweredProgram.Node) -> FlatValue {
        guard let plan = plan(n) else { unsupported = true; return .unknown }
        switch plan {
        case .function(let f):
            let fi = Int(f)
            guard Int(n.c) == labels[fi].count else { unsupported = true; return .unknown }
            let frame = push(functions[fi].frameSize)
            defer { top = frame }
            for i in 0..<Int(n.c) {
                let argument = program.arguments[Int(n.b) + i]
                guard argument.label == labels[fi][i] else { unsupported = true; return .unknown }
                slots[frame + Int(functions[fi].parameterSlots[i])] = evaluate(argument.value)
            }
            let saved = base
            base = frame
            defer { base = saved }
            return run(functions[fi].body)
        case .color:
            guard n.c == 1 else { unsupported = true; return .unknown }
            let argument = program.arguments[Int(n.b)]
            let value = evaluate(argument.value)
            switch value {
            case .color: return argument.label == -1 ? value : { unsupported = true; return .unknown }()
            case .string(let s) where argument.label == hex:
                guard let c = ColorValue(hex: program.literals[Int(s)]) else { unsupported = true; return .unknown }
                colors.append(AppearanceColor(constant: c))
                return .color(Int32(colors.count - 1))
            case .closure(let id):
                return dynamicColor(id)
            default:
                unsupported = true
                return .unknown
            }
        }
    }

    /// `BuiltIns.dynamicColor`'s rules: the provider runs per appearance unless the traits it read so far tell it apart.
    private func dynamicColor(_ id: Int32) -> FlatValue {
        let (definitionIndex, captures) = closureValues[Int(id)]
        let d = Int(definitionIndex)
        guard program.closures[d].parameterSlots.count == 1 else { unsupported = true; return .unknown }
        let saved = (traitReads, base)
        defer { (traitReads, base) = saved }
        var reads: Interpreter.TraitReads = []
        var color = AppearanceColor(constant: .clear)
        var lightResult: Int32 = -1, darkResult: Int32 = -1
        let frame = push(program.closures[d].frameSize)
        defer { top = frame }
        for appearance in Appearance.allCases {
            let result: Int32
            if let fallback = appearance.fallback, (fallback == .light ? lightResult : darkResult) >= 0,
               appearance.isHighContrast ? !reads.contains(.contrast) : reads.isEmpty {
                result = fallback == .light ? lightResult : darkResult
            } else {
                traitReads = []
                slots[frame + Int(program.closures[d].parameterSlots[0])] = .traits(UInt8(appearance.order))
                for i in 0..<program.closures[d].captures.count {
                    slots[frame + Int(program.closures[d].captures[i].inner)] = captured[Int(captures) + i]
                }
                base = frame
                let value = run(program.closures[d].body)
                base = saved.1
                reads.formUnion(traitReads)
                guard case .color(let c) = value else { unsupported = true; return .unknown }
                result = c
            }
            if appearance == .light { lightResult = result } else if appearance == .dark { darkResult = result }
            color[appearance] = colors[Int(result)][appearance]
        }
        var explicit: AppearanceSet = [.light]
        if reads.contains(.style) { explicit.formUnion([.light, .dark]) }
        if reads.contains(.contrast) { explicit.formUnion(reads.contains(.style) ? .all : [.light, .lightHighContrast]) }
        color.explicit = explicit
        colors.append(color)
        return .color(Int32(colors.count - 1))
    }
}

public enum FlatCoreSpike {
    public struct Result {
        public var tokens = 0
        public var evaluated = 0
        public var agreed = 0
        /// Medians over the runs, one thread: the flat core lowering and evaluating the tokens, and a fresh interpreter
        /// evaluating the same tokens (`staticValue(of:)` in declaration order).
        public var flatMilliseconds = 0.0
        public var interpreterMilliseconds = 0.0
    }

    /// Lowers and evaluates each static stored member of `declarations` with an initial value, and compares each result
    /// with the interpreter's.
    public static func run(declarations: [MemberDeclaration], types: [TypeDeclaration], runs: Int = 15) -> Result {
        let interpreter = Interpreter(declarations: declarations, types: types)
        let tokens = declarations.filter { d in
            guard d.isStatic, case .stored(let initial?) = d.kind, case .call = initial.kind else { return false }
            return true
        }
        let values = evaluateAll(tokens, interpreter: interpreter)
        var result = Result(tokens: tokens.count)
        func milliseconds(_ body: () -> Void) -> Double {
            let start = DispatchTime.now()
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        }
        var flat: [Double] = [], interpreted: [Double] = []
        for _ in 0..<runs {
            flat.append(milliseconds { _ = evaluateAll(tokens, interpreter: interpreter) })
            let fresh = Interpreter(declarations: declarations, types: types)
            interpreted.append(milliseconds { for d in tokens { _ = fresh.staticValue(of: d) } })
        }
        result.flatMilliseconds = flat.sorted()[runs / 2]
        result.interpreterMilliseconds = interpreted.sorted()[runs / 2]
        for (d, value) in zip(tokens, values) {
            guard let value else { continue }
            result.evaluated += 1
            if interpreter.staticValue(of: d) == .color(value) { result.agreed += 1 }
        }
        return result
    }

    /// The measured part (callgrind: `--toggle-collect='*FlatCoreSpike*evaluateAll*'`): lowering and evaluation.
    @inline(never)
    static func evaluateAll(_ tokens: [MemberDeclaration], interpreter: Interpreter) -> [AppearanceColor?] {
        let program = LoweredProgram()
        let evaluator = FlatEvaluator(program: program, interpreter: interpreter)
        var out: [AppearanceColor?] = []
        out.reserveCapacity(tokens.count)
        for d in tokens {
            guard case .stored(let initial?) = d.kind else { out.append(nil); continue }
            let lowered = program.lowerExpression(initial)
            evaluator.owner = d.ownerKey
            evaluator.unsupported = false
            let colorCount = evaluator.colors.count
            let frame = evaluator.top
            evaluator.top += Int(lowered.frameSize)
            let value = evaluator.evaluate(lowered.node)
            evaluator.top = frame
            if !evaluator.unsupported, case .color(let id) = value { out.append(evaluator.colors[Int(id)]) } else { out.append(nil) }
            // A token's intermediate colors are not kept (the table row of its value is copied out above).
            evaluator.colors.removeSubrange(colorCount...)
            evaluator.closureValues.removeAll(keepingCapacity: true)
            evaluator.captured.removeAll(keepingCapacity: true)
        }
        return out
    }
}

extension FlatCoreSpike {
    /// How often each construct occurs in the declarations' bodies and initial values: what a complete lowering must
    /// cover, most used first.
    public static func census(declarations: [MemberDeclaration]) -> [(construct: String, count: Int)] {
        var counts: [String: Int] = [:]
        func note(_ s: String) { counts[s, default: 0] += 1 }
        func expr(_ e: Expr) {
            switch e.kind {
            case .number: note("number")
            case .string: note("string")
            case .bool: note("bool")
            case .nilLiteral: note("nil")
            case .constant: note("constant (data reader)")
            case .unsupported: note("unsupported (reader)")
            case .name: note("name")
            case .implicitMember: note("implicit member")
            case .member(let base, _): note("member"); expr(base)
            case .call(let callee, let args):
                switch callee.kind {
                case .name: note("call of a name")
                case .implicitMember: note("call of an implicit member")
                case .member: note("call of a member")
                default: note("call of another callee")
                }
                expr(callee)
                for a in args { expr(a.value) }
            case .tuple(let elements): note("tuple"); for a in elements { expr(a.value) }
            case .closure(_, let body): note("closure"); stmts(body)
            case .ternary(let a, let b, let c): note("ternary"); expr(a); expr(b); expr(c)
            case .binary(let op, let a, let b): note("binary \(op)"); expr(a); expr(b)
            case .prefix(let op, let a): note("prefix \(op)"); expr(a)
            case .statement(let s): note("if/switch expression"); stmts([s])
            case .perAppearance(let branches): note("per appearance (data reader)"); for (_, b) in branches { expr(b) }
            }
        }
        func stmts(_ list: [Stmt]) {
            for s in list {
                switch s.kind {
                case .expression(let e): note("statement: expression"); expr(e)
                case .binding(_, let v): note("statement: let/var"); v.map(expr)
                case .assign(let t, _, let v): note("statement: assignment"); expr(t); expr(v)
                case .return(let e): note("statement: return"); e.map(expr)
                case .if(let conditions, let then, let otherwise):
                    note("statement: if"); conditionsOf(conditions); stmts(then); otherwise.map(stmts)
                case .guard(let conditions, let otherwise): note("statement: guard"); conditionsOf(conditions); stmts(otherwise)
                case .switch(let subject, let cases):
                    note("statement: switch"); expr(subject)
                    for c in cases { note("switch case"); c.guardExpression.map(expr); stmts(c.body); c.patterns.forEach(pattern) }
                case .unsupported: note("statement: unsupported (reader)")
                }
            }
        }
        func conditionsOf(_ list: [Condition]) {
            for c in list {
                switch c {
                case .expression(let e): note("condition: expression"); expr(e)
                case .optionalBinding(_, let e): note("condition: if let"); expr(e)
                case .matches(let p, let e): note("condition: if case"); pattern(p); expr(e)
                }
            }
        }
        func pattern(_ p: Pattern) {
            switch p {
            case .wildcard: note("pattern: _")
            case .binding: note("pattern: let")
            case .enumCase(_, let sub): note("pattern: enum case"); sub?.forEach(pattern)
            case .tuple(let ps): note("pattern: tuple"); ps.forEach(pattern)
            case .value(let e): note("pattern: value"); expr(e)
            }
        }
        for d in declarations {
            switch d.kind {
            case .stored(let initial): initial.map(expr)
            case .computed(let body): note("declaration: computed property"); stmts(body)
            case .function(let parameters, let body):
                note("declaration: function"); stmts(body); parameters.compactMap(\.defaultValue).forEach(expr)
            case .initializer(let parameters, let body):
                note("declaration: initialiser"); stmts(body); parameters.compactMap(\.defaultValue).forEach(expr)
            case .enumCase(_, let raw): note("declaration: enum case"); raw.map(expr)
            }
        }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

extension FlatCoreSpike {
    /// Every body and value lowered and raised back (`LoweredProgram`): how many there were, and the keys of those that
    /// did not come back as they were.
    public static func roundTrips(_ declarations: [MemberDeclaration]) -> (checked: Int, differing: [String]) {
        let program = LoweredProgram()
        var checked = 0, differing: [String] = []
        for d in declarations {
            switch d.kind {
            case .stored(let initial?), .enumCase(_, let initial?):
                checked += 1
                if program.raise(program.lowerExpression(initial).node) != initial { differing.append(d.key) }
            case .computed(let body):
                checked += 1
                if program.raise(block: program.lowerBody(body).body) != body { differing.append(d.key) }
            case .function(let parameters, let body), .initializer(let parameters, let body):
                checked += 1
                let f = program.lowerFunction(parameters, body: body)
                if program.raise(block: f.body) != body || f.defaults.map({ $0 >= 0 ? program.raise($0) : nil }) != parameters.map(\.defaultValue) {
                    differing.append(d.key)
                }
            default: break
            }
        }
        return (checked, differing)
    }
}
