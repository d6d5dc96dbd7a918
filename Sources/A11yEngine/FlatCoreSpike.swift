import Foundation

// SPIKE, branch `flat-core-spike` only (issue 12, docs/flat-core-plan.md): the flat core's seed. `LoweredProgram` is the
// complete lowering; `FlatEvaluator` evaluates its nodes with values that hold no counted reference where it has a
// native path (the 5k system's token pattern: a project helper, `Color`/`UIColor` from a hex string, a color or a
// provider, `traits.userInterfaceStyle == .dark`, ternaries), and bridges every other node to the interpreter (raised
// back to the IR, evaluated with the locals it reads). `a11y-bench flat PATH` evaluates every static stored member this
// way, compares each with a fresh interpreter's value, counts the members that needed no bridge, and times both on one
// thread. Growing the native paths until no bridge is left is step 1 (the plan's "Step 1 in practice").
// A11Y_FLAT_DEBUG=1 prints each bridged node and each member that differs.

/// A value with no counted reference: literals of the program, colors and closures rows of the evaluator's tables; any
/// other value the core does not hold natively yet is `boxed`, a row of `Value`s.
enum FlatValue {
    case number(Double)
    case bool(Bool)
    case literal(Int32)
    case none
    case color(Int32)
    case closure(Int32)
    case traits(UInt8)  // Appearance.order
    /// A platform enum case (`.dark`): its symbol.
    case platformCase(Int32)
    case boxed(Int32)
    /// A slot not bound yet.
    case unset
}

/// Evaluates a `LoweredProgram`: natively where the spike has a path, else by raising the node back to the IR and
/// asking the interpreter (a bridge, counted in `bridged`: the way on the branch from the spike to the whole core; none
/// may remain when the core replaces the interpreter's evaluation).
final class FlatEvaluator {
    let program: LoweredProgram
    let interpreter: Interpreter
    var slots = [FlatValue](repeating: .unset, count: 1024)
    /// The running frame's first slot, and the first slot no frame uses (a call's frame starts there).
    var base = 0, top = 0
    /// The running frame's type scope and `self`, as `Interpreter.Frame` has them.
    var scope: [String] = []
    var selfValue: Value?
    var colors: [AppearanceColor] = []
    /// Each closure made: its definition, its captures' first row in `captured`, and the frame it was made in (`scopeKey`:
    /// that frame's `scopeKey`, kept so the call plans of its body are found without joining and hashing the scope again).
    var closureValues: [ClosureValue] = []
    struct ClosureValue {
        var definition: Int32, captures: Int32
        var scope: [String], scopeKey: NameKey, selfValue: Value?
    }
    var captured: [FlatValue] = []
    var boxes: [Value] = []
    var traitReads: Interpreter.TraitReads = []
    /// Nodes evaluated through the interpreter since the count was last reset.
    var bridged = 0
    let userInterfaceStyle: Int32, dark: Int32, light: Int32, hex: Int32, equals: Int32, notEquals: Int32

    /// What a call of a name in a scope calls, decided at its first call.
    enum CallPlan {
        case function(Int32)  // functions
        case color
        /// A platform type with no project initialiser (`Font`, `CGFloat`, ...): `BuiltIns.construct`.
        case builtIn(String)
        /// A project struct or class with no initialiser of its own: its memberwise initialiser.
        case memberwise(String)
        case other
    }
    private struct PlanKey: Hashable {
        var scope: NameKey
        var symbol: Int32
        /// The scope's kept hash and the symbol mixed as `NameKey` mixes its own (not a `Hasher`'s SipHash per look-up).
        func _rawHashValue(seed: Int) -> Int { NameKey.finalMix(scope.hash &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(UInt32(bitPattern: symbol)), seed: seed) }
    }
    private var plans: [PlanKey: CallPlan] = [:]
    /// `scope` joined, hashed once per member (the call plans are kept by it).
    var scopeKey = NameKey("")
    var functions: [LoweredProgram.Function] = []
    var labels: [[Int32]] = []
    /// Each function's parameter types: its arguments are evaluated as them (`Interpreter.argumentTypes`).
    var parameterTypes: [[String?]] = []
    /// Each function's declared type: its body is evaluated as it, and an unknown result takes its kind (`Interpreter.invoke`).
    var returnTypes: [String?] = []

    init(program: LoweredProgram, interpreter: Interpreter) {
        self.program = program
        self.interpreter = interpreter
        (userInterfaceStyle, dark, light, hex) = (program.symbol("userInterfaceStyle"), program.symbol("dark"), program.symbol("light"),
                                                  program.symbol("hex"))
        (equals, notEquals) = (program.symbol("=="), program.symbol("!="))
        // Room for the rows `evaluateStoredMember` lets gather before it empties the tables: growing them from empty
        // in every round's fresh interpreter copied each 136-byte color row about twice.
        colors.reserveCapacity(Self.tableRows + 256)
        closureValues.reserveCapacity(Self.tableRows + 256)
        captured.reserveCapacity(Self.tableRows + 256)
    }
    /// Rows the tables may hold before the outermost member's end empties them.
    static let tableRows = 512

