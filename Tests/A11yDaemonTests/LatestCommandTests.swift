import Foundation
import Testing

/// `a11yctl` against a real daemon: `latest` filters and exits like `audit`, the first audit is a baseline, errors
/// carry no JSON-RPC codes.
@Suite(.serialized)
struct LatestCommandTests {
    typealias Sandbox = DaemonEndToEndTests.Sandbox

    struct Run {
        var status: Int32
        var text: String
        var stderr: String
    }

    static func a11yctl(_ box: Sandbox, _ arguments: [String]) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: DaemonEndToEndTests.binary("a11yctl"))
        p.arguments = arguments + ["--socket", box.socket]
        var env = box.environment
        env["COLUMNS"] = "120"
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return Run(status: p.terminationStatus, text: text, stderr: stderr)
    }

    @Test func latestFiltersRowsAndSummaryAndExitsLikeAudit() throws {
        let box = try Sandbox()
        defer { box.kill(); try? FileManager.default.removeItem(atPath: box.dir) }
        try box.start()

        // The example has errors: exit 1 as `audit` does; --fail-on a severity above what is left: 0.
        #expect(try Self.a11yctl(box, ["latest"]).status == 1)
        #expect(try Self.a11yctl(box, ["latest", "--rule", "token-hygiene"]).status == 0)
        #expect(try Self.a11yctl(box, ["latest", "--rule", "token-hygiene", "--fail-on", "warning"]).status == 1)

        let dark = try Self.a11yctl(box, ["latest", "--appearance", "dark", "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dark.text.utf8)) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Any])
        let pairs = try #require(json["pairs"] as? [[String: Any]])
        #expect(Array((summary["failingByAppearance"] as? [String: Int] ?? [:]).keys) == ["dark"])
        #expect(summary["pairs"] as? Int == pairs.count)

        let graphic = try Self.a11yctl(box, ["latest", "--rule", "contrast.graphic"])
        #expect(!graphic.text.contains(" text "), "text rows are not contrast.graphic rows")
        #expect(graphic.text.contains(" graphic "))

        let bad = try Self.a11yctl(box, ["latest", "--appearance", "sepia"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("a11yctl: error: "), "\(bad.stderr)")
        #expect(!bad.stderr.contains("-326"), "no JSON-RPC code: \(bad.stderr)")
    }

    @Test func theFirstAuditIsABaselineNotRegressions() throws {
        let box = try Sandbox()
        defer { box.kill(); try? FileManager.default.removeItem(atPath: box.dir) }
        try box.start()
        let history = try Self.a11yctl(box, ["history"])
        #expect(history.text.contains("(baseline)"), "\(history.text)")
        #expect(!history.text.contains("regressions"), "\(history.text)")
        let diff = try Self.a11yctl(box, ["diff"])
        #expect(diff.text.contains("baseline"), "\(diff.text)")
        #expect(!diff.text.contains("REGRESSION"))
    }

    @Test func watchTakesFormatJsonAndKeepsJsonAsAnAlias() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(atPath: box.dir) }
        // No daemon: both spellings parse, then say the daemon is down (69), never a usage error (2).
        #expect(try Self.a11yctl(box, ["watch", "--format", "json"]).status == 69)
        #expect(try Self.a11yctl(box, ["watch", "--json"]).status == 69)
    }
}

extension LatestCommandTests {
    @Test func watchReconnectsAfterARestartAndReplaysWhatItMissed() throws {
        let box = try Sandbox()
        defer { box.kill(); try? FileManager.default.removeItem(atPath: box.dir) }
        try box.start()
        let out = box.dir + "/watch.out", err = box.dir + "/watch.err"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: DaemonEndToEndTests.binary("a11yctl"))
        watch.arguments = ["watch", "--since", "0", "--socket", box.socket]
        watch.environment = box.environment
        watch.standardOutput = FileHandle(forWritingAtPath: out)
        watch.standardError = FileHandle(forWritingAtPath: err)
        try watch.run()
        // SIGKILL: a process started by the test runner may inherit SIGTERM blocked.
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL); watch.waitUntilExit() } }
        func wait(for text: String, in file: String) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if let s = try? String(contentsOfFile: file, encoding: .utf8), s.contains(text) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }
        #expect(wait(for: "audit #1 ", in: out))
        box.kill()
        try box.start() // the restart audits (#2) against the stored #1
        #expect(wait(for: "reconnected", in: err), "\((try? String(contentsOfFile: err, encoding: .utf8)) ?? "")")
        #expect(wait(for: "audit #2 ", in: out), "\((try? String(contentsOfFile: out, encoding: .utf8)) ?? "")")
        #expect(watch.isRunning)
        let stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        #expect(stderr.contains("reconnecting"))
    }
}

