import SwiftUI

typealias RGBA = (red: Double, green: Double, blue: Double, opacity: Double)

enum TupleTokens {
    /// Light and dark components as labelled tuples.
    static func adaptive(lightRGB: RGBA, darkRGB: RGBA) -> Color {
        Color(UIColor { traits in
            let c = traits.userInterfaceStyle == .dark ? darkRGB : lightRGB
            return UIColor(red: c.red, green: c.green, blue: c.blue, alpha: c.opacity)
        })
    }

    static let text = adaptive(lightRGB: (red: 0.1, green: 0.2, blue: 0.3, opacity: 1),
                               darkRGB: (red: 0.9, green: 0.9, blue: 0.9, opacity: 1))
    static let veil = adaptive(lightRGB: (0, 0, 0, 0.5), darkRGB: (1, 1, 1, 0.25))
}
