import CSystemd
import Foundation
import Glibc

/// Readiness and status for systemd through libsystemd's own sd_notify(3): a no-op when the daemon does not run
/// under systemd (no `$NOTIFY_SOCKET`).
public final class SystemdNotifier: @unchecked Sendable {
    public init() {}

    public var isActive: Bool { getenv("NOTIFY_SOCKET") != nil }

    /// Sends the fields in one message; returns false when there is no socket or sending failed.
    @discardableResult
    public func send(_ fields: [String: String]) -> Bool {
        // READY=1 (and friends) first, then STATUS, as systemd reads them in any order but humans read logs in this one.
        let text = fields.sorted { ($0.key == "STATUS" ? 1 : 0, $0.key) < ($1.key == "STATUS" ? 1 : 0, $1.key) }
            .map { "\($0.key)=\($0.value.replacingOccurrences(of: "\n", with: " "))" }.joined(separator: "\n")
        return sd_notify(0, text) > 0
    }
}

/// Pings WATCHDOG=1 at half the interval sd_watchdog_enabled(3) reports when the unit sets `WatchdogSec=`.
public final class WatchdogTimer {
    private let timer: DispatchSourceTimer

    public init?(notifier: SystemdNotifier) {
        var usec: UInt64 = 0
        guard notifier.isActive, sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        let interval = DispatchTimeInterval.microseconds(Int(usec / 2))
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "a11yd.watchdog"))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { notifier.send(["WATCHDOG": "1"]) }
        timer.resume()
    }

    public func cancel() { timer.cancel() }
}

/// Socket activation through sd_listen_fds(3): the listening sockets systemd passed from fd 3.
public enum SocketActivation {
    /// The inherited descriptors (close-on-exec); the `LISTEN_*` variables are unset so children do not inherit them.
    public static func listeningDescriptors() -> [Int32] {
        let count = sd_listen_fds(1)
        guard count > 0 else { return [] }
        return (0..<count).map { Int32(SD_LISTEN_FDS_START) + $0 }
    }
}
