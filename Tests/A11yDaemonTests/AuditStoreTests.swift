@testable import A11yDaemon
import Foundation
import Testing

struct AuditStoreTests {
    static func stored(_ id: Int) -> StoredAudit {
        StoredAudit(id: id, createdAt: "t\(id)", inputDigest: "d\(id)", summaryJSON: "{}", auditJSON: "{\"id\":\(id)}", diffJSON: "{}")
    }

    @Test func appendLatestHistorySinceAndRetention() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try AuditStore(path: dir + "/audits.sqlite", retention: 5)
        #expect(try store.latest() == nil)
        #expect(try store.nextID() == 1)
        for id in 1...8 { try store.append(Self.stored(id)) }
        #expect(try store.latest()?.id == 8)
        #expect(try store.count() == 5) // retention keeps the last 5
        #expect(try store.history(limit: 3).map(\.id) == [8, 7, 6])
        #expect(try store.history(limit: 3, before: 6).map(\.id) == [5, 4])
        #expect(try store.since(6).map(\.id) == [7, 8])
        #expect(try store.audit(id: 2) == nil)
        #expect(try store.nextID() == 9)
        // Reopening sees everything (WAL is checkpointed or replayed by SQLite).
        let reopened = try AuditStore(path: dir + "/audits.sqlite", retention: 5)
        #expect(try reopened.latest()?.auditJSON == "{\"id\":8}")
        let mode = try String(contentsOfFile: dir + "/audits.sqlite-wal", encoding: .isoLatin1)
        #expect(!mode.isEmpty) // WAL mode is on
    }

    @Test func duplicateIDIsRejectedAndNothingPartialIsStored() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try AuditStore(path: dir + "/audits.sqlite")
        try store.append(Self.stored(1))
        #expect(throws: StoreError.self) { try store.append(Self.stored(1)) }
        #expect(try store.count() == 1)
    }

    static func mode(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_mode & 0o777) : -1
    }

    @Test func historyAndItsWALArePrivateWhateverTheUmask() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let previous = umask(0o022)
        defer { umask(previous) }
        let store = try AuditStore(path: dir + "/state/audits.sqlite")
        try store.append(Self.stored(1))
        #expect(Self.mode(dir + "/state") == 0o700)
        #expect(Self.mode(dir + "/state/audits.sqlite") == 0o600)
        #expect(Self.mode(dir + "/state/audits.sqlite-wal") == 0o600)
        #expect(Self.mode(dir + "/state/audits.sqlite-shm") == 0o600)
    }

    @Test func aStateDirectoryOthersCanWriteIsRefusedWithWhatToDo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(dir, 0o777)
        #expect { try AuditStore(path: dir + "/audits.sqlite") } throws: { error in
            "\(error)".contains("writable by other users") && "\(error)".contains("chmod 700")
        }
    }

    @Test func aCorruptHistoryIsMovedAsideAndAFreshOneKept() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // A history overwritten with random bytes (as `dd if=/dev/urandom` would).
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try garbage.write(to: URL(fileURLWithPath: dir + "/audits.sqlite"))
        let store = try AuditStore(path: dir + "/audits.sqlite", now: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(store.movedAside == dir + "/audits.sqlite.corrupt-1700000000")
        #expect(FileManager.default.contents(atPath: dir + "/audits.sqlite.corrupt-1700000000") == garbage)
        try store.append(Self.stored(1))
        #expect(try store.latest()?.id == 1)
        // The fresh history is a normal one: reopening it moves nothing.
        #expect(try AuditStore(path: dir + "/audits.sqlite").movedAside == nil)
    }
}
