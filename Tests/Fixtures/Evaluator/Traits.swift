import SwiftUI
import UIKit

// Contrast and idiom traits, guard and if-let, a protocol extension and a non-token service.
protocol Palette {
    var base: UIColor { get }
}

extension Palette {
    var emphasis: UIColor {
        UIColor { traits in
            guard traits.accessibilityContrast == .high else { return self.base }
            return traits.userInterfaceStyle == .dark ? .white : .black
        }
    }
}

struct BluePalette: Palette {
    let base = UIColor(red: 0, green: 0.4, blue: 0.8, alpha: 1)
}

enum TraitTokens {
    static let emphasis = BluePalette().emphasis
    static var chipHeight: CGFloat {
        if UIDevice.current.userInterfaceIdiom == .pad { return 40 }
        return 32
    }
    static let optionalInk: UIColor = UIColor(named: "DoesNotExist") ?? .label
}

final class NetworkService {
    static let shared = NetworkService()
    static let endpoint = URL(string: "https://example.com")!
    let session = URLSession.shared
}
