import Foundation
import A11yEngine

/// Encodes `Encodable` values as JSON text with sorted keys, byte-identical to Foundation's `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` (plus `.prettyPrinted` when `pretty`). It exists for speed: a 2,400-pair
/// audit is 4 MB of JSON, and Foundation's encoder spent ~150 ms building and walking a generic value tree. Here every
/// value is written as text as soon as it is encoded, at its final indentation; an object keeps its members' text
/// (to sort them by key when it is complete), an array appends to its own text directly.
public struct SortedJSONEncoder {
    public var pretty: Bool

    public init(pretty: Bool) { self.pretty = pretty }

    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var output: [UInt8] = []
        try ValueWriter.append(value, depth: 0, pretty: pretty, into: &output)
        return output
    }

    /// The same text as `encode`, handed to `sink` in pieces of about `chunk` bytes as it is written: objects whose
    /// members are plain keyed values and arrays are written member by member (members sorted by key first), so a
    /// 2,400-pair audit never exists as one 4 MB buffer. Anything else (nested containers, single values) is written
    /// by `encode`'s own path, whole. A piece's bytes are lent to `sink` for the call (a large array's blocks are
    /// handed over in the buffers they were written in, not copied into arrays first).
    public func write<T: Encodable>(_ value: T, chunk: Int = 1 << 16, to sink: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try withoutActuallyEscaping(sink) { sink in
            var stream = StreamingWriter(pretty: pretty, chunk: chunk, sink: sink)
            try stream.write(value, depth: 0)
            try stream.flush()
        }
    }
}

/// `SortedJSONEncoder.write`: walks objects and arrays itself, flushing between members.
struct StreamingWriter {
    let pretty: Bool
    let chunk: Int
    let sink: (UnsafeBufferPointer<UInt8>) throws -> Void
    var out: [UInt8] = []
    /// Each type's member keys in the order it encodes them, and that order sorted: thousands of pairs share one.
    var keyOrders: [ObjectIdentifier: (keys: [String], sorted: [Int])] = [:]

    mutating func flush() throws {
        guard !out.isEmpty else { return }
        try out.withUnsafeBufferPointer { try sink($0) }
        out.removeAll(keepingCapacity: true)
    }

    mutating func write<T: Encodable>(_ value: T, depth: Int) throws {
        if out.count >= chunk { try flush() }
        if T.self == String.self || T.self == Double.self || T.self == Int.self || T.self == Bool.self {
            return try ValueWriter.append(value, depth: depth, pretty: pretty, into: &out)
        }
        // An audit's findings and pairs and their arrays, by metatype: the runtime's first answer to a cast (below)
        // scans every conformance record of the binary, ~500,000 instructions for each type and protocol, every run.
        if T.self == Finding.self {
            return try JSONObjectWriter.write(unsafeBitCast(value, to: Finding.self), depth: depth, pretty: pretty, into: &out)
        }
        if T.self == Audit.Pair.self {
            return try JSONObjectWriter.write(unsafeBitCast(value, to: Audit.Pair.self), depth: depth, pretty: pretty, into: &out)
        }
        if T.self == [Finding].self { return try writeArray(unsafeBitCast(value, to: [Finding].self), depth: depth) }
        if T.self == [Audit.Pair].self { return try writeArray(unsafeBitCast(value, to: [Audit.Pair].self), depth: depth) }
        if T.self == [String].self { return try writeArray(unsafeBitCast(value, to: [String].self), depth: depth) }
        if T.self == [Theme].self { return try writeArray(unsafeBitCast(value, to: [Theme].self), depth: depth) }
        if T.self == [Appearance].self { return try writeArray(unsafeBitCast(value, to: [Appearance].self), depth: depth) }
        if T.self == JSONValue.self {
            switch unsafeBitCast(value, to: JSONValue.self) {
            case .array(let elements): return try writeArray(elements, depth: depth)
            case .object(let members): return try writeObject(members.map { ($0.key, $0.value as (any Encodable)?) }, depth: depth)
            default: break
            }
        } else {
            // Told apart by type, once per type: casting the value itself copies it into an existential (a finding's
            // every field retained and released) for each of thousands of values.
            let type = ObjectIdentifier(T.self)
            let kind: TypeKind
            if let known = typeKinds[type] { kind = known } else {
                kind = T.self is any JSONMembersWritable.Type ? .direct : T.self is any EncodableElements.Type ? .array
                    : T.self is any EncodableOptional.Type ? .optional : .other
                typeKinds[type] = kind
            }
            switch kind {
            case .direct:
                let direct = value as! any JSONMembersWritable
                return try JSONObjectWriter.write(direct, depth: depth, pretty: pretty, into: &out)
            case .array: return try (value as! any EncodableElements).writeElements(into: &self, depth: depth)
            case .optional, .encodedWhole: break
            case .other:
                if let members = MemberCollector.members(of: value) { return try writeObject(members, depth: depth, type: type) }
                // Not a plain keyed object (an enum's single value, nested containers): its type is written whole from
                // now on, without collecting first. The text is the same either way; only streaming differs.
                typeKinds[type] = .encodedWhole
            }
        }
        try ValueWriter.append(value, depth: depth, pretty: pretty, into: &out)
    }

