// The evaluator's functions, closures and statements, on slots: a function's or closure's frame holds its parameters
// and what it captures; a block's bindings have slots of their own (a name bound again in a nested block is a new slot,
// as in Swift); a name assigned without a declaration in a branch, when `self` is no instance to take it as a field, is
// a local of that branch only.

extension FlatEvaluator {
    /// A function or initialiser lowered once: its nodes and its owner's key.
    struct FunctionPlan {
        /// Kept, so that its storage (the plan's key) is not freed and its address reused while the plan is.
        var declaration: MemberDeclaration
        var lowered: LoweredProgram.Function
        var ownerKey: NameKey
    }

    func functionPlan(_ function: MemberDeclaration) -> Int32 {
        // By the declaration's storage object (kept alive by the plan, or by `copiesKept`); a worker's own copy of a
        // function (`Interpreter.ownCallables`) is another object, found by the function's key and place, and kept.
        let key = function.identity
        if let known = functionIndexes[key] { return known }
        let byPlace = FunctionPlace(key: NameKey(function.key), location: function.location)
        if let known = functionIndexesByPlace[byPlace] {
            functionIndexes[key] = known
            copiesKept.append(function)
            return known
        }
        let body: [Stmt]
        switch function.kind {
        case .function(_, let b), .initializer(_, let b): body = b
        default: body = []
        }
        let lowered = program.lowerFunction(function.parameters, body: body)
        functionPlans.append(FunctionPlan(declaration: function, lowered: lowered, ownerKey: NameKey(function.ownerKey)))
        let index = Int32(functionPlans.count - 1)
        functionIndexes[key] = index
        functionIndexesByPlace[byPlace] = index
        return index
    }

    /// Parameters bound from the arguments by label in order, defaults evaluated in the callee's
    /// frame as the parameter's type; an initialiser's body builds `self`, a function's value is coerced to its type.
    func invoke(_ function: MemberDeclaration, _ arguments: [FlatArgument], selfValue newSelf: Value, at location: SourceLocation) -> FlatValue {
        let plan = Int(functionPlan(function))
        if let tooDeep = tooDeep(at: location) { return tooDeep }
        callDepth += 1
        defer { callDepth -= 1 }
        let lowered = functionPlans[plan].lowered
        var callee = FrameState(scope: function.owner, key: functionPlans[plan].ownerKey, selfValue: newSelf)
        exchangeFrameState(&callee)
        let callerBase = base
        let frame = push(lowered.frameSize)
        defer {
            exchangeFrameState(&callee)
            base = callerBase
            top = frame
        }
        base = frame
        let parameters = function.parameters
        var index = 0
        for p in parameters.indices {
            if index < arguments.count, arguments[index].label == parameters[p].label {
                slots[frame + Int(lowered.parameterSlots[p])] = arguments[index].value
                index += 1
            } else if lowered.defaults[p] >= 0 {
                slots[frame + Int(lowered.parameterSlots[p])] = evaluate(lowered.defaults[p], expected: parameters[p].type)
            } else {
                return unknown("missing argument \(parameters[p].label ?? parameters[p].name)", location)
            }
        }
        switch function.kind {
        case .initializer:
            return runInitializer(lowered.body, at: location)
        case .function:
            return coerce(run(lowered.body, expected: function.type, at: function.location), to: function.type, at: location)
        default:
            return unknown("\(function.name) is not callable", location)
        }
    }

    /// A closure's parameters (or `$0`, `$1`... when it names none) bound to the arguments in order,
    /// its captures restored, its body run in the scope and `self` it was made in.
    func apply(_ closure: FlatValue, _ arguments: [FlatValue], expected: String?, at location: SourceLocation) -> FlatValue {
        guard case .closure(let id) = closure else {
            // A closure that came as a value (a local given by view code, a provider passed along): made again in its
            // own frame.
            let value = toValue(closure)
            guard let c = value.closureValue else { return unknown("\(value.typeDescription) is not a closure", location) }
            return toFlat(apply(c, arguments.map(toValue), expected: expected, at: location))
        }
        if let tooDeep = tooDeep(at: location) { return tooDeep }
        callDepth += 1
        defer { callDepth -= 1 }
        let c = closureValues[Int(id)], d = program.closures[Int(c.definition)]
        let callerBase = base
        let frame = push(d.frameSize)
        for (i, slot) in d.parameterSlots.enumerated() where i < arguments.count { slots[frame + Int(slot)] = arguments[i] }
        for i in 0..<d.captures.count { slots[frame + Int(d.captures[i].inner)] = captured[Int(c.captures) + i] }
        var closure = FrameState(scope: c.scope, key: c.scopeKey, selfValue: c.selfValue)
        exchangeFrameState(&closure)
        defer {
            exchangeFrameState(&closure)
            base = callerBase
            top = frame
        }
        base = frame
        return run(d.body, expected: expected, at: location)
    }

