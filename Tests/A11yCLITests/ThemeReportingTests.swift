import A11yEngine
import A11yOutput
import A11yReaders
import Foundation
import Testing

/// Themes everywhere a user sees appearances: table, SARIF, baselines, diffs (regression lines), filters. The audits are
/// of the palette-instance fixture (Tests/Fixtures/Themes/PaletteInstances) and of an edited copy of it.
struct ThemeReportingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixture = root.appendingPathComponent("Tests/Fixtures/Themes/PaletteInstances/ReaderPalette.swift")

    /// Audits the fixture, with `edit` applied to its text first.
    static func audit(_ edit: (String) -> String = { $0 }) throws -> Audit {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("theme-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = edit(try String(contentsOf: fixture, encoding: .utf8))
        try text.write(to: dir.appendingPathComponent("ReaderPalette.swift"), atomically: true, encoding: .utf8)
        let workspace = try Workspace(root: dir.path, policySearchDirectories: [root.appendingPathComponent("policies").path])
        return Auditor.run(workspace.refresh()).audit
    }

    /// Sepia's secondary text fixed (#5C5245 on parchment passes), black's primary text broken (#333333 on black fails).
    static func edited() throws -> Audit {
        try audit {
            $0.replacingOccurrences(of: "secondaryText: UIColor(rgb: 0x8B7D6B)", with: "secondaryText: UIColor(rgb: 0x5C5245)")
                .replacingOccurrences(of: "primaryText: UIColor(rgb: 0xDDDDDD)", with: "primaryText: UIColor(rgb: 0x333333)")
        }
    }

    @Test func regressionsAndResolutionsNameTheirTheme() throws {
        let diff = AuditDiff.between(try Self.audit(), try Self.edited())
        let regression = try #require(diff.regressions.first { $0.rule == "contrast.text" })
        #expect(diff.regressions.count == 1)
        #expect(regression.theme == "black" && regression.appearance == .dark)
        #expect(regression.situation == "black, dark")
        #expect(ChangeText.line(regression).contains("ReaderPalette: primaryText (ReaderPalette.primaryText) on paperBackground (ReaderPalette.paperBackground), black, dark, 1.66:1"))
        let resolution = try #require(diff.resolutions.first)
        #expect(diff.resolutions.count == 1)
        #expect(resolution.theme == "sepia")
        // The resolved line prints the ratio the pair has now in that theme.
        #expect(ChangeText.line(resolution).contains("(sepia, light): now"))
    }

    @Test func explainShowsEachThemesColorsAndRatio() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("theme-explain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: Self.fixture, to: dir.appendingPathComponent("ReaderPalette.swift"))
        let workspace = try Workspace(root: dir.path, policySearchDirectories: [Self.root.appendingPathComponent("policies").path])
        let context = Auditor.run(workspace.refresh()).context
        let explanations = try #require(PairExplanation.explain(foreground: "secondaryText", background: "paperBackground", in: context))
        let text = ExplanationText.render(explanations)
        #expect(text.contains("sepia, light: #8B7D6B on #F8F1E3, 3.56:1, needs 4.50:1, FAIL"), "\(text)")
        #expect(text.contains("black, dark: #555555 on #000000, 2.81:1"), "\(text)")
        #expect(text.contains("foreground (values in the default theme; each theme's below)"))
    }

    @Test func baselinesMatchByTheme() throws {
        let before = try Self.audit()
        let baseline = Baseline(findings: before.findings)
        #expect(baseline.entries.contains { $0.theme == "sepia" && $0.subject == "ReaderPalette: secondaryText on paperBackground" })
        let (new, fixed) = baseline.compare(try Self.edited().findings)
        // The same subject failing in another theme is new; the one fixed in sepia is reported as fixed.
        #expect(new.filter { $0.severity >= .warning }.map(\.theme) == ["black"])
        #expect(fixed.map(\.theme) == ["sepia"])
        // Baselines written before themes (no `theme` key) still decode and match theme-less findings.
        let old = try JSONDecoder().decode(Baseline.self, from: Data(#"{"version":1,"entries":[{"rule":"parse","subject":"x"}]}"#.utf8))
        #expect(old.entries[0].theme == nil)
    }

    @Test func filteringByThemeNarrowsRowsFindingsAndCounts() throws {
        let audit = try Self.audit().filtered(theme: "sepia")
        #expect(!audit.pairs.isEmpty && audit.pairs.allSatisfy { $0.theme == "sepia" })
        #expect(audit.findings.allSatisfy { $0.theme == "sepia" || $0.theme == nil })
        #expect(audit.summary.failingByTheme == ["sepia": audit.pairs.filter { !$0.pass }.count])
        #expect(audit.themes?.map(\.name) == ["sepia"])
    }

    @Test func theTableGroupsRowsByThemeAndSARIFCarriesIt() throws {
        let audit = try Self.audit()
        let table = AuditTable(color: false).render(audit)
        #expect(table.contains("themes: light (default, light), sepia (light), dark (dark), black (dark)"))
        let sepia = try #require(table.range(of: "  theme sepia (light)  3 failing"))
        let dark = try #require(table.range(of: "  theme dark (dark)"))
        #expect(sepia.upperBound < dark.lowerBound)
        #expect(table.contains("failing by theme: light 1, sepia 3, dark 2, black 2"))

        let sarif = try JSONSerialization.jsonObject(with: SARIF.encode(audit, toolVersion: "test", sourceRoot: Self.root.path)) as! [String: Any]
        let results = ((sarif["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]])
        let themed = results.filter { (($0["properties"] as? [String: Any])?["theme"] as? String) == "black" }
        #expect(!themed.isEmpty)
        // Fingerprints differ per theme, so code scanning keeps one alert per theme.
        let prints = Set(results.compactMap { ($0["partialFingerprints"] as? [String: String])?["a11ydFinding/v1"] })
        #expect(prints.count == results.count)
    }

    /// Design systems with only light and dark: the example and each evaluator fixture.
    static let lightAndDarkOnly = ["Examples/DesignSystem"] + [
        "FontDescriptors", "HexScanner", "IntegerHex", "PairTokens", "ShadeFunctions", "TokenFunction", "ToneColors", "Traits", "TupleHelper",
    ].map { "Tests/Fixtures/Evaluator/\($0).swift" }

    /// Without themes, the JSON is the schema 1 document plus what docs/audit-json.md ("Changes") lists: `"themes": []`,
    /// `"theme": null` on every pair and finding, `schemaVersion: 2`; no other key anywhere mentions a theme.
    @Test(arguments: lightAndDarkOnly)
    func aLightAndDarkSystemsJSONHasAnEmptyThemeListAndNullThemesOnly(_ path: String) throws {
        let workspace = try Workspace(root: Self.root.appendingPathComponent(path).path, policySearchDirectories: [Self.root.appendingPathComponent("policies").path])
        let audit = Auditor.run(workspace.refresh()).audit
        let json = try #require(try JSONSerialization.jsonObject(with: AuditJSON.encode(audit)) as? [String: Any])
        #expect(json["schemaVersion"] as? Int == 2)
        #expect((json["themes"] as? [Any])?.isEmpty == true)
        let pairs = try #require(json["pairs"] as? [[String: Any]])
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(pairs.allSatisfy { $0.keys.contains("theme") && $0["theme"] is NSNull })
        #expect(findings.allSatisfy { $0.keys.contains("theme") && $0["theme"] is NSNull })

        var themed: Set<String> = []
        func walk(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                for (key, child) in object {
                    if key.lowercased().contains("theme") { themed.insert(path + "." + key) }
                    walk(child, path + "." + key)
                }
            } else if let array = value as? [Any] {
                for child in array { walk(child, path + "[]") }
            }
        }
        walk(json, "")
        var expected: Set<String> = [".themes"]
        if !pairs.isEmpty { expected.insert(".pairs[].theme") }
        if !findings.isEmpty { expected.insert(".findings[].theme") }
        #expect(themed == expected)
    }
}
