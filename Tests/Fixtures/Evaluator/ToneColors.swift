import SwiftUI

struct ToneColors {
    var fill: Color
    var text: Color
    var border: Color = .clear
}

enum Tones {
    static let primary = ToneColors(fill: Color(hex: "#0044CC"), text: .white, border: Color(hex: "#002288"))
    static let warning = ToneColors(fill: Color(hex: "#FFCC00"), text: Color(hex: "#222222"))
}
