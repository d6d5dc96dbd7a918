import CSQLite
import Foundation

public struct StoreError: Error, CustomStringConvertible {
    public var description: String
    /// SQLite's result code, when SQLite reported the error.
    public var code: Int32 = 0

    /// The state directory is not private (another user's, or writable by others): keeping history there is refused,
    /// unlike a directory that cannot be written, where audits are served from memory.
    public var isRefusal = false

    /// The file is not a database or is damaged (SQLITE_NOTADB, SQLITE_CORRUPT).
    var isCorruption: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }
}

/// One stored audit: its id is the daemon's clock.
public struct StoredAudit: Sendable, Hashable {
    public var id: Int
    public var createdAt: String
    public var inputDigest: String
    public var summaryJSON: String
    public var auditJSON: String
    public var diffJSON: String
}

/// Durable audit history in SQLite (WAL). Each append is one transaction, so a `kill -9` at any moment loses
/// nothing that `append` reported as stored. One caller at a time: the daemon appends on its store queue and reads on
/// its audit queue only after waiting for the store queue (and only the audit queue enqueues appends), so the two never
/// overlap; the connection is also opened serialized (`SQLITE_OPEN_FULLMUTEX`).
public final class AuditStore: @unchecked Sendable {
    private var db: OpaquePointer?
    public let path: String
    public let retention: Int

    /// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Set when the history file was not a database (or was corrupt) at start-up: where it was moved aside. The daemon
    /// logs it and shows it in `status`; a fresh history is kept from then on.
    public private(set) var movedAside: String?

