import A11yReaders
import Foundation

/// One line per message on stderr. Under systemd (`JOURNAL_STREAM` set) each line starts with its syslog priority
/// (`<3>` error, `<4>` warning, `<6>` info, `<7>` debug) so journald records the level; otherwise `a11yd: level: `.
public struct DaemonLog: Sendable {
    public enum Level: Int, Sendable {
        case error = 3, warning = 4, info = 6, debug = 7
        var name: String { ["error", "warning", "info", "debug"][[3, 4, 6, 7].firstIndex(of: rawValue) ?? 2] }
    }

    public let journald: Bool
    public let minimum: Level

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, minimum: Level = .info) {
        journald = !(environment["JOURNAL_STREAM"] ?? "").isEmpty
        self.minimum = minimum
    }

    public func format(_ level: Level, _ message: String) -> String {
        journald ? "<\(level.rawValue)>\(message)" : "a11yd: \(level.name): \(message)"
    }

    public func log(_ level: Level, _ message: String) {
        guard level.rawValue <= minimum.rawValue else { return }
        FileHandle.standardError.write(Data((format(level, message) + "\n").utf8))
    }

    public func error(_ m: String) { log(.error, m) }
    /// An error as a log message: a configuration error keeps its file:line:column but not its own "error: " (the
    /// log line already says its level, so it never reads `a11yd: error: error: ...`).
    public static func describe(_ error: any Error) -> String {
        (error as? ConfigurationError)?.locatedMessage ?? "\(error)"
    }
    public func warning(_ m: String) { log(.warning, m) }
    public func info(_ m: String) { log(.info, m) }
    public func debug(_ m: String) { log(.debug, m) }
}
