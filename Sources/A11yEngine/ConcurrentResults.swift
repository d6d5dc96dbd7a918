import Foundation

/// Results of work run with `DispatchQueue.concurrentPerform`, one slot per iteration (each written by one worker),
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
}

/// `count` items in `workers` contiguous shares of nearly equal size, in order (the last ones may be shorter or empty):
/// each worker of a `concurrentPerform` takes one.
func contiguousShares(of count: Int, workers: Int) -> [Range<Int>] {
    let chunk = (count + workers - 1) / workers
    return (0..<workers).map { w in min(count, w * chunk)..<min(count, (w + 1) * chunk) }
}

/// A value shared with concurrent workers that only read it (an audit context once the graph is complete).
public struct ReadOnly<Value>: @unchecked Sendable {
    public let value: Value
    public init(value: Value) { self.value = value }
}
