/// The four appearances iOS resolves dynamic colors for.
public enum Appearance: String, CaseIterable, Hashable, Sendable, Codable, Comparable {
    case light, dark, lightHighContrast, darkHighContrast

    /// Where iOS looks when a value is not given for this appearance:
    /// high contrast falls back to its base mode, dark falls back to any/light.
    public var fallback: Appearance? {
        switch self {
        case .light: return nil
        case .dark: return .light
        case .lightHighContrast: return .light
        case .darkHighContrast: return .dark
        }
    }

    public var isHighContrast: Bool { self == .lightHighContrast || self == .darkHighContrast }
    public var isDark: Bool { self == .dark || self == .darkHighContrast }

    public static func < (a: Appearance, b: Appearance) -> Bool { a.order < b.order }

    /// The position in `allCases` (sorting compares appearances often).
    public var order: Int {
        switch self {
        case .light: return 0
        case .dark: return 1
        case .lightHighContrast: return 2
        case .darkHighContrast: return 3
        }
    }
}