    public init(path: String, retention: Int = 500, now: Date = Date()) throws {
        self.path = path
        self.retention = max(retention, 1)
        try Self.preparePrivateDirectory((path as NSString).deletingLastPathComponent)
        do {
            try open()
        } catch let error as StoreError where error.isCorruption {
            // A history that is not a database must not stop the daemon (under Restart=on-failure that is a crash loop):
            // keep it for inspection and start a fresh one.
            sqlite3_close(db)
            db = nil
            let stamp = Int(now.timeIntervalSince1970)
            let aside = path + ".corrupt-\(stamp)"
            try? FileManager.default.removeItem(atPath: aside)
            try FileManager.default.moveItem(atPath: path, toPath: aside)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix) }
            movedAside = aside
            try open()
        }
    }

    /// The state directory: created 0700; refused when another user owns it or others can write to it.
    static func preparePrivateDirectory(_ directory: String) throws {
        let fm = FileManager.default
        if !fm.fileExists(atPath: directory) {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        var info = stat()
        guard stat(directory, &info) == 0 else { throw StoreError(description: "cannot stat \(directory): \(String(cString: strerror(errno)))") }
        guard info.st_uid == getuid() else {
            throw StoreError(description: "\(directory) belongs to another user (uid \(info.st_uid)); refusing to keep history there",
                             isRefusal: true)
        }
        guard info.st_mode & 0o022 == 0 else {
            throw StoreError(description: "\(directory) is writable by other users (mode \(String(info.st_mode & 0o777, radix: 8))); run `chmod 700 \(directory)`",
                             isRefusal: true)
        }
    }

    private func open() throws {
        // The history holds file paths and design values: 0600, and SQLite gives its -wal and -shm files the same mode.
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw StoreError(description: "cannot create \(path): \(String(cString: strerror(errno)))")
            }
        }
        chmod(path, 0o600)
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            throw StoreError(description: "cannot open \(path): \(message)", code: db.map { sqlite3_errcode($0) } ?? 0)
        }
        sqlite3_busy_timeout(db, 5000)
        // WAL: readers never block the writer; synchronous=NORMAL is durable against process crashes (kill -9).
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        try execute("""
            CREATE TABLE IF NOT EXISTS audits (
                id INTEGER PRIMARY KEY,
                created_at TEXT NOT NULL,
                input_digest TEXT NOT NULL,
                summary TEXT NOT NULL,
                audit TEXT NOT NULL,
                diff TEXT NOT NULL
            )
            """)
    }

    deinit { sqlite3_close(db) }

    private func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(db, sql, nil, nil, &error)
        guard result == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw StoreError(description: "\(path): \(message)", code: result)
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw StoreError(description: "\(path): \(String(cString: sqlite3_errmsg(db)))")
        }
        return statement
    }

    /// The next audit id (one more than the highest stored): ids keep increasing across restarts.
    public func nextID() throws -> Int {
        let statement = try prepare("SELECT COALESCE(MAX(id), 0) + 1 FROM audits")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw StoreError(description: String(cString: sqlite3_errmsg(db))) }
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// Stores an audit and prunes beyond the retention limit, in one transaction.
    public func append(_ audit: StoredAudit) throws {
        try execute("BEGIN IMMEDIATE")
        do {
            let insert = try prepare("INSERT INTO audits (id, created_at, input_digest, summary, audit, diff) VALUES (?, ?, ?, ?, ?, ?)")
            defer { sqlite3_finalize(insert) }
            sqlite3_bind_int64(insert, 1, Int64(audit.id))
            for (index, text) in [audit.createdAt, audit.inputDigest, audit.summaryJSON, audit.auditJSON, audit.diffJSON].enumerated() {
                sqlite3_bind_text(insert, Int32(index + 2), text, -1, Self.transient)
            }
            guard sqlite3_step(insert) == SQLITE_DONE else { throw StoreError(description: String(cString: sqlite3_errmsg(db))) }
            let prune = try prepare("DELETE FROM audits WHERE id <= (SELECT MAX(id) FROM audits) - ?")
            defer { sqlite3_finalize(prune) }
            sqlite3_bind_int64(prune, 1, Int64(retention))
            guard sqlite3_step(prune) == SQLITE_DONE else { throw StoreError(description: String(cString: sqlite3_errmsg(db))) }
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func rows(_ sql: String, _ bind: (OpaquePointer?) -> Void = { _ in }) throws -> [StoredAudit] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        bind(statement)
        var result: [StoredAudit] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw StoreError(description: String(cString: sqlite3_errmsg(db))) }
            func text(_ column: Int32) -> String { sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "" }
            result.append(StoredAudit(id: Int(sqlite3_column_int64(statement, 0)), createdAt: text(1), inputDigest: text(2),
                                      summaryJSON: text(3), auditJSON: text(4), diffJSON: text(5)))
        }
        return result
    }

    static let columns = "id, created_at, input_digest, summary, audit, diff"

    public func latest() throws -> StoredAudit? {
        try rows("SELECT \(Self.columns) FROM audits ORDER BY id DESC LIMIT 1").first
    }

    public func audit(id: Int) throws -> StoredAudit? {
        try rows("SELECT \(Self.columns) FROM audits WHERE id = ?") { sqlite3_bind_int64($0, 1, Int64(id)) }.first
    }

    /// Newest first; `before` pages backwards.
    public func history(limit: Int, before: Int? = nil) throws -> [StoredAudit] {
        try rows("SELECT \(Self.columns) FROM audits WHERE id < ? ORDER BY id DESC LIMIT ?") {
            sqlite3_bind_int64($0, 1, Int64(before ?? Int.max))
            sqlite3_bind_int64($0, 2, Int64(max(limit, 0)))
        }
    }

    /// Audits after a clock value, oldest first (what a reconnecting subscriber missed).
    public func since(_ id: Int, limit: Int = 1000) throws -> [StoredAudit] {
        try rows("SELECT \(Self.columns) FROM audits WHERE id > ? ORDER BY id ASC LIMIT ?") {
            sqlite3_bind_int64($0, 1, Int64(id))
            sqlite3_bind_int64($0, 2, Int64(limit))
        }
    }

    public func count() throws -> Int {
        let statement = try prepare("SELECT COUNT(*) FROM audits")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return 0 }
        return Int(sqlite3_column_int64(statement, 0))
    }
}