    /// How values of a type are written: their own members (`direct`), element by element (`array`), unwrapped
    /// (`optional`), whole through `encode(to:)` (`encodedWhole`), or member by member after collecting them (`other`).
    enum TypeKind { case direct, array, optional, encodedWhole, other }
    var typeKinds: [ObjectIdentifier: TypeKind] = Self.auditTypeKinds

    /// The audit's own types and how they are written, known without asking: the runtime's first answer about a type and
    /// a protocol scans every conformance record of the binary (~300,000 instructions), and each of these was asked about
    /// all three protocols in every run. (`ValueWriter.append` also skips its casts for them; the arrays that
    /// `write` tells apart by metatype are here for it.)
    static let auditTypeKinds: [ObjectIdentifier: TypeKind] = [
        ObjectIdentifier(Audit.self): .other, ObjectIdentifier(Audit.Summary.self): .other,
        ObjectIdentifier(Audit.PolicyInfo.self): .other, ObjectIdentifier(Audit.SurfacesInfo.self): .other,
        ObjectIdentifier(Theme.self): .other, ObjectIdentifier([String: Int].self): .other,
        ObjectIdentifier(Appearance.self): .encodedWhole,
        ObjectIdentifier([Audit.Pair].self): .array, ObjectIdentifier([Finding].self): .array,
        ObjectIdentifier([Theme].self): .array, ObjectIdentifier([Appearance].self): .array,
        ObjectIdentifier([String].self): .array,
    ]

    /// Generic over the element type: an audit's thousands of pairs are written as themselves, not each copied into
    /// an existential box first.
    mutating func writeArray<Element: Encodable>(_ elements: [Element], depth: Int) throws {
        JSONLayout.open(isArray: true, into: &out)
        // The pool's width (ProcessInfo's count read the cgroup's files at every array).
        let workers = WorkerPool.shared.width
        // A worker's own writer (a block, collected whole) writes an array inside it in place.
        if workers > 1, elements.count >= 2 * Self.block, chunk != Self.collectedWhole {
            try writeElementsConcurrently(elements, depth: depth, workers: workers)
        } else if Element.self == Audit.Pair.self {
            // (The two arrays read in place are known by their types: a cast to `JSONMembersWritable` on the serial path
            // would make the runtime scan every conformance record the first time; see `auditTypeKinds`.)
            try writeInPlace(unsafeBitCast(elements, to: [Audit.Pair].self), depth: depth)
        } else if Element.self == Finding.self {
            try writeInPlace(unsafeBitCast(elements, to: [Finding].self), depth: depth)
        } else {
            for (i, element) in elements.enumerated() {
                JSONLayout.beforeMember(i, key: nil, depth: depth, pretty: pretty, into: &out)
                try write(element, depth: depth + 1)
            }
        }
        JSONLayout.close(isArray: true, isEmpty: elements.isEmpty, depth: depth, pretty: pretty, into: &out)
    }

    /// Pairs or findings, each read where it is in the array (`JSONMembersWritable.writeMembers(of:_:)`; passed on as a
    /// value, a pair was copied whole), written into one buffer reused for all.
    private mutating func writeInPlace<Direct: JSONMembersWritable>(_ elements: [Direct], depth: Int) throws {
        var text = JSONBytes(capacity: 1024)
        defer { text.deallocate() }
        try elements.withUnsafeBufferPointer { elements in
            for i in elements.indices {
                JSONLayout.beforeMember(i, key: nil, depth: depth, pretty: pretty, into: &out)
                if out.count >= chunk { try flush() }
                text.removeAll()
                try JSONObjectWriter.write(of: elements.baseAddress! + i, depth: depth + 1, pretty: pretty, into: &text)
                out.append(contentsOf: text.bytes)
            }
        }
    }

    /// Elements per block written by one worker.
    static let block = 256
    /// The `chunk` of a writer whose text is kept whole in `out` (a worker's block): it never calls its sink.
    static let collectedWhole = Int.max

