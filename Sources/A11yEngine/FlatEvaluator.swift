import Foundation

// The evaluator (issue 12, docs/flat-core-plan.md): `LoweredProgram` holds the IR lowered to flat nodes (names as
// symbols, locals as slots); `FlatEvaluator` evaluates those nodes with values that hold no counted reference where
// it can (numbers, literals, colors and closures as rows of its tables), and asks its interpreter for what the
// interpreter indexes and memoises (names, members, types, static values). Functions, closures and statements are in
// FlatCoreStatements.swift.

/// A value with no counted reference: literals of the program, colors and closures rows of the evaluator's tables; any
/// other value (instances, tuples, fonts, unknowns...) is `boxed`, a row of `Value`s.
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

/// Evaluates a `LoweredProgram` for one interpreter (each worker interpreter has its own).
final class FlatEvaluator {
    let program: LoweredProgram
    /// The interpreter that uses this evaluator (`Interpreter.evaluator`; one at a time, see `EvaluatorPool`): not
    /// retained, so the two do not keep each other alive, and not checked at each of the evaluator's many reads of it.
    unowned(unsafe) var interpreter: Interpreter
    var slots = [FlatValue](repeating: .unset, count: 1024)
    /// The running entry's steps left and call depth (`Interpreter.entry` sets them), held here: each change made
    /// through the unowned interpreter counted a reference to it, once per expression evaluated.
    var steps = 0, callDepth = 0
    /// The interpreter's `configuration.maxCallDepth`.
    private(set) var maxCallDepth: Int
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
    /// `raisedBody`'s, by closure definition.
    var raisedBodies: [Int32: [Stmt]] = [:]
    /// `loweredExpression`'s, by the expression's location.
    var loweredExpressions: [ExpressionPlace: [(expr: Expr, names: [String], lowered: (node: Int32, frameSize: Int32))]] = [:]
    let userInterfaceStyle: Int32, dark: Int32, light: Int32, hex: Int32, equals: Int32, notEquals: Int32

    /// What a call of a name in a scope calls, decided at its first call.
    enum CallPlan {
        /// The functions of the scope `depth` levels in (`self` is the frame's own at the innermost level).
        case functions([MemberDeclaration], depth: Int)
        /// A type's initialisers.
        case construct(Interpreter.ConstructPlan)
    }
    struct PlanKey: Hashable {
        var scope: NameKey
        var symbol: Int32
        /// The scope's kept hash and the symbol mixed as `NameKey` mixes its own (not a `Hasher`'s SipHash per look-up).
        func _rawHashValue(seed: Int) -> Int { NameKey.finalMix(scope.hash &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(UInt32(bitPattern: symbol)), seed: seed) }
    }
    var plans: [PlanKey: CallPlan] = [:]
    /// `Interpreter.typeNamed` by scope and name: what a name means when `self` is no value (nil: `lookup` decides).
    var typeNames: [PlanKey: Value?] = [:]
    /// `scope` joined, hashed once per member (the call plans are kept by it).
    var scopeKey = NameKey("")
    /// Functions and initialisers lowered at their first call, by declaration (`functionPlan`).
    var functionIndexes: [ObjectIdentifier: Int32] = [:]
    /// The same plans by the function's key and place, for another copy of a function lowered before.
    var functionIndexesByPlace: [FunctionPlace: Int32] = [:]
    struct FunctionPlace: Hashable {
        var key: NameKey
        var location: SourceLocation
    }
    /// Copies of functions found by place: their storage objects are keys of `functionIndexes`, so they are kept alive.
    var copiesKept: [MemberDeclaration] = []
    var functionPlans: [FunctionPlan] = []
    /// Instance members' initial values and computed bodies, lowered once, by the declaration's storage object (each plan
    /// keeps its declaration, so the object lives as long as the key): an instance member is evaluated for every instance
    /// that reads it.
    var memberPlans: [ObjectIdentifier: MemberPlan] = [:]
    /// Call arguments as `Interpreter.labelsMatch` and `plausible` see them (labels, and the kind of a string, number or
    /// closure literal), made once per such signature: each token's call node is new, its signature is not.
    var argumentShapes: [UInt64: [ArgumentShape]] = [:]
    struct ArgumentShape {
        var signature: [Int32]
        var shape: [CallArgument]
    }
    /// What a call node decided at its first evaluation, for the nodes of bodies evaluated again and again (a node is
    /// evaluated in one scope, and calls one name with the same labels): its argument shape, the call plan of its name,
    /// and `BuiltIns.argumentTypes` with the name it was asked for. By node index.
    struct NodeCache {
        var shape: [CallArgument]?
        var plan: CallPlan?
        var platformTypes: (name: String, types: [String?]?)?
        var direct: DirectCall?
        /// The initialisers of each of a type's groups (`ConstructPlan.initializers`) that take the node's labels.
        var initializers: (type: String, matching: [[MemberDeclaration]])?
    }
    /// What a called name's node does at every call once its first call showed it (its plan and its arguments' labels
    /// and literal kinds are the node's own, so the checks give the same answer every time): a token helper is called
    /// once per token (`adaptive(light:dark:)`), `Color(...)` several times in each. A row of `directFunctions` or
    /// `directColors`: read in place at each call, where taking a payload out of the node's cache counted references.
    enum DirectCall {
        case function(Int32)
        case platformColor(Int32)
    }
    /// The plan's one function, taking exactly the node's labels in order (no default): the arguments go straight into
    /// its frame, as the parameters' types (`functionPlans` index; the scope depth and owner of `self`).
    struct DirectFunction {
        var plan: Int32
        var types: [String?]
        var depth: Int
        var owner: String
    }
    /// The platform's `Color`/`UIColor` with one argument: no project initialiser takes these labels and no memberwise
    /// one exists; the argument is evaluated as `argumentType`.
    struct DirectColor {
        var type: String
        var argumentType: String?
    }
    var directFunctions: [DirectFunction] = []
    var directColors: [DirectColor] = []
    /// The direct calls decided so far, by what decides them: a static member's initial value is lowered afresh and
    /// evaluated once, so its call node has no cache of its own, and a token helper called from 5,000 of them was planned
    /// (its plan, argument shape, label checks and function looked up) 5,000 times.
    var directCallsByKey: [DirectKey: DirectCall] = [:]
    /// Static initial values' nodes by shape and scope, lowered once and refilled for each value of the shape
    /// (`LoweredProgram.refill`): each static member is evaluated once, and lowering 5,000 tokens' `adaptive(light:
    /// dark:)` afresh cost ~1,500 instructions each; its call node keeps its cache (`nodeCaches`: the same scope, name,
    /// labels and literal kinds, as `DirectKey` has them). Busy while the value in them is evaluated.
    var shapedNodes: [(node: Int32, busy: Bool)] = []
    var shapedNodesByKey: [ShapedKey: Int] = [:]
    struct ShapedKey: Hashable {
        var scope: NameKey
        var shape: LoweredProgram.Shape
        /// Mixed as `DirectKey`'s.
        func _rawHashValue(seed: Int) -> Int {
            let mixed = (scope.hash &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(UInt32(bitPattern: shape.name))) &* 0x9FB2_1C65_1E98_DF25
            return NameKey.finalMix(mixed ^ shape.arguments ^ (shape.moreArguments &* 0x100_0000_01B3) ^ (shape.member ? 1 : 0), seed: seed)
        }
    }
    /// A called name's `DirectCall` depends on the scope (the name's call plan), the name, and the arguments' labels and
    /// kinds of literal (`argumentShape`): those, for up to four arguments, packed in two words.
    struct DirectKey: Hashable {
        var scope: NameKey
        var symbol: Int32
        var arguments: UInt64, moreArguments: UInt64
        /// Mixed as `PlanKey`'s.
        func _rawHashValue(seed: Int) -> Int {
            let mixed = (scope.hash &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(UInt32(bitPattern: symbol))) &* 0x9FB2_1C65_1E98_DF25
            return NameKey.finalMix(mixed ^ arguments ^ (moreArguments &* 0x100_0000_01B3), seed: seed)
        }
    }
    /// The call nodes' caches, made at each node's first use; `nodeCacheRow` gives a node's row (-1: none yet). A row
    /// index per node, not a cache per node: the per-node list grows with every member lowered, and copying 4-byte
    /// indexes as it grows costs little where copying the caches (arrays and plans) cost more than using them.
    var nodeCaches: [NodeCache] = []
    var nodeCacheRow: [Int32] = []
    /// For a `switch` of many cases (token switches list hundreds, run once per case and theme), by switch: the first
    /// case naming each enum case, and the first case that is not only enum-case patterns (`default` among them).
    var caseIndexes: [Int32: (firstByName: [Int32: Int], firstOther: Int)] = [:]

