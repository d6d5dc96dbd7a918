import Foundation
import XCTest
@testable import A11yReaders

/// The cores an audit uses: the affinity mask as the kernel reports it, capped by a cgroup CPU quota.
final class CoreCountTests: XCTestCase {
    func testQuotaRoundsUpToWholeCores() {
        XCTAssertEqual(CoreCount.cores(cpuMax: "150000 100000"), 2)
        XCTAssertEqual(CoreCount.cores(cpuMax: "50000 100000"), 1)
        XCTAssertEqual(CoreCount.cores(cpuMax: "400000 100000"), 4)
        XCTAssertEqual(CoreCount.cores(quota: 200_000, period: 100_000), 2)
    }

    func testNoQuota() {
        XCTAssertNil(CoreCount.cores(cpuMax: "max 100000"))
        XCTAssertNil(CoreCount.cores(quota: -1, period: 100_000))  // cgroup v1's "none"
        XCTAssertNil(CoreCount.cores(cpuMax: ""))
        XCTAssertNil(CoreCount.cores(cpuMax: "garbage"))
    }

    /// The mask read from /proc/self/status counts the CPUs `nproc` (coreutils, through sched_getaffinity) counts for
    /// this process, and a process started under `taskset -c 0` reads one.
    func testAffinityMatchesNproc() throws {
        XCTAssertEqual(CoreCount.affinityCores(), try run("/usr/bin/nproc", []).flatMap { Int($0) })
        let pinned = try run("/usr/bin/taskset", ["-c", "0", "/usr/bin/grep", "Cpus_allowed:", "/proc/self/status"])
        let mask = try XCTUnwrap(pinned?.split(separator: "\t").last)
        XCTAssertEqual(mask.reduce(0) { $0 + ($1.hexDigitValue?.nonzeroBitCount ?? 0) }, 1)
    }

    func testActiveIsAtLeastOneAndAtMostTheMask() throws {
        let mask = try XCTUnwrap(CoreCount.affinityCores())
        XCTAssertGreaterThanOrEqual(activeCores, 1)
        XCTAssertLessThanOrEqual(activeCores, mask)
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> String? {
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
