import A11yOutput
import Foundation
import Testing

/// Runs the real `a11yctl` executable, as a user or CI would.
struct CLITests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let example = packageRoot.appendingPathComponent("Examples/DesignSystem").path

    static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("a11yctl")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return packageRoot.appendingPathComponent(".build/debug/a11yctl")
    }

    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// `standardOutput`: where the output goes instead of a pipe (then `stdout` is empty).
    static func run(_ arguments: [String], environment: [String: String] = [:], cwd: URL? = nil,
                    standardOutput: FileHandle? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        env["A11YD_POLICIES"] = packageRoot.appendingPathComponent("policies").path
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let cwd { process.currentDirectoryURL = cwd }
        let out = Pipe(), err = Pipe()
        process.standardOutput = standardOutput ?? out
        process.standardError = err
        try process.run()
        let stdout = standardOutput == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryDesignSystem(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yctl-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    static let passingSystem = [
        "Tokens.swift": """
            import SwiftUI
            extension Color {
                static let inkPrimary = Color(hex: "#111827")
                static let surfaceBase = Color(hex: "#FFFFFF")
            }
            enum CardStyling {
                struct Colors {
                    static let title = Color.inkPrimary
                    static let background = Color.surfaceBase
                }
            }
            """,
    ]

    @Test func jsonAuditIsByteIdenticalAcrossRuns() throws {
        let first = try Self.run(["audit", Self.example, "--format", "json"])
        let second = try Self.run(["audit", Self.example, "--format", "json"])
        #expect(first.stdout == second.stdout)
        #expect(!first.stdout.isEmpty)
        let json = try #require(try JSONSerialization.jsonObject(with: first.stdout) as? [String: Any])
        let pairs = try #require(json["pairs"] as? [[String: Any]])
        #expect(!pairs.isEmpty)
        for key in ["component", "foreground", "background", "appearance", "role", "ratio", "required", "pass"] {
            #expect(pairs.allSatisfy { $0.keys.contains(key) }, "\(key)")
        }
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(!findings.isEmpty)
        for finding in findings {
            #expect(finding["rule"] is String && finding["severity"] is String && finding["message"] is String)
            let location = try #require(finding["location"] as? [String: Any])
            #expect(location["file"] is String && location["line"] is Int && location["column"] is Int)
        }
        #expect(json["summary"] is [String: Any])
    }

    @Test func exampleWithErrorsExitsOneAndCleanSystemExitsZero() throws {
        #expect(try Self.run(["audit", Self.example]).status == 1)
        let dir = try Self.temporaryDesignSystem(Self.passingSystem)
        defer { try? FileManager.default.removeItem(at: dir) }
        let clean = try Self.run(["audit", dir.path])
        #expect(clean.status == 0, "\(clean.text)\(clean.stderr)")
        #expect(clean.text.contains("CardStyling"))
        #expect(clean.text.contains("title (inkPrimary)"))
    }

    @Test func failOnInfoTurnsInfoFindingsIntoExitOne() throws {
        var files = Self.passingSystem
        files["Tokens.swift"] = files["Tokens.swift"]!.replacingOccurrences(
            of: "static let background", with: "static let disabledTitle = Color(hex: \"#D1D5DB\")\n        static let background")
        let dir = try Self.temporaryDesignSystem(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Self.run(["audit", dir.path]).status == 0)
        #expect(try Self.run(["audit", dir.path, "--fail-on", "info"]).status == 1)
    }

    @Test func usageAndConfigurationErrorsExitTwoWithALocation() throws {
        #expect(try Self.run(["audit", Self.example, "--format", "yaml"]).status == 2)
        #expect(try Self.run(["audit", Self.example, "--no-such-flag"]).status == 2)
        let unknownPolicy = try Self.run(["audit", Self.example, "--policy", "wcag99"])
        #expect(unknownPolicy.status == 2)
        #expect(unknownPolicy.stderr.contains("unknown policy 'wcag99'"))
        #expect(unknownPolicy.stderr.contains("wcag21-aa"))

        var files = Self.passingSystem
        files[".a11yd.yml"] = "policy: wcag21-aa\nsurface: [surfaceBase]\n"
        let dir = try Self.temporaryDesignSystem(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let badConfig = try Self.run(["audit", dir.path])
        #expect(badConfig.status == 2)
        #expect(badConfig.stderr.contains(".a11yd.yml:2:1: error: unknown key 'surface'"))
        #expect(try Self.run(["audit", "/nonexistent/design"]).status == 2)
    }

    /// Output that cannot be written (here /dev/full, a disk that is always full) is an error of its own, said once,
    /// not a trap or a silent truncation.
    @Test func outputThatCannotBeWrittenExitsSeventyFour() throws {
        for format in ["json", "sarif"] {
            let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            let run = try Self.run(["audit", Self.example, "--format", format], standardOutput: full)
            #expect(run.status == 74, "\(format): \(run.stderr)")
            #expect(run.stderr == "a11yctl: error: cannot write the output: No space left on device\n", "\(format)")
        }
    }

    @Test func colorFollowsTheTerminalAndNoColor() throws {
        let forced = try Self.run(["audit", Self.example, "--color", "always"])
        #expect(forced.text.contains("\u{1B}[38;2;"))
        // Piped output (auto) and NO_COLOR are plain.
        #expect(!(try Self.run(["audit", Self.example])).text.contains("\u{1B}["))
        #expect(!(try Self.run(["audit", Self.example], environment: ["NO_COLOR": "1"])).text.contains("\u{1B}["))
    }

    @Test func pairsListsEveryPairingWithItsReason() throws {
        let run = try Self.run(["pairs", Self.example])
        #expect(run.status == 0)
        #expect(run.text.contains("default surface:"))
        for reason in ["declared", "component", "default-surface"] { #expect(run.text.contains(reason), "\(reason)") }
    }

    /// `audit`'s usual arguments are read without ArgumentParser (`AuditRequest(readingQuickly:)`); the same request
    /// written with `--` before the path is not, so ArgumentParser reads it. Both must do the same thing.
    @Test(arguments: [
        ["--format", "json"], ["--format=sarif", "--fail-on", "info"], ["--policy", "wcag21-aaa", "--color", "never"],
        ["--fail-on", "warning", "--color", "always"], ["--policy=apple-hig", "--format", "json", "--fail-on=info"],
        ["--baseline", "/nonexistent/baseline.json", "--strict-baseline"],
    ])
    func auditArgumentsReadQuicklyDoWhatArgumentParserReadsThemToDo(_ options: [String]) throws {
        let quick = try Self.run(["audit", Self.example] + options)
        let parsed = try Self.run(["audit"] + options + ["--", Self.example])
        #expect(quick.status == parsed.status)
        #expect(quick.stdout == parsed.stdout)
        #expect(quick.stderr == parsed.stderr)
        #expect(!quick.stdout.isEmpty || !quick.stderr.isEmpty)
    }

    @Test func aBaselineWrittenFromQuicklyReadArgumentsIsTheOneArgumentParserReadingWrites() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yctl-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (quickFile, parsedFile) = (dir.appendingPathComponent("quick.json").path, dir.appendingPathComponent("parsed.json").path)
        let quick = try Self.run(["audit", Self.example, "--write-baseline", quickFile, "--format", "json"])
        let parsed = try Self.run(["audit", "--write-baseline", parsedFile, "--format", "json", "--", Self.example])
        #expect(quick.status == parsed.status && quick.stdout == parsed.stdout)
        let written = try Data(contentsOf: URL(fileURLWithPath: quickFile))
        let writtenByParsed = try Data(contentsOf: URL(fileURLWithPath: parsedFile))
        #expect(!written.isEmpty && written == writtenByParsed)
        // Read back: nothing new against the baseline, so the example's errors no longer fail the audit.
        #expect(try Self.run(["audit", Self.example, "--baseline", quickFile]).status == 0)
    }

    /// Tokens an initialiser makes per case share its location; `pairs` lists them in one order every run (it listed
    /// them in a dictionary's order, another each run, which only the audit's own sort hid).
    @Test func pairsListsTokensSharingALocationInTheSameOrderEveryRun() throws {
        var source = ["import SwiftUI", "enum Tone {"] + (0..<24).map { "    case tone\($0)Text" } + ["}", "extension Color {"]
        source += ["    init(tone: Tone) {", "        switch tone {"]
        source += (0..<24).map { "        case .tone\($0)Text: self = Color(hex: \"#\(String(format: "%06X", $0 * 0x0A0A0A))\")" }
        source += ["        }", "    }", "}"]
        let dir = try Self.temporaryDesignSystem(["DesignTokens.swift": source.joined(separator: "\n")])
        defer { try? FileManager.default.removeItem(at: dir) }
        let runs = try (0..<3).map { _ in try Self.run(["pairs", dir.path]) }
        #expect(runs[0].status == 0)
        #expect(runs[0].text.contains("tone.tone0Text on systemBackground"))
        #expect(runs.allSatisfy { $0.stdout == runs[0].stdout })
    }

    @Test func helpTeachesExitCodesAndExamples() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.text.contains("EXIT CODES"))
        #expect(help.text.contains("a11yctl audit Examples/DesignSystem"))
    }
}

struct RulesDocumentTests {
    @Test func rulesDocumentIsUpToDate() throws {
        let committed = try String(contentsOfFile: CLITests.packageRoot.appendingPathComponent("docs/rules.md").path, encoding: .utf8)
        #expect(committed == RulesDocument.markdown(), "docs/rules.md is stale: regenerate with `a11yctl rules > docs/rules.md`")
    }
}
