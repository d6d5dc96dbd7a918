/// What a color does on screen, which decides the contrast it needs.
public enum Role: String, Hashable, Sendable, Codable, CaseIterable {
    case text, largeText, graphic, background, disabled, decorative

    /// The role a property's name implies. Disabled and decorative words win anywhere in the name
    /// (`disabledDayText`, `thumbShadow`); otherwise the last role word decides (`menuBackground` is a background,
    /// `dotActive` a graphic). Names with no role word are treated as graphics: they are drawn, so they need 3:1.
    public static func inferred(fromName name: String) -> (role: Role, word: String?) {
        inferred(fromWords: nameWords(name))
    }

    public static func inferred(fromWords written: [String]) -> (role: Role, word: String?) {
        // One look-up per word (the roles of thousands of token names are worked out per audit): each word's entry in
        // `roleTable` (plural and numbered forms already folded in), kept on the stack. An array of the entries
        // themselves was allocated and, holding strings, destroyed element by element through their metadata at every
        // call (a third of the time).
        withUnsafeTemporaryAllocation(of: Int.self, capacity: written.count) { found in
            for i in written.indices { found[i] = roleEntry(of: written[i]) }
            return inferred(fromEntries: UnsafeBufferPointer(found))
        }
    }

    /// `inferred(fromWords:)` of the words whose entries in `roleTable` are `found`, in order (-1: not a role word).
    static func inferred(fromEntries found: UnsafeBufferPointer<Int>) -> (role: Role, word: String?) {
        let table = roleTable
        // (Each decisive role in turn, without an array of them; the entries' roles read in place.)
        if let at = found.first(where: { $0 >= 0 && table[$0].role == .disabled }) { return table[at] }
        if let at = found.first(where: { $0 >= 0 && table[$0].role == .decorative }) { return table[at] }
        for i in found.indices.reversed() where found[i] >= 0 {
            switch table[found[i]].role {
            case .text, .graphic: return table[found[i]]
            case .background:
                // `trackBackground` is the track's own fill, a graphic; `dotRowBackground` is a row, a background.
                // (A graphic word's entry is one whose role is graphic: no role word is in two lists.)
                if table[found[i]].word == "background", i > 0, found[i - 1] >= 0, table[found[i - 1]].role == .graphic {
                    return (.graphic, table[found[i - 1]].word)
                }
                return table[found[i]]
            default: continue
            }
        }
        return (.graphic, nil)
    }

    /// A word's entry in `roleTable` (its numbered stem's: `text01` is `text`), -1 for none.
    static func roleEntry(of word: String) -> Int {
        let onBytes = word.utf8.withContiguousStorageIfAvailable(roleEntry(ofASCII:))
        if let onBytes, let onBytes { return onBytes }
        return roleIndex[numberedStem(word)] ?? -1
    }

    /// `roleEntry(of:)` of a word's bytes when they are ASCII and its stem has at most 16 (nil: the caller looks the stem
    /// up in `roleIndex`). The stem is found and looked up on the bytes (`roleWordSlots`): no string made for it, no name
    /// hashed (thousands of names' words per audit, most of them numbered on a large system).
    static func roleEntry(ofASCII bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var firstDigit = bytes.count
        for i in bytes.indices {
            let byte = bytes[i]
            guard byte < 0x80 else { return nil }
            if byte >= 0x30 && byte <= 0x39 && firstDigit == bytes.count { firstDigit = i }
        }
        let stem = UnsafeBufferPointer(rebasing: bytes[..<(firstDigit > 0 ? firstDigit : bytes.count)])
        return RoleWordBytes(stem).map(roleEntry(ofStem:))
    }

    /// The entry in `roleTable` of the ASCII stem whose bytes are `stem`, -1 for none.
    static func roleEntry(ofStem stem: RoleWordBytes) -> Int {
        let slots = roleWordSlots
        var slot = stem.slot
        while slots[slot].entry >= 0 {
            if slots[slot].bytes == stem { return slots[slot].entry }
            slot = (slot + 1) & (slots.count - 1)
        }
        return -1
    }

