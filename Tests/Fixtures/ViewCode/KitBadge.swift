import SwiftUI

struct KitBadge: View {
    let count: Int
    let subtle: Bool

    // The flag is read inside a helper, where the walk cannot branch: the evaluator is asked both ways.
    private var fill: Color { Self.fill(subtle: subtle) }

    static func fill(subtle: Bool) -> Color {
        if subtle { return .kitSurface }
        return .kitWarning
    }

    var body: some View {
        ZStack {
            Capsule().fill(fill) // the count's background, not a graphic of its own
            Text("\(count)")
                .font(.system(size: 24, weight: .bold))
                .foregroundStyle(Color.kitInk) // drawn: badge count
        }
    }
}