    // MARK: Values across the bridge

    func toFlat(_ value: Value) -> FlatValue {
        switch value {
        case .number(let n): return .number(n)
        case .bool(let b): return .bool(b)
        case .none: return .none
        case .color(let c):
            colors.append(c)
            return .color(Int32(colors.count - 1))
        case .traits(let t): return .traits(UInt8(t.appearance.order))
        case .enumCase(let type, let name, let payload) where type.isEmpty && payload.isEmpty: return .platformCase(program.symbol(name))
        default:
            boxes.append(value)
            return .boxed(Int32(boxes.count - 1))
        }
    }

    func toValue(_ value: FlatValue) -> Value {
        switch value {
        case .number(let n): return .number(n)
        case .bool(let b): return .bool(b)
        case .literal(let id): return .string(program.literals[Int(id)])
        case .none, .unset: return .none
        case .color(let id): return .color(colors[Int(id)])
        case .traits(let order): return interpreter.traitValues.traits[Int(order)]
        case .platformCase(let symbol): return .enumCase(type: "", name: program.symbols[Int(symbol)], payload: [])
        case .boxed(let id): return boxes[Int(id)]
        case .closure(let id):
            let c = closureValues[Int(id)], d = program.closures[Int(c.definition)]
            var locals: [String: Value] = [:]
            for (i, capture) in d.captures.enumerated() {
                let v = captured[Int(c.captures) + i]
                if case .unset = v { continue }
                locals[program.symbols[Int(d.slotSymbols[Int(capture.inner)])]] = toValue(v)
            }
            return .closure(.init(parameters: d.parameters.map { program.symbols[Int($0)] }, body: program.raise(block: d.body),
                                  captured: Locals(locals), scope: c.scope, selfValue: c.selfValue))
        }
    }

    /// The node evaluated by the interpreter, in a frame of the locals it reads (the slots its names were lowered to).
    func bridge(_ index: Int32, expected: String?) -> FlatValue {
        bridged += 1
        if ProcessInfo.processInfo.environment["A11Y_FLAT_DEBUG"] != nil { print("bridge: \(program.nodes[Int(index)].op) \(program.raise(index))".prefix(300)) }
        var locals: [String: Value] = [:]
        for (slot, symbol) in freeSlots(of: index) {
            let v = slots[base + Int(slot)]
            if case .unset = v { continue }
            locals[program.symbols[Int(symbol)]] = toValue(v)
        }
        return toFlat(interpreter.evaluate(program.raise(index), Interpreter.Frame(scope: scope, selfValue: selfValue, locals: Locals(locals)),
                                           expected: expected))
    }

    /// The slots of the running frame that the expression at `index` reads (its own bindings and nested closures'
    /// frames left out; a nested closure's captures are read where it is made).
    private func freeSlots(of index: Int32) -> [(slot: Int32, symbol: Int32)] {
        var found: [(Int32, Int32)] = [], bound: Set<Int32> = []
        func expr(_ i: Int32) {
            guard i >= 0 else { return }
            let n = program.nodes[Int(i)]
            switch n.op {
            case .local, .maybeLocal: found.append((n.a, n.b))
            case .member, .prefix: expr(n.a)
            case .call: expr(n.a); args(n.b, n.c)
            case .tuple: args(n.b, n.c)
            case .ternary, .binary: expr(n.a); expr(n.b); if n.op == .ternary { expr(n.c) }
            case .closure:
                let d = program.closures[Int(n.a)]
                for c in d.captures { found.append((c.outer, d.slotSymbols[Int(c.inner)])) }
            case .statementValue: statement(n.a)
            case .perAppearance: for k in 0..<Int(n.c) { expr(program.appearances[Int(n.b) + k].value) }
            default: break
            }
        }
        func args(_ first: Int32, _ count: Int32) { for k in 0..<Int(count) { expr(program.arguments[Int(first) + k].value) } }
        func block(_ span: LoweredProgram.Span) { for k in 0..<Int(span.count) { statement(program.lists[Int(span.start) + k]) } }
        func statement(_ i: Int32) {
            let n = program.nodes[Int(i)]
            switch n.op {
            case .expressionStatement, .returnStatement: expr(n.a)
            case .binding:
                expr(n.a)
                let b = program.bindings[Int(n.b)]
                for k in 0..<Int(b.slots.count) { bound.insert(program.lists[Int(b.slots.start) + k]) }
            case .assign: expr(n.a); expr(n.b)
            case .ifStatement:
                let f = program.ifs[Int(n.a)]
                block(f.conditions); block(f.then); f.otherwise.map(block)
            case .guardStatement:
                let g = program.guards[Int(n.a)]
                block(g.conditions); block(g.otherwise)
            case .switchStatement:
                let sw = program.switches[Int(n.a)]
                expr(sw.subject)
                for c in sw.cases { block(c.patterns); expr(c.guardExpression); block(c.body) }
            case .conditionExpression: expr(n.a)
            case .optionalBinding: expr(n.b); bound.insert(n.a)
            case .matches: statement(n.a); expr(n.b)
            case .bindingPattern: bound.insert(n.a)
            case .enumCasePattern, .tuplePattern: if n.b >= 0 { block(.init(start: n.b, count: n.c)) }
            case .valuePattern: expr(n.a)
            default: break
            }
        }
        expr(index)
        return found.filter { !bound.contains($0.0) }
    }

