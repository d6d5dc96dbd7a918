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
            Text("Plain") // drawn: notice plain
            Circle()
                .fill(Color.kitAlert) // drawn: notice dot
                .frame(width: 8, height: 8)
        }
        .background(Color.kitSurfaceBrand)
    }
}

struct KitCheckbox: View {
    let isOn: Bool
    let isMixed: Bool

    private var isFilled: Bool { isOn || isMixed }

    var body: some View {
        ZStack {
            // The same condition picks the border and the fill: filled, the border is drawn on its own color.
            RoundedRectangle(cornerRadius: 4)
                .strokeBorder(isFilled ? Color.kitBrand : Color.kitBorder, lineWidth: 2) // drawn: checkbox border
                .background(RoundedRectangle(cornerRadius: 4).fill(isFilled ? Color.kitBrand : Color.clear))
                .frame(width: 20, height: 20)
            // Drawn only when on, so only on the filled box: never on the page.
            if isOn {
                Image(systemName: "checkmark")
                    .foregroundStyle(Color.kitSurface) // drawn: checkmark
            }
            // Mixed also means filled (`isOn || isMixed` is true whatever isOn is).
            if isMixed {
                Rectangle()
                    .fill(Color.kitSurface) // drawn: mixed dash
                    .frame(width: 10, height: 2)
            }
        }
    }
}

struct KitLink: View {
    let isEnabled: Bool

    var body: some View {
        Text("Open")
            .foregroundStyle(isEnabled ? Color.kitBrand : Color.kitBorder) // drawn: link
            .background(Color.kitSurface)
    }
}
