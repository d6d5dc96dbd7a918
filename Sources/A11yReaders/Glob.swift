/// Shell-style path globs as used in `.a11yd.yml` `include`/`exclude`: `*` and `?` stay within one path
/// component, `**` spans any number of components (including none), `[abc]` is a character class.
public struct Glob: Hashable, Sendable {
    public let pattern: String
    /// The pattern's components as characters, split once (a root of a few hundred files is matched against every
    /// include and exclude pattern).
    private let components: [[Character]]
    /// The same components as bytes, when the pattern is ASCII: `matches` compares bytes then, for paths that are ASCII
    /// too. Characters cost ~300,000 instructions a file against the default patterns (a tenth of a 200-file
    /// repository's audit); on ASCII text each byte is one character, so the answers are the same.
    private let asciiComponents: [[UInt8]]?

    public init(_ pattern: String) {
        self.pattern = pattern
        var p = Substring(pattern)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        self.components = p.split(separator: "/", omittingEmptySubsequences: true).map(Array.init)
        asciiComponents = Self.isPlainASCII(p.utf8) ? components.map { Array(String($0).utf8) } : nil
    }

    /// ASCII without a carriage return (`\r\n` is one character, two bytes).
    private static func isPlainASCII(_ bytes: some Sequence<UInt8>) -> Bool { bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D } }

    /// Matches a path relative to the audited root, `/`-separated.
    public func matches(_ path: String) -> Bool { matches(Path(path)) }

    /// A path split into components once, to be matched against several globs (a root's files against every include
    /// and exclude pattern: splitting it again for each was ~70,000 instructions a file).
    public struct Path {
        let path: String
        /// The components as bytes, when the path is plain ASCII.
        let asciiComponents: [[UInt8]]?

        public init(_ path: String) {
            self.path = path
            // Split on the string's buffer: the generic `split` of its UTF-8 view cost ~10,000 instructions a path.
            var path = path
            asciiComponents = path.withUTF8 { bytes in
                guard Glob.isPlainASCII(bytes) else { return nil }
                var components: [[UInt8]] = []
                var start = 0
                for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
                    if end > start { components.append(Array(UnsafeBufferPointer(rebasing: bytes[start..<end]))) }
                    start = end + 1
                }
                return components
            }
        }
    }

    /// Matches a path split once (`Path`).
    public func matches(_ path: Path) -> Bool {
        guard let asciiComponents, let pathComponents = path.asciiComponents else { return matchesByCharacters(path.path) }
        return Self.matches(asciiComponents, pathComponents)
    }

    /// `matches`, comparing characters: any pattern or path.
    func matchesByCharacters(_ path: String) -> Bool {
        Self.matches(components, path.split(separator: "/", omittingEmptySubsequences: true).map(Array.init))
    }

    /// A pattern without a slash matches the file name anywhere, as in .gitignore; any other, component by component.
    private static func matches<C: GlobElement>(_ pattern: [[C]], _ path: [[C]]) -> Bool {
        if pattern.count == 1, !isGlobstar(pattern[0]) { return path.last.map { matchComponent(pattern[0], $0) } ?? false }
        return match(pattern[...], path[...])
    }

    private static func isGlobstar<C: GlobElement>(_ component: [C]) -> Bool {
        component.count == 2 && component[0] == .star && component[1] == .star
    }

    /// Components matched in turn; `**` takes any number of path components. Characters, or bytes of ASCII text.
    private static func match<C: GlobElement>(_ pattern: ArraySlice<[C]>, _ path: ArraySlice<[C]>) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        if isGlobstar(head) {
            let rest = pattern.dropFirst()
            for skip in 0...path.count where match(rest, path.dropFirst(skip)) { return true }
            return false
        }
        guard let first = path.first, matchComponent(head, first) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    /// Iterative wildcard match with single-star backtracking: linear in practice, no recursion on input.
    private static func matchComponent<C: GlobElement>(_ pattern: [C], _ text: [C]) -> Bool {
        var p = 0, t = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == .star {
                starP = p; starT = t; p += 1
            } else if p < pattern.count, let width = matchOne(pattern, p, text[t]) {
                p += width; t += 1
            } else if starP >= 0 {
                p = starP + 1; starT += 1; t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == .star { p += 1 }
        return p == pattern.count
    }

    /// If pattern element at `index` matches `ch`, how many pattern characters it used.
    private static func matchOne<C: GlobElement>(_ pattern: [C], _ index: Int, _ ch: C) -> Int? {
        let c = pattern[index]
        if c == .question { return 1 }
        if c == .openBracket, let close = pattern[(index + 1)...].firstIndex(of: .closeBracket), close > index + 1 {
            var set = Array(pattern[(index + 1)..<close])
            let negate = set.first == .bang || set.first == .caret
            if negate { set.removeFirst() }
            var hit = false
            var i = 0
            while i < set.count {
                if i + 2 < set.count, set[i + 1] == .dash {
                    if set[i] <= ch && ch <= set[i + 2] { hit = true }
                    i += 3
                } else {
                    if set[i] == ch { hit = true }
                    i += 1
                }
            }
            return hit != negate ? close - index + 1 : nil
        }
        return c == ch ? 1 : nil
    }
}

/// What a glob is matched on: characters, or the bytes of ASCII text (where each byte is one character, and byte order is
/// character order).
private protocol GlobElement: Comparable {
    static var star: Self { get }
    static var question: Self { get }
    static var openBracket: Self { get }
    static var closeBracket: Self { get }
    static var bang: Self { get }
    static var caret: Self { get }
    static var dash: Self { get }
}

extension Character: GlobElement {
    static var star: Character { "*" }
    static var question: Character { "?" }
    static var openBracket: Character { "[" }
    static var closeBracket: Character { "]" }
    static var bang: Character { "!" }
    static var caret: Character { "^" }
    static var dash: Character { "-" }
}

extension UInt8: GlobElement {
    static var star: UInt8 { UInt8(ascii: "*") }
    static var question: UInt8 { UInt8(ascii: "?") }
    static var openBracket: UInt8 { UInt8(ascii: "[") }
    static var closeBracket: UInt8 { UInt8(ascii: "]") }
    static var bang: UInt8 { UInt8(ascii: "!") }
    static var caret: UInt8 { UInt8(ascii: "^") }
    static var dash: UInt8 { UInt8(ascii: "-") }
}
