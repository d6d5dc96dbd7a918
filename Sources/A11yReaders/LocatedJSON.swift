/// A 1-based line and column in a text file, as editors show them. Columns count Unicode scalars, so a
/// non-ASCII character before a value moves it by one column, not by its UTF-8 length.
public struct TextPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (a: TextPosition, b: TextPosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// Malformed JSON: what is wrong and where.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var position: TextPosition

    public init(message: String, position: TextPosition) {
        self.message = message
        self.position = position
    }

    public var description: String { "\(position): \(message)" }
}

/// A JSON value that remembers where it was written. Token and asset-catalog findings must point at the
/// exact line and column of the offending value, which Foundation's `JSONSerialization` cannot tell us.
///
/// The parser accepts the JSON5 extras that real token files use (Style Dictionary and Primer ship
/// `.json5`): `//` and `/* */` comments, trailing commas, unquoted identifier keys, single-quoted strings,
/// hexadecimal numbers, leading `+`, leading or trailing decimal points, `Infinity`/`NaN`.
/// Accepting them in `.json` files as well costs nothing and never changes the meaning of valid JSON.
public struct LocatedJSON: Hashable, Sendable {
    public enum Value: Hashable, Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([LocatedJSON])
        case object([Member])
    }

    public struct Member: Hashable, Sendable {
        public var key: String
        public var keyPosition: TextPosition
        public var value: LocatedJSON

        public init(key: String, keyPosition: TextPosition, value: LocatedJSON) {
            self.key = key
            self.keyPosition = keyPosition
            self.value = value
        }
    }

    public var value: Value
    /// Where the value starts (its first character).
    public var position: TextPosition

    public init(value: Value, position: TextPosition) {
        self.value = value
        self.position = position
    }

    /// Default nesting limit: deep enough for any real token file (the corpus nests < 10 levels), shallow
    /// enough that a hostile `[[[[...` cannot exhaust the stack of a daemon thread.
    public static let defaultMaxDepth = 200

    /// Parses a whole document; anything but whitespace and comments after the value is an error.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> LocatedJSON {
        var parser = LocatedJSONParser(bytes: Array(text.utf8), maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    // MARK: Access

    /// The member named `key`; with duplicate keys the last one wins, as in JavaScript and JSON5.
    public subscript(key: String) -> LocatedJSON? {
        guard case .object(let members) = value else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    public var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }

    public var elements: [LocatedJSON]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    public var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    public var number: Double? {
        if case .number(let n) = value { return n }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    /// A short name of the value's type for messages ("a string", "an object").
    public var typeDescription: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// Recursive-descent parser over UTF-8 bytes. Recursion depth is bounded by `maxDepth`, every index access
/// is checked against the end, and every failure is a thrown `JSONSyntaxError`: no input can crash it.
struct LocatedJSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0
    var line = 1
    var column = 1

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        // A UTF-8 byte order mark is not part of the document (editors on Windows write one).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    var position: TextPosition { TextPosition(line: line, column: column) }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    func peek(_ offset: Int) -> UInt8? {
        let i = index + offset
        return i < bytes.count ? bytes[i] : nil
    }

    mutating func advance() {
        guard index < bytes.count else { return }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            // Continuation bytes of a multi-byte scalar do not start a new column.
            column += 1
        }
    }

    func error(_ message: String, at position: TextPosition? = nil) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: position ?? self.position)
    }

    func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> LocatedJSON {
        try skipTrivia()
        guard current != nil else { throw error("Empty document: expected a JSON value") }
        let root = try parseValue(depth: 0)
        try skipTrivia()
        if current != nil { throw error("Unexpected \(describeCurrent()) after the end of the JSON value") }
        return root
    }

    /// Skips whitespace and JSON5 comments.
    mutating func skipTrivia() throws(JSONSyntaxError) {
        while let byte = current {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
                advance()
            case UInt8(ascii: "/"):
                let start = position
                if peek(1) == UInt8(ascii: "/") {
                    while let b = current, b != 0x0A { advance() }
                } else if peek(1) == UInt8(ascii: "*") {
                    advance(); advance()
                    var closed = false
                    while current != nil {
                        if current == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                            advance(); advance()
                            closed = true
                            break
                        }
                        advance()
                    }
                    if !closed { throw error("Unterminated /* comment", at: start) }
                } else {
                    throw error("Unexpected '/'")
                }
            case 0xC2 where peek(1) == 0xA0:
                // U+00A0 no-break space, which JSON5 counts as whitespace and copy-pasted files contain.
                advance(); advance()
            default:
                return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> LocatedJSON {
        let start = position
        guard let byte = current else { throw error("Unexpected end of file: expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return LocatedJSON(value: .string(try parseString()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return LocatedJSON(value: .number(try parseNumber()), position: start)
        default:
            let word = scanIdentifier()
            switch word {
            case "true": return LocatedJSON(value: .bool(true), position: start)
            case "false": return LocatedJSON(value: .bool(false), position: start)
            case "null": return LocatedJSON(value: .null, position: start)
            case "Infinity": return LocatedJSON(value: .number(.infinity), position: start)
            case "NaN": return LocatedJSON(value: .number(.nan), position: start)
            case "":
                throw error("Unexpected \(describeCurrent()): expected a value")
            default:
                throw error("Unexpected '\(word)': expected a value (strings need quotes)", at: start)
            }
        }
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> LocatedJSON {
        let start = position
        guard depth <= maxDepth else { throw error("Nesting deeper than \(maxDepth) levels") }
        advance()  // {
        var members: [LocatedJSON.Member] = []
        while true {
            try skipTrivia()
            guard let byte = current else { throw error("Unexpected end of file: the object opened at \(start) is not closed") }
            if byte == UInt8(ascii: "}") {
                advance()
                return LocatedJSON(value: .object(members), position: start)
            }
            let keyPosition = position
            let key: String
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                key = try parseString()
            } else {
                key = scanIdentifier()
                if key.isEmpty { throw error("Unexpected \(describeCurrent()): expected a member name or '}'") }
            }
            try skipTrivia()
            guard current == UInt8(ascii: ":") else {
                throw error("Unexpected \(describeCurrent()): expected ':' after the member name \"\(key)\"")
            }
            advance()
            try skipTrivia()
            let value = try parseValue(depth: depth)
            members.append(LocatedJSON.Member(key: key, keyPosition: keyPosition, value: value))
            try skipTrivia()
            if current == UInt8(ascii: ",") {
                advance()
            } else if current == UInt8(ascii: "}") {
                continue
            } else if current == nil {
                throw error("Unexpected end of file: the object opened at \(start) is not closed")
            } else {
                throw error("Unexpected \(describeCurrent()): expected ',' or '}' in the object opened at \(start)")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> LocatedJSON {
        let start = position
        guard depth <= maxDepth else { throw error("Nesting deeper than \(maxDepth) levels") }
        advance()  // [
        var elements: [LocatedJSON] = []
        while true {
            try skipTrivia()
            guard let byte = current else { throw error("Unexpected end of file: the array opened at \(start) is not closed") }
            if byte == UInt8(ascii: "]") {
                advance()
                return LocatedJSON(value: .array(elements), position: start)
            }
            elements.append(try parseValue(depth: depth))
            try skipTrivia()
            if current == UInt8(ascii: ",") {
                advance()
            } else if current == UInt8(ascii: "]") {
                continue
            } else if current == nil {
                throw error("Unexpected end of file: the array opened at \(start) is not closed")
            } else {
                throw error("Unexpected \(describeCurrent()): expected ',' or ']' in the array opened at \(start)")
            }
        }
    }

    /// An ECMAScript-style identifier (JSON5 unquoted keys, and the literals true/false/null). Non-ASCII
    /// bytes are accepted as identifier characters rather than validated against Unicode categories.
    mutating func scanIdentifier() -> String {
        var scanned: [UInt8] = []
        while let byte = current {
            let isIdentifierByte = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") && !scanned.isEmpty)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
            guard isIdentifierByte else { break }
            if byte == 0xC2 && peek(1) == 0xA0 { break }  // no-break space ends the identifier
            scanned.append(byte)
            advance()
        }
        return String(decoding: scanned, as: UTF8.self)
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        guard let quote = current else { throw error("Expected a string") }
        advance()
        var scanned: [UInt8] = []
        while true {
            guard let byte = current else { throw error("Unterminated string starting at \(start)", at: start) }
            if byte == quote {
                advance()
                return String(decoding: scanned, as: UTF8.self)
            }
            if byte == 0x0A || byte == 0x0D {
                throw error("Unterminated string starting at \(start) (line break inside the string)", at: start)
            }
            if byte != UInt8(ascii: "\\") {
                scanned.append(byte)
                advance()
                continue
            }
            let escapePosition = position
            advance()
            guard let escaped = current else { throw error("Unterminated string starting at \(start)", at: start) }
            advance()
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                scanned.append(escaped)
            case UInt8(ascii: "b"): scanned.append(0x08)
            case UInt8(ascii: "f"): scanned.append(0x0C)
            case UInt8(ascii: "n"): scanned.append(0x0A)
            case UInt8(ascii: "r"): scanned.append(0x0D)
            case UInt8(ascii: "t"): scanned.append(0x09)
            case UInt8(ascii: "v"): scanned.append(0x0B)
            case UInt8(ascii: "0") where !(current.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false):
                scanned.append(0)
            case 0x0A:
                break  // JSON5 line continuation
            case 0x0D:
                if current == 0x0A { advance() }
            case UInt8(ascii: "x"):
                let value = try scanHexDigits(count: 2, escapeAt: escapePosition)
                appendScalar(value, to: &scanned)
            case UInt8(ascii: "u"):
                var value = try scanHexDigits(count: 4, escapeAt: escapePosition)
                if (0xD800...0xDBFF).contains(value) {
                    // A high surrogate must be followed by `\uDC00`...`\uDFFF`; anything else becomes U+FFFD.
                    if current == UInt8(ascii: "\\") && peek(1) == UInt8(ascii: "u") {
                        let lowPosition = position
                        advance(); advance()
                        let low = try scanHexDigits(count: 4, escapeAt: lowPosition)
                        if (0xDC00...0xDFFF).contains(low) {
                            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            appendScalar(0xFFFD, to: &scanned)
                            value = low
                        }
                    } else {
                        value = 0xFFFD
                    }
                }
                appendScalar(value, to: &scanned)
            default:
                throw error("Invalid escape sequence in string", at: escapePosition)
            }
        }
    }

    mutating func scanHexDigits(count: Int, escapeAt: TextPosition) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let byte = current, let digit = hexValue(byte) else {
                throw error("Invalid escape sequence in string: expected \(count) hexadecimal digits", at: escapeAt)
            }
            value = value * 16 + UInt32(digit)
            advance()
        }
        return value
    }

    func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    func appendScalar(_ value: UInt32, to bytes: inout [UInt8]) {
        // Lone surrogates are not scalars; they become U+FFFD like any other undecodable text.
        let scalar: Unicode.Scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    /// JSON numbers plus JSON5's leading `+`, `.5`, `5.`, hexadecimal `0x1F` and signed `Infinity`/`NaN`.
    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = position
        var negative = false
        if current == UInt8(ascii: "-") || current == UInt8(ascii: "+") {
            negative = current == UInt8(ascii: "-")
            advance()
        }
        if let byte = current, (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) {
            let word = scanIdentifier()
            if word == "Infinity" { return negative ? -.infinity : .infinity }
            if word == "NaN" { return .nan }
            throw error("Invalid number", at: start)
        }
        if current == UInt8(ascii: "0"), let x = peek(1), x == UInt8(ascii: "x") || x == UInt8(ascii: "X") {
            advance(); advance()
            var value: Double = 0
            var digits = 0
            while let byte = current, let digit = hexValue(byte) {
                value = value * 16 + Double(digit)
                digits += 1
                advance()
            }
            guard digits > 0 else { throw error("Invalid hexadecimal number", at: start) }
            return negative ? -value : value
        }
        var text = negative ? "-" : ""
        var mantissaDigits = 0
        while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
            text.append(Character(Unicode.Scalar(byte)))
            mantissaDigits += 1
            advance()
        }
        if current == UInt8(ascii: ".") {
            advance()
            text += mantissaDigits == 0 ? "0." : "."
            var fractionDigits = 0
            while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                text.append(Character(Unicode.Scalar(byte)))
                fractionDigits += 1
                advance()
            }
            if fractionDigits == 0 { text += "0" }
            mantissaDigits += fractionDigits
        }
        guard mantissaDigits > 0 else { throw error("Invalid number: expected a digit", at: start) }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            text += "e"
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
                if current == UInt8(ascii: "-") { text += "-" }
                advance()
            }
            var exponentDigits = 0
            while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                text.append(Character(Unicode.Scalar(byte)))
                exponentDigits += 1
                advance()
            }
            guard exponentDigits > 0 else { throw error("Invalid number: the exponent has no digits", at: start) }
        }
        // A number running straight into letters (`12px`) is a malformed value, not a number and a word.
        if let byte = current, (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_") {
            throw error("Invalid number: unexpected \(describeCurrent()) after the digits (values with units need quotes)")
        }
        guard let value = Double(text) else { throw error("Invalid number", at: start) }
        return value
    }
}