    /// Up to 16 bytes of a word as two integers (zeros after its end); nil for a longer word.
    struct RoleWordBytes: Equatable {
        var low: UInt64 = 0, high: UInt64 = 0

        /// No bytes (a free slot's).
        init() {}

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count <= 16 else { return nil }
            for i in bytes.indices { set(bytes[i], at: i) }
        }

        /// `byte` as the word's byte `index` (from 16 on, not kept).
        mutating func set(_ byte: UInt8, at index: Int) {
            if index < 8 { low |= UInt64(byte) << UInt64(8 * index) } else if index < 16 { high |= UInt64(byte) << UInt64(8 * (index - 8)) }
        }

        /// Its slot in `roleWordSlots`: the top eight bits of its integers mixed.
        var slot: Int { Int(truncatingIfNeeded: ((low &* 0x9E37_79B9_7F4A_7C15 ^ high) &* 0xFF51_AFD7_ED55_8CCD) >> 56) }
    }

    /// `roleIndex`'s words (all ASCII, each up to 16 bytes) in a table of 256 slots by their bytes: a word is in its slot
    /// (`RoleWordBytes.slot`) or in the first free one after it, and a look-up stops at a free slot (entry -1). Found in a
    /// probe or two, where a scan of the words of a length compared up to seventeen.
    static let roleWordSlots: [(bytes: RoleWordBytes, entry: Int)] = {
        var slots = [(bytes: RoleWordBytes, entry: Int)](repeating: (RoleWordBytes(), -1), count: 256)
        // A look-up ends at a free slot, and the table's build would never end without one: at most half full (~100
        // words and plurals now).
        precondition(roleIndex.count <= slots.count / 2, "more role words than roleWordSlots holds: make it larger")
        for (word, entry) in roleIndex {
            var word = word
            guard let bytes = word.withUTF8({ RoleWordBytes($0) }) else { continue }
            var slot = bytes.slot
            while slots[slot].entry >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = (bytes, entry)
        }
        return slots
    }()

    /// A numbered word's stem (`text01` -> `text`, `icon2` -> `icon`: the number is a step of a scale); other words as
    /// they are.
    static func numberedStem(_ word: String) -> String {
        guard word.isAllASCII else {
            let stem = word.prefix { !$0.isNumber }
            return stem.isEmpty || stem.count == word.count ? word : String(stem)
        }
        // Nearly every word is ASCII, and has no digit: found on its bytes, without grapheme breaking.
        var word = word
        return word.withUTF8 { bytes -> String? in
            guard let firstDigit = bytes.firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }), firstDigit > 0 else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<firstDigit]), as: UTF8.self)
        } ?? word
    }

    /// Every role word, and the plural of each (`surfaces`, `icons`, `borders`, as `singular` reads them): its entry in
    /// `roleTable`, the role and the role word itself.
    static let roleIndex: NameMap<Int> = {
        var index: NameMap<Int> = [:]
        for (i, entry) in roleTable.enumerated() {
            index[entry.word] = i
            let plural = entry.word + "s"
            if singular(plural) == entry.word { index[plural] = i }
        }
        return index
    }()
    static let roleTable: [(role: Role, word: String)] = wordRoles.map { ($0.value, $0.key) }

    /// Each role word's role: disabled and decorative words decide over the others wherever they stand, then the last
    /// text, graphic or background word.
    static let wordRoles: [String: Role] = {
        var roles: [String: Role] = [:]
        for (words, role) in [(backgroundWords, Role.background), (graphicWords, .graphic), (textWords, .text),
                              (decorativeWords, .decorative), (disabledWords, .disabled)] {
            for word in words { roles[word] = role }  // later sets win: the order above is the reverse of precedence
        }
        return roles
    }()

    static let textWords: Set<String> = [
        "text", "label", "title", "message", "placeholder", "numeral", "header", "heading", "caption", "body",
        "link", "foreground", "content", "typography",
    ]
    static let graphicWords: Set<String> = [
        "icon", "glyph", "border", "stroke", "separator", "divider", "indicator", "dot", "thumb", "track", "tint",
        "outline", "ring", "badge", "symbol", "progress",
    ]
    static let backgroundWords: Set<String> = [
        "background", "surface", "fill", "container", "card", "sheet", "menu", "bar", "row", "bg", "canvas", "scrim",
    ]
    static let disabledWords: Set<String> = ["disabled"]

    /// `surfaces` -> `surface`, `icons` -> `icon`; other words as they are.
    public static func singular(_ word: String) -> String {
        guard word.utf8.count > 3, word.utf8.last == UInt8(ascii: "s") else { return word }
        let stem = String(word.dropLast())
        return roleWords.contains(stem) ? stem : word
    }
    static let roleWords = textWords.union(graphicWords).union(backgroundWords).union(decorativeWords)
    static let decorativeWords: Set<String> = ["decorative", "shadow", "overlay"]
}

