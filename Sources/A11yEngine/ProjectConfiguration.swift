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

    /// Preset name (`wcag21-aa`) or a path to a policy file.
    public var policy: String
    public var include: [String]
    public var exclude: [String]
    /// Token names standing for "whatever is underneath" (clear or missing backgrounds); nil: inferred.
    public var surfaces: [String]?
    public var pairs: [DeclaredPair]
    /// Custom `#if` flags considered set.
    public var flags: [String]
    /// Where the configuration came from (for messages); nil when defaults are used.
    public var file: String?

    public static let defaultInclude = ["**/*.swift"]
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
