/// The readers' intermediate form of a token's definition: what the source says, not yet evaluated.
/// Readers translate syntax into this; `TokenGraph` evaluates it across files, so a reference or a
/// project helper defined in another file resolves the same way.
public indirect enum TokenExpression: Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    /// An implicit member such as `.semibold`, `.body`, `.dark` used as an enum-like argument.
    case enumCase(String)
    /// A color already known to the reader (a named system color, a literal).
    case color(ColorValue)
    /// `Color(hex: e)`: `e` evaluates to a hex string.
    case hexColor(TokenExpression, at: SourceLocation)
    /// `Color(red:green:blue:opacity:)`; components evaluate to numbers in 0...1.
    case rgb(red: TokenExpression, green: TokenExpression, blue: TokenExpression, opacity: TokenExpression?)
    /// `Color(white:opacity:)`.
    case white(TokenExpression, opacity: TokenExpression?)
    /// A value chosen per appearance (`adaptive(light:dark:)`, `UIColor { traits in ... }`, asset catalogs).
    /// Missing appearances fall back as iOS does (see `Appearance.fallback`).
    case adaptive([Appearance: TokenExpression])
    /// `color.opacity(x)`.
    case opacity(TokenExpression, TokenExpression)
    /// A name that refers to another token (`Color.appTextPrimary`, `.space4`, `appSurfaceBasePrimary`).
    case reference(TokenReference)
    /// A parameter of a project helper, substituted when the helper is called.
    case parameter(String)
    /// A call to a project helper (`adaptive(light:dark:)`, `appInter(size:face:)`), evaluated by substituting arguments into its body.
    case call(TokenReference, arguments: [CallArgument])
    /// A font construction (`Font.system(size:weight:)`, `.custom(_:size:relativeTo:)`, `Font.body`).
    case font(FontExpression)
    /// A font modifier: `.relativeTo(.body)`, `.weight(.bold)`, `.bold()`.
    case fontModifier(TokenExpression, name: String, argument: TokenExpression?)
    /// Arithmetic on numbers (`space2 * 2`).
    case arithmetic(TokenExpression, operator: String, TokenExpression)
    /// Something the reader could not translate; evaluating it produces a finding with this reason.
    case unevaluable(reason: String, at: SourceLocation)
}

public struct CallArgument: Hashable, Sendable {
    public var label: String?
    public var value: TokenExpression
    public init(label: String?, value: TokenExpression) {
        self.label = label
        self.value = value
    }
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

    public var text: String { (isImplicitMember ? "." : "") + path.joined(separator: ".") }
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
