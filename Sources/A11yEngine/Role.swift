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
        let table = roleTable
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: written.count) { found in
            for i in written.indices { found[i] = roleEntry(of: written[i]) }
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
    }

    /// A word's entry in `roleTable` (its numbered stem's: `text01` is `text`), -1 for none. An ASCII word's stem is
    /// compared on its bytes with the role words of its length, held as integers (`RoleWordBytes`): no string made for
    /// the stem, no name hashed (thousands of names' words per audit, most of them numbered on a large system).
    static func roleEntry(of word: String) -> Int {
        let onBytes = word.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var firstDigit = bytes.count
            for i in bytes.indices {
                let byte = bytes[i]
                guard byte < 0x80 else { return nil }
                if byte >= 0x30 && byte <= 0x39 && firstDigit == bytes.count { firstDigit = i }
            }
            let stem = UnsafeBufferPointer(rebasing: bytes[..<(firstDigit > 0 ? firstDigit : bytes.count)])
            guard let packed = RoleWordBytes(stem) else { return nil }
            return roleWordsByLength[stem.count].first { $0.bytes == packed }?.entry ?? -1
        }
        if let onBytes, let onBytes { return onBytes }
        return roleIndex[numberedStem(word)] ?? -1
    }

    /// Up to 16 bytes of a word as two integers (zeros after its end); nil for a longer word.
    struct RoleWordBytes: Equatable {
        var low: UInt64 = 0, high: UInt64 = 0

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count <= 16 else { return nil }
            for i in bytes.indices {
                if i < 8 { low |= UInt64(bytes[i]) << UInt64(8 * i) } else { high |= UInt64(bytes[i]) << UInt64(8 * (i - 8)) }
            }
        }
    }

    /// `roleIndex`'s words (all ASCII) by their length, up to 16 bytes, each with its entry (longer words are found
    /// through `roleIndex`: a stem of more than 16 bytes takes that path).
    static let roleWordsByLength: [[(bytes: RoleWordBytes, entry: Int)]] = {
        var byLength = [[(bytes: RoleWordBytes, entry: Int)]](repeating: [], count: 17)
        for (word, entry) in roleIndex {
            var word = word
            guard let bytes = word.withUTF8({ RoleWordBytes($0) }) else { continue }
            byLength[word.utf8.count].append((bytes, entry))
        }
        return byLength
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

/// `nameWords` for ASCII names, on bytes: the same splitting rules without Character and grapheme handling. The words'
/// bounds are found first, so the array is made once at its size (grown word by word, it was reallocated two or three
/// times a name); each word is written lowercased straight into its string.
private func asciiNameWords(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
    withUnsafeTemporaryAllocation(of: (start: Int, end: Int).self, capacity: bytes.count + 1) { bounds in
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
        return (0..<count).map { n in
            let (start, end) = bounds[n]
            return String(unsafeUninitializedCapacity: end - start) { out in
                for i in start..<end {
                    let byte = bytes[i]
                    out[i - start] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                }
                return end - start
            }
        }
    }
}