    /// A large array's elements (an audit's thousands of pairs and findings) in blocks, each written into a buffer of
    /// its own by the next free worker and handed to the sink in order by the worker that finishes the next one: the
    /// same text, on all cores, written out while the other workers go on, and never more than `2 * workers` blocks
    /// taken and not yet written.
    private mutating func writeElementsConcurrently<Element: Encodable>(_ elements: [Element], depth: Int, workers: Int) throws {
        try flush()
        let blocks = stride(from: 0, to: elements.count, by: Self.block).map { $0..<min($0 + Self.block, elements.count) }
        let order = BlocksInOrder(count: blocks.count, window: 2 * workers, sink: sink)
        let pretty = pretty
        // Pairs and findings write their own members: the element type is opened once for the array, where `write`
        // looked its kind up and cast (and boxed) each element; each is read where it is in the array (passed on as a
        // value, a pair was copied three times).
        // They are written into one `JSONBytes` per block (not each into its own, then appended to the block's array).
        let writeDirect = (Element.self as? any JSONMembersWritable.Type).map {
            Self.membersWriter(of: $0, for: elements, depth: depth + 1, pretty: pretty)
        }
        let shared = ReadOnly(value: (elements: elements, blocks: blocks, writeDirect: writeDirect))
        parallelPerform(iterations: workers) { _ in
            // Each block's buffer sized for the last one this worker wrote (blocks of pairs or findings are alike), the
            // first for a kilobyte an element (pairs and findings are less in pretty JSON): grown from empty, a block's
            // text was copied at every doubling (~6 MB copied for elevate-ios's audit).
            var lastSize = Self.block << 10
            while let b = order.take() {
                do {
                    if let writeDirect = shared.value.writeDirect {
                        // The block's buffer is handed over as it is (copied into an array, 5,000 tokens' pairs and
                        // findings were ~4 MB copied); it is freed once written.
                        var text = JSONBytes(capacity: lastSize + lastSize / 8)
                        do {
                            for i in shared.value.blocks[b] {
                                JSONLayout.beforeMember(i, key: nil, depth: depth, pretty: pretty, into: &text)
                                try writeDirect(i, &text)
                            }
                        } catch {
                            text.deallocate()
                            throw error
                        }
                        lastSize = text.count
                        order.finish(b, text)
                    } else {
                        var writer = StreamingWriter(pretty: pretty, chunk: Self.collectedWhole, sink: { _ in })
                        writer.out.reserveCapacity(lastSize + lastSize / 8)
                        for i in shared.value.blocks[b] {
                            JSONLayout.beforeMember(i, key: nil, depth: depth, pretty: pretty, into: &writer.out)
                            try writer.write(shared.value.elements[i], depth: depth + 1)
                        }
                        lastSize = writer.out.count
                        var text = JSONBytes(capacity: max(writer.out.count, 1))
                        writer.out.withUnsafeBufferPointer { text.write($0) }
                        order.finish(b, text)
                    }
                } catch {
                    order.fail(error)
                }
            }
        }
        try order.check()
    }

    /// Writes the element at an index of `elements`, whose type is `Direct` (the same type, opened from an existential),
    /// as its own members, read in place.
    private static func membersWriter<Element, Direct: JSONMembersWritable>(
        of _: Direct.Type, for elements: [Element], depth: Int, pretty: Bool
    ) -> (Int, inout JSONBytes) throws -> Void {
        precondition(Element.self == Direct.self)
        let elements = unsafeBitCast(elements, to: [Direct].self)
        return { i, out in
            try elements.withUnsafeBufferPointer { elements in
                try JSONObjectWriter.write(of: elements.baseAddress! + i, depth: depth, pretty: pretty, into: &out)
            }
        }
    }

    /// nil values are `null`.
    mutating func writeObject(_ members: [(key: String, value: (any Encodable)?)], depth: Int, type: ObjectIdentifier? = nil) throws {
        JSONLayout.open(isArray: false, into: &out)
        let keys = members.map(\.key)
        let sorted: [Int]
        if let type, let known = keyOrders[type], known.keys == keys {
            sorted = known.sorted
        } else {
            // A key encoded twice keeps its last value, as the buffered path does.
            var last: [String: Int] = [:]
            for (i, member) in members.enumerated() { last[member.key] = i }
            let unique = members.indices.filter { last[members[$0].key] == $0 }
            sorted = unique.sorted { members[$0].key.utf8.lexicographicallyPrecedes(members[$1].key.utf8) }
            if let type, unique.count == members.count { keyOrders[type] = (keys, sorted) }
        }
        for (i, index) in sorted.enumerated() {
            let member = members[index]
            JSONLayout.beforeMember(i, key: member.key, depth: depth, pretty: pretty, into: &out)
            if let value = member.value { try write(value, depth: depth + 1) } else { out.append(contentsOf: "null".utf8) }
        }
        JSONLayout.close(isArray: false, isEmpty: sorted.isEmpty, depth: depth, pretty: pretty, into: &out)
    }
}

/// Arrays, told apart without a cast per element type, and written with their element type known.
protocol EncodableElements { func writeElements(into writer: inout StreamingWriter, depth: Int) throws }
extension Array: EncodableElements where Element: Encodable {
    func writeElements(into writer: inout StreamingWriter, depth: Int) throws { try writer.writeArray(self, depth: depth) }
}

