import CSpinHint
import Foundation
import Synchronization

/// Runs `body(i)` for each `i` in `0..<iterations` on the calling thread and the worker pool's threads, each taking the
/// next index until none is left, and returns when all are done (as `DispatchQueue.concurrentPerform`, which it
/// replaces: see `WorkerPool`).
public func parallelPerform(iterations: Int, _ body: (Int) -> Void) {
    WorkerPool.shared.perform(iterations: iterations, callerWorks: true, body)
}

/// The threads every parallel phase of an audit runs on besides its caller: one per core but the caller's, with deep
/// stacks (readers parse on them, and SwiftSyntax recurses once per nesting level), kept running between phases.
///
/// Why not Dispatch's pool (BENCHMARKS.md, "Workers that do not sleep between phases"): a worker that had gone to sleep
/// between two phases was woken onto the busy core of the thread that woke it, and ran only when the kernel next
/// balanced the cores, 1-4 ms later (`perf sched latency` on elevate-ios's audit: an average delay of 0.4-1 ms a wake-up;
/// the second worker of half its prefetch rounds started after the first had done all the work). An audit is ~20 short
/// parallel phases with short serial steps between them, so the pool's threads, and a caller waiting for them, spin
/// (yielding the core to any other thread that wants it) instead of sleeping, and sleep only after `spinTime` without
/// work (a11yctl's: the whole audit; the daemon's: not at all): a daemon between audits uses no CPU. OpenMP runtimes
/// wait actively for the same reason.
public final class WorkerPool: @unchecked Sendable {
    public static let shared = WorkerPool()

    /// A pool thread's stack: reserved, not used (only touched pages cost memory).
    public static let stackSize = 1 << 30
    /// How long a thread without work keeps looking for some before it sleeps, in nanoseconds: set when the pool starts
    /// (`start`). None unless the starter says: the daemon's audits follow saves, seconds apart, and its threads spinning
    /// after each audit took the cores from the next steps of the save (p99 beyond the settle window 21.5 -> 25.0 ms
    /// with 2 ms); a one-shot audit's phases follow each other.
    private var spinTime: UInt64 = 0

    /// One `perform`: its body and the indexes not yet taken.
    private final class Job: @unchecked Sendable {
        let iterations: Int
        /// The caller's closure, read through a pointer: it is not escaping, and no thread but the caller holds it after
        /// the job is done (the caller waits for every participant to leave).
        let body: UnsafePointer<(Int) -> Void>
        let next = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        /// Pool threads inside `work()` (joined under the pool's lock, while the job still had indexes to give).
        let participants = Atomic<Int>(0)

        init(iterations: Int, body: UnsafePointer<(Int) -> Void>) {
            self.iterations = iterations
            self.body = body
        }

        var hasWork: Bool { next.load(ordering: .relaxed) < iterations }
        var isFinished: Bool { finished.load(ordering: .acquiring) == iterations && participants.load(ordering: .acquiring) == 0 }

