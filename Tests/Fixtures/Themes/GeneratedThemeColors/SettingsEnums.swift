// The theme enum as another module declares it (the app reaches it through a module-qualified typealias).
public enum ThemeType: Int32, CaseIterable {
    case light = 0
    case dark = 1
    case electric = 7
}