/// Splits `appTextOnBrandPrimary`, `fill_default`, `text-on-brand` into lowercase words.
public func nameWords(_ name: String) -> [String] {
    // Names are almost always ASCII: split their bytes directly (pairing and rules split thousands of names).
    if let words = name.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy { $0 < 0x80 } ? asciiNameWords($0) : nil }), let words {
        return words
    }
    var words: [String] = []
    var current = ""
    var previous: Character?
    for ch in name {
        if ch == "_" || ch == "-" || ch == "." || ch == " " || ch == "/" {
            if !current.isEmpty { words.append(current.lowercased()) }
            current = ""
        } else if ch.isUppercase, let p = previous, p.isLowercase || p.isNumber {
            words.append(current.lowercased())
            current = String(ch)
        } else {
            current.append(ch)
        }
        previous = ch
    }
    if !current.isEmpty { words.append(current.lowercased()) }
    return words
}

/// A name's words and the role they imply: `nameWords(name)` and `Role.inferred(fromWords:)` of them. An ASCII name's
/// words have their entries in `Role.roleTable` found on their lowercased bytes as each is written (the token graph
/// asks this of thousands of names: each word's bytes were read again out of its new string).
func wordsAndRole(of name: String) -> (words: [String], role: Role, word: String?) {
    let onBytes = name.utf8.withContiguousStorageIfAvailable { bytes -> (words: [String], role: Role, word: String?)? in
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: bytes.count + 1) { entries in
            let words = asciiNameWords(bytes, roleEntries: entries.baseAddress!)
            let inferred = Role.inferred(fromEntries: UnsafeBufferPointer(rebasing: entries[..<words.count]))
            return (words, inferred.role, inferred.word)
        }
    }
    if let onBytes, let onBytes { return onBytes }
    let words = nameWords(name)
    let inferred = Role.inferred(fromWords: words)
    return (words, inferred.role, inferred.word)
}

/// `nameWords` for ASCII names, on bytes: the same splitting rules without Character and grapheme handling. The words'
/// bounds are found first, so the array is made once at its size (grown word by word, it was reallocated two or three
/// times a name); each word is written lowercased straight into its string. `roleEntries`: where each word's
/// `Role.roleEntry(of:)` is written, when the caller wants them (room for one more than the name has bytes).
private func asciiNameWords(_ bytes: UnsafeBufferPointer<UInt8>, roleEntries: UnsafeMutablePointer<Int>? = nil) -> [String] {
    withUnsafeTemporaryAllocation(of: (start: Int, end: Int).self, capacity: bytes.count + 1) { bounds in
        let count = asciiWordBounds(bytes, into: bounds)
        return (0..<count).map { n in
            let (start, end) = bounds[n]
            var entry: Int?
            let word = String(unsafeUninitializedCapacity: end - start) { out in
                for i in start..<end {
                    let byte = bytes[i]
                    out[i - start] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                }
                // The entry found on the lowercased bytes just written, not read back out of the new string.
                if roleEntries != nil { entry = Role.roleEntry(ofASCII: UnsafeBufferPointer(rebasing: out[..<(end - start)])) }
                return end - start
            }
            // (A stem of more than 16 bytes is looked up by the string.)
            if let roleEntries { roleEntries[n] = entry ?? Role.roleEntry(of: word) }
            return word
        }
    }
}