/// Collects an object's members without encoding them, when its `encode(to:)` uses one keyed container and only
/// `encode(_:forKey:)`/`encodeNil(forKey:)`; nil for anything else (the value is then encoded whole).
final class MemberCollector: Encoder {
    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var members: [(key: String, value: (any Encodable)?)] = []
    var containers = 0
    var plain = true

    static func members(of value: some Encodable) -> [(key: String, value: (any Encodable)?)]? {
        let collector = MemberCollector()
        guard (try? value.encode(to: collector)) != nil, collector.plain, collector.containers == 1 else { return nil }
        return collector.members
    }

    /// In the order encoded, a key encoded twice twice (the writer keeps the last).
    func add(_ key: String, _ value: (any Encodable)?) { members.append((key, value)) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        containers += 1
        return KeyedEncodingContainer(CollectingContainer<Key>(collector: self))
    }
    func unkeyedContainer() -> UnkeyedEncodingContainer {
        plain = false
        return UnkeyedTextContainer(encoder: ContainerEncoder(depth: 0, pretty: false))
    }
    func singleValueContainer() -> SingleValueEncodingContainer {
        plain = false
        return SingleTextContainer(encoder: ContainerEncoder(depth: 0, pretty: false))
    }
}

struct CollectingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let collector: MemberCollector
    var codingPath: [CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { collector.add(key.stringValue, nil) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { collector.add(key.stringValue, value) }

    // Anything nested makes the value one the buffered path writes (the containers returned only absorb the calls).
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        collector.plain = false
        return ContainerEncoder(depth: 0, pretty: false).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        collector.plain = false
        return ContainerEncoder(depth: 0, pretty: false).unkeyedContainer()
    }
    mutating func superEncoder() -> Encoder { collector.plain = false; return ContainerEncoder(depth: 0, pretty: false) }
    mutating func superEncoder(forKey key: Key) -> Encoder { collector.plain = false; return ContainerEncoder(depth: 0, pretty: false) }
}

/// Where JSON text is written: an array of bytes, or `JSONBytes` (the objects an audit has thousands of).
protocol JSONOutput {
    mutating func append(_ byte: UInt8)
    /// Bytes in memory, copied at once.
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Bytes between quotes (a string that needs no escape).
    mutating func writeQuoted(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension JSONOutput {
    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        write(UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    }
    mutating func write(_ text: StaticString) { write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
    mutating func write(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { write($0) } }
    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }
    mutating func writeQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        write(bytes)
        append(UInt8(ascii: "\""))
    }
}

extension Array: JSONOutput where Element == UInt8 {
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

/// JSON text written through a pointer into memory it owns (`deallocate` it when done). An append only checks that
/// there is room, where an array's also checks that its buffer is not shared, through a generic path: ~90 instructions
/// for each of the ~100,000 keys and ~50,000 strings of a 5,000-token audit's pairs and findings.
struct JSONBytes: JSONOutput {
    private(set) var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    /// The file whose path `JSONObjectWriter.writeLocation` last found needs no escaping (it then copies it as it is).
    var plainPath: ObjectIdentifier?

    init(capacity: Int) {
        start = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    func deallocate() { start.deallocate() }

    /// Empty again, its memory kept.
    mutating func removeAll() { count = 0 }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    /// Where the next `extra` bytes go, with room for them; `advance(to:)` then says where they ended.
    @inline(__always) mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if count + extra > capacity { grow(to: count + extra) }
        return start + count
    }

    @inline(__always) mutating func advance(to end: UnsafeMutablePointer<UInt8>) { count = end - start }

    private mutating func grow(to needed: Int) {
        let larger = max(needed, 2 * capacity)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: start, count: count)
        start.deallocate()
        (start, capacity) = (moved, larger)
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        reserve(1).initialize(to: byte)
        count += 1
    }

    @inline(__always) mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        reserve(bytes.count).initialize(from: base, count: bytes.count)
        count += bytes.count
    }

    /// After one check for room; a short string's bytes copied without a call (most of an audit's ~50,000 strings).
    mutating func writeQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        var at = reserve(bytes.count + 2)
        at.initialize(to: UInt8(ascii: "\""))
        at += 1
        if bytes.count > 0 { JSONObjectWriter.putShort(bytes, at: &at) }
        at.initialize(to: UInt8(ascii: "\""))
        advance(to: at + 1)
    }
}

/// Brackets, separators, keys and indentation of objects and arrays: one layout for the buffered and the streaming path.
enum JSONLayout {
    static func open(isArray: Bool, into out: inout some JSONOutput) { out.append(UInt8(ascii: isArray ? "[" : "{")) }

    static func beforeMember(_ index: Int, key: String?, depth: Int, pretty: Bool, into out: inout some JSONOutput) {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        ValueWriter.newline(depth: depth + 1, pretty: pretty, into: &out)
        if let key {
            ValueWriter.appendString(key, into: &out)
            out.write(pretty ? " : " as StaticString : ":")  // (bare literals made a String)
        }
    }

