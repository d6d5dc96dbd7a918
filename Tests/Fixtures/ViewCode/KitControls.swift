import SwiftUI

struct KitIconButton: View {
    let action: () -> Void

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
            Text("Fixed")
                .font(.system(size: 10)) // font: fixed
            Text("Scales")
                .font(.custom("Inter", size: 15)) // font: scales
            Text("Title")
                .font(.title)
                .lineLimit(1)
                .frame(height: 24) // clip: title
        }
    }
}
