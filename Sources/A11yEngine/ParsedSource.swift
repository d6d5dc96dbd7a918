/// Everything a reader extracted from one file. The daemon caches these per file and re-parses only changed
/// files; `TokenGraph` combines all of them.
public struct ParsedSource: Hashable, Sendable {
    public var file: String
    public var tokens: [TokenDefinition]
    public var functions: [HelperFunction]
    /// Types holding `Colors`/`Layout`/`Typography` groups (`enum NativePickerStyling { struct Colors {...} }`).
    public var components: [ComponentDeclaration]
    /// Problems found while reading (`parse` findings, expressions that cannot be translated).
    public var findings: [Finding]

    public init(file: String, tokens: [TokenDefinition] = [], functions: [HelperFunction] = [],
                components: [ComponentDeclaration] = [], findings: [Finding] = []) {
        self.file = file
        self.tokens = tokens
        self.functions = functions
        self.components = components
        self.findings = findings
    }
}

/// `static let appTextPrimary = adaptive(light: "#0F172A", dark: "#F8FAFC")` inside `extension Color`.
public struct TokenDefinition: Hashable, Sendable {
    /// Enclosing type names followed by the token's name: `["Color", "appTextPrimary"]`,
    /// `["NativePickerStyling", "Colors", "label"]`, `["ElevateAliases", "Action", "StrongPrimary", "fill_default"]`.
    public var qualifiedName: [String]
    /// From the declared type (`: CGFloat`, `: Color`) or the enclosing extension; nil when neither says.
    public var declaredKind: TokenKind?
    public var expression: TokenExpression
    /// The location of the token's name.
    public var location: SourceLocation

    public init(qualifiedName: [String], declaredKind: TokenKind?, expression: TokenExpression, location: SourceLocation) {
        self.qualifiedName = qualifiedName
        self.declaredKind = declaredKind
        self.expression = expression
        self.location = location
    }

    public var name: String { qualifiedName.last ?? "" }
}

/// A project helper whose body is a single expression, e.g.
/// `static func adaptive(light: String, dark: String) -> Color { Color(UIColor { ... }) }`.
public struct HelperFunction: Hashable, Sendable {
    public var qualifiedName: [String]
    public var parameters: [HelperParameter]
    public var body: TokenExpression
    public var location: SourceLocation

    public init(qualifiedName: [String], parameters: [HelperParameter], body: TokenExpression, location: SourceLocation) {
        self.qualifiedName = qualifiedName
        self.parameters = parameters
        self.body = body
        self.location = location
    }
}

public struct HelperParameter: Hashable, Sendable {
    /// The argument label callers write; nil for `_`.
    public var label: String?
    /// The name used inside the body.
    public var name: String
    public var defaultValue: TokenExpression?

    public init(label: String?, name: String, defaultValue: TokenExpression? = nil) {
        self.label = label
        self.name = name
        self.defaultValue = defaultValue
    }
}

public struct ComponentDeclaration: Hashable, Sendable {
    public var qualifiedName: [String]
    public var location: SourceLocation

    public init(qualifiedName: [String], location: SourceLocation) {
        self.qualifiedName = qualifiedName
        self.location = location
    }

    public var name: String { qualifiedName.joined(separator: ".") }
}
