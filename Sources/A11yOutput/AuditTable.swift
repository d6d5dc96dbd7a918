import A11yEngine

/// The human form of an audit: pairs grouped by component, then findings with file:line:column, then a summary.
public struct AuditTable {
    public var color: Bool

    public init(color: Bool) { self.color = color }

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

    public func render(_ audit: Audit) -> String {
        var out = header(audit)
        var groups: [(String, [Audit.Pair])] = []
        for pair in audit.pairs {
            let name = pair.component ?? "Tokens (naming convention and declared pairs)"
            if groups.last?.0 == name { groups[groups.count - 1].1.append(pair) } else { groups.append((name, [pair])) }
        }
        for (name, pairs) in groups {
            let failing = pairs.filter { !$0.pass }.count
            out += "\n" + paint(name, ANSI.bold) + (failing > 0 ? paint("  \(failing) failing", ANSI.red) : "") + "\n"
            out += "  " + pad("appearance", 11) + (color ? "      " : "") + pad("foreground", 38) + pad("background", 40)
                + pad("role", 11) + pad("ratio", 7) + pad("needs", 7) + "result\n"
            for p in pairs {
                let swatch = color ? ANSI.swatch(foreground: ColorValue(hex: p.foreground.color) ?? .black,
                                                 background: ColorValue(hex: p.background.color) ?? .white) + " " : ""
                let result = p.required == nil ? paint("exempt", ANSI.dim) : p.pass ? paint("pass", ANSI.green) : paint("FAIL", ANSI.red)
                out += "  " + pad(p.appearance.rawValue, 11) + swatch + pad(endpointName(p.foreground), 38)
                    + pad(endpointName(p.background), 40) + pad(roleName(p.role), 11)
                    + pad(displayRatio(p.ratio), 7) + pad(p.required.map(displayRatio) ?? "-", 7) + result + "\n"
            }
        }
        out += findings(audit.findings)
        out += "\n" + summary(audit) + "\n"
        return out
    }

    func header(_ audit: Audit) -> String {
        "a11yd audit: policy \(audit.policy.name) (\(audit.policy.id)); appearances \(audit.appearances.map(\.rawValue).joined(separator: ", "))\n"
            + "default surface: \(audit.surfaces.tokens.joined(separator: ", ")) (\(audit.surfaces.explanation))\n"
    }

    public func findings(_ findings: [Finding]) -> String {
        guard !findings.isEmpty else { return "\nNo findings.\n" }
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
        }
        return out
    }

    public func summary(_ audit: Audit) -> String {
        let s = audit.summary
        let byAppearance = s.failingByAppearance.keys.sorted().map { "\($0): \(s.failingByAppearance[$0]!)" }.joined(separator: ", ")
        return "\(s.components) components, \(s.pairs) pairs measured, \(s.failingPairs) failing"
            + (byAppearance.isEmpty ? "" : " (\(byAppearance))")
            + "; \(s.errors) errors, \(s.warnings) warnings, \(s.infos) info"
    }
}
