import Foundation

/// JSON-RPC 2.0 error (https://www.jsonrpc.org/specification#error_object).
public struct RPCError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public static func parseError(_ m: String) -> RPCError { RPCError(code: -32700, message: "Parse error: \(m)") }
    public static func invalidRequest(_ m: String) -> RPCError { RPCError(code: -32600, message: "Invalid Request: \(m)") }
    public static func methodNotFound(_ m: String) -> RPCError { RPCError(code: -32601, message: "Method not found: \(m)") }
    public static func invalidParams(_ m: String) -> RPCError { RPCError(code: -32602, message: "Invalid params: \(m)") }
    public static func internalError(_ m: String) -> RPCError { RPCError(code: -32603, message: "Internal error: \(m)") }
    /// Implementation-defined server errors use -32000 to -32099.
    public static func serverError(_ m: String) -> RPCError { RPCError(code: -32000, message: m) }

    public var json: [String: Any] { ["code": code, "message": message] }
    public var description: String { "\(message) (\(code))" }
}

/// One JSON message per line: compact, sorted keys, newline-terminated.
public enum JSONLine {
    public static func encode(_ object: Any) -> Data {
        var data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"error":{"code":-32603,"message":"Internal error: unencodable message"},"id":null,"jsonrpc":"2.0"}"#.utf8)
        data.append(0x0A)
        return data
    }

    /// An Encodable value as a JSON object tree (to embed in a message).
    public static func object<T: Encodable>(_ value: T) -> Any {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value), let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return NSNull()
        }
        return object
    }

    public static func response(id: Any, result: Any) -> [String: Any] { ["jsonrpc": "2.0", "id": id, "result": result] }
    public static func response(id: Any, error: RPCError) -> [String: Any] { ["jsonrpc": "2.0", "id": id, "error": error.json] }
    public static func notification(_ method: String, _ params: Any) -> [String: Any] { ["jsonrpc": "2.0", "method": method, "params": params] }
}

/// Where the daemon's socket is: `--socket`, then `$A11YD_SOCKET`, then `$XDG_RUNTIME_DIR/a11yd/a11yd.sock`.
public enum SocketLocation {
    public static func resolve(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let env = environment["A11YD_SOCKET"], !env.isEmpty { return env }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp/a11yd-\(getuid())"
        return runtime + "/a11yd/a11yd.sock"
    }

    /// Why a socket directory must not be trusted, or nil: it belongs to another user, or others can write to it
    /// (anyone could then put their own socket there). Both the daemon and its clients check, so the `/tmp` fallback
    /// (no `XDG_RUNTIME_DIR`) cannot be hijacked by pre-creating the directory.
    public static func untrustedDirectoryProblem(_ directory: String) -> String? {
        var info = stat()
        guard stat(directory, &info) == 0 else { return nil } // not there yet: whoever creates it owns it
        if info.st_uid != getuid() {
            return "\(directory) belongs to another user (uid \(info.st_uid)), not to you (uid \(getuid()))"
        }
        if info.st_mode & 0o022 != 0 {
            return "\(directory) is writable by other users (mode \(String(info.st_mode & 0o777, radix: 8))); run `chmod 700 \(directory)`"
        }
        return nil
    }

    /// The socket's directory and, for the `/tmp/a11yd-$UID` fallback, its parent: every directory we created.
    public static func privateDirectories(of socketPath: String) -> [String] {
        let directory = (socketPath as NSString).deletingLastPathComponent
        let parent = (directory as NSString).deletingLastPathComponent
        return parent.hasPrefix("/tmp/a11yd-") ? [parent, directory] : [directory]
    }
}