extension LatestCommandTests {
    @Test func aBrokenConfigurationSavedWhileRunningShowsInStatusAndLatestAsAFinding() throws {
        let box = try Sandbox()
        defer { box.kill(); try? FileManager.default.removeItem(atPath: box.dir) }
        try box.start()
        let config = box.design + "/.a11yd.yml"
        let original = try String(contentsOfFile: config, encoding: .utf8)
        try (original + "\nsurface: [nope]\n").write(toFile: config, atomically: true, encoding: .utf8)
        func poll(_ arguments: [String], until text: String, present: Bool = true) throws -> Run {
            let deadline = Date().addingTimeInterval(20)
            var run = try Self.a11yctl(box, arguments)
            while Date() < deadline, run.text.contains(text) != present {
                Thread.sleep(forTimeInterval: 0.1)
                run = try Self.a11yctl(box, arguments)
            }
            return run
        }
        let status = try poll(["status"], until: "configuration error")
        #expect(status.text.contains("unknown key 'surface'"), "\(status.text)")
        let latest = try poll(["latest", "--rule", "config"], until: "[config]")
        #expect(latest.text.contains("unknown key 'surface'"), "\(latest.text)")
        #expect(latest.text.contains("previous configuration stays in force"))
        // Fixed: the finding and the status line go away.
        try original.write(toFile: config, atomically: true, encoding: .utf8)
        #expect(!(try poll(["status"], until: "configuration error", present: false)).text.contains("configuration error"))
        #expect(!(try poll(["latest", "--rule", "config"], until: "unknown key", present: false)).text.contains("unknown key"))
    }
}

extension LatestCommandTests {
    /// `history` with themes: each stored audit lists its failing pairs per theme (the reading-app palettes beside the
    /// example), and an edit that breaks one theme shows in that theme's count and as a regression.
    @Test func historyCountsFailingPairsPerTheme() throws {
        let box = try Sandbox()
        defer { box.kill(); try? FileManager.default.removeItem(atPath: box.dir) }
        let palette = box.design + "/ReaderPalette.swift"
        try FileManager.default.copyItem(
            atPath: DaemonEndToEndTests.packageRoot.appendingPathComponent("Tests/Fixtures/Themes/PaletteInstances/ReaderPalette.swift").path,
            toPath: palette)
        try box.start()
        _ = try box.python("""
            call('subscribe')
            path = \(String(reflecting: palette))
            # The black theme's body text becomes dark gray on black (1.66:1).
            save(path, open(path).read().replace('primaryText: UIColor(rgb: 0xDDDDDD)', 'primaryText: UIColor(rgb: 0x333333)'))
            while read()['method'] != 'audit.completed': pass
            """)
        let history = try Self.a11yctl(box, ["history"])
        let lines = history.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(history.text)")
        // Failing pairs per theme (ThemeFixtureTests has every ratio): light 1, sepia 3, dark 2, black 2; then black 3.
        #expect(lines.first?.hasPrefix("#2 ") == true && lines.first?.contains(" [black 3, dark 2, light 1, sepia 3], ") == true, "\(history.text)")
        #expect(lines.first?.hasSuffix("(+1 regression, -0 resolved)") == true, "\(history.text)")
        #expect(lines.last?.hasPrefix("#1 ") == true && lines.last?.contains(" [black 2, dark 2, light 1, sepia 3], ") == true, "\(history.text)")
        #expect(lines.last?.hasSuffix("(baseline)") == true, "\(history.text)")
    }
}
