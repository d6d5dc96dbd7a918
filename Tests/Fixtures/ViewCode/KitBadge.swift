import SwiftUI

struct KitBadge: View {
    let count: Int

    var body: some View {
        ZStack {
            Capsule().fill(Color.kitWarning) // the count's background, not a graphic of its own
            Text("\(count)")
                .font(.system(size: 24, weight: .bold))
                .foregroundStyle(Color.kitInk) // drawn: badge count
        }
    }
}
