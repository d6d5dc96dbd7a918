import A11yEngine
import A11yOutput
import A11yReaders
import Foundation
import Testing

/// The human output never misleads: columns never run together, counts agree with their number, filters narrow
/// everything they show, resolutions print the ratio the pair has now.
struct TableLayoutTests {
    typealias CLI = CLITests

    static let longNames = [
        "Tokens.swift": """
            import SwiftUI
            extension Color {
                static let appTextPrimaryOnSurfaceBaseHighContrastEmphasis = Color(hex: "#111827")
                static let appSurfaceBaseHighContrastContainerElevatedPrimary = Color(hex: "#FFFFFF")
                static let appIconSecondaryOnSurfaceBaseHighContrastMuted = Color(hex: "#9CA3AF")
            }
            enum NativeSegmentedControlWithAVeryLongComponentNameStyling {
                struct Colors {
                    static let selectedSegmentLabelTextHighlighted = Color.appTextPrimaryOnSurfaceBaseHighContrastEmphasis
                    static let dotInactiveIndicatorGlyph = Color.appIconSecondaryOnSurfaceBaseHighContrastMuted
                    static let segmentContainerBackgroundElevated = Color.appSurfaceBaseHighContrastContainerElevatedPrimary
                }
            }
            """,
    ]

    static let appearances: Set<String> = Set(Appearance.allCases.map(\.rawValue))

    /// The table's header and pair rows (not the findings and summary, which are prose).
    static func tableRows(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { line in
            guard line.hasPrefix("  "), let first = line.split(separator: " ").first else { return false }
            return first == "appearance" || appearances.contains(String(first))
        }
    }

    /// Cells are separated by two or more spaces; a single space may sit inside a cell ("label (token)").
    static func cells(_ row: String) -> [String] {
        row.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    @Test(arguments: [80, 120])
    func tableFitsTheTerminalAndNoColumnRunsIntoTheNext(columns: Int) throws {
        let dir = try CLI.temporaryDesignSystem(Self.longNames)
        defer { try? FileManager.default.removeItem(at: dir) }
        for system in [dir.path, CLI.example] {
            let run = try CLI.run(["audit", system, "--color", "never"], environment: ["COLUMNS": "\(columns)"])
            let rows = Self.tableRows(run.text)
            #expect(rows.count > 3, "\(run.text)\(run.stderr)")
            for row in rows {
                #expect(row.count <= columns, "\(row.count) > \(columns): \(row)")
                // appearance, foreground, background, role, ratio, needs, result.
                #expect(Self.cells(row).count == 7, "\(Self.cells(row)): \(row)")
            }
        }
        let run = try CLI.run(["audit", dir.path, "--color", "never"], environment: ["COLUMNS": "\(columns)"])
        #expect(run.text.contains("…"), "long names are truncated with an ellipsis")
        #expect(run.text.contains("dotInactiveIndicatorGlyph"))
    }

    @Test func pipedOutputWithoutColumnsKeepsEveryNameWhole() throws {
        let dir = try CLI.temporaryDesignSystem(Self.longNames)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["audit", dir.path], environment: ["COLUMNS": ""])
        let rows = Self.tableRows(run.text)
        #expect(rows.contains { $0.contains("selectedSegmentLabelTextHighlighted (appTextPrimaryOnSurfaceBaseHighContrastEmphasis)") })
        #expect(rows.allSatisfy { Self.cells($0).count == 7 }, "\(rows)")
        #expect(!rows.joined().contains("…"))
    }

    @Test func countsAgreeWithTheirNumber() {
        #expect(counted(1, "regression") == "1 regression")
        #expect(counted(2, "regression") == "2 regressions")
        #expect(counted(0, "error") == "0 errors")
    }

    static func exampleAudit() throws -> Audit {
        Auditor.run(try Workspace(root: CLI.example, policySearchDirectories: [CLI.packageRoot.appendingPathComponent("policies").path]).refresh()).audit
    }

    @Test func appearanceFilterNarrowsTheSummaryToo() throws {
        let audit = try Self.exampleAudit()
        #expect(audit.summary.failingByAppearance.keys.contains("light"))
        let dark = audit.filtered(appearance: .dark)
        #expect(dark.pairs.allSatisfy { $0.appearance == .dark })
        #expect(dark.summary.pairs == dark.pairs.count)
        #expect(dark.summary.failingPairs == dark.pairs.filter { !$0.pass }.count)
        #expect(Array(dark.summary.failingByAppearance.keys) == ["dark"])
        #expect(dark.summary.errors == dark.findings.filter { $0.severity == .error }.count)
        #expect(dark.summary.errors < audit.summary.errors)
    }

    @Test func ruleFilterNarrowsTheRowsToo() throws {
        let audit = try Self.exampleAudit()
        let graphic = audit.filtered(rule: "contrast.graphic")
        #expect(!graphic.pairs.isEmpty)
        #expect(graphic.pairs.allSatisfy { $0.role == .graphic })
        #expect(graphic.findings.allSatisfy { $0.rule == "contrast.graphic" })
        let contrast = audit.filtered(rule: "contrast")
        #expect(contrast.pairs.count == audit.pairs.filter { $0.rule != nil }.count)
        #expect(audit.filtered(rule: "touch-target").pairs.isEmpty)
    }

    static func change(_ json: String) throws -> AuditDiff.Change {
        try JSONDecoder().decode(AuditDiff.Change.self, from: Data(json.utf8))
    }

    @Test func resolutionPrintsTheNewRatioAndRegressionNamesItsComponent() throws {
        let resolved = try Self.change("""
            {"kind": "resolved", "rule": "contrast.text", "severity": "error", "appearance": "dark",
             "subject": "NativePickerStyling: label on menuBackground", "component": "NativePickerStyling",
             "message": "label (appTextPrimary) on menuBackground (appSurface), dark, 4.12:1 (needs 4.50:1 for text)",
             "before": 4.12, "after": 5.31, "required": 4.5}
            """)
        let line = ChangeText.line(resolved)
        #expect(line.contains("now 5.31:1"), "\(line)")
        #expect(line.contains("NativePickerStyling: label on menuBackground (dark)"), "\(line)")
        #expect(!line.contains("4.12:1 (needs"), "the old failing message is not printed: \(line)")
        var regression = resolved
        regression.kind = .new
        #expect(ChangeText.line(regression).contains("REGRESSION [contrast.text] NativePickerStyling: label (appTextPrimary)"))
    }
}

struct AuditJSONDocumentTests {
    @Test func documentNamesEveryRuleIdEverySummaryKeyAndTheRoleSpelling() throws {
        let doc = try String(contentsOfFile: CLITests.packageRoot.appendingPathComponent("docs/audit-json.md").path, encoding: .utf8)
        for id in allRules.map({ type(of: $0).description.id }) + readerRuleDescriptions.map(\.id) {
            #expect(doc.contains("`\(id)`"), "\(id)")
        }
        let run = try CLITests.run(["audit", CLITests.example, "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        for key in (json["summary"] as? [String: Any] ?? [:]).keys { #expect(doc.contains("`\(key)`"), "summary.\(key)") }
        for role in Set((json["pairs"] as? [[String: Any]] ?? []).compactMap { $0["role"] as? String }) {
            #expect(doc.contains("`\(role)`"), "role \(role)")
        }
        #expect(doc.contains("`largeText`"))
    }
}
