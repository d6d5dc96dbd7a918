import SwiftUI

enum ThemeColor {
    case text
    case textMuted
    case surface
    case accent
}

enum Theme {
    static func color(for token: ThemeColor) -> Color {
        switch token {
        case .text:
            return Color(hex: "#1A1A1A")
        case .textMuted:
            return color(for: .text).opacity(0.6)
        case .surface:
            return .white
        default:
            return Color(hex: "#0055FF")
        }
    }
}

enum Spacing: CGFloat {
    case small = 4
    case medium = 8
    case large = 16

    var value: CGFloat { rawValue }
}

enum IconTone {
    case neutral, danger

    var color: Color {
        switch self {
        case .neutral: return Color(white: 0.4)
        case .danger: return Color(red: 0.8, green: 0, blue: 0)
        }
    }
}
