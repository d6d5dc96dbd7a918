/// The project's `.a11yd.yml`, as values. Reading and validating the YAML is the readers' job.
public struct ProjectConfiguration: Hashable, Sendable {
    public struct DeclaredPair: Hashable, Sendable {
        public var foreground: String
        public var background: String
        public var role: Role
        public var component: String?
        public var location: SourceLocation?

        public init(foreground: String, background: String, role: Role, component: String? = nil, location: SourceLocation? = nil) {
            self.foreground = foreground
            self.background = background
            self.role = role
            self.component = component
            self.location = location
        }
    }

    /// One entry of `themes:`: a theme found in the code, how to show it and how it is drawn.
    public struct ThemeSetting: Hashable, Sendable {
        /// The name in the code (palette instance, theme enum case, palette type or its selector case).
        public var codeName: String
        /// `as:` the name output uses.
        public var name: String?
        /// `appearance: light|dark`: the appearance the theme's fixed colors are drawn in.
        public var appearance: Appearance?
        /// `contrast: increased`: the theme is an increased-contrast one (the policy's high-contrast thresholds apply).
        public var increasedContrast: Bool?
        public var isDefault: Bool
        public var location: SourceLocation?

        public init(codeName: String, name: String? = nil, appearance: Appearance? = nil, increasedContrast: Bool? = nil,
                    isDefault: Bool = false, location: SourceLocation? = nil) {
            self.codeName = codeName
            self.name = name
            self.appearance = appearance
            self.increasedContrast = increasedContrast
            self.isDefault = isDefault
            self.location = location
        }
    }

    /// `themes:` which themes are audited, in which order, named how; nil: every theme found, as inferred.
    public var themes: [ThemeSetting]?

    /// Preset name (`wcag21-aa`) or a path to a policy file.
    public var policy: String
    public var include: [String]
    public var exclude: [String]
    /// Token names standing for "whatever is underneath" (clear or missing backgrounds); nil: inferred.
    public var surfaces: [String]?
    public var pairs: [DeclaredPair]
    /// Custom `#if` flags considered set.
    public var flags: [String]
    /// What `UIDevice.current.userInterfaceIdiom` evaluates to (`phone`, `pad`, ...).
    public var idiom: String = "phone"
    /// Where the configuration came from (for messages); nil when defaults are used.
    public var file: String?
    /// Overrides of the policy (`severity:`, `touch-target: minimum`, `dynamic-type: minimum-size`, `token-hygiene: primitives`).
    public var severities: [String: Severity] = [:]
    public var touchTargetMinimum: Double?
    public var minimumFontSize: Double?
    public var primitiveTokens: [String]?
    /// `suppress:` entries.
    public var suppressions: [Suppression] = []
    /// `modes:` which design-token files feed which appearance (globs); files not listed are mapped by their name.
    public var modes: [Appearance: [String]] = [:]

    /// The policy with this project's overrides applied.
    public func customize(_ policy: Policy) -> Policy {
        var result = policy
        result.severities.merge(severities) { _, project in project }
        if let touchTargetMinimum { result.touchTargetMinimum = touchTargetMinimum }
        if let minimumFontSize { result.minimumFontSize = minimumFontSize }
        if let primitiveTokens { result.primitiveTokens = primitiveTokens }
        return result
    }

    /// Swift sources, asset catalog colorsets and design-token JSON.
    public static let defaultInclude = ["**/*.swift", "**/*.colorset/Contents.json", "**/*.tokens.json", "**/*.tokens", "**/*.tokens.json5"]
    public static let defaultExclude = ["**/.build/**", "**/DerivedData/**", "**/.git/**", "**/Pods/**", "**/Carthage/**"]

    public init(policy: String = "wcag21-aa", include: [String] = ProjectConfiguration.defaultInclude,
                exclude: [String] = [], surfaces: [String]? = nil, pairs: [DeclaredPair] = [],
                flags: [String] = [], file: String? = nil) {
        self.policy = policy
        self.include = include
        self.exclude = exclude
        self.surfaces = surfaces
        self.pairs = pairs
        self.flags = flags
        self.file = file
    }
}
