import A11yEngine

/// The human form of an audit: pairs grouped by component, then findings with file:line:column, then a summary.
public struct AuditTable {
    public var color: Bool
    /// The width the pair rows must fit (a terminal's columns); nil: as wide as the longest names (piped output keeps
    /// every name whole). Names that do not fit are truncated with an ellipsis, never run into the next column.
    public var width: Int?

    public init(color: Bool, width: Int? = nil) {
        self.color = color
        self.width = width
    }

    private func paint(_ text: String, _ code: String) -> String { color ? code + text + ANSI.reset : text }

    func endpointName(_ e: Audit.Endpoint) -> String {
        if let property = e.property, let token = e.token { return "\(property) (\(token))" }
        return e.property ?? e.token ?? e.color
    }

    func roleName(_ role: Role) -> String {
        switch role {
        case .largeText: return "large-text"
        default: return role.rawValue
        }
    }

    /// Two spaces between columns: a single space also separates the words of one cell ("label (appTextPrimary)").
    static let gap = "  "
    /// Names are never squeezed below this, even if the row then overflows a very narrow terminal.
    static let minimumNameWidth = 12

    struct Columns {
        var appearance: Int, foreground: Int, background: Int, role: Int
        static let ratio = 5, needs = 5
    }

    func columns(_ pairs: [Audit.Pair]) -> Columns {
        let appearance = max("appearance".count, pairs.map(\.appearance.rawValue.count).max() ?? 0)
        let role = max("role".count, pairs.map { roleName($0.role).count }.max() ?? 0)
        var foreground = max("foreground".count, pairs.map { endpointName($0.foreground).count }.max() ?? 0)
        var background = max("background".count, pairs.map { endpointName($0.background).count }.max() ?? 0)
        if let width {
            // indent, appearance, [swatch], fg, bg, role, ratio, needs, "result"/"exempt" (6), with a gap after each but the last.
            let fixed = 2 + appearance + (color ? 4 + Self.gap.count : 0) + role + Columns.ratio + Columns.needs + 6 + 6 * Self.gap.count
            let available = max(width - fixed, 2 * Self.minimumNameWidth)
            if foreground + background > available {
                // Share the room evenly; a column that needs less than its half gives the rest to the other.
                let half = available / 2
                if foreground <= half { background = available - foreground } else if background <= half {
                    foreground = available - background
                } else {
                    foreground = half
                    background = available - half
                }
            }
        }
        return Columns(appearance: appearance, foreground: foreground, background: background, role: role)
    }

    public func render(_ audit: Audit) -> String {
        var text = ""
        write(audit) { text += $0 }
        return text
    }

