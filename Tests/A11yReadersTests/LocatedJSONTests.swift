import Testing
@testable import A11yReaders

struct LocatedJSONTests {
    @Test func valuesAndKeysCarryOneBasedLineAndColumn() throws {
        let text = """
        {
          "a": [1, "two", true],
          "b": {"c": null}
        }
        """
        let root = try LocatedJSON.parse(text)
        #expect(root.position == TextPosition(line: 1, column: 1))
        let a = try #require(root.members?.first)
        #expect(a.key == "a")
        #expect(a.keyPosition == TextPosition(line: 2, column: 3))
        #expect(a.value.position == TextPosition(line: 2, column: 8))
        let elements = try #require(a.value.elements)
        #expect(elements.map(\.position) == [TextPosition(line: 2, column: 9), TextPosition(line: 2, column: 12),
                                              TextPosition(line: 2, column: 19)])
        #expect(elements[1].string == "two")
        #expect(elements[2].bool == true)
        #expect(root["b"]?["c"]?.value == .null)
        #expect(root["b"]?["c"]?.position == TextPosition(line: 3, column: 14))
    }

    @Test func columnsCountCharactersNotUTF8Bytes() throws {
        let root = try LocatedJSON.parse(#"{"é": "ü", "x": 1}"#)
        #expect(root["x"]?.position == TextPosition(line: 1, column: 17))
        #expect(root["é"]?.string == "ü")
    }

    @Test func json5ExtrasThatRealTokenFilesUseAreAccepted() throws {
        let text = """
        // Style Dictionary style
        {
          color: { /* block */ white: { value: '#ffffff', type: 'color', }, },
          $type: "color",
          n: [+1, .5, 5., 0x1F, -Infinity,],
        }
        """
        let root = try LocatedJSON.parse(text)
        #expect(root["color"]?["white"]?["value"]?.string == "#ffffff")
        #expect(root["color"]?["white"]?["value"]?.position == TextPosition(line: 3, column: 40))
        #expect(root["$type"]?.string == "color")
        #expect(root["n"]?.elements?.compactMap(\.number) == [1, 0.5, 5, 31, -.infinity])
    }

    @Test func escapesDecodeIncludingSurrogatePairs() throws {
        let root = try LocatedJSON.parse(#"["a\"b\\c\/\n\t", "\u00e9\ud83d\ude00", "\x41"]"#)
        #expect(root.elements?.compactMap(\.string) == ["a\"b\\c/\n\t", "é😀", "A"])
    }

    @Test func duplicateKeysLastOneWins() throws {
        let root = try LocatedJSON.parse(#"{"a": 1, "a": 2}"#)
        #expect(root["a"]?.number == 2)
    }

    /// Each malformed document with the exact position reported (line:column, 1-based).
    static let malformed: [(String, Int, Int, String)] = [
        ("{\"a\": [1, 2", 1, 12, "not closed"),  // truncated: end of file after the last element
        ("{\"a\": 1,\n \"b\" 2}", 2, 6, "expected ':'"),
        ("{\n  \"a\": tru\n}", 2, 8, "Unexpected 'tru'"),
        ("[1 2]", 1, 4, "expected ',' or ']'"),
        ("{\"a\": \"open", 1, 7, "Unterminated string"),
        ("", 1, 1, "Empty document"),
        ("{} x", 1, 4, "after the end"),
        ("{\"a\": 12px}", 1, 9, "values with units need quotes"),
        ("[\"\\q\"]", 1, 3, "Invalid escape"),
        ("/* never closed", 1, 1, "Unterminated /* comment"),
        ("{\"a\": -}", 1, 7, "Invalid number"),
    ]

    @Test(arguments: malformed)
    func malformedJSONIsReportedWithItsPosition(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try LocatedJSON.parse(text)
            Issue.record("expected a syntax error for \(text)")
        } catch {
            #expect(error.position == TextPosition(line: line, column: column), "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func deepNestingIsAnErrorNotAStackOverflow() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try LocatedJSON.parse(text) }
        let fine = String(repeating: "[", count: 50) + String(repeating: "]", count: 50)
        #expect(throws: Never.self) { try LocatedJSON.parse(fine) }
    }

    /// A cheap deterministic fuzz: every prefix and many byte mutations of a realistic document either parse
    /// or throw; none crash. (The libFuzzer harness covers this more deeply.)
    @Test func mutatedDocumentsNeverCrash() {
        let seed = Array("""
        {"colors":[{"color":{"color-space":"display-p3","components":{"red":"0x1F","alpha":"1.000"}},
        "idiom":"universal"}], 'k': [1e5, -0.5, .5, "\\u00e9"], /* c */ "info": {"version": 1}}
        """.utf8)
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(Int.max))
        }
        for end in 0...seed.count {
            _ = try? LocatedJSON.parse(String(decoding: seed[..<end], as: UTF8.self))
        }
        let alphabet = Array("{}[]:,\"'\\/*0123456789.-+eExuU \n\u{00}é".utf8)
        for _ in 0..<3000 {
            var bytes = seed
            for _ in 0..<(1 + next() % 4) {
                bytes[next() % bytes.count] = alphabet[next() % alphabet.count]
            }
            _ = try? LocatedJSON.parse(String(decoding: bytes, as: UTF8.self))
        }
    }
}