/// Where the words of an ASCII name are (`nameWords`' splitting rules), written to `bounds` (room for one more than the
/// name has bytes); returns how many.
private func asciiWordBounds(_ bytes: UnsafeBufferPointer<UInt8>, into bounds: UnsafeMutableBufferPointer<(start: Int, end: Int)>) -> Int {
    var count = 0
    func word(_ start: Int, _ end: Int) {
        bounds[count] = (start, end)
        count += 1
    }
    var start = 0
    var previous: UInt8 = 0
    for i in 0..<bytes.count {
        let byte = bytes[i]
        if byte == 0x5F || byte == 0x2D || byte == 0x2E || byte == 0x20 || byte == 0x2F { // _ - . space /
            if i > start { word(start, i) }
            start = i + 1
        } else if byte >= 0x41 && byte <= 0x5A, (previous >= 0x61 && previous <= 0x7A) || (previous >= 0x30 && previous <= 0x39) {
            word(start, i)  // `textPrimary`: the word before the capital is never empty (its last byte is a letter or digit)
            start = i
        }
        previous = byte
    }
    if bytes.count > start { word(start, bytes.count) }
    return count
}

/// A set of lowercase words that names are asked whether they have (`nameWords(name).contains(where: words.contains)`),
/// answered for an ASCII name on its bytes: each word lowercased as it is read and compared as two integers with the
/// words of up to 16 bytes (no string made for it). Theme discovery asks this of every static member's name.
struct NameWordSet: Sendable {
    private let words: Set<String>
    /// The words that are ASCII and up to 16 bytes long, as `Role.RoleWordBytes`.
    private let shortASCII: [Role.RoleWordBytes]
    /// Whether some word is ASCII and longer than 16 bytes (compared as a string).
    private let hasLongASCII: Bool

    init(_ words: Set<String>) {
        self.words = words
        var shortASCII: [Role.RoleWordBytes] = [], hasLongASCII = false
        for word in words where word.isAllASCII {
            var word = word
            if let bytes = word.withUTF8({ Role.RoleWordBytes($0) }) { shortASCII.append(bytes) } else { hasLongASCII = true }
        }
        (self.shortASCII, self.hasLongASCII) = (shortASCII, hasLongASCII)
    }

    /// Whether one of `name`'s words (`nameWords(name)`) is one of the words. (An ASCII word is not equal to a word with
    /// other characters: none is canonically equivalent to ASCII text.)
    func isAmongWords(of name: String) -> Bool {
        let onBytes = name.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return withUnsafeTemporaryAllocation(of: (start: Int, end: Int).self, capacity: bytes.count + 1) { bounds in
                let count = asciiWordBounds(bytes, into: bounds)
                return bounds[..<count].contains { bound in
                    let length = bound.end - bound.start
                    guard length <= 16 else {
                        return hasLongASCII && words.contains(String(decoding: UnsafeBufferPointer(rebasing: bytes[bound.start..<bound.end]), as: UTF8.self).lowercased())
                    }
                    var packed = Role.RoleWordBytes()
                    for i in 0..<length { packed.set(asciiLowercased(bytes[bound.start + i]), at: i) }
                    return shortASCII.contains(packed)
                }
            }
        }
        if let onBytes, let onBytes { return onBytes }
        return nameWords(name).contains(where: words.contains)
    }
}
