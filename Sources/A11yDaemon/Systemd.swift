import Foundation
import Glibc

/// The sd_notify protocol (sd_notify(3)), implemented directly: one datagram of `KEY=VALUE` lines to the
/// AF_UNIX socket in `$NOTIFY_SOCKET` (a path, or an abstract name written with a leading `@`). A no-op when
/// the daemon does not run under systemd.
public final class SystemdNotifier: @unchecked Sendable {
    private let address: String?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        address = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public var isActive: Bool { address != nil }

    /// Sends the fields in one datagram; returns false when there is no socket or sending failed.
    @discardableResult
    public func send(_ fields: [String: String]) -> Bool {
        guard let address else { return false }
        // READY=1 (and friends) first, then STATUS, as systemd reads them in any order but humans read logs in this one.
        let text = fields.sorted { ($0.key == "STATUS" ? 1 : 0, $0.key) < ($1.key == "STATUS" ? 1 : 0, $1.key) }
            .map { "\($0.key)=\($0.value.replacingOccurrences(of: "\n", with: " "))" }.joined(separator: "\n")
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var sockaddr = sockaddr_un()
        sockaddr.sun_family = sa_family_t(AF_UNIX)
        var path = Array(address.utf8)
        let abstract = path.first == UInt8(ascii: "@")
        if abstract { path[0] = 0 } // abstract namespace: leading NUL, no terminator
        guard path.count < MemoryLayout.size(ofValue: sockaddr.sun_path) else { return false }
        withUnsafeMutableBytes(of: &sockaddr.sun_path) { raw in for (i, b) in path.enumerated() { raw[i] = b } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (abstract ? 0 : 1))
        let sent = text.utf8CString.withUnsafeBufferPointer { buffer in
            withUnsafePointer(to: &sockaddr) {
                $0.withMemoryRebound(to: Glibc.sockaddr.self, capacity: 1) {
                    sendto(fd, buffer.baseAddress, buffer.count - 1, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        return sent >= 0
    }
}

/// Pings WATCHDOG=1 at half of `$WATCHDOG_USEC` when the unit sets `WatchdogSec=` (sd_watchdog_enabled(3)).
public final class WatchdogTimer {
    private let timer: DispatchSourceTimer

    public init?(notifier: SystemdNotifier, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard notifier.isActive, let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"].flatMap(Int32.init), pid != getpid() { return nil }
        let interval = DispatchTimeInterval.microseconds(Int(usec / 2))
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "a11yd.watchdog"))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { notifier.send(["WATCHDOG": "1"]) }
        timer.resume()
    }

    public func cancel() { timer.cancel() }
}

/// Socket activation (sd_listen_fds(3)): listening sockets passed from fd 3 when `LISTEN_PID` is this process.
public enum SocketActivation {
    public static let firstDescriptor: Int32 = 3

    public static func descriptors(environment: [String: String], pid: Int32) -> [Int32] {
        guard let listenPID = environment["LISTEN_PID"].flatMap(Int32.init), listenPID == pid,
              let count = environment["LISTEN_FDS"].flatMap(Int32.init), count > 0 else { return [] }
        return (0..<count).map { firstDescriptor + $0 }
    }

    /// The inherited descriptors; unsets the variables so child processes do not inherit them.
    public static func listeningDescriptors() -> [Int32] {
        let fds = descriptors(environment: ProcessInfo.processInfo.environment, pid: getpid())
        for fd in fds { _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC) }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        return fds
    }
}
