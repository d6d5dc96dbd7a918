import CSQLite
import Foundation

public struct StoreError: Error, CustomStringConvertible {
    public var description: String
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
/// nothing that `append` reported as stored. Not thread-safe: the daemon uses it from its audit queue only.
public final class AuditStore {
    private var db: OpaquePointer?
    public let path: String
    public let retention: Int

    /// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    public init(path: String, retention: Int = 500) throws {
        self.path = path
        self.retention = max(retention, 1)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw StoreError(description: "cannot open \(path): \(message)")
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
        guard sqlite3_exec(db, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw StoreError(description: "\(path): \(message)")
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
