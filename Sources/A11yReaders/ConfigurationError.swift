import A11yEngine

/// A problem with the project configuration or a policy: reported with file:line:column, exit code 2.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation?
    public var message: String

    public init(_ message: String, at location: SourceLocation? = nil) {
        self.message = message
        self.location = location
    }

    /// `file:line:column: error: message`, as compilers print it (a program name prefixes it when there is no location).
    public var description: String { (location.map { "\($0): " } ?? "") + "error: " + message }

    /// The message with its location but without the severity, for logs that print their own level.
    public var locatedMessage: String { (location.map { "\($0): " } ?? "") + message }
}