    static func close(isArray: Bool, isEmpty: Bool, depth: Int, pretty: Bool, into out: inout some JSONOutput) {
        if pretty {
            if isEmpty { out.append(0x0A) }
            ValueWriter.newline(depth: depth, pretty: pretty, into: &out)
        }
        out.append(UInt8(ascii: isArray ? "]" : "}"))
    }
}

/// Writes one value: scalars straight into the caller's text, anything else through its own `encode(to:)`.
enum ValueWriter {
    static func append<T: Encodable>(_ value: T, depth: Int, pretty: Bool, into out: inout [UInt8]) throws {
        // Metatype comparisons, not dynamic casts: most values are strings and numbers, and casts were the cost.
        if T.self == String.self { return appendString(unsafeBitCast(value, to: String.self), into: &out) }
        if T.self == Double.self { return try appendNumber(unsafeBitCast(value, to: Double.self), into: &out) }
        if T.self == Int.self { return appendInteger(unsafeBitCast(value, to: Int.self), into: &out) }
        if T.self == Bool.self { return out.append(contentsOf: (unsafeBitCast(value, to: Bool.self) ? "true" : "false").utf8) }
        if T.self == URL.self { return appendString(unsafeBitCast(value, to: URL.self).absoluteString, into: &out) }
        if T.self == Data.self { return appendString(unsafeBitCast(value, to: Data.self).base64EncodedString(), into: &out) }
        // An appearance encodes as its raw value (every pair and finding has one; asking the runtime whether it is an
        // optional or writes its own members scanned every conformance record, twice, in every run).
        if T.self == Appearance.self { return appendString(unsafeBitCast(value, to: Appearance.self).rawValue, into: &out) }
        // The audit's own types (`StreamingWriter.auditTypeKinds`) are neither: not asked, as each cast's first answer
        // scans every conformance record.
        if StreamingWriter.auditTypeKinds[ObjectIdentifier(T.self)] == nil {
            if T.self is any JSONMembersWritable.Type {
                let direct = value as! any JSONMembersWritable
                return try JSONObjectWriter.write(direct, depth: depth, pretty: pretty, into: &out)
            }
            if let optional = value as? any EncodableOptional {
                // `nil` is `null`; a present value is written as itself, without an encoder of its own.
                guard let wrapped = optional.wrappedEncodable else { return out.append(contentsOf: "null".utf8) }
                return try append(wrapped, depth: depth, pretty: pretty, into: &out)
            }
        }
        let encoder = ContainerEncoder(depth: depth, pretty: pretty)
        try value.encode(to: encoder)
        encoder.finish(into: &out)
    }

