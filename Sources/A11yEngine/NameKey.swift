import Foundation

/// A name (a member, a type, a token key) as a hash key that hashes faster than `String`. The interpreter and the token
/// graph look names up by the hundreds of thousands per audit, and `String` hashes each one with SipHash from a fresh
/// `Hasher` (~350 instructions for a 25-byte name, 15% of an audit's instructions). This hashes eight bytes at a time
/// with a multiply-xorshift, once, when the key is made, and keeps the result.
///
/// Equal to `String`'s own equality (canonical equivalence): an ASCII name hashes its bytes, any other name the bytes
/// of its NFC form, so `"K"` and `"\u{212A}"` (KELVIN SIGN), equal as strings, are one key.
public struct NameKey: Hashable, Sendable {
    public let string: String
    /// The hash of the name alone, before a table's seed is mixed in.
    let hash: UInt64

    public init(_ string: String) {
        self.string = string
        hash = Self.hashOfBytes(string) ?? Self.nonASCIIHashes.hash(of: string)
    }

    /// The hashes of non-ASCII names, by name (String's own equality, so canonically equivalent spellings share one):
    /// Foundation's NFC normalisation cost ~14,000 instructions a name on Linux, and a theme named `rosé` is looked up
    /// thousands of times (7% of a ten-theme audit). A few names per project; not kept past `capacity`.
    private static let nonASCIIHashes = NonASCIIHashes()

    /// Found by the hash of the name's bytes as written, then compared byte for byte: a `String` key would be hashed
    /// through its NFC form again (~1,400 instructions for a short name). Another spelling of the same name is an entry
    /// of its own, with the same NFC hash.
    private final class NonASCIIHashes: @unchecked Sendable {
        private let lock = NSLock()
        private var hashes: [UInt64: [(name: String, hash: UInt64)]] = [:]
        private var count = 0
        static let capacity = 4_096

        func hash(of string: String) -> UInt64 {
            let written = NameKey.hashOfBytes(string, allowingNonASCII: true)!
            lock.lock()
            let known = hashes[written]?.first { Self.sameBytes($0.name, string) }?.hash
            lock.unlock()
            if let known { return known }
            let hash = NameKey.hashOfBytes(string.precomposedStringWithCanonicalMapping, allowingNonASCII: true)!
            lock.lock()
            if count < Self.capacity {
                hashes[written, default: []].append((string, hash))
                count += 1
            }
            lock.unlock()
            return hash
        }

