import SwiftUI
import UIKit

// A browser's palettes as types conforming to one protocol, chosen by an enum; the palettes adapt to the system
// appearance themselves.

protocol PaletteDefinition {
    static var background: UIColor { get }
    static var text: UIColor { get }
    static var secondaryText: UIColor { get }
    static var buttonBackground: UIColor { get }
    static var buttonText: UIColor { get }
}

func adaptive(_ light: UInt32, _ dark: UInt32, alpha: CGFloat = 1) -> UIColor {
    UIColor { traits in
        let hex = traits.userInterfaceStyle == .dark ? dark : light
        return UIColor(red: CGFloat((hex >> 16) & 0xFF) / 255, green: CGFloat((hex >> 8) & 0xFF) / 255,
                       blue: CGFloat(hex & 0xFF) / 255, alpha: alpha)
    }
}

struct DefaultPalette: PaletteDefinition {
    static let background = adaptive(0xFFFFFF, 0x1C1C1E)
    static let text = adaptive(0x000000, 0xFFFFFF)
    static let secondaryText = adaptive(0x6C6C70, 0x98989F)
    static let buttonBackground = adaptive(0x3969EF, 0x7295F6, alpha: 0.12)
    static let buttonText = adaptive(0x3969EF, 0x7295F6)
}

struct ExperimentalPalette: PaletteDefinition {
    static let background = adaptive(0xFAF8F5, 0x222020)
    static let text = adaptive(0x1F1F1F, 0xF2F2F2)
    static let secondaryText = adaptive(0xA39E99, 0x7A7573)
    static let buttonBackground = adaptive(0xDE5833, 0xF07A5A, alpha: 0.18)
    static let buttonText = adaptive(0xDE5833, 0xF07A5A)
}

struct GrayscalePalette: PaletteDefinition {
    static let background = adaptive(0xF2F2F2, 0x111111)
    static let text = adaptive(0x111111, 0xEEEEEE)
    static let secondaryText = adaptive(0x555555, 0xAAAAAA)
    static let buttonBackground = adaptive(0x000000, 0xFFFFFF, alpha: 0.1)
    static let buttonText = adaptive(0x222222, 0xDDDDDD)
}

enum PaletteChoice {
    case standard, experimental, grayscale

    var palette: PaletteDefinition.Type {
        switch self {
        case .standard: return DefaultPalette.self
        case .experimental: return ExperimentalPalette.self
        case .grayscale: return GrayscalePalette.self
        }
    }
}
