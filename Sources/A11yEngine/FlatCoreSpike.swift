import Foundation

// SPIKE, branch `flat-core-spike` only (issue 12, docs/flat-core-plan.md): what a token costs when the IR is lowered to
// flat nodes and evaluated with values that hold no counted reference, inside the product's own data structures (its
// declarations, its interpreter's indexes, its color types), for the constructs the 5k synthetic system's tokens use.
// Not an evaluator of the product: it covers a handful of node kinds and checks each token it evaluates against the
// interpreter's value. `a11y-bench flat PATH` runs it.

/// A lowered program: nodes in one array, children and names as integers.
final class FlatProgram {
    enum Op: UInt8 {
        case number, string, bool, nilLiteral
        /// A local in the frame: `a` its slot.
        case local
        /// A name that is not a local: `a` its symbol (resolved at the call that uses it).
        case global
        /// `.name`: `a` its symbol.
        case implicitMember
        /// `base.name`: `a` the base node, `b` the symbol.
        case member
        /// `callee(args)`: `a` the callee node, `b` the first argument, `c` their count.
        case call
        /// `{ params in body }`: `a` the closure definition.
        case closure
        case ternary
        /// `==` (`flag` 0) or `!=` (1): `a`, `b` the sides.
        case equality
    }

    struct Node {
        var op: Op
        var flag: UInt8 = 0
        var a: Int32 = 0, b: Int32 = 0, c: Int32 = 0
    }

    struct Argument {
        var label: Int32  // -1: none
        var value: Int32
    }

    /// A closure: its parameters take the first slots of its frame, the captured locals the next ones.
    struct ClosureDefinition {
        var parameterCount: Int32
        /// For each captured local: its slot in the frame that makes the closure.
        var capturedFrom: [Int32]
        var body: Int32
        var frameSize: Int32
    }

    struct FunctionDefinition {
        var parameterLabels: [Int32]  // -1: `_`
        var body: Int32
        var frameSize: Int32
    }

    var nodes: [Node] = []
    var locations: [SourceLocation] = []
    var numbers: [Double] = []
    var strings: [String] = []
    /// String literals, not interned: most are read once (a token's hex).
    var literals: [String] = []
    private var stringIDs = NameMap<Int32>()
    var arguments: [Argument] = []
    var closures: [ClosureDefinition] = []
    var functions: [FunctionDefinition] = []

    func symbol(_ string: String) -> Int32 {
        let key = NameKey(string)
        if let id = stringIDs[key] { return id }
        let id = Int32(strings.count)
        strings.append(string)
        stringIDs[key] = id
        return id
    }

    /// Symbols the evaluator compares with, interned first.
    lazy var userInterfaceStyle = symbol("userInterfaceStyle")
    lazy var dark = symbol("dark")
    lazy var light = symbol("light")
    lazy var hex = symbol("hex")

    private func add(_ node: Node, at location: SourceLocation) -> Int32 {
        nodes.append(node)
        locations.append(location)
        return Int32(nodes.count - 1)
    }

    /// Lexical scopes while lowering one body: names to slots, innermost last. A closure's body starts a frame of its
    /// own; a name of an enclosing frame it uses becomes one of its captures.
    private struct Frame {
        var slots: [Int32: Int32] = [:]
        var size: Int32 = 0
        var captures: [Int32] = []  // slots in the enclosing frame, in capture order
    }
    private var frames: [Frame] = []

    private func slot(of symbol: Int32) -> Int32? { slot(of: symbol, frame: frames.count - 1) }

    private func slot(of symbol: Int32, frame index: Int) -> Int32? {
        guard index >= 0 else { return nil }
        if let slot = frames[index].slots[symbol] { return slot }
        guard let outer = slot(of: symbol, frame: index - 1) else { return nil }
        let slot = frames[index].size
        frames[index].size += 1
        frames[index].slots[symbol] = slot
        frames[index].captures.append(outer)
        return slot
    }

