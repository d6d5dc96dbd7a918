import A11yEngine
import A11yReaders
import Foundation
import Testing

/// Switches over many cases jump to the first case that can match; every Swift rule of case order still holds.
struct LongSwitchTests {
    static let source = """
        import SwiftUI
        enum Step { case s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11 }
        enum Ramp {
            static var strict = true
            static func gray(for step: Step) -> Color {
                switch step {
                case .s0, .s1: return Color(white: 0.0)
                case .s2 where strict: return Color(white: 0.2)
                case .s2: return Color(white: 0.25)
                case .s3: return Color(white: 0.3)
                case .s4: return Color(white: 0.4)
                case .s5: return Color(white: 0.5)
                case Step.s6: return Color(white: 0.6)
                case .s7: return Color(white: 0.7)
                case .s3, .s8: return Color(white: 0.8)
                case .s9: return Color(white: 0.9)
                default: return Color(white: 1.0)
                }
            }
        }
        """

    @Test func everyCaseTakesTheBranchSwiftTakes() throws {
        let graph = TokenGraph(sources: [SwiftSourceReader().read(source: Self.source, file: "/tmp/Ramp.swift")])
        let expected: [String: Double] = ["s0": 0, "s1": 0, "s2": 0.2, "s3": 0.3, "s4": 0.4, "s5": 0.5, "s6": 0.6, "s7": 0.7,
                                          "s8": 0.8, "s9": 0.9, "s10": 1, "s11": 1]
        for (step, white) in expected {
            let color = try #require(try graph.value(of: "Ramp.gray.\(step)").get().color, "\(step)")
            #expect(color[.light] == ColorValue(red: white, green: white, blue: white), "\(step)")
        }
    }
}
