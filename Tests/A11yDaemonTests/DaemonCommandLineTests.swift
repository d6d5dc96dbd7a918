import Foundation
import Testing

/// a11yd's command line (ArgumentParser): numbers are validated, `--root=PATH` works, errors are one short line.
struct DaemonCommandLineTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, stderr: String, stdout: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: DaemonEndToEndTests.binary("a11yd"))
        p.arguments = arguments
        let err = Pipe(), out = Pipe()
        p.standardError = err
        p.standardOutput = out
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, stderr, stdout)
    }

    @Test(arguments: [
        (["--root", "/tmp", "--settle-ms", "abc"], "'abc' is invalid for '--settle-ms"),
        (["--root=/tmp", "--retention", "-5"], "--retention must be at least 1, not -5"),
        (["--root", "/tmp", "--settle-ms", "99999"], "--settle-ms must be between 0 and 10000"),
        (["--root", "/tmp", "--notify", "loud"], "'warning', 'error' or 'off'"),
        (["--settle-ms", "10"], "Missing expected argument '--root <root>'"),
        (["--root", "/tmp", "--frobnicate"], "Unknown option '--frobnicate'"),
    ])
    func badArgumentsAreOneShortErrorAndExit2(_ arguments: [String], _ expected: String) throws {
        let result = try Self.run(arguments)
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("a11yd: error: ") == true, "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(!result.stderr.contains("error: error:"))
        #expect(lines.count <= 3, "a short error, not the whole help: \(result.stderr)")
    }

    @Test func helpAndVersionExit0() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("--settle-ms"))
        let version = try Self.run(["--version"])
        #expect(version.status == 0 && version.stdout.contains("a11yd 0.1.0"))
    }
}
