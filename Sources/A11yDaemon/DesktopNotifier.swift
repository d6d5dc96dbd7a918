import A11yEngine
import CSystemd
import Foundation

/// Turns regressions and resolutions into desktop notifications.
public protocol Notifier: AnyObject {
    /// Called once per audit (so a storm of saves, coalesced into audits, never floods the desktop).
    func update(with diff: AuditDiff)
}

/// Desktop notifications over the session bus, per the freedesktop Desktop Notifications spec 1.2
/// (`org.freedesktop.Notifications.Notify`, `CloseNotification`), spoken in process through sd-bus. One notification
/// is kept per daemon: updated in place (`replaces_id`) while regressions persist, replaced by "resolved" and then
/// closed when the last one goes away. Without a session bus it logs once and does nothing.
public final class DesktopNotifier: Notifier {
    private var bus: OpaquePointer?
    private let log: DaemonLog
    private let minimumSeverity: Severity
    private var notificationID: UInt32 = 0
    /// Regressions still outstanding, by rule|subject|theme and appearance.
    private var outstanding: [String: AuditDiff.Change] = [:]
    private var warned = false

    /// `address` overrides `$DBUS_SESSION_BUS_ADDRESS` (tests use a private bus).
    public init(log: DaemonLog, minimumSeverity: Severity = .warning, address: String? = nil) {
        self.log = log
        self.minimumSeverity = minimumSeverity
        var connection: OpaquePointer?
        let opened: Int32
        if let address {
            opened = Self.open(address: address, into: &connection)
        } else {
            opened = sd_bus_open_user(&connection)
        }
        if opened >= 0 { bus = connection } else { warnOnce("no session bus (\(String(cString: strerror(-opened)))): desktop notifications are off") }
    }

    deinit { sd_bus_flush_close_unref(bus) }

    private static func open(address: String, into connection: inout OpaquePointer?) -> Int32 {
        var r = sd_bus_new(&connection)
        guard r >= 0 else { return r }
        r = sd_bus_set_address(connection, address)
        if r >= 0 { r = sd_bus_set_bus_client(connection, 1) }
        if r >= 0 { r = sd_bus_start(connection) }
        if r < 0 { connection = sd_bus_unref(connection) }
        return r
    }

    private func warnOnce(_ message: String) {
        guard !warned else { return }
        warned = true
        log.warning(message)
    }

    static func key(_ c: AuditDiff.Change) -> String { "\(c.rule)|\(c.subject)|\(c.situation ?? "-")" }

    public func update(with diff: AuditDiff) {
        let relevant = diff.regressions.filter { $0.severity >= minimumSeverity }
        for change in relevant { outstanding[Self.key(change)] = change }
        var resolved: [AuditDiff.Change] = []
        for change in diff.resolutions where outstanding.removeValue(forKey: Self.key(change)) != nil { resolved.append(change) }
        if !relevant.isEmpty {
            let (summary, body) = Self.describe(relevant)
            let critical = relevant.contains { $0.severity == .error }
            if let id = notify(summary: summary, body: body, urgency: critical ? 2 : 1) { notificationID = id }
        } else if outstanding.isEmpty, notificationID != 0, !resolved.isEmpty {
            let summary = "\(resolved.count) accessibility regression\(resolved.count == 1 ? "" : "s") resolved"
            let body = resolved.prefix(3).map { "\($0.subject)" + ($0.situation.map { " (\($0))" } ?? "") }.joined(separator: "\n")
            _ = notify(summary: summary, body: body, urgency: 0)
            close(notificationID)
            notificationID = 0
        }
    }

