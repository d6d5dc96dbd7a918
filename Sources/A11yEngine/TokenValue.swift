/// A set of appearances, as bits: cheap to copy, hash and compare (audits evaluate colors thousands of times).
public struct AppearanceSet: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ appearance: Appearance) { rawValue = 1 << UInt8(appearance.order) }

    public static let light = AppearanceSet(.light)
    public static let dark = AppearanceSet(.dark)
    public static let lightHighContrast = AppearanceSet(.lightHighContrast)
    public static let darkHighContrast = AppearanceSet(.darkHighContrast)
    public static let all: AppearanceSet = [.light, .dark, .lightHighContrast, .darkHighContrast]

    public func contains(_ appearance: Appearance) -> Bool { contains(AppearanceSet(appearance)) }
    public mutating func insert(_ appearance: Appearance) { insert(AppearanceSet(appearance)) }
}

/// A color as it resolves in each appearance, with a record of which appearances were given explicitly.
public struct AppearanceColor: Hashable, Sendable {
    public var light: ColorValue
    public var dark: ColorValue
    public var lightHighContrast: ColorValue
    public var darkHighContrast: ColorValue
    /// Appearances the source defines explicitly; the others are fallbacks (shown as such in output).
    public var explicit: AppearanceSet

    public init(values: [Appearance: ColorValue], explicit: AppearanceSet) {
        light = values[.light] ?? .clear
        dark = values[.dark] ?? light
        lightHighContrast = values[.lightHighContrast] ?? light
        darkHighContrast = values[.darkHighContrast] ?? dark
        self.explicit = explicit
    }

    /// One color for all appearances, as a plain literal is: only "any" (light) is given.
    public init(constant color: ColorValue) {
        light = color
        dark = color
        lightHighContrast = color
        darkHighContrast = color
        explicit = .light
    }

    public subscript(appearance: Appearance) -> ColorValue {
        get {
            switch appearance {
            case .light: return light
            case .dark: return dark
            case .lightHighContrast: return lightHighContrast
            case .darkHighContrast: return darkHighContrast
            }
        }
        set {
            switch appearance {
            case .light: light = newValue
            case .dark: dark = newValue
            case .lightHighContrast: lightHighContrast = newValue
            case .darkHighContrast: darkHighContrast = newValue
            }
        }
    }

    /// Light and dark folded into one word, hashed once (`==` compares every appearance and `explicit`; colors that
    /// differ only there are rare, and still unequal).
    public func hash(into hasher: inout Hasher) { hasher.combine(light.folded &* 0x9E37_79B9_7F4A_7C15 ^ dark.folded) }

    /// True when every appearance has the same color (a constant: it cannot define a high-contrast variant).
    public var isConstant: Bool { light == dark && light == lightHighContrast && light == darkHighContrast }
    /// Fully transparent in every appearance (`Color.clear`): draws nothing.
    var isClear: Bool { Appearance.allCases.allSatisfy { self[$0].alpha == 0 } }

    /// The appearance whose given value is used for `appearance` (itself when explicit).
    public func source(for appearance: Appearance) -> Appearance {
        var current = appearance
        while !explicit.contains(current), let next = current.fallback { current = next }
        return current
    }

    public func map(_ transform: (ColorValue) -> ColorValue) -> AppearanceColor {
        var result = self
        for a in Appearance.allCases { result[a] = transform(self[a]) }
        return result
    }
}

/// A font as a token defines it, reduced to what the rules need.
public struct FontValue: Hashable, Sendable {
    /// Point size at the default (Large) Dynamic Type setting; nil when unknown.
    public var size: Double?
    /// `regular`, `semibold`, `bold`, ...; nil for the default (regular).
    public var weight: String?
    public var face: String?
    /// The text style the font scales with; nil when it does not scale.
    public var textStyle: String?
    public var scales: Bool
    public var location: SourceLocation?

    public init(size: Double?, weight: String?, face: String?, textStyle: String?, scales: Bool, location: SourceLocation?) {
        self.size = size
        self.weight = weight
        self.face = face
        self.textStyle = textStyle
        self.scales = scales
        self.location = location
    }

    /// CSS-style numeric weight (regular 400, bold 700), so WCAG's "bold" (700 and above) can be decided.
    public var numericWeight: Int {
        if let weight, let value = Self.weightsByName[weight.lowercased()] { return value }
        // Custom faces carry the weight in the face name ("Inter-SemiBold").
        if let face = face?.lowercased() {
            for (name, value) in Self.weightsLongestFirst where face.hasSuffix(name) { return value }
        }
        return 400
    }

    /// Made once (made at each call, the table was ~4,500 instructions of every pair with a font measured).
    private static let weightsByName: [String: Int] = [
        "ultralight": 100, "thin": 200, "light": 300, "regular": 400, "medium": 500,
        "semibold": 600, "bold": 700, "heavy": 800, "black": 900,
    ]
    /// Longest first, so that a face's suffix is its whole weight name (`semibold`, not `bold`); names of one length
    /// cannot both end one face.
    private static let weightsLongestFirst = weightsByName.sorted { $0.key.count > $1.key.count }
}

public enum TokenValue: Hashable, Sendable {
    case color(AppearanceColor)
    case number(Double)
    case string(String)
    case bool(Bool)
    case enumCase(String)
    case font(FontValue)

    public var kind: TokenKind {
        switch self {
        case .color: return .color
        case .number: return .number
        case .string: return .string
        case .font: return .font
        case .bool, .enumCase: return .other
        }
    }

    public var color: AppearanceColor? { if case .color(let c) = self { return c } else { return nil } }
    public var number: Double? { if case .number(let n) = self { return n } else { return nil } }
    public var font: FontValue? { if case .font(let f) = self { return f } else { return nil } }
}
