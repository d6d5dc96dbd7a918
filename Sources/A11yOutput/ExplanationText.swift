import A11yEngine

/// `a11yctl explain FG BG`: the human form of a pair explanation.
public enum ExplanationText {
    public static func render(_ explanations: [PairExplanation]) -> String {
        var out = ""
        for e in explanations {
            out += "\(e.component.map { $0 + ": " } ?? "")\(e.foreground.name) on \(e.background.name)\n"
            out += "  why: \(e.reason.rawValue): \(e.explanation)\n"
            if let drawnAt = e.drawnAt { out += "  drawn at: \(drawnAt)\n" }
            out += "  role: \(e.role.rawValue)" + (e.typography.map { " (typography \($0))" } ?? "") + "\n"
            let themed = e.measurements.contains { $0.theme != nil }
            for (label, side) in [("foreground", e.foreground), ("background", e.background)] {
                out += "  \(label)\(themed ? " (values in the default theme; each theme's below)" : ""): \(side.chain.map(TokenGraph.displayName).joined(separator: " -> ")) at \(side.location)\n"
                for appearance in Appearance.allCases {
                    if let value = side.values[appearance.rawValue] { out += "    \(appearance.rawValue): \(value)\n" }
                }
                if let problem = side.problem { out += "    no value: \(problem)\n" }
            }
            for m in e.measurements {
                let verdict = m.required == nil ? "exempt" : m.pass ? "pass" : "FAIL"
                out += "  \(m.theme.map { $0 + ", " } ?? "")\(m.appearance.rawValue): \(m.themeColors.map { $0 + ", " } ?? "")\(displayRatio(m.ratio)):1" + (m.required.map { ", needs \(displayRatio($0)):1" } ?? "")
                    + ", \(verdict)" + (m.fixHint.map { "; nearest passing foreground \($0)" } ?? "") + "\n"
            }
            out += "\n"
        }
        return out
    }
}