    /// "2 contrast regressions (dark)" and the first few pairs with measured vs required ratio and file:line.
    static func describe(_ changes: [AuditDiff.Change]) -> (String, String) {
        let worst = changes.max { ($0.severity, -($0.after ?? 99)) < ($1.severity, -($1.after ?? 99)) } ?? changes[0]
        let family = worst.rule.split(separator: ".").first.map(String.init) ?? worst.rule
        let summary = "\(changes.count) \(family) regression\(changes.count == 1 ? "" : "s")" + (worst.situation.map { " (\($0))" } ?? "")
        let lines = changes.prefix(3).map { c -> String in
            // "rosé, dark: ReaderPalette: secondaryText on paperBackground, 4.10:1 (needs 4.50:1)"
            var line = (c.situation.map { "\($0): " } ?? "") + c.subject
            if let after = c.after, let required = c.required { line += ", \(displayRatio(after)):1 (needs \(displayRatio(required)):1)" }
            if let at = c.location { line += " at \((at.file as NSString).lastPathComponent):\(at.line)" }
            return line
        }
        let more = changes.count > 3 ? "\n… and \(changes.count - 3) more (a11yctl latest)" : ""
        return (summary, lines.joined(separator: "\n") + more)
    }

    private func call(_ method: String, build: (OpaquePointer?) -> Int32) -> OpaquePointer? {
        guard let bus else { return nil }
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                             "org.freedesktop.Notifications", method) >= 0 else { return nil }
        defer { sd_bus_message_unref(message) }
        guard build(message) >= 0 else {
            warnOnce("cannot build the \(method) message")
            return nil
        }
        var error = sd_bus_error()
        var reply: OpaquePointer?
        // A short timeout: a missing or hung notification server must not hold up audits.
        let r = sd_bus_call(bus, message, 1_000_000, &error, &reply)
        defer { sd_bus_error_free(&error) }
        guard r >= 0 else {
            let name = error.message.map { String(cString: $0) } ?? String(cString: strerror(-r))
            warnOnce("desktop notification failed: \(name)")
            return nil
        }
        warned = false
        return reply
    }

    private func appendString(_ message: OpaquePointer?, _ value: String) -> Int32 {
        value.withCString { sd_bus_message_append_basic(message, Int8(UInt8(ascii: "s")), $0) }
    }

    /// Notify(app_name s, replaces_id u, app_icon s, summary s, body s, actions as, hints a{sv}, expire_timeout i) -> u.
    private func notify(summary: String, body: String, urgency: UInt8) -> UInt32? {
        var replaces = notificationID
        var level = urgency
        var timeout: Int32 = -1
        let reply = call("Notify") { m in
            var r = appendString(m, "a11yd")
            if r >= 0 { r = sd_bus_message_append_basic(m, Int8(UInt8(ascii: "u")), &replaces) }
            if r >= 0 { r = appendString(m, "") }
            if r >= 0 { r = appendString(m, summary) }
            if r >= 0 { r = appendString(m, body) }
            if r >= 0 { r = sd_bus_message_open_container(m, Int8(UInt8(ascii: "a")), "s") }
            if r >= 0 { r = sd_bus_message_close_container(m) }
            if r >= 0 { r = sd_bus_message_open_container(m, Int8(UInt8(ascii: "a")), "{sv}") }
            if r >= 0 { r = sd_bus_message_open_container(m, Int8(UInt8(ascii: "e")), "sv") }
            if r >= 0 { r = appendString(m, "urgency") }
            if r >= 0 { r = sd_bus_message_open_container(m, Int8(UInt8(ascii: "v")), "y") }
            if r >= 0 { r = sd_bus_message_append_basic(m, Int8(UInt8(ascii: "y")), &level) }
            if r >= 0 { r = sd_bus_message_close_container(m) }
            if r >= 0 { r = sd_bus_message_close_container(m) }
            if r >= 0 { r = sd_bus_message_close_container(m) }
            if r >= 0 { r = sd_bus_message_append_basic(m, Int8(UInt8(ascii: "i")), &timeout) }
            return r
        }
        guard let reply else { return nil }
        defer { sd_bus_message_unref(reply) }
        var id: UInt32 = 0
        guard sd_bus_message_read_basic(reply, Int8(UInt8(ascii: "u")), &id) >= 0 else { return nil }
        return id
    }

    private func close(_ id: UInt32) {
        var value = id
        if let reply = call("CloseNotification", build: { sd_bus_message_append_basic($0, Int8(UInt8(ascii: "u")), &value) }) {
            sd_bus_message_unref(reply)
        }
    }
}