    // MARK: Evaluation

    /// A body of one expression or one `return`, natively; any other body through the interpreter is not needed by the
    /// spike's native calls (they check the body first).
    func run(_ body: LoweredProgram.Span, expected: String?) -> FlatValue {
        let statement = program.nodes[Int(program.lists[Int(body.start)])]
        return evaluate(statement.a, expected: expected)
    }

    func evaluate(_ index: Int32, expected: String?) -> FlatValue {
        let n = program.nodes[Int(index)]
        switch n.op {
        case .number: return .number(program.numbers[Int(n.a)])
        case .string: return .literal(n.a)
        case .bool: return .bool(n.a != 0)
        case .nilLiteral: return .none
        case .local:
            let v = slots[base + Int(n.a)]
            if case .unset = v { return bridge(index, expected: expected) }
            return v
        // Names, implicit members and member reads the interpreter's own look-ups answer (`lookup`, `implicitMember`,
        // `memberOf`): no node raised, one value converted.
        case .name:
            return toFlat(interpreter.lookup(program.symbols[Int(n.a)], frame, at: program.locations[Int(index)]))
        case .implicitMember:
            return toFlat(interpreter.implicitMember(program.symbols[Int(n.a)], frame, expected: expected, at: program.locations[Int(index)]))
        case .member where interpreter.configuration.theme.isEmpty:
            // As `Interpreter.evaluate` reads `base.name` (without themes: their selections by name are the interpreter's).
            let baseFlat = evaluate(n.a, expected: isImplicitChain(n.a) ? expected : nil)
            if n.b == userInterfaceStyle, case .traits(let order) = baseFlat {
                // `BuiltIns.member(of: .traits...)`: the style read, the platform case of the appearance.
                interpreter.traitReads.insert(.style)
                return .platformCase(Appearance.allCases[Int(order)].isDark ? dark : light)
            }
            let baseValue = toValue(baseFlat)
            if case .unknown(var u) = baseValue, u.rule == "reference", let path = path(of: index) {
                u.reason = "\(path.joinedWithDots()) does not name a token"
                return toFlat(.unknown(u))
            }
            return toFlat(interpreter.memberOf(baseValue, program.symbols[Int(n.b)], at: program.locations[Int(index)], frame: frame))
        case .binary where n.c == equals || n.c == notEquals:
            let l = evaluate(n.a, expected: nil)
            let rhs = program.nodes[Int(n.b)]
            // `traits.userInterfaceStyle == .dark`, as `Interpreter.equality` compares a platform case with an implicit member.
            guard case .platformCase(let name) = l, rhs.op == .implicitMember else { return bridge(index, expected: expected) }
            return .bool((name == rhs.a) == (n.c == equals))
        case .ternary:
            guard case .bool(let b) = evaluate(n.a, expected: nil) else { return bridge(index, expected: expected) }
            return evaluate(b ? n.b : n.c, expected: expected)
        case .closure:
            let start = Int32(captured.count)
            for i in 0..<program.closures[Int(n.a)].captures.count {
                captured.append(slots[base + Int(program.closures[Int(n.a)].captures[i].outer)])
            }
            closureValues.append(ClosureValue(definition: n.a, captures: start, scope: scope, scopeKey: scopeKey, selfValue: selfValue))
            return .closure(Int32(closureValues.count - 1))
        case .call:
            return call(index, n, expected: expected)
        default:
            return bridge(index, expected: expected)
        }
    }

    /// The running frame as the interpreter's look-ups take it (no locals: a name lowered to `.name` is not one).
    private var frame: Interpreter.Frame { Interpreter.Frame(scope: scope, selfValue: selfValue) }

    /// `Interpreter.isImplicitChain` on nodes.
    private func isImplicitChain(_ index: Int32) -> Bool {
        let n = program.nodes[Int(index)]
        switch n.op {
        case .implicitMember: return true
        case .member, .call: return isImplicitChain(n.a)
        default: return false
        }
    }