    /// The same text as `render`, handed to `sink` in pieces (a component's rows, a run of findings) as it is written.
    public func write(_ audit: Audit, to sink: (String) -> Void) {
        var out = header(audit)
        func flushIfLarge() {
            if out.utf8.count >= 1 << 16 { sink(out); out = "" }
        }
        var groups: [(String, [Audit.Pair])] = []
        for pair in audit.pairs {
            let name = pair.component ?? "Tokens (naming convention and declared pairs)"
            if groups.last?.0 == name { groups[groups.count - 1].1.append(pair) } else { groups.append((name, [pair])) }
        }
        let c = columns(audit.pairs)
        let gap = Self.gap
        let themeOrder = Dictionary((audit.themes ?? []).enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        let themes = Dictionary((audit.themes ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for (name, pairs) in groups {
            let failing = pairs.filter { !$0.pass }.count
            // View-code pairs say where the view draws them.
            let drawnAt = Set(pairs.compactMap(\.drawnAt)).sorted().map { "\($0.file.split(separator: "/").last.map(String.init) ?? $0.file):\($0.line)" }
            out += "\n" + paint(name, ANSI.bold) + (failing > 0 ? paint("  \(failing) failing", ANSI.red) : "")
                + (drawnAt.isEmpty ? "" : paint("  drawn at \(drawnAt.joined(separator: ", "))", ANSI.dim)) + "\n"
            // With themes, a component's rows come theme by theme under a line naming the theme, so ten themes stay
            // readable; rows no theme changes come first.
            var byTheme: [(theme: String?, pairs: [Audit.Pair])] = []
            let ordered = pairs.enumerated().sorted { ($0.element.theme.flatMap { themeOrder[$0] } ?? -1, $0.offset) < ($1.element.theme.flatMap { themeOrder[$0] } ?? -1, $1.offset) }
            for p in ordered.map(\.element) {
                if let last = byTheme.last, last.theme == p.theme { byTheme[byTheme.count - 1].pairs.append(p) } else { byTheme.append((p.theme, [p])) }
            }
            for (theme, rows) in byTheme {
                if let theme {
                    let failingInTheme = rows.filter { !$0.pass }.count
                    let how = themes[theme].map { $0.appearance.map { " (\($0.rawValue))" } ?? " (follows the system)" } ?? ""
                    out += "  " + paint("theme \(theme)\(how)", ANSI.bold) + (failingInTheme > 0 ? paint("  \(failingInTheme) failing", ANSI.red) : "") + "\n"
                }
                out += "  " + pad("appearance", c.appearance) + gap + (color ? "    " + gap : "") + pad("foreground", c.foreground) + gap
                    + pad("background", c.background) + gap + pad("role", c.role) + gap + pad("ratio", Columns.ratio) + gap
                    + pad("needs", Columns.needs) + gap + "result\n"
                for p in rows {
                    let swatch = color ? ANSI.swatch(foreground: ColorValue(hex: p.foreground.color) ?? .black,
                                                     background: ColorValue(hex: p.background.color) ?? .white) + gap : ""
                    let result = p.required == nil ? paint("exempt", ANSI.dim) : p.pass ? paint("pass", ANSI.green) : paint("FAIL", ANSI.red)
                    out += "  " + pad(p.appearance.rawValue, c.appearance) + gap + swatch + pad(endpointName(p.foreground), c.foreground) + gap
                        + pad(endpointName(p.background), c.background) + gap + pad(roleName(p.role), c.role) + gap
                        + pad(displayRatio(p.ratio), Columns.ratio) + gap + pad(p.required.map(displayRatio) ?? "-", Columns.needs) + gap
                        + result + "\n"
                }
            }
            flushIfLarge()
        }
        sink(out)
        writeFindings(audit.findings, to: sink)
        sink("\n" + summary(audit) + "\n")
    }

    func header(_ audit: Audit) -> String {
        "a11yd audit: policy \(audit.policy.name) (\(audit.policy.id)); appearances \(audit.appearances.map(\.rawValue).joined(separator: ", "))\n"
            + "default surface: \(audit.surfaces.tokens.joined(separator: ", ")) (\(audit.surfaces.explanation))\n"
            + (audit.themes.map { themes in
                themes.isEmpty ? "" : "themes: " + themes.map { t in
                    t.name + " (" + ([t.isDefault ? "default" : nil, t.appearance?.rawValue ?? "follows the system"].compactMap { $0 })
                        .joined(separator: ", ") + ")"
                }.joined(separator: ", ") + "\n"
            } ?? "")
    }

    public func findings(_ findings: [Finding]) -> String {
        var text = ""
        writeFindings(findings) { text += $0 }
        return text
    }

    func writeFindings(_ findings: [Finding], to sink: (String) -> Void) {
        guard !findings.isEmpty else { return sink("\nNo findings.\n") }
        var out = "\n" + paint("Findings", ANSI.bold) + "\n"
        for f in findings {
            let severity: String
            switch f.severity {
            case .error: severity = paint("error", ANSI.red)
            case .warning: severity = paint("warning", ANSI.yellow)
            case .info: severity = paint("info", ANSI.dim)
            }
            out += "\(f.location?.description ?? "-"): \(severity): [\(f.rule)] \(f.message)\n"
            for related in f.relatedLocations { out += "    see \(related)\n" }
            if let hint = f.fixHint { out += "    fix: \(hint)\n" }
            if out.utf8.count >= 1 << 16 { sink(out); out = "" }
        }
        sink(out)
    }

    public func summary(_ audit: Audit) -> String {
        let s = audit.summary
        let byAppearance = s.failingByAppearance.keys.sorted().map { "\($0): \(s.failingByAppearance[$0]!)" }.joined(separator: ", ")
        return "\(counted(s.components, "component")), \(counted(s.pairs, "pair")) measured, \(s.failingPairs) failing"
            + (byAppearance.isEmpty ? "" : " (\(byAppearance))")
            + (s.failingByTheme.map { byTheme in
                let names = (audit.themes ?? []).map(\.name).filter { byTheme[$0] != nil }
                return "; failing by theme: " + names.map { "\($0) \(byTheme[$0]!)" }.joined(separator: ", ")
            } ?? "")
            + "; \(counted(s.errors, "error")), \(counted(s.warnings, "warning")), \(s.infos) info"
    }
}
