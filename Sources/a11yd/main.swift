import A11yClient
import A11yDaemon
import A11yEngine
import A11yReaders
import CMalloc
import Foundation
import Glibc

import ArgumentParser

// a11yd: keeps the audit of a design system current while people edit it and serves it on a Unix socket.

/// The daemon's command line, validated before anything starts (numbers in range, known notification levels).
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "a11yd",
        abstract: "Keep the accessibility audit of a design system current while people edit it.",
        discussion: """
            Watches PATH (a design system directory with .a11yd.yml), re-audits on every save, stores every audit \
            in SQLite under $XDG_STATE_HOME/a11yd/, and answers JSON-RPC 2.0 (one message per line) on the socket \
            (default $XDG_RUNTIME_DIR/a11yd/a11yd.sock; docs/protocol.md). Under systemd socket activation the \
            inherited socket (LISTEN_FDS) is used. SIGHUP reloads .a11yd.yml; SIGTERM/SIGINT stop cleanly. \
            Regressions raise a desktop notification (org.freedesktop.Notifications on the session bus). Query it \
            with `a11yctl status`, `a11yctl latest`, `a11yctl watch`.
            """,
        version: "a11yd 0.1.0")

    enum NotifyLevel: String, ExpressibleByArgument, CaseIterable {
        case warning, error, off
    }

    @Option(help: "The design system directory to watch.") var root: String
    @Option(help: "The socket to serve (default: $A11YD_SOCKET, then $XDG_RUNTIME_DIR/a11yd/a11yd.sock).") var socket: String?
    @Option(name: .customLong("state-dir"), help: "Where the audit history is kept (default: $XDG_STATE_HOME/a11yd).")
    var stateDirectory: String?
    @Option(name: .customLong("settle-ms"), parsing: .unconditional, help: "Quiet time after the last save before auditing, in milliseconds (0-10000).")
    var settleMilliseconds = 30
    @Option(parsing: .unconditional, help: "Audits kept in the history (at least 1).") var retention = 500
    @Option(help: "Policy preset or file, overriding .a11yd.yml.") var policy: String?
    @Option(help: "Lowest severity that raises a desktop notification (warning, error, off).") var notify = NotifyLevel.warning
    @Option(name: .customLong("max-client-queue-kib"), parsing: .unconditional, help: "Bytes queued for one client before it is dropped, in KiB (at least 64).")
    var maxClientQueueKiB = 8192

    func validate() throws {
        guard (0...10_000).contains(settleMilliseconds) else {
            throw ValidationError("--settle-ms must be between 0 and 10000 milliseconds, not \(settleMilliseconds)")
        }
        guard retention >= 1 else { throw ValidationError("--retention must be at least 1, not \(retention)") }
        guard maxClientQueueKiB >= 64 else {
            throw ValidationError("--max-client-queue-kib must be at least 64, not \(maxClientQueueKiB)")
        }
    }
}

// One malloc arena: audit worker threads otherwise get arenas of their own, which fragment (BENCHMARKS.md).
mallopt(M_ARENA_MAX, 1)
let log = DaemonLog()
let command: DaemonCommand
do {
    command = try DaemonCommand.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    // --help and --version print and exit 0; usage errors are one short line plus the usage, exit 2.
    if DaemonCommand.exitCode(for: error) == .success {
        print(DaemonCommand.fullMessage(for: error))
        exit(0)
    }
    FileHandle.standardError.write(Data("a11yd: error: \(DaemonCommand.message(for: error))\n\(DaemonCommand.usageString())\n".utf8))
    exit(2)
}
let root = command.root
let socketPath = command.socket
let stateDirectory = command.stateDirectory
let settleMilliseconds = Double(command.settleMilliseconds)
let retention = command.retention
let policy = command.policy
var limits = RPCServer.Limits()
limits.maxQueuedBytes = command.maxClientQueueKiB * 1024
let notifyLevel = command.notify.rawValue

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
// Signals are handled on the main queue, not in signal context. They are set up before READY=1: a reload sent as soon
// as systemd sees the service ready must not meet SIGHUP's default action (termination).
signal(SIGHUP, SIG_IGN)
signal(SIGTERM, SIG_IGN)
signal(SIGINT, SIG_IGN)
signal(SIGPIPE, SIG_IGN)
let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .main)
hangup.setEventHandler {
    notify.reloading(status: "reloading configuration")
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
        daemon.stop()
        exit(0)
    }
    source.resume()
    terminations.append(source)
}
notify.send(["READY": "1", "STATUS": daemon.latestAudit.map(Daemon.statusLine) ?? "started"])
let watchdog = WatchdogTimer(notifier: notify, queue: daemon.auditQueue)
withExtendedLifetime(watchdog) { dispatchMain() }
