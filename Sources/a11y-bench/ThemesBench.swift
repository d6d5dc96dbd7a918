import A11yEngine
import A11yReaders
import Foundation

/// `a11y-bench themes`: cold audit of a podcast-player-style system with ten themes (a theme enum switched over by
/// one token function per color, ~150 tokens per theme), in process and as `a11yctl audit --format json`.
enum ThemesBench {
    static let themes = ["light", "dark", "extraDark", "electric", "classic", "indigo", "radioactive", "rosé", "contrastLight", "contrastDark"]

    static func writeSystem(to dir: URL, tokensPerTheme: Int) throws {
        var g = Generator()
        var source = """
            import UIKit

            enum ThemeType: Int, CaseIterable {
                case \(themes.joined(separator: ", "))
            }

            extension UIColor {
                convenience init(hex: UInt32, alpha: CGFloat = 1) {
                    self.init(red: CGFloat((hex >> 16) & 0xFF) / 255, green: CGFloat((hex >> 8) & 0xFF) / 255,
                              blue: CGFloat(hex & 0xFF) / 255, alpha: alpha)
                }
            }

            enum AppTheme {

            """
        func function(_ name: String, dark: Bool? = nil) -> String {
            var text = "    static func \(name)(for theme: ThemeType? = nil) -> UIColor {\n        switch theme ?? .light {\n"
            for theme in themes.dropLast() {
                let value: String
                switch dark {
                case true?: value = ["dark", "extraDark", "electric", "indigo", "radioactive", "contrastDark"].contains(theme) ? "0x121212" : "0xFAFAFA"
                default: value = "0x" + String(g.hex().dropFirst())
                }
                text += "        case .\(theme): return UIColor(hex: \(value))\n"
            }
            text += "        default: return UIColor(hex: 0x\(dark == true ? "000000" : String(g.hex().dropFirst())))\n        }\n    }\n\n"
            return text
        }
        source += function("primaryBackground", dark: true)
        let roles = ["Text", "Icon", "Border", "Surface"]
        for i in 1..<tokensPerTheme { source += function("item\(i)\(roles[i % roles.count])") }
        source += "}\n"
        try source.write(to: dir.appendingPathComponent("AppTheme.swift"), atomically: true, encoding: .utf8)
    }

    static func run(tokensPerTheme: Int, runs: Int) throws {
        try benchColdAudit(label: "themed system", runs: runs, write: { try writeSystem(to: $0, tokensPerTheme: tokensPerTheme) }) { audit in
            "\(audit.themes?.count ?? 0) themes, \(audit.summary.tokens) tokens, \(audit.summary.pairs) pair measurements, \(audit.summary.failingPairs) failing"
        }
    }
}
