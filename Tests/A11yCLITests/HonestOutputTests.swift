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
