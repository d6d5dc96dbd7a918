import Foundation

/// How much two threads busy at once get from this machine's two cores, read beside each round of `a11y-bench peer`.
/// The same fixed loop runs on one thread alone, then on two threads at once; the share is the time alone over the
/// mean time of the two. Near 1: each thread had a core of its own. Lower: the cores slowed each other. In some
/// minutes this VM's two cores take turns on less than two cores of the host (BENCHMARKS.md, "two cores slow each
/// other"), and there a11yctl, which runs on both, slows more than the one-thread peer: a reading of the bar means
/// little without the share beside it.
enum CoreProbe {
    struct Reading {
        /// The loop's time on one thread alone (µs): it moves when the machine's one-core speed moves.
        var aloneMicroseconds: Double
        /// Time alone / mean time of two threads at once.
        var share: Double
    }

    /// Iterations of `spin`: ~2 ms on one core of the development machine.
    static let iterations = 2_000_000

    static func read() -> Reading {
        let alone = timed { spin(iterations) }
        // The second thread starts, then both wait for the flag so that they run together.
        let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let go = GoFlag(), other = OtherTime()
        let thread = Thread {
            started.signal()
            while !go.isSet {}
            other.microseconds = timed { spin(iterations) }
            finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        started.wait()
        go.set()
        let here = timed { spin(iterations) }
        finished.wait()
        return Reading(aloneMicroseconds: alone, share: alone / ((here + other.microseconds) / 2))
    }

    private static func timed(_ body: () -> Void) -> Double {
        let start = DispatchTime.now()
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1000
    }

    /// A chain of dependent integer steps in registers: no memory traffic, so only the core's speed shows. Seeded by
    /// the clock and its result printed when it is an unlikely value, so the optimiser (link-time included) keeps it.
    @inline(never)
    static func spin(_ count: Int) {
        var x = DispatchTime.now().uptimeNanoseconds | 1
        for _ in 0..<count { x = (x ^ (x >> 12)) &* 0x2545_F491_4F6C_DD1D }
        if x == 0x1234_5678 { print("core probe: an unlikely value") }
    }

    /// The other thread's time, written before it signals `finished` and read after that.
    private final class OtherTime: @unchecked Sendable { var microseconds = 0.0 }

    /// Set once by the measuring thread, read by the other's spin-wait.
    private final class GoFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
        func set() { lock.lock(); value = true; lock.unlock() }
    }
}
