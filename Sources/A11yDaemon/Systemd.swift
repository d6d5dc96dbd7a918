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

    /// RELOADING=1 with MONOTONIC_USEC=, the CLOCK_MONOTONIC time in microseconds, as systemd's reload protocol asks
    /// (systemd matches the READY=1 that ends the reload against it).
    @discardableResult
    public func reloading(status: String) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        return send(["RELOADING": "1", "MONOTONIC_USEC": "\(microseconds)", "STATUS": status])
    }
}

/// Pings WATCHDOG=1 at half the interval sd_watchdog_enabled(3) reports when the unit sets `WatchdogSec=`.
/// The pings run on `queue` (the daemon's audit queue): when the audit loop hangs they stop, and systemd restarts the
/// daemon. A timer on a queue of its own would keep pinging for a daemon that no longer audits.
public final class WatchdogTimer {
    private let timer: DispatchSourceTimer

    public init?(notifier: SystemdNotifier, queue: DispatchQueue) {
        var usec: UInt64 = 0
        guard notifier.isActive, sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        let interval = DispatchTimeInterval.microseconds(Int(usec / 2))
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { notifier.send(["WATCHDOG": "1"]) }
        timer.resume()
    }
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
