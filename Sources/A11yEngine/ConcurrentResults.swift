import Foundation

/// Results of work run with `parallelPerform`, one slot per iteration (each written by one worker),
/// read in iteration order afterwards so output stays deterministic.
public final class ConcurrentResults<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]

    public init(count: Int) { slots = Array(repeating: nil, count: count) }

    public func set(_ index: Int, _ value: Value?) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    public var values: [Value?] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }

    /// The values, moved out (the slots are left empty): the caller holds the only reference to each.
    public func takeValues() -> [Value?] {
        lock.lock()
        defer { lock.unlock() }
        let taken = slots
        slots = Array(repeating: nil, count: slots.count)
        return taken
    }
}

/// `transform` of each of `items`, in order, computed on `workers` threads that each take a contiguous share (for work
/// of even cost per item: no queue to share).
public func concurrentMap<Item, Result>(_ items: [Item], workers: Int, _ transform: @escaping @Sendable (Item) -> Result) -> [Result] {
    let shared = ReadOnly(value: items)
    return concurrentArray(count: items.count, workers: workers) { transform(shared.value[$0]) }
}

/// `part(range)` for `workers` contiguous ranges that cover `0..<count`, each on a thread of its own, joined in order: a
/// pass over a large array that keeps some of its elements (a filter), made on all cores.
public func concurrentParts<Element>(count: Int, workers: Int, _ part: @escaping @Sendable (Range<Int>) -> [Element]) -> [Element] {
    let workers = max(1, min(workers, count))
    guard workers > 1 else { return part(0..<count) }
    return concurrentMap(Array(0..<workers), workers: workers) { w in part(count * w / workers..<count * (w + 1) / workers) }
        .flatMap { $0 }
}

/// `element(i)` for each `i` in `0..<count`, in order, made on `workers` threads that each initialise a contiguous
/// share of the array in place (per-worker arrays joined afterwards were copied, every element retained again);
/// `alongside` runs as one more task beside them.
public func concurrentArray<Element>(count: Int, workers: Int, alongside: (@Sendable () -> Void)? = nil,
                                     _ element: @escaping @Sendable (Int) -> Element) -> [Element] {
    let workers = max(1, min(workers, count))
    guard workers > 1 else {
        alongside?()
        return (0..<count).map(element)
    }
    let shares = (0..<workers).map { count * $0 / workers..<count * ($0 + 1) / workers }
    return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
        let base = ReadOnly(value: buffer.baseAddress!)
        let extra = alongside == nil ? 0 : 1
        parallelPerform(iterations: workers + extra) { task in
            guard task >= extra else { return alongside!() }
            for i in shares[task - extra] { (base.value + i).initialize(to: element(i)) }
        }
        initialized = count
    }
}

/// Indexes `0..<count` handed out a chunk at a time to whichever worker asks next, so a worker that draws cheap items
/// takes more: a contiguous share per worker left one core idle while the other evaluated an expensive stretch (7:1 on
/// elevate-ios's primitives). Results must not depend on which worker took an item.
public final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private let chunk: Int

    public init(count: Int, chunk: Int = 1) {
        self.count = count
        self.chunk = max(1, chunk)
    }

    /// The next chunk of indexes, nil when none is left.
    public func take() -> Range<Int>? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        let start = next
        next = min(count, next + chunk)
        return start..<next
    }
}

/// A value shared with concurrent workers that only read it (an audit context once the graph is complete).
public struct ReadOnly<Value>: @unchecked Sendable {
    public let value: Value
    public init(value: Value) { self.value = value }
}
