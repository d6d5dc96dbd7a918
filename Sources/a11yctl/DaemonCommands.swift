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
        static let configuration = CommandConfiguration(abstract: "Show what the running daemon watches and its latest audit summary.")
        @OptionGroup var daemon: DaemonOptions
        @Option(help: "Output format: table or json.") var format: OutputFormat = .table

        func run() throws {
            let status = try daemon.call("status") as? [String: Any] ?? [:]
            if format == .json { return printJSON(status) }
            print("a11yd \(status["version"] ?? "?") (pid \(status["pid"] ?? "?")) watching \(status["root"] ?? "?")")
            print("audit #\(status["auditId"] ?? "-") at \(status["time"] ?? "-"): \(status["statusLine"] ?? "no audit yet")")
            print("policy \(status["policy"] ?? "?"); \(status["clients"] ?? 0) client(s), \(status["subscribers"] ?? 0) subscriber(s); socket \(status["socket"] ?? "?")")
        }
    }

    struct Latest: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the daemon's latest audit (same table and JSON as `audit`).")
        @OptionGroup var daemon: DaemonOptions
        @Option(help: "Output format: table or json.") var format: OutputFormat = .table
        @Option(help: "Only this appearance (light, dark, lightHighContrast, darkHighContrast).") var appearance: String?
        @Option(help: "Only findings of this rule (or rule prefix, e.g. contrast).") var rule: String?
        @Option(help: "Only findings at or above this severity.") var severity: String?
        @Option(help: "Only this component.") var component: String?
        @Option(help: "Colored output: auto, always, never.") var color: ColorArgument = .auto

        func run() throws {
            var params: [String: Any] = [:]
            if let appearance { params["appearance"] = appearance }
            if let rule { params["rule"] = rule }
            if let severity { params["severity"] = severity }
            if let component { params["component"] = component }
            let object = try daemon.call("audit.latest", params)
            switch format {
            case .json: printJSON(object)
            case .table: print(AuditTable(color: color.choice.enabled()).render(try decode(A11yEngine.Audit.self, from: object)), terminator: "")
            }
        }
    }

    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stream audits live: a summary line per audit and every regression and resolution as it happens.",
            discussion: "Reconnects are cheap: pass --since ID to replay what happened after audit ID.")
        @OptionGroup var daemon: DaemonOptions
        @Option(help: "Replay stored audits after this id first.") var since: Int?
        @Flag(help: "Print the raw JSON-RPC notifications, one per line.") var json = false

        func run() throws {
            let client = try daemon.connect()
            var params: [String: Any] = [:]
            if let since { params["since"] = since }
            // Written unbuffered so a pipe (`a11yctl watch | tee`) sees each event as it happens.
            let emit = { (message: [String: Any]) in FileHandle.standardOutput.write(Data((line(for: message) + "\n").utf8)) }
            _ = try client.call("subscribe", params, onNotification: emit)
            while let message = try client.receive() { emit(message) }
            reportError("the daemon closed the connection")
            throw ExitCode(exitUnavailable)
        }

        func line(for message: [String: Any]) -> String {
            if json { return String(decoding: JSONLine.encode(message).dropLast(), as: UTF8.self) }
            let params = message["params"] as? [String: Any] ?? [:]
            switch message["method"] as? String {
            case "audit.completed":
                let summary = params["summary"] as? [String: Any] ?? [:]
                return "audit #\(params["id"] ?? "?") \(params["time"] ?? ""): \(summary["pairs"] ?? 0) pairs, \(summary["failingPairs"] ?? 0) failing, \(summary["errors"] ?? 0) errors (\(params["regressions"] ?? 0) regressions, \(params["resolutions"] ?? 0) resolutions)"
            case "regression", "resolution":
                let change = params["change"] as? [String: Any] ?? [:]
                let location = (change["location"] as? [String: Any]).map { "\($0["file"] ?? ""):\($0["line"] ?? 0)" } ?? "-"
                let label = message["method"] as? String == "regression" ? "REGRESSION" : "resolved  "
                return "  \(label) [\(change["rule"] ?? "")] \(change["message"] ?? "") at \(location)"
            default:
                return String(decoding: JSONLine.encode(message).dropLast(), as: UTF8.self)
            }
        }
    }

    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List stored audits, newest first.")
        @OptionGroup var daemon: DaemonOptions
        @Option(help: "How many audits.") var limit = 20
        @Option(help: "Output format: table or json.") var format: OutputFormat = .table

        func run() throws {
            let rows = try daemon.call("audit.history", ["limit": limit]) as? [[String: Any]] ?? []
            if format == .json { return printJSON(rows) }
            for row in rows {
                let summary = row["summary"] as? [String: Any] ?? [:]
                print("#\(row["id"] ?? "?")  \(row["time"] ?? "")  \(summary["failingPairs"] ?? 0) failing pairs, \(summary["errors"] ?? 0) errors  (+\(row["regressions"] ?? 0) regressions, -\(row["resolutions"] ?? 0) resolved)")
            }
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show regressions and resolutions: of the latest audit, or between audits A and B.")
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
            print("audit \(diff.fromAudit.map(String.init) ?? "-") -> \(diff.toAudit.map(String.init) ?? "-"): \(diff.regressions.count) regressions, \(diff.resolutions.count) resolutions")
            for c in diff.regressions { print("  REGRESSION [\(c.rule)] \(c.message)" + (c.location.map { " at \($0)" } ?? "")) }
            for c in diff.resolutions { print("  resolved   [\(c.rule)] \(c.subject)\(c.appearance.map { " (\($0.rawValue))" } ?? "")") }
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask the daemon to re-read everything and audit now.")
        @OptionGroup var daemon: DaemonOptions
        func run() throws {
            let result = try daemon.call("audit.run") as? [String: Any] ?? [:]
            let summary = result["summary"] as? [String: Any] ?? [:]
            print("audit #\(result["id"] ?? "?"): \(summary["pairs"] ?? 0) pairs, \(summary["failingPairs"] ?? 0) failing, \(summary["errors"] ?? 0) errors")
        }
    }

    struct Reload: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask the daemon to re-read .a11yd.yml and the policy, then audit.")
        @OptionGroup var daemon: DaemonOptions
        func run() throws {
            let result = try daemon.call("config.reload") as? [String: Any] ?? [:]
            print("configuration reloaded; audit #\(result["id"] ?? "?")")
        }
    }
}