    /// `Expr.path` on nodes: the names of a plain name or member chain.
    private func path(of index: Int32) -> [String]? {
        let n = program.nodes[Int(index)]
        switch n.op {
        case .name: return [program.symbols[Int(n.a)]]
        case .local, .maybeLocal: return [program.symbols[Int(n.b)]]
        case .member: return path(of: n.a).map { $0 + [program.symbols[Int(n.b)]] }
        default: return nil
        }
    }

    /// Room for a frame of `size` slots at `top`, all unset: its first slot.
    private func push(_ size: Int32) -> Int {
        let frame = top
        top += Int(size)
        if top > slots.count { slots.append(contentsOf: repeatElement(FlatValue.unset, count: top - slots.count + 256)) }
        for i in frame..<top { slots[i] = .unset }
        return frame
    }

    /// As `Interpreter.call` decides for a name: a type (`Color`, `UIColor` with no project initialiser: built-in) or a
    /// function of the enclosing scopes, innermost first (one declaration of a one-expression body, no defaults: native).
    private func plan(_ n: LoweredProgram.Node) -> CallPlan {
        let callee = program.nodes[Int(n.a)]
        guard callee.op == .name else { return .other }
        let name = program.symbols[Int(callee.a)]
        let key = PlanKey(scope: scopeKey, symbol: callee.a)
        if let known = plans[key] { return known }
        let plan: CallPlan = {
            // As `Interpreter.call` takes a name: a type by its constructor plan when no function has the name and it
            // resolves alike in every scope; else the functions of the enclosing scopes, innermost first; else a type
            // in scope; else the name as a type.
            func constructing(_ type: String) -> CallPlan {
                let plan = interpreter.constructPlan(type)
                if plan.hasMemberwiseInitializer { return plan.initializers.allSatisfy(\.isEmpty) ? .memberwise(type) : .other }
                guard BuiltIns.isPlatformType(type) else { return .other }
                return type == "Color" || type == "UIColor" ? .color : .builtIn(type)
            }
            if !interpreter.functionNames.contains(NameKey(name)), let everyScope = interpreter.resolveTypeInEveryScope(Interpreter.baseTypeName(name)) {
                return constructing(everyScope ?? name)
            }
            for depth in stride(from: scope.count, through: 0, by: -1) {
                let candidates = interpreter.functions(scope.prefix(depth).joinedWithDots(), name)
                guard !candidates.isEmpty else { continue }
                guard depth == scope.count, candidates.count == 1, case .function(let parameters, let body) = candidates[0].kind,
                      parameters.allSatisfy({ $0.defaultValue == nil }), body.count == 1 else { return .other }
                switch body[0].kind {
                case .expression, .return(.some): break
                default: return .other
                }
                functions.append(program.lowerFunction(parameters, body: body))
                labels.append(parameters.map { $0.label.map(program.symbol) ?? -1 })
                parameterTypes.append(parameters.map(\.type))
                returnTypes.append(candidates[0].type)
                return .function(Int32(functions.count - 1))
            }
            if let type = interpreter.resolveType(name, in: scope) { return constructing(type) }
            return constructing(name)
        }()
        plans[key] = plan
        return plan
    }

    /// `base.name(args)` as `Interpreter.call` evaluates it: the base once, natively; a platform method natively;
    /// anything the project declares (a type's static function, an instance's method, an extension's) through the
    /// interpreter, with the base's value spliced in as a constant so it is not evaluated again.
    private func callMember(_ index: Int32, _ n: LoweredProgram.Node, expected: String?) -> FlatValue {
        let member = program.nodes[Int(n.a)]
        let baseFlat = evaluate(member.a, expected: isImplicitChain(member.a) ? expected : nil)
        let base = toValue(baseFlat)
        let name = program.symbols[Int(member.b)]
        switch base {
        case .unknown: return baseFlat
        case .type: return bridgeCall(index, n, base: base, expected: expected)
        case .instance(let type, _) where interpreter.isType(type): return bridgeCall(index, n, base: base, expected: expected)
        case .enumCase(let type, _, _) where interpreter.isType(type): return bridgeCall(index, n, base: base, expected: expected)
        default:
            if !BuiltIns.knowsMethod(base, name), let namespace = base.tokenKind.flatMap({ Interpreter.namespaces[$0] }),
               namespace.contains(where: { owner in interpreter.functions(owner, name).contains { !$0.isStatic } }) {
                return bridgeCall(index, n, base: base, expected: expected)
            }
            let types = BuiltIns.methodArgumentTypes(base, name)
            var args: [EvaluatedArgument] = []
            for i in 0..<Int(n.c) {
                let a = program.arguments[Int(n.b) + i]
                args.append(EvaluatedArgument(label: a.label >= 0 ? program.symbols[Int(a.label)] : nil,
                                              value: toValue(evaluate(a.value, expected: types?[safe: i] ?? nil))))
            }
            return toFlat(BuiltIns.method(base, name, args, interpreter: interpreter, at: program.locations[Int(index)]))
        }
    }