    /// The row of `nodeCaches` of the node at `index`, made at its first use.
    func cacheRow(_ index: Int32) -> Int {
        if nodeCacheRow.count <= Int(index) {
            // Grown by doubling: every member evaluated adds nodes.
            nodeCacheRow.append(contentsOf: repeatElement(-1, count: max(program.nodes.count, Int(index) + 1, 2 * nodeCacheRow.count)
                                                                      - nodeCacheRow.count))
        }
        if nodeCacheRow[Int(index)] < 0 {
            nodeCacheRow[Int(index)] = Int32(nodeCaches.count)
            nodeCaches.append(NodeCache())
        }
        return Int(nodeCacheRow[Int(index)])
    }
    let selfSymbol: Int32, superSymbol: Int32, initSymbol: Int32

    init(program: LoweredProgram, interpreter: Interpreter) {
        self.program = program
        self.interpreter = interpreter
        maxCallDepth = interpreter.configuration.maxCallDepth
        (userInterfaceStyle, dark, light, hex) = (program.symbol("userInterfaceStyle"), program.symbol("dark"), program.symbol("light"),
                                                  program.symbol("hex"))
        (equals, notEquals) = (program.symbol("=="), program.symbol("!="))
        (selfSymbol, superSymbol, initSymbol) = (program.symbol("self"), program.symbol("super"), program.symbol("init"))
        // Room for the rows `inMemberFrame` lets gather before it empties the tables: growing them from empty
        // in every round's fresh interpreter copied each 136-byte color row about twice.
        colors.reserveCapacity(Self.tableRows + 256)
        closureValues.reserveCapacity(Self.tableRows + 256)
        captured.reserveCapacity(Self.tableRows + 256)
    }
    /// Rows the tables may hold before the outermost member's end empties them.
    static let tableRows = 512

