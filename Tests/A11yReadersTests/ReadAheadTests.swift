import A11yEngine
@testable import A11yReaders
import Foundation
import Testing

/// a11yctl reads a design system's Swift files ahead while the command loads its configuration: the audit's input must
/// be what reading them at refresh gives, however far the read-ahead got, and files read ahead with the default `#if`
/// flags must not stand in for a configuration that sets flags.
final class ReadAheadTests {
    /// The design systems this test wrote, removed when it ends (each test runs on an instance of its own).
    private var roots: [String] = []
    deinit { for root in roots { try? FileManager.default.removeItem(atPath: root) } }

    static let tokens = """
        import SwiftUI
        extension Color {
            static func adaptive(light: String, dark: String) -> Color {
                Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(Color(hex: dark)) : UIColor(Color(hex: light)) })
            }
            static let ink = adaptive(light: "#202020", dark: "#F0F0F0")
            static let surface = adaptive(light: "#FFFFFF", dark: "#101010")
        #if LOW_CONTRAST
            static let accent = adaptive(light: "#BBBBBB", dark: "#333333")
        #else
            static let accent = adaptive(light: "#1F4FD8", dark: "#8FB0FF")
        #endif
        }
        """
    static let styling = """
        import SwiftUI
        enum BadgeStyling {
            struct Colors {
                static let label = Color.accent
                static let background = Color.surface
            }
        }
        """

    /// A design system in a fresh directory: the two files, and `.a11yd.yml` when given.
    func system(configuration: String? = nil) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("read-ahead-\(UUID().uuidString)").path
        roots.append(root)
        try FileManager.default.createDirectory(atPath: root + "/Styling", withIntermediateDirectories: true)
        try Self.tokens.write(toFile: root + "/DesignTokens.swift", atomically: true, encoding: .utf8)
        try Self.styling.write(toFile: root + "/Styling/BadgeStyling.swift", atomically: true, encoding: .utf8)
        if let configuration { try configuration.write(toFile: root + "/.a11yd.yml", atomically: true, encoding: .utf8) }
        return root
    }

    /// The sources a workspace on `root` reads with no read-ahead.
    static func plainSources(_ root: String) throws -> [ParsedSource] {
        try Workspace(root: root, readAhead: ReadAhead()).refresh().sources
    }

    @Test func filesReadAheadAreTheAuditsInput() throws {
        let root = try system()
        let expected = try Self.plainSources(root)
        let readAhead = ReadAhead()
        readAhead.read(root: root)
        #expect(readAhead.filesStarted == 2)
        // Changed after the read-ahead: the audit takes the version read ahead, not a second reading.
        try Self.tokens.replacingOccurrences(of: "#1F4FD8", with: "#D81F4F").write(toFile: root + "/DesignTokens.swift", atomically: true, encoding: .utf8)
        let sources = try Workspace(root: root, readAhead: readAhead).refresh().sources
        #expect(sources == expected)
        #expect(sources.count == 2)
    }

    @Test func configuredFlagsAreReadAheadToo() throws {
        let root = try system(configuration: "flags: [LOW_CONTRAST]\n")
        let readAhead = ReadAhead()
        readAhead.read(root: root)
        #expect(readAhead.filesStarted == 2)
        let input = try Workspace(root: root, readAhead: readAhead).refresh()
        #expect(input.sources == (try Self.plainSources(root)))
        let audit = Auditor.run(input).audit
        // With the flag set, the accent is the low-contrast one: a failing pair that the default reading does not have.
        #expect(audit.pairs.contains { $0.foreground.token == "accent" && !$0.pass })
    }

    /// Files read ahead with other flags than the audit's are not taken (a configuration changed in between).
    @Test func entriesReadWithOtherFlagsAreNotTaken() throws {
        let root = try system()
        let readAhead = ReadAhead()
        readAhead.read(root: root)
        try "flags: [LOW_CONTRAST]\n".write(toFile: root + "/.a11yd.yml", atomically: true, encoding: .utf8)
        #expect(readAhead.claim(root: root, flags: ["LOW_CONTRAST"], files: ["DesignTokens.swift"]).isEmpty)
    }

    @Test func excludedFilesAreNotReadAhead() throws {
        let root = try system(configuration: "exclude: [\"Styling/**\"]\n")
        let readAhead = ReadAhead()
        readAhead.read(root: root)
        #expect(readAhead.filesStarted == 1)
        #expect(try Workspace(root: root, readAhead: readAhead).refresh().sources == (try Self.plainSources(root)))
    }

    @Test func anUnreadableConfigurationLeavesNothingReadAhead() throws {
        let root = try system(configuration: "flags: [unclosed\n")
        let readAhead = ReadAhead()
        readAhead.read(root: root)
        #expect(readAhead.filesStarted == 0)
        #expect(throws: ConfigurationError.self) { try Workspace(root: root, readAhead: readAhead) }
    }

    @Test func aReadAheadRunningWhileTheAuditReadsGivesTheSameInput() throws {
        let root = try system()
        let expected = try Self.plainSources(root)
        for _ in 0..<20 {
            let readAhead = ReadAhead()
            let started = DispatchSemaphore(value: 0)
            let thread = Thread {
                started.signal()
                readAhead.read(root: root)
            }
            thread.stackSize = WorkerPool.stackSize
            thread.start()
            started.wait()
            #expect(try Workspace(root: root, readAhead: readAhead).refresh().sources == expected)
        }
    }

    /// A file still being read when the audit claims it is waited for, the waiting thread helping with its parts; the
    /// input is the same. The file is large enough (5,000 tokens) to be mid-read when the claim comes.
    @Test func aFileBeingReadAheadIsWaitedFor() throws {
        let root = try system()
        var large = "import SwiftUI\nextension Color {\n"
        large += "    static func adaptive(light: String, dark: String) -> Color { Color(hex: light) }\n"
        for i in 0..<5_000 { large += "    static let large\(i) = adaptive(light: \"#\(String(format: "%06X", i * 3_301 % 0xFFFFFF))\", dark: \"#101010\")\n" }
        large += "}\n"
        try large.write(toFile: root + "/Large.swift", atomically: true, encoding: .utf8)
        let expected = try Self.plainSources(root)
        let readAhead = ReadAhead()
        let thread = Thread { readAhead.read(root: root) }
        thread.stackSize = WorkerPool.stackSize
        thread.start()
        while readAhead.filesStarted == 0 { usleep(100) }
        let box = ResultBox()
        WorkerPool.runOnDeepStack { box.sources = try? Workspace(root: root, readAhead: readAhead).refresh().sources }
        #expect(box.sources == expected)
        #expect(readAhead.filesWaitedFor == 1)
    }

    final class ResultBox: @unchecked Sendable { var sources: [ParsedSource]? }

    @Test func anAuditThatClaimsFirstStopsTheReadAhead() throws {
        let root = try system()
        let readAhead = ReadAhead()
        #expect(try Workspace(root: root, readAhead: readAhead).refresh().sources == (try Self.plainSources(root)))
        readAhead.read(root: root)
        #expect(readAhead.filesStarted == 0)
        #expect(readAhead.claim(root: root, flags: [], files: ["DesignTokens.swift"]).isEmpty)
    }
}
