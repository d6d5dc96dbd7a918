import A11yClient
import A11yEngine
import A11yOutput
import ArgumentParser
import Foundation

/// EX_UNAVAILABLE (sysexits.h): no daemon answers.
let exitUnavailable: Int32 = 69

struct DaemonOptions: ParsableArguments {
    @Option(help: "The daemon's socket (default: $A11YD_SOCKET, then $XDG_RUNTIME_DIR/a11yd/a11yd.sock).")
    var socket: String?

    func connect() throws -> RPCClient {
        let path = SocketLocation.resolve(explicit: socket)
        do {
            return try RPCClient(socketPath: path)
        } catch let error as DaemonUnavailable {
            reportError("\(error)")
            throw ExitCode(exitUnavailable)
        }
    }

    func call(_ method: String, _ params: [String: Any] = [:]) throws -> Any {
        let client = try connect()
        do {
            return try client.call(method, params)
        } catch let error as DaemonUnavailable {
            reportError("\(error)")
            throw ExitCode(exitUnavailable)
        } catch let error as RPCError {
            // The JSON-RPC code is for programs (`--format json`, docs/protocol.md), not for the person reading this.
            reportError(error.message)
            throw ExitCode(Exit.usage)
        }
    }
}

func printJSON(_ object: Any) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

func decode<T: Decodable>(_ type: T.Type, from object: Any) throws -> T {
    let data = try JSONSerialization.data(withJSONObject: object)
    return try JSONDecoder().decode(type, from: data)
}

extension A11yCtl {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show what the running daemon watches and its latest audit summary.")
        @OptionGroup var daemon: DaemonOptions
        @Option(help: "Output format: table or json.") var format: OutputFormat = .table

