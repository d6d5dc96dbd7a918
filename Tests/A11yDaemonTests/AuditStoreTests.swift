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
}
