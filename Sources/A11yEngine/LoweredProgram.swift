/// The IR lowered to flat nodes, what `FlatEvaluator` evaluates (docs/flat-core-plan.md). Nodes sit in one array and
/// name their children, names and literals by integer; a name bound lexically in the body being lowered (a parameter, a `let`, an `if let`, a pattern's binding, a
/// closure's parameter or capture) becomes a slot of its frame. Everything else a name can mean is decided when it is
/// evaluated, as `Interpreter.lookup` decides it.
///
/// Complete: every case of `Expr`, `Stmt`, `Condition` and `Pattern` has a form here, and `raise` gives the IR back
/// exactly (the tests check it on every fixture), so an evaluator over these nodes has all the IR had.
final class LoweredProgram {
    enum Op: UInt8 {
        // Expressions.
        case number            // a: numbers
        case string            // a: literals
        case bool              // a: 0 or 1
        case nilLiteral
        case constant          // a: constants
        case unsupported       // a: literals (the reason)
        case local             // a: slot, b: symbol
        /// A name this frame assigns without declaring it (the evaluator makes a local of it when `self` has no
        /// such field): the slot once set, else the name. a: slot, b: symbol.
        case maybeLocal
        case name              // a: symbol
        case implicitMember    // a: symbol
        case member            // a: base, b: symbol
        case call              // a: callee, b: first argument, c: argument count
        case tuple             // b: first argument, c: count
        case closure           // a: closures
        case ternary           // a: condition, b: then, c: else
        case binary            // a: left, b: right, c: operator symbol
        case prefix            // a: operand, c: operator symbol
        case statementValue    // a: the `if`/`switch` statement node
        case perAppearance     // b: first entry of `appearances`, c: count
        // Statements.
        case expressionStatement  // a: expression
        case binding           // a: value or -1, b: bindings
        case assign            // a: target, b: value, c: operator symbol or -1
        case returnStatement   // a: value or -1
        case ifStatement       // a: ifs
        case guardStatement    // a: guards
        case switchStatement   // a: switches
        case unsupportedStatement // a: literals
        // Conditions.
        case conditionExpression  // a: expression
        case optionalBinding   // a: slot, b: value, c: symbol
        case matches           // a: pattern, b: value
        // Patterns.
        case wildcard
        case bindingPattern    // a: slot, b: symbol
        case enumCasePattern   // a: symbol, b: first sub-pattern in `lists` or -1, c: count
        case tuplePattern      // b: first sub-pattern in `lists`, c: count
        case valuePattern      // a: expression
    }

    struct Node {
        var op: Op
        var a: Int32 = -1, b: Int32 = -1, c: Int32 = -1
    }

    struct Argument {
        var label: Int32  // symbol, or -1 for none
        var value: Int32
    }

    /// A run of `lists`: statements of a block, conditions, cases' patterns.
    struct Span {
        var start: Int32
        var count: Int32
        static let empty = Span(start: 0, count: 0)
    }

    struct Binding {
        var symbols: Span  // in `lists`
        var slots: Span    // in `lists`
    }

    struct If { var conditions: Span; var then: Span; var otherwise: Span?; }
    struct Guard { var conditions: Span; var otherwise: Span }
    struct Case { var patterns: Span; var guardExpression: Int32; var body: Span }
    struct Switch { var subject: Int32; var cases: [Case] }

    /// A closure: its frame holds its parameters (or `$0`, `$1`... when it names none), then what it captures.
    struct Closure {
        /// The parameters as written, and the slots of its arguments in order (of `$0`, `$1`... when none is written).
        var parameters: [Int32]
        var parameterSlots: [Int32]
        /// Each capture: the slot it is read from in the frame that makes the closure, and its slot in the closure's.
        var captures: [(outer: Int32, inner: Int32)]
        var body: Span
        var frameSize: Int32
        var slotSymbols: [Int32]
    }

    /// A function or initialiser: parameters in the first slots; defaults lowered in its frame (they see the parameters
    /// before them).
    struct Function {
        var parameterSlots: [Int32]
        var defaults: [Int32]  // node or -1 per parameter
        var body: Span
        var frameSize: Int32
        var slotSymbols: [Int32]
    }

