import Foundation

extension StringProtocol {
    /// Whether every byte is ASCII, checked on the contiguous UTF-8 where there is one. Names nearly always are, and
    /// then take byte-level paths (a generic walk of the UTF-8 view cost more than the work it guarded).
    public var isAllASCII: Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? utf8.allSatisfy { $0 < 0x80 }
    }

    /// Whether `needle` occurs in the text, compared byte by byte (UTF-8). Foundation's `contains(_:)` on strings goes
    /// through NSString and locale-aware search, which showed up in profiles of the interpreter's type look-ups.
    public func containsText(_ needle: String) -> Bool {
        var needle = needle
        return needle.withUTF8 { pattern in
            utf8.withContiguousStorageIfAvailable { Self.find(pattern, in: $0) }
                ?? Array(utf8).withUnsafeBufferPointer { Self.find(pattern, in: $0) }
        }
    }

    /// Every file read is searched whole for the suppression marker. Eight offsets are tested at a time for the
    /// pattern's first two bytes (two words compared with them at once) and a candidate checked with `memcmp`: `memchr`
    /// for the first byte stopped at nearly every `a` of a Swift file (the marker's), one call each, and a byte loop took
    /// ~6 instructions a byte.
    private static func find(_ pattern: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = pattern.first else { return true }
        guard text.count >= pattern.count, let haystack = text.baseAddress, let needle = pattern.baseAddress else { return false }
        let last = text.count - pattern.count  // the last offset a match can start at
        func matches(at offset: Int) -> Bool { memcmp(haystack + offset, needle, pattern.count) == 0 }
        var offset = 0
        if pattern.count >= 2 {
            let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
            let firstBytes = UInt64(first) &* ones, secondBytes = UInt64(pattern[1]) &* ones
            // The words at `offset` and `offset + 1` hold each candidate's first and second byte in the same place.
            while offset + 8 <= last {
                let here = UnsafeRawPointer(haystack + offset).loadUnaligned(as: UInt64.self)
                let next = UnsafeRawPointer(haystack + offset + 1).loadUnaligned(as: UInt64.self)
                let differences = (here ^ firstBytes) | (next ^ secondBytes)
                // A zero byte: a place where both bytes match (the test has no misses; a false hit is checked below).
                if (differences &- ones) & ~differences & highBits != 0 {
                    for k in 0..<8 where matches(at: offset + k) { return true }
                }
                offset += 8
            }
        }
        while offset <= last {
            if haystack[offset] == first, matches(at: offset) { return true }
            offset += 1
        }
        return false
    }
}

extension Collection where Element == String {
    /// The names joined with `.` (`["Color", "brand"]` -> `Color.brand`), written into one allocation: keys of tokens and
    /// members are built at every look-up, and `joined(separator:)` went through String's general append path, which
    /// cost several times the copy.
    public func joinedWithDots() -> String {
        guard !isEmpty else { return "" }
        if count == 1 { return self[startIndex] }  // most owners are one type (`Color`): the name itself, not a copy
        return writeJoined(self, separator: UInt8(ascii: "."), byteCount: reduce(count - 1) { $0 + $1.utf8.count })
    }

    /// The strings one after another, written into one allocation (`+` takes String's general append path at each step).
    public func concatenated() -> String { writeJoined(self, separator: nil, byteCount: reduce(0) { $0 + $1.utf8.count }) }
}

/// Text written part by part into one string's storage, without an array of its parts: `joined` runs its closure twice,
/// first to count the parts' bytes, then to copy them. A contrast finding's message is ~20 parts and its fix hint 5, and
/// an array of them (an allocation, a reference counted per part, the ratios made strings first) cost more than the
/// copying, for each of thousands of findings.
struct TextParts {
    private let out: UnsafeMutablePointer<UInt8>?
    private(set) var count = 0

    private init(out: UnsafeMutablePointer<UInt8>?) { self.out = out }

    /// The text `parts` appends (it must append the same parts each time it is called).
    static func joined(_ parts: (inout TextParts) -> Void) -> String {
        var counting = TextParts(out: nil)
        parts(&counting)
        return String(unsafeUninitializedCapacity: counting.count) { buffer in
            var writing = TextParts(out: buffer.baseAddress)
            parts(&writing)
            return writing.count
        }
    }

