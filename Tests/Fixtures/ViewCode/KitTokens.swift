import SwiftUI
import UIKit

// Tokens of a small kit whose pairings live only in its views.
extension Color {
    static let kitSurface = Color(hex: "#FFFFFF")
    static let kitInk = Color(hex: "#222222")
    static let kitMuted = Color(hex: "#767676")
    static let kitBrand = Color(hex: "#0044CC")
    static let kitBrandPressed = Color(hex: "#002288")
    static let kitTextOnBrand = Color(hex: "#FAFAFA")
    static let kitSurfaceBrand = Color(hex: "#3377FF")
    static let kitWarning = Color(hex: "#FFCC00")
    static let kitBorder = Color(hex: "#999999")
    static let kitAlert = Color(UIColor { traits in
        traits.userInterfaceStyle == .dark ? UIColor(red: 1, green: 0.4, blue: 0.4, alpha: 1) : UIColor(red: 0.8, green: 0, blue: 0, alpha: 1)
    })
}
