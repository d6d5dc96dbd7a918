import Foundation
import Testing
@testable import A11yEngine

/// A location holds its file as an interned `SourceFile`; it must behave exactly as it did holding the path as a string.
@Suite struct SourceLocationTests {
    @Test func locationsAreEqualExactlyWhenFileLineAndColumnAre() {
        let paths = ["/tmp/a/Tokens.swift", "/tmp/a/Tokens.swift ", "/tmp/b/Tokens.swift", "T.swift", ""]
        var locations: [(String, Int, Int, A11yEngine.SourceLocation)] = []
        for path in paths {
            for line in 1...2 {
                for column in 1...2 {
                    // The path made afresh each time (not one string shared): interning must find it by its text.
                    locations.append((path, line, column, A11yEngine.SourceLocation(file: String(path.reversed().reversed()), line: line, column: column)))
                }
            }
        }
        for (pa, la, ca, a) in locations {
            for (pb, lb, cb, b) in locations {
                let same = pa == pb && la == lb && ca == cb
                #expect((a == b) == same, "\(a) / \(b)")
                if same { #expect(a.hashValue == b.hashValue) }
            }
        }
        #expect(Set(locations.map(\.3)).count == locations.count)
    }

    /// Paths equal as strings but with other bytes (a composed and a decomposed accent) are one file, as they were.
    @Test func canonicallyEquivalentPathsAreOneFile() {
        let composed = A11yEngine.SourceLocation(file: "/tmp/Th\u{E8}me.swift", line: 3, column: 4)
        let decomposed = A11yEngine.SourceLocation(file: "/tmp/The\u{300}me.swift", line: 3, column: 4)
        #expect(composed == decomposed)
        #expect(composed.hashValue == decomposed.hashValue)
    }

    @Test func orderIsByFileThenLineThenColumn() {
        let sorted = [
            A11yEngine.SourceLocation(file: "/b.swift", line: 1, column: 1), A11yEngine.SourceLocation(file: "/a.swift", line: 2, column: 1),
            A11yEngine.SourceLocation(file: "/a.swift", line: 1, column: 9), A11yEngine.SourceLocation(file: "/a.swift", line: 1, column: 2),
        ].sorted()
        #expect(sorted.map(\.description) == ["/a.swift:1:2", "/a.swift:1:9", "/a.swift:2:1", "/b.swift:1:1"])
        let here = A11yEngine.SourceLocation(file: "/a.swift", line: 1, column: 1)
        #expect(!(here < here))
    }

    @Test func theFileCanBeChangedAndTheLocationFollows() {
        var location = A11yEngine.SourceLocation(file: "/old/Tokens.swift", line: 7, column: 5)
        location.file = "/new/Tokens.swift"
        #expect(location.file == "/new/Tokens.swift")
        #expect(location == A11yEngine.SourceLocation(file: "/new/Tokens.swift", line: 7, column: 5))
        #expect(location.description == "/new/Tokens.swift:7:5")
    }

    /// Stored audits, baselines and the daemon's protocol carry locations as `{"column", "file", "line"}`.
    @Test func codableFormIsFileLineColumn() throws {
        let location = A11yEngine.SourceLocation(file: "/tmp/DesignTokens.swift", line: 12, column: 20)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(location), as: UTF8.self)
        #expect(json == #"{"column":20,"file":"\/tmp\/DesignTokens.swift","line":12}"#)
        #expect(try JSONDecoder().decode(A11yEngine.SourceLocation.self, from: Data(json.utf8)) == location)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(A11yEngine.SourceLocation.self, from: Data(#"{"file":"a","line":1}"#.utf8)) }
    }

    /// Readers intern a file once and make its locations from it; those equal the ones made from the path.
    @Test func aLocationInAnInternedFileEqualsOneMadeFromItsPath() {
        let file = SourceFile.named("/tmp/Styling.swift")
        #expect(SourceFile.named("/tmp/Styling.swift") === file)
        #expect(A11yEngine.SourceLocation(in: file, line: 2, column: 3) == A11yEngine.SourceLocation(file: "/tmp/Styling.swift", line: 2, column: 3))
    }

    /// Files are interned from many reader threads at once: each path is still one file.
    @Test func interningFromManyThreadsGivesOneFilePerPath() {
        let paths = (0..<64).map { "/tmp/concurrent/File\($0 % 8).swift" }
        let results = ConcurrentResults<ObjectIdentifier>(count: paths.count)
        parallelPerform(iterations: paths.count) { i in results.set(i, ObjectIdentifier(SourceFile.named(paths[i]))) }
        let identities = results.values.map { $0! }
        for i in paths.indices {
            for j in paths.indices {
                #expect((identities[i] == identities[j]) == (paths[i] == paths[j]))
            }
        }
    }
}
