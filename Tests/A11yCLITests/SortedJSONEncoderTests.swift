import A11yEngine
@testable import A11yOutput
import A11yReaders
import Foundation
import Testing

/// The fast encoder writes exactly what Foundation's `JSONEncoder` writes with the same options, so `--format json`
/// stays byte-identical to the documented form.
struct SortedJSONEncoderTests {
    static func foundation<T: Encodable>(_ value: T, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func fast<T: Encodable>(_ value: T, pretty: Bool) throws -> String {
        String(decoding: try SortedJSONEncoder(pretty: pretty).encode(value), as: UTF8.self)
    }

    /// The streaming path, in pieces of at least `chunk` bytes; each piece is checked to be one (the writer flushes
    /// between members, so a small chunk means many pieces).
    static func streamed<T: Encodable>(_ value: T, pretty: Bool, chunk: Int = 64) throws -> (text: String, pieces: Int) {
        var bytes: [UInt8] = []
        var pieces = 0
        try SortedJSONEncoder(pretty: pretty).write(value, chunk: chunk) { piece in
            bytes += piece
            pieces += 1
        }
        return (String(decoding: bytes, as: UTF8.self), pieces)
    }

    static let systems = ["Examples/DesignSystem", "Tests/Fixtures/Themes/PaletteInstances", "Tests/Fixtures/Themes/ThemeSwitch",
                          "Tests/Fixtures/ViewCode"]

    @Test(arguments: systems) func auditsEncodeAsFoundationEncodesThem(system: String) throws {
        let root = CLITests.packageRoot.appendingPathComponent(system).path
        let audit = Auditor.run(try Workspace(root: root).refresh()).audit
        #expect(!audit.pairs.isEmpty)
        for pretty in [true, false] {
            let expected = try Self.foundation(audit, pretty: pretty)
            #expect(try Self.fast(audit, pretty: pretty) == expected)
            let streamed = try Self.streamed(audit, pretty: pretty)
            #expect(streamed.text == expected)
            // Written member by member: far more pieces than one buffer (the pairs alone are dozens of rows).
            #expect(streamed.pieces > audit.pairs.count / 2, "\(streamed.pieces) pieces for \(audit.pairs.count) pairs")
            let sarif = try SARIF.encode(audit, toolVersion: "test")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-sarif-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            FileManager.default.createFile(atPath: file.path, contents: nil)
            let handle = try FileHandle(forWritingTo: file)
            try SARIF.write(audit, toolVersion: "test", to: handle)
            try handle.close()
            #expect(try Data(contentsOf: file) == sarif)
        }
        var changed = audit
        changed.findings = Array(changed.findings.dropFirst(3))
        let diff = AuditDiff.between(changed, audit)
        #expect(try Self.fast(diff, pretty: false) == Self.foundation(diff, pretty: false))
    }

    /// Whole and half numbers below a million are written as their digits (a pair's required ratio, a font size), not
    /// through the shortest-digits search: the text Foundation writes, at the edges too, and every other number as before.
    @Test func wholeAndHalfNumbersEncodeAsFoundationEncodesThem() throws {
        var numbers = (0..<4_000).map { Double($0) / 2 }
        numbers += [999_998.5, 999_999, 999_999.5, 1_000_000, 1_000_000.5, 123_456_789, 1e15, 1e300, 0.25, 4.499_999, 0.1 + 0.2,
                    2.935_532_559_248_809, -0.5, -3, -0.0, .leastNonzeroMagnitude]
        for pretty in [true, false] {
            #expect(try Self.fast(numbers, pretty: pretty) == Self.foundation(numbers, pretty: pretty))
            #expect(try Self.streamed(numbers, pretty: pretty).text == Self.foundation(numbers, pretty: pretty))
        }
    }

    /// A double's text is kept as the bytes `write(to:)` hands over, the same as its `description`; text handed over
    /// otherwise (a string, or more than fits) is marked incomplete, and the number is then written from `description`.
    @Test func numberTextKeepsTheTextWriteToGives() {
        for value in [0.1, 1.0 / 3, -2.225_073_858_507_201_4e-308, 1e300, 4.5, 12_345_678.9, .leastNonzeroMagnitude] {
            var text = ValueWriter.NumberText()
            value.write(to: &text)
            #expect(!text.incomplete)
            #expect(text.withBytes { String(decoding: $0, as: UTF8.self) } == value.description)
        }
        var given = ValueWriter.NumberText()
        given.write("1.5")
        #expect(given.incomplete)
        var long = ValueWriter.NumberText()
        [UInt8](repeating: UInt8(ascii: "1"), count: 40).withUnsafeBufferPointer { long._writeASCII($0) }
        #expect(long.incomplete)
    }

    /// Findings write their own members into a buffer sized for a usual one (1 KB): one far larger (a long message
    /// that needs escapes, hundreds of related locations, a path with non-ASCII) grows it and reads as Foundation's.
    @Test func aFindingLargerThanItsBufferEncodesAsFoundationEncodesIt() throws {
        let message = String(repeating: "label \"Ink\" on\tsurface\n\u{1}é😀 ", count: 200)
        // Paths are written from their bytes (`SourceLocation.fileBytes`): quotes, backslashes and tabs escaped there too.
        let related = (1...300).map { SourceLocation(file: "/tmp/Design \"Système\"\t/Tokens\\\($0).swift", line: $0, column: $0 % 7) }
        let findings = [
            Finding(rule: "contrast.text", severity: .error, appearance: .dark, subject: "Card: label on background", message: message,
                    location: SourceLocation(file: "/tmp/Styling.swift", line: 12, column: 5), relatedLocations: related,
                    component: "Card", measured: 2.935532559248809, required: 4.5, fixHint: "nearest passing: #2A1E00", theme: "rosé"),
            Finding(rule: "config", severity: .warning, subject: "x", message: "", location: nil),
        ]
        for pretty in [true, false] {
            #expect(try Self.fast(findings, pretty: pretty) == Self.foundation(findings, pretty: pretty))
            #expect(try Self.streamed(findings, pretty: pretty).text == Self.foundation(findings, pretty: pretty))
        }
    }

    /// Strings are scanned eight bytes at a time: each character that needs escaping (and one that does not) at every
    /// position of a word, after and before runs of other text and multi-byte characters.
    @Test func escapesAreFoundAtEveryPositionOfAWord() throws {
        var strings: [String] = []
        for special in ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", " ", "!", "#", "[", "]", "é", "😀"] {
            for before in 0..<17 {
                strings.append(String(repeating: "a", count: before) + special + String(repeating: "b", count: 16 - before))
                strings.append(String(repeating: "é", count: before) + special)
            }
        }
        for pretty in [true, false] {
            #expect(try Self.fast(strings, pretty: pretty) == Self.foundation(strings, pretty: pretty))
        }
    }