    /// Shortest form that reads back (`Double` and `Float` each print their own), without a trailing `.0`.
    static func appendNumber<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F, into out: inout some JSONOutput) throws {
        // A whole or half number below a million (a pair's required ratio, a font size) as its digits: the text
        // `description` gives (checked for every such number), without the shortest-digits search and its string.
        if F.self == Double.self {
            let double = unsafeBitCast(value, to: Double.self)
            if double.sign == .plus, double < 1_000_000, let twice = Int(exactly: double * 2) {
                appendInteger(twice / 2, into: &out)
                if twice % 2 == 1 { out.write(".5") }
                return
            }
        }
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not valid JSON"))
        }
        // A `Double` hands its text to a stream as bytes (`description` made a String of them: an allocation per number,
        // and an audit writes one per pair and finding).
        if F.self == Double.self {
            var text = NumberText()
            unsafeBitCast(value, to: Double.self).write(to: &text)
            if !text.incomplete { return text.withBytes { writeWithoutPointZero($0, into: &out) } }
        }
        var text = value.description
        text.withUTF8 { writeWithoutPointZero($0, into: &out) }
    }

    /// A number's text without a trailing `.0` (dropped on the bytes: `hasSuffix` and `removeLast` on a string cost more
    /// than the digits).
    private static func writeWithoutPointZero(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout some JSONOutput) {
        let n = bytes.count
        let kept = n >= 2 && bytes[n - 2] == UInt8(ascii: ".") && bytes[n - 1] == UInt8(ascii: "0") ? n - 2 : n
        out.write(UnsafeBufferPointer(rebasing: bytes[..<kept]))
    }

    /// The text `Double.write(to:)` gives (the same as its `description`), kept on the stack: the standard library
    /// passes its digits to `_writeASCII` as bytes. A double's shortest text is at most 24 bytes
    /// (`-2.2250738585072014e-308`); text given otherwise, or longer, is not kept (`incomplete`: then `description`).
    struct NumberText: TextOutputStream {
        private var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        private var count = 0
        private(set) var incomplete = false

        mutating func write(_ string: String) { incomplete = true }

        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            guard let base = buffer.baseAddress else { return }
            guard count + buffer.count <= MemoryLayout.size(ofValue: digits) else { return incomplete = true }
            let count = count
            withUnsafeMutableBytes(of: &digits) { $0.baseAddress!.advanced(by: count).copyMemory(from: base, byteCount: buffer.count) }
            self.count += buffer.count
        }

        /// The text's bytes, for `body`.
        func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            withUnsafeBytes(of: digits) { body(UnsafeBufferPointer(rebasing: $0.assumingMemoryBound(to: UInt8.self)[..<count])) }
        }
    }

    /// Digits written straight into the output: `String(value)` cost ~600 instructions an integer, and every location in
    /// an audit writes two (a 5,000-token audit ~17,000).
    static func appendInteger(_ value: some BinaryInteger, into out: inout some JSONOutput) {
        guard let number = Int64(exactly: value) else { return out.write(String(value)) }
        if number < 0 { out.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so Int64.min has one too.
        var rest = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 20 digits at most, on the stack
        withUnsafeMutableBytes(of: &digits) { buffer in
            var at = buffer.count
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            out.write(UnsafeRawBufferPointer(rebasing: buffer[at...]))
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped as Foundation does; slashes and non-ASCII as is.
    /// Runs of bytes that need no escape are copied at once.
    static func appendString(_ string: String, into out: inout some JSONOutput) {
        // A native string's bytes read in place: the mutable copy `withUTF8` needs counted a reference to each string.
        if string.utf8.withContiguousStorageIfAvailable({ appendString(utf8: $0, into: &out) }) != nil { return }
        var string = string
        string.withUTF8 { appendString(utf8: $0, into: &out) }
    }

    /// A JSON string of these UTF-8 bytes, escaped as `appendString` does.
    static func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout some JSONOutput) {
        // Nearly all of an audit's strings need no escape: tested whole, then copied at once between their quotes.
        if needsNoEscaping(bytes) { return out.writeQuoted(bytes) }
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
            let i = i - 1
            out.write(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            runStart = i + 1
            out.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            case 0x08: out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "f"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                out.write("u00")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        out.write(UnsafeBufferPointer(rebasing: bytes[runStart...]))
        out.append(UInt8(ascii: "\""))
    }

    /// Whether a JSON string of these bytes is the bytes themselves between quotes. Sixteen bytes at a time, and the
    /// last sixteen read where they end (bytes read twice are tested twice); a shorter string is read as sixteen bytes
    /// made of overlapping words (the bytes of a tail byte by byte cost more than the rest of a string).
    static func needsNoEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        guard let base = bytes.baseAddress, n > 0 else { return true }
        let raw = UnsafeRawPointer(base)
        func load<T>(_ offset: Int, as _: T.Type) -> T { raw.loadUnaligned(fromByteOffset: offset, as: T.self) }
        if n >= 16 {
            var i = 0
            while i + 16 < n {
                if needsEscaping(load(i, as: SIMD16<UInt8>.self)) { return false }
                i += 16
            }
            return !needsEscaping(load(n - 16, as: SIMD16<UInt8>.self))
        }
        let words: (UInt64, UInt64)
        if n >= 8 {
            words = (load(0, as: UInt64.self), load(n - 8, as: UInt64.self))
        } else if n >= 4 {
            let word = UInt64(load(0, as: UInt32.self)) | UInt64(load(n - 4, as: UInt32.self)) << 32
            words = (word, word)
        } else {
            // One to three bytes, the rest spaces (which need no escape).
            let word = UInt64(base[0]) | UInt64(base[n / 2]) << 8 | UInt64(base[n - 1]) << 16 | 0x2020_2020_2000_0000
            words = (word, word)
        }
        return !needsEscaping(unsafeBitCast(words, to: SIMD16<UInt8>.self))
    }

    /// Whether any of these bytes is `"`, `\` or a control character, byte by byte in one vector: a byte's high bit
    /// is set in `x &- 1 & ~x` only where it is zero, and in `x &- 0x20 & ~x` only where it is below 0x20.
    @inline(__always) static func needsEscaping(_ chunk: SIMD16<UInt8>) -> Bool {
        let quote = chunk ^ 0x22, backslash = chunk ^ 0x5C
        let flagged = (chunk &- 0x20) & ~chunk | (quote &- 1) & ~quote | (backslash &- 1) & ~backslash
        let halves = unsafeBitCast(flagged, to: (UInt64, UInt64).self)
        return (halves.0 | halves.1) & 0x8080_8080_8080_8080 != 0
    }

    /// A line break and the indentation of `depth` (pretty only), copied whole: it comes before every member of a 4 MB
    /// audit, and appending a repeated element went space by space.
    static func newline(depth: Int, pretty: Bool, into out: inout some JSONOutput) {
        guard pretty else { return }
        if 1 + depth * 2 <= lineBreak.count { return out.write(UnsafeBufferPointer(rebasing: lineBreak[..<(1 + depth * 2)])) }
        out.write([0x0A] + [UInt8](repeating: UInt8(ascii: " "), count: depth * 2))
    }
    /// A line break and the indentation of depth 15, in memory never freed: the indentation of a lower depth is the start
    /// of it. (A table of arrays, one per depth, was retained at every line by each core writing, and its reference counts
    /// moved between them.)
    nonisolated(unsafe) private static let lineBreak: UnsafeBufferPointer<UInt8> = {
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 + 15 * 2)
        bytes.initialize(repeating: UInt8(ascii: " "))
        bytes[0] = 0x0A
        return UnsafeBufferPointer(bytes)
    }()
}

