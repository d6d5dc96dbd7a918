import A11yClient
import A11yDaemon
import A11yEngine
import A11yReaders
import Foundation
import Glibc

// a11yd: keeps the audit of a design system current while people edit it and serves it on a Unix socket.
// Usage: a11yd --root PATH [--socket PATH] [--state-dir PATH] [--settle-ms N] [--retention N] [--policy NAME]

let usage = """
    usage: a11yd --root PATH [--socket PATH] [--state-dir PATH] [--settle-ms 30] [--retention 500] [--policy NAME]
                 [--notify warning|error|off] [--max-client-queue-kib 8192]

    Watches PATH (a design system directory with .a11yd.yml), re-audits on every save, stores every audit in
    SQLite under $XDG_STATE_HOME/a11yd/, and answers JSON-RPC 2.0 (one message per line) on the socket
    (default $XDG_RUNTIME_DIR/a11yd/a11yd.sock; docs/protocol.md). Under systemd socket activation the inherited
    socket (LISTEN_FDS) is used. SIGHUP reloads .a11yd.yml; SIGTERM/SIGINT stop cleanly.
    Regressions raise a desktop notification (org.freedesktop.Notifications on the session bus) at or above
    --notify (default warning; off disables). Query it with `a11yctl status`, `a11yctl latest`, `a11yctl watch`.
    """

let log = DaemonLog()
var arguments = Array(CommandLine.arguments.dropFirst())
var root: String?
var socketPath: String?
var stateDirectory: String?
var settleMilliseconds = 30.0
var retention = 500
var policy: String?
var limits = RPCServer.Limits()
var notifyLevel = "warning"

@MainActor func value(_ flag: String) -> String {
    guard !arguments.isEmpty else {
        FileHandle.standardError.write(Data("a11yd: error: \(flag) needs a value\n\(usage)\n".utf8))
        exit(2)
    }
    return arguments.removeFirst()
}

while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    switch flag {
    case "--root": root = value(flag)
    case "--socket": socketPath = value(flag)
    case "--state-dir": stateDirectory = value(flag)
    case "--settle-ms": settleMilliseconds = Double(value(flag)) ?? settleMilliseconds
    case "--retention": retention = Int(value(flag)) ?? retention
    case "--policy": policy = value(flag)
    case "--notify": notifyLevel = value(flag)
    case "--max-client-queue-kib": limits.maxQueuedBytes = (Int(value(flag)) ?? 8192) * 1024
    case "--help", "-h":
        print(usage)
        exit(0)
    case "--version":
        print("a11yd 0.1.0")
        exit(0)
    default:
        FileHandle.standardError.write(Data("a11yd: error: unknown option \(flag)\n\(usage)\n".utf8))
        exit(2)
    }
}

guard let root else {
    FileHandle.standardError.write(Data("a11yd: error: --root PATH is required\n\(usage)\n".utf8))
    exit(2)
}

var options = Daemon.Options(root: root, stateDirectory: stateDirectory ?? Daemon.Options.defaultStateDirectory())
options.settle = settleMilliseconds / 1000
options.retention = retention
options.policyOverride = policy

let server: RPCServer
do {
    if let inherited = SocketActivation.listeningDescriptors().first {
        server = RPCServer(listeningFD: inherited, limits: limits)
    } else {
        server = try RPCServer.bind(path: SocketLocation.resolve(explicit: socketPath), limits: limits)
    }
} catch {
    log.error(DaemonLog.describe(error))
    exit(1)
}

let daemon: Daemon
do {
    daemon = try Daemon(options: options, server: server, log: log)
} catch {
    log.error(DaemonLog.describe(error))
    server.stop()
    exit(error is ConfigurationError ? 2 : 1)
}

guard notifyLevel == "off" || Severity(rawValue: notifyLevel) != nil else {
    log.error("--notify takes warning, error or off")
    exit(2)
}
let notify = SystemdNotifier()
let desktop: DesktopNotifier? = Severity(rawValue: notifyLevel).map { DesktopNotifier(log: log, minimumSeverity: $0) }
daemon.onAudit = { audit, diff in
    notify.send(["STATUS": Daemon.statusLine(audit)])
    // The very first audit has nothing to regress from: it is the baseline, not news.
    if diff.fromAudit != nil { desktop?.update(with: diff) }
    if diff.fromAudit == nil {
        log.info("audit \(audit.id ?? 0): baseline: \(Daemon.statusLine(audit))")
    }
    if !diff.regressions.isEmpty {
        log.warning("audit \(audit.id ?? 0): \(counted(diff.regressions.count, "regression")): "
            + diff.regressions.prefix(3).map(\.messageWithComponent).joined(separator: "; "))
    }
    if !diff.resolutions.isEmpty { log.info("audit \(audit.id ?? 0): \(counted(diff.resolutions.count, "resolution"))") }
}

do {
    try daemon.start()
} catch {
    log.error(DaemonLog.describe(error))
    server.stop()
    exit(1)
}
notify.send(["READY": "1", "STATUS": daemon.latestAudit.map(Daemon.statusLine) ?? "started"])
let watchdog = WatchdogTimer(notifier: notify)

// Signals are handled on the main queue, not in signal context.
signal(SIGHUP, SIG_IGN)
signal(SIGTERM, SIG_IGN)
signal(SIGINT, SIG_IGN)
signal(SIGPIPE, SIG_IGN)
let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .main)
hangup.setEventHandler {
    notify.send(["RELOADING": "1", "STATUS": "reloading configuration"])
    daemon.reload { result in
        switch result {
        case .success(let audit): notify.send(["READY": "1", "STATUS": Daemon.statusLine(audit)])
        case .failure(let error): notify.send(["READY": "1", "STATUS": "reload failed: \(error)"])
        }
    }
}
hangup.resume()
var terminations: [DispatchSourceSignal] = []
for sig in [SIGTERM, SIGINT] {
    let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
    source.setEventHandler {
        notify.send(["STOPPING": "1"])
        log.info("stopping")
        watchdog?.cancel()
        daemon.stop()
        exit(0)
    }
    source.resume()
    terminations.append(source)
}
dispatchMain()
