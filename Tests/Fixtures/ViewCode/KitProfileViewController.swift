import UIKit

final class KitProfileViewController: UIViewController {
    private let card = UIView()
    private let nameLabel = UILabel()
    private let noteLabel = UILabel()
    private let editButton = UIButton(type: .system)

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .kitSurface
        card.backgroundColor = .kitInk
        card.layer.borderColor = UIColor.kitBorder.cgColor // drawn: card border
        view.addSubview(card)
        nameLabel.textColor = .kitTextOnBrand // drawn: profile name
        nameLabel.font = UIFont.systemFont(ofSize: 20, weight: .bold) // font: name
        card.addSubview(nameLabel)
        noteLabel.textColor = .kitMuted // drawn: profile note
        noteLabel.font = UIFontMetrics.default.scaledFont(for: UIFont.systemFont(ofSize: 13)) // font: note
        view.addSubview(noteLabel)
        editButton.setTitleColor(.kitBrand, for: .normal) // drawn: edit title
        view.addSubview(editButton)
    }
}