    private(set) var nodes: [Node] = []
    private(set) var locations: [SourceLocation] = []
    private(set) var lists: [Int32] = []
    private(set) var arguments: [Argument] = []
    private(set) var appearances: [(appearance: Appearance, value: Int32)] = []
    private(set) var numbers: [Double] = []
    private(set) var literals: [String] = []
    private(set) var constants: [Value] = []
    private(set) var symbols: [String] = []
    private var symbolIDs = NameMap<Int32>()
    private(set) var bindings: [Binding] = []
    private(set) var ifs: [If] = []
    private(set) var guards: [Guard] = []
    private(set) var switches: [Switch] = []
    private(set) var closures: [Closure] = []

    func symbol(_ string: String) -> Int32 {
        // Most names asked are among the last few asked (a token helper's name and labels, once for each token's value):
        // compared with the one kept at their length (the same string compares by its bits), they are not hashed.
        let recent = string.utf8.count & (Self.recentSymbolCount - 1)
        if recentSymbols[recent].id >= 0, recentSymbols[recent].name == string { return recentSymbols[recent].id }
        let key = NameKey(string)
        let id: Int32
        if let known = symbolIDs[key] { id = known } else {
            id = Int32(symbols.count)
            symbols.append(string)
            symbolIDs[key] = id
        }
        recentSymbols[recent] = (string, id)
        return id
    }
    /// A name asked lately, by its length in bytes (modulo the count).
    private var recentSymbols = [(name: String, id: Int32)](repeating: ("", -1), count: recentSymbolCount)
    private static let recentSymbolCount = 32

    // MARK: - Frames and scopes while lowering

    /// One function's or closure's frame: its slots, and the names bound in the lexical scopes open in it. A body binds a
    /// few names, so they are a list searched from its end (the innermost first), with each open scope's first entry.
    private struct Frame {
        /// `maybe`: a name assigned without a declaration (`Op.maybeLocal`).
        var entries: [(symbol: Int32, slot: Int32, maybe: Bool)] = []
        var scopeStarts: [Int] = []
        var size: Int32 = 0 { didSet { while slotSymbols.count < Int(size) { slotSymbols.append(-1) } } }
        /// The name each slot holds (-1: none), so that a frame can be given by name to what still takes `Locals`.
        var slotSymbols: [Int32] = []
        var captures: [(outer: Int32, inner: Int32)] = []
        /// A closure that names no parameter: its `$n` slots, made as the body uses them.
        var takesDollars = false
        var dollarSlots: [(symbol: Int32, slot: Int32)] = []

        /// A new slot for a name bound here.
        mutating func newSlot(_ symbol: Int32, maybe: Bool = false) -> Int32 {
            let slot = size
            size += 1
            slotSymbols[Int(slot)] = symbol
            entries.append((symbol, slot, maybe))
            return slot
        }

        /// A slot for `symbol` in the innermost scope: the one it already has there (the patterns of one case that bind the
        /// same name, `case .a(let x), .b(let x)`, bind one slot), else a new one.
        mutating func bind(_ symbol: Int32) -> Int32 {
            let start = scopeStarts.last ?? 0
            var i = entries.count - 1
            while i >= start {
                if entries[i].symbol == symbol && !entries[i].maybe { return entries[i].slot }
                i -= 1
            }
            return newSlot(symbol)
        }

        func find(_ symbol: Int32) -> (slot: Int32, maybe: Bool)? {
            var i = entries.count - 1
            while i >= 0 {
                if entries[i].symbol == symbol { return (entries[i].slot, entries[i].maybe) }
                i -= 1
            }
            return nil
        }
    }
    private var frames: [Frame] = []

    private func openScope() { frames[frames.count - 1].scopeStarts.append(frames[frames.count - 1].entries.count) }

    private func closeScope() {
        let start = frames[frames.count - 1].scopeStarts.removeLast()
        frames[frames.count - 1].entries.removeSubrange(start...)
    }

    private func pushFrame(_ frame: Frame = Frame()) { frames.append(frame) }

    private func popFrame() -> Frame { frames.removeLast() }

