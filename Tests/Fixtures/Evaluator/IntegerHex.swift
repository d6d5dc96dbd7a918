import SwiftUI
import UIKit

extension UIColor {
    /// `UIColor(0x3366CC, alpha: 0.1)`
    convenience init(_ hex: Int, alpha: CGFloat = 1) {
        let red = CGFloat((hex >> 16) & 0xFF) / 255
        let green = CGFloat((hex >> 8) & 0xFF) / 255
        let blue = CGFloat(hex & 0xFF) / 255
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }
}

extension Color {
    init(_ hex: UInt32) {
        self.init(
            .sRGB,
            red: Double((hex & 0xFF0000) >> 16) / 255.0,
            green: Double((hex & 0x00FF00) >> 8) / 255.0,
            blue: Double(hex & 0x0000FF) / 255.0,
            opacity: 1
        )
    }
}

enum HexTokens {
    static let canvas = Color(0xF5F5F5)
    static let linkTint = UIColor(0x3366CC, alpha: 0.1)
    static let link = UIColor(0x3366CC)
}