/// Optionals, told apart without a cast per value type.
protocol EncodableOptional { var wrappedEncodable: (any Encodable)? { get } }
extension Optional: EncodableOptional where Wrapped: Encodable {
    var wrappedEncodable: (any Encodable)? { self.map { $0 as any Encodable } }
}

/// The text of one object or array while its value is being encoded: each member's value as a range of `text`, or a
/// nested encoder still being filled (nested containers, super encoders).
final class ContainerText {
    enum Kind { case none, object, array, single }
    struct Member {
        var key: String?
        var range: Range<Int>
        var nested: ContainerEncoder?
    }
    var kind = Kind.none
    var text: [UInt8] = []
    var members: [Member] = []
}

/// The `Encoder` handed to a value's `encode(to:)`, at a nesting depth (for indentation).
final class ContainerEncoder: Encoder {
    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let depth: Int
    let pretty: Bool
    let storage = ContainerText()

    init(depth: Int, pretty: Bool) {
        self.depth = depth
        self.pretty = pretty
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if storage.kind == .none { storage.kind = .object }
        return KeyedEncodingContainer(KeyedTextContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        if storage.kind == .none { storage.kind = .array }
        return UnkeyedTextContainer(encoder: self)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        storage.kind = .single
        return SingleTextContainer(encoder: self)
    }

    /// Adds a member (objects: replacing an earlier member of that key; arrays: key nil, in order).
    func add(_ member: ContainerText.Member) {
        if let key = member.key { storage.members.removeAll { $0.key == key } }
        storage.members.append(member)
    }

    func member<T: Encodable>(_ value: T, key: String?) throws {
        let start = storage.text.count
        try ValueWriter.append(value, depth: depth + 1, pretty: pretty, into: &storage.text)
        add(.init(key: key, range: start..<storage.text.count))
    }

    func literal(_ text: String, key: String?) {
        let start = storage.text.count
        storage.text.append(contentsOf: text.utf8)
        add(.init(key: key, range: start..<storage.text.count))
    }

    /// A nested encoder one level down, written where it was asked for when this container finishes.
    func nested(key: String?, kind: ContainerText.Kind) -> ContainerEncoder {
        let child = ContainerEncoder(depth: depth + 1, pretty: pretty)
        child.storage.kind = kind
        add(.init(key: key, range: 0..<0, nested: child))
        return child
    }

    /// Writes the finished value: an object with its members sorted by key, an array in order, a single value as is.
    func finish(into out: inout [UInt8]) {
        if storage.kind == .single { return out.append(contentsOf: storage.text) }
        let isArray = storage.kind == .array
        let members = isArray ? storage.members : storage.members.sorted { ($0.key ?? "").utf8.lexicographicallyPrecedes(($1.key ?? "").utf8) }
        JSONLayout.open(isArray: isArray, into: &out)
        for (i, member) in members.enumerated() {
            JSONLayout.beforeMember(i, key: isArray ? nil : member.key ?? "", depth: depth, pretty: pretty, into: &out)
            if let nested = member.nested { nested.finish(into: &out) } else { out.append(contentsOf: storage.text[member.range]) }
        }
        JSONLayout.close(isArray: isArray, isEmpty: members.isEmpty, depth: depth, pretty: pretty, into: &out)
    }
}

struct KeyedTextContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ContainerEncoder
    var codingPath: [CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { encoder.literal("null", key: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { try encoder.member(value, key: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encoder.member(value, key: key.stringValue) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encoder.member(value, key: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try encoder.member(value, key: key.stringValue) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.member(value, key: key.stringValue) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedTextContainer<NestedKey>(encoder: encoder.nested(key: key.stringValue, kind: .object)))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        UnkeyedTextContainer(encoder: encoder.nested(key: key.stringValue, kind: .array))
    }
    mutating func superEncoder() -> Encoder { encoder.nested(key: "super", kind: .none) }
    mutating func superEncoder(forKey key: Key) -> Encoder { encoder.nested(key: key.stringValue, kind: .none) }
}

struct UnkeyedTextContainer: UnkeyedEncodingContainer {
    let encoder: ContainerEncoder
    var codingPath: [CodingKey] { [] }
    var count: Int { encoder.storage.members.count }

    mutating func encodeNil() throws { encoder.literal("null", key: nil) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.member(value, key: nil) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedTextContainer<NestedKey>(encoder: encoder.nested(key: nil, kind: .object)))
    }
    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { UnkeyedTextContainer(encoder: encoder.nested(key: nil, kind: .array)) }
    mutating func superEncoder() -> Encoder { encoder.nested(key: nil, kind: .none) }
}

struct SingleTextContainer: SingleValueEncodingContainer {
    let encoder: ContainerEncoder
    var codingPath: [CodingKey] { [] }

    mutating func encodeNil() throws { encoder.storage.text = Array("null".utf8) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.storage.text = []
        try ValueWriter.append(value, depth: encoder.depth, pretty: encoder.pretty, into: &encoder.storage.text)
    }
    mutating func encode(_ value: Float) throws { encoder.storage.text = []; try ValueWriter.appendNumber(value, into: &encoder.storage.text) }
    mutating func encode(_ value: Int8) throws { encoder.storage.text = []; ValueWriter.appendInteger(value, into: &encoder.storage.text) }
    mutating func encode(_ value: Int16) throws { encoder.storage.text = []; ValueWriter.appendInteger(value, into: &encoder.storage.text) }
    mutating func encode(_ value: Int32) throws { encoder.storage.text = []; ValueWriter.appendInteger(value, into: &encoder.storage.text) }
    mutating func encode(_ value: Int64) throws { encoder.storage.text = []; ValueWriter.appendInteger(value, into: &encoder.storage.text) }
    mutating func encode(_ value: UInt) throws { encoder.storage.text = []; ValueWriter.appendInteger(value, into: &encoder.storage.text) }
    mutating func encode(_ value: UInt8) throws { encoder.storage.text = []; ValueWriter.appendInteger(value, into: &encoder.storage.text) }
    mutating func encode(_ value: UInt16) throws { encoder.storage.text = []; ValueWriter.appendInteger(value, into: &encoder.storage.text) }
    mutating func encode(_ value: UInt32) throws { encoder.storage.text = []; ValueWriter.appendInteger(value, into: &encoder.storage.text) }
    mutating func encode(_ value: UInt64) throws { encoder.storage.text = []; ValueWriter.appendInteger(value, into: &encoder.storage.text) }
}

/// A JSON document built in code (the SARIF report), written by `SortedJSONEncoder`.
public enum JSONValue: Encodable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(elements) { first, _ in first }) }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let s): try container.encode(s)
        case .integer(let i): try container.encode(i)
        case .number(let d): try container.encode(d)
        case .bool(let b): try container.encode(b)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}

