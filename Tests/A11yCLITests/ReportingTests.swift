import Foundation
import Testing

/// SARIF, baselines and suppressions through the real executable.
struct ReportingTests {
    typealias CLI = CLITests

    static let failingSystem = [
        "Tokens.swift": """
            import SwiftUI
            extension Color {
                static let surfaceBase = Color(hex: "#FFFFFF")
            }
            enum CardStyling {
                struct Colors {
                    static let title = Color(hex: "#777777")
                    static let background = Color.surfaceBase
                }
            }
            """,
    ]

    @Test func sarifOutputValidatesAgainstTheSarif210Schema() throws {
        let run = try CLI.run(["audit", CLI.example, "--format", "sarif"])
        #expect(run.status == 1)
        let dir = try CLI.temporaryDesignSystem([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let sarif = dir.appendingPathComponent("audit.sarif")
        try run.stdout.write(to: sarif)
        let schema = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/sarif-schema-2.1.0.json")
        let validator = Process()
        // Debian's own python3 with the python3-jsonschema package (scripts/install-deps.sh test), never a pip install
        // into whatever python comes first on PATH.
        validator.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        validator.arguments = ["-c", """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            # This copy of the OASIS schema keeps the log object's rules under definitions/Root.
            validator = jsonschema.Draft7Validator(dict(schema, **{"$ref": "#/definitions/Root"}))
            doc = json.load(open(sys.argv[2]))
            validator.validate(doc)
            # The validator is not vacuous: a log without "version", or a result with a bogus level, is rejected.
            assert not validator.is_valid({"runs": []}), "schema accepted a log without version"
            broken = json.loads(json.dumps(doc)); broken["runs"][0]["results"][0]["level"] = "fatal"
            assert not validator.is_valid(broken), "schema accepted an unknown result level"
            results = doc["runs"][0]["results"]
            assert results, "no results"
            contrast = [r for r in results if r["ruleId"].startswith("contrast.")]
            assert contrast and all(len(r["relatedLocations"]) == 1 for r in contrast), "background location missing"
            assert all(r["properties"]["appearance"] in r["message"]["text"] for r in contrast), "appearance not in message"
            ids = {r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]}
            assert {r["ruleId"] for r in results} <= ids, "result rule missing from driver rules"
            print("valid", len(results))
            """, schema.path, sarif.path]
        let out = Pipe()
        validator.standardOutput = out
        validator.standardError = out
        try validator.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        validator.waitUntilExit()
        #expect(validator.terminationStatus == 0, "\(text)")
        #expect(text.hasPrefix("valid"))
    }

    @Test func baselineReportsOnlyNewFindingsAndStrictModeCatchesFixedOnes() throws {
        let dir = try CLI.temporaryDesignSystem(Self.failingSystem)
        defer { try? FileManager.default.removeItem(at: dir) }
        let baseline = dir.appendingPathComponent("baseline.json").path
        #expect(try CLI.run(["audit", dir.path, "--write-baseline", baseline]).status == 1)
        // Same findings, baselined: clean.
        #expect(try CLI.run(["audit", dir.path, "--baseline", baseline]).status == 0)
        // Moving the token to another line does not make it new (matched by rule + subject + appearance).
        let tokens = dir.appendingPathComponent("Tokens.swift")
        let moved = Self.failingSystem["Tokens.swift"]!.replacingOccurrences(of: "import SwiftUI\n", with: "import SwiftUI\n\n\n")
        try moved.write(to: tokens, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["audit", dir.path, "--baseline", baseline]).status == 0)
        // A new failure is reported.
        let worse = moved.replacingOccurrences(of: "static let background", with: "static let subtitle = Color(hex: \"#999999\")\n        static let background")
        try worse.write(to: tokens, atomically: true, encoding: .utf8)
        let newRun = try CLI.run(["audit", dir.path, "--baseline", baseline, "--format", "json"])
        #expect(newRun.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: newRun.stdout) as? [String: Any])
        let subjects = (json["findings"] as? [[String: Any]] ?? []).compactMap { $0["subject"] as? String }
        #expect(subjects.contains("CardStyling: subtitle on background"))
        #expect(!subjects.contains("CardStyling: title on background"))
        // Fixing the baselined failure: fine normally, a failure under --strict-baseline.
        let fixed = moved.replacingOccurrences(of: "#777777", with: "#595959")
        try fixed.write(to: tokens, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["audit", dir.path, "--baseline", baseline]).status == 0)
        let strict = try CLI.run(["audit", dir.path, "--baseline", baseline, "--strict-baseline"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("no longer occur"))
    }

    @Test func inlineSuppressionWithReasonSilencesAndStaleOneIsReported() throws {
        var files = Self.failingSystem
        files["Tokens.swift"] = files["Tokens.swift"]!.replacingOccurrences(
            of: "        static let title", with: "        // a11yd:ignore contrast.text -- brand-mandated gray, tracked in DS-12\n        static let title")
        let dir = try CLI.temporaryDesignSystem(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["audit", dir.path])
        #expect(run.status == 0, "\(run.text)")
        #expect(!run.text.contains("[contrast.text]"))

        // Without a reason: still suppressed, but the suppression itself is reported.
        try files["Tokens.swift"]!.replacingOccurrences(of: " -- brand-mandated gray, tracked in DS-12", with: "")
            .write(to: dir.appendingPathComponent("Tokens.swift"), atomically: true, encoding: .utf8)
        let noReason = try CLI.run(["audit", dir.path, "--fail-on", "warning"])
        #expect(noReason.status == 1)
        #expect(noReason.text.contains("has no reason"))

        // Fixed color: the suppression no longer suppresses anything.
        try files["Tokens.swift"]!.replacingOccurrences(of: "#777777", with: "#595959")
            .write(to: dir.appendingPathComponent("Tokens.swift"), atomically: true, encoding: .utf8)
        let stale = try CLI.run(["audit", dir.path, "--fail-on", "warning"])
        #expect(stale.text.contains("no longer suppresses anything"))
        #expect(stale.text.contains("Tokens.swift:7:9"))
    }

    @Test func configSuppressionBySubjectAndSeverityOverride() throws {
        var files = Self.failingSystem
        files[".a11yd.yml"] = """
            extends: wcag21-aa
            severity:
              contrast.text: warning
            """
        let dir = try CLI.temporaryDesignSystem(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["audit", dir.path]).status == 0)
        #expect(try CLI.run(["audit", dir.path, "--fail-on", "warning"]).status == 1)

        try """
            policy: wcag21-aa
            suppress:
              - {rule: contrast.text, subject: CardStyling, reason: "legacy card, redesign in Q3"}
            """.write(to: dir.appendingPathComponent(".a11yd.yml"), atomically: true, encoding: .utf8)
        let suppressed = try CLI.run(["audit", dir.path, "--format", "json"])
        #expect(suppressed.status == 0, "\(suppressed.stderr)")
        #expect(suppressed.text.contains("\"suppressed\" : 2"))
    }
}

