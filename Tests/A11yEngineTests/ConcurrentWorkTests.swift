import Foundation
import Testing
@testable import A11yEngine

/// How parallel work is split: rounds of static members by what they name, and indexes handed to whichever worker asks.
struct ConcurrentWorkTests {
    /// The rounds of members named `names`, each mentioning the names in `mentioned` (nil: not known), as
    /// `prefetchStaticValues` gives them to `prefetchRounds`: mentioned names that are no pending member's are dropped.
    func roundsOf(_ mentioned: [Set<String>?], names: [String]) -> [[Int]] {
        let prefetchNames = Interpreter.PrefetchNames(names)
        let lists = mentioned.map { $0.map { $0.sorted().compactMap { prefetchNames.id(of: $0) } } }
        return Interpreter.prefetchRounds(Interpreter.PrefetchMentions(lists), names: prefetchNames)
    }

    /// Primitives, then aliases of primitives, then component tokens of aliases: each round names only earlier ones.
    @Test func prefetchRoundsFollowWhatEachMemberNames() {
        let names = ["blue500", "white", "actionFill", "buttonFill", "buttonText", "gray"]
        let mentioned: [Set<String>?] = [[], [], ["blue500"], ["actionFill"], ["white", "actionFill"], ["Color"]]
        let rounds = roundsOf(mentioned, names: names)
        #expect(rounds == [[0, 1, 5], [2], [3, 4], []])
    }

    /// A name stands for every member of that name: `fill` of one type waits for the `fill` of another.
    @Test func aNameWaitsForEveryMemberOfThatName() {
        let names = ["fill", "fill", "border"]
        let mentioned: [Set<String>?] = [[], ["fill"], ["fill"]]
        // The second `fill` names `fill`, which includes itself: it never clears, and nor does `border` behind it.
        let rounds = roundsOf(mentioned, names: names)
        #expect(rounds == [[0], [], [], [1, 2]])
    }

    /// Members whose value the rounds cannot see into, and chains deeper than the rounds, join the last round.
    @Test func unknownAndDeepChainsJoinTheLastRound() {
        let names = ["a", "b", "c", "d", "e", "opaque"]
        let mentioned: [Set<String>?] = [[], ["a"], ["b"], ["c"], ["d"], nil]
        let rounds = roundsOf(mentioned, names: names)
        #expect(rounds.count == Interpreter.maximumPrefetchRounds)
        #expect(rounds == [[0], [1], [2], [3, 4, 5]])
    }

    /// A prefetch round adopts a worker's memo only when it holds the one reference to it: taking the results moves them
    /// out, each uniquely referenced, and leaves the slots empty.
    @Test func takingTheResultsMovesThemOut() {
        final class Memo: @unchecked Sendable {
            let entries: Int
            init(_ entries: Int) { self.entries = entries }
        }
        let results = ConcurrentResults<Memo>(count: 3)
        parallelPerform(iterations: 3) { i in results.set(i, Memo(i + 1)) }
        var taken = results.takeValues()
        #expect(taken.map { $0?.entries } == [1, 2, 3])
        #expect(results.values.allSatisfy { $0 == nil })
        var adopted = taken[2].take()!
        #expect(isKnownUniquelyReferenced(&adopted))
        #expect(taken[2] == nil)
    }

    /// The member index built in parts on two workers (a large program) lists each owner's members as the one-part index
    /// does: a type whose members come in several runs (an extension elsewhere) and overloads of one name keep the order
    /// they were declared in.
    @Test func theMemberIndexInPartsKeepsEachOwnersMembersInOrder() {
        func member(_ owner: [String], _ name: String, line: Int) -> MemberDeclaration {
            MemberDeclaration(owner: owner, name: name, isStatic: true, kind: .stored(initial: nil), type: "Color",
                              location: SourceLocation(file: "Tokens.swift", line: line, column: 5))
        }
        var declarations: [MemberDeclaration] = []
        // `Color`'s members in two runs with other owners' between them, one name declared in both runs.
        for i in 0..<1_200 { declarations.append(member(["Color"], "token\(i)", line: declarations.count + 1)) }
        for i in 0..<900 { declarations.append(member(["Theme\(i % 30)"], "fill\(i / 30)", line: declarations.count + 1)) }
        for i in 0..<300 { declarations.append(member(["Color"], "late\(i)", line: declarations.count + 1)) }
        declarations.append(member(["Color"], "token7", line: declarations.count + 1))
        #expect(declarations.count >= Interpreter.declarationsIndexedInParts)
        var twoWorkers = Interpreter.Configuration()
        twoWorkers.workers = 2
        let inParts = Interpreter(declarations: declarations, types: [], configuration: twoWorkers)
        let whole = Interpreter(declarations: declarations, types: [], configuration: Interpreter.Configuration())
        for declaration in declarations {
            let listed = inParts.declarations(owner: declaration.ownerKey, name: declaration.name)
            #expect(listed == whole.declarations(owner: declaration.ownerKey, name: declaration.name))
            #expect(listed.contains(declaration))
        }
        #expect(inParts.declarations(owner: "Color", name: "token7").map(\.location.line) == [8, 2_401])
        #expect(inParts.declarations(owner: "Theme3", name: "fill0").count == 1)
    }

    /// Every index is handed out exactly once, in chunks, however many workers ask at once.
    @Test func aWorkQueueHandsOutEveryIndexOnce() {
        final class Taken: @unchecked Sendable {
            let lock = NSLock()
            var indexes: [Int] = []
            var chunks = 0
        }
        let taken = Taken()
        let queue = WorkQueue(count: 1_003, chunk: 16)
        parallelPerform(iterations: 4) { _ in
            while let chunk = queue.take() {
                #expect(chunk.count <= 16)
                taken.lock.lock()
                taken.indexes += Array(chunk)
                taken.chunks += 1
                taken.lock.unlock()
            }
        }
        #expect(taken.indexes.sorted() == Array(0..<1_003))
        #expect(taken.chunks == 63)
        #expect(queue.take() == nil)
    }