    /// The call at `index` by the interpreter, its callee's base already evaluated (`base`, spliced in as a constant).
    private func bridgeCall(_ index: Int32, _ n: LoweredProgram.Node, base: Value, expected: String?) -> FlatValue {
        bridged += 1
        let member = program.nodes[Int(n.a)]
        var locals: [String: Value] = [:]
        var arguments: [CallArgument] = []
        for i in 0..<Int(n.c) {
            let a = program.arguments[Int(n.b) + i]
            for (slot, symbol) in freeSlots(of: a.value) {
                let v = slots[base0 + Int(slot)]
                if case .unset = v { continue }
                locals[program.symbols[Int(symbol)]] = toValue(v)
            }
            arguments.append(CallArgument(label: a.label >= 0 ? program.symbols[Int(a.label)] : nil, value: program.raise(a.value)))
        }
        let callee = Expr(.member(Expr(.constant(base), at: program.locations[Int(member.a)]), program.symbols[Int(member.b)]),
                          at: program.locations[Int(n.a)])
        let call = Expr(.call(callee, arguments), at: program.locations[Int(index)])
        return toFlat(interpreter.evaluate(call, Interpreter.Frame(scope: scope, selfValue: selfValue, locals: Locals(locals)), expected: expected))
    }
    private var base0: Int { base }

    /// Each call node's plan, with the project-initialiser check folded in (`.other` when one takes the arguments): a
    /// node's names, labels and literal kinds, and the scope it is evaluated in, are the same at every evaluation.
    private var nodePlans: [CallPlan?] = []

    private func nodePlan(_ index: Int32, _ n: LoweredProgram.Node) -> CallPlan {
        if Int(index) < nodePlans.count, let known = nodePlans[Int(index)] { return known }
        var plan = plan(n)
        switch plan {
        case .builtIn(let type) where projectInitializerMatches(type, n): plan = .other
        case .color where projectInitializerMatches(program.symbols[Int(program.nodes[Int(n.a)].a)], n): plan = .other
        default: break
        }
        // Grown by doubling: every member's value adds nodes, and growing to the exact count copied the array each time.
        if nodePlans.count <= Int(index) {
            nodePlans.append(contentsOf: repeatElement(nil, count: max(program.nodes.count, 2 * nodePlans.count) - nodePlans.count))
        }
        nodePlans[Int(index)] = plan
        return plan
    }

    private func call(_ index: Int32, _ n: LoweredProgram.Node, expected: String?) -> FlatValue {
        if program.nodes[Int(n.a)].op == .member { return callMember(index, n, expected: expected) }
        switch nodePlan(index, n) {
        case .other:
            return bridge(index, expected: expected)
        case .function(let f):
            // `Interpreter.withCall`: nested calls are bounded (recursion in a design system is a bug).
            guard interpreter.callDepth < interpreter.configuration.maxCallDepth else {
                interpreter.orderDependent = true
                return toFlat(interpreter.unknown("calls nest more than \(interpreter.configuration.maxCallDepth) deep (recursion?)",
                                                  program.locations[Int(index)]))
            }
            interpreter.callDepth += 1
            defer { interpreter.callDepth -= 1 }
            let fi = Int(f)
            guard Int(n.c) == labels[fi].count,
                  (0..<Int(n.c)).allSatisfy({ program.arguments[Int(n.b) + $0].label == labels[fi][$0] }) else { return bridge(index, expected: expected) }
            let frame = push(functions[fi].frameSize)
            defer { top = frame }
            for i in 0..<Int(n.c) {
                let argument = program.arguments[Int(n.b) + i]
                slots[frame + Int(functions[fi].parameterSlots[i])] = evaluate(argument.value, expected: parameterTypes[fi][i])
            }
            let saved = base
            base = frame
            defer { base = saved }
            let result = run(functions[fi].body, expected: returnTypes[fi])
            guard case .boxed = result, let type = returnTypes[fi] else { return result }
            return toFlat(interpreter.coerce(toValue(result), to: type, at: program.locations[Int(index)]))
        case .builtIn(let type):
            return construct(type, index, n)
        case .memberwise(let type):
            return memberwise(type, index, n)
        case .color:
            let type = program.symbols[Int(program.nodes[Int(n.a)].a)]
            guard n.c == 1 else { return construct(type, index, n) }
            let argument = program.arguments[Int(n.b)]
            let value = evaluate(argument.value, expected: nil)
            switch value {
            case .color where argument.label == -1: return value
            case .literal(let s) where argument.label == hex:
                guard let c = ColorValue(hex: program.literals[Int(s)]) else { return bridge(index, expected: expected) }
                colors.append(AppearanceColor(constant: c))
                return .color(Int32(colors.count - 1))
            case .closure(let id) where argument.label == -1 && program.closures[Int(closureValues[Int(id)].definition)].parameterSlots.count == 1
                && program.closures[Int(closureValues[Int(id)].definition)].body.count == 1:
                return dynamicColor(id)
            default:
                return construct(program.symbols[Int(program.nodes[Int(n.a)].a)], index, n, evaluatedFirst: value)
            }
        }
    }

