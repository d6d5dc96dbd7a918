import Testing
@testable import A11yEngine

struct AuditDiffTests {
    static func audit(id: Int, findings: [Finding]) -> Audit {
        Audit(id: id, time: nil, inputDigest: "x", policy: .init(id: "wcag21-aa", name: "WCAG 2.1 AA"), appearances: [.light, .dark],
              surfaces: .init(tokens: [], inferred: true, explanation: ""), pairs: [], findings: findings,
              summary: .init(files: 0, tokens: 0, components: 0, pairs: 0, failingPairs: 0, failingByAppearance: [:],
                             errors: 0, warnings: 0, infos: 0, suppressed: 0))
    }

    static func contrast(_ subject: String, _ appearance: Appearance, ratio: Double, line: Int = 10) -> Finding {
        Finding(rule: "contrast.text", severity: .error, appearance: appearance, subject: subject, message: "\(subject) \(ratio)",
                location: A11yEngine.SourceLocation(file: "S.swift", line: line, column: 1), measured: ratio, required: 4.5)
    }

    @Test func passTurnedFailIsANewRegressionAndFixIsAResolution() {
        let before = Self.audit(id: 1, findings: [Self.contrast("Picker: label on menu", .dark, ratio: 4.1)])
        let after = Self.audit(id: 2, findings: [Self.contrast("Nav: badgeText on badge", .dark, ratio: 3.4)])
        let diff = AuditDiff.between(before, after)
        #expect(diff.regressions.map(\.subject) == ["Nav: badgeText on badge"])
        #expect(diff.regressions.first?.kind == .new)
        #expect(diff.resolutions.map(\.subject) == ["Picker: label on menu"])
        #expect(diff.fromAudit == 1 && diff.toAudit == 2)
    }

    @Test func lowerRatioOnAStillFailingPairIsAWorseRegression() {
        let before = Self.audit(id: 1, findings: [Self.contrast("P: a on b", .light, ratio: 4.2)])
        let worse = Self.audit(id: 2, findings: [Self.contrast("P: a on b", .light, ratio: 3.9)])
        let diff = AuditDiff.between(before, worse)
        #expect(diff.regressions.map(\.kind) == [.worse])
        #expect(diff.regressions.first?.before == 4.2 && diff.regressions.first?.after == 3.9)
        // Better but still failing is neither.
        #expect(AuditDiff.between(worse, before).isEmpty)
    }

    @Test func movedLinesAndInfoFindingsAreNotChanges() {
        let before = Self.audit(id: 1, findings: [Self.contrast("P: a on b", .light, ratio: 4.2, line: 10)])
        var info = Self.contrast("P: disabled on b", .light, ratio: 2)
        info.severity = .info
        let after = Self.audit(id: 2, findings: [Self.contrast("P: a on b", .light, ratio: 4.2, line: 42), info])
        #expect(AuditDiff.between(before, after).isEmpty)
    }

    @Test func firstAuditReportsEveryProblemAsARegression() {
        let first = Self.audit(id: 1, findings: [Self.contrast("P: a on b", .light, ratio: 4.2), Self.contrast("P: a on b", .dark, ratio: 4.0)])
        #expect(AuditDiff.between(nil, first).regressions.count == 2)
    }
}
