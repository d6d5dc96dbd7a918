import SwiftUI

struct KitAvatar: View {
    @Environment(\.colorScheme) private var colorScheme
    let tint: Color

    var body: some View {
        ZStack {
            Circle().fill(tint)
            // On a color the caller gives: unknown here, so not measured (and not guessed).
            Image(systemName: "person").foregroundStyle(Color.kitSurface)
        }
        // In the caller's color: unknown, and not the default `.primary` either.
        Text("Role")
            .foregroundStyle(tint)
            .background(Color.kitMuted)
        Text("Name")
            .foregroundStyle(colorScheme == .dark ? Color.kitSurface : Color.kitInk) // drawn: avatar name
            .background(Color.kitMuted)
    }
}
