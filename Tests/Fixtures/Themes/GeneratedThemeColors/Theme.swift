import UIKit

final class Theme {
    typealias ThemeType = SettingsModule.ThemeType

    static let sharedTheme = Theme()

    /// Restored at launch; the instance cannot be built without the app's settings.
    var activeTheme: ThemeType

    init() {
        activeTheme = ThemeType(rawValue: Int32(UserDefaults.standard.integer(forKey: "theme"))) ?? .light
    }
}

extension UIColor {
    convenience init(hex: String) {
        let digits = Int(hex.dropFirst(), radix: 16) ?? 0
        self.init(red: CGFloat((digits >> 16) & 0xFF) / 255, green: CGFloat((digits >> 8) & 0xFF) / 255,
                  blue: CGFloat(digits & 0xFF) / 255, alpha: 1)
    }
}