    /// The slot of `symbol` in the frame at `index`, captured from the frames around it when it is theirs.
    private func slot(of symbol: Int32, frame index: Int) -> (slot: Int32, maybe: Bool)? {
        guard index >= 0 else { return nil }
        if let found = frames[index].find(symbol) { return found }
        if frames[index].takesDollars {
            if let known = frames[index].dollarSlots.first(where: { $0.symbol == symbol }) { return (known.slot, false) }
            if Self.dollarIndex(symbols[Int(symbol)]) != nil {
                let slot = frames[index].size
                frames[index].size += 1
                frames[index].slotSymbols[Int(slot)] = symbol
                frames[index].dollarSlots.append((symbol, slot))
                return (slot, false)
            }
        }
        guard let outer = slot(of: symbol, frame: index - 1) else { return nil }
        // A capture of a name the outer frame may not have set yet stays one here too.
        let inner = frames[index].newSlot(symbol, maybe: outer.maybe)
        frames[index].captures.append((outer.slot, inner))
        return (inner, outer.maybe)
    }

    static func dollarIndex(_ name: String) -> Int? {
        guard name.utf8.first == UInt8(ascii: "$") else { return nil }
        return Int(name.dropFirst())
    }

    // MARK: - Entry points

    /// A function's or initialiser's parameters and body, in a frame of its own; `frameSize` is that frame's.
    func lowerFunction(_ parameters: [Parameter], body: [Stmt]) -> Function {
        pushFrame()
        var slots: [Int32] = [], defaults: [Int32] = []
        for p in parameters {
            // A default sees the parameters before it (and not its own).
            defaults.append(p.defaultValue.map { lower($0) } ?? -1)
            slots.append(frames[frames.count - 1].bind(symbol(p.name)))
        }
        let block = lower(block: body)
        let frame = popFrame()
        return Function(parameterSlots: slots, defaults: defaults, body: block, frameSize: frame.size, slotSymbols: frame.slotSymbols)
    }

    /// An expression evaluated with `locals` bound (a static member's initial value: none; view code: its locals), in a
    /// frame of its own whose first slots are those locals, in order.
    func lowerExpression(_ expr: Expr, locals: [String] = []) -> (node: Int32, frameSize: Int32) {
        // The frame made in place: one made aside and pushed was copied, its lists counted once more (a static member's
        // initial value is lowered for every token).
        frames.append(Frame())
        for name in locals { _ = frames[frames.count - 1].bind(symbol(name)) }
        let node = lower(expr)
        return (node, frames.removeLast().size)
    }

    /// What nodes lowered for one static initial value can hold for another (`refill`): a call of a name with up to four
    /// arguments, each a string or number literal (`adaptive(light: "#…", dark: "#…")`), or a member of a name
    /// (`Color.brand`; `member` true, the member's own name not part of the shape).
    struct Shape: Hashable {
        var name: Int32
        var member: Bool
        /// Per argument 32 bits, its label's symbol plus two (no label: 1) above its literal's kind (1 string, 2
        /// number), as `FlatEvaluator.DirectKey` packs them.
        var arguments: UInt64, moreArguments: UInt64
    }

    /// The shape of `expr` when it has one `refill` takes, else nil. Only for an expression lowered with no frame around
    /// it and no locals (a static member's initial value), where a name is always lowered to `.name`.
    func shape(of expr: Expr) -> Shape? {
        guard frames.isEmpty else { return nil }
        switch expr.kind {
        case .member(let base, _):
            guard case .name(let name) = base.kind else { return nil }
            return Shape(name: symbol(name), member: true, arguments: 0, moreArguments: 0)
        case .call(let callee, let args):
            guard case .name(let name) = callee.kind, args.count <= 4 else { return nil }
            // Symbols made in the order lowering makes them: the name, then each label.
            let nameSymbol = symbol(name)
            var packed: (UInt64, UInt64) = (0, 0)
            for (i, argument) in args.enumerated() {
                let kind: UInt32
                switch argument.value.kind {
                case .string: kind = 1
                case .number: kind = 2
                default: return nil
                }
                let label = argument.label.map(symbol) ?? -1
                guard label < 1 << 29 else { return nil }
                let bits = UInt64(UInt32(label + 2) << 2 | kind) << (32 * UInt64(i % 2))
                if i < 2 { packed.0 |= bits } else { packed.1 |= bits }
            }
            return Shape(name: nameSymbol, member: false, arguments: packed.0, moreArguments: packed.1)
        default:
            return nil
        }
    }

