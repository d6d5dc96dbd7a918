import SwiftUI

struct KitChipStyle: ButtonStyle {
    func makeBody(configuration: Configuration) -> some View {
        configuration.label
            .font(.system(size: 13))
            .foregroundStyle(configuration.isPressed ? Color.kitMuted : Color.kitInk) // drawn: chip label
            .padding(8)
            .background(Color.kitSurface)
    }
}

struct KitCardModifier: ViewModifier {
    func body(content: Content) -> some View {
        content
            .foregroundStyle(Color.kitAlert) // drawn: card content
            .background(Color.kitSurface)
            .border(Color.clear)
    }
}

struct KitNotice: View {
    var body: some View {
        VStack {
            Text("Unavailable")
                .foregroundStyle(Color.kitMuted) // drawn: notice disabled
                .disabled(true)
            Text("Faded")
                .foregroundStyle(Color.kitInk) // drawn: notice faded
                .opacity(0.5)
        }
        .background(Color.kitSurfaceBrand)
    }
}
