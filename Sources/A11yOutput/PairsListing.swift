import A11yEngine

/// `a11yctl pairs`: every pairing once (not per appearance) with the reason it exists.
public struct PairsListing: Codable, Hashable, Sendable {
    public struct Entry: Codable, Hashable, Sendable {
        public var component: String?
        public var foreground: String
        public var foregroundToken: String?
        public var background: String
        public var backgroundToken: String?
        public var role: Role
        public var reason: PairingReason
        public var explanation: String
        public var typography: String?
        public var location: SourceLocation
        /// Where view code draws the pair (reason `view-code`).
        public var drawnAt: SourceLocation?
    }

    public var surfaces: Audit.SurfacesInfo
    /// The themes found (or configured), with what was inferred about each.
    public var themes: [Theme]
    public var pairs: [Entry]

    public init(_ context: AuditContext) {
        surfaces = Audit.SurfacesInfo(tokens: context.surfaces.endpoints.map(\.name), inferred: context.surfaces.inferred,
                                      explanation: context.surfaces.explanation)
        themes = context.themes
        pairs = context.pairings.map { p in
            Entry(component: p.component, foreground: p.foreground.name, foregroundToken: p.foreground.token,
                  background: p.background.name, backgroundToken: p.background.token, role: p.role, reason: p.reason,
                  explanation: p.explanation,
                  typography: p.typography.map { t in "\(t.property) (\(t.font.size.map { "\($0)pt" } ?? "size unknown"), \(t.how))" },
                  location: p.foreground.location, drawnAt: p.drawnAt)
        }
    }

    public func render() -> String {
        var out = "default surface: \(surfaces.tokens.joined(separator: ", ")) (\(surfaces.explanation))\n"
        if !themes.isEmpty {
            out += "themes (set `themes:` in .a11yd.yml to select, rename or say how each is drawn):\n"
            for t in themes {
                out += "  \(t.name)\(t.name == t.codeName ? "" : " (\(t.codeName))")\(t.isDefault ? ", default" : ""): "
                    + "\(t.appearance.map { "drawn \($0.rawValue)" } ?? "follows the system appearance") (\(t.inference)); from \(t.source)\n"
            }
        }
        var current: String??
        for p in pairs {
            if current != .some(p.component) {
                out += "\n" + (p.component ?? "Tokens") + "\n"
                current = .some(p.component)
            }
            let fg = p.foregroundToken.map { p.foreground == $0 ? $0 : "\(p.foreground) (\($0))" } ?? p.foreground
            let bg = p.backgroundToken.map { p.background == $0 ? $0 : "\(p.background) (\($0))" } ?? p.background
            out += "  \(fg) on \(bg) [\(p.role.rawValue), \(p.reason.rawValue)]\n      \(p.explanation)"
                + (p.typography.map { "; typography \($0)" } ?? "") + "\n"
        }
        out += "\n\(pairs.count) pairings\n"
        return out
    }
}
