/// A value kept behind one reference, copied only when it is changed while shared: a struct of many references
/// (`Pairing`, `Finding`) is then copied by counting one reference, not each of its fields.
struct CopyOnWrite<Value: Equatable & Sendable>: @unchecked Sendable {  // (the box is never changed while shared)
    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
    private var box: Box

    init(_ value: Value) { box = Box(value) }

    /// Read in place (a field read does not copy the others); changed in a box of its own.
    var value: Value {
        _read { yield box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }

    static func == (a: CopyOnWrite, b: CopyOnWrite) -> Bool { a.box === b.box || a.box.value == b.box.value }
}