    // MARK: Values to and from the interpreter

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
        case .closure(let c):
            if let row = closureRow(c) { return .closure(row) }
            return boxed(value)
        default:
            return boxed(value)
        }
    }

    private func boxed(_ value: Value) -> FlatValue {
        boxes.append(value)
        return .boxed(Int32(boxes.count - 1))
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
            return .closure(.init(parameters: d.parameters.map { program.symbols[Int($0)] }, body: raisedBody(c.definition),
                                  captured: Locals(locals), scope: c.scope, selfValue: c.selfValue,
                                  origin: ClosureOrigin(program: program, definition: c.definition, scopeKey: c.scopeKey)))
        }
    }

    /// A closure value this evaluator's program made, as a closure row again (its captures from the value's); nil for
    /// any other closure value (made elsewhere: lowered again when applied).
    func closureRow(_ c: Value.Closure) -> Int32? {
        guard let origin = c.origin, origin.program === program else { return nil }
        let d = program.closures[Int(origin.definition)]
        let start = Int32(captured.count)
        for capture in d.captures {
            captured.append(c.captured[program.symbols[Int(d.slotSymbols[Int(capture.inner)])]].map(toFlat) ?? .unset)
        }
        closureValues.append(ClosureValue(definition: origin.definition, captures: start, scope: c.scope, scopeKey: origin.scopeKey,
                                          selfValue: c.selfValue))
        return Int32(closureValues.count - 1)
    }

    /// A closure definition's body as statements, raised once: every value made of the definition has the same body.
    func raisedBody(_ definition: Int32) -> [Stmt] {
        if let known = raisedBodies[definition] { return known }
        let body = program.raise(block: program.closures[Int(definition)].body)
        raisedBodies[definition] = body
        return body
    }

    // MARK: Evaluation

    /// The unknown of a call one deeper than calls may nest (`Interpreter.withCall`'s limit), or nil when there is room.
    func tooDeep(at location: SourceLocation) -> FlatValue? {
        guard callDepth >= maxCallDepth else { return nil }
        interpreter.orderDependent = true
        return unknown("calls nest more than \(maxCallDepth) deep (recursion?)", location)
    }

    /// A color provider's body, run as a closure is applied: one call deeper (`Interpreter.withCall`).
    func runProvider(_ body: LoweredProgram.Span, at location: SourceLocation) -> FlatValue {
        if let tooDeep = tooDeep(at: location) { return tooDeep }
        callDepth += 1
        defer { callDepth -= 1 }
        return run(body, expected: "UIColor", at: location)
    }

    func evaluate(_ index: Int32, expected: String?) -> FlatValue {
        // The interpreter's step budget, counted: one step per expression.
        steps -= 1
        if steps < 0 { return stepsExhausted(at: program.locations[Int(index)]) }
        let n = program.nodes[Int(index)]
        switch n.op {
        case .number: return .number(program.numbers[Int(n.a)])
        case .string: return .literal(n.a)
        case .bool: return .bool(n.a != 0)
        case .nilLiteral: return .none
        case .constant: return toFlat(program.constants[Int(n.a)])
        case .unsupported:
            return unknown(program.literals[Int(n.a)], program.locations[Int(index)], kind: expected.flatMap(Interpreter.kindOfType))
        case .local, .maybeLocal:
            let v = slots[base + Int(n.a)]
            // Not bound (yet): the name means what it means outside the frame's locals.
            if case .unset = v { return toFlat(interpreter.lookup(program.symbols[Int(n.b)], frame, at: program.locations[Int(index)])) }
            return v
        // Names, implicit members and member reads the interpreter's own look-ups answer (`lookup`, `implicitMember`,
        // `memberOf`): no node raised, one value converted.
        case .name:
            return toFlat(lookUp(n.a, at: index))
        case .implicitMember:
            return toFlat(interpreter.implicitMember(program.symbols[Int(n.a)], frame, expected: expected, at: program.locations[Int(index)]))
        case .member:
            // `base.name`.
            let baseFlat = evaluate(n.a, expected: isImplicitChain(n.a) ? expected : nil)
            if let style = style(of: baseFlat, n) { return style }
            return toFlat(member(of: baseFlat, index, n))
        case .binary:
            return binary(index, n, expected: expected)
        case .prefix:
            // The prefix operators.
            let v = evaluate(n.a, expected: expected)
            let op = program.symbols[Int(n.c)]
            switch (op, v) {
            case ("-", .number(let x)): return .number(-x)
            case ("!", .bool(let b)): return .bool(!b)
            case ("~", .number(let x)): return .number(Double(~Int64(x)))
            default:
                if isUnknown(v) { return v }
                return unknown("cannot apply \(op) to \(toValue(v).typeDescription)", program.locations[Int(index)])
            }
        case .tuple:
            return tuple(n, expected: expected)
        case .ternary:
            switch truth(of: n.a) {
            case .success(let b): return evaluate(b ? n.b : n.c, expected: expected)
            case .failure(let u): return toFlat(.unknown(u))
            }
        case .statementValue:
            // An `if`/`switch` expression: in a copy of the frame, so nothing it assigns
            // (locals, `self`) is kept.
            let saved = (Array(slots[base..<top]), selfValue)
            defer {
                slots.replaceSubrange(base..<(base + saved.0.count), with: saved.0)
                selfValue = saved.1
            }
            return branchValue([n.a][...], expected: expected)
        case .closure:
            return makeClosure(n.a)
        case .call:
            return call(index, n, expected: expected)
        case .perAppearance:
            return perAppearance(index, n)
        default:
            // Statements and patterns are never evaluated as expressions (the lowering puts them in statement lists).
            return unknown("cannot evaluate a \(n.op) node as an expression", program.locations[Int(index)])
        }
    }

    /// A name that is not a local, as `Interpreter.lookup` answers it. With `self` a type or none, a type's name (the
    /// base of `Color.brand`, in every component token) is kept per scope: its look-up walked the scope for every token.
    private func lookUp(_ symbol: Int32, at index: Int32) -> Value {
        switch selfValue {
        case nil, .type?:
            let key = PlanKey(scope: scopeKey, symbol: symbol)
            let known: Value?
            if let kept = typeNames[key] { known = kept } else {
                known = interpreter.typeNamed(program.symbols[Int(symbol)], in: scope)
                typeNames[key] = known
            }
            if let known { return known }
        default: break
        }
        return interpreter.lookup(program.symbols[Int(symbol)], frame, at: program.locations[Int(index)])
    }

    /// `traits.userInterfaceStyle` (`BuiltIns.member(of: .traits...)`): the style read, the platform case of the
    /// appearance; nil for any other member or base.
    private func style(of base: FlatValue, _ n: LoweredProgram.Node) -> FlatValue? {
        guard n.b == userInterfaceStyle, case .traits(let order) = base else { return nil }
        interpreter.traitReads.insert(.style)
        return .platformCase(Appearance.allCases[Int(order)].isDark ? dark : light)
    }

    /// The member node `n` (at `index`) of its evaluated base, as the interpreter's look-ups answer it.
    private func member(of baseFlat: FlatValue, _ index: Int32, _ n: LoweredProgram.Node) -> Value {
        let baseValue = toValue(baseFlat)
        // With a theme bound, a member the app sets at run time (a property declared with a theme selector type) of
        // something unknown reads the theme's value.
        if !interpreter.configuration.theme.isEmpty, baseValue.unknown != nil,
           let selected = interpreter.themeSelectionsByName[program.symbols[Int(n.b)]] {
            return selected
        }
        if case .unknown(var u) = baseValue, u.rule == "reference", let path = path(of: index) {
            u.reason = "\(path.joinedWithDots()) does not name a token"
            return .unknown(u)
        }
        return interpreter.memberOf(baseValue, program.symbols[Int(n.b)], at: program.locations[Int(index)], frame: frame)
    }

    /// `toValue(evaluate(index, expected:))`, but a member read's value as the interpreter gives it: a token that names
    /// another (`static let label = Color.brand`) was made a row of `colors` and boxed again, its color copied twice.
    func value(of index: Int32, expected: String?) -> Value {
        let n = program.nodes[Int(index)]
        guard n.op == .member else { return toValue(evaluate(index, expected: expected)) }
        // The step `evaluate` counts for the node.
        if let exhausted = step(at: program.locations[Int(index)]) { return toValue(exhausted) }
        let baseFlat = evaluate(n.a, expected: isImplicitChain(n.a) ? expected : nil)
        if let style = style(of: baseFlat, n) { return toValue(style) }
        return member(of: baseFlat, index, n)
    }

    /// The per-appearance color (a design-token file's modes, an asset's appearances): each
    /// appearance's value a color or a hex string, combined; the first that is neither, in appearance order, is the
    /// unknown (the lowering keeps the branches in appearance order).
    private func perAppearance(_ index: Int32, _ n: LoweredProgram.Node) -> FlatValue {
        var byAppearance: [Appearance: AppearanceColor] = [:]
        for k in 0..<Int(n.c) {
            let (appearance, branch) = program.appearances[Int(n.b) + k]
            let location = program.locations[Int(branch)]
            switch toValue(evaluate(branch, expected: "Color")) {
            case .color(let c): byAppearance[appearance] = c
            case .string(let s):
                guard let c = ColorValue(hex: s) else { return unknown("invalid hex color \"\(s)\"", location, kind: .color) }
                byAppearance[appearance] = AppearanceColor(constant: c)
            case .unknown(let u): return toFlat(.unknown(u))
            case let other: return unknown("an appearance value is \(other.typeDescription), not a color", location, kind: .color)
            }
        }
        return BuiltIns.combine(byAppearance).map { toFlat(.color($0)) } ?? unknown("no appearance given", program.locations[Int(index)], kind: .color)
    }

    /// A closure of `definition` made in the running frame: what it captures copied from the frame's slots.
    func makeClosure(_ definition: Int32) -> FlatValue {
        let start = Int32(captured.count)
        for i in 0..<program.closures[Int(definition)].captures.count {
            captured.append(slots[base + Int(program.closures[Int(definition)].captures[i].outer)])
        }
        closureValues.append(ClosureValue(definition: definition, captures: start, scope: scope, scopeKey: scopeKey, selfValue: selfValue))
        return .closure(Int32(closureValues.count - 1))
    }

    /// One step of the interpreter's budget (one per expression and per statement): nil, or the unknown when none is left.
    func step(at location: SourceLocation) -> FlatValue? {
        steps -= 1
        return steps < 0 ? stepsExhausted(at: location) : nil
    }

    func stepsExhausted(at location: SourceLocation) -> FlatValue {
        interpreter.orderDependent = true
        return unknown("evaluation stopped after \(interpreter.configuration.stepBudget) steps (a loop or a very large computation)", location)
    }

    /// The running frame as the interpreter's look-ups take it (no locals: a name lowered to `.name` is not one).
    var frame: Interpreter.Frame { Interpreter.Frame(scope: scope, selfValue: selfValue) }

    /// A frame's type scope, its key and `self`, held aside while another frame runs.
    struct FrameState {
        var scope: [String]
        var key: NameKey
        var selfValue: Value?
    }

    /// The running frame's scope, key and `self` exchanged with `other`'s: called on entering a frame (with the new
    /// frame's) and again on leaving it. Moved, not copied: copying the caller's out and back counted a reference for
    /// each, at every call and every color provider run.
    func exchangeFrameState(_ other: inout FrameState) {
        swap(&scope, &other.scope)
        swap(&scopeKey, &other.key)
        swap(&selfValue, &other.selfValue)
    }

    func unknown(_ reason: String, _ location: SourceLocation, rule: String = "parse", kind: TokenKind? = nil) -> FlatValue {
        toFlat(interpreter.unknown(reason, location, rule: rule, kind: kind))
    }

    /// Only a boxed value can be unknown.
    func isUnknown(_ value: FlatValue) -> Bool {
        if case .boxed(let id) = value, case .unknown = boxes[Int(id)] { return true }
        return false
    }

    /// `Interpreter.coerce`: an unknown takes the declared type's kind.
    func coerce(_ value: FlatValue, to type: String?, at location: SourceLocation) -> FlatValue {
        guard type != nil, isUnknown(value) else { return value }
        return toFlat(interpreter.coerce(toValue(value), to: type, at: location))
    }

    /// On nodes.
    func isImplicitChain(_ index: Int32) -> Bool {
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
    func push(_ size: Int32) -> Int {
        let frame = top
        top += Int(size)
        if top > slots.count { slots.append(contentsOf: repeatElement(FlatValue.unset, count: top - slots.count + 256)) }
        for i in frame..<top { slots[i] = .unset }
        return frame
    }

    // MARK: Operators

    /// A binary operator: `??`, three-valued `&&`/`||`, `equality`, then `arithmetic`.
    private func binary(_ index: Int32, _ n: LoweredProgram.Node, expected: String?) -> FlatValue {
        let op = program.symbols[Int(n.c)]
        let isLogical = op == "&&" || op == "||", isEquality = n.c == equals || n.c == notEquals
        let l = evaluate(n.a, expected: isLogical ? nil : expected)
        if op == "??" {
            // Nil, or unknown (a colorset outside the audited folder): the fallback.
            if case .none = l { return evaluate(n.b, expected: expected) }
            guard isUnknown(l) else { return l }
            let r = evaluate(n.b, expected: expected)
            return isUnknown(r) ? l : r
        }
        if isLogical {
            switch truth(l, at: program.locations[Int(n.a)]) {
            case .failure(let u):
                if case .bool(let r) = evaluate(n.b, expected: nil), r == (op == "||") { return .bool(r) }
                return toFlat(.unknown(u))
            case .success(let b):
                if op == "&&" && !b { return .bool(false) }
                if op == "||" && b { return .bool(true) }
                return evaluate(n.b, expected: nil)
            }
        }
        if isEquality {
            switch equality(n.c == equals, l, rhs: n.b) {
            case .success(let b): return .bool(b)
            case .failure(let u): return toFlat(.unknown(u))
            }
        }
        let r = evaluate(n.b, expected: expected)
        return arithmetic(op, l, r, at: program.locations[Int(index)])
    }

    /// Any other operator, both sides evaluated (`Interpreter.arithmetic`).
    func arithmetic(_ op: String, _ l: FlatValue, _ r: FlatValue, at location: SourceLocation) -> FlatValue {
        toFlat(interpreter.arithmetic(op, toValue(l), toValue(r), at: location))
    }

    /// A platform enum case against an implicit member compared by name, a project enum's case
    /// against an implicit member of its type, else both sides evaluated and compared by `Interpreter.equal`.
    func equality(_ isEqual: Bool, _ l: FlatValue, rhs: Int32) -> Result<Bool, Value.Unknown> {
        let rhsNode = program.nodes[Int(rhs)]
        var r: FlatValue?
        if rhsNode.op == .implicitMember {
            if case .platformCase(let name) = l { return .success((name == rhsNode.a) == isEqual) }
            if case .boxed = l, case .enumCase(let type, let caseName, let payload) = toValue(l) {
                let name = program.symbols[Int(rhsNode.a)]
                if type.isEmpty { return .success((caseName == name && payload.isEmpty) == isEqual) }
                r = toFlat(interpreter.implicitMember(name, frame, expected: type, at: program.locations[Int(rhs)]))
            }
        }
        let right = r ?? evaluate(rhs, expected: nil)
        let lv = toValue(l)
        if case .unknown(let u) = lv { return .failure(u) }
        let rv = toValue(right)
        if case .unknown(let u) = rv { return .failure(u) }
        return .success(interpreter.equal(lv, rv) == isEqual)
    }

    /// A condition's truth: `==` and `!=` decided by `equality`, anything else must be a Bool.
    func truth(of index: Int32) -> Result<Bool, Value.Unknown> {
        let n = program.nodes[Int(index)]
        // With no step left, `evaluate` reports the exhausted budget.
        if steps > 0, n.op == .binary, n.c == equals || n.c == notEquals {
            steps -= 1  // as `evaluate` counts the operator
            return equality(n.c == equals, evaluate(n.a, expected: nil), rhs: n.b)
        }
        return truth(evaluate(index, expected: nil), at: program.locations[Int(index)])
    }

    func truth(_ value: FlatValue, at location: SourceLocation) -> Result<Bool, Value.Unknown> {
        if case .bool(let b) = value { return .success(b) }
        return interpreter.truth(toValue(value), at: location)
    }

    /// The tuple: one unlabelled element is its value; else labels from the expected tuple type.
    private func tuple(_ n: LoweredProgram.Node, expected: String?) -> FlatValue {
        if n.c == 1, program.arguments[Int(n.b)].label < 0 { return evaluate(program.arguments[Int(n.b)].value, expected: expected) }
        let shape = expected.map { interpreter.tupleShape(interpreter.expandAlias($0, in: scope)) }
        var labels: [String?] = [], values: [Value] = []
        for i in 0..<Int(n.c) {
            let a = program.arguments[Int(n.b) + i]
            values.append(toValue(evaluate(a.value, expected: shape?[safe: i]?.type)))
            labels.append(a.label >= 0 ? program.symbols[Int(a.label)] : shape?[safe: i]?.label)
        }
        return toFlat(.tuple(labels: labels, values: values))
    }

    // MARK: Calls

    /// An argument evaluated: its label and value.
    struct FlatArgument {
        var label: String?
        var value: FlatValue
    }

    func evaluated(_ a: FlatArgument) -> EvaluatedArgument { EvaluatedArgument(label: a.label, value: toValue(a.value)) }

    /// The call's arguments evaluated in order, each as the type of the parameter it binds to (`types`, when known):
    /// (The arguments are evaluated before any is bound.)
    func evaluateArguments(_ n: LoweredProgram.Node, types: [String?]?) -> [FlatArgument] {
        var list: [FlatArgument] = []
        list.reserveCapacity(Int(n.c))
        for i in 0..<Int(n.c) {
            let a = program.arguments[Int(n.b) + i]
            list.append(FlatArgument(label: a.label >= 0 ? program.symbols[Int(a.label)] : nil,
                                     value: evaluate(a.value, expected: types?[safe: i] ?? nil)))
        }
        return list
    }

    /// The call's arguments as `Interpreter.labelsMatch`, `plausible` and `BuiltIns.argumentTypes` look at them: labels,
    /// and whether each is a string, number or closure literal.
    func argumentShape(_ index: Int32, _ n: LoweredProgram.Node) -> [CallArgument] {
        let row = cacheRow(index)
        if let known = nodeCaches[row].shape { return known }
        let shape = argumentShapeBySignature(n)
        nodeCaches[row].shape = shape
        return shape
    }

    /// `BuiltIns.argumentTypes` of the call at `index` (a platform function or type `name`), kept by node: a node calls
    /// one name with the same labels at every evaluation.
    func platformArgumentTypes(_ name: String, _ index: Int32, _ n: LoweredProgram.Node) -> [String?]? {
        let row = cacheRow(index)
        if let known = nodeCaches[row].platformTypes, known.name == name { return known.types }
        let types = BuiltIns.argumentTypes(name, argumentShape(index, n))
        nodeCaches[row].platformTypes = (name, types)
        return types
    }

    /// An argument's kind of literal as `argumentShape` keeps it: 0 other, 1 string, 2 number, 3 closure.
    private func literalKind(_ argument: Int) -> Int32 {
        switch program.nodes[Int(program.arguments[argument].value)].op {
        case .string: return 1
        case .number: return 2
        case .closure: return 3
        default: return 0
        }
    }

    /// The call's `DirectKey` in the running scope; nil for more than four arguments.
    private func directKey(_ symbol: Int32, _ n: LoweredProgram.Node) -> DirectKey? {
        guard n.c <= 4 else { return nil }
        var packed: (UInt64, UInt64) = (0, 0)
        for i in 0..<Int(n.c) {
            let label = program.arguments[Int(n.b) + i].label
            // 32 bits an argument: its label's symbol plus two (no label: 1) above its kind's two bits, never 0, so that
            // the words also tell how many arguments there are.
            guard label < 1 << 29 else { return nil }
            let argument = UInt64(UInt32(label + 2) << 2 | UInt32(literalKind(Int(n.b) + i))) << (32 * UInt64(i % 2))
            if i < 2 { packed.0 |= argument } else { packed.1 |= argument }
        }
        return DirectKey(scope: scopeKey, symbol: symbol, arguments: packed.0, moreArguments: packed.1)
    }

    private func argumentShapeBySignature(_ n: LoweredProgram.Node) -> [CallArgument] {
        // Each argument's label symbol and literal kind, hashed without a list.
        func kind(_ i: Int) -> Int32 { literalKind(Int(n.b) + i) }
        var hash: UInt64 = 14_695_981_039_346_656_037
        for i in 0..<Int(n.c) {
            hash = (hash ^ UInt64(UInt32(bitPattern: program.arguments[Int(n.b) + i].label))) &* 1_099_511_628_211
            hash = (hash ^ UInt64(kind(i))) &* 1_099_511_628_211
        }
        hash ^= UInt64(n.c)
        func matches(_ signature: [Int32]) -> Bool {
            signature.count == 2 * Int(n.c)
                && (0..<Int(n.c)).allSatisfy { signature[2 * $0] == program.arguments[Int(n.b) + $0].label && signature[2 * $0 + 1] == kind($0) }
        }
        for known in argumentShapes[hash] ?? [] where matches(known.signature) { return known.shape }
        let location = SourceLocation(file: "", line: 0, column: 0)
        var signature: [Int32] = []
        let shape = (0..<Int(n.c)).map { i -> CallArgument in
            let a = program.arguments[Int(n.b) + i]
            signature += [a.label, kind(i)]
            let literal: Expr.Kind
            switch kind(i) {
            case 1: literal = .string("")
            case 2: literal = .number(0)
            case 3: literal = .closure(parameters: [], body: [])
            default: literal = .nilLiteral
            }
            return CallArgument(label: a.label >= 0 ? program.symbols[Int(a.label)] : nil, value: Expr(literal, at: location))
        }
        argumentShapes[hash, default: []].append(ArgumentShape(signature: signature, shape: shape))
        return shape
    }

    /// A call, by the callee's kind.
    private func call(_ index: Int32, _ n: LoweredProgram.Node, expected: String?) -> FlatValue {
        let callee = program.nodes[Int(n.a)]
        let location = program.locations[Int(index)]
        switch callee.op {
        case .member: return callMember(index, n, expected: expected)
        case .implicitMember: return callImplicitMember(index, n, expected: expected)
        case .name: return callName(callee.a, index, n)
        case .local, .maybeLocal:
            // A closure in a local is applied; any other local's name is called as a name.
            let v = slots[base + Int(callee.a)]
            if case .closure = v { return apply(v, evaluateArguments(n, types: nil).map(\.value), expected: nil, at: location) }
            if case .boxed = v, case .closure = toValue(v) { return apply(v, evaluateArguments(n, types: nil).map(\.value), expected: nil, at: location) }
            return callName(callee.b, index, n)
        default:
            let calleeValue = evaluate(n.a, expected: nil)
            if case .closure = calleeValue { return apply(calleeValue, evaluateArguments(n, types: nil).map(\.value), expected: nil, at: location) }
            let value = toValue(calleeValue)
            if case .closure = value { return apply(calleeValue, evaluateArguments(n, types: nil).map(\.value), expected: nil, at: location) }
            if case .unknown = value { return calleeValue }
            return unknown("cannot call \(value.typeDescription)", location)
        }
    }

    /// A name called: a type by its constructor plan when no function has the name and
    /// it resolves alike in every scope; else the functions of the enclosing scopes, innermost first; else a type in
    /// scope; else the name as a type.
    private func callName(_ symbol: Int32, _ index: Int32, _ n: LoweredProgram.Node) -> FlatValue {
        let row = cacheRow(index)
        // The direct call asked first: it is a few integers, where asking whether the plan is nil copied the plan out
        // (and counted its references) at every call of a helper's node.
        var direct = nodeCaches[row].direct
        // A node not evaluated before (no plan yet) may call what another node of its key was found to call directly.
        if direct == nil, nodeCaches[row].plan == nil, let key = directKey(symbol, n), let known = directCallsByKey[key] {
            nodeCaches[row].direct = known
            direct = known
        }
        switch direct {
        case .function(let direct)?: return callDirect(Int(direct), index, n)
        case .platformColor(let direct)?:
            // The type read only when the platform constructs it (a copy passed on counted a reference at every call).
            let value = evaluate(program.arguments[Int(n.b)].value, expected: directColors[Int(direct)].argumentType)
            return nativeColor(of: value, index, n) ?? constructBuiltIn(directColors[Int(direct)].type, index, n, evaluatedFirst: value)
        case nil: break
        }
        let nodePlan: CallPlan
        if let known = nodeCaches[row].plan { nodePlan = known } else {
            nodePlan = plan(symbol)
            nodeCaches[row].plan = nodePlan
        }
        switch nodePlan {
        case .functions(let candidates, let depth):
            let owner = scope.prefix(depth).joinedWithDots()
            if candidates.count == 1, case .function = candidates[0].kind, takesExactly(candidates[0], index, n) {
                directFunctions.append(DirectFunction(plan: functionPlan(candidates[0]), types: candidates[0].parameterTypes,
                                                      depth: depth, owner: owner))
                decided(.function(Int32(directFunctions.count - 1)), symbol, row, n)
                return callDirect(directFunctions.count - 1, index, n)
            }
            let selfValue: Value = depth == scope.count ? (self.selfValue ?? .type(owner)) : .type(owner)
            return callOverloads(candidates, index, n, selfValue: selfValue)
        case .construct(let plan):
            if n.c == 1, !plan.hasMemberwiseInitializer, plan.type == "Color" || plan.type == "UIColor",
               initializersTakingLabels(plan, index, n).allSatisfy(\.isEmpty) {
                let argumentType = platformArgumentTypes(plan.type, index, n)?[0] ?? nil
                directColors.append(DirectColor(type: plan.type, argumentType: argumentType))
                decided(.platformColor(Int32(directColors.count - 1)), symbol, row, n)
                return constructColor(plan.type, index, n, argumentType: argumentType)
            }
            return construct(plan, index, n)
        }
    }

    /// A direct call kept for the node's row and for later nodes of the same `DirectKey`.
    private func decided(_ direct: DirectCall, _ symbol: Int32, _ row: Int, _ n: LoweredProgram.Node) {
        nodeCaches[row].direct = direct
        if let key = directKey(symbol, n) { directCallsByKey[key] = direct }
    }

    /// Whether `function`'s parameters are exactly the call's arguments, label by label in order (so `callOverloads`
    /// would choose it, bind each argument to the parameter at its position, and need no default).
    private func takesExactly(_ function: MemberDeclaration, _ index: Int32, _ n: LoweredProgram.Node) -> Bool {
        let arguments = argumentShape(index, n), parameters = function.parameters
        return parameters.count == arguments.count && Interpreter.labelsMatch(parameters, arguments)
            && parameters.indices.allSatisfy { parameters[$0].label == arguments[$0].label }
    }

    /// `callOverloads` and `invoke` for a `DirectCall.function`: the callee's frame pushed first and its parameters
    /// filled as the arguments are evaluated in the caller's frame, then the body run and its value coerced.
    private func callDirect(_ direct: Int, _ index: Int32, _ n: LoweredProgram.Node) -> FlatValue {
        let newSelf: Value = directFunctions[direct].depth == scope.count ? (selfValue ?? .type(directFunctions[direct].owner))
                                                                         : .type(directFunctions[direct].owner)
        let function = Int(directFunctions[direct].plan)
        let frame = push(functionPlans[function].lowered.frameSize)
        for i in 0..<Int(n.c) {
            let value = evaluate(program.arguments[Int(n.b) + i].value, expected: directFunctions[direct].types[i])
            slots[frame + Int(functionPlans[function].lowered.parameterSlots[i])] = value
        }
        let location = program.locations[Int(index)]
        if let tooDeep = tooDeep(at: location) {
            top = frame
            return tooDeep
        }
        callDepth += 1
        let declaration = functionPlans[function].declaration
        var callee = FrameState(scope: declaration.owner, key: functionPlans[function].ownerKey, selfValue: newSelf)
        exchangeFrameState(&callee)
        let callerBase = base
        base = frame
        defer {
            callDepth -= 1
            exchangeFrameState(&callee)
            base = callerBase
            top = frame
        }
        return coerce(run(functionPlans[function].lowered.body, expected: declaration.type, at: declaration.location),
                      to: declaration.type, at: location)
    }

    private func plan(_ symbol: Int32) -> CallPlan {
        let key = PlanKey(scope: scopeKey, symbol: symbol)
        if let known = plans[key] { return known }
        let name = program.symbols[Int(symbol)]
        let plan: CallPlan = {
            let isFunctionName = interpreter.functionNames.contains(NameKey(name))
            if !isFunctionName, let everyScope = interpreter.resolveTypeInEveryScope(Interpreter.baseTypeName(name)) {
                return .construct(interpreter.constructPlan(everyScope ?? name))
            }
            for depth in stride(from: isFunctionName ? scope.count : -1, through: 0, by: -1) {
                let candidates = interpreter.functions(scope.prefix(depth).joinedWithDots(), name)
                if !candidates.isEmpty { return .functions(candidates, depth: depth) }
            }
            return .construct(interpreter.constructPlan(interpreter.resolveType(name, in: scope) ?? name))
        }()
        plans[key] = plan
        return plan
    }

    /// `.name(args)`, an implicit member called: typed by the expected type; else a function of
    /// `Color`, `UIColor`, `Font` or `UIFont`; else a function or enum case of an enclosing scope; else a platform one.
    private func callImplicitMember(_ index: Int32, _ n: LoweredProgram.Node, expected: String?) -> FlatValue {
        let name = program.symbols[Int(program.nodes[Int(n.a)].a)]
        if let expected { return staticCall(interpreter.typeKey(expected, in: scope), name, index, n) }
        for owner in ["Color", "UIColor", "Font", "UIFont"] where !interpreter.functions(owner, name).isEmpty || (name == "init" && owner == "Color") {
            return staticCall(owner, name, index, n)
        }
        for depth in stride(from: scope.count, through: 1, by: -1) {
            let owner = scope.prefix(depth).joinedWithDots()
            if !interpreter.functions(owner, name).isEmpty || !interpreter.enumCaseDeclarations(owner, name).isEmpty {
                return staticCall(owner, name, index, n)
            }
        }
        return builtInStaticCall("", name, index, n)
    }

    /// `Type.name(args)`: an initialiser, a static function, an enum case with payload, a
    /// protocol's static function, or a platform one.
    private func staticCall(_ type: String, _ name: String, _ index: Int32, _ n: LoweredProgram.Node) -> FlatValue {
        if name == "init" { return construct(interpreter.constructPlan(type), index, n) }
        switch interpreter.staticCallPlan(type, name) {
        case .functions(let candidates, let owner):
            return callOverloads(candidates, index, n, selfValue: .type(owner))
        case .enumCase(let c, let owner):
            let values = evaluateArguments(n, types: c.parameters.map(\.type)).map { toValue($0.value) }
            if let u = values.lazy.compactMap(\.unknown).first { return toFlat(.unknown(u)) }
            return toFlat(.enumCase(type: owner, name: name, payload: values))
        case .protocolFunctions(let candidates):
            return callOverloads(candidates, index, n, selfValue: .type(type))
        case .builtIn:
            return builtInStaticCall(type, name, index, n)
        }
    }

    private func builtInStaticCall(_ type: String, _ name: String, _ index: Int32, _ n: LoweredProgram.Node) -> FlatValue {
        let args = evaluateArguments(n, types: platformArgumentTypes(name, index, n)).map(evaluated)
        return toFlat(BuiltIns.staticCall(type, name, args, interpreter: interpreter, at: program.locations[Int(index)]))
    }

    /// `base.name(args)`: the base once; a type's initialiser or static call; a
    /// project instance's or enum case's methods; a platform method first, then the project's extensions of the value's
    /// namespace.
    private func callMember(_ index: Int32, _ n: LoweredProgram.Node, expected: String?) -> FlatValue {
        let member = program.nodes[Int(n.a)]
        let baseFlat = evaluate(member.a, expected: isImplicitChain(member.a) ? expected : nil)
        let base = toValue(baseFlat)
        let name = program.symbols[Int(member.b)]
        let location = program.locations[Int(index)]
        switch base {
        case .type(let type):
            if name == "init" { return construct(interpreter.constructPlan(type), index, n) }
            return staticCall(type, name, index, n)
        case .unknown: return baseFlat
        case .instance(let type, _) where interpreter.isType(type), .enumCase(let type, _, _) where interpreter.isType(type):
            let candidates = ([type] + interpreter.protocols(of: type)).flatMap { interpreter.functions($0, name) }.filter { !$0.isStatic }
            if !candidates.isEmpty { return callOverloads(candidates, index, n, selfValue: base) }
            return unknown("\(type) has no method \(name)", location, rule: "reference")
        default:
            if !BuiltIns.knowsMethod(base, name), let namespace = base.tokenKind.flatMap({ Interpreter.namespaces[$0] }) {
                let candidates = namespace.flatMap { interpreter.functions($0, name) }.filter { !$0.isStatic }
                if !candidates.isEmpty { return callOverloads(candidates, index, n, selfValue: base) }
            }
            let args = evaluateArguments(n, types: BuiltIns.methodArgumentTypes(base, name)).map(evaluated)
            return toFlat(BuiltIns.method(base, name, args, interpreter: interpreter, at: location))
        }
    }

    /// The candidates whose labels match; one is called with its parameters' types, among
    /// several the best by `score` on the values.
    private func callOverloads(_ candidates: [MemberDeclaration], _ index: Int32, _ n: LoweredProgram.Node, selfValue: Value) -> FlatValue {
        let arguments = argumentShape(index, n)
        let location = program.locations[Int(index)]
        let matching = candidates.count == 1
            ? (Interpreter.labelsMatch(candidates[0].parameters, arguments) ? candidates : [])
            : candidates.filter { Interpreter.labelsMatch($0.parameters, arguments) }
        guard let first = matching.first else {
            let labels = arguments.map { ($0.label ?? "_") + ":" }.joined()
            return unknown("no \(candidates[0].name)(\(labels)) matches these arguments", location, rule: "reference")
        }
        if matching.count == 1 {
            return invoke(first, evaluateArguments(n, types: Interpreter.argumentTypes(first, arguments)), selfValue: selfValue, at: location)
        }
        let values = evaluateArguments(n, types: nil)
        let converted = values.map(evaluated)
        let best = matching.max { interpreter.score($0, converted) < interpreter.score($1, converted) } ?? first
        return invoke(best, values, selfValue: selfValue, at: location)
    }

    /// The project's initialisers by owner (hex-string ones by signature, a single
    /// one of a namespace type only when the values fit), a memberwise initialiser, else the platform's.
    func construct(_ plan: Interpreter.ConstructPlan, _ index: Int32, _ n: LoweredProgram.Node) -> FlatValue {
        let type = plan.type
        let location = program.locations[Int(index)]
        if !plan.initializers.isEmpty {
            let arguments = argumentShape(index, n)
            for matching in initializersTakingLabels(plan, index, n) {
                guard !matching.isEmpty else { continue }
                if let hex = matching.first(where: BuiltIns.isHexStringInitializer) {
                    let args = evaluateArguments(n, types: hex.parameterTypes).map(evaluated)
                    return toFlat(BuiltIns.hexStringInitializer(hex, args, interpreter: interpreter, at: location))
                }
                let isNamespace = Interpreter.namespaceKind(type) != nil
                let selfValue: Value = isNamespace ? .type(type) : .instance(type: type, fields: interpreter.defaultFields(type))
                if matching.count == 1, isNamespace {
                    // `Color(UIColor { ... })` must not bind to the project's `init(_ hex: UInt32)`: the values decide.
                    let types = Interpreter.argumentTypes(matching[0], arguments)
                    let values = evaluateArguments(n, types: types)
                    if zip(types, values).allSatisfy({ Interpreter.fits(toValue($1.value), $0) }) {
                        return invoke(matching[0], values, selfValue: selfValue, at: location)
                    }
                    continue
                }
                return callOverloads(matching, index, n, selfValue: selfValue)
            }
        }
        if plan.hasMemberwiseInitializer { return memberwise(type, index, n) }
        if type == "Color" || type == "UIColor" { return constructColor(type, index, n) }
        return constructBuiltIn(type, index, n)
    }

    /// Each group of `plan`'s initialisers filtered to those that take the call's labels and kinds of literal, kept by
    /// node (the same for every call of it; a node of `DesignResourcesKit` constructs thousands of times).
    private func initializersTakingLabels(_ plan: Interpreter.ConstructPlan, _ index: Int32, _ n: LoweredProgram.Node) -> [[MemberDeclaration]] {
        let row = cacheRow(index)
        if let known = nodeCaches[row].initializers, known.type == plan.type { return known.matching }
        let arguments = argumentShape(index, n)
        let matching = plan.initializers.map { $0.filter { Interpreter.labelsMatch($0.parameters, arguments) } }
        nodeCaches[row].initializers = (plan.type, matching)
        return matching
    }

    /// `Color(...)`/`UIColor(...)` of the platform with one argument: natively for a color, a hex string or a provider,
    /// else `constructBuiltIn` with the argument already evaluated.
    private func constructColor(_ type: String, _ index: Int32, _ n: LoweredProgram.Node) -> FlatValue {
        guard n.c == 1 else { return constructBuiltIn(type, index, n) }
        return constructColor(type, index, n, argumentType: platformArgumentTypes(type, index, n)?[0] ?? nil)
    }

    /// The one argument evaluated as `argumentType`.
    private func constructColor(_ type: String, _ index: Int32, _ n: LoweredProgram.Node, argumentType: String?) -> FlatValue {
        let value = evaluate(program.arguments[Int(n.b)].value, expected: argumentType)
        return nativeColor(of: value, index, n) ?? constructBuiltIn(type, index, n, evaluatedFirst: value)
    }

    /// The color of `Color(value)`/`UIColor(value)` (the call at `index`, its one argument evaluated) where this evaluator
    /// makes it: a color, a hex string, a provider; nil for the platform's `BuiltIns.construct`.
    private func nativeColor(of value: FlatValue, _ index: Int32, _ n: LoweredProgram.Node) -> FlatValue? {
        let label = program.arguments[Int(n.b)].label
        switch value {
        case .color where label == -1: return value
        case .literal(let s) where label == hex:
            guard let c = ColorValue(hex: program.literals[Int(s)]) else { return nil }
            colors.append(AppearanceColor(constant: c))
            return .color(Int32(colors.count - 1))
        // A provider, with or without its label (`UIColor(dynamicProvider:)`), as `BuiltIns.colorInitializer` takes one.
        case .closure(let id) where takesOneArgument(id):
            return dynamicColor(id, at: program.locations[Int(index)])
        default: return nil
        }
    }

    /// Whether the closure row `id` takes one argument, its row and definition read in place (subscripted, the two were
    /// copied out: seven references counted and released again, for every provider).
    private func takesOneArgument(_ id: Int32) -> Bool {
        let definition = closureValues.withUnsafeBufferPointer { $0[Int(id)].definition }
        return program.closures.withUnsafeBufferPointer { $0[Int(definition)].parameterSlots.count } == 1
    }

    /// The memberwise initialiser: the arguments evaluated as the stored properties' types in
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

    /// A platform type constructed: the arguments evaluated as the types `BuiltIns.argumentTypes` gives
    /// them, converted once, and `BuiltIns.construct`; a malformed hex literal is reported at the literal.
    private func constructBuiltIn(_ type: String, _ index: Int32, _ n: LoweredProgram.Node, evaluatedFirst: FlatValue? = nil) -> FlatValue {
        let count = Int(n.c)
        let types = platformArgumentTypes(type, index, n)
        var args: [EvaluatedArgument] = []
        args.reserveCapacity(count)
        for i in 0..<count {
            let a = program.arguments[Int(n.b) + i]
            let value = i == 0 && evaluatedFirst != nil ? evaluatedFirst! : evaluate(a.value, expected: types?[safe: i] ?? nil)
            args.append(EvaluatedArgument(label: a.label >= 0 ? program.symbols[Int(a.label)] : nil, value: toValue(value)))
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
    private func dynamicColor(_ id: Int32, at location: SourceLocation) -> FlatValue {
        // The closure's row read field by field: a copy of the row counted its scope, key and `self` once more.
        let d = Int(closureValues[Int(id)].definition), firstCapture = Int(closureValues[Int(id)].captures)
        let saved = (interpreter.traitReads, base)
        var provider = FrameState(scope: closureValues[Int(id)].scope, key: closureValues[Int(id)].scopeKey,
                                  selfValue: closureValues[Int(id)].selfValue)
        exchangeFrameState(&provider)
        defer {
            (interpreter.traitReads, base) = saved
            exchangeFrameState(&provider)
        }
        var reads: Interpreter.TraitReads = []
        var color = AppearanceColor(constant: .clear)
        var lightResult: Int32 = -1, darkResult: Int32 = -1
        let frame = push(program.closures[d].frameSize)
        defer { top = frame }
        // The definition's slots and body read once, not at each appearance run.
        let traitsSlot = frame + Int(program.closures[d].parameterSlots[0]), body = program.closures[d].body
        for appearance in Appearance.allCases {
            let result: Int32
            if let fallback = appearance.fallback, (fallback == .light ? lightResult : darkResult) >= 0,
               appearance.isHighContrast ? !reads.contains(.contrast) : reads.isEmpty {
                result = fallback == .light ? lightResult : darkResult
            } else {
                interpreter.traitReads = []
                slots[traitsSlot] = .traits(UInt8(appearance.order))
                for i in 0..<program.closures[d].captures.count {
                    slots[frame + Int(program.closures[d].captures[i].inner)] = captured[firstCapture + i]
                }
                base = frame
                let value = runProvider(body, at: location)
                base = saved.1
                reads.formUnion(interpreter.traitReads)
                switch value {
                case .color(let id): result = id
                default:
                    // As `BuiltIns.dynamicColor` reports anything else: an unknown as a color's, any other value by its type.
                    switch toValue(value) {
                    case .unknown(var u):
                        if u.kind == nil { u.kind = .color }
                        return toFlat(.unknown(u))
                    case let other:
                        return unknown("the color provider returns \(other.typeDescription)", location, kind: .color)
                    }
                }
            }
            if appearance == .light { lightResult = result } else if appearance == .dark { darkResult = result }
            // The row read once (each subscript of `colors` copied the whole row).
            let row = colors[Int(result)]
            color[appearance] = row[appearance]
            if row.explicit.contains(appearance) && !row.isConstant { innerExplicit.insert(appearance) }
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
    private var lastScopeKey: (scope: [String], key: NameKey)?
    private var lastOwnerScopeKey: NameKey?
    /// How many `inMemberFrame` calls are running (a member's value reads another not memoised yet).
    private var memberDepth = 0

    /// `body` run in a frame of `frameSize` slots (its first slot given), with this scope and `self`; the evaluator's
    /// state is as before afterwards. Re-entered when a value reads a member not memoised yet: only the outermost drops
    /// the tables' rows.
    func inMemberFrame(scope newScope: [String], selfValue newSelf: Value?, scopeKey newKey: NameKey? = nil, frameSize: Int32,
                       _ body: (Int) -> Value) -> Value {
        var member = FrameState(scope: newScope, key: newKey ?? key(of: newScope), selfValue: newSelf)
        exchangeFrameState(&member)
        let saved = (base, top)
        memberDepth += 1
        defer {
            exchangeFrameState(&member)
            (base, top) = saved
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
        base = push(frameSize)
        return body(base)
    }

    /// A declaration's `ownerKey` as a scope's key, kept for the last one asked (a type's static members are evaluated one
    /// after another).
    private func ownerScopeKey(_ ownerKey: String) -> NameKey {
        if let last = lastOwnerScopeKey, last.string == ownerKey { return last }
        let key = NameKey(ownerKey)
        lastOwnerScopeKey = key
        return key
    }

    /// A scope's key, kept for the last scope asked (view code asks again and again for its view's).
    private func key(of scope: [String]) -> NameKey {
        if let last = lastScopeKey, last.scope == scope { return last.key }
        let key = NameKey(scope.joinedWithDots())
        lastScopeKey = (scope, key)
        return key
    }
}

extension FlatEvaluator {
    /// A member's value lowered: an initial value's node, or a computed body and whether it runs natively.
    struct MemberPlan {
        var declaration: MemberDeclaration
        var node: Int32 = -1
        var body = LoweredProgram.Span.empty
        var frameSize: Int32
        /// Where the value is coerced to the declared type: the initial value's location, or the declaration's.
        var valueLocation: SourceLocation
    }

    /// `Interpreter.evaluateMember` for a stored member's initial value or a computed body, `self` bound (an instance for
    /// instance members); nil for what evaluates nothing (no initial value, an enum case, a function), which the
    /// interpreter answers.
    func evaluateMember(_ declaration: MemberDeclaration, selfValue newSelf: Value?) -> Value {
        // The plan's parts held apart: a static member's plan is not kept, and making one copied the declaration into it
        // (its references counted, and released again) for every token.
        var node: Int32 = -1, body = LoweredProgram.Span.empty, frameSize: Int32 = 0, valueLocation = declaration.location
        let key = declaration.identity
        let scopeKey = ownerScopeKey(declaration.ownerKey)
        var shapedRow = -1
        defer { if shapedRow >= 0 { shapedNodes[shapedRow].busy = false } }
        // Only instance members' plans are kept (below): a static member's is not looked up.
        if !declaration.isStatic, let known = memberPlans[key] {
            (node, body, frameSize, valueLocation) = (known.node, known.body, known.frameSize, known.valueLocation)
        } else {
            switch declaration.kind {
            case .stored(let initial?):
                if declaration.isStatic, let shape = program.shape(of: initial) {
                    shapedRow = shapedNodesRow(ShapedKey(scope: scopeKey, shape: shape), initial)
                }
                if shapedRow >= 0 { node = shapedNodes[shapedRow].node } else { (node, frameSize) = program.lowerExpression(initial) }
                valueLocation = initial.location
            case .computed(let statements):
                (body, frameSize) = program.lowerBody(statements)
            default:
                return interpreter.unknown("\(declaration.name) has no value to evaluate", declaration.location)
            }
            // Kept for instance members only: a static member is memoised (keeping its plan too cost the 5k system ~1%,
            // measured with `EvaluatorPool` keeping evaluators for the next workers, and saved nothing elsewhere).
            if !declaration.isStatic {
                memberPlans[key] = MemberPlan(declaration: declaration, node: node, body: body, frameSize: frameSize, valueLocation: valueLocation)
            }
        }
        return inMemberFrame(scope: declaration.owner, selfValue: newSelf, scopeKey: scopeKey, frameSize: frameSize) { _ in
            let type = declaration.type
            let value = node >= 0 ? value(of: node, expected: type) : toValue(run(body, expected: type, at: declaration.location))
            return interpreter.coerce(value, to: type, at: valueLocation)
        }
    }

    /// A static initial value of a shape (`LoweredProgram.Shape`) in a scope: the row of `shapedNodes` whose nodes now
    /// hold `initial`, made busy; -1 when that row is busy (a value of the same shape being evaluated reads this one).
    private func shapedNodesRow(_ key: ShapedKey, _ initial: Expr) -> Int {
        if let row = shapedNodesByKey[key] {
            guard !shapedNodes[row].busy else { return -1 }
            program.refill(shapedNodes[row].node, with: initial)
            shapedNodes[row].busy = true
            return row
        }
        // The shape's first value lowered as any other; its nodes kept for the next (a name's `.name` node, literals' and
        // the root's: nothing about them depends on the value but what `refill` writes).
        let lowered = program.lowerExpression(initial)
        shapedNodes.append((lowered.node, true))
        shapedNodesByKey[key] = shapedNodes.count - 1
        return shapedNodes.count - 1
    }

    /// A closure value applied (a color provider `BuiltIns.dynamicColor` runs): lowered with what it
    /// captured as its frame's first slots, made again there, and applied.
    func apply(_ closure: Value.Closure, _ arguments: [Value], expected: String?, at location: SourceLocation) -> Value {
        let names = closure.captured.keys
        let lowered = program.lowerExpression(Expr(.closure(parameters: closure.parameters, body: closure.body), at: location), locals: names)
        return inMemberFrame(scope: closure.scope, selfValue: closure.selfValue, frameSize: lowered.frameSize) { frame in
            for (slot, name) in names.enumerated() { slots[frame + slot] = closure.captured[name].map(toFlat) ?? .unset }
            return toValue(apply(makeClosure(program.nodes[Int(lowered.node)].a), arguments.map(toFlat), expected: expected, at: location))
        }
    }

    /// `Interpreter.call` (a token function called with evaluated arguments): `invoke` in a frame of its own.
    func call(_ function: MemberDeclaration, arguments: [EvaluatedArgument], selfValue newSelf: Value) -> Value {
        inMemberFrame(scope: function.owner, selfValue: newSelf, scopeKey: ownerScopeKey(function.ownerKey), frameSize: 0) { _ in
            toValue(invoke(function, arguments.map { FlatArgument(label: $0.label, value: toFlat($0.value)) }, selfValue: newSelf,
                           at: function.location))
        }
    }

    /// `Interpreter.evaluate(_:locals:selfValue:scope:expected:)` (view code's colors, fonts and conditions, default
    /// field values, raw values): the expression lowered with the locals as its frame's first slots.
    func evaluateExpression(_ expr: Expr, locals: [String: Value], selfValue: Value?, scope: [String], expected: String?) -> Value {
        let lowered = loweredExpression(expr, locals: locals)
        return inMemberFrame(scope: scope, selfValue: selfValue, frameSize: lowered.frameSize) { frame in
            // A dictionary's values come in its keys' order: the order of the slots lowered for them.
            for (slot, value) in locals.values.enumerated() { slots[frame + slot] = toFlat(value) }
            return toValue(evaluate(lowered.node, expected: expected))
        }
    }

    /// An expression given as IR lowered once for these locals (view code evaluates the same expressions for every
    /// variant and nested view, `defaultFields` for every instance): kept by its location, and checked to be the same
    /// expression and locals there.
    private func loweredExpression(_ expr: Expr, locals: [String: Value]) -> (node: Int32, frameSize: Int32) {
        let place = ExpressionPlace(location: expr.location)
        if let known = loweredExpressions[place]?.first(where: { $0.names.elementsEqual(locals.keys) && $0.expr == expr }) {
            return known.lowered
        }
        let names = Array(locals.keys)
        let lowered = program.lowerExpression(expr, locals: names)
        loweredExpressions[place, default: []].append((expr, names, (lowered.node, lowered.frameSize)))
        return (lowered.node, lowered.frameSize)
    }

    /// A source location as a key hashed by its three fields' bits (`PlanKey`'s way), not by a `Hasher` per look-up.
    struct ExpressionPlace: Hashable {
        var location: SourceLocation
        func _rawHashValue(seed: Int) -> Int {
            let file = UInt64(UInt(bitPattern: location.fileIdentity)) &* 0x9E37_79B9_7F4A_7C15
            let line = UInt64(UInt(bitPattern: location.line)) &* 0x100_0000_01B3
            return NameKey.finalMix(file ^ line ^ UInt64(UInt(bitPattern: location.column)), seed: seed)
        }
    }
}

/// A closure value's evaluator program and definition (`Value.Closure.origin`). Another thread's evaluator only compares
/// the program's identity; only the evaluator that owns the program reads it.
struct ClosureOrigin: @unchecked Sendable {
    let program: LoweredProgram
    let definition: Int32
    let scopeKey: NameKey
}

extension Value {
    var closureValue: Value.Closure? { if case .closure(let c) = self { return c } else { return nil } }
}

/// Evaluators of finished worker interpreters, for the next workers of the same interpreter: what an evaluator lowered
/// and planned (functions, call plans by node and by scope, member plans) depends only on the declarations and the
/// configuration, which the workers share, so it is kept; its values and frames are emptied when a worker takes it.
final class EvaluatorPool: @unchecked Sendable {
    private let lock = NSLock()
    private var spares: [FlatEvaluator] = []

    /// A spare evaluator, now `interpreter`'s, or nil.
    func take(for interpreter: Interpreter) -> FlatEvaluator? {
        lock.lock()
        let spare = spares.popLast()
        lock.unlock()
        spare?.adopt(by: interpreter)
        return spare
    }

    func put(_ evaluator: FlatEvaluator) {
        lock.lock()
        spares.append(evaluator)
        lock.unlock()
    }
}

extension FlatEvaluator {
    /// Made `interpreter`'s: nothing of the last one's evaluation is kept but what was lowered and planned.
    func adopt(by interpreter: Interpreter) {
        self.interpreter = interpreter
        maxCallDepth = interpreter.configuration.maxCallDepth
        (base, top, scope, selfValue, scopeKey) = (0, 0, [], nil, NameKey(""))
        colors.removeAll(keepingCapacity: true)
        boxes.removeAll(keepingCapacity: true)
        closureValues.removeAll(keepingCapacity: true)
        captured.removeAll(keepingCapacity: true)
    }
}
