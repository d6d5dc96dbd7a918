/// Shell-style path globs as used in `.a11yd.yml` `include`/`exclude`: `*` and `?` stay within one path
/// component, `**` spans any number of components (including none), `[abc]` is a character class.
public struct Glob: Hashable, Sendable {
    public let pattern: String
    /// The pattern's components as characters, split once (a root of a few hundred files is matched against every
    /// include and exclude pattern).
    private let components: [[Character]]
    private static let globstar: [Character] = ["*", "*"]

    public init(_ pattern: String) {
        self.pattern = pattern
        var p = Substring(pattern)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        self.components = p.split(separator: "/", omittingEmptySubsequences: true).map(Array.init)
    }

    /// Matches a path relative to the audited root, `/`-separated.
    public func matches(_ path: String) -> Bool {
        // A pattern without a slash matches the file name anywhere, as in .gitignore.
        if components.count == 1, components[0] != Self.globstar {
            return path.split(separator: "/", omittingEmptySubsequences: true).last.map { Self.matchComponent(components[0], Array($0)) } ?? false
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(Array.init)
        return Self.match(components[...], parts[...])
    }

    private static func match(_ pattern: ArraySlice<[Character]>, _ path: ArraySlice<[Character]>) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        if head == globstar {
            let rest = pattern.dropFirst()
            for skip in 0...path.count where match(rest, path.dropFirst(skip)) { return true }
            return false
        }
        guard let first = path.first, matchComponent(head, first) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    /// Iterative wildcard match with single-star backtracking: linear in practice, no recursion on input.
    private static func matchComponent(_ pattern: [Character], _ text: [Character]) -> Bool {
        var p = 0, t = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                starP = p; starT = t; p += 1
            } else if p < pattern.count, let width = matchOne(pattern, p, text[t]) {
                p += width; t += 1
            } else if starP >= 0 {
                p = starP + 1; starT += 1; t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// If pattern element at `index` matches `ch`, how many pattern characters it used.
    private static func matchOne(_ pattern: [Character], _ index: Int, _ ch: Character) -> Int? {
        let c = pattern[index]
        if c == "?" { return 1 }
        if c == "[", let close = pattern[(index + 1)...].firstIndex(of: "]"), close > index + 1 {
            var set = Array(pattern[(index + 1)..<close])
            let negate = set.first == "!" || set.first == "^"
            if negate { set.removeFirst() }
            var hit = false
            var i = 0
            while i < set.count {
                if i + 2 < set.count, set[i + 1] == "-" {
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