    /// Whether one of the project's initialisers of `type` (`extension Color { init(hex: UInt32) }`) takes these
    /// arguments' labels and kinds of literal (`Interpreter.labelsMatch`): the interpreter calls it then, not the
    /// platform's.
    private func projectInitializerMatches(_ type: String, _ n: LoweredProgram.Node) -> Bool {
        let initializers = interpreter.constructPlan(type).initializers
        guard initializers.contains(where: { !$0.isEmpty }) else { return false }
        let location = program.locations[Int(n.a)]
        let arguments = (0..<Int(n.c)).map { i -> CallArgument in
            let a = program.arguments[Int(n.b) + i]
            // What `plausible` looks at: whether the argument is a string, number or closure literal.
            let kind: Expr.Kind
            switch program.nodes[Int(a.value)].op {
            case .string: kind = .string("")
            case .number: kind = .number(0)
            case .closure: kind = .closure(parameters: [], body: [])
            default: kind = .nilLiteral
            }
            return CallArgument(label: a.label >= 0 ? program.symbols[Int(a.label)] : nil, value: Expr(kind, at: location))
        }
        return initializers.contains { inits in inits.contains { Interpreter.labelsMatch($0.parameters, arguments) } }
    }

    /// `Interpreter.construct`'s memberwise initialiser: the arguments evaluated as the stored properties' types in
    /// order, matched to the properties by label (or all by position), defaults for the rest.
    private func memberwise(_ type: String, _ index: Int32, _ n: LoweredProgram.Node) -> FlatValue {
        let stored = interpreter.storedProperties(of: type)
        var values: [EvaluatedArgument] = []
        for i in 0..<Int(n.c) {
            let a = program.arguments[Int(n.b) + i]
            values.append(EvaluatedArgument(label: a.label >= 0 ? program.symbols[Int(a.label)] : nil,
                                            value: toValue(evaluate(a.value, expected: stored[safe: i]?.type))))
        }
        let location = program.locations[Int(index)]
        var fields = interpreter.defaultFields(type)
        var at = 0
        for property in stored {
            if at < values.count, values[at].label == property.name {
                fields[property.name] = values[at].value
                at += 1
            } else if case .stored(let initial) = property.kind, initial != nil {
                continue
            } else if at < values.count, values.count == stored.count, values[at].label == nil {
                fields[property.name] = values[at].value
                at += 1
            } else {
                return toFlat(interpreter.unknown("\(type)(...) does not match its memberwise initialiser (missing \(property.name):)", location))
            }
        }
        guard at == values.count else {
            return toFlat(interpreter.unknown("\(type)(...) has arguments its memberwise initialiser does not take", location))
        }
        return toFlat(.instance(type: type, fields: fields))
    }

    /// `Interpreter.construct` for a platform type: the arguments evaluated as the types `BuiltIns.argumentTypes` gives
    /// them, converted once, and `BuiltIns.construct`; a malformed hex literal is reported at the literal.
    private func construct(_ type: String, _ index: Int32, _ n: LoweredProgram.Node, evaluatedFirst: FlatValue? = nil) -> FlatValue {
        let count = Int(n.c)
        let labelled = (0..<count).map { i -> CallArgument in
            let a = program.arguments[Int(n.b) + i]
            return CallArgument(label: a.label >= 0 ? program.symbols[Int(a.label)] : nil, value: Expr(.nilLiteral, at: program.locations[Int(index)]))
        }
        let types = BuiltIns.argumentTypes(type, labelled)
        var args: [EvaluatedArgument] = []
        args.reserveCapacity(count)
        for i in 0..<count {
            let a = program.arguments[Int(n.b) + i]
            let value = i == 0 && evaluatedFirst != nil ? evaluatedFirst! : evaluate(a.value, expected: types?[safe: i] ?? nil)
            args.append(EvaluatedArgument(label: labelled[i].label, value: toValue(value)))
        }
        let location = program.locations[Int(index)]
        let result = BuiltIns.construct(type, args, interpreter: interpreter, at: location)
        if case .unknown(var u) = result, u.location == location, u.reason.hasPrefix("invalid hex"),
           let literal = (0..<count).lazy.map({ self.program.arguments[Int(n.b) + $0].value }).first(where: { self.program.nodes[Int($0)].op == .string }) {
            u.location = program.locations[Int(literal)]
            return toFlat(.unknown(u))
        }
        return toFlat(result)
    }

