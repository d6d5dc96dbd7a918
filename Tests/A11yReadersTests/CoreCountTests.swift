import Foundation
import Testing
@testable import A11yReaders

/// The cores an audit uses: the affinity mask as the kernel reports it, capped by a cgroup CPU quota.
struct CoreCountTests {
    @Test func aQuotaRoundsUpToWholeCores() {
        #expect(CoreCount.cores(cpuMax: "150000 100000") == 2)
        #expect(CoreCount.cores(cpuMax: "50000 100000") == 1)
        #expect(CoreCount.cores(cpuMax: "400000 100000") == 4)
        #expect(CoreCount.cores(quota: 200_000, period: 100_000) == 2)
    }

    @Test func noQuotaIsNoCap() {
        #expect(CoreCount.cores(cpuMax: "max 100000") == nil)
        #expect(CoreCount.cores(quota: -1, period: 100_000) == nil)  // cgroup v1's "none"
        #expect(CoreCount.cores(cpuMax: "") == nil)
        #expect(CoreCount.cores(cpuMax: "garbage") == nil)
    }

    /// The mask read from /proc/self/status counts the CPUs `nproc` (coreutils, through sched_getaffinity) counts for
    /// this process, and a process started under `taskset -c 0` has one.
    @Test func theAffinityMaskIsNprocs() throws {
        #expect(CoreCount.affinityCores() == (try Self.run("/usr/bin/nproc", [])).flatMap { Int($0) })
        let pinned = try Self.run("/usr/bin/taskset", ["-c", "0", "/usr/bin/grep", "Cpus_allowed:", "/proc/self/status"])
        let mask = try #require(pinned?.split(separator: "\t").last)
        #expect(mask.reduce(0) { $0 + ($1.hexDigitValue?.nonzeroBitCount ?? 0) } == 1)
    }

    /// The lowest CPU of a mask, as `a11y-bench peer` passes it to `taskset --cpu-list`; and this process's is the first
    /// CPU `taskset -p` lists for it.
    @Test func theFirstAllowedCPUIsTheMasksLowestBit() throws {
        func first(_ mask: String) -> Int? { CoreCount.firstCPU(inMask: Array(mask.utf8)[...]) }
        #expect(first("\tff,ffffffff") == 0)
        #expect(first("\t3") == 0)
        #expect(first("\t2") == 1)
        #expect(first("\tff,ffffff00") == 8)
        #expect(first("\t1,00000000") == 32)
        #expect(first("\t0") == nil)
        let listed = try #require(try Self.run("/usr/bin/taskset", ["-c", "-p", "\(getpid())"]))
        // "pid N's current affinity list: 0-1" (or "2,4" in a cpuset).
        let list = try #require(listed.split(separator: ":").last).trimmingCharacters(in: .whitespaces)
        #expect(firstAllowedCore == Int(list.prefix { $0.isNumber }))
    }

    @Test func activeCoresAreAtLeastOneAndAtMostTheMask() throws {
        let mask = try #require(CoreCount.affinityCores())
        #expect(activeCores >= 1)
        #expect(activeCores <= mask)
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // nproc also obeys OpenMP's variables: the test compares the mask alone.
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("OMP_") }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
