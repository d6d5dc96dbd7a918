/// A color as view code draws it, evaluated for one variant of a component.
public struct DrawnColor: Hashable, Sendable {
    public var color: AppearanceColor
    /// The token whose value this is (a key of the token graph), when one was read to compute it.
    public var token: String?
    /// The expression as written, shortened (`colors.foreground`, `.surfacesBrand`).
    public var expression: String
    public var location: SourceLocation

    /// How text with no foreground style is written: SwiftUI draws it in `.primary`.
    public static let defaultPrimary = "default .primary"
}

/// One foreground drawn on one background by a view, in one variant: what the view-code pairing source measures.
public struct DrawnPair: Hashable, Sendable {
    /// The view type (`AppButton`).
    public var view: String
    /// The variant (an enum case of the view's properties), nil for a view with one look.
    public var variant: String?
    /// The branches taken to draw it (`pressed`), from the conditions the evaluator could not decide.
    public var branches: [String]
    /// `AppButton primary (pressed)`.
    public var name: String {
        // Appended, not `[view, variant, ...].compactMap { $0 }.joined(separator: " ")`: the runtime found that form's
        // generic metadata by name on first use (~0.6 M instructions of elevate-ios's audit).
        var name = view
        if let variant { name += " " + variant }
        if !branches.isEmpty { name += " (" + branches.joined(separator: ", ") + ")" }
        return name
    }
    public var foreground: DrawnColor
    /// nil when nothing in the view is drawn behind the foreground (it sits on whatever is underneath).
    public var background: DrawnColor?
    /// `text`, `graphic` or `disabled`.
    public var role: Role
    /// What draws the foreground: `Text`, `Image`, `Capsule stroke`.
    public var element: String
    /// The nearest `.font` above a text, with the expression it was written as.
    public var font: FontValue?
    public var fontExpression: String?
    /// Where the foreground is applied (the modifier's argument).
    public var drawnAt: SourceLocation
    /// `.opacity` applied above the foreground (already composited into its color).
    public var opacity: Double
}

/// A tappable view whose explicit size view code sets (`Button { ... }.frame(width: 28, height: 28)`).
public struct TouchTargetFact: Hashable, Sendable {
    public var view: String
    /// `Button`, `onTapGesture`.
    public var element: String
    public var width: Double?
    public var height: Double?
    /// The frame that sets the size (or the tappable element when its content sets it).
    public var location: SourceLocation
}

/// A font set in view code with a literal (`.font(.system(size: 12))`): token fonts are checked where they are declared.
public struct ViewFontFact: Hashable, Sendable {
    public var view: String
    public var font: FontValue
    public var expression: String
    public var location: SourceLocation
}

/// Text limited to one line in a fixed height: at the largest accessibility size it is clipped.
public struct ClippedTextFact: Hashable, Sendable {
    public var view: String
    public var height: Double
    public var font: FontValue
    public var location: SourceLocation
}

/// Everything view code says: what it draws, the sizes of what is tapped, and the fonts it sets.
public struct ViewCodeFacts: Sendable {
    public var drawn: [DrawnPair] = []
    public var touchTargets: [TouchTargetFact] = []
    public var fonts: [ViewFontFact] = []
    public var clippedText: [ClippedTextFact] = []
    public init() {}
    public var isEmpty: Bool { drawn.isEmpty && touchTargets.isEmpty && fonts.isEmpty && clippedText.isEmpty }
}
