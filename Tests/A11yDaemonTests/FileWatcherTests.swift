@testable import A11yDaemon
import Foundation
import Testing

/// Real inotify in a temporary directory. Serialized: libinotifytools is one global instance per process.
@Suite(.serialized)
struct FileWatcherTests {
    final class Collector: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [WatchEvent] = []
        func add(_ e: WatchEvent) { lock.withLock { events.append(e) } }
        var all: [WatchEvent] { lock.withLock { events } }
        var changed: Set<String> {
            var paths: Set<String> = []
            for case .changed(let p) in all { paths.formUnion(p) }
            return paths
        }
        var rescans: Int {
            var count = 0
            for case .rescan in all { count += 1 }
            return count
        }

        /// Waits (without busy looping) until `condition` holds or the timeout passes.
        func wait(timeout: TimeInterval = 3, _ condition: (Collector) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if condition(self) { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return condition(self)
        }
    }

    static func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func withWatcher(_ body: (String, Collector) throws -> Void) throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "let a = 1\n".write(toFile: dir + "/Tokens.swift", atomically: false, encoding: .utf8)
        let collector = Collector()
        let watcher = FileWatcher(root: dir) { collector.add($0) }
        try watcher.start()
        defer { watcher.stop() }
        try body(dir, collector)
    }

    @Test func atomicRenameSaveOntoAWatchedNameIsSeen() throws {
        try withWatcher { dir, events in
            try "let a = 2\n".write(toFile: dir + "/.Tokens.swift.tmp", atomically: false, encoding: .utf8)
            #expect(rename(dir + "/.Tokens.swift.tmp", dir + "/Tokens.swift") == 0)
            #expect(events.wait { $0.changed.contains("Tokens.swift") })
            #expect(!events.changed.contains(".Tokens.swift.tmp"))
        }
    }

    @Test func deleteAndRecreateAreSeen() throws {
        try withWatcher { dir, events in
            try FileManager.default.removeItem(atPath: dir + "/Tokens.swift")
            #expect(events.wait { $0.changed.contains("Tokens.swift") })
            try "let a = 3\n".write(toFile: dir + "/Tokens.swift", atomically: false, encoding: .utf8)
            #expect(events.wait { $0.all.count >= 2 })
        }
    }

    @Test func newSubdirectoryIsWatchedAndDirectoryRenameRescans() throws {
        try withWatcher { dir, events in
            try FileManager.default.createDirectory(atPath: dir + "/Components", withIntermediateDirectories: false)
            #expect(events.wait { $0.rescans >= 1 })
            try "let b = 1\n".write(toFile: dir + "/Components/Styling.swift", atomically: false, encoding: .utf8)
            #expect(events.wait { $0.changed.contains("Components/Styling.swift") })
            let before = events.rescans
            #expect(rename(dir + "/Components", dir + "/Native") == 0)
            #expect(events.wait { $0.rescans > before })
            try "let b = 2\n".write(toFile: dir + "/Native/Styling.swift", atomically: false, encoding: .utf8)
            // Seen as a change, or covered by a rescan that happened after the write (watches were being rebuilt).
            let rescansAtWrite = events.rescans
            #expect(events.wait { $0.changed.contains("Native/Styling.swift") || $0.rescans > rescansAtWrite })
            try "let b = 3\n".write(toFile: dir + "/Native/Styling.swift", atomically: false, encoding: .utf8)
            #expect(events.wait { $0.changed.contains("Native/Styling.swift") })
        }
    }

    @Test func gitDirectoriesAndSwapFilesAreIgnored() throws {
        try withWatcher { dir, events in
            try FileManager.default.createDirectory(atPath: dir + "/.git", withIntermediateDirectories: false)
            try "x".write(toFile: dir + "/.git/index", atomically: false, encoding: .utf8)
            try "x".write(toFile: dir + "/.Tokens.swift.swp", atomically: false, encoding: .utf8)
            try "x".write(toFile: dir + "/Tokens.swift~", atomically: false, encoding: .utf8)
            // A real change afterwards proves the watcher was listening the whole time.
            try "let a = 9\n".write(toFile: dir + "/Tokens.swift", atomically: false, encoding: .utf8)
            #expect(events.wait { $0.changed.contains("Tokens.swift") })
            #expect(events.changed == ["Tokens.swift"])
        }
    }

    @Test func aBurstOfAThousandWritesIsDeliveredWithoutLoss() throws {
        try withWatcher { dir, events in
            for i in 0..<1000 {
                try "let a = \(i)\n".write(toFile: dir + "/Tokens.swift", atomically: false, encoding: .utf8)
            }
            try "done".write(toFile: dir + "/Last.swift", atomically: false, encoding: .utf8)
            #expect(events.wait(timeout: 10) { $0.changed.contains("Last.swift") })
            #expect(events.changed.contains("Tokens.swift"))
        }
    }

    @Test func missingRootIsAnErrorNotACrash() {
        let watcher = FileWatcher(root: "/nonexistent/a11yd-\(UUID().uuidString)") { _ in }
        #expect(throws: (any Error).self) { try watcher.start() }
    }
}
