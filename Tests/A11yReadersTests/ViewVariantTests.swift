@testable import A11yEngine
import A11yReaders
import Foundation
import Testing

/// A view is walked once per case of its enum properties, except cases no walk so far could tell apart: a variant
/// that agrees with a walked one on every property that walk read draws the same.
struct ViewVariantTests {
    static let source = """
    import SwiftUI
    extension Color {
        static let paper = Color(hex: "#FFFFFF")
        static let warn = Color(hex: "#B00020")
        static let calm = Color(hex: "#006400")
    }
    enum BadgeSize { case small, medium, large }
    enum BadgeTone { case warning, calm }
    struct Badge: View {
        var size: BadgeSize = .medium
        var tone: BadgeTone = .warning
        var body: some View {
            Text("Badge").foregroundColor(tone == .calm ? Color.calm : Color.warn).background(Color.paper)
        }
    }
    struct Chip: View {
        var size: BadgeSize = .medium
        var tone: BadgeTone = .calm
        var body: some View {
            Text("Chip").font(.system(size: fontSize)).foregroundColor(tone == .calm ? Color.calm : Color.warn).background(Color.paper)
        }
        var fontSize: CGFloat {
            switch size {
            case .small: return 11
            case .medium: return 13
            case .large: return 17
            }
        }
    }
    """

    func analysis() throws -> ViewCodeAnalysis {
        let dir = try NameSpaceAndInstancePairingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.source.write(to: dir.appendingPathComponent("Views.swift"), atomically: true, encoding: .utf8)
        let input = try Workspace(root: dir.path, policySearchDirectories: ExampleAuditTests.policies).refresh()
        var configuration = Interpreter.Configuration()
        configuration.workers = 1
        let graph = TokenGraph(sources: input.sources, configuration: configuration)
        return ViewCodeAnalysis(declarations: input.sources.flatMap(\.declarations), types: input.sources.flatMap(\.types), graph: graph)
    }

    func entry(_ type: String, _ analysis: ViewCodeAnalysis) throws -> (type: String, entry: MemberDeclaration) {
        try #require(analysis.entryPoints().first { $0.type == type })
    }

    /// Every variant walked, as before variants were skipped.
    func everyVariant(_ entry: (type: String, entry: MemberDeclaration), _ analysis: ViewCodeAnalysis) -> [Walk] {
        analysis.variants(of: entry.type).map { variant in
            var walk = Walk(analysis: analysis, type: entry.type, variant: variant.label, selfValue: variant.selfValue, flags: variant.flags)
            walk.visitEntry(entry.entry, Context())
            return walk
        }
    }

    func drawn(_ walks: [Walk]) -> Set<ViewCodeAnalysis.DrawnPairKey> { Set(walks.flatMap(\.pairs).map(ViewCodeAnalysis.DrawnPairKey.init)) }

    @Test func sizesABodyNeverReadsAreNotWalked() throws {
        let analysis = try analysis()
        let badge = try entry("Badge", analysis)
        let walks = analysis.walks(of: badge)
        // `small` reads only `tone` (at its default, warning): the other sizes and `warning` agree with it.
        #expect(walks.map(\.variant) == ["small", "calm"])
        #expect(analysis.variants(of: "Badge").count == 5)
        #expect(drawn(walks) == drawn(everyVariant(badge, analysis)))
        #expect(Set(walks.flatMap(\.pairs).map(\.foreground.color.light.hex)) == ["#B00020", "#006400"])
    }

    @Test func propertiesTheBodyReadsAreWalkedCaseByCase() throws {
        let analysis = try analysis()
        let chip = try entry("Chip", analysis)
        let walks = analysis.walks(of: chip)
        // Each size sets the font; `calm` is the default tone (walked with `medium`), `warning` is not.
        #expect(walks.map(\.variant) == ["small", "medium", "large", "warning"])
        #expect(Set(walks.flatMap(\.fonts).map(\.font.size)) == [11, 13, 17])
        #expect(drawn(walks) == drawn(everyVariant(chip, analysis)))
    }
}