struct DesignTokenModeTests {
    @Test func modesInConfigMapTokenFilesToAppearancesAndHighContrastIsAudited() throws {
        let dir = try CLITests.temporaryDesignSystem([
            "base.json": ##"{"color": {"text": {"$type": "color", "$value": "#111111"}, "surface": {"background": {"$type": "color", "$value": "#FFFFFF"}}}}"##,
            "night.json": ##"{"color": {"text": {"$type": "color", "$value": "#EEEEEE"}, "surface": {"background": {"$type": "color", "$value": "#000000"}}}}"##,
            "night-hc.json": ##"{"color": {"text": {"$type": "color", "$value": "#9A9A9A"}, "surface": {"background": {"$type": "color", "$value": "#000000"}}}}"##,
            ".a11yd.yml": """
                policy: wcag21-aa
                include: ["*.json"]
                surfaces: [color.surface.background]
                modes:
                  light: [base.json]
                  dark: [night.json]
                  darkHighContrast: [night-hc.json]
                """,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLITests.run(["audit", dir.path, "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let appearances = json["appearances"] as? [String] ?? []
        #expect(appearances == ["light", "dark", "lightHighContrast", "darkHighContrast"], "\(run.stderr)")
        let findings = json["findings"] as? [[String: Any]] ?? []
        // #9A9A9A on black is about 7.4:1 in dark HC... a pass; the HC minimum (7:1) is what is required.
        let hcPair = (json["pairs"] as? [[String: Any]] ?? []).first { $0["appearance"] as? String == "darkHighContrast" }
        #expect((hcPair?["required"] as? NSNumber)?.doubleValue == 7)
        #expect(!findings.contains { $0["rule"] as? String == "parse" || $0["rule"] as? String == "reference" }, "\(findings)")
    }
}

struct SARIFLocationTests {
    @Test func sarifURIsAreRelativeToTheSourceRootGivenInOriginalUriBaseIds() throws {
        // An absolute path under the directory the audit runs from (as CI does at the repository root).
        let run = try CLITests.run(["audit", CLITests.example, "--format", "sarif"], cwd: CLITests.packageRoot)
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let sarifRun = try #require((json["runs"] as? [[String: Any]])?.first)
        let bases = try #require(sarifRun["originalUriBaseIds"] as? [String: [String: Any]])
        let root = try #require(bases["%SRCROOT%"]?["uri"] as? String)
        #expect(root.hasPrefix("file:///") && root.hasSuffix("/"), "\(root)")
        #expect(URL(string: root)?.standardizedFileURL.path == CLITests.packageRoot.standardizedFileURL.path, "\(root)")
        let results = try #require(sarifRun["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        for result in results {
            let locations = (result["locations"] as? [[String: Any]] ?? []) + (result["relatedLocations"] as? [[String: Any]] ?? [])
            for location in locations {
                let artifact = try #require((location["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])
                let uri = try #require(artifact["uri"] as? String)
                #expect(uri.hasPrefix("Examples/DesignSystem/"), "\(uri)")
                #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
            }
        }
    }
}
