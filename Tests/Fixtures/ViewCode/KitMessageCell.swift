import UIKit

/// A table cell configured per message: its views are drawn on the cell's content view.
final class KitMessageCell: UITableViewCell {
    private let titleLabel = UILabel()
    private let replyButton = UIButton(type: .system)

    func configure(title: String, isUnread: Bool) {
        titleLabel.text = title
        contentView.backgroundColor = .kitInk
        titleLabel.textColor = .kitTextOnBrand // drawn: message title
        contentView.addSubview(titleLabel)
        // An image-only system button draws its image in its tint: a graphic.
        replyButton.setImage(UIImage(systemName: "arrowshape.turn.up.left"), for: .normal)
        replyButton.tintColor = .kitBorder // drawn: reply icon
        contentView.addSubview(replyButton)
    }
}

enum KitBannerTheme {
    case info
    case alert

    var fill: UIColor {
        switch self {
        case .info: return .kitSurface
        case .alert: return .kitAlert
        }
    }

    var ink: UIColor {
        switch self {
        case .info: return .kitInk
        case .alert: return .kitTextOnBrand
        }
    }

    var action: UIColor {
        switch self {
        case .info: return .kitBrand
        case .alert: return .kitSurface
        }
    }
}

/// A banner that themes itself: its labels on its own background (`self`), measured for every theme.
final class KitBannerView: UIView {
    private let messageLabel = UILabel()
    private let undoButton = UIButton(type: .system)

    func apply(theme: KitBannerTheme) {
        backgroundColor = theme.fill
        messageLabel.textColor = theme.ink // drawn: banner message
        addSubview(messageLabel)
        // A system button with a title draws the title in its tint: text.
        undoButton.setTitle("Undo", for: .normal)
        undoButton.tintColor = theme.action // drawn: banner action
        addSubview(undoButton)
    }
}