/// Blocks of text written by several workers, handed to `sink` in block order, one at a time, outside the lock (the
/// workers go on taking blocks while one is written). A block is taken only while fewer than `window` blocks are taken
/// and not yet written, so a slow sink holds back the workers instead of the text piling up. Each block's buffer is
/// its own, freed once written (or, after a failure, when this is).
private final class BlocksInOrder: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let window: Int
    private let sink: (UnsafeBufferPointer<UInt8>) throws -> Void
    private var nextToTake = 0
    private var nextToWrite = 0
    private var finished: [Int: JSONBytes] = [:]
    private var writing = false
    private var error: (any Error)?

    init(count: Int, window: Int, sink: @escaping (UnsafeBufferPointer<UInt8>) throws -> Void) {
        (self.count, self.window, self.sink) = (count, window, sink)
    }

    deinit {
        for text in finished.values { text.deallocate() }  // blocks left unwritten by a failure
    }

    /// The next block to write, nil when none is left or a block failed. Waits while the window is full.
    func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while error == nil, nextToTake < count, nextToTake >= nextToWrite + window { condition.wait() }
        guard error == nil, nextToTake < count else { return nil }
        nextToTake += 1
        return nextToTake - 1
    }

    /// Block `index`'s text (its buffer handed over); writes it, and the finished blocks after it, when it is the next
    /// to write.
    func finish(_ index: Int, _ text: JSONBytes) {
        condition.lock()
        finished[index] = text
        // One writer at a time: a block finished while another is written is picked up by that writer's loop.
        guard !writing else { return condition.unlock() }
        writing = true
        while error == nil, let next = finished.removeValue(forKey: nextToWrite) {
            condition.unlock()
            var failure: (any Error)?
            do { try sink(next.bytes) } catch { failure = error }
            next.deallocate()
            condition.lock()
            if let failure, error == nil { error = failure }
            nextToWrite += 1
            condition.broadcast()
        }
        writing = false
        condition.unlock()
    }

    func fail(_ failure: any Error) {
        condition.lock()
        if error == nil { error = failure }
        condition.broadcast()
        condition.unlock()
    }

    /// Rethrows the first failure, once every worker has stopped.
    func check() throws {
        condition.lock()
        defer { condition.unlock() }
        if let error { throw error }
        precondition(nextToWrite == count, "\(count - nextToWrite) blocks of JSON were not written")
    }
}
