import Foundation
import Glibc

public struct DaemonUnavailable: Error, CustomStringConvertible {
    public var socket: String
    public var reason: String
    public var description: String {
        "no a11yd is answering on \(socket) (\(reason)); start one with `a11yd --root PATH` "
            + "or start the a11yd.socket systemd user unit"
    }
}

/// A JSON-RPC client over the daemon's Unix socket, one message per line.
public final class RPCClient {
    private let fd: Int32
    private var buffer = Data()
    private var nextID = 1
    public let socketPath: String

    public init(socketPath: String) throws {
        self.socketPath = socketPath
        for directory in SocketLocation.privateDirectories(of: socketPath) {
            if let problem = SocketLocation.untrustedDirectoryProblem(directory) {
                throw DaemonUnavailable(socket: socketPath, reason: "refusing to connect: \(problem)")
            }
        }
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DaemonUnavailable(socket: socketPath, reason: String(cString: strerror(errno))) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw DaemonUnavailable(socket: socketPath, reason: "socket path too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw DaemonUnavailable(socket: socketPath, reason: reason)
        }
    }

    deinit { close(fd) }

    public func send(_ message: [String: Any]) throws {
        let data = JSONLine.encode(message)
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress!.advanced(by: offset), raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw DaemonUnavailable(socket: socketPath, reason: "write failed: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }

    /// The next message from the daemon (a response or a notification); nil when the daemon closed the connection.
    public func receive() throws -> [String: Any]? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                    throw RPCError.parseError("the daemon sent invalid JSON")
                }
                return object
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw DaemonUnavailable(socket: socketPath, reason: "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Calls a method and waits for its response (notifications arriving meanwhile go to `onNotification`).
    public func call(_ method: String, _ params: [String: Any] = [:], onNotification: (([String: Any]) -> Void)? = nil) throws -> Any {
        let id = nextID
        nextID += 1
        try send(["jsonrpc": "2.0", "id": id, "method": method, "params": params])
        while let message = try receive() {
            if message["id"] == nil, message["method"] != nil {
                onNotification?(message)
                continue
            }
            guard (message["id"] as? Int) == id else { continue }
            if let error = message["error"] as? [String: Any] {
                throw RPCError(code: error["code"] as? Int ?? -32603, message: error["message"] as? String ?? "unknown error")
            }
            return message["result"] ?? NSNull()
        }
        throw DaemonUnavailable(socket: socketPath, reason: "the daemon closed the connection")
    }
}