    /// The body run with `self` bound; `self` is the result unless the body returned an
    /// unknown.
    func runInitializer(_ body: LoweredProgram.Span, at location: SourceLocation) -> FlatValue {
        if case .returned(let v) = execute(statements(body), expected: nil), isUnknown(v) { return v }
        return selfValue.map(toFlat) ?? unknown("initialiser produced no value", location)
    }

    func statements(_ span: LoweredProgram.Span) -> ArraySlice<Int32> {
        program.lists[Int(span.start)..<Int(span.start + span.count)]
    }

    /// One expression's value, an `if`/`switch` body's branch value, else what it returns.
    func run(_ body: LoweredProgram.Span, expected: String?, at location: SourceLocation) -> FlatValue {
        if body.count == 1 {
            let only = program.nodes[Int(program.lists[Int(body.start)])]
            switch only.op {
            case .expressionStatement: return evaluate(only.a, expected: expected)
            case .ifStatement, .switchStatement: return branchValue(statements(body), expected: expected)
            default: break
            }
        }
        switch execute(statements(body), expected: expected) {
        case .returned(let v): return v
        case .next: return unknown("the body returns no value", location, kind: expected.flatMap(Interpreter.kindOfType))
        }
    }

    /// The statements before the last run, then the last one's value.
    func branchValue(_ body: ArraySlice<Int32>, expected: String?) -> FlatValue {
        guard let lastIndex = body.last else { return .none }
        if body.count > 1, case .returned(let v) = execute(body.dropLast(), expected: expected) { return v }
        let last = program.nodes[Int(lastIndex)]
        switch last.op {
        case .expressionStatement: return evaluate(last.a, expected: expected)
        case .ifStatement:
            let f = program.ifs[Int(last.a)]
            switch test(f.conditions) {
            case .failure(let u): return toFlat(.unknown(u))
            case .success(true): return branchValue(statements(f.then), expected: expected)
            case .success(false): return f.otherwise.map { branchValue(statements($0), expected: expected) } ?? .none
            }
        case .switchStatement:
            switch chooseCase(last.a) {
            case .failure(let u): return toFlat(.unknown(u))
            case .success(let chosen?): return branchValue(statements(program.switches[Int(last.a)].cases[chosen].body), expected: expected)
            case .success(nil): return unknown("no case of the switch matches", program.locations[Int(lastIndex)])
            }
        default:
            if case .returned(let v) = execute(body.suffix(1), expected: expected) { return v }
            return .none
        }
    }

    enum Flow {
        case next
        case returned(FlatValue)
    }