    /// The nodes `lowerExpression` made for an expression of `expr`'s shape (their root at `node`) made `expr`'s: its
    /// literals, its member's name and its locations written over the old ones, as lowering `expr` would have made them.
    func refill(_ node: Int32, with expr: Expr) {
        let root = Int(node), n = nodes[root]
        locations[root] = expr.location
        switch expr.kind {
        case .member(let base, let name):
            nodes[root].b = symbol(name)
            locations[Int(n.a)] = base.location
        case .call(let callee, let args):
            locations[Int(n.a)] = callee.location
            for (i, argument) in args.enumerated() {
                let value = Int(arguments[Int(n.b) + i].value)
                switch argument.value.kind {
                case .string(let s): nodes[value].a = literal(s)
                case .number(let x):
                    numbers.append(x)
                    nodes[value].a = Int32(numbers.count - 1)
                default: preconditionFailure("refill: not a shape's literal")
                }
                locations[value] = argument.value.location
            }
        default:
            preconditionFailure("refill: not a shape")
        }
    }

    /// A body (a computed property's, an initialiser's) in a frame of its own.
    func lowerBody(_ body: [Stmt]) -> (body: Span, frameSize: Int32) {
        pushFrame()
        let block = lower(block: body)
        return (block, popFrame().size)
    }

    // MARK: - Lowering

    private func add(_ node: Node, at location: SourceLocation) -> Int32 {
        nodes.append(node)
        locations.append(location)
        return Int32(nodes.count - 1)
    }

    private func span(_ items: [Int32]) -> Span {
        let start = Int32(lists.count)
        lists.append(contentsOf: items)
        return Span(start: start, count: Int32(items.count))
    }

    private func literal(_ s: String) -> Int32 {
        literals.append(s)
        return Int32(literals.count - 1)
    }

    func lower(_ e: Expr) -> Int32 {
        switch e.kind {
        case .number(let n):
            numbers.append(n)
            return add(Node(op: .number, a: Int32(numbers.count - 1)), at: e.location)
        case .string(let s): return add(Node(op: .string, a: literal(s)), at: e.location)
        case .bool(let b): return add(Node(op: .bool, a: b ? 1 : 0), at: e.location)
        case .nilLiteral: return add(Node(op: .nilLiteral), at: e.location)
        case .constant(let v):
            constants.append(v)
            return add(Node(op: .constant, a: Int32(constants.count - 1)), at: e.location)
        case .unsupported(let reason): return add(Node(op: .unsupported, a: literal(reason)), at: e.location)
        case .name(let n):
            let s = symbol(n)
            if let found = slot(of: s, frame: frames.count - 1) {
                return add(Node(op: found.maybe ? .maybeLocal : .local, a: found.slot, b: s), at: e.location)
            }
            return add(Node(op: .name, a: s), at: e.location)
        case .implicitMember(let n): return add(Node(op: .implicitMember, a: symbol(n)), at: e.location)
        case .member(let base, let name):
            let b = lower(base)
            return add(Node(op: .member, a: b, b: symbol(name)), at: e.location)
        case .call(let callee, let args):
            let c = lower(callee)
            let (first, count) = lower(arguments: args)
            return add(Node(op: .call, a: c, b: first, c: count), at: e.location)
        case .tuple(let elements):
            let (first, count) = lower(arguments: elements)
            return add(Node(op: .tuple, b: first, c: count), at: e.location)
        case .closure(let parameters, let body):
            var frame = Frame()
            let parameterSymbols = parameters.map(symbol)
            let parameterSlots = parameterSymbols.map { frame.bind($0) }
            if parameters.isEmpty { frame.takesDollars = true }
            pushFrame(frame)
            let block = lower(block: body)
            var done = popFrame()
            var slots = parameterSlots
            if parameters.isEmpty {
                // `$0`, `$1`... up to the highest the body uses, as `apply` binds them: argument n to `$n` (a slot even
                // for one the body skips).
                var byIndex: [Int: Int32] = [:]
                for (symbol, slot) in done.dollarSlots { byIndex[Self.dollarIndex(symbols[Int(symbol)])!] = slot }
                for n in 0..<((byIndex.keys.max() ?? -1) + 1) {
                    if let slot = byIndex[n] { slots.append(slot) } else {
                        slots.append(done.size)
                        done.size += 1
                        done.slotSymbols[Int(done.size - 1)] = symbol("$\(n)")
                    }
                }
            }
            closures.append(Closure(parameters: parameterSymbols, parameterSlots: slots, captures: done.captures, body: block,
                                    frameSize: done.size, slotSymbols: done.slotSymbols))
            return add(Node(op: .closure, a: Int32(closures.count - 1)), at: e.location)
        case .ternary(let c, let t, let f):
            let (a, b, d) = (lower(c), lower(t), lower(f))
            return add(Node(op: .ternary, a: a, b: b, c: d), at: e.location)
        case .binary(let op, let l, let r):
            let (a, b) = (lower(l), lower(r))
            return add(Node(op: .binary, a: a, b: b, c: symbol(op)), at: e.location)
        case .prefix(let op, let operand):
            let a = lower(operand)
            return add(Node(op: .prefix, a: a, c: symbol(op)), at: e.location)
        case .statement(let s):
            // In a copy of the frame, so its bindings stay inside.
            openScope()
            let a = lower(s)
            closeScope()
            return add(Node(op: .statementValue, a: a), at: e.location)
        case .perAppearance(let branches):
            // In appearance order: the dictionary's own order is not stable.
            let lowered = branches.sorted { $0.key.order < $1.key.order }.map { ($0.key, lower($0.value)) }
            let first = Int32(appearances.count)
            appearances.append(contentsOf: lowered.map { (appearance: $0.0, value: $0.1) })
            return add(Node(op: .perAppearance, b: first, c: Int32(lowered.count)), at: e.location)
        }
    }

