import SwiftUI

struct KitBadge: View {
    let count: Int

    var body: some View {
        ZStack {
            Capsule().fill(Color.kitWarning) // drawn: badge fill
            Text("\(count)")
                .font(.system(size: 24, weight: .bold))
                .foregroundStyle(Color.kitInk) // drawn: badge count
        }
    }
}