    /// A function's body lowered with its parameters in the first slots; nil when it uses a construct the spike lacks.
    func lowerFunction(_ parameters: [Parameter], body: [Stmt]) -> FunctionDefinition? {
        guard body.count == 1, case .expression(let e) = body[0].kind else { return nil }
        var frame = Frame()
        for p in parameters {
            frame.slots[symbol(p.name)] = frame.size
            frame.size += 1
        }
        frames.append(frame)
        defer { frames.removeLast() }
        guard let node = lower(e) else { return nil }
        return FunctionDefinition(parameterLabels: parameters.map { $0.label.map(symbol) ?? -1 }, body: node, frameSize: frames.last!.size)
    }

    /// An expression outside any function (a static member's initial value).
    func lowerTopLevel(_ e: Expr) -> Int32? {
        frames.append(Frame())
        defer { frames.removeLast() }
        return lower(e)
    }

    func lower(_ e: Expr) -> Int32? {
        switch e.kind {
        case .number(let n):
            numbers.append(n)
            return add(Node(op: .number, a: Int32(numbers.count - 1)), at: e.location)
        case .string(let s):
            literals.append(s)
            return add(Node(op: .string, a: Int32(literals.count - 1)), at: e.location)
        case .bool(let b): return add(Node(op: .bool, a: b ? 1 : 0), at: e.location)
        case .nilLiteral: return add(Node(op: .nilLiteral), at: e.location)
        case .name(let n):
            let s = symbol(n)
            if let slot = slot(of: s) { return add(Node(op: .local, a: slot), at: e.location) }
            return add(Node(op: .global, a: s), at: e.location)
        case .implicitMember(let n): return add(Node(op: .implicitMember, a: symbol(n)), at: e.location)
        case .member(let base, let name):
            guard let b = lower(base) else { return nil }
            return add(Node(op: .member, a: b, b: symbol(name)), at: e.location)
        case .call(let callee, let args):
            guard let c = lower(callee) else { return nil }
            var lowered: [Argument] = []
            for arg in args {
                guard let v = lower(arg.value) else { return nil }
                lowered.append(Argument(label: arg.label.map(symbol) ?? -1, value: v))
            }
            let first = Int32(arguments.count)
            arguments.append(contentsOf: lowered)
            return add(Node(op: .call, a: c, b: first, c: Int32(lowered.count)), at: e.location)
        case .closure(let parameters, let body):
            guard body.count == 1, case .expression(let inner) = body[0].kind else { return nil }
            var frame = Frame()
            for p in parameters {
                frame.slots[symbol(p)] = frame.size
                frame.size += 1
            }
            frames.append(frame)
            guard let b = lower(inner) else { frames.removeLast(); return nil }
            let done = frames.removeLast()
            closures.append(ClosureDefinition(parameterCount: Int32(parameters.count), capturedFrom: done.captures, body: b,
                                              frameSize: done.size))
            return add(Node(op: .closure, a: Int32(closures.count - 1)), at: e.location)
        case .ternary(let c, let t, let f):
            guard let a = lower(c), let b = lower(t), let d = lower(f) else { return nil }
            return add(Node(op: .ternary, a: a, b: b, c: d), at: e.location)
        case .binary(let op, let l, let r) where op == "==" || op == "!=":
            guard let a = lower(l), let b = lower(r) else { return nil }
            return add(Node(op: .equality, flag: op == "==" ? 0 : 1, a: a, b: b), at: e.location)
        default:
            return nil
        }
    }
}

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

/// Evaluates a `FlatProgram` for the spike's constructs. `unsupported` is set when it meets one it lacks.
final class FlatEvaluator {
    let program: FlatProgram
    let interpreter: Interpreter
    var slots = [FlatValue](repeating: .none, count: 1024)
    /// The running frame's first slot, and the first slot no frame uses (a call's frame starts there).
    var base = 0, top = 0
    var colors: [AppearanceColor] = []
    var closureValues: [(definition: Int32, captures: Int32)] = []
    var captured: [FlatValue] = []
    var traitReads: Interpreter.TraitReads = []
    var unsupported = false

    /// What a call of a name calls, decided at its first call (the spike's tokens are all members of one owner).
    enum CallPlan {
        case function(Int32)  // FlatProgram.functions
        case color
    }
    var plans: [CallPlan?] = []  // by the callee's symbol
    /// The owner whose members the code being lowered sees (the spike's tokens are members of one type).
    var owner = ""

