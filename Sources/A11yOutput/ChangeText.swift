import A11yEngine

/// One line per regression or resolution (`a11yctl watch`, `a11yctl diff`). A regression names its component (three
/// `label (appTextPrimary)` lines in three components must be told apart); a resolution prints the ratio the pair has
/// now, not the failing one it had.
public enum ChangeText {
    public static func line(_ c: AuditDiff.Change) -> String {
        let location = c.location.map { " at \($0)" } ?? ""
        switch c.kind {
        case .new, .worse:
            let component = c.component.map { "\($0): " } ?? ""
            let was = c.kind == .worse ? c.before.map { "; was \(displayRatio($0)):1" } ?? "" : ""
            return "  REGRESSION [\(c.rule)] \(component)\(c.message)\(was)\(location)"
        case .resolved:
            var text = "  resolved   [\(c.rule)] \(c.subject)" + (c.situation.map { " (\($0))" } ?? "")
            if let now = c.after {
                text += ": now \(displayRatio(now)):1" + (c.required.map { " (needs \(displayRatio($0)):1)" } ?? "")
                    + (c.before.map { ", was \(displayRatio($0)):1" } ?? "")
            }
            return text + location
        }
    }
}
