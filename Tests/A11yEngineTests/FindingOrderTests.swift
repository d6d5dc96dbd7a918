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
        #expect(Finding.sorted(findings) == findings.sorted(by: Finding.ordered))
        #expect(Finding.sorted([]) == [])
    }
}
