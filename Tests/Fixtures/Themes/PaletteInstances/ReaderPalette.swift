import UIKit

// A reading app's themes as instances of one palette struct (light / sepia / dark / black), written with an
// integer hex initialiser and translucent tag fills.

extension UIColor {
    convenience init(rgb: Int, alpha: CGFloat = 1) {
        self.init(red: CGFloat((rgb >> 16) & 0xFF) / 255, green: CGFloat((rgb >> 8) & 0xFF) / 255,
                  blue: CGFloat(rgb & 0xFF) / 255, alpha: alpha)
    }
}

enum Base {
    static let white = UIColor(rgb: 0xFFFFFF)
    static let parchment = UIColor(rgb: 0xF8F1E3)
    static let ink = UIColor(rgb: 0x202122)
    static let slate = UIColor(rgb: 0x72777D)
    static let blue = UIColor(rgb: 0x3366CC)
    static let sky = UIColor(rgb: 0x6699FF)
}

struct ReaderPalette {
    let paperBackground: UIColor
    let chromeBackground: UIColor
    let primaryText: UIColor
    let secondaryText: UIColor
    let link: UIColor
    let chromeText: UIColor
    let tagBackground: UIColor
    let tagText: UIColor

    /// Visited links are the link color at 60%.
    var visitedLink: UIColor { link.withAlphaComponent(0.6) }

    static let light = ReaderPalette(
        paperBackground: Base.white, chromeBackground: UIColor(rgb: 0xF8F9FA), primaryText: Base.ink, secondaryText: Base.slate,
        link: Base.blue, chromeText: Base.ink, tagBackground: Base.blue.withAlphaComponent(0.1), tagText: Base.blue)
    static let sepia = ReaderPalette(
        paperBackground: Base.parchment, chromeBackground: UIColor(rgb: 0xE1DACE), primaryText: UIColor(rgb: 0x333333),
        secondaryText: UIColor(rgb: 0x8B7D6B), link: UIColor(rgb: 0x3366CC), chromeText: UIColor(rgb: 0x54595D),
        tagBackground: UIColor(rgb: 0x3366CC, alpha: 0.2), tagText: UIColor(rgb: 0x3366CC))
    static let dark = ReaderPalette(
        paperBackground: UIColor(rgb: 0x202122), chromeBackground: UIColor(rgb: 0x27292D), primaryText: UIColor(rgb: 0xEAECF0),
        secondaryText: UIColor(rgb: 0xA2A9B1), link: Base.sky, chromeText: UIColor(rgb: 0xC8CCD1),
        tagBackground: Base.sky.withAlphaComponent(0.3), tagText: Base.sky)
    static let black = ReaderPalette(
        paperBackground: UIColor(rgb: 0x000000), chromeBackground: UIColor(rgb: 0x101418), primaryText: UIColor(rgb: 0xDDDDDD),
        secondaryText: UIColor(rgb: 0x555555), link: Base.sky, chromeText: UIColor(rgb: 0xAAAAAA),
        tagBackground: UIColor(rgb: 0x6699FF, alpha: 0.5), tagText: UIColor(rgb: 0xFFFFFF))

    /// The reader's choice, set at run time: the selection, not another theme.
    static var current: ReaderPalette = .light
}

enum ReaderColors {
    /// Follows the selected palette.
    static var articleTitle: UIColor { ReaderPalette.current.primaryText }
}
