import SwiftUI

enum KitButtonVariant {
    case primary
    case secondary
}

private struct KitButtonColors {
    let background: Color
    let backgroundPressed: Color
    let foreground: Color
}

private extension KitButtonVariant {
    var colors: KitButtonColors {
        switch self {
        case .primary:
            return KitButtonColors(background: .kitBrand, backgroundPressed: .kitBrandPressed, foreground: .kitTextOnBrand)
        case .secondary:
            return KitButtonColors(background: .kitSurface, backgroundPressed: .kitWarning, foreground: .kitInk)
        }
    }
}

struct KitButton: View {
    let title: String
    let variant: KitButtonVariant
    let isDisabled: Bool
    @State private var isPressed = false

    init(title: String, variant: KitButtonVariant = .primary, isDisabled: Bool = false) {
        self.title = title
        self.variant = variant
        self.isDisabled = isDisabled
    }

    var body: some View {
        let colors = variant.colors
        content(colors: colors)
            .opacity(isDisabled ? 0.5 : 1)
    }

    @ViewBuilder
    private func content(colors: KitButtonColors) -> some View {
        HStack {
            Image(systemName: "star")
                .foregroundStyle(colors.foreground)
            Text(title)
                .font(.system(size: 15))
                .foregroundStyle(colors.foreground) // drawn: button title
        }
        .padding()
        .background(isPressed ? colors.backgroundPressed : colors.background)
    }
}
