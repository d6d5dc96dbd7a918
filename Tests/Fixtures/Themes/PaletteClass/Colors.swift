import UIKit

// A reading app's palettes as a class with an explicit initialiser (not memberwise), optional and non-color
// properties, a transparent "widget" palette, computed properties, and a wrapper theme class holding a palette.

extension UIColor {
    convenience init(_ hex: Int, alpha: CGFloat) {
        self.init(red: CGFloat((hex & 0xFF0000) >> 16) / 255, green: CGFloat((hex & 0xFF00) >> 8) / 255,
                  blue: CGFloat(hex & 0xFF) / 255, alpha: alpha)
    }

    convenience init(_ hex: Int) {
        self.init(hex, alpha: 1)
    }

    fileprivate static let ink = UIColor(0x222222)
    fileprivate static let slate = UIColor(0x72777D)
    fileprivate static let snow = UIColor(0xFFFFFF)
    fileprivate static let cream = UIColor(0xF8F1E3)
    fileprivate static let umber = UIColor(0x646059)
    fileprivate static let night = UIColor(0x2E3136)
    fileprivate static let fog = UIColor(0xC8CCD1)
}

final class ThemeColors {
    static let light = ThemeColors(paperBackground: .snow, primaryText: .ink, secondaryText: .slate, icon: nil, blurStyle: .extraLight)
    static let sepia = ThemeColors(paperBackground: .cream, primaryText: .ink, secondaryText: .umber, icon: .umber, blurStyle: .extraLight)
    static let dark = ThemeColors(paperBackground: .night, primaryText: .snow, secondaryText: .fog, icon: .fog, blurStyle: .dark)
    static let widget = ThemeColors(paperBackground: .clear, primaryText: .ink, secondaryText: .ink, icon: nil, blurStyle: .extraLight)

    let paperBackground: UIColor
    let primaryText: UIColor
    let secondaryText: UIColor
    let icon: UIColor?
    let blurStyle: UIBlurEffect.Style

    /// The refresh spinner uses the secondary text color.
    var refreshControlTint: UIColor { secondaryText }

    init(paperBackground: UIColor, primaryText: UIColor, secondaryText: UIColor, icon: UIColor?, blurStyle: UIBlurEffect.Style) {
        self.paperBackground = paperBackground
        self.primaryText = primaryText
        self.secondaryText = secondaryText
        self.icon = icon
        self.blurStyle = blurStyle
    }
}

/// What the app passes around: a palette plus settings. Its instances are the same themes again, not more tokens.
final class AppTheme {
    static let light = AppTheme(colors: .light, isDark: false, name: "light")
    static let dark = AppTheme(colors: .dark, isDark: true, name: "dark")
    static let standard = AppTheme.light

    let colors: ThemeColors
    let isDark: Bool
    let name: String

    init(colors: ThemeColors, isDark: Bool, name: String) {
        self.colors = colors
        self.isDark = isDark
        self.name = name
    }
}