    private func lower(arguments args: [CallArgument]) -> (first: Int32, count: Int32) {
        // The call's rows reserved first and filled in place (an argument's own call adds its rows after them): no
        // list made and copied per call.
        let first = arguments.count
        arguments.append(contentsOf: repeatElement(Argument(label: -1, value: -1), count: args.count))
        for (i, argument) in args.enumerated() {
            let label = argument.label.map(symbol) ?? -1, value = lower(argument.value)
            arguments[first + i] = Argument(label: label, value: value)
        }
        return (Int32(first), Int32(args.count))
    }

    private func lower(block: [Stmt]) -> Span { span(block.map { lower($0) }) }

    /// A nested block (an `if`'s branch, a case's body): its bindings stay inside it.
    private func lower(nestedBlock: [Stmt]) -> Span {
        openScope()
        defer { closeScope() }
        return lower(block: nestedBlock)
    }

    func lower(_ s: Stmt) -> Int32 {
        switch s.kind {
        case .expression(let e): return add(Node(op: .expressionStatement, a: lower(e)), at: s.location)
        case .binding(let names, let value):
            // The value first: `let x = x + 1` reads the outer `x`.
            let v = value.map { lower($0) } ?? -1
            let symbolsOfNames = names.map(symbol)
            // Only a binding with a value binds (`let x: T` is skipped when run): without one, the name keeps
            // meaning what it meant.
            let slots = value == nil ? [] : symbolsOfNames.map { frames[frames.count - 1].bind($0) }
            bindings.append(Binding(symbols: span(symbolsOfNames), slots: span(slots)))
            return add(Node(op: .binding, a: v, b: Int32(bindings.count - 1)), at: s.location)
        case .assign(let target, let op, let value):
            let v = lower(value)
            let t: Int32
            if case .name(let n) = target.kind, n != "self", slot(of: symbol(n), frame: frames.count - 1) == nil {
                // Assigned without a declaration: a local from here on when `self` has no field of that name.
                let sym = symbol(n)
                let slot = frames[frames.count - 1].newSlot(sym, maybe: true)
                t = add(Node(op: .maybeLocal, a: slot, b: sym), at: target.location)
            } else {
                t = lower(target)
            }
            return add(Node(op: .assign, a: t, b: v, c: op.map(symbol) ?? -1), at: s.location)
        case .return(let e): return add(Node(op: .returnStatement, a: e.map { lower($0) } ?? -1), at: s.location)
        case .if(let conditions, let then, let otherwise):
            // Conditions bind into the then-branch's scope (they are tested in the then-branch's scope).
            openScope()
            let c = span(conditions.map { lower($0) })
            let t = lower(block: then)
            closeScope()
            let o = otherwise.map { lower(nestedBlock: $0) }
            ifs.append(If(conditions: c, then: t, otherwise: o))
            return add(Node(op: .ifStatement, a: Int32(ifs.count - 1)), at: s.location)
        case .guard(let conditions, let otherwise):
            // A guard's bindings hold after it, in the enclosing scope.
            let c = span(conditions.map { lower($0) })
            let o = lower(nestedBlock: otherwise)
            guards.append(Guard(conditions: c, otherwise: o))
            return add(Node(op: .guardStatement, a: Int32(guards.count - 1)), at: s.location)
        case .switch(let subject, let cases):
            let subjectNode = lower(subject)
            var lowered: [Case] = []
            for c in cases {
                openScope()
                let patterns = span(c.patterns.map { lower($0) })
                let guardNode = c.guardExpression.map { lower($0) } ?? -1
                let body = lower(block: c.body)
                closeScope()
                lowered.append(Case(patterns: patterns, guardExpression: guardNode, body: body))
            }
            switches.append(Switch(subject: subjectNode, cases: lowered))
            return add(Node(op: .switchStatement, a: Int32(switches.count - 1)), at: s.location)
        case .unsupported(let reason): return add(Node(op: .unsupportedStatement, a: literal(reason)), at: s.location)
        }
    }

