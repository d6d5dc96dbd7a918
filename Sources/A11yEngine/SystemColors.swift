/// Colors and text styles that SwiftUI and UIKit provide, used when a name does not match a project token.
enum SystemColors {
    private static func pair(_ light: String, _ dark: String) -> AppearanceColor {
        let l = ColorValue(hex: light) ?? .clear, d = ColorValue(hex: dark) ?? .clear
        return AppearanceColor(
            values: [.light: l, .dark: d, .lightHighContrast: l, .darkHighContrast: d], explicit: [.light, .dark])
    }

    /// iOS default (not increased-contrast) values from Apple's HIG "Color" page (system colors) and
    /// UIKit's documented UI element colors. Alpha is part of the hex where UIKit's color is translucent.
    static let dynamic: [String: AppearanceColor] = [
        "systemRed": pair("#FF3B30", "#FF453A"),
        "systemOrange": pair("#FF9500", "#FF9F0A"),
        "systemYellow": pair("#FFCC00", "#FFD60A"),
        "systemGreen": pair("#34C759", "#30D158"),
        "systemMint": pair("#00C7BE", "#63E6E2"),
        "systemTeal": pair("#30B0C7", "#40CBE0"),
        "systemCyan": pair("#32ADE6", "#64D2FF"),
        "systemBlue": pair("#007AFF", "#0A84FF"),
        "systemIndigo": pair("#5856D6", "#5E5CE6"),
        "systemPurple": pair("#AF52DE", "#BF5AF2"),
        "systemPink": pair("#FF2D55", "#FF375F"),
        "systemBrown": pair("#A2845E", "#AC8E68"),
        "systemGray": pair("#8E8E93", "#8E8E93"),
        "systemGray2": pair("#AEAEB2", "#636366"),
        "systemGray3": pair("#C7C7CC", "#48484A"),
        "systemGray4": pair("#D1D1D6", "#3A3A3C"),
        "systemGray5": pair("#E5E5EA", "#2C2C2E"),
        "systemGray6": pair("#F2F2F7", "#1C1C1E"),
        "label": pair("#000000", "#FFFFFF"),
        "secondaryLabel": pair("#3C3C4399", "#EBEBF599"),
        "tertiaryLabel": pair("#3C3C434D", "#EBEBF54D"),
        "quaternaryLabel": pair("#3C3C432E", "#EBEBF529"),
        "placeholderText": pair("#3C3C434D", "#EBEBF54D"),
        "link": pair("#007AFF", "#0984FF"),
        "separator": pair("#3C3C434A", "#54545899"),
        "opaqueSeparator": pair("#C6C6C8", "#38383A"),
        "systemBackground": pair("#FFFFFF", "#000000"),
        "secondarySystemBackground": pair("#F2F2F7", "#1C1C1E"),
        "tertiarySystemBackground": pair("#FFFFFF", "#2C2C2E"),
        "systemGroupedBackground": pair("#F2F2F7", "#000000"),
        "secondarySystemGroupedBackground": pair("#FFFFFF", "#1C1C1E"),
        "tertiarySystemGroupedBackground": pair("#F2F2F7", "#2C2C2E"),
        "systemFill": pair("#78788033", "#7878805C"),
        "secondarySystemFill": pair("#78788029", "#78788052"),
        "tertiarySystemFill": pair("#7676801F", "#7676803D"),
        "quaternarySystemFill": pair("#74748014", "#7676802E"),
    ]

    /// SwiftUI's `Color.red` etc. are the dynamic system colors; `.primary`/`.secondary` are label colors.
    static let swiftUIAliases: [String: String] = [
        "red": "systemRed", "orange": "systemOrange", "yellow": "systemYellow", "green": "systemGreen",
        "mint": "systemMint", "teal": "systemTeal", "cyan": "systemCyan", "blue": "systemBlue",
        "indigo": "systemIndigo", "purple": "systemPurple", "pink": "systemPink", "brown": "systemBrown",
        "gray": "systemGray", "primary": "label", "secondary": "secondaryLabel", "accentColor": "systemBlue",
        "tint": "systemBlue",
    ]

    static let fixed: [String: ColorValue] = [
        "white": .white, "black": .black, "clear": .clear,
        "lightText": ColorValue(white: 1, alpha: 0.6), "darkText": .black,
    ]

    static func color(named name: String) -> AppearanceColor? {
        if let fixed = fixed[name] {
            // A fixed color is the same in every appearance by design, so all are "explicit".
            var value = AppearanceColor(constant: fixed)
            value.explicit = .all
            return value
        }
        if let dynamic = dynamic[name] { return dynamic }
        if let alias = swiftUIAliases[name] { return dynamic[alias] }
        return nil
    }

    /// Sizes of the text styles at the default (Large) Dynamic Type setting, from Apple's HIG
    /// "Typography" page, "iOS, iPadOS Dynamic Type sizes" table.
    static let textStyles: [String: (size: Double, weight: String?)] = [
        "largeTitle": (34, nil), "title": (28, nil), "title1": (28, nil), "title2": (22, nil), "title3": (20, nil),
        "headline": (17, "semibold"), "body": (17, nil), "callout": (16, nil), "subheadline": (15, nil),
        "footnote": (13, nil), "caption": (12, nil), "caption1": (12, nil), "caption2": (11, nil),
    ]
}
