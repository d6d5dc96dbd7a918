import A11yClient
import Foundation
import Glibc

/// A JSON value crossing threads; JSONSerialization values are immutable once built.
struct UncheckedJSON: @unchecked Sendable {
    let value: Any
}

public struct ServerError: Error, CustomStringConvertible {
    public var description: String
}

/// JSON-RPC 2.0 over a Unix stream socket, one message per line. One thread polls the listening socket, every
/// client and a wake pipe: requests go to the handler, which answers whenever it is ready (possibly on another
/// thread); responses and notifications are queued per client and written when the socket is writable, so a
/// slow client never blocks the daemon or other clients.
public final class RPCServer: @unchecked Sendable {
    public typealias ClientID = Int
    /// Called on the server thread; must not block. Call `respond` exactly once, from any thread.
    public typealias Handler = (ClientID, String, [String: Any], @escaping @Sendable (Result<Any, RPCError>) -> Void) -> Void

    public struct Limits: Sendable {
        public var maxMessageBytes = 1 << 20
        public var maxClients = 64
        /// Bytes queued for one client before it is considered too slow and dropped.
        public var maxQueuedBytes = 8 << 20
        public init() {}
    }

    private final class Client {
        let fd: Int32
        var input = Data()
        var output: [Data] = []
        var queuedBytes = 0
        /// Close once the output queue is flushed (after a final error).
        var closeAfterFlush = false
        init(fd: Int32) { self.fd = fd }
    }

    public let path: String?
    public let limits: Limits
    private let listenFD: Int32
    private var wakePipe: [Int32] = [-1, -1]
    private let lock = NSLock()
    private var clients: [ClientID: Client] = [:]
    private var nextClientID = 1
    private var running = false
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    private var handler: Handler?
    /// Called (on the server thread) when a client goes away, so subscriptions can be dropped.
    public var onDisconnect: (@Sendable (ClientID) -> Void)?

    /// Binds `path` (directory 0700, socket 0600). A stale socket from a crashed daemon is replaced; a live daemon
    /// on the same path is an error.
    public static func bind(path: String, limits: Limits = Limits()) throws -> RPCServer {
        let directory = (path as NSString).deletingLastPathComponent
        for mine in SocketLocation.privateDirectories(of: path) {
            if let problem = SocketLocation.untrustedDirectoryProblem(mine) {
                throw ServerError(description: "refusing to serve \(path): \(problem)")
            }
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for mine in SocketLocation.privateDirectories(of: path) { chmod(mine, 0o700) }
        if FileManager.default.fileExists(atPath: path) {
            if (try? RPCClient(socketPath: path)) != nil {
                throw ServerError(description: "another a11yd is already serving \(path); stop it first (or use --socket)")
            }
            unlink(path) // stale: nobody answers
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServerError(description: "socket(): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw ServerError(description: "socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        // The socket file is created 0600 from the start: no window in which another user could connect.
        let previous = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(previous)
        guard bound == 0, listen(fd, 64) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw ServerError(description: "cannot listen on \(path): \(message)")
        }
        return RPCServer(listeningFD: fd, path: path, limits: limits)
    }

    /// Adopts an already listening socket (systemd socket activation passes it as fd 3).
    public init(listeningFD: Int32, path: String? = nil, limits: Limits = Limits()) {
        self.listenFD = listeningFD
        self.path = path
        self.limits = limits
        _ = fcntl(listeningFD, F_SETFL, fcntl(listeningFD, F_GETFL) | O_NONBLOCK)
        _ = pipe(&wakePipe)
        for fd in wakePipe { Self.setNonBlockingCloseOnExec(fd) }
    }

    /// `struct ucred` (socket(7)); Glibc's module hides it behind _GNU_SOURCE.
    struct PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = UInt32.max
        var gid: UInt32 = UInt32.max
    }
    /// SO_PEERCRED on Linux (asm-generic/socket.h).
    static let peerCredentialsOption: Int32 = 17

    static func setNonBlockingCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }

    public func start(handler: @escaping Handler) {
        self.handler = handler
        lock.withLock { running = true }
        let thread = Thread { [self] in loop() }
        thread.name = "a11yd.rpc"
        self.thread = thread
        thread.start()
    }

    /// Stops serving, closes every client and removes the socket file (when this server created it).
    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        wake()
        finished.wait()
        for client in lock.withLock({ Array(clients.values) }) { close(client.fd) }
        lock.withLock { clients.removeAll() }
        close(listenFD)
        if let path { unlink(path) }
        close(wakePipe[0])
        close(wakePipe[1])
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakePipe[1], &byte, 1)
    }

    public var clientCount: Int { lock.withLock { clients.count } }

    /// False once a client disconnected or was dropped: its pending requests need no work.
    public func isServing(_ client: ClientID) -> Bool { lock.withLock { clients[client].map { !$0.closeAfterFlush } ?? false } }

    /// Queues a message for a client (thread-safe). A client whose queue exceeds the limit is dropped with a final
    /// error notification instead of holding memory or stalling anyone.
    public func send(_ client: ClientID, _ message: [String: Any]) {
        let data = JSONLine.encode(message)
        let dropped = lock.withLock { () -> Bool in
            guard let c = clients[client], !c.closeAfterFlush else { return false }
            if c.queuedBytes + data.count > limits.maxQueuedBytes {
                c.output = [JSONLine.encode(JSONLine.notification("error", [
                    "code": -32000, "message": "client too slow: \(c.queuedBytes) bytes unread; disconnected",
                ]))]
                c.queuedBytes = c.output[0].count
                c.closeAfterFlush = true
                return true
            }
            c.output.append(data)
            c.queuedBytes += data.count
            return false
        }
        // A dropped client gets nothing more; its subscriptions end now, not when it finally reads.
        if dropped { onDisconnect?(client) }
        wake()
    }

    // MARK: - Server thread

    private func loop() {
        defer { finished.signal() }
        while lock.withLock({ running }) {
            let snapshot: [(ClientID, Client)] = lock.withLock { clients.map { ($0.key, $0.value) } }
            var fds = [pollfd(fd: wakePipe[0], events: Int16(POLLIN), revents: 0), pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)]
            for (_, c) in snapshot {
                let wantsWrite = lock.withLock { !c.output.isEmpty }
                fds.append(pollfd(fd: c.fd, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0))
            }
            // Block until something happens: no timeout, no polling when idle.
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[0].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 256)
                while read(wakePipe[0], &sink, sink.count) > 0 {}
            }
            if fds[1].revents & Int16(POLLIN) != 0 { acceptClients() }
            for (index, (id, client)) in snapshot.enumerated() {
                let revents = fds[index + 2].revents
                if revents & Int16(POLLOUT) != 0 { flush(id, client) }
                if revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 { readFrom(id, client) }
            }
        }
    }

    private func acceptClients() {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 { return }
            Self.setNonBlockingCloseOnExec(fd)
            // Only the daemon's own user may talk to it (SO_PEERCRED).
            var credentials = PeerCredentials()
            var length = socklen_t(MemoryLayout<PeerCredentials>.size)
            guard getsockopt(fd, SOL_SOCKET, Self.peerCredentialsOption, &credentials, &length) == 0, credentials.uid == getuid() else {
                close(fd)
                continue
            }
            let full = lock.withLock { clients.count >= limits.maxClients }
            if full {
                let message = JSONLine.encode(JSONLine.response(id: NSNull(), error: .serverError("too many clients (\(limits.maxClients))")))
                _ = message.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                continue
            }
            lock.withLock {
                clients[nextClientID] = Client(fd: fd)
                nextClientID += 1
            }
        }
    }

    private func disconnect(_ id: ClientID, _ client: Client) {
        let removed = lock.withLock { clients.removeValue(forKey: id) != nil }
        guard removed else { return }
        close(client.fd)
        onDisconnect?(id)
    }

    private func flush(_ id: ClientID, _ client: Client) {
        while true {
            guard let chunk = lock.withLock({ client.output.first }) else { break }
            let written = chunk.withUnsafeBytes { write(client.fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EAGAIN || errno == EINTR { return }
                return disconnect(id, client)
            }
            lock.withLock {
                client.queuedBytes -= written
                if written == chunk.count { client.output.removeFirst() } else { client.output[0] = chunk.dropFirst(written) }
            }
            if written < chunk.count { return }
        }
        if lock.withLock({ client.closeAfterFlush && client.output.isEmpty }) { disconnect(id, client) }
    }

    private func readFrom(_ id: ClientID, _ client: Client) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(client.fd, &chunk, chunk.count)
            if n < 0 {
                if errno == EAGAIN { break }
                if errno == EINTR { continue }
                return disconnect(id, client)
            }
            if n == 0 { return disconnect(id, client) }
            client.input.append(contentsOf: chunk[0..<n])
            while let newline = client.input.firstIndex(of: 0x0A) {
                // A dropped client's remaining requests are not served (a subscribe among them would subscribe it again).
                if lock.withLock({ client.closeAfterFlush }) { client.input.removeAll(); break }
                let line = Data(client.input[client.input.startIndex..<newline])
                client.input.removeSubrange(client.input.startIndex...newline)
                if line.count > limits.maxMessageBytes { return reject(id, client, size: line.count) }
                handle(line, from: id)
            }
            if client.input.count > limits.maxMessageBytes { return reject(id, client, size: client.input.count) }
        }
    }

    /// An oversized message gets an error and the connection is closed: its remainder cannot be resynchronised.
    private func reject(_ id: ClientID, _ client: Client, size: Int) {
        client.input.removeAll()
        send(id, JSONLine.response(id: NSNull(), error: .invalidRequest("message of \(size) bytes exceeds the \(limits.maxMessageBytes)-byte limit")))
        lock.withLock { client.closeAfterFlush = true }
        flush(id, client)
    }

    /// One request line, decoded and validated (pure: the fuzz target calls it directly).
    public enum DecodedRequest {
        case blank
        case request(id: Any?, method: String, params: [String: Any])
        /// An error response to send (with the request's id when it could be read).
        case invalid(id: Any, error: RPCError)
    }

    public static func decodeRequest(_ line: Data) -> DecodedRequest {
        let trimmed = line.filter { $0 != 0x0D }
        if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .blank }
        guard let object = try? JSONSerialization.jsonObject(with: trimmed) else {
            return .invalid(id: NSNull(), error: .parseError("not valid JSON"))
        }
        guard let request = object as? [String: Any] else {
            return .invalid(id: NSNull(), error: .invalidRequest("expected a JSON object (batches are not supported)"))
        }
        let id = request["id"]
        guard request["jsonrpc"] as? String == "2.0", let method = request["method"] as? String else {
            return .invalid(id: id ?? NSNull(), error: .invalidRequest("needs \"jsonrpc\": \"2.0\" and a \"method\" string"))
        }
        if let id, !(id is String || id is NSNumber || id is NSNull) {
            return .invalid(id: NSNull(), error: .invalidRequest("id must be a string, a number or null"))
        }
        var params: [String: Any] = [:]
        if let p = request["params"] {
            guard let dictionary = p as? [String: Any] else {
                return .invalid(id: id ?? NSNull(), error: .invalidParams("params must be an object"))
            }
            params = dictionary
        }
        return .request(id: id, method: method, params: params)
    }

    private func handle(_ line: Data, from client: ClientID) {
        let id: Any?, method: String, params: [String: Any]
        switch Self.decodeRequest(line) {
        case .blank: return
        case .invalid(let errorID, let error): return send(client, JSONLine.response(id: errorID, error: error))
        case .request(let requestID, let requestMethod, let requestParams): (id, method, params) = (requestID, requestMethod, requestParams)
        }
        let isNotification = id == nil
        let responseID = UncheckedJSON(value: id ?? NSNull())
        handler?(client, method, params) { [weak self] result in
            guard let self, !isNotification else { return }
            switch result {
            case .success(let value): self.send(client, JSONLine.response(id: responseID.value, result: value))
            case .failure(let error): self.send(client, JSONLine.response(id: responseID.value, error: error))
            }
        }
    }
}