    /// `BuiltIns.dynamicColor`'s rules: the provider runs per appearance unless the traits it read so far tell it apart.
    private func dynamicColor(_ id: Int32) -> FlatValue {
        let c = closureValues[Int(id)]
        let d = Int(c.definition)
        let saved = (interpreter.traitReads, base, scope, selfValue)
        defer { (interpreter.traitReads, base, scope, selfValue) = saved }
        (scope, selfValue) = (c.scope, c.selfValue)
        let savedKey = scopeKey
        defer { scopeKey = savedKey }
        scopeKey = c.scopeKey
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
                interpreter.traitReads = []
                slots[frame + Int(program.closures[d].parameterSlots[0])] = .traits(UInt8(appearance.order))
                for i in 0..<program.closures[d].captures.count {
                    slots[frame + Int(program.closures[d].captures[i].inner)] = captured[Int(c.captures) + i]
                }
                base = frame
                let value = run(program.closures[d].body, expected: "UIColor")
                base = saved.1
                reads.formUnion(interpreter.traitReads)
                switch value {
                case .color(let id): result = id
                default:
                    // What `BuiltIns.dynamicColor` makes of anything else, through the interpreter.
                    return toFlat(BuiltIns.dynamicColor(toValue(.closure(id)).closureValue!, interpreter: interpreter, at: program.locations[0]))
                }
            }
            if appearance == .light { lightResult = result } else if appearance == .dark { darkResult = result }
            color[appearance] = colors[Int(result)][appearance]
            if colors[Int(result)].explicit.contains(appearance) && !colors[Int(result)].isConstant { innerExplicit.insert(appearance) }
        }
        var explicit: AppearanceSet = [.light]
        if reads.contains(.style) { explicit.formUnion([.light, .dark]) }
        if reads.contains(.contrast) { explicit.formUnion(reads.contains(.style) ? .all : [.light, .lightHighContrast]) }
        explicit.formUnion(innerExplicit)
        innerExplicit = []
        color.explicit = explicit
        colors.append(color)
        return .color(Int32(colors.count - 1))
    }
    private var innerExplicit: AppearanceSet = []
    /// How many `evaluateStoredMember` calls are running (a member's value reads another not memoised yet).
    private var memberDepth = 0

    /// A stored static member's value, as `Interpreter.evaluateMember` gives it (in its owner's scope, `self` its owner
    /// type, typed by its declared type). Re-entered when the value reads another member not memoised yet: the state of
    /// the member being evaluated is kept, and only what this one added to the tables is dropped.
    func evaluateStoredMember(_ declaration: MemberDeclaration, _ initial: Expr) -> Value {
        let lowered = program.lowerExpression(initial)
        let value = inMemberFrame(scope: declaration.owner, selfValue: .type(declaration.ownerKey), scopeKey: NameKey(declaration.ownerKey),
                                  frameSize: lowered.frameSize) { _ in toValue(evaluate(lowered.node, expected: declaration.type)) }
        return interpreter.coerce(value, to: declaration.type, at: initial.location)
    }

    /// `body` run in a frame of `frameSize` slots (its first slot given), with this scope and `self`; the evaluator's
    /// state is as before afterwards. Re-entered when a value reads a member not memoised yet: only the outermost drops
    /// the tables' rows.
    func inMemberFrame(scope newScope: [String], selfValue newSelf: Value?, scopeKey newKey: NameKey? = nil, frameSize: Int32,
                       _ body: (Int) -> Value) -> Value {
        let saved = (scope, selfValue, scopeKey, base, top)
        memberDepth += 1
        defer {
            (scope, selfValue, scopeKey, base, top) = saved
            memberDepth -= 1
            // The tables' rows are dropped when the outermost member is done (a member read while another is evaluated
            // appends after the rows the outer one still holds), once they are many: emptying them per member cost
            // more than the rows.
            if memberDepth == 0, colors.count + boxes.count + closureValues.count + captured.count > Self.tableRows {
                colors.removeAll(keepingCapacity: true)
                boxes.removeAll(keepingCapacity: true)
                closureValues.removeAll(keepingCapacity: true)
                captured.removeAll(keepingCapacity: true)
            }
        }
        (scope, selfValue, scopeKey) = (newScope, newSelf, newKey ?? NameKey(newScope.joinedWithDots()))
        base = push(frameSize)
        return body(base)
    }
}

extension FlatEvaluator {
    /// `Interpreter.evaluate(_:locals:selfValue:scope:expected:)` (view code's colors, fonts and conditions): the
    /// expression lowered with the locals as its frame's first slots (by name, so the order is the same every time).
    func evaluateExpression(_ expr: Expr, locals: [String: Value], selfValue: Value?, scope: [String], expected: String?) -> Value {
        let names = locals.keys.sortedComparingBytes()
        let lowered = program.lowerExpression(expr, locals: names)
        return inMemberFrame(scope: scope, selfValue: selfValue, frameSize: lowered.frameSize) { frame in
            for (slot, name) in names.enumerated() { slots[frame + slot] = toFlat(locals[name]!) }
            return toValue(evaluate(lowered.node, expected: expected))
        }
    }
}

