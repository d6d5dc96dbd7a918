import A11yEngine
import Testing

/// `containsText` finds a byte sequence in a text's UTF-8: the answers of a plain search of every position.
struct TextSearchTests {
    static func naive(_ text: String, _ needle: String) -> Bool {
        let t = Array(text.utf8), n = Array(needle.utf8)
        if n.isEmpty { return true }
        guard t.count >= n.count else { return false }
        return (0...(t.count - n.count)).contains { Array(t[$0..<($0 + n.count)]) == n }
    }

    @Test func findsWhatAPlainSearchFinds() {
        let texts = ["", "a", "aaab", "// a11yd:ignore contrast.text", "abcabcabd", "x a11yd:ignor", "café a11yd:ignore é",
                     String(repeating: "ab", count: 500) + "abc", "a11yd:ignore"]
        let needles = ["", "a", "b", "ab", "abd", "abc", "a11yd:ignore", "é a", "ignore é", "zz", String(repeating: "ab", count: 501)]
        for text in texts {
            for needle in needles {
                #expect(text.containsText(needle) == Self.naive(text, needle), "\(needle) in \(text.prefix(40))")
                #expect(Substring(text).containsText(needle) == Self.naive(text, needle))
            }
        }
    }

    /// Eight places are tested at a time: the marker and near misses at every offset, and at every distance from the end.
    @Test func findsAtEveryOffset() {
        for before in 0..<20 {
            for after in 0..<10 {
                let pad = String(repeating: "x", count: before), tail = String(repeating: "a", count: after)
                for middle in ["a11yd:ignore", "a11yd:ignorX", "a1a11yd:ignore", "aa1", "1a"] {
                    let text = pad + middle + tail
                    for needle in ["a11yd:ignore", "a1", "xa"] {
                        #expect(text.containsText(needle) == Self.naive(text, needle), "\(needle) in \(text)")
                    }
                }
            }
        }
    }
}