        /// Whether the two names are written with the same bytes, compared in place (`elementsEqual` of their UTF-8 views
        /// went byte by byte through the views' indexes, ~1,600 instructions a name).
        private static func sameBytes(_ a: String, _ b: String) -> Bool {
            guard a.utf8.count == b.utf8.count else { return false }
            let same = a.utf8.withContiguousStorageIfAvailable { x in
                b.utf8.withContiguousStorageIfAvailable { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
            return (same ?? nil) ?? a.utf8.elementsEqual(b.utf8)
        }
    }

    /// `string` with its hash already found (`asciiHash(of:)` of its bytes): not hashed again.
    init(string: String, hash: UInt64) {
        self.string = string
        self.hash = hash
    }

    /// The key of an ASCII name; nil for any other (its hash is its NFC form's: two spellings of it are one key, but
    /// what is made of each spelling may differ).
    init?(ascii string: String) {
        guard let hash = Self.hashOfBytes(string) else { return nil }
        self.init(string: string, hash: hash)
    }

    /// The hash `NameKey` gives the ASCII name whose bytes are `bytes` (nil when one is not ASCII), read where they are:
    /// a name put together only to be looked up is hashed before it is made a string.
    static func asciiHash(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64? { hashOfBytes(bytes, allowingNonASCII: false) }

    public static func == (lhs: NameKey, rhs: NameKey) -> Bool { lhs.hash == rhs.hash && lhs.string == rhs.string }

    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// What `Dictionary` and `Set` ask for: the kept hash mixed with the table's seed (a table's seed differs from
    /// another's, so copying keys in one table's order into another does not cluster them).
    public func _rawHashValue(seed: Int) -> Int { Self.finalMix(hash, seed: seed) }

    /// A key made of several names (a type and a member, a pair's three names) hashes as their kept hashes chained
    /// with this, the earlier ones multiplied so that the same names in another order hash apart.
    func hash(after previous: UInt64) -> UInt64 { (previous &* 0x9E37_79B9_7F4A_7C15) ^ hash }

    /// Murmur3's finaliser over a hash and a table's seed: every bit of both reaches the bits a table uses.
    static func finalMix(_ hash: UInt64, seed: Int) -> Int {
        var h = hash ^ UInt64(UInt(bitPattern: seed))
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return Int(Int64(bitPattern: h))
    }

    /// The hash of `string`'s UTF-8 bytes, or nil when one is not ASCII (unless allowed: the text is then in NFC).
    private static func hashOfBytes(_ string: String, allowingNonASCII: Bool = false) -> UInt64? {
        // Contiguous storage first: `withUTF8` on a copy costs twice as much for the short names most keys are.
        if let hash = string.utf8.withContiguousStorageIfAvailable({ hashOfBytes($0, allowingNonASCII: allowingNonASCII) }) {
            return hash
        }
        var copy = string
        return copy.withUTF8 { hashOfBytes($0, allowingNonASCII: allowingNonASCII) }
    }

    /// Eight bytes at a time; the last few in one more word: the name's last eight bytes (overlapping the word before)
    /// when it has eight or more, else read four, two and one bytes at a time.
    private static func hashOfBytes(_ bytes: UnsafeBufferPointer<UInt8>, allowingNonASCII: Bool) -> UInt64? {
        let count = bytes.count
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
        guard let base = bytes.baseAddress else { return h }
        let raw = UnsafeRawPointer(base)
        var high: UInt64 = 0
        func mix(_ word: UInt64) {
            high |= word
            h = (h ^ word) &* 0x9FB2_1C65_1E98_DF25
            h ^= h >> 29
        }
        var at = 0
        while at + 8 <= count {
            mix(raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            at += 8
        }
        if at < count {
            if count >= 8 {
                mix(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            } else {
                var word: UInt64 = 0
                var shift: UInt64 = 0
                if count & 4 != 0 {
                    word = UInt64(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                    (at, shift) = (at + 4, 32)
                }
                if count & 2 != 0 {
                    word |= UInt64(raw.loadUnaligned(fromByteOffset: at, as: UInt16.self)) << shift
                    (at, shift) = (at + 2, shift + 16)
                }
                if count & 1 != 0 { word |= UInt64(raw.load(fromByteOffset: at, as: UInt8.self)) << shift }
                mix(word)
            }
        }
        return allowingNonASCII || high & 0x8080_8080_8080_8080 == 0 ? h : nil
    }
}

/// Rows by their names' hashes (`NameKey.hash`), found from a name's bytes: a name put together only to be looked up
/// (`TokenGraph.resolve`'s candidates) is not made a string, and the row's own key is what is kept. Open addressing,
/// at most two thirds full; a slot holds the hash's low half and the row + 1 (0: empty). The caller compares the row's key.
struct NameRowTable: Sendable {
    private var slots: [UInt64] = []
    private var shift: UInt64 = 64

    /// No names yet, and no table: `isEmpty`.
    init() {}

    /// A table for `count` names.
    init(capacity count: Int) {
        var size = 16
        while size * 2 < count * 3 { size *= 2 }
        shift = UInt64(64 - size.trailingZeroBitCount)
        slots = [UInt64](repeating: 0, count: size)
    }

    /// No table made: it can tell nothing.
    var isEmpty: Bool { slots.isEmpty }

    mutating func insert(_ hash: UInt64, row: Int) {
        var slot = Int(hash >> shift)
        while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = (hash << 32) | UInt64(row + 1)
    }

    /// The first row with `hash` whose key `isRow` accepts, or nil.
    func row(of hash: UInt64, where isRow: (Int) -> Bool) -> Int? {
        var slot = Int(hash >> shift)
        while slots[slot] != 0 {
            if slots[slot] >> 32 == hash & 0xFFFF_FFFF, isRow(Int(slots[slot] & 0xFFFF_FFFF) - 1) {
                return Int(slots[slot] & 0xFFFF_FFFF) - 1
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }
}

/// A dictionary keyed by names that hashes them as `NameKey` does; read and written with `String` keys, as a
/// `[String: Value]` is.
public struct NameMap<Value> {
    private var storage: [NameKey: Value]

    public init() { storage = [:] }

    public subscript(name: String) -> Value? {
        get { storage[NameKey(name)] }
        _modify { yield &storage[NameKey(name)] }
    }

    public subscript(key: NameKey) -> Value? {
        get { storage[key] }
        _modify { yield &storage[key] }
    }

    public subscript(name: String, default defaultValue: @autoclosure () -> Value) -> Value {
        get { storage[NameKey(name), default: defaultValue()] }
        _modify { yield &storage[NameKey(name), default: defaultValue()] }
    }

    public subscript(key: NameKey, default defaultValue: @autoclosure () -> Value) -> Value {
        get { storage[key, default: defaultValue()] }
        _modify { yield &storage[key, default: defaultValue()] }
    }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }
    public var keys: [String] { storage.keys.map(\.string) }

    /// Where each entry is, in iteration order: workers that each read a share of a large map take positions (small
    /// values that hold no reference) rather than a copy of its entries, which retained every key and value on one thread.
    /// (Stepped through by hand: `Array(storage.indices)` had the runtime make `DefaultIndices`' metadata from its mangled
    /// name, checking its requirements by scanning every conformance record, ~1 M instructions in every run.)
    public var positions: [Dictionary<NameKey, Value>.Index] {
        var positions: [Dictionary<NameKey, Value>.Index] = []
        positions.reserveCapacity(storage.count)
        var position = storage.startIndex
        while position != storage.endIndex {
            positions.append(position)
            storage.formIndex(after: &position)
        }
        return positions
    }
    public subscript(position: Dictionary<NameKey, Value>.Index) -> (key: String, value: Value) {
        let entry = storage[position]
        return (entry.key.string, entry.value)
    }
    /// The name or the value at a position alone: the entry's other half is not copied (and counted) to be dropped.
    public func key(at position: Dictionary<NameKey, Value>.Index) -> String { storage.keys[position].string }
    public func value(at position: Dictionary<NameKey, Value>.Index) -> Value { storage.values[position] }
    /// The key at a position as this map hashed it: a look-up or insertion elsewhere by it does not hash the name again.
    public func nameKey(at position: Dictionary<NameKey, Value>.Index) -> NameKey { storage.keys[position] }
    public var values: Dictionary<NameKey, Value>.Values { storage.values }

    public mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

    @discardableResult
    public mutating func updateValue(_ value: Value, forKey name: String) -> Value? { storage.updateValue(value, forKey: NameKey(name)) }

    @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: NameKey) -> Value? { storage.updateValue(value, forKey: key) }

    @discardableResult
    public mutating func removeValue(forKey key: NameKey) -> Value? { storage.removeValue(forKey: key) }

    /// Replaces the value at a position in place (no key hashed, no entry moved).
    public mutating func updateValue(_ value: Value, at position: Dictionary<NameKey, Value>.Index) { storage.values[position] = value }

    public mutating func merge(_ other: NameMap, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        try storage.merge(other.storage, uniquingKeysWith: combine)
    }

    public func merging(_ other: NameMap, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows -> NameMap {
        var merged = self
        try merged.merge(other, uniquingKeysWith: combine)
        return merged
    }
}

extension NameMap: Sequence {
    public func makeIterator() -> some IteratorProtocol<(key: String, value: Value)> {
        storage.lazy.map { (key: $0.key.string, value: $0.value) }.makeIterator()
    }
}

extension NameMap: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, Value)...) {
        storage = Dictionary(uniqueKeysWithValues: elements.map { (NameKey($0.0), $0.1) })
    }
}

extension NameMap: Sendable where Value: Sendable {}
extension NameMap: Equatable where Value: Equatable {}
extension NameMap: Hashable where Value: Hashable {}

/// A set of names that hashes them as `NameKey` does.
public struct NameSet: Sendable, Equatable {
    @usableFromInline var storage: Set<NameKey>

    public init() { storage = [] }

    /// Inserted one by one, and specialised where it is called (inlinable): `Set(names.lazy.map(NameKey.init))` had the
    /// runtime make a lazy sequence's metadata and find its associated types by name, scanning every conformance record
    /// (~2 M instructions in every run).
    @inlinable public init(_ names: some Sequence<String>) {
        storage = []
        storage.reserveCapacity(names.underestimatedCount)
        for name in names { storage.insert(NameKey(name)) }
    }

    public func contains(_ name: String) -> Bool { storage.contains(NameKey(name)) }

    public func contains(_ key: NameKey) -> Bool { storage.contains(key) }

    @discardableResult
    public mutating func insert(_ name: String) -> Bool { storage.insert(NameKey(name)).inserted }

    @discardableResult
    public mutating func insert(_ key: NameKey) -> Bool { storage.insert(key).inserted }

    public mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }
}

extension NameSet: ExpressibleByArrayLiteral {
    public init(arrayLiteral names: String...) { self.init(names) }
}
