import UIKit

// Generated: one constant per token and theme, one function per token switching over the theme.
struct ThemeColor {
    private static let primaryUi01Light = UIColor(hex: "#FFFFFF")
    private static let primaryUi01Dark = UIColor(hex: "#292B2E")
    private static let primaryUi01Electric = UIColor(hex: "#19232B")
    private static let primaryText02Light = UIColor(hex: "#8F97A4")
    private static let primaryText02Dark = UIColor(hex: "#8F97A4")
    private static let primaryText02Electric = UIColor(hex: "#5D6A75")

    static func primaryUi01(for theme: Theme.ThemeType? = nil) -> UIColor {
        let theme = theme ?? Theme.sharedTheme.activeTheme
        switch theme {
        case .light:
            return ThemeColor.primaryUi01Light
        case .dark:
            return ThemeColor.primaryUi01Dark
        case .electric:
            return ThemeColor.primaryUi01Electric
        }
    }

    static func primaryText02(for theme: Theme.ThemeType? = nil) -> UIColor {
        let theme = theme ?? Theme.sharedTheme.activeTheme
        switch theme {
        case .light:
            return ThemeColor.primaryText02Light
        case .dark:
            return ThemeColor.primaryText02Dark
        case .electric:
            return ThemeColor.primaryText02Electric
        }
    }
}

enum AppColors {
    /// Reads the current theme from the shared instance.
    static func destructiveText() -> UIColor {
        Theme.sharedTheme.activeTheme == .light ? UIColor(hex: "#F43E37") : UIColor(hex: "#FF6B63")
    }
}

/// Every color again, by a style enum: `AppColors.color(for: .primaryText02)` is `ThemeColor.primaryText02`.
enum ThemeStyle {
    case primaryUi01, primaryText02
}

extension AppColors {
    static func color(for style: ThemeStyle) -> UIColor {
        switch style {
        case .primaryUi01: return ThemeColor.primaryUi01()
        case .primaryText02: return ThemeColor.primaryText02()
        }
    }
}