        func work() {
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < iterations else { return }
                body.pointee(i)
                finished.wrappingAdd(1, ordering: .releasing)
            }
        }
    }

    /// Threads besides the caller, set by `start`: one per core but the caller's, as the readers count cores
    /// (`Workspace`, a11yctl); one when the engine is used alone. A spinning thread more than there are cores took a
    /// core's time from the workers (the caller of a phase works in it, on a deep stack when it reads files:
    /// `runOnDeepStack`).
    private var threadCount = 1
    /// False on one core: a caller that works runs its job alone (a second thread could only take turns with it).
    private var helps = true
    private let lock = NSCondition()
    /// Jobs being performed, oldest first (a job's iterations may perform jobs of their own). Guarded by `lock`.
    private var jobs: [Job] = []
    /// Bumped (under `lock`) whenever a job is added: a thread that found nothing to take looks again only then.
    private let generation = Atomic<Int>(0)
    private var started = false
    private var sleeping = 0

    private init() {}

    /// How many threads a working caller's job runs on: the caller and the pool's threads, or the caller alone on one
    /// core. (Output written in blocks is split this many ways: the pool knows the cores, as the readers counted them.)
    public var width: Int {
        lock.lock()
        defer { lock.unlock() }
        return helps ? threadCount + 1 : 1
    }

    /// Whether the calling thread has a deep stack: one of the pool's, or one `runOnDeepStack` made.
    public static var hasDeepStack: Bool { pthread_getspecific(deepStackKey) != nil }
    private static let deepStackKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Starts `threads` threads (at least one), each to spin `spinMilliseconds` without work before it sleeps;
    /// `onFirstThread` runs on one of them first. a11yctl starts them while it parses its arguments, rather than at the
    /// first parallel phase. Nothing changes once the pool has started (the first parallel phase starts it as it is).
    public func start(threads: Int, spinMilliseconds: Int = 0, onFirstThread: (@Sendable () -> Void)? = nil) {
        lock.lock()
        defer { lock.unlock() }
        guard !started else { return }
        started = true
        threadCount = max(1, threads)
        // On one core another thread could only take turns with the caller (and a spinning one take its time, or under a
        // CPU quota the quota): the one thread is for callers without a deep stack, and sleeps.
        helps = threads >= 1
        spinTime = helps ? UInt64(spinMilliseconds) * 1_000_000 : 0
        for index in 0..<threadCount {
            let thread = Thread { [self] in
                pthread_setspecific(Self.deepStackKey, UnsafeRawPointer(bitPattern: 1))
                if index == 0 { onFirstThread?() }
                run()
            }
            thread.stackSize = Self.stackSize
            thread.start()
        }
    }

    /// Runs `body` on a thread of its own with a deep stack, and returns when it is done: a one-shot command's whole
    /// run, so that it takes its share of every parallel phase, reading files included.
    public static func runOnDeepStack(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            pthread_setspecific(deepStackKey, UnsafeRawPointer(bitPattern: 1))
            body()
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
    }

    /// `body(i)` for each `i` in `0..<iterations`; the caller takes indexes too when `callerWorks` (a caller without a
    /// deep stack that runs reader work does not), and waits for the rest.
    public func perform(iterations: Int, callerWorks: Bool, _ body: (Int) -> Void) {
        guard iterations > 0 else { return }
        if iterations == 1 && callerWorks { return body(0) }
        start(threads: threadCount)
        if callerWorks && !helps { return (0..<iterations).forEach(body) }
        withoutActuallyEscaping(body) { body in
            withUnsafePointer(to: body) { pointer in
                let job = Job(iterations: iterations, body: pointer)
                lock.lock()
                jobs.append(job)
                generation.wrappingAdd(1, ordering: .releasing)
                if sleeping > 0 { lock.broadcast() }
                lock.unlock()
                if callerWorks {
                    job.work()
                } else {
                    // A caller without a deep stack (the daemon's audit queue, a test) is made up for by a thread of
                    // the job's own, so that as many threads as cores read its files; and a started thread runs at
                    // once where a sleeping pool thread may wake late (the daemon reading the one file a save changed).
                    job.participants.wrappingAdd(1, ordering: .relaxed)
                    let helper = Thread {
                        pthread_setspecific(Self.deepStackKey, UnsafeRawPointer(bitPattern: 1))
                        job.work()
                        job.participants.wrappingAdd(-1, ordering: .releasing)
                    }
                    helper.stackSize = Self.stackSize
                    helper.start()
                }
                // The last iterations run on other threads: wait for them actively (they are short). A caller that
                // works helps meanwhile with the jobs they start (a contrast rule's pieces), on a deep stack as theirs
                // may need: waiting, it left those to the pool's threads alone, and one core idle while the other
                // finished a rule's last pieces.
                wait(until: { job.isFinished }, helping: callerWorks, withJobsAfter: job)
                lock.lock()
                jobs.removeAll { $0 === job }
                lock.unlock()
            }
        }
    }

    /// Returns once `done()`, taking iterations of the pool's jobs meanwhile when the caller has a deep stack: a caller
    /// waiting for work another thread is doing (a file read ahead, and read in parts) helps with it rather than wait.
    public func help(until done: () -> Bool) { wait(until: done, helping: true, withJobsAfter: nil) }

    /// Waits actively until `done()`. When `helping` and on a deep stack, takes iterations meanwhile of the newest job
    /// with some (added after `earlier`, when given).
    private func wait(until done: () -> Bool, helping: Bool, withJobsAfter earlier: Job?) {
        while !done() {
            let seen = generation.load(ordering: .acquiring)
            if helping, Self.hasDeepStack, let job = join(after: earlier) {
                job.work()
                job.participants.wrappingAdd(-1, ordering: .releasing)
                continue
            }
            Self.pollThenYield { done() || generation.load(ordering: .relaxed) != seen }
        }
    }

    /// A pool thread: takes iterations of the newest job that has some (a nested job first, so that the iteration
    /// waiting for it finishes), looks again whenever a job is added or it finished one, spins while there is none,
    /// and sleeps after `spinTime` without work.
    private func run() {
        var seen = -1
        var idleSince = DispatchTime.now().uptimeNanoseconds
        while true {
            let current = generation.load(ordering: .acquiring)
            if current != seen {
                seen = current
                if let job = join() {
                    job.work()
                    job.participants.wrappingAdd(-1, ordering: .releasing)
                    (seen, idleSince) = (-1, DispatchTime.now().uptimeNanoseconds)
                    continue
                }
            }
            if DispatchTime.now().uptimeNanoseconds - idleSince < spinTime {
                Self.pollThenYield { generation.load(ordering: .relaxed) != seen }
                continue
            }
            lock.lock()
            if generation.load(ordering: .relaxed) == seen {
                sleeping += 1
                lock.wait()
                sleeping -= 1
            }
            lock.unlock()
            idleSince = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Waits a little for `ready` by reading it in a loop, then yields the core: a `sched_yield` at every look made
    /// each wait a system call, and work arriving just after one waited for the scheduler.
    /// Each look is followed by the processor's spin-wait hint: a cold 5k audit 1-3% faster, in fast and slow minutes alike
    /// (BENCHMARKS.md, "A faster machine").
    @inline(__always)
    private static func pollThenYield(_ ready: () -> Bool) {
        for _ in 0..<256 {
            if ready() { return }
            a11y_spin_hint()
        }
        sched_yield()
    }

    /// The newest job with indexes left (added after `earlier`, when given: a job started by one of its iterations),
    /// joined as a participant.
    private func join(after earlier: Job? = nil) -> Job? {
        lock.lock()
        defer { lock.unlock() }
        let from = earlier.flatMap { earlier in jobs.lastIndex { $0 === earlier }.map { $0 + 1 } } ?? 0
        guard let job = jobs[from...].last(where: \.hasWork) else { return nil }
        job.participants.wrappingAdd(1, ordering: .relaxed)
        return job
    }
}
