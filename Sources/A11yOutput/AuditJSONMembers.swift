import A11yEngine

/// A value that writes its JSON object's members itself, in sorted key order, straight into the output. Findings,
/// pairs, their endpoints and locations are thousands of objects in a large audit; collecting each one's members
/// through `Encoder` (an existential per member) was most of the time spent writing JSON. The text is the one their
/// `Encodable` conformance gives (tests compare it with Foundation's encoder on real audits).
protocol JSONMembersWritable {
    func writeMembers(_ object: inout JSONObjectWriter) throws
    /// The members of the value at `value`, read there (an element of an array, or a field of one): a value passed on
    /// from an array is copied whole first, and a pair is ~400 bytes and a dozen references. By default its
    /// `writeMembers`.
    static func writeMembers(of value: UnsafePointer<Self>, _ object: inout JSONObjectWriter) throws
}

extension JSONMembersWritable {
    static func writeMembers(of value: UnsafePointer<Self>, _ object: inout JSONObjectWriter) throws {
        try value.pointee.writeMembers(&object)
    }
}

/// Writes one object's members, keys in the order given (which must be sorted, as the encoder sorts keys), into
/// `JSONBytes`: an audit's pairs and findings are ~100,000 keys and ~50,000 strings.
struct JSONObjectWriter {
    var out: JSONBytes
    let depth: Int
    let pretty: Bool
    private var count = 0
    #if DEBUG
    private var lastKey: StaticString?  // (for the order's assertion only: a store for every key of a release build)
    #endif

    private init(depth: Int, pretty: Bool, out: JSONBytes) {
        self.out = out
        self.depth = depth
        self.pretty = pretty
    }

    /// Inlined with its callers into each type's `writeMembers`: there the key is a constant, its length known.
    @inline(__always) private mutating func key(_ key: StaticString) {
        #if DEBUG
        assert(lastKey.map { Self.bytes($0).lexicographicallyPrecedes(Self.bytes(key)) } ?? true, "\(key) is out of order")
        lastKey = key
        #endif
        // `,`, line break, indentation and `"key" : ` stored straight into the output, after one check for room.
        let name = Self.bytes(key)
        let indentation = pretty ? 2 * (depth + 1) : 0
        // (7 bytes more: indentation is stored eight spaces at a time)
        var at = out.reserve(1 + (pretty ? 1 + indentation + 7 : 0) + name.count + (pretty ? 5 : 3))
        func put(_ byte: UInt8) {
            at.initialize(to: byte)
            at += 1
        }
        if count > 0 { put(UInt8(ascii: ",")) }
        if pretty {
            put(0x0A)
            Self.putSpaces(indentation, at: &at)
        }
        put(UInt8(ascii: "\""))
        Self.putShort(name, at: &at)
        put(UInt8(ascii: "\""))
        if pretty { put(UInt8(ascii: " ")) }
        put(UInt8(ascii: ":"))
        if pretty { put(UInt8(ascii: " ")) }
        out.advance(to: at)
        count += 1
    }

    /// `count` spaces, stored eight at a time (`count + 7` bytes must have room): ~100,000 keys are indented, and a call
    /// to fill a few bytes cost more than the bytes.
    @inline(__always) static func putSpaces(_ count: Int, at: inout UnsafeMutablePointer<UInt8>) {
        var offset = 0
        while offset < count {
            UnsafeMutableRawPointer(at + offset).storeBytes(of: 0x2020_2020_2020_2020 as UInt64, as: UInt64.self)
            offset += 8
        }
        at += count
    }