    mutating func append(_ text: String) {
        guard let out else { return count += text.utf8.count }
        count += writeUTF8(text, to: out + count)
    }

    mutating func append(_ text: StaticString) {
        if let out { (out + count).initialize(from: text.utf8Start, count: text.utf8CodeUnitCount) }
        count += text.utf8CodeUnitCount
    }

    /// `displayRatio(ratio)`, its digits written in place.
    mutating func appendRatio(_ ratio: Double) {
        guard let digits = RatioDigits(ratio) else { return append(RatioDigits.formatted(ratio)) }
        if let out { digits.write(to: out + count) }
        count += digits.count
    }
}

extension Sequence where Element == String {
    /// `sorted()`, comparing the bytes when every string is ASCII (String's `<` is byte order on ASCII; its general path
    /// cost ~3,500 instructions a key to sort the 5k system's 7,700 token keys). Other strings take `sorted()`.
    public func sortedComparingBytes() -> [String] {
        let strings = Array(self)
        return strings.orderComparingBytes().map { strings[$0] }
    }
}

extension Array where Element == String {
    /// The indices of the strings in `sortedComparingBytes()` order: callers that keep something beside each string
    /// (a position, a value) put it in the same order.
    public func orderComparingBytes() -> [Int] {
        let strings = self
        // Every string's bytes copied once into one buffer made at its size, and checked for ASCII eight at a time; the
        // order is found on them. (Appended string by string and checked byte by byte, this was a third of the sort.)
        var ranges: [(start: Int, count: Int)] = []
        ranges.reserveCapacity(strings.count)
        var total = 0
        for string in strings {
            let count = string.utf8.count
            ranges.append((total, count))
            total += count
        }
        guard total > 0 else { return [Int](strings.indices) }  // all empty (and an empty buffer may have no address)
        // Zeros after the last string, up to a whole word, for the check.
        let wordCount = (total + 7) / 8
        let bytes = [UInt8](unsafeUninitializedCapacity: wordCount * 8) { buffer, initialized in
            for (string, range) in zip(strings, ranges) { _ = writeUTF8(string, to: buffer.baseAddress! + range.start) }
            buffer[total...].update(repeating: 0)
            initialized = wordCount * 8
        }
        let highBits = bytes.withUnsafeBytes { raw in
            (0..<wordCount).reduce(UInt64(0)) { $0 | raw.loadUnaligned(fromByteOffset: 8 * $1, as: UInt64.self) }
        }
        guard highBits & 0x8080_8080_8080_8080 == 0 else { return strings.indices.sorted { strings[$0] < strings[$1] } }
        var order = [Int](strings.indices)
        bytes.withUnsafeBufferPointer { bytes in
            ranges.withUnsafeBufferPointer { ranges in
                order.withUnsafeMutableBufferPointer { order in
                    var sorter = ByteOrderSort(bytes: bytes, ranges: ranges)
                    sorter.sort(order[...], from: 0)
                }
            }
        }
        return order
    }
}

/// Copies `text`'s UTF-8 bytes to `out` (which must have room for them); returns how many. A native string's bytes are
/// read in place: the mutable copy `withUTF8` needs counted a reference to each string.
func writeUTF8(_ text: String, to out: UnsafeMutablePointer<UInt8>) -> Int {
    let copied: Int? = text.utf8.withContiguousStorageIfAvailable { bytes in
        if let base = bytes.baseAddress { out.initialize(from: base, count: bytes.count) }
        return bytes.count
    }
    if let copied { return copied }
    var count = 0
    for byte in text.utf8 {
        out[count] = byte
        count += 1
    }
    return count
}

