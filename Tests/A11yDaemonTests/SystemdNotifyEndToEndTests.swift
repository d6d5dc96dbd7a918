import Foundation
import Glibc
import Testing

/// A notify socket of the test's own, as systemd makes one: an AF_UNIX datagram socket whose path the daemon finds in
/// `$NOTIFY_SOCKET`. libsystemd's sd_notify(3) in the daemon sends one datagram per message.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard fd >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw NotifySocketError(path: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw NotifySocketError(path: path) }
    }

    deinit { close(fd) }

    /// The next message, or nil when none arrives within `timeout` seconds.
    func next(timeout: TimeInterval) -> String? {
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        // Never a negative timeout: poll(2) would wait forever.
        guard poll(&waiting, 1, Int32(max(timeout, 0) * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    /// Messages up to and including the first that `last` accepts (a bounded wait: 20 s without any message ends it).
    func read(until last: (String) -> Bool) -> [String] {
        var messages: [String] = []
        while let message = next(timeout: 20) {
            messages.append(message)
            if last(message) { break }
        }
        return messages
    }

    /// The messages already queued.
    func drain() -> [String] {
        var messages: [String] = []
        while let message = next(timeout: 0) { messages.append(message) }
        return messages
    }

    /// A message's `KEY=value` lines.
    static func fields(_ message: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in message.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            fields[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return fields
    }
}

struct NotifySocketError: Error, CustomStringConvertible {
    var path: String
    var description: String { "cannot bind a datagram socket at \(path): \(String(cString: strerror(errno)))" }
}

func monotonicMicroseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
}

extension DaemonEndToEndTests {
    /// The watchdog with a real notify socket: `WATCHDOG_USEC` as systemd sets it for `WatchdogSec=0.2`, and
    /// `WATCHDOG_PID` set to the daemon's own pid (the shell exports its pid, then exec's a11yd in its place).
    @Test func aHungAuditLoopStopsTheWatchdogPings() throws {
        let box = try Sandbox()
        let notify = try NotifySocket(path: box.dir + "/notify.sock")
        box.extraEnvironment = ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000", "A11YD_TEST_HANG_ON_FILE_CHANGE": "1"]
        box.launcher = ["/bin/sh", "-c", "export WATCHDOG_PID=$$; exec \"$@\"", "sh"]
        box.logPath = box.dir + "/a11yd.log"
        let daemon = try box.start()
        #expect(notify.read { $0.hasPrefix("READY=1") }.last?.hasPrefix("READY=1") == true)
        // Alive: pings every 100 ms (half the interval).
        var pings = 0
        while pings < 3, let message = notify.next(timeout: 10) {
            if message == "WATCHDOG=1" { pings += 1 }
        }
        #expect(pings == 3)

        // An edit: the audit it causes hangs the loop (the seam logs on the audit queue, then hangs it).
        let tokens = box.design + "/DesignTokens.swift"
        try (String(contentsOfFile: tokens, encoding: .utf8) + "\n// an edit\n").write(toFile: tokens, atomically: true, encoding: .utf8)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !box.log.contains("the audit loop hangs now") { Thread.sleep(forTimeInterval: 0.05) }
        #expect(box.log.contains("the audit loop hangs now"), "\(box.log)")
        // Pings are sent from the audit queue: those sent before the hang are already queued on the socket.
        _ = notify.drain()
        // Ten ping intervals: not one ping, although the process is still there (systemd would now kill it).
        var after: [String] = []
        let quiet = Date().addingTimeInterval(1)
        while Date() < quiet { if let message = notify.next(timeout: quiet.timeIntervalSinceNow) { after.append(message) } }
        #expect(!after.contains("WATCHDOG=1"), "\(after)")
        #expect(daemon.isRunning)
    }

    /// SIGHUP as `systemctl reload` sends it: RELOADING=1 (with MONOTONIC_USEC=, systemd's reload protocol) then
    /// READY=1, for a good configuration and for a broken one, which keeps the previous configuration in force.
    @Test func sighupSendsReloadingThenReadyAndABrokenConfigurationKeepsThePreviousOne() throws {
        let box = try Sandbox()
        let notify = try NotifySocket(path: box.dir + "/notify.sock")
        box.extraEnvironment = ["NOTIFY_SOCKET": notify.path]
        let daemon = try box.start()
        #expect(notify.read { $0.hasPrefix("READY=1") }.last?.hasPrefix("READY=1") == true)

        /// Sends SIGHUP; returns the RELOADING=1 and READY=1 messages in the order they came (audits' STATUS= lines
        /// may come between) and the monotonic clock before the signal.
        func reload() -> (messages: [[String: String]], before: UInt64) {
            let before = monotonicMicroseconds()
            kill(daemon.processIdentifier, SIGHUP)
            let messages = notify.read { $0.hasPrefix("READY=1") }.map(NotifySocket.fields)
                .filter { $0["RELOADING"] != nil || $0["READY"] != nil }
            return (messages, before)
        }

        let good = reload()
        #expect(good.messages.map { $0["RELOADING"] != nil ? "RELOADING" : "READY" } == ["RELOADING", "READY"], "\(good.messages)")
        let stamp = UInt64(good.messages.first?["MONOTONIC_USEC"] ?? "") ?? 0
        #expect(stamp >= good.before && stamp <= monotonicMicroseconds(), "MONOTONIC_USEC=\(stamp)")
        #expect(good.messages.last?["STATUS"]?.contains("pairs") == true, "\(good.messages)")

        let pairs = try box.python("print(call('status')['result']['summary']['pairs'])")
        try "policy: wcag21-aa\nsurfacez: [x]\n".write(toFile: box.design + "/.a11yd.yml", atomically: true, encoding: .utf8)
        let broken = reload()
        #expect(broken.messages.map { $0["RELOADING"] != nil ? "RELOADING" : "READY" } == ["RELOADING", "READY"], "\(broken.messages)")
        #expect(broken.messages.first?["MONOTONIC_USEC"] != nil)
        #expect(broken.messages.last?["STATUS"]?.hasPrefix("reload failed: ") == true, "\(broken.messages)")
        #expect(broken.messages.last?["STATUS"]?.contains("surfacez") == true, "\(broken.messages)")
        let output = try box.python("""
            st = call('status')['result']
            print('status', st.get('configurationError', ''))
            latest = call('audit.latest')['result']
            print('config findings', len([f for f in latest['findings'] if f['rule'] == 'config']))
            print('pairs', latest['summary']['pairs'])
            """)
        #expect(output.contains("status ") && output.contains("surfacez"), "\(output)")
        #expect(output.contains("config findings 1"), "\(output)")
        #expect(output.contains("pairs \(pairs)"), "\(output)")
        #expect(daemon.isRunning)
    }
}