    /// Strings are tested for escapes sixteen bytes at a time, the last sixteen read where they end, and a shorter string
    /// as overlapping words: a character that needs escaping (and some that do not) at every position of strings of
    /// every length up to 40.
    @Test func escapesAreFoundAtEveryPositionOfEveryLength() throws {
        var strings: [String] = []
        for special in ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", " ", "é"] {
            for length in 1...40 {
                for position in 0..<length {
                    strings.append(String(repeating: "a", count: position) + special + String(repeating: "b", count: length - 1 - position))
                }
            }
        }
        for pretty in [true, false] {
            #expect(try Self.fast(strings, pretty: pretty) == Self.foundation(strings, pretty: pretty))
        }
    }

    struct Awkward: Encodable {
        var text = "quote \" backslash \\ slash / newline \n tab \t return \r bell \u{7} escape \u{1B} del \u{7F} é 😀 \u{8}\u{C}"
        var numbers: [Double] = [0, -0.0, 0.1, 1.0 / 3, 1e-7, 1e21, 4.5, 12345678.9, -2.25, 1e300]
        var floats: [Float] = [0.1, 3, -1.5]
        var integers: [Int64] = [Int64.min, 0, Int64.max]
        var small: [UInt8] = [0, 255]
        var keys: [String: Int] = ["b": 1, "B": 2, "a10": 3, "a9": 4, "_x": 5, "é": 6, "rosé": 7, "Dark": 8, "a-b": 9, "": 10]
        var empty: [[String: [Int]]] = [[:], ["x": []]]
        var absent: String? = nil
        var flags = [true, false]
        var nested = ["outer": ["inner": [1, 2]]]
    }

    struct ExplicitNull: Encodable {
        var value: String?
        enum CodingKeys: String, CodingKey { case value }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(value, forKey: .value)
        }
    }

    /// Nested containers and super encoders, filled after later siblings were encoded.
    struct Nesting: Encodable {
        enum Keys: String, CodingKey { case zeta, alpha, list, parent }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            var inner = c.nestedContainer(keyedBy: Keys.self, forKey: .zeta)
            var list = c.nestedUnkeyedContainer(forKey: .list)
            try c.encode("first", forKey: .alpha)
            try inner.encode(1.5, forKey: .alpha)
            try list.encode("a")
            var row = list.nestedUnkeyedContainer()
            try list.encode("b")
            try row.encode(true)
            try "from super".encode(to: c.superEncoder(forKey: .parent))
        }
    }

    /// A key encoded twice: Foundation keeps the last value.
    struct TwiceEncodedKey: Encodable {
        enum Keys: String, CodingKey { case b, a }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode("first", forKey: .a)
            try c.encode(2, forKey: .b)
            try c.encode("last", forKey: .a)
        }
    }

    /// One type, written as a single value for one case and as a keyed object for the other (the streaming writer
    /// remembers per type which way it went).
    enum Shifting: Encodable {
        case plain(String), keyed(Int)
        enum Keys: String, CodingKey { case value }
        func encode(to encoder: Encoder) throws {
            switch self {
            case .plain(let text): var c = encoder.singleValueContainer(); try c.encode(text)
            case .keyed(let number): var c = encoder.container(keyedBy: Keys.self); try c.encode(number, forKey: .value)
            }
        }
    }

    @Test func awkwardValuesEncodeAsFoundationEncodesThem() throws {
        for pretty in [true, false] {
            let shifting: [Shifting] = [.keyed(1), .plain("x"), .keyed(2), .plain("y")]
            let twice = [TwiceEncodedKey(), TwiceEncodedKey()]
            #expect(try Self.fast(twice, pretty: pretty) == Self.foundation(twice, pretty: pretty))
            #expect(try Self.fast(shifting, pretty: pretty) == Self.foundation(shifting, pretty: pretty))
            for chunk in [1, 1 << 16] {
                #expect(try Self.streamed(twice, pretty: pretty, chunk: chunk).text == Self.foundation(twice, pretty: pretty))
                #expect(try Self.streamed(shifting, pretty: pretty, chunk: chunk).text == Self.foundation(shifting, pretty: pretty))
            }
        }
        #expect(try Self.fast(TwiceEncodedKey(), pretty: false) == #"{"a":"last","b":2}"#)
        for pretty in [true, false] {
            #expect(try Self.fast(Awkward(), pretty: pretty) == Self.foundation(Awkward(), pretty: pretty))
            #expect(try Self.fast(ExplicitNull(value: nil), pretty: pretty) == Self.foundation(ExplicitNull(value: nil), pretty: pretty))
            #expect(try Self.fast(Nesting(), pretty: pretty) == Self.foundation(Nesting(), pretty: pretty))
            #expect(try Self.fast("a top-level string", pretty: pretty) == Self.foundation("a top-level string", pretty: pretty))
            #expect(try Self.fast([String: Int](), pretty: pretty) == Self.foundation([String: Int](), pretty: pretty))
            // Streaming writes every shape the same: plain objects and arrays member by member, the rest whole.
            for chunk in [1, 64, 1 << 16] {
                #expect(try Self.streamed(Awkward(), pretty: pretty, chunk: chunk).text == Self.foundation(Awkward(), pretty: pretty))
                #expect(try Self.streamed(ExplicitNull(value: nil), pretty: pretty, chunk: chunk).text == Self.foundation(ExplicitNull(value: nil), pretty: pretty))
                #expect(try Self.streamed(Nesting(), pretty: pretty, chunk: chunk).text == Self.foundation(Nesting(), pretty: pretty))
                #expect(try Self.streamed([Nesting(), Nesting()], pretty: pretty, chunk: chunk).text == Self.foundation([Nesting(), Nesting()], pretty: pretty))
                #expect(try Self.streamed("a top-level string", pretty: pretty, chunk: chunk).text == Self.foundation("a top-level string", pretty: pretty))
                #expect(try Self.streamed([String: Int](), pretty: pretty, chunk: chunk).text == Self.foundation([String: Int](), pretty: pretty))
                let json: JSONValue = ["z": [1, "two", ["b": true, "a": []]], "a": [:], "m": .number(2.5)]
                #expect(try Self.streamed(json, pretty: pretty, chunk: chunk).text == Self.fast(json, pretty: pretty))
            }
        }
        #expect(try Self.fast(ExplicitNull(value: nil), pretty: false) == #"{"value":null}"#)
    }

    /// Integers are written digit by digit (not through `String`): every width, sign and number of digits, the extremes
    /// included, reads as Foundation writes it.
    struct Integers: Codable {
        var int: [Int], int8: [Int8], int64: [Int64], uint8: [UInt8], uint64: [UInt64]
    }
    @Test func integersEncodeAsFoundationEncodesThem() throws {
        var powers: [Int] = [0]
        var power = 1
        for _ in 0..<18 {
            powers += [power - 1, power, power + 1, -power, -(power - 1)]
            power *= 10
        }
        let integers = Integers(int: powers + [.max, .min, .max - 1, .min + 1], int8: [.min, -1, 0, 9, 10, .max],
                                int64: [.min, .max, -1_000_000_007], uint8: [0, 99, 100, .max],
                                uint64: [0, 10, UInt64(Int64.max) + 1, .max - 1, .max])
        for pretty in [true, false] {
            #expect(try Self.fast(integers, pretty: pretty) == Self.foundation(integers, pretty: pretty))
        }
        // Locations, which write their line and column through the members writer, read as Foundation writes them too.
        let file = SourceFile.named("/tmp/Integers.swift")
        let locations = [SourceLocation(in: file, line: 1, column: 1), SourceLocation(in: file, line: 10, column: 109),
                         SourceLocation(in: file, line: 123_456, column: 0)]
        var audit = Auditor.run(try Workspace(root: CLITests.packageRoot.appendingPathComponent("Examples/DesignSystem").path).refresh()).audit
        for (index, location) in locations.enumerated() { audit.findings[index].location = location }
        #expect(try Self.fast(audit, pretty: true) == Self.foundation(audit, pretty: true))
    }

    /// Arrays of 512 elements and more are written in blocks on all cores: the text must be the same, in order, nested
    /// large arrays included, and an element that cannot be encoded must still fail the whole write.
    @Test func largeArraysAreWrittenInOrderOnAllCores() throws {
        let rows: [JSONValue] = (0..<1_500).map { i in
            ["id": .integer(i), "name": .string("row \(i) \"quoted\" é"), "ratio": .number(Double(i) / 7),
             "flags": [.bool(i % 2 == 0), .bool(i % 3 == 0)], "nested": i == 700 ? .array((0..<600).map { .integer($0) }) : [:]]
        }
        let json: JSONValue = ["rows": .array(rows), "count": .integer(rows.count)]
        for pretty in [true, false] {
            let expected = try Self.foundation(json, pretty: pretty)
            for chunk in [64, 1 << 16] {
                #expect(try Self.streamed(json, pretty: pretty, chunk: chunk).text == expected)
            }
        }

        // A real audit with more pairs than two blocks: 600 text tokens, each paired with the one surface.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tokens = (0..<600).map { i in
            String(format: "    static let rowText%d = Color(red: %.3f, green: %.3f, blue: 0.5)", i, Double(i % 97) / 97, Double(i % 13) / 13)
        }
        let source = "import SwiftUI\n\nextension Color {\n    static let pageBackground = Color.white\n" + tokens.joined(separator: "\n") + "\n}\n"
        try source.write(to: dir.appendingPathComponent("DesignTokens.swift"), atomically: true, encoding: .utf8)
        let audit = Auditor.run(try Workspace(root: dir.path).refresh()).audit
        #expect(audit.pairs.count >= 2 * 256 * 2, "\(audit.pairs.count) pairs")
        #expect(try Self.streamed(audit, pretty: true, chunk: 1 << 16).text == Self.foundation(audit, pretty: true))

        var broken = rows
        broken[1_000] = ["ratio": .number(.nan)]
        #expect(throws: EncodingError.self) { try Self.streamed(JSONValue.array(broken), pretty: false) }
    }

    /// A large array's blocks reach the sink in the buffers they were written in, sized for a kilobyte an element: blocks
    /// of findings several times that (long messages) grow theirs, and read as Foundation's; one that fails is freed.
    @Test func blocksLargerThanTheirFirstBuffersAreWrittenAsFoundationWritesThem() throws {
        let findings = (0..<1_200).map { i in
            Finding(rule: "contrast.text", severity: .error, subject: "Card \(i)", message: String(repeating: "label \(i) on surface; ", count: i < 600 ? 150 : 5),
                    location: SourceLocation(file: "/tmp/Styling.swift", line: i, column: 5), measured: Double(i) / 7, required: 4.5)
        }
        #expect(try Self.streamed(findings, pretty: true, chunk: 1 << 16).text == Self.foundation(findings, pretty: true))
        var broken = findings
        broken[100] = Finding(rule: "x", severity: .error, subject: "x", message: "", location: nil, measured: .nan)
        #expect(throws: EncodingError.self) { try Self.streamed(broken, pretty: true) }
    }

    /// The blocks of a large array reach the sink from the worker that finishes each next one: a sink that fails stops
    /// the write with its error, and nothing after the failed piece is handed to it.
    @Test func aFailingSinkStopsALargeArrayWithItsError() throws {
        struct Full: Error, Equatable {}
        let rows = JSONValue.array((0..<5_000).map { i in ["id": .integer(i), "name": .string("row \(i)")] })
        let expected = try Self.foundation(rows, pretty: false)
        for failing in [1, 2, 5] {
            var written: [UInt8] = []
            var pieces = 0
            #expect(throws: Full.self) {
                try SortedJSONEncoder(pretty: false).write(rows, chunk: 1 << 12) { piece in
                    pieces += 1
                    if pieces == failing { throw Full() }
                    written += piece
                }
            }
            #expect(pieces == failing, "pieces handed to the sink after it failed")
            // What was written before the failure is the start of the text, in order.
            #expect(expected.utf8.starts(with: written))
        }
    }

    @Test func nonFiniteNumbersAreAnErrorAsInFoundation() {
        #expect(throws: EncodingError.self) { try SortedJSONEncoder(pretty: false).encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try SortedJSONEncoder(pretty: true).encode(["x": Double.infinity]) }
    }
}