    init(program: FlatProgram, interpreter: Interpreter) {
        self.program = program
        self.interpreter = interpreter
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
        case .global: unsupported = true; return .unknown
        case .member:
            guard case .traits(let order) = evaluate(n.a), n.b == program.userInterfaceStyle else { unsupported = true; return .unknown }
            traitReads.insert(.style)
            return .platformCase(Appearance.allCases[Int(order)].isDark ? program.dark : program.light)
        case .equality:
            guard case .platformCase(let l) = evaluate(n.a), case .platformCase(let r) = evaluate(n.b) else { unsupported = true; return .unknown }
            return .bool((l == r) == (n.flag == 0))
        case .ternary:
            guard case .bool(let b) = evaluate(n.a) else { unsupported = true; return .unknown }
            return evaluate(b ? n.b : n.c)
        case .closure:
            let start = Int32(captured.count)
            for i in 0..<program.closures[Int(n.a)].capturedFrom.count {
                captured.append(slots[base + Int(program.closures[Int(n.a)].capturedFrom[i])])
            }
            closureValues.append((n.a, start))
            return .closure(Int32(closureValues.count - 1))
        case .call:
            return call(n)
        }
    }

    /// Room for a frame of `size` slots at `top`: its first slot.
    private func push(_ size: Int32) -> Int {
        let frame = top
        top += Int(size)
        if top > slots.count { slots.append(contentsOf: repeatElement(FlatValue.none, count: top - slots.count + 256)) }
        return frame
    }

    private func plan(_ n: FlatProgram.Node) -> CallPlan? {
        let callee = program.nodes[Int(n.a)]
        guard callee.op == .global else { return nil }
        let symbol = Int(callee.a)
        if symbol < plans.count, let known = plans[symbol] { return known }
        let name = program.strings[symbol]
        let plan: CallPlan
        if name == "Color" || name == "UIColor" {
            plan = .color
        } else {
            let candidates = interpreter.functions(owner, name)
            guard candidates.count == 1, case .function(let parameters, let body) = candidates[0].kind,
                  let lowered = program.lowerFunction(parameters, body: body) else { return nil }
            program.functions.append(lowered)
            plan = .function(Int32(program.functions.count - 1))
        }
        if plans.count <= symbol { plans.append(contentsOf: repeatElement(nil, count: symbol + 1 - plans.count)) }
        plans[symbol] = plan
        return plan
    }

    private func call(_ n: FlatProgram.Node) -> FlatValue {
        guard let plan = plan(n) else { unsupported = true; return .unknown }
        switch plan {
        case .function(let f):
            guard Int(n.c) == program.functions[Int(f)].parameterLabels.count else { unsupported = true; return .unknown }
            let frame = push(program.functions[Int(f)].frameSize)
            defer { top = frame }
            for i in 0..<Int(n.c) {
                let argument = program.arguments[Int(n.b) + i]
                guard argument.label == program.functions[Int(f)].parameterLabels[i] else { unsupported = true; return .unknown }
                slots[frame + i] = evaluate(argument.value)
            }
            let saved = base
            base = frame
            defer { base = saved }
            return evaluate(program.functions[Int(f)].body)
        case .color:
            guard n.c == 1 else { unsupported = true; return .unknown }
            let argument = program.arguments[Int(n.b)]
            let value = evaluate(argument.value)
            switch value {
            case .color: return argument.label == -1 ? value : { unsupported = true; return .unknown }()
            case .string(let s) where argument.label == program.hex:
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
                slots[frame] = .traits(UInt8(appearance.order))
                let parameterCount = Int(program.closures[d].parameterCount)
                for i in 0..<program.closures[d].capturedFrom.count {
                    slots[frame + parameterCount + i] = captured[Int(captures) + i]
                }
                base = frame
                let value = evaluate(program.closures[d].body)
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
        let program = FlatProgram()
        let evaluator = FlatEvaluator(program: program, interpreter: interpreter)
        var out: [AppearanceColor?] = []
        out.reserveCapacity(tokens.count)
        for d in tokens {
            guard case .stored(let initial?) = d.kind, let node = program.lowerTopLevel(initial) else { out.append(nil); continue }
            evaluator.owner = d.ownerKey
            evaluator.unsupported = false
            let colorCount = evaluator.colors.count
            let value = evaluator.evaluate(node)
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
