import A11yClient
import Foundation
import Glibc

/// `a11y-bench daemon`: starts the real a11yd (next to this executable) on a copy of the example design system, or with
/// `--tokens N` on the synthetic system of the cold bench, and measures save-to-event latency (file rename ->
/// `audit.completed` received) for a one-token edit, idle CPU and RSS, and status round trips. By default the next save
/// waits for a `status` answer after each audit; `--interval-ms N` saves every N ms instead, as an editor saving
/// often would, so a save can land while the daemon is still storing the previous audit.
enum DaemonBench {
    static func run(saves: Int, settleMilliseconds: Int, syntheticTokens: Int?, intervalMilliseconds: Int? = nil) throws {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let daemonPath = here.appendingPathComponent("a11yd").path
        guard FileManager.default.isExecutableFile(atPath: daemonPath) else {
            print("a11yd not found next to a11y-bench; build the a11yd product")
            return
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-bench-daemon-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        if let syntheticTokens {
            try FileManager.default.createDirectory(atPath: dir + "/ds", withIntermediateDirectories: true)
            try writeSystem(to: URL(fileURLWithPath: dir + "/ds"), tokens: syntheticTokens, components: syntheticTokens * 3 / 50)
        } else {
            try FileManager.default.copyItem(atPath: root.appendingPathComponent("Examples/DesignSystem").path, toPath: dir + "/ds")
        }
        let socket = dir + "/run/a11yd.sock"
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: daemonPath)
        daemon.arguments = ["--root", dir + "/ds", "--socket", socket, "--state-dir", dir + "/state", "--settle-ms", String(settleMilliseconds)]
        var env = ProcessInfo.processInfo.environment
        env["A11YD_POLICIES"] = root.appendingPathComponent("policies").path
        daemon.environment = env
        daemon.standardError = FileHandle(forWritingAtPath: ProcessInfo.processInfo.environment["BENCH_DAEMON_LOG"] ?? "/dev/null")
        try daemon.run()
        defer { kill(daemon.processIdentifier, SIGTERM); daemon.waitUntilExit() }
        var client: RPCClient?
        for _ in 0..<400 where client == nil {
            client = try? RPCClient(socketPath: socket)
            if client == nil { usleep(25_000) }
        }
        guard let client else { print("a11yd did not start"); return }
        _ = try client.call("subscribe")

        let tokens = dir + "/ds/DesignTokens.swift"
        let original = try String(contentsOfFile: tokens, encoding: .utf8)
        // One token's dark value changes and changes back.
        let edited = syntheticTokens == nil
            ? original.replacingOccurrences(of: "dark: \"#7C7C82\"", with: "dark: \"#5A5A60\"")
            : original.replacingOccurrences(of: ##"(static let benchInk0 = adaptive\(light: "#[0-9A-F]{6}", dark: )"#[0-9A-F]{6}""##,
                                            with: "$1\"#5A5A60\"", options: .regularExpression)
        guard edited != original else { print("the edit did not apply"); return }
        let variants = [edited, original]
        var latencies: [Double] = []
        for i in 0..<saves {
            // Editor-style atomic save: write a temp file, rename it onto the token file.
            let temp = tokens + ".tmp~"
            try variants[i % 2].write(toFile: temp, atomically: false, encoding: .utf8)
            let start = DispatchTime.now()
            rename(temp, tokens)
            while let message = try client.receive() {
                if message["method"] as? String == "audit.completed" { break }
            }
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
            if let intervalMilliseconds {
                let next = start.uptimeNanoseconds + UInt64(intervalMilliseconds) * 1_000_000
                let now = DispatchTime.now().uptimeNanoseconds
                if next > now { usleep(UInt32((next - now) / 1000)) }
            } else {
                // Drain regression/resolution notifications of this audit before the next save.
                _ = try client.call("status")
            }
        }
        latencies.sort()
        func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        let settle = Double(settleMilliseconds)
        print(String(format: "save -> audit.completed over %d saves: p50 %.1f ms, p99 %.1f ms (settle window %d ms included; beyond it: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms)",
                     saves, percentile(0.5), percentile(0.99), settleMilliseconds, percentile(0.5) - settle, percentile(0.9) - settle,
                     percentile(0.99) - settle, latencies.last! - settle))

        // Idle: CPU ticks over 10 s with no edits (utime + stime from /proc/PID/stat), and resident memory.
        func ticks() -> Int {
            guard let stat = try? String(contentsOfFile: "/proc/\(daemon.processIdentifier)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return -1 }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        }
        let before = ticks()
        sleep(10)
        let after = ticks()
        let rss = (try? String(contentsOfFile: "/proc/\(daemon.processIdentifier)/status", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("VmRSS:") }.map(String.init) ?? "VmRSS: ?"
        print("idle 10 s: \(after - before) CPU ticks (clock ticks of \(sysconf(Int32(_SC_CLK_TCK))) Hz); \(rss.replacingOccurrences(of: "  ", with: ""))")

        // Save storm: 1,000 writes as fast as possible; how many audits result, and how many per second.
        let firstID = (try client.call("status") as? [String: Any])?["auditId"] as? Int ?? 0
        let stormStart = DispatchTime.now()
        for i in 0..<1000 { try (original + "\n// storm \(i)\n").write(toFile: tokens, atomically: false, encoding: .utf8) }
        let writeSeconds = Double(DispatchTime.now().uptimeNanoseconds - stormStart.uptimeNanoseconds) / 1e9
        usleep(UInt32(settleMilliseconds * 1000 + 500_000))
        let lastID = (try client.call("status") as? [String: Any])?["auditId"] as? Int ?? 0
        print(String(format: "save storm: 1000 writes in %.2f s -> %d audits (%.1f audits/s while writing)",
                     writeSeconds, lastID - firstID, Double(lastID - firstID) / max(writeSeconds, 0.001)))

        let count = 2000
        let start = DispatchTime.now()
        for _ in 0..<count { _ = try client.call("status") }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        print(String(format: "status round trips from one client: %.0f per second", Double(count) / seconds))
    }
}
