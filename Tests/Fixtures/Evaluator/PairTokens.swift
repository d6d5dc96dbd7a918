import SwiftUI
import UIKit

// A struct holding a light and a dark color; the usable color is computed from the trait collection.
struct ColorPair {
    let lightColor: UIColor
    let darkColor: UIColor

    init(lightColor: UIColor, darkColor: UIColor) {
        self.lightColor = lightColor
        self.darkColor = darkColor
    }

    var color: UIColor {
        UIColor { traits in
            switch traits.userInterfaceStyle {
            case .dark:
                return self.darkColor
            case .light, .unspecified:
                return self.lightColor
            @unknown default:
                return self.lightColor
            }
        }
    }
}

extension UIColor {
    static let gray90 = UIColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)
}

enum PairTokens {
    static let surface = ColorPair(lightColor: .white, darkColor: .gray90)
    static let ink = ColorPair(lightColor: .gray90, darkColor: .white)
}