    /// Counts of how often each index ran, and on which threads (written under a lock).
    final class Runs: @unchecked Sendable {
        let lock = NSLock()
        var counts: [Int]
        var threads: Set<UInt> = []
        init(_ count: Int) { counts = Array(repeating: 0, count: count) }
        func ran(_ i: Int) {
            lock.lock()
            counts[i] += 1
            threads.insert(UInt(pthread_self()))
            lock.unlock()
        }
    }

    /// The pool runs every index exactly once, on the caller and its threads, whether the caller works or only waits, and
    /// returns only when all are done (the body is not escaping: `withoutActuallyEscaping` traps if a thread still holds
    /// it, so a run that returns proves none does).
    @Test func thePoolRunsEveryIndexOnceAndReturnsWhenAllAreDone() {
        for callerWorks in [true, false] {
            for iterations in [1, 2, 7, 500] {
                let runs = Runs(iterations)
                WorkerPool.shared.perform(iterations: iterations, callerWorks: callerWorks) { i in
                    if i % 3 == 0 { usleep(200) }  // some slow indexes, so that several threads take some
                    runs.ran(i)
                }
                #expect(runs.counts == Array(repeating: 1, count: iterations), "callerWorks \(callerWorks), \(iterations) iterations")
            }
        }
    }

    /// A job's iterations may run jobs of their own (a file read in parts while other files are read): the nested ones
    /// complete, each index once, and threads that are free take part in them.
    @Test func nestedJobsCompleteWithFreeThreadsTakingPart() {
        let outer = Runs(4)
        let inner = (0..<4).map { _ in Runs(64) }
        WorkerPool.runOnDeepStack {
            WorkerPool.shared.perform(iterations: 4, callerWorks: WorkerPool.hasDeepStack) { i in
                outer.ran(i)
                parallelPerform(iterations: 64) { j in
                    usleep(50)
                    inner[i].ran(j)
                }
            }
        }
        #expect(outer.counts == [1, 1, 1, 1])
        for runs in inner { #expect(runs.counts == Array(repeating: 1, count: 64)) }
    }

    /// A caller done with its share of a job does not sit waiting while an iteration on another thread runs a job of
    /// its own: it takes part in that nested job (the contrast rules' pieces, started by a rule on the pool's thread).
    @Test func aWaitingCallerHelpsWithTheJobsItsJobStarts() {
        final class Threads: @unchecked Sendable {
            let lock = NSLock()
            var caller: pthread_t?
            var nestedStarted = false
            var nestedOnCaller = 0
            var nested = Runs(0)
        }
        let threads = Threads()
        // A pool thread must take the iteration that starts the nested job: the caller's iteration waits (up to a
        // second: other tests' jobs may keep the pool busy) until it has, and the whole is tried again if it never did.
        @Sendable func started() -> Bool {
            threads.lock.lock()
            defer { threads.lock.unlock() }
            return threads.nestedStarted
        }
        for _ in 0..<5 where !started() {
            WorkerPool.runOnDeepStack {
                threads.caller = pthread_self()
                WorkerPool.shared.perform(iterations: 2, callerWorks: true) { _ in
                    guard pthread_equal(pthread_self(), threads.caller!) == 0 else {
                        for _ in 0..<1_000 where !started() { usleep(1_000) }
                        return
                    }
                    threads.lock.lock()
                    threads.nestedStarted = true
                    threads.nested = Runs(200)
                    threads.lock.unlock()
                    // Iterations on the pool's threads wait (up to five seconds in all) for the caller to take one: a
                    // caller slow to come back, descheduled or helping another test's newer job first, must not find
                    // the nested job already finished. A caller that never helps still leaves nestedOnCaller at 0.
                    let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
                    parallelPerform(iterations: 200) { j in
                        usleep(100)
                        let onCaller = pthread_equal(pthread_self(), threads.caller!) != 0
                        threads.lock.lock()
                        if onCaller { threads.nestedOnCaller += 1 }
                        threads.lock.unlock()
                        while !onCaller, DispatchTime.now().uptimeNanoseconds < deadline {
                            threads.lock.lock()
                            let callerHelped = threads.nestedOnCaller > 0
                            threads.lock.unlock()
                            if callerHelped { break }
                            usleep(1_000)
                        }
                        threads.nested.ran(j)
                    }
                }
            }
        }
        #expect(threads.nestedStarted)
        #expect(threads.nested.counts == Array(repeating: 1, count: 200))
        #expect(threads.nestedOnCaller > 0, "the caller took none of the nested job's 200 iterations")
    }

    /// `runOnDeepStack` runs its body on a thread with a deep stack (the pool's threads have one too), and a thread the
    /// test runs on has not.
    @Test func deepStacksAreKnown() {
        final class Seen: @unchecked Sendable { var deep = false }
        #expect(!WorkerPool.hasDeepStack)
        let seen = Seen()
        WorkerPool.runOnDeepStack { seen.deep = WorkerPool.hasDeepStack }
        #expect(seen.deep)
        let runs = Runs(2)
        let poolThreadsDeep = Seen()
        poolThreadsDeep.deep = true
        WorkerPool.shared.perform(iterations: 2, callerWorks: false) { i in
            if !WorkerPool.hasDeepStack { poolThreadsDeep.deep = false }
            runs.ran(i)
        }
        #expect(poolThreadsDeep.deep)
    }
}
