import SwiftUI

struct KitIconButton: View {
    let action: () -> Void
    let help: URL
    let route: String
    @State private var isMuted = false

    var body: some View {
        HStack {
            Button(action: action) {
                Image(systemName: "xmark")
                    .frame(width: 24, height: 24) // target: close
            }
            Button(action: action) {
                Image(systemName: "plus")
                    .frame(width: 24, height: 24) // target: padded
                    .padding(10)
            }
            Image(systemName: "info")
                .frame(width: 20, height: 20) // target: info
                .onTapGesture { action() }
            Button("More", action: action)
                .frame(minWidth: 44, minHeight: 44) // target: minimum
            Toggle(isOn: $isMuted) {
                Image(systemName: "speaker.slash")
            }
            .toggleStyle(.button)
            .frame(width: 28, height: 28) // target: mute
            Link(destination: help) {
                Image(systemName: "questionmark.circle")
            }
            .frame(width: 22, height: 22) // target: help
            Menu {
                Button("Rename", action: action)
            } label: {
                Image(systemName: "ellipsis")
                    .frame(width: 24, height: 24) // target: more
            }
            NavigationLink(value: route) {
                Image(systemName: "chevron.right")
            }
            .frame(width: 30, height: 30) // target: next
            // A content shape 12pt larger on every side makes the 20pt button 44pt to touch.
            Button(action: action) {
                Image(systemName: "star")
            }
            .frame(width: 20, height: 20) // target: grown
            .contentShape(Rectangle().inset(by: -12))
            Image(systemName: "gear")
                .frame(width: 20, height: 20) // target: padded tap
                .padding(12)
                .contentShape(Rectangle())
                .onTapGesture { action() }
            Text("Fixed")
                .font(.system(size: 10)) // font: fixed
            Text("Scales")
                .font(.custom("Inter", size: 15)) // font: scales
            Text("Scales with its style")
                .font(.custom("Inter", size: 15, relativeTo: .footnote)) // font: relative custom
            // Not a SwiftUI API but a common design-system extension (scaled with UIFontMetrics): read as scaling.
            Text("Relative")
                .font(.system(size: 15, relativeTo: .body)) // font: relative system
            Text("Fixed custom")
                .font(Font.custom("Inter", fixedSize: 13)) // font: fixed custom
            Text("Fixed system")
                .font(.system(size: 15)) // font: fixed system
            Text("Title")
                .font(.title)
                .lineLimit(1)
                .frame(height: 24) // clip: title
        }
    }
}