        func run() throws {
            let status = try daemon.call("status") as? [String: Any] ?? [:]
            if format == .json { return printJSON(status) }
            print("a11yd \(status["version"] ?? "?") (pid \(status["pid"] ?? "?")) watching \(status["root"] ?? "?")")
            print("audit #\(status["auditId"] ?? "-") at \(status["time"] ?? "-"): \(status["statusLine"] ?? "no audit yet")")
            print("policy \(status["policy"] ?? "?"); \(counted(status["clients"] as? Int ?? 0, "client")), "
                + "\(counted(status["subscribers"] as? Int ?? 0, "subscriber")); socket \(status["socket"] ?? "?")")
            if let watching = status["watching"] as? String, watching != "inotify" { print("watching: \(watching)") }
            if let error = status["inputError"] as? String { print("error: \(error)") }
            if let error = status["configurationError"] as? String {
                print("configuration error (the previous configuration stays in force): \(error)")
            }
            if let warning = status["historyWarning"] as? String { print("warning: \(warning)") }
        }
    }

    struct Latest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "latest",
            abstract: "Print the daemon's latest audit (same table and JSON as `audit`, and the same exit codes).",
            discussion: "Filters narrow the rows, the findings and the summary alike; --fail-on looks at what is left.")
        @OptionGroup var daemon: DaemonOptions
        @Option(help: "Output format: table or json.") var format: OutputFormat = .table
        @Option(help: "Only this appearance (light, dark, lightHighContrast, darkHighContrast).") var appearance: String?
        @Option(help: "Only this theme (as `a11yctl pairs` lists them: sepia, rosé, ...); pairs no theme changes are kept.")
        var theme: String?
        @Option(help: "Only this rule's findings and pairs (or a rule prefix, e.g. contrast).") var rule: String?
        @Option(help: "Only findings at or above this severity.") var severity: SeverityArgument?
        @Option(help: "Only this component.") var component: String?
        @Option(help: "Lowest severity that makes the exit code 1: error, warning or info.")
        var failOn: SeverityArgument = .error
        @Option(help: "Colored output: auto (only on a terminal, off with NO_COLOR), always, never.")
        var color: ColorArgument = .auto

        func run() throws {
            var params: [String: Any] = [:]
            if let appearance { params["appearance"] = appearance }
            if let theme { params["theme"] = theme }
            if let rule { params["rule"] = rule }
            if let severity { params["severity"] = severity.severity.rawValue }
            if let component { params["component"] = component }
            let object = try daemon.call("audit.latest", params)
            // The daemon narrows findings by rule; the rows (and their counts) are narrowed here, as `--rule` promises.
            let audit = try decode(A11yEngine.Audit.self, from: object).filtered(rule: rule)
            switch format {
            case .json: try AuditJSON.write(audit, to: FileHandle.standardOutput)
            case .table: AuditTable(color: color.choice.enabled(), width: terminalWidth()).write(audit) { print($0, terminator: "") }
            }
            if audit.findings.contains(where: { $0.severity >= failOn.severity }) { throw ExitCode(Exit.findings) }
        }
    }

    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Stream audits live: a summary line per audit and every regression and resolution as it happens.",
            discussion: "Reconnects are cheap: pass --since ID to replay what happened after audit ID.")
        @OptionGroup var daemon: DaemonOptions
        @Option(help: "Replay stored audits after this id first.") var since: Int?
        @Option(help: "Output format: table (one line per event) or json (the JSON-RPC notifications, one per line).")
        var format: OutputFormat = .table
        /// The old spelling of `--format json`, kept so scripts keep working.
        @Flag(name: .customLong("json"), help: .hidden) var jsonAlias = false

        var json: Bool { format == .json || jsonAlias }

        @Flag(help: "Exit (69) when the daemon goes away instead of reconnecting.") var noReconnect = false

        func run() throws {
            // The last audit seen: a reconnect subscribes with `since` it, so nothing that happened meanwhile is missed.
            var clock = since
            // Written unbuffered so a pipe (`a11yctl watch | tee`) sees each event as it happens.
            let emit = { (message: [String: Any]) in
                if message["method"] as? String == "audit.completed", let id = (message["params"] as? [String: Any])?["id"] as? Int {
                    clock = max(clock ?? 0, id)
                }
                FileHandle.standardOutput.write(Data((line(for: message) + "\n").utf8))
            }
            var client = try daemon.connect()
            let socket = SocketLocation.resolve(explicit: daemon.socket)
            while true {
                do {
                    var params: [String: Any] = [:]
                    if let clock { params["since"] = clock }
                    let result = try client.call("subscribe", params, onNotification: emit) as? [String: Any]
                    if clock == nil { clock = result?["clock"] as? Int }
                    while let message = try client.receive() { emit(message) }
                } catch is DaemonUnavailable {
                    // Falls through to reconnecting, as a closed connection does.
                } catch let error as RPCError {
                    reportError(error.message)
                    throw ExitCode(Exit.usage)
                }
                guard !noReconnect else {
                    reportError("the daemon closed the connection")
                    throw ExitCode(exitUnavailable)
                }
                FileHandle.standardError.write(Data("a11yctl: the daemon closed the connection; reconnecting to \(socket)...\n".utf8))
                var delay = 0.1
                while true {
                    Thread.sleep(forTimeInterval: delay)
                    if let reconnected = try? RPCClient(socketPath: socket) {
                        client = reconnected
                        break
                    }
                    delay = min(delay * 2, 2)
                }
                FileHandle.standardError.write(Data("a11yctl: reconnected; replaying audits after #\(clock ?? 0)\n".utf8))
            }
        }

        func line(for message: [String: Any]) -> String {
            if json { return String(decoding: JSONLine.encode(message).dropLast(), as: UTF8.self) }
            let params = message["params"] as? [String: Any] ?? [:]
            switch message["method"] as? String {
            case "audit.completed":
                let summary = params["summary"] as? [String: Any] ?? [:]
                let regressions = params["regressions"] as? Int ?? 0, resolutions = params["resolutions"] as? Int ?? 0
                return "audit #\(params["id"] ?? "?") \(params["time"] ?? ""): \(counted(summary["pairs"] as? Int ?? 0, "pair")), "
                    + "\(summary["failingPairs"] ?? 0) failing, \(counted(summary["errors"] as? Int ?? 0, "error")) "
                    + "(\(counted(regressions, "regression")), \(counted(resolutions, "resolution")))"
            case "regression", "resolution":
                if let object = params["change"], let change = try? decode(AuditDiff.Change.self, from: object) {
                    return ChangeText.line(change)
                }
                return String(decoding: JSONLine.encode(message).dropLast(), as: UTF8.self)
            default:
                return String(decoding: JSONLine.encode(message).dropLast(), as: UTF8.self)
            }
        }
    }

    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "List stored audits, newest first.")
        @OptionGroup var daemon: DaemonOptions
        @Option(help: "How many audits.") var limit = 20
        @Option(help: "Output format: table or json.") var format: OutputFormat = .table

        func run() throws {
            let rows = try daemon.call("audit.history", ["limit": limit]) as? [[String: Any]] ?? []
            if format == .json { return printJSON(rows) }
            for row in rows {
                let summary = row["summary"] as? [String: Any] ?? [:]
                let changes = row["baseline"] as? Bool == true ? "(baseline)"
                    : "(+\(counted(row["regressions"] as? Int ?? 0, "regression")), -\(row["resolutions"] ?? 0) resolved)"
                // With themes, the failing pairs per theme ("sepia 3, night 1"), in the order the summary lists them.
                let byTheme = (summary["failingByTheme"] as? [String: Int]).map { counts in
                    " [" + counts.keys.sorted().map { "\($0) \(counts[$0]!)" }.joined(separator: ", ") + "]"
                } ?? ""
                print("#\(row["id"] ?? "?")  \(row["time"] ?? "")  \(counted(summary["failingPairs"] as? Int ?? 0, "failing pair"))\(byTheme), "
                    + "\(counted(summary["errors"] as? Int ?? 0, "error"))  \(changes)")
            }
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Show regressions and resolutions: of the latest audit, or between audits A and B.")
        @OptionGroup var daemon: DaemonOptions
        @Argument(help: "From audit id.") var from: Int?
        @Argument(help: "To audit id (default: the latest).") var to: Int?
        @Option(help: "Output format: table or json.") var format: OutputFormat = .table

        func run() throws {
            var params: [String: Any] = [:]
            if let from { params["from"] = from }
            if let to { params["to"] = to }
            let object = try daemon.call("audit.diff", params)
            if format == .json { return printJSON(object) }
            let diff = try decode(AuditDiff.self, from: object)
            print("audit \(diff.fromAudit.map(String.init) ?? "-") -> \(diff.toAudit.map(String.init) ?? "-"): "
                + (diff.fromAudit == nil && diff.isEmpty ? "baseline (the first audit)"
                    : "\(counted(diff.regressions.count, "regression")), \(counted(diff.resolutions.count, "resolution"))"))
            for c in diff.regressions + diff.resolutions { print(ChangeText.line(c)) }
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Ask the daemon to re-read everything and audit now.")
        @OptionGroup var daemon: DaemonOptions
        func run() throws {
            let result = try daemon.call("audit.run") as? [String: Any] ?? [:]
            let summary = result["summary"] as? [String: Any] ?? [:]
            print("audit #\(result["id"] ?? "?"): \(counted(summary["pairs"] as? Int ?? 0, "pair")), \(summary["failingPairs"] ?? 0) failing, "
                + counted(summary["errors"] as? Int ?? 0, "error"))
        }
    }

    struct Reload: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reload",
            abstract: "Ask the daemon to re-read .a11yd.yml and the policy, then audit.")
        @OptionGroup var daemon: DaemonOptions
        func run() throws {
            let result = try daemon.call("config.reload") as? [String: Any] ?? [:]
            print("configuration reloaded; audit #\(result["id"] ?? "?")")
        }
    }
}
