import A11yEngine
import A11yReaders
import Foundation
import Testing
@testable import A11yDaemon

/// The daemon's one-line status (systemd `STATUS=`, logs, `a11yctl status`) and desktop notifications with themes.
struct ThemeStatusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func audit(_ edit: (String) -> String = { $0 }) throws -> Audit {
        let source = root.appendingPathComponent("Tests/Fixtures/Themes/PaletteInstances/ReaderPalette.swift")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("theme-status-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try edit(try String(contentsOf: source, encoding: .utf8)).write(to: dir.appendingPathComponent("P.swift"), atomically: true, encoding: .utf8)
        return Auditor.run(try Workspace(root: dir.path, policySearchDirectories: [root.appendingPathComponent("policies").path]).refresh()).audit
    }

    @Test func statusLineCountsFailingPairsPerTheme() throws {
        let line = Daemon.statusLine(try Self.audit())
        #expect(line.hasPrefix("24 pairs, 8 failing (dark: 4, light: 4; light: 1, sepia: 3, dark: 2, black: 2)"), "\(line)")
    }

    @Test func aNotificationSaysWhichThemeRegressed() throws {
        let after = try Self.audit { $0.replacingOccurrences(of: "primaryText: UIColor(rgb: 0xDDDDDD)", with: "primaryText: UIColor(rgb: 0x333333)") }
        let diff = AuditDiff.between(try Self.audit(), after)
        let (summary, body) = DesktopNotifier.describe(diff.regressions)
        #expect(summary == "1 contrast regression (black, dark)")
        #expect(body.hasPrefix("black, dark: ReaderPalette: primaryText on paperBackground, 1.66:1 (needs 4.50:1)"), "\(body)")
    }
}
