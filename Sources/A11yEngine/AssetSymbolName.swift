/// The Swift symbol Xcode 15+ generates for an asset-catalog color (`ASSETCATALOG_COMPILER_GENERATE_ASSET_SYMBOLS`),
/// so `Color.brandPrimary`, `UIColor.brandPrimary` and `.brandPrimary` can be linked to `Brand Primary.colorset`.
///
/// Behaviour reproduced from Xcode-generated `GeneratedAssetSymbols.swift` files found in public repositories
/// and the SwiftFormat discussion of the feature (nicklockwood/SwiftFormat#1634):
/// - word separators (space, `-`, `_`, `.`) are dropped and the following word is capitalized:
///   `some_blue` -> `someBlue`, `Launch_screen_colour` -> `launchScreenColour`;
/// - a leading capital run is lowercased, keeping the capital that starts the next word:
///   `UIColour` -> `uiColour`, `BGColorOne` -> `bgColorOne`, `BackIOSPrimary` -> `backIOSPrimary`;
/// - a trailing `Color` is removed: `AccentColor` -> `accent`, `greenColor` -> `green`, `BlackGrayColor` -> `blackGray`;
/// - a namespace folder (`"provides-namespace": true`) becomes a nested type named after the folder:
///   `Signal/BackgroundLevels/backgroundBase` -> `Signal.BackgroundLevels.backgroundBase`.
/// Not observed, so a documented guess: a name starting with a digit gets a leading `_` to be an identifier,
/// and a namespace folder's name is capitalized word by word (`Edit History` -> `EditHistory`).
public enum AssetSymbolName {
    /// The generated member name for one colorset name (no namespace): `"brand-primary"` -> `"brandPrimary"`.
    public static func symbol(forColorSetName name: String) -> String {
        let words = splitWords(name)
        guard let first = words.first else { return "_" }
        var result = lowercasingLeadingCapitals(first) + words.dropFirst().map(capitalizingFirst).joined()
        if result.hasSuffix("Color") && result.count > "Color".count {
            result.removeLast("Color".count)
        }
        if let leading = result.first, leading.isNumber { result = "_" + result }
        return result
    }

    /// The generated type name for a namespace folder: `"Edit History"` -> `"EditHistory"`.
    public static func namespaceType(forFolderName name: String) -> String {
        let result = splitWords(name).map(capitalizingFirst).joined()
        if result.isEmpty { return "_" }
        if let leading = result.first, leading.isNumber { return "_" + result }
        return result
    }

    /// The full symbol path for an asset name as `Color("...")` spells it:
    /// `"Signal/BackgroundLevels/backgroundBase"` -> `["Signal", "BackgroundLevels", "backgroundBase"]`.
    public static func symbolPath(forAssetName name: String) -> [String] {
        let parts = name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let last = parts.last else { return [symbol(forColorSetName: name)] }
        return parts.dropLast().map(namespaceType(forFolderName:)) + [symbol(forColorSetName: last)]
    }

    /// Splits at every character that cannot be part of a Swift identifier; camel case inside a word is kept.
    static func splitWords(_ name: String) -> [String] {
        name.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    static func capitalizingFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// `UIColour` -> `uiColour`, `URL` -> `url`, `Accent` -> `accent`, `iOS` -> `iOS`.
    static func lowercasingLeadingCapitals(_ word: String) -> String {
        let characters = Array(word)
        var capitals = 0
        while capitals < characters.count && characters[capitals].isUppercase { capitals += 1 }
        if capitals == 0 { return word }
        // When capitals are followed by a lowercase letter, the last capital starts the next word.
        let nextIsLowercase = capitals < characters.count && characters[capitals].isLowercase
        let lowered = nextIsLowercase && capitals > 1 ? capitals - 1 : capitals
        return characters[..<lowered].map { $0.lowercased() }.joined() + String(characters[lowered...])
    }
}
