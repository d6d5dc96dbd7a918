import SwiftUI

struct KitToast: View {
    let message: String
    let showsIcon: Bool

    var body: some View {
        HStack {
            if showsIcon {
                Image(systemName: "exclamationmark.triangle")
                    .foregroundStyle(Color.kitWarning) // drawn: toast icon
            }
            Text(message)
                .foregroundColor(.kitTextOnBrand) // drawn: toast message
        }
        .padding()
        .background(Color.kitInk, in: RoundedRectangle(cornerRadius: 8))
        .overlay(
            RoundedRectangle(cornerRadius: 8)
                .strokeBorder(Color.kitBorder) // drawn: toast border
        )
    }
}