/// Orders strings' indices by their bytes (then length, then index: equal strings keep their order), eight bytes at a
/// time: a group of strings that share their first `offset` bytes is ordered by the eight bytes after the prefix all of
/// them share, as one integer (zero past a string's end), and each run of equal integers again from eight bytes further.
/// Keys share long prefixes by owner (`Color.bench…`, `BenchComponent12Styling.Colors.…`): compared whole, nearly every
/// comparison of a 5k system's 7,700 keys went to memcmp, and the sort was the longest step of its phase.
private struct ByteOrderSort {
    let bytes: UnsafeBufferPointer<UInt8>
    let ranges: UnsafeBufferPointer<(start: Int, count: Int)>
    /// The integers of the group being ordered, beside its indices, and room to sort them (reused from group to group).
    var keyed: [(window: UInt64, index: Int)] = []
    var scratch: [(window: UInt64, index: Int)] = []
    var counts = [Int](repeating: 0, count: 256)

    init(bytes: UnsafeBufferPointer<UInt8>, ranges: UnsafeBufferPointer<(start: Int, count: Int)>) {
        self.bytes = bytes
        self.ranges = ranges
    }

    /// Orders `group`, whose strings all have the same first `offset` bytes (zero past a string's end).
    mutating func sort(_ group: Slice<UnsafeMutableBufferPointer<Int>>, from offset: Int) {
        guard group.count > 1 else { return }
        if group.count <= Self.compareWhole {
            var small = group
            small.sort { less($0, $1, from: offset) }
            return
        }
        // Past the end of every string: what is left to order them is length (a string with only NULs past the end of
        // another is the longer), then index.
        if group.allSatisfy({ ranges[$0].count <= offset }) {
            var rest = group
            rest.sort { (ranges[$0].count, $0) < (ranges[$1].count, $1) }
            return
        }
        // The bytes every string of the group shares after `offset` (up to the shortest's end).
        let first = ranges[group.first!]
        var shared = first.count
        for index in group.dropFirst() {
            let r = ranges[index]
            shared = Swift.min(shared, r.count)
            var k = offset
            // Eight bytes at a time while they are equal, then byte by byte.
            while k + 8 <= shared, word(r.start + k) == word(first.start + k) { k += 8 }
            while k < shared, bytes[r.start + k] == bytes[first.start + k] { k += 1 }
            shared = k
        }
        shared = Swift.max(shared, offset)
        keyed.removeAll(keepingCapacity: true)
        for index in group { keyed.append((window(ranges[index], at: shared), index)) }
        // The group is in index order (the whole list, or a run of one integer ordered by index): a stable sort by the
        // integers leaves equal ones by index. Radix passes cost the same for any group; a comparison sort less for a
        // small one.
        if keyed.count >= Self.radixSortFrom {
            if !sortByFewWindows() { radixSortByWindow() }
        } else {
            keyed.sort { ($0.window, $0.index) < ($1.window, $1.index) }
        }
        // The runs of one integer, found before the recursion below reuses `keyed`.
        var runs: [Range<Int>] = []
        var at = 0
        while at < keyed.count {
            group.base[group.startIndex + at] = keyed[at].index
            var end = at + 1
            while end < keyed.count, keyed[end].window == keyed[at].window {
                group.base[group.startIndex + end] = keyed[end].index
                end += 1
            }
            if end - at > 1 { runs.append((group.startIndex + at)..<(group.startIndex + end)) }
            at = end
        }
        // The same eight bytes (or a string that ends beside one holding NULs) are told apart further on.
        for run in runs { sort(group.base[run], from: shared + 8) }
    }

    /// Sorts `keyed` by window, stably: a byte at a time from the lowest (least significant digit first), skipping the
    /// bytes every window has alike (most of them, for keys that share a prefix).
    mutating func radixSortByWindow() {
        var same: UInt64 = ~0
        let first = keyed[0].window
        for entry in keyed { same &= ~(entry.window ^ first) }
        let count = keyed.count
        if scratch.count < count { scratch = keyed }
        keyed.withUnsafeMutableBufferPointer { keyed in
            scratch.withUnsafeMutableBufferPointer { scratch in
                counts.withUnsafeMutableBufferPointer { counts in
                    var (from, to) = (keyed.baseAddress!, scratch.baseAddress!)
                    var moved = false
                    for byte in 0..<8 where (same >> (8 * byte)) & 0xFF != 0xFF {
                        let shift = UInt64(8 * byte)
                        counts.update(repeating: 0)
                        for i in 0..<count { counts[Int(truncatingIfNeeded: from[i].window >> shift) & 0xFF] += 1 }
                        var total = 0
                        for digit in 0..<256 { (counts[digit], total) = (total, total + counts[digit]) }
                        for i in 0..<count {
                            let digit = Int(truncatingIfNeeded: from[i].window >> shift) & 0xFF
                            to[counts[digit]] = from[i]
                            counts[digit] += 1
                        }
                        swap(&from, &to)
                        moved.toggle()
                    }
                    // After an odd number of passes the order is in the scratch buffer.
                    if moved { keyed.baseAddress!.update(from: scratch.baseAddress!, count: count) }
                }
            }
        }
    }

