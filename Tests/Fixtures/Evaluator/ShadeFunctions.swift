import SwiftUI

extension Color {
    static func shade(_ percent: Double) -> Color { .black.opacity(percent) }
    static let x2F2F2F = Color(red: 47 / 255, green: 47 / 255, blue: 47 / 255)
    static var xFAFAFA: Color { Color(white: 250 / 255) }
}

enum ShadeTokens {
    static let divider: Color = .shade(0.06)
    static let text: Color = .x2F2F2F
    static let page: Color = .xFAFAFA
}
