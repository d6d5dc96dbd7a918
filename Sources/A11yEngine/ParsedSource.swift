/// Everything a reader extracted from one file. The daemon caches these per file and re-parses only changed
/// files; `TokenGraph` combines all of them.
public struct ParsedSource: Hashable, Sendable {
    public var file: String
    /// Tokens of data files (asset catalogs, design-token JSON), already in token form.
    public var tokens: [TokenDefinition]
    /// Swift members (static and instance, functions, initialisers, enum cases), evaluated by the interpreter.
    public var declarations: [MemberDeclaration]
    public var types: [TypeDeclaration]
    /// Types holding `Colors`/`Layout`/`Typography` groups (`enum NativePickerStyling { struct Colors {...} }`).
    public var components: [ComponentDeclaration]
    /// Problems found while reading (`parse` findings, expressions that cannot be translated).
    public var findings: [Finding]

    public init(file: String, tokens: [TokenDefinition] = [], declarations: [MemberDeclaration] = [], types: [TypeDeclaration] = [],
                components: [ComponentDeclaration] = [], findings: [Finding] = []) {
        self.file = file
        self.tokens = tokens
        self.declarations = declarations
        self.types = types
        self.components = components
        self.findings = findings
    }
}

/// A token of a data file: `color.text.primary` in design-token JSON, `Brand Primary.colorset`.
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

public struct ComponentDeclaration: Hashable, Sendable {
    public var qualifiedName: [String]
    public var location: SourceLocation

    public init(qualifiedName: [String], location: SourceLocation) {
        self.qualifiedName = qualifiedName
        self.location = location
    }

    public var name: String { qualifiedName.joinedWithDots() }
}