    /// A key's bytes, copied without a call when there are 4 to 16 (two overlapping words, or halves of them).
    @inline(__always) static func putShort(_ bytes: UnsafeBufferPointer<UInt8>, at: inout UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(bytes.baseAddress!), to = UnsafeMutableRawPointer(at), n = bytes.count
        if n >= 8 && n <= 16 {
            let head = from.loadUnaligned(as: UInt64.self), tail = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 && n < 8 {
            let head = from.loadUnaligned(as: UInt32.self), tail = from.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
        } else {
            at.initialize(from: bytes.baseAddress!, count: n)
        }
        at += n
    }

    private static func bytes(_ key: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
    }

    @inline(__always) mutating func string(_ key: StaticString, _ value: String?) {
        self.key(key)
        if let value { ValueWriter.appendString(value, into: &out) } else { out.write("null") }
    }

    @inline(__always) mutating func string(_ key: StaticString, utf8 value: UnsafeBufferPointer<UInt8>) {
        self.key(key)
        ValueWriter.appendString(utf8: value, into: &out)
    }

    @inline(__always) mutating func number(_ key: StaticString, _ value: Double?) throws {
        self.key(key)
        if let value { try ValueWriter.appendNumber(value, into: &out) } else { out.write("null") }
    }

    @inline(__always) mutating func integer(_ key: StaticString, _ value: Int) {
        self.key(key)
        ValueWriter.appendInteger(value, into: &out)
    }

    @inline(__always) mutating func bool(_ key: StaticString, _ value: Bool) {
        self.key(key)
        // Typed: two bare literals made a String, written through its UTF-8 view (every pair and endpoint has a flag).
        out.write(value ? "true" as StaticString : "false")
    }

    @inline(__always) mutating func object(_ key: StaticString, _ value: (some JSONMembersWritable)?) throws {
        self.key(key)
        guard let value else { return out.write("null") }
        try Self.write(value, depth: depth + 1, pretty: pretty, into: &out)
    }

    @inline(__always) mutating func object(_ key: StaticString, of value: UnsafePointer<some JSONMembersWritable>) throws {
        self.key(key)
        try Self.write(of: value, depth: depth + 1, pretty: pretty, into: &out)
    }

    @inline(__always) mutating func location(_ key: StaticString, _ value: SourceLocation?) {
        self.key(key)
        guard let value else { return out.write("null") }
        Self.writeLocation(value, depth: depth + 1, pretty: pretty, into: &out)
    }

    mutating func locations(_ key: StaticString, _ values: [SourceLocation]) {
        self.key(key)
        JSONLayout.open(isArray: true, into: &out)
        for (i, value) in values.enumerated() {
            JSONLayout.beforeMember(i, key: nil, depth: depth + 1, pretty: pretty, into: &out)
            Self.writeLocation(value, depth: depth + 2, pretty: pretty, into: &out)
        }
        JSONLayout.close(isArray: true, isEmpty: values.isEmpty, depth: depth + 1, pretty: pretty, into: &out)
    }

    /// A location's object at `depth`, the text `SourceLocation.writeMembers` gives, written with two checks for room:
    /// every pair and finding writes two or three locations (~8,700 in a 5,000-token audit), and the generic object
    /// writer cost ~900 instructions each.
    static func writeLocation(_ location: SourceLocation, depth: Int, pretty: Bool, into out: inout JSONBytes) {
        let indentation = pretty ? 2 * (depth + 1) : 0
        // Line break and indentation before a member, and `"key" : ` (pretty) or `"key":`.
        func member(_ name: StaticString, first: Bool, at: inout UnsafeMutablePointer<UInt8>) {
            if !first { put(UInt8(ascii: ","), at: &at) }
            if pretty {
                put(0x0A, at: &at)
                putSpaces(indentation, at: &at)
            }
            put(UInt8(ascii: "\""), at: &at)
            putShort(bytes(name), at: &at)
            put(UInt8(ascii: "\""), at: &at)
            if pretty { put(UInt8(ascii: " "), at: &at) }
            put(UInt8(ascii: ":"), at: &at)
            if pretty { put(UInt8(ascii: " "), at: &at) }
        }
        // Room for a member's separator, line break, indentation (and 7 bytes: `putSpaces`), a key of up to 6 bytes and
        // its `" : "`, and 20 digits.
        let room = 2 + indentation + 7 + 8 + 3 + 20
        var at = out.reserve(1 + 2 * room)
        put(UInt8(ascii: "{"), at: &at)
        member("column", first: true, at: &at)
        putDigits(location.column, at: &at)
        member("file", first: false, at: &at)
        out.advance(to: at)
        // A path known to need no escaping is copied as it is: a block of pairs or findings names a few files thousands
        // of times.
        let path = location.fileBytes
        if out.plainPath == location.fileIdentity || ValueWriter.needsNoEscaping(path) {
            out.plainPath = location.fileIdentity
            at = out.reserve(path.count + 2)
            put(UInt8(ascii: "\""), at: &at)
            if let base = path.baseAddress { at.initialize(from: base, count: path.count) }
            at += path.count
            put(UInt8(ascii: "\""), at: &at)
            out.advance(to: at)
        } else {
            ValueWriter.appendString(utf8: path, into: &out)
        }
        at = out.reserve(room + 1 + depth * 2 + 7 + 1)
        member("line", first: false, at: &at)
        putDigits(location.line, at: &at)
        if pretty {
            put(0x0A, at: &at)
            putSpaces(depth * 2, at: &at)
        }
        put(UInt8(ascii: "}"), at: &at)
        out.advance(to: at)
    }

    @inline(__always) private static func put(_ byte: UInt8, at: inout UnsafeMutablePointer<UInt8>) {
        at.initialize(to: byte)
        at += 1
    }

    /// An integer's decimal digits (`-` first if negative), at most 20 bytes.
    private static func putDigits(_ value: Int, at: inout UnsafeMutablePointer<UInt8>) {
        if value < 0 { put(UInt8(ascii: "-"), at: &at) }
        var rest = value.magnitude, count = 1
        while rest >= 10 { rest /= 10; count += 1 }
        rest = value.magnitude
        for i in stride(from: count - 1, through: 0, by: -1) {
            (at + i).initialize(to: UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        at += count
    }

    mutating func objects(_ key: StaticString, _ values: [some JSONMembersWritable]) throws {
        self.key(key)
        JSONLayout.open(isArray: true, into: &out)
        for (i, value) in values.enumerated() {
            JSONLayout.beforeMember(i, key: nil, depth: depth + 1, pretty: pretty, into: &out)
            try Self.write(value, depth: depth + 2, pretty: pretty, into: &out)
        }
        JSONLayout.close(isArray: true, isEmpty: values.isEmpty, depth: depth + 1, pretty: pretty, into: &out)
    }

    /// Writes `value` as an object at `depth`, appended to `out` at once.
    static func write(_ value: some JSONMembersWritable, depth: Int, pretty: Bool, into out: inout [UInt8]) throws {
        // Sized for a pair or a finding (~700 bytes pretty), grown if it is more.
        var text = JSONBytes(capacity: 1024)
        defer { text.deallocate() }
        try write(value, depth: depth, pretty: pretty, into: &text)
        out.append(contentsOf: text.bytes)
    }

    /// Writes `value` as an object at `depth` (a member's object: into the same bytes).
    static func write(_ value: some JSONMembersWritable, depth: Int, pretty: Bool, into out: inout JSONBytes) throws {
        var object = JSONObjectWriter(depth: depth, pretty: pretty, out: out)
        defer { out = object.out }  // the bytes handed back (moved if they grew)
        try object.finish { try value.writeMembers(&$0) }
    }

    /// Writes the value at `value` as an object at `depth`, read in place (`JSONMembersWritable.writeMembers(of:_:)`).
    static func write<Value: JSONMembersWritable>(of value: UnsafePointer<Value>, depth: Int, pretty: Bool, into out: inout JSONBytes) throws {
        var object = JSONObjectWriter(depth: depth, pretty: pretty, out: out)
        defer { out = object.out }
        try object.finish { try Value.writeMembers(of: value, &$0) }
    }

    @inline(__always) private mutating func finish(_ writeMembers: (inout JSONObjectWriter) throws -> Void) throws {
        JSONLayout.open(isArray: false, into: &out)
        try writeMembers(&self)
        JSONLayout.close(isArray: false, isEmpty: count == 0, depth: depth, pretty: pretty, into: &out)
    }
}

extension SourceLocation: JSONMembersWritable {
    func writeMembers(_ object: inout JSONObjectWriter) throws {
        object.integer("column", column)
        object.string("file", utf8: fileBytes)  // (its `String` is one storage the writing cores would share)
        object.integer("line", line)
    }
}

extension Finding: JSONMembersWritable {
    /// As `encode(to:)`: `appearance`, `location` and `theme` always present, the others only when set.
    func writeMembers(_ object: inout JSONObjectWriter) throws {
        object.string("appearance", appearance?.rawValue)
        if let component { object.string("component", component) }
        if let fixHint { object.string("fixHint", fixHint) }
        object.location("location", location)
        if let measured { try object.number("measured", measured) }
        object.string("message", message)
        if !relatedLocations.isEmpty { object.locations("relatedLocations", relatedLocations) }
        if let required { try object.number("required", required) }
        object.string("rule", rule)
        object.string("severity", severity.rawValue)
        object.string("subject", subject)
        object.string("theme", theme)
    }
}

extension Audit.Endpoint: JSONMembersWritable {
    func writeMembers(_ object: inout JSONObjectWriter) throws {
        try withUnsafePointer(to: self) { try Self.writeMembers(of: $0, &object) }
    }

    static func writeMembers(of endpoint: UnsafePointer<Audit.Endpoint>, _ object: inout JSONObjectWriter) throws {
        object.string("color", endpoint.pointee.color)
        object.bool("explicit", endpoint.pointee.explicit)
        object.location("location", endpoint.pointee.location)
        if let property = endpoint.pointee.property { object.string("property", property) }
        if let token = endpoint.pointee.token { object.string("token", token) }
    }
}

extension Audit.Typography: JSONMembersWritable {
    func writeMembers(_ object: inout JSONObjectWriter) throws {
        object.string("how", how)
        object.string("property", property)
        if let size { try object.number("size", size) }
        if let weight { object.string("weight", weight) }
    }
}

extension Audit.Pair: JSONMembersWritable {
    func writeMembers(_ object: inout JSONObjectWriter) throws {
        try withUnsafePointer(to: self) { try Self.writeMembers(of: $0, &object) }
    }

    /// As `encode(to:)`: `component`, `required` and `theme` always present, `typography` and `drawnAt` when set. Fields
    /// read one by one where the pair is (its endpoints too), not copied whole.
    static func writeMembers(of pair: UnsafePointer<Audit.Pair>, _ object: inout JSONObjectWriter) throws {
        object.string("appearance", pair.pointee.appearance.rawValue)
        try object.object("background", of: pair.pointer(to: \.background)!)
        object.string("component", pair.pointee.component)
        if let drawnAt = pair.pointee.drawnAt { object.location("drawnAt", drawnAt) }
        object.string("explanation", pair.pointee.explanation)
        try object.object("foreground", of: pair.pointer(to: \.foreground)!)
        object.bool("pass", pair.pointee.pass)
        try object.number("ratio", pair.pointee.ratio)
        object.string("reason", pair.pointee.reason.rawValue)
        try object.number("required", pair.pointee.required)
        object.string("role", pair.pointee.role.rawValue)
        object.string("subject", pair.pointee.subject)
        object.string("theme", pair.pointee.theme)
        if let typography = pair.pointee.typography { try object.object("typography", typography) }
    }
}
