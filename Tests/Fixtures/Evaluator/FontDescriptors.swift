import SwiftUI
import UIKit

#if canImport(UIKit)
extension UIFont {
    /// A text-style descriptor with extra traits: scales with the style.
    static func headingBold() -> UIFont {
        let base = UIFontDescriptor.preferredFontDescriptor(withTextStyle: .title2)
        let bold = base.addingAttributes([.traits: [UIFontDescriptor.TraitKey.weight: UIFont.Weight.bold]])
        return UIFont(descriptor: bold, size: base.pointSize)
    }

    /// A project instance method reading `self`.
    func weighted(_ weight: UIFont.Weight) -> UIFont {
        let descriptor = fontDescriptor.addingAttributes([.traits: [UIFontDescriptor.TraitKey.weight: weight]])
        return UIFont(descriptor: descriptor, size: pointSize)
    }
}
#endif

enum ReaderFonts {
    static let body: UIFont = UIFont(name: "Inter", size: 15)?.weighted(.medium) ?? .systemFont(ofSize: 15)
    static let quote: UIFont = {
        let size: CGFloat = 15 * 1.0
        let descriptor = UIFontDescriptor.preferredFontDescriptor(withTextStyle: .body).withSize(size)
        return UIFont(descriptor: descriptor, size: size)
    }()
}
