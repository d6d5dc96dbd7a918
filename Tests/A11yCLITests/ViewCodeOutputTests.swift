import A11yEngine
import A11yOutput
import A11yReaders
import Foundation
import Testing

/// Where view code draws a pair reaches every output: JSON `drawnAt`, the table, SARIF `relatedLocations`, `explain`.
struct ViewCodeOutputTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/ViewCode")

    let result: AuditResult
    /// `Text("Faded")` in KitNotice: kitInk at half opacity on kitSurfaceBrand, 2.04:1, a failing text pair.
    let fadedLine: Int
    /// The column of its `.foregroundStyle` argument (where the pair is drawn).
    let fadedColumn: Int

    init() throws {
        result = Auditor.run(try Workspace(root: Self.fixtures.path, policySearchDirectories: [Self.packageRoot.appendingPathComponent("policies").path]).refresh())
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("KitStyles.swift"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        fadedLine = try #require(lines.firstIndex { $0.hasSuffix("// drawn: notice faded") }) + 1
        let line = lines[fadedLine - 1]
        fadedColumn = line.distance(from: line.startIndex, to: try #require(line.range(of: "Color.kitInk")).lowerBound) + 1
    }

    @Test func jsonCarriesDrawnAtOnlyForViewCodePairs() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(try JSONSerialization.jsonObject(with: encoder.encode(result.audit)) as? [String: Any])
        let pairs = try #require(json["pairs"] as? [[String: Any]])
        let faded = try #require(pairs.first { ($0["subject"] as? String) == "KitNotice: kitInk on kitSurfaceBrand" })
        let drawnAt = try #require(faded["drawnAt"] as? [String: Any])
        #expect(drawnAt["line"] as? Int == fadedLine)
    }

    @Test func sarifRelatesTheFindingToWhereTheViewDrawsIt() throws {
        let data = try SARIF.encode(result.audit, toolVersion: "test", sourceRoot: Self.fixtures.path)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let results = try #require(((json["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let faded = try #require(results.first { (($0["message"] as? [String: Any])?["text"] as? String)?.contains("kitInk") == true
            && (($0["message"] as? [String: Any])?["text"] as? String)?.contains("kitSurfaceBrand") == true })
        let related = try #require(faded["relatedLocations"] as? [[String: Any]])
        let lines = related.compactMap { (($0["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])?["startLine"] as? Int }
        #expect(lines.contains(fadedLine), "\(related)")
    }

    @Test func tableAndExplainSayWhereItIsDrawn() throws {
        let table = AuditTable(color: false).render(result.audit)
        let header = try #require(table.components(separatedBy: "\n").first { $0.hasPrefix("KitNotice ") })
        #expect(header.contains("drawn at ") && header.contains("KitStyles.swift:\(fadedLine)"))
        let explanation = try #require(PairExplanation.explain(foreground: "kitInk", background: "kitSurfaceBrand", in: result.context))
        let drawnLine = try #require(ExplanationText.render(explanation).components(separatedBy: "\n").first { $0.contains("drawn at: ") })
        #expect(drawnLine.hasSuffix("KitStyles.swift:\(fadedLine):\(fadedColumn)"))
    }
}