    /// Statements run in order, a step each, until one returns.
    func execute(_ body: ArraySlice<Int32>, expected: String?) -> Flow {
        for index in body {
            let s = program.nodes[Int(index)]
            let location = program.locations[Int(index)]
            steps -= 1
            if steps < 0 {
                interpreter.orderDependent = true
                return .returned(unknown("evaluation stopped after \(interpreter.configuration.stepBudget) steps", location))
            }
            switch s.op {
            case .expressionStatement:
                if let delegated = delegatedInitializer(s.a) {
                    // `self.init(...)`: the delegated initialiser's result becomes self.
                    let result = construct(interpreter.constructPlan(scope.joinedWithDots()), s.a, delegated)
                    if isUnknown(result) { return .returned(result) }
                    selfValue = toValue(result)
                    continue
                }
                let v = evaluate(s.a, expected: nil)
                if case .boxed(let id) = v, case .unknown(let u) = boxes[Int(id)], u.reason.hasPrefix("evaluation stopped") { return .returned(v) }
            case .binding:
                guard s.a >= 0 else { continue }
                let v = evaluate(s.a, expected: nil)
                let b = program.bindings[Int(s.b)]
                if b.slots.count == 1 {
                    slots[base + Int(program.lists[Int(b.slots.start)])] = v
                } else if case .tuple(_, let values) = toValue(v), values.count == Int(b.slots.count) {
                    for k in 0..<values.count { slots[base + Int(program.lists[Int(b.slots.start) + k])] = toFlat(values[k]) }
                } else {
                    for k in 0..<Int(b.slots.count) {
                        slots[base + Int(program.lists[Int(b.slots.start) + k])] = unknown("cannot destructure \(toValue(v).typeDescription)", location)
                    }
                }
            case .assign:
                var v = evaluate(s.b, expected: nil)
                if s.c >= 0 {
                    // `x += v`: the operator applied to the two values (compound operators are arithmetic
                    // ones), each a step.
                    let current = evaluate(s.a, expected: nil)
                    let l = step(at: program.locations[Int(s.a)]) ?? current
                    let r = step(at: program.locations[Int(s.b)]) ?? v
                    v = arithmetic(program.symbols[Int(s.c)], l, r, at: location)
                }
                assign(s.a, v)
            case .returnStatement:
                return .returned(s.a >= 0 ? evaluate(s.a, expected: expected) : .none)
            case .ifStatement:
                let f = program.ifs[Int(s.a)]
                switch test(f.conditions) {
                case .failure(let u): return .returned(toFlat(.unknown(u)))
                case .success(true):
                    if case .returned(let v) = execute(statements(f.then), expected: expected) { return .returned(v) }
                case .success(false):
                    if let otherwise = f.otherwise, case .returned(let v) = execute(statements(otherwise), expected: expected) { return .returned(v) }
                }
            case .guardStatement:
                let g = program.guards[Int(s.a)]
                switch test(g.conditions) {
                case .failure(let u): return .returned(toFlat(.unknown(u)))
                case .success(true): continue
                case .success(false):
                    // The else runs in a copy of the frame (`self` as it was after it).
                    let savedSelf = selfValue
                    defer { selfValue = savedSelf }
                    if case .returned(let v) = execute(statements(g.otherwise), expected: expected) { return .returned(v) }
                    return .returned(unknown("guard's else does not return", location))
                }
            case .switchStatement:
                switch chooseCase(s.a) {
                case .failure(let u): return .returned(toFlat(.unknown(u)))
                case .success(nil): continue
                case .success(let chosen?):
                    if case .returned(let v) = execute(statements(program.switches[Int(s.a)].cases[chosen].body), expected: expected) {
                        return .returned(v)
                    }
                }
            case .unsupportedStatement:
                return .returned(unknown(program.literals[Int(s.a)], location, kind: expected.flatMap(Interpreter.kindOfType)))
            default:
                preconditionFailure("node \(index) (\(s.op)) is not a statement")
            }
        }
        return .next
    }

    /// `self.init(...)` or `super.init(...)`: the call node.
    private func delegatedInitializer(_ index: Int32) -> LoweredProgram.Node? {
        let n = program.nodes[Int(index)]
        guard n.op == .call else { return nil }
        let callee = program.nodes[Int(n.a)]
        guard callee.op == .member, callee.b == initSymbol else { return nil }
        let base = program.nodes[Int(callee.a)]
        guard base.op == .name, base.a == selfSymbol || base.a == superSymbol else { return nil }
        return n
    }

    /// An assignment: `self`, a local (a name assigned without a declaration is `self`'s field when `self` is an
    /// instance and the name is not bound yet), `self`'s fields, a local instance's fields.
    private func assign(_ target: Int32, _ value: FlatValue) {
        let t = program.nodes[Int(target)]
        switch t.op {
        case .name where t.a == selfSymbol:
            selfValue = toValue(value)
        case .local, .maybeLocal:
            guard case .unset = slots[base + Int(t.a)] else {
                slots[base + Int(t.a)] = value
                return
            }
            if case .instance(let type, var fields)? = selfValue {
                fields[program.symbols[Int(t.b)]] = toValue(value)
                selfValue = .instance(type: type, fields: fields)
            } else {
                slots[base + Int(t.a)] = value
            }
        case .member:
            let b = program.nodes[Int(t.a)]
            let name = program.symbols[Int(t.b)]
            if b.op == .name, b.a == selfSymbol, case .instance(let type, var fields)? = selfValue {
                fields[name] = toValue(value)
                selfValue = .instance(type: type, fields: fields)
            } else if b.op == .local || b.op == .maybeLocal, case .instance(let type, var fields) = toValue(slots[base + Int(b.a)]) {
                fields[name] = toValue(value)
                slots[base + Int(b.a)] = toFlat(.instance(type: type, fields: fields))
            }
        default:
            break
        }
    }

