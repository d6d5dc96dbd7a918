import Foundation
import Testing

/// What the CLI says when something is wrong: never a silent pass, one error style.
struct HonestOutputTests {
    typealias CLI = CLITests

    @Test func auditOfAFolderWithNoDesignSystemFileIsAnErrorNamingWhatWasLookedFor() throws {
        let docs = CLI.packageRoot.appendingPathComponent("docs").path
        for command in ["audit", "pairs"] {
            let run = try CLI.run([command, docs])
            #expect(run.status == 2, "\(command): \(run.text)")
            #expect(!run.text.contains("No findings"))
            #expect(run.stderr.hasPrefix("a11yctl: error: "), "\(run.stderr)")
            for what in ["no design-system file", "Swift files", "colorset", "design-token JSON"] {
                #expect(run.stderr.contains(what), "\(what): \(run.stderr)")
            }
        }
        // include: globs that match nothing are named too.
        var files = CLI.passingSystem
        files[".a11yd.yml"] = "include: [\"Tokens/**/*.swift\"]\n"
        let dir = try CLI.temporaryDesignSystem(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let narrowed = try CLI.run(["audit", dir.path, "--format", "json"])
        #expect(narrowed.status == 2)
        #expect(narrowed.stdout.isEmpty)
        #expect(narrowed.stderr.contains("include: [Tokens/**/*.swift]"), "\(narrowed.stderr)")
    }

    @Test func everyErrorHasOneStyle() throws {
        let unknownFlag = try CLI.run(["audit", CLI.example, "--no-such-flag"])
        #expect(unknownFlag.status == 2)
        #expect(unknownFlag.stderr.hasPrefix("a11yctl: error: "), "\(unknownFlag.stderr)")
        let unknownPolicy = try CLI.run(["audit", CLI.example, "--policy", "wcag99"])
        #expect(unknownPolicy.stderr.hasPrefix("a11yctl: error: unknown policy"), "\(unknownPolicy.stderr)")
        let noDaemon = try CLI.run(["status", "--socket", "/nonexistent/a11yd.sock"])
        #expect(noDaemon.status == 69)
        #expect(noDaemon.stderr.hasPrefix("a11yctl: error: no a11yd is answering"), "\(noDaemon.stderr)")
        for run in [unknownFlag, unknownPolicy, noDaemon] {
            #expect(!run.stderr.contains("Error:"))
            #expect(!run.stderr.contains("error: error:"))
        }
    }
}

struct CompletionAndHelpTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsOfferTheValuesOfFailOnAndColor(shell: String) throws {
        let script = try CLITests.run(["--generate-completion-script", shell]).text
        for value in ["info", "warning", "error", "auto", "always", "never"] { #expect(script.contains(value), "\(shell): \(value)") }
        #expect(script.contains("warning") && script.contains("fail-on"))
    }

    @Test func helpFitsEightyColumnsSoNoExampleWrapsMidComment() throws {
        let help = try CLITests.run(["--help"], environment: ["COLUMNS": "80"])
        for line in help.text.split(separator: "\n") where line.contains("a11yctl ") || line.contains("#") {
            #expect(line.count <= 80, "\(line)")
        }
        #expect(help.text.contains("# adopt: accept today's findings, then report only new ones\n"))
    }
}

struct InstalledLayoutTests {
    /// Found on PATH, `argv[0]` is a bare name: policies, unit templates and the daemon are still found from the real
    /// executable, and `service install` points ExecStart= at the a11yd beside it (the installed one after `make install`).
    @Test func onPathFromAnotherDirectoryPoliciesAndTheDaemonBesideItAreFound() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yctl-path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let binDir = CLITests.executable.deletingLastPathComponent().path
        func run(_ arguments: [String]) throws -> (Int32, String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["a11yctl"] + arguments
            var env = ProcessInfo.processInfo.environment
            env.removeValue(forKey: "A11YD_POLICIES")
            env.removeValue(forKey: "A11YD_SYSTEMD_UNITS")
            env["PATH"] = binDir + ":/usr/bin:/bin"
            env["XDG_CONFIG_HOME"] = dir.appendingPathComponent("config").path
            p.environment = env
            p.currentDirectoryURL = dir
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try p.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, text)
        }
        let audit = try run(["audit", CLITests.example, "--policy", "apple-hig"])
        #expect(audit.0 == 1, "\(audit.1)")
        let install = try run(["service", "install", "--root", CLITests.example, "--no-systemctl"])
        guard FileManager.default.isExecutableFile(atPath: binDir + "/a11yd") else { return } // a11yd not built: nothing to point at
        #expect(install.0 == 0, "\(install.1)")
        let unit = try String(contentsOfFile: dir.appendingPathComponent("config/systemd/user/a11yd.service").path, encoding: .utf8)
        let execStart = unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }.map(String.init) ?? ""
        #expect(execStart.hasPrefix("ExecStart=" + URL(fileURLWithPath: binDir + "/a11yd").resolvingSymlinksInPath().path + " --root "), "\(execStart)")
    }
}
