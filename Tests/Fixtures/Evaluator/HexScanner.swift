import SwiftUI
import UIKit

extension UIColor {
    /// Parses "#RRGGBB" and "#RRGGBBAA" imperatively; a11yd reads it by its signature.
    convenience init(hexString: String, alpha: CGFloat = 1) {
        var text = hexString.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("#") { text.removeFirst() }
        var value: UInt64 = 0
        Scanner(string: text).scanHexInt64(&value)
        let r, g, b, a: CGFloat
        switch text.count {
        case 8:
            r = CGFloat((value >> 24) & 0xFF) / 255
            g = CGFloat((value >> 16) & 0xFF) / 255
            b = CGFloat((value >> 8) & 0xFF) / 255
            a = CGFloat(value & 0xFF) / 255
        default:
            r = CGFloat((value >> 16) & 0xFF) / 255
            g = CGFloat((value >> 8) & 0xFF) / 255
            b = CGFloat(value & 0xFF) / 255
            a = alpha
        }
        self.init(red: r, green: g, blue: b, alpha: a)
    }
}

enum ScannedTokens {
    static let brand = UIColor(hexString: "#FF6600")
    static let brandHalf = UIColor(hexString: "#FF6600", alpha: 0.5)
    static let broken = UIColor(hexString: "#FF66G0")
}
