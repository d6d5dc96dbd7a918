import UIKit

// A podcast player's themes as an enum, with a token function per color that switches over it.

final class Theme {
    /// Nested in the class that holds the user's choice.
    enum ThemeType: Int, CaseIterable {
        case light, dark, extraDark, rosé, contrastLight, contrastDark
    }

    static let shared = Theme()
    /// Restored from the settings at launch.
    var activeTheme: ThemeType = .light
}

extension UIColor {
    convenience init(hex: UInt32, alpha: CGFloat = 1) {
        self.init(red: CGFloat((hex >> 16) & 0xFF) / 255, green: CGFloat((hex >> 8) & 0xFF) / 255,
                  blue: CGFloat(hex & 0xFF) / 255, alpha: alpha)
    }
}

enum AppColors {
    static func primaryBackground(for theme: Theme.ThemeType? = nil) -> UIColor {
        switch theme ?? Theme.shared.activeTheme {
        case .light, .contrastLight: return UIColor(hex: 0xFFFFFF)
        case .dark: return UIColor(hex: 0x292B2E)
        case .extraDark, .contrastDark: return UIColor(hex: 0x000000)
        case .rosé: return UIColor(hex: 0xFCEFF0)
        }
    }

    static func primaryText(for theme: Theme.ThemeType? = nil) -> UIColor {
        switch theme ?? Theme.shared.activeTheme {
        case .rosé: return UIColor(hex: 0x5D2E35)
        case .dark, .extraDark: return UIColor(hex: 0xFFFFFF)
        case .contrastDark: return UIColor(hex: 0xFFFFFF)
        default: return UIColor(hex: 0x292B2E)
        }
    }

    static func secondaryText(for theme: Theme.ThemeType? = nil) -> UIColor {
        let current = theme ?? Theme.shared.activeTheme
        if current == .rosé { return UIColor(hex: 0xC98F95) }
        switch current {
        case .light: return UIColor(hex: 0x8F97A4)
        case .contrastLight: return UIColor(hex: 0x3D3F42)
        case .contrastDark: return UIColor(hex: 0xE0E0E0)
        default: return UIColor(hex: 0x8F97A4)
        }
    }

    /// Cards are a translucent wash over the page.
    static func surfaceCard(for theme: Theme.ThemeType? = nil) -> UIColor {
        switch theme ?? Theme.shared.activeTheme {
        case .light, .rosé, .contrastLight: return UIColor(hex: 0x000000, alpha: 0.04)
        default: return UIColor(hex: 0xFFFFFF, alpha: 0.08)
        }
    }

    static func onCardText(for theme: Theme.ThemeType? = nil) -> UIColor {
        switch theme ?? Theme.shared.activeTheme {
        case .light, .contrastLight: return UIColor(hex: 0x6B7079)
        case .rosé: return UIColor(hex: 0xB5747B)
        default: return UIColor(hex: 0xB8C3C9)
        }
    }
}