    private func lower(_ c: Condition) -> Int32 {
        // Conditions have no location of their own in the IR: their expression's.
        switch c {
        case .expression(let e): return add(Node(op: .conditionExpression, a: lower(e)), at: e.location)
        case .optionalBinding(let name, let e):
            let v = lower(e)
            let s = symbol(name)
            return add(Node(op: .optionalBinding, a: frames[frames.count - 1].bind(s), b: v, c: s), at: e.location)
        case .matches(let p, let e):
            let v = lower(e)
            let pattern = lower(p)
            return add(Node(op: .matches, a: pattern, b: v), at: e.location)
        }
    }

    private static let noLocation = SourceLocation(file: "", line: 0, column: 0)

    private func lower(_ p: Pattern) -> Int32 {
        switch p {
        case .wildcard: return add(Node(op: .wildcard), at: Self.noLocation)
        case .binding(let name):
            let s = symbol(name)
            return add(Node(op: .bindingPattern, a: frames[frames.count - 1].bind(s), b: s), at: Self.noLocation)
        case .enumCase(let name, let sub):
            let subSpan = sub.map { span($0.map { lower($0) }) }
            return add(Node(op: .enumCasePattern, a: symbol(name), b: subSpan?.start ?? -1, c: subSpan?.count ?? 0), at: Self.noLocation)
        case .tuple(let patterns):
            let s = span(patterns.map { lower($0) })
            return add(Node(op: .tuplePattern, b: s.start, c: s.count), at: Self.noLocation)
        case .value(let e): return add(Node(op: .valuePattern, a: lower(e)), at: e.location)
        }
    }

    // MARK: - Raising (the IR back, for the tests: lowering keeps all of it)

    func raise(_ index: Int32) -> Expr {
        let n = nodes[Int(index)], at = locations[Int(index)]
        func args(_ first: Int32, _ count: Int32) -> [CallArgument] {
            (0..<Int(count)).map { i in
                let a = arguments[Int(first) + i]
                return CallArgument(label: a.label >= 0 ? symbols[Int(a.label)] : nil, value: raise(a.value))
            }
        }
        switch n.op {
        case .number: return Expr(.number(numbers[Int(n.a)]), at: at)
        case .string: return Expr(.string(literals[Int(n.a)]), at: at)
        case .bool: return Expr(.bool(n.a != 0), at: at)
        case .nilLiteral: return Expr(.nilLiteral, at: at)
        case .constant: return Expr(.constant(constants[Int(n.a)]), at: at)
        case .unsupported: return Expr(.unsupported(literals[Int(n.a)]), at: at)
        case .local, .maybeLocal: return Expr(.name(symbols[Int(n.b)]), at: at)
        case .name: return Expr(.name(symbols[Int(n.a)]), at: at)
        case .implicitMember: return Expr(.implicitMember(symbols[Int(n.a)]), at: at)
        case .member: return Expr(.member(raise(n.a), symbols[Int(n.b)]), at: at)
        case .call: return Expr(.call(raise(n.a), args(n.b, n.c)), at: at)
        case .tuple: return Expr(.tuple(args(n.b, n.c)), at: at)
        case .closure:
            let c = closures[Int(n.a)]
            return Expr(.closure(parameters: c.parameters.map { symbols[Int($0)] }, body: raise(block: c.body)), at: at)
        case .ternary: return Expr(.ternary(raise(n.a), raise(n.b), raise(n.c)), at: at)
        case .binary: return Expr(.binary(symbols[Int(n.c)], raise(n.a), raise(n.b)), at: at)
        case .prefix: return Expr(.prefix(symbols[Int(n.c)], raise(n.a)), at: at)
        case .statementValue: return Expr(.statement(raiseStatement(n.a)), at: at)
        case .perAppearance:
            var branches: [Appearance: Expr] = [:]
            for i in 0..<Int(n.c) {
                let entry = appearances[Int(n.b) + i]
                branches[entry.appearance] = raise(entry.value)
            }
            return Expr(.perAppearance(branches), at: at)
        default:
            preconditionFailure("node \(index) (\(n.op)) is not an expression")
        }
    }

