import A11yEngine
import A11yReaders
import Foundation
import Testing

/// Golden audit of the bundled example design system. Expected ratios are the hand-computed values of
/// Examples/DesignSystem/README.md ("Expected contrast results", truncated to 4 decimals).
struct ExampleAuditTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let example = packageRoot.appendingPathComponent("Examples/DesignSystem").path
    static let policies = [packageRoot.appendingPathComponent("policies").path]
    static let styling = example + "/NativeComponentStyling.swift"
    static let tokens = example + "/DesignTokens.swift"

    static func audit(policy: String? = nil) throws -> AuditResult {
        Auditor.run(try Workspace(root: example, policyOverride: policy, policySearchDirectories: policies).refresh())
    }

    /// 1-based line of the first line containing `text` in `file`.
    static func line(of text: String, in file: String) throws -> Int {
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains(text) }) + 1
    }

    static func pair(_ audit: Audit, _ component: String?, _ fg: String, _ bg: String, _ appearance: Appearance) throws -> Audit.Pair {
        try #require(audit.pairs.first {
            $0.component == component && ($0.foreground.property ?? $0.foreground.token) == fg
                && ($0.background.property ?? $0.background.token) == bg && $0.appearance == appearance
        }, "\(component ?? "-"): \(fg) on \(bg) \(appearance)")
    }

    static func truncated(_ ratio: Double) -> Double { (ratio * 10000).rounded(.down) / 10000 }

    /// `a11y-bench phases` times an audit by the phases it reports: a cold audit reports every phase once, in order;
    /// the next audit after a color edit takes the last pairing over and reports no pairing phases.
    @Test func anAuditReportsItsPhasesInOrder() throws {
        final class Recorder: @unchecked Sendable {
            private let lock = NSLock()
            private var recorded: [AuditPhase] = []
            func add(_ phase: AuditPhase) { lock.lock(); recorded.append(phase); lock.unlock() }
            func take() -> [AuditPhase] { lock.lock(); defer { recorded = []; lock.unlock() }; return recorded }
        }
        let recorder = Recorder()
        var input = try Workspace(root: Self.packageRoot.appendingPathComponent("Examples/DesignSystem").path).refresh()
        input.onPhase = { recorder.add($0) }
        let first = Auditor.run(input)
        #expect(recorder.take() == AuditPhase.allCases)
        _ = Auditor.run(input, previous: first)
        #expect(recorder.take() == AuditPhase.allCases.filter { ![.components, .surfaces, .pairing].contains($0) })
    }

    @Test func handComputedRatiosMatch() throws {
        let audit = try Self.audit().audit
        let expected: [(String?, String, String, Appearance, Double, Bool)] = [
            ("NativePickerStyling", "label", "menuBackground", .light, 16.1194, true),
            ("NativePickerStyling", "placeholder", "menuBackground", .dark, 4.1017, false),
            ("NativePickerStyling", "placeholder", "menuBackground", .light, 5.2565, true),
            ("NativeBottomNavStyling", "activeLabel", "background", .light, 4.2925, false),
            ("NativeBottomNavStyling", "activeLabel", "background", .dark, 10.5340, true),
            ("NativeBottomNavStyling", "badgeText", "badge", .dark, 3.4803, false),
            ("NativePageHeaderStyling", "separator", "background", .light, 1.4735, false),
            ("NativePageHeaderStyling", "tint", "background", .light, 4.2925, true),
            ("NativeTooltipStyling", "text", "background", .dark, 15.8976, true),
            ("NativeDatePickerStyling", "selectedDayText", "tint", .dark, 4.8806, true),
            ("NativeCarouselStyling", "dotActive", "appSurfaceBasePrimary", .dark, 4.1494, true),
            (nil, "appTextOnBrandPrimary", "appSurfaceBrand", .dark, 5.0609, true),
        ]
        for (component, fg, bg, appearance, ratio, pass) in expected {
            let p = try Self.pair(audit, component, fg, bg, appearance)
            #expect(Self.truncated(p.ratio) == ratio, "\(component ?? "-"): \(fg) on \(bg) \(appearance): \(p.ratio)")
            #expect(p.pass == pass, "\(fg) on \(bg) \(appearance)")
        }
    }

    @Test func darkModeFailureIsReportedWithBothTokenLocations() throws {
        let audit = try Self.audit().audit
        let finding = try #require(audit.findings.first {
            $0.rule == "contrast.text" && $0.appearance == .dark && $0.subject == "NativePickerStyling: placeholder on menuBackground"
        })
        #expect(finding.severity == .error)
        #expect(finding.location == SourceLocation(file: Self.styling, line: try Self.line(of: "static let placeholder", in: Self.styling), column: 20))
        #expect(finding.relatedLocations.map(\.line) == [try Self.line(of: "static let menuBackground", in: Self.styling)])
        #expect(finding.message.contains("4.10:1"))
        #expect(finding.message.contains("needs 4.50:1"))
        #expect(finding.fixHint != nil)
        // The light-mode pairing passes, so only dark is reported.
        #expect(!audit.findings.contains { $0.subject == finding.subject && $0.appearance == .light && $0.rule == "contrast.text" })
    }

    @Test func disabledPairsAreExemptAndReportedAsInfo() throws {
        let audit = try Self.audit().audit
        let disabled = try Self.pair(audit, "NativePickerStyling", "disabled", "menuBackground", .dark)
        #expect(disabled.required == nil && disabled.pass && disabled.role == .disabled)
        #expect(audit.findings.contains { $0.subject == "NativePickerStyling: disabled on menuBackground" && $0.severity == .info })
    }

    @Test func everyExampleTokenResolvesAndInactiveCodeIsNotRead() throws {
        let result = try Self.audit()
        let graph = result.context.graph
        #expect(!result.audit.findings.contains { $0.rule == "reference" || $0.rule == "parse" }, "\(result.audit.findings.filter { $0.rule == "reference" || $0.rule == "parse" })")
        // The commented-out token does not exist; the #if os(macOS) branch is not read; #if DEBUG is off.
        #expect(graph.tokens["Color.appTextDisabled"] == nil)
        #expect(graph.tokens["Color.appDebugLayoutOutline"] == nil)
        let muted = try #require(try graph.value(of: "Color.appTextMuted").get().color)
        #expect(muted[.light].hex == "#5F6672")
        #expect(muted[.dark].hex == "#7C7C82")
        #expect(result.audit.summary.components == 13)
    }

    @Test func expectedRuleFindingsAppearAtTheirLocations() throws {
        let audit = try Self.audit().audit
        func has(_ rule: String, _ subject: String, line text: String, in file: String) throws {
            let f = try #require(audit.findings.first { $0.rule == rule && $0.subject == subject }, "\(rule) \(subject)")
            #expect(f.location?.file == file)
            #expect(f.location?.line == (try Self.line(of: text, in: file)))
        }
        try has("touch-target", "NativeCarouselStyling.dotInactiveWidth", line: "static let dotInactiveWidth", in: Self.styling)
        try has("dynamic-type", "NativeBottomNavStyling.Typography.labelSize", line: "static let labelSize", in: Self.styling)
        try has("dynamic-type", "NativeBottomNavStyling.Typography.labelSize (size)", line: "static let labelSize", in: Self.styling)
        try has("dynamic-type", "appCaptionSmall", line: "static let appCaptionSmall", in: Self.tokens)
        // The range slider declares a 44pt total height around its 24pt thumb: no touch-target finding.
        #expect(!audit.findings.contains { $0.rule == "touch-target" && $0.component == "NativeRangeSliderStyling" })
    }

    @Test func appleHIGPolicyChangesTheLargeTextDecision() throws {
        // The page header's large title (28pt+) is large text under both mappings; the HIG also counts bold text as large.
        let wcag = try Self.audit().audit
        let hig = try Self.audit(policy: "apple-hig").audit
        #expect(wcag.policy.id == "wcag21-aa" && hig.policy.id == "apple-hig")
        let title = try Self.pair(wcag, "NativePageHeaderStyling", "largeTitle", "background", .light)
        #expect(title.role == .largeText && title.required == 3)
    }

    @Test func auditIsDeterministic() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let a = try encoder.encode(try Self.audit().audit)
        let b = try encoder.encode(try Self.audit().audit)
        #expect(a == b)
    }
}

/// Every rule's passing and failing examples, run through the real readers and engine.
struct RuleExampleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var rule: String
        var source: String
        var passes: Bool
        var testDescription: String { "\(rule) \(passes ? "passes" : "fails")" }
    }

    static let cases: [Case] = allRules.flatMap { rule -> [Case] in
        let d = type(of: rule).description
        return d.passing.map { Case(rule: d.id, source: $0.source, passes: true) }
            + d.failing.map { Case(rule: d.id, source: $0.source, passes: false) }
    }

    @Test(arguments: cases)
    func example(_ c: Case) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-rule-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try ("import SwiftUI\n" + c.source).write(to: dir.appendingPathComponent("Example.swift"), atomically: true, encoding: .utf8)
        let audit = Auditor.run(try Workspace(root: dir.path, policySearchDirectories: ExampleAuditTests.policies).refresh()).audit
        let hits = audit.findings.filter { $0.rule == c.rule && $0.severity >= .warning }
        #expect(!audit.findings.contains { $0.rule == "parse" || $0.rule == "reference" }, "\(audit.findings)")
        if c.passes { #expect(hits.isEmpty, "\(hits)") } else { #expect(!hits.isEmpty) }
    }
}