    /// Sorts `keyed` by window, stably, when its windows have few distinct values (at most a quarter as many as it has
    /// entries: keys of a few owners, `Color.be…`, `BenchCom…`): each entry's window numbered through a table of the
    /// distinct ones, the numbers ranked by sorting those, and each entry put at its rank's next place in one pass, where
    /// radix passes went over every entry once per byte that differs (eight for a large system's keys). False, and
    /// `keyed` as it was, when the windows are more varied.
    mutating func sortByFewWindows() -> Bool {
        let count = keyed.count, limit = count / 4
        var capacity = 16
        while capacity < 2 * limit { capacity *= 2 }
        let shift = UInt64(64 - capacity.trailingZeroBitCount)
        // Each table slot holds a distinct window's number plus one (zero: free); each entry gets its window's number.
        var slots = [Int](repeating: 0, count: capacity)
        var windows: [UInt64] = []
        var numbers = [Int](repeating: 0, count: count)
        windows.reserveCapacity(limit)
        for i in 0..<count {
            let window = keyed[i].window
            var slot = Int(truncatingIfNeeded: (window &* 0x9E37_79B9_7F4A_7C15) >> shift)
            while true {
                let held = slots[slot]
                if held == 0 {
                    guard windows.count < limit else { return false }
                    windows.append(window)
                    (slots[slot], numbers[i]) = (windows.count, windows.count - 1)
                    break
                }
                if windows[held - 1] == window {
                    numbers[i] = held - 1
                    break
                }
                slot = (slot + 1) & (capacity - 1)
            }
        }
        // Where each number's entries start: its entries counted, then the counts summed in the windows' order.
        var starts = [Int](repeating: 0, count: windows.count)
        for number in numbers { starts[number] += 1 }
        var total = 0
        for number in windows.indices.sorted(by: { windows[$0] < windows[$1] }) { (starts[number], total) = (total, total + starts[number]) }
        // (Entries in their order within a number: stable.)
        if scratch.count < count { scratch = keyed }
        for i in 0..<count {
            scratch[starts[numbers[i]]] = keyed[i]
            starts[numbers[i]] += 1
        }
        keyed.withUnsafeMutableBufferPointer { keyed in
            scratch.withUnsafeBufferPointer { keyed.baseAddress!.update(from: $0.baseAddress!, count: count) }
        }
        return true
    }

    /// Groups from this size are sorted by radix passes over their integers.
    static let radixSortFrom = 1_024

    /// Groups this small are ordered by comparing their strings from `offset` (an integer each cost more to make).
    static let compareWhole = 12

    /// Whether string `a` comes before string `b`, both the same in their first `offset` bytes (zero past an end).
    func less(_ a: Int, _ b: Int, from offset: Int) -> Bool {
        let (x, y) = (ranges[a], ranges[b])
        let length = Swift.min(x.count, y.count) - offset
        if length > 0 {
            let order = memcmp(bytes.baseAddress! + x.start + offset, bytes.baseAddress! + y.start + offset, length)
            if order != 0 { return order < 0 }
        }
        return (x.count, a) < (y.count, b)
    }

    /// The eight bytes of `r` from `offset`, first byte highest, zero past its end.
    func window(_ r: (start: Int, count: Int), at offset: Int) -> UInt64 {
        if offset + 8 <= r.count { return UInt64(bigEndian: word(r.start + offset)) }
        var window: UInt64 = 0
        for k in offset..<(offset + 8) { window = window << 8 | (k < r.count ? UInt64(bytes[r.start + k]) : 0) }
        return window
    }

