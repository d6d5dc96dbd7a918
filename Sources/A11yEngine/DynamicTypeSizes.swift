/// Apple's Dynamic Type sizes for iOS/iPadOS, in points, per text style and content size category, from the
/// Human Interface Guidelines, Typography > Specifications > "iOS, iPadOS Dynamic Type sizes".
public enum DynamicTypeSizes {
    public static let categories = ["xSmall", "Small", "Medium", "Large", "xLarge", "xxLarge", "xxxLarge",
                                    "AX1", "AX2", "AX3", "AX4", "AX5"]

    /// Sizes in the order of `categories`.
    public static let table: [String: [Double]] = [
        "largeTitle": [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60],
        "title": [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58],
        "title2": [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56],
        "title3": [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55],
        "headline": [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53],
        "body": [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53],
        "callout": [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51],
        "subheadline": [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49],
        "footnote": [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44],
        "caption": [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43],
        "caption2": [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40],
    ]

    static let aliases = ["title1": "title", "caption1": "caption", "subhead": "subheadline"]

    /// The size a font reaches at the largest accessibility size (AX5): its text style's AX5 size scaled by
    /// the font's own base size relative to the style's default (a 16pt font relative to body, 17pt, grows 16/17 as much).
    public static func largestAccessibilitySize(of font: FontValue) -> Double? {
        guard font.scales, let style = font.textStyle else { return nil }
        guard let sizes = table[aliases[style] ?? style], sizes.count == categories.count else { return nil }
        let large = sizes[3], ax5 = sizes[11]
        return (font.size ?? large) * ax5 / large
    }

    /// Line height as a multiple of point size: SF Pro's ascender + descender + leading is about 1.2 em.
    public static let lineHeightFactor = 1.2
}