    func raise(block: Span) -> [Stmt] { (0..<Int(block.count)).map { raiseStatement(lists[Int(block.start) + $0]) } }

    private func items(_ span: Span) -> [Int32] { Array(lists[Int(span.start)..<Int(span.start + span.count)]) }

    func raiseStatement(_ index: Int32) -> Stmt {
        let n = nodes[Int(index)], at = locations[Int(index)]
        switch n.op {
        case .expressionStatement: return Stmt(.expression(raise(n.a)), at: at)
        case .binding:
            let b = bindings[Int(n.b)]
            return Stmt(.binding(names: items(b.symbols).map { symbols[Int($0)] }, value: n.a >= 0 ? raise(n.a) : nil), at: at)
        case .assign: return Stmt(.assign(target: raise(n.a), operator: n.c >= 0 ? symbols[Int(n.c)] : nil, value: raise(n.b)), at: at)
        case .returnStatement: return Stmt(.return(n.a >= 0 ? raise(n.a) : nil), at: at)
        case .ifStatement:
            let i = ifs[Int(n.a)]
            return Stmt(.if(conditions: items(i.conditions).map(raiseCondition), then: raise(block: i.then),
                            else: i.otherwise.map { raise(block: $0) }), at: at)
        case .guardStatement:
            let g = guards[Int(n.a)]
            return Stmt(.guard(conditions: items(g.conditions).map(raiseCondition), else: raise(block: g.otherwise)), at: at)
        case .switchStatement:
            let sw = switches[Int(n.a)]
            return Stmt(.switch(subject: raise(sw.subject), cases: sw.cases.map { c in
                SwitchCase(patterns: items(c.patterns).map(raisePattern), guardExpression: c.guardExpression >= 0 ? raise(c.guardExpression) : nil,
                           body: raise(block: c.body))
            }), at: at)
        case .unsupportedStatement: return Stmt(.unsupported(literals[Int(n.a)]), at: at)
        default:
            preconditionFailure("node \(index) (\(n.op)) is not a statement")
        }
    }

    private func raiseCondition(_ index: Int32) -> Condition {
        let n = nodes[Int(index)]
        switch n.op {
        case .conditionExpression: return .expression(raise(n.a))
        case .optionalBinding: return .optionalBinding(name: symbols[Int(n.c)], value: raise(n.b))
        case .matches: return .matches(raisePattern(n.a), raise(n.b))
        default: preconditionFailure("node \(index) (\(n.op)) is not a condition")
        }
    }

    private func raisePattern(_ index: Int32) -> Pattern {
        let n = nodes[Int(index)]
        switch n.op {
        case .wildcard: return .wildcard
        case .bindingPattern: return .binding(symbols[Int(n.b)])
        case .enumCasePattern:
            return .enumCase(symbols[Int(n.a)], n.b >= 0 ? items(Span(start: n.b, count: n.c)).map(raisePattern) : nil)
        case .tuplePattern: return .tuple(items(Span(start: n.b, count: n.c)).map(raisePattern))
        case .valuePattern: return .value(raise(n.a))
        default: preconditionFailure("node \(index) (\(n.op)) is not a pattern")
        }
    }
}

extension LoweredProgram {
    /// Every body and value lowered and raised back (`LoweredProgram`): how many there were, and the keys of those that
    /// did not come back as they were.
    static func roundTrips(_ declarations: [MemberDeclaration]) -> (checked: Int, differing: [String]) {
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
