import SwiftUI

struct KitStatusPill: View {
    let text: String
    let color: Color

    var body: some View {
        Text(text)
            .foregroundStyle(Color.kitSurface) // drawn: pill text
            .background(color, in: Capsule())
    }
}

struct KitScreen: View {
    var body: some View {
        VStack {
            // The pill's fill is known only here: the pill is measured with it.
            KitStatusPill(text: "Late", color: .kitAlert)
        }
    }
}
