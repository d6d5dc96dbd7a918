import Foundation
import Testing
@testable import A11yReaders

/// Files and paths read with plain system calls give what Foundation's readers gave for the same files (which they
/// replace on a one-shot audit's first steps).
struct PlainFileTests {
    /// A fresh directory with the given files (name -> bytes).
    static func directory(_ files: [String: [UInt8]]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plain-file-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, bytes) in files { #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(bytes))) }
        return dir
    }

    @Test func textIsWhatFoundationReads() throws {
        let files: [String: [UInt8]] = [
            "plain.yml": Array("policy: wcag21-aa\nsurfaces: [canvas]\n".utf8),
            "marked.yml": [0xEF, 0xBB, 0xBF] + Array("policy: x\n".utf8),  // a byte order mark (Windows editors)
            "accents.json": Array("{\"name\": \"Überschrift — ink\"}".utf8),
            "broken.txt": [0x61, 0xFF, 0x62],  // not UTF-8
            "empty.txt": [],
            "large.swift": Array(String(repeating: "static let x = Color(hex: \"#FFFFFF\")\n", count: 3_000).utf8),
        ]
        let dir = try Self.directory(files)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in files.keys.sorted() + ["missing.yml"] {
            let path = dir + "/" + name
            #expect(PlainFile.text(atPath: path) == (try? String(contentsOfFile: path, encoding: .utf8)), "\(name)")
            #expect(PlainFile.bytes(atPath: path) == FileManager.default.contents(atPath: path).map { Array($0) }, "\(name)")
        }
        #expect(PlainFile.text(atPath: dir + "/marked.yml") == "policy: x\n")
        #expect(PlainFile.text(atPath: dir + "/broken.txt") == nil)
        #expect(PlainFile.bytes(atPath: dir) == nil)  // a directory opens but does not read
        #expect(PlainFile.bytes(atPath: dir + "/large.swift", limit: 10) == Array("static let".utf8))
    }

    /// Files of /proc say their size is 0: they are read until the end all the same, past the first 4 KB.
    @Test func procFilesAreReadWhole() throws {
        let maps = try #require(PlainFile.bytes(atPath: "/proc/self/maps"))
        #expect(maps.count > 4096)
        #expect(maps.last == UInt8(ascii: "\n"))
        let status = try #require(PlainFile.bytes(atPath: "/proc/self/status"))
        #expect(CoreCount.field("Cpus_allowed:", in: status) != nil)
        #expect(CoreCount.field("NoSuchField:", in: status) == nil)
    }

    @Test func pathsAreJoinedAndResolvedAsURLDid() throws {
        let dir = try Self.directory(["target": []])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/target")
        let resolved = URL(fileURLWithPath: dir + "/link").resolvingSymlinksInPath().path
        #expect(PlainFile.resolvingSymlinks(dir + "/link") == resolved)
        #expect(PlainFile.linkTarget(dir + "/link") == dir + "/target")
        #expect(PlainFile.linkTarget(dir + "/target") == nil)
        #expect(PlainFile.resolvingSymlinks(dir + "/missing") == dir + "/missing")
        for path in ["/a/b/c", "/a/b/", "/a", "/"] where path != "/" {
            #expect(PlainFile.parent(path) == URL(fileURLWithPath: path).deletingLastPathComponent().path, "\(path)")
        }
        #expect(PlainFile.parent("/") == "/")
        #expect(PlainFile.joined("/usr/share", "a11yd/policies") == "/usr/share/a11yd/policies")
        #expect(PlainFile.joined("policies/", "wcag21-aa.yml") == "policies/wcag21-aa.yml")
    }
}