extension Value {
    var closureValue: Value.Closure? { if case .closure(let c) = self { return c } else { return nil } }
}

public enum FlatCoreSpike {
    public struct Result {
        public var members = 0
        /// Members whose value the core gave without asking the interpreter for any node, and those it needed the
        /// interpreter for; and how many of all were equal to a fresh interpreter's value.
        public var native = 0
        public var bridged = 0
        public var agreed = 0
        public var differing: [String] = []
        /// Medians over the runs, one thread: the core (bridges included) and a fresh interpreter, the same members in
        /// declaration order.
        public var flatMilliseconds = 0.0
        public var interpreterMilliseconds = 0.0
    }

    /// Every static stored member with an initial value, evaluated by the core on an interpreter of its own (for the
    /// bridges), and compared with a fresh interpreter's value.
    public static func run(declarations: [MemberDeclaration], types: [TypeDeclaration], runs: Int = 15) -> Result {
        let members = declarations.filter { d in
            guard d.isStatic, case .stored(_?) = d.kind else { return false }
            return true
        }
        let (values, nativeFlags) = evaluateAll(members, interpreter: Interpreter(declarations: declarations, types: types))
        let reference = Interpreter(declarations: declarations, types: types)
        var result = Result(members: members.count)
        for (i, d) in members.enumerated() {
            if nativeFlags[i] { result.native += 1 } else { result.bridged += 1 }
            // This declaration's own value (`staticValue` would give the first of duplicate declarations of one key).
            let expected = reference.value(of: d, selfValue: .type(d.ownerKey))
            if expected == values[i] { result.agreed += 1 } else {
                result.differing.append(d.key)
                if ProcessInfo.processInfo.environment["A11Y_FLAT_DEBUG"] != nil { print("differs: \(d.key)\n  core: \(values[i])\n  interpreter: \(expected)".prefix(1500)) }
            }
        }
        func milliseconds(_ body: () -> Void) -> Double {
            let start = DispatchTime.now()
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        }
        var flat: [Double] = [], interpreted: [Double] = []
        for _ in 0..<runs {
            let forCore = Interpreter(declarations: declarations, types: types)
            flat.append(milliseconds { _ = evaluateAll(members, interpreter: forCore) })
            let fresh = Interpreter(declarations: declarations, types: types)
            interpreted.append(milliseconds { for d in members { _ = fresh.staticValue(of: d) } })
        }
        result.flatMilliseconds = flat.sorted()[runs / 2]
        result.interpreterMilliseconds = interpreted.sorted()[runs / 2]
        return result
    }

    /// The measured part (callgrind: `--toggle-collect='*FlatCoreSpike*evaluateAll*'`): lowering and evaluation. Each
    /// member is evaluated as `Interpreter.evaluateMember` evaluates a stored value: in its owner's scope, `self` its
    /// owner type, typed by its declared type.
    @inline(never)
    static func evaluateAll(_ members: [MemberDeclaration], interpreter: Interpreter) -> (values: [Value], native: [Bool]) {
        let program = LoweredProgram()
        let evaluator = FlatEvaluator(program: program, interpreter: interpreter)
        var values: [Value] = [], native: [Bool] = []
        values.reserveCapacity(members.count)
        for d in members {
            guard case .stored(let initial?) = d.kind else { continue }
            // Read by a member evaluated before it: memoised then, as `staticValue` keeps it.
            if let known = interpreter.memoisedStaticValue(NameKey(d.key)),
               interpreter.declarations(owner: d.ownerKey, name: d.name).first == d {
                values.append(known)
                native.append(true)
                continue
            }
            let lowered = program.lowerExpression(initial)
            (evaluator.scope, evaluator.selfValue, evaluator.scopeKey) = (d.owner, .type(d.ownerKey), NameKey(d.ownerKey))
            evaluator.bridged = 0
            let colorCount = evaluator.colors.count, boxCount = evaluator.boxes.count
            let frame = evaluator.top
            evaluator.top += Int(lowered.frameSize)
            let value = evaluator.toValue(evaluator.evaluate(lowered.node, expected: d.type))
            evaluator.top = frame
            let coerced = interpreter.coerce(value, to: d.type, at: initial.location)
            interpreter.memoise(d, coerced)
            values.append(coerced)
            native.append(evaluator.bridged == 0)
            // A member's intermediate values are not kept (its value is converted above).
            evaluator.colors.removeSubrange(colorCount...)
            evaluator.boxes.removeSubrange(boxCount...)
            evaluator.closureValues.removeAll(keepingCapacity: true)
            evaluator.captured.removeAll(keepingCapacity: true)
        }
        return (values, native)
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