    /// Each condition in order; `if let` binds a value that is not nil, `if case` matches.
    func test(_ conditions: LoweredProgram.Span) -> Result<Bool, Value.Unknown> {
        for index in statements(conditions) {
            let c = program.nodes[Int(index)]
            switch c.op {
            case .conditionExpression:
                switch truth(of: c.a) {
                case .failure(let u): return .failure(u)
                case .success(false): return .success(false)
                case .success(true): continue
                }
            case .optionalBinding:
                let v = evaluate(c.b, expected: nil)
                if case .boxed(let id) = v, case .unknown(let u) = boxes[Int(id)] { return .failure(u) }
                if case .none = v { return .success(false) }
                slots[base + Int(c.a)] = v
            case .matches:
                let v = evaluate(c.b, expected: nil)
                if case .boxed(let id) = v, case .unknown(let u) = boxes[Int(id)] { return .failure(u) }
                guard match(c.a, v, toValue(v)) else { return .success(false) }
            default:
                preconditionFailure("node \(index) (\(c.op)) is not a condition")
            }
        }
        return .success(true)
    }

    /// The first case (in order) a pattern of which matches and whose guard holds; `default`
    /// matches anything. The index of the case.
    func chooseCase(_ switchIndex: Int32) -> Result<Int?, Value.Unknown> {
        let sw = program.switches[Int(switchIndex)]
        let flat = evaluate(sw.subject, expected: nil)
        let value = toValue(flat)
        if case .unknown(let u) = value { return .failure(u) }
        var caseName: Int32 = -1
        if case .enumCase(_, let name, _) = value { caseName = program.symbol(name) }
        // Only the cases from the first that can match on: the first naming the case, or the first of any other kind.
        var start = 0
        if caseName >= 0, sw.cases.count > 8 {
            let index = caseIndex(switchIndex, sw)
            start = min(index.firstByName[caseName] ?? sw.cases.count, index.firstOther)
        }
        for i in start..<sw.cases.count {
            let c = sw.cases[i]
            if c.patterns.count == 0 { return .success(i) }
            for pattern in statements(c.patterns) {
                let p = program.nodes[Int(pattern)]
                if p.op == .enumCasePattern, caseName >= 0, p.a != caseName { continue }
                guard match(pattern, flat, value) else { continue }
                if c.guardExpression >= 0 {
                    switch truth(of: c.guardExpression) {
                    case .failure(let u): return .failure(u)
                    case .success(false): continue
                    case .success(true): break
                    }
                }
                return .success(i)
            }
        }
        return .success(nil)
    }

    /// `caseIndexes`' entry for a switch, made at its first use.
    func caseIndex(_ switchIndex: Int32, _ sw: LoweredProgram.Switch) -> (firstByName: [Int32: Int], firstOther: Int) {
        if let known = caseIndexes[switchIndex] { return known }
        var index = (firstByName: [Int32: Int](), firstOther: sw.cases.count)
        for (i, c) in sw.cases.enumerated() {
            let patterns = statements(c.patterns).map { program.nodes[Int($0)] }
            guard !patterns.isEmpty, patterns.allSatisfy({ $0.op == .enumCasePattern }) else {
                index.firstOther = min(index.firstOther, i)
                continue
            }
            for p in patterns where index.firstByName[p.a] == nil { index.firstByName[p.a] = i }
        }
        caseIndexes[switchIndex] = index
        return index
    }

    /// A pattern matched: `flat` is `value` as the evaluator holds it, when it has it (a binding keeps it).
    func match(_ pattern: Int32, _ flat: FlatValue?, _ value: Value) -> Bool {
        let p = program.nodes[Int(pattern)]
        switch p.op {
        case .wildcard: return true
        case .bindingPattern:
            slots[base + Int(p.a)] = flat ?? toFlat(value)
            return true
        case .enumCasePattern:
            guard case .enumCase(_, let caseName, let payload) = value, caseName == program.symbols[Int(p.a)] else { return false }
            guard p.b >= 0 else { return true }
            guard Int(p.c) == payload.count else { return p.c == 0 }
            for k in 0..<Int(p.c) where !match(program.lists[Int(p.b) + k], nil, payload[k]) { return false }
            return true
        case .tuplePattern:
            guard case .tuple(_, let values) = value, values.count == Int(p.c) else { return false }
            for k in 0..<Int(p.c) where !match(program.lists[Int(p.b) + k], nil, values[k]) { return false }
            return true
        case .valuePattern:
            var expected: String?
            if case .enumCase(let t, _, _) = value, !t.isEmpty { expected = t }
            return interpreter.equal(toValue(evaluate(p.a, expected: expected)), value)
        default:
            preconditionFailure("node \(pattern) (\(p.op)) is not a pattern")
        }
    }
}
