import SwiftUI

/// Buttons take their label color from the environment's tint: a borderless button (the default) draws its title in
/// it, a prominent one fills with it and draws its title in white, a plain one leaves the title in `.primary`.
struct KitActionRow: View {
    @State private var isEditing = false

    var body: some View {
        HStack {
            Button("Save") { isEditing.toggle() }
            Button("Skip") { } // drawn: skip title
                .buttonStyle(.plain)
            Button("Delete", role: .destructive) { }
                .buttonStyle(.borderedProminent) // drawn: delete title
                .tint(Color.kitAlert)
            Button {
                isEditing = false
            } label: {
                Label("Share", systemImage: "square.and.arrow.up")
            }
            .accentColor(Color.kitMuted) // drawn: share label
            // Its translucent tinted fill has an opacity the system chooses: not measured.
            Button("Archive") { }
                .buttonStyle(.bordered)
        }
        .tint(Color.kitBrand) // drawn: save title
        .background(Color.kitSurface)
    }
}

/// A screen whose navigation bar has a background of its own: the title and the toolbar's items are drawn on it.
struct KitInboxScreen: View {
    var body: some View {
        NavigationStack {
            ScrollView {
                Group {
                    Text("No messages")
                        .foregroundStyle(Color.kitMuted) // drawn: empty inbox
                }
            }
            .background(Color.kitSurface)
            .navigationTitle("Inbox") // drawn: inbox title
            .toolbar {
                ToolbarItem(placement: .topBarTrailing) {
                    Button("Compose") { }
                        .foregroundStyle(Color.kitTextOnBrand) // drawn: compose
                }
                // The bottom bar's background is the system's: not measured.
                ToolbarItem(placement: .bottomBar) {
                    Text("Updated just now")
                        .foregroundStyle(Color.kitInk)
                }
            }
            .toolbarBackground(Color.kitBrand, for: .navigationBar)
            .toolbarBackground(.visible, for: .navigationBar)
        }
    }
}

/// Rows are drawn on the list's row background, whatever is behind the list: the row's own `listRowBackground`, else
/// the system's for the list's style (inset grouped by default: secondarySystemGroupedBackground).
struct KitSettingsList: View {
    var body: some View {
        List {
            Section {
                Label("Notifications", systemImage: "bell")
                    .foregroundStyle(Color.kitSurface) // drawn: notifications row
                    .listRowBackground(Color.kitBrandPressed)
                Text("Version 2.1")
                    .foregroundStyle(Color.kitMuted) // drawn: version row
                // A link in a list is a plain row, not a tinted button; its destination is another screen, on the
                // default background.
                NavigationLink {
                    Text("MIT License")
                        .foregroundStyle(Color.kitMuted) // drawn: licenses screen
                } label: {
                    Text("Licenses")
                        .foregroundStyle(Color.kitInk) // drawn: licenses row
                }
                .listRowBackground(Color.kitWarning)
            } header: {
                // On the list's own background (here hidden, showing the view's): not measured.
                Text("General")
                    .foregroundStyle(Color.kitInk)
            }
        }
        .scrollContentBackground(.hidden)
        .background(Color.kitSurfaceBrand)
    }
}

/// A plain list: its rows are on systemBackground.
struct KitRecentList: View {
    let names: [String]

    var body: some View {
        List(names, id: \.self) { name in
            Text(name)
                .foregroundStyle(Color.kitMuted) // drawn: recent row
        }
        .listStyle(.plain)
    }
}

/// Shapes stroked in a color, or in the foreground style.
struct KitStatusRing: View {
    var body: some View {
        ZStack {
            Circle()
                .stroke(Color.kitBrand, lineWidth: 2) // drawn: status ring
            Capsule()
                .stroke(lineWidth: 1)
                .foregroundStyle(Color.kitBorder) // drawn: status outline
                .frame(width: 12, height: 6)
        }
        .frame(width: 24, height: 24)
        .background(Color.kitSurface, in: Circle())
    }
}
