import Foundation
import Testing
@testable import A11yEngine

/// How parallel work is split: rounds of static members by what they name, and indexes handed to whichever worker asks.
struct ConcurrentWorkTests {
    /// The rounds of members named `names`, each mentioning the names in `mentioned` (nil: not known), as
    /// `prefetchStaticValues` gives them to `prefetchRounds`: mentioned names that are no pending member's are dropped.
    func roundsOf(_ mentioned: [Set<String>?], names: [String]) -> [[Int]] {
        let prefetchNames = Interpreter.PrefetchNames(names)
        return Interpreter.prefetchRounds(mentioned.map { $0.map { $0.sorted().compactMap { prefetchNames.ids[$0] } } },
                                          names: prefetchNames)
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
        DispatchQueue.concurrentPerform(iterations: 3) { i in results.set(i, Memo(i + 1)) }
        var taken = results.takeValues()
        #expect(taken.map { $0?.entries } == [1, 2, 3])
        #expect(results.values.allSatisfy { $0 == nil })
        var adopted = taken[2].take()!
        #expect(isKnownUniquelyReferenced(&adopted))
        #expect(taken[2] == nil)
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
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
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
}