    /// The eight bytes from `position`, as they are in memory.
    func word(_ position: Int) -> UInt64 {
        UnsafeRawPointer(bytes.baseAddress! + position).loadUnaligned(as: UInt64.self)
    }
}

/// An ASCII letter's lowercase byte; any other byte as it is.
func asciiLowercased(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte }

/// The last dot-separated part of a name's bytes before `end` (dots there dropped, as `splitOnDots` drops empty parts), as
/// a range of `name`; nil when only dots are left.
func lastDottedPart(of name: UnsafeBufferPointer<UInt8>, before end: Int) -> Range<Int>? {
    let dot = UInt8(ascii: ".")
    var partEnd = end
    while partEnd > 0, name[partEnd - 1] == dot { partEnd -= 1 }
    guard partEnd > 0 else { return nil }
    var partStart = partEnd
    while partStart > 0, name[partStart - 1] != dot { partStart -= 1 }
    return partStart..<partEnd
}

/// `owner.name`, or `name` for a top-level member (an empty owner): `joinedWithDots` for the usual two names, their bytes
/// copied straight into the key (`writeJoined`'s loop over the parts cost ~115 instructions more a key, and every
/// declaration of a token file makes one), read in place (`writeUTF8`: the copies `withUTF8` needs counted a reference
/// to each name at every key).
public func memberKey(_ owner: String, _ name: String) -> String {
    guard !owner.isEmpty else { return name }
    return String(unsafeUninitializedCapacity: owner.utf8.count + 1 + name.utf8.count) { out in
        let base = out.baseAddress!
        let dot = writeUTF8(owner, to: base)
        base[dot] = UInt8(ascii: ".")
        return dot + 1 + writeUTF8(name, to: base + dot + 1)
    }
}

private func writeJoined(_ parts: some Collection<String>, separator: UInt8?, byteCount: Int) -> String {
    String(unsafeUninitializedCapacity: byteCount) { out in
        var written = 0
        for (index, part) in parts.enumerated() {
            if index > 0, let separator {
                out[written] = separator
                written += 1
            }
            written += writeUTF8(part, to: out.baseAddress! + written)
        }
        return written
    }
}

extension String {
    /// `split(separator: ".")` (the same pieces, empty ones omitted), found on the bytes of an ASCII name: splitting by
    /// Character walks grapheme boundaries, ~200 instructions a character, and qualified names are split everywhere.
    public func splitOnDots() -> [Substring] { split(onASCII: UInt8(ascii: ".")) }

    /// `split(separator:)` for an ASCII separator, on the bytes when the text is ASCII (see `splitOnDots`).
    public func split(onASCII separator: UInt8) -> [Substring] {
        guard isAllASCII else { return split(separator: Character(Unicode.Scalar(separator))) }
        var parts: [Substring] = []
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == separator {
                if index != start { parts.append(self[start..<index]) }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start != utf8.endIndex { parts.append(self[start...]) }
        return parts
    }

    /// `splitOnDots().last` (`Theme.Colors` -> `Colors`; nil when there is no piece), found from the end on the bytes of
    /// an ASCII name without splitting the rest: type names are cut to their last piece at every index and view.
    public var lastDotPiece: Substring? {
        guard isAllASCII else { return splitOnDots().last }
        let dot = UInt8(ascii: ".")
        var end = utf8.endIndex
        while end != utf8.startIndex, utf8[utf8.index(before: end)] == dot { end = utf8.index(before: end) }
        guard end != utf8.startIndex else { return nil }
        var start = utf8.index(before: end)
        while start != utf8.startIndex, utf8[utf8.index(before: start)] != dot { start = utf8.index(before: start) }
        return self[start..<end]
    }

    /// `firstIndex(of: ".")`, found on the bytes of an ASCII name (see `splitOnDots`).
    public var firstDotIndex: String.Index? {
        isAllASCII ? utf8.firstIndex(of: UInt8(ascii: ".")) : firstIndex(of: ".")
    }
}
