/// The data readers' form of a token (asset catalogs, design-token JSON): literal colors, values per appearance,
/// aliases, opacity, arithmetic, typography. The token graph lowers it into the Swift IR (`lowered(scope:at:)`), so
/// one interpreter evaluates every token whatever file it came from.
public indirect enum TokenExpression: Hashable, Sendable {
    case string(String)
    case number(Double)
    /// A named option such as a font weight (`.semibold`).
    case enumCase(String)
    case color(ColorValue)
    /// A value chosen per appearance (asset catalog appearances, per-mode token files).
    /// Missing appearances fall back as iOS does (see `Appearance.fallback`).
    case adaptive([Appearance: TokenExpression])
    /// `color` with its alpha multiplied (`$extensions` alpha, `rgba({alias}, 0.5)`).
    case opacity(TokenExpression, TokenExpression)
    /// An alias of another token (`{color.brand.primary}`, a colorset's `"reference"`).
    case reference(TokenReference)
    /// A typography composite.
    case font(FontExpression)
    /// Arithmetic on numbers (`{space.2} * 2`).
    case arithmetic(TokenExpression, operator: String, TokenExpression)
    /// Something the reader could not read; evaluating it produces a finding with this reason.
    case unevaluable(reason: String, at: SourceLocation)
}

/// What kind of value a declaration or an implicit member (`.space4`) is expected to have; it decides
/// which namespace an implicit member is looked up in.
public enum TokenKind: String, Hashable, Sendable, Codable {
    case color, number, font, string, other
}

public struct TokenReference: Hashable, Sendable {
    /// The name as written, split at dots: `["Color", "appTextPrimary"]`, `["appTextPrimary"]`.
    public var path: [String]
    /// True for an implicit member (`.appTextPrimary`): it is looked up in the namespace of `expectedKind`.
    public var isImplicitMember: Bool
    public var expectedKind: TokenKind?
    /// Enclosing type names at the reference site, outermost first; lookup walks outward as Swift does.
    public var scope: [String]
    public var location: SourceLocation

    public init(path: [String], isImplicitMember: Bool = false, expectedKind: TokenKind? = nil, scope: [String], location: SourceLocation) {
        self.path = path
        self.isImplicitMember = isImplicitMember
        self.expectedKind = expectedKind
        self.scope = scope
        self.location = location
    }

    public var text: String { (isImplicitMember ? "." : "") + path.joinedWithDots() }
}

public struct FontExpression: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// `Font.system(size:weight:)`, `UIFont.systemFont(ofSize:)`.
        case system
        /// `Font.custom(_:size:)`, `Font.custom(_:size:relativeTo:)`, `Font.custom(_:fixedSize:)`.
        case custom
        /// A text style: `Font.body`, `.system(.body)`, `UIFont.preferredFont(forTextStyle:)`.
        case textStyle
        /// `UIFontMetrics(forTextStyle:).scaledFont(for:)`: the wrapped font scales.
        case metricsScaled
    }

    public var kind: Kind
    public var size: TokenExpression?
    public var weight: TokenExpression?
    public var face: TokenExpression?
    /// The text style the font scales with (`relativeTo:`, a text style name); nil for fixed fonts.
    public var relativeTo: TokenExpression?
    /// `Font.custom(_:fixedSize:)`: explicitly does not scale.
    public var isFixedSize: Bool
    /// The wrapped font for `.metricsScaled`.
    public var base: TokenExpression?
    public var location: SourceLocation

    public init(kind: Kind, size: TokenExpression? = nil, weight: TokenExpression? = nil, face: TokenExpression? = nil,
                relativeTo: TokenExpression? = nil, isFixedSize: Bool = false, base: TokenExpression? = nil,
                location: SourceLocation) {
        self.kind = kind
        self.size = size
        self.weight = weight
        self.face = face
        self.relativeTo = relativeTo
        self.isFixedSize = isFixedSize
        self.base = base
        self.location = location
    }
}

extension TokenExpression {
    /// The same expression in the Swift IR.
    public func lowered(at location: SourceLocation) -> Expr {
        func e(_ kind: Expr.Kind, _ at: SourceLocation = location) -> Expr { Expr(kind, at: at) }
        switch self {
        case .string(let s): return e(.string(s))
        case .number(let n): return e(.number(n))
        case .enumCase(let name): return e(.implicitMember(name))
        case .color(let c): return e(.constant(.color(AppearanceColor(constant: c))))
        case .adaptive(let branches): return e(.perAppearance(branches.mapValues { $0.lowered(at: location) }))
        case .opacity(let base, let amount):
            return e(.call(e(.member(base.lowered(at: location), "opacity")), [CallArgument(label: nil, value: amount.lowered(at: location))]))
        case .reference(let reference):
            guard let first = reference.path.first else { return e(.unsupported("an empty reference")) }
            var expr = e(reference.isImplicitMember ? .implicitMember(first) : .name(first), reference.location)
            for part in reference.path.dropFirst() { expr = e(.member(expr, part), reference.location) }
            return expr
        case .font(let font):
            // DTCG typography names no text style to scale with: on iOS it is a fixed-size custom font.
            var arguments: [CallArgument] = []
            if let face = font.face { arguments.append(CallArgument(label: nil, value: face.lowered(at: location))) }
            else { arguments.append(CallArgument(label: nil, value: e(.string("")))) }
            arguments.append(CallArgument(label: "fixedSize", value: (font.size ?? .number(17)).lowered(at: location)))
            var expr = e(.call(e(.member(e(.name("Font")), "custom")), arguments), font.location)
            if let weight = font.weight {
                expr = e(.call(e(.member(expr, "weight")), [CallArgument(label: nil, value: weight.lowered(at: location))]), font.location)
            }
            return expr
        case .arithmetic(let lhs, let op, let rhs):
            return e(.binary(op, lhs.lowered(at: location), rhs.lowered(at: location)))
        case .unevaluable(let reason, let at):
            return e(.unsupported(reason), at)
        }
    }
}
