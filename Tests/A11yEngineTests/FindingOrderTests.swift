import A11yEngine
import Testing

/// Audits list findings in `Finding.ordered` order; `Finding.sorted` (ranked files and rules) must give exactly that order.
struct FindingOrderTests {
    @Test func rankedSortingEqualsSortingByTheComparator() {
        var findings: [Finding] = []
        let files = ["Tokens.swift", "A/Styling.swift", "", "Z.json"]
        let rules = ["contrast.text", "token-hygiene", "contrast.graphic", "reference"]
        var generator = SystemRandomNumberGenerator()
        for i in 0..<600 {
            let file = files[Int.random(in: 0..<files.count, using: &generator)]
            let location = i % 17 == 0 ? nil : SourceLocation(file: file, line: Int.random(in: 0..<6, using: &generator), column: Int.random(in: 1..<3, using: &generator))
            findings.append(Finding(
                rule: rules[Int.random(in: 0..<rules.count, using: &generator)], severity: .error,
                appearance: i % 5 == 0 ? nil : Appearance.allCases.randomElement(using: &generator),
                subject: ["a on b", "b on c", "c"].randomElement(using: &generator)!, message: ["m1", "m2"].randomElement(using: &generator)!,
                location: location))
        }
        let sorted = Finding.sorted(findings)
        #expect(sorted == findings.sorted(by: Finding.ordered))
        // Files by path (no location as the empty path), then line and column: what both orders compare files by identity for.
        let places = sorted.map { ($0.location?.file ?? "", $0.location?.line ?? 0, $0.location?.column ?? 0) }
        #expect(zip(places, places.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(Finding.sorted([]) == [])
    }

    /// `sortedOnce` is `sorted` with each finding once: a duplicate goes even when a finding equivalent in the order (here
    /// one that differs only in its severity) stands between the two copies, and nothing else goes.
    @Test func sortingOnceDropsExactlyTheDuplicates() {
        func finding(_ line: Int, severity: Severity = .error, message: String = "m") -> Finding {
            Finding(rule: "contrast.text", severity: severity, appearance: .light, subject: "a on b", message: message,
                    location: SourceLocation(file: "T.swift", line: line, column: 1))
        }
        let a = finding(3), b = finding(3, severity: .warning), c = finding(1), d = finding(3, message: "n")
        let once = Finding.sortedOnce([a, b, d, a, c, b, c])
        #expect(once == [c, a, b, d])
        #expect(Set(once).count == once.count)
        // Without duplicates, the same as sorting.
        var generator = SystemRandomNumberGenerator()
        let many = (0..<300).map { i in finding(Int.random(in: 0..<20, using: &generator), message: "m\(i)") }
        #expect(Finding.sortedOnce(many) == Finding.sorted(many))
        #expect(Finding.sortedOnce(many + many.shuffled()) == Finding.sorted(many))
    }

    /// A set drops a finding made twice (equal strings built apart) and keeps findings that differ in any field, even
    /// one its hash leaves out (the message, the severity, a related location).
    @Test func aSetOfFindingsDropsExactlyTheDuplicates() {
        func finding(_ message: String = "ratio 2.1:1", severity: Severity = .error, related: [A11yEngine.SourceLocation] = []) -> Finding {
            Finding(rule: ["contrast", "text"].joined(separator: "."), severity: severity, appearance: .dark,
                    subject: ["Color", "ink on Color", "paper"].joined(separator: "."), message: message,
                    location: A11yEngine.SourceLocation(file: "Tokens.swift", line: 4, column: 9), relatedLocations: related, theme: "Th\u{E8}me")
        }
        let base = finding()
        #expect(base == finding() && base.hashValue == finding().hashValue)
        let variants = [finding("ratio 2.2:1"), finding(severity: .warning), finding(related: [A11yEngine.SourceLocation(file: "A.swift", line: 1, column: 1)])]
        #expect(Set([base, finding()] + variants).count == 1 + variants.count)
        var decomposed = base
        decomposed.theme = "The\u{300}me"
        #expect(decomposed == base && decomposed.hashValue == base.hashValue)
    }
}
