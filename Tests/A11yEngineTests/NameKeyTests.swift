import Foundation
import Testing
@testable import A11yEngine

/// `NameKey` hashes names its own way; it must agree with `String`'s equality, which is canonical equivalence.
@Suite struct NameKeyTests {
    /// Lengths 0 to 40 (every tail of 1 to 7 bytes after whole words), and names differing in one byte at each position.
    @Test func keysAreEqualExactlyWhenTheirStringsAre() {
        let base = "ElevateTokens.Palette.Blue.blue500.alpha"
        var names = (0...base.utf8.count).map { String(base.prefix($0)) }
        for i in 0..<base.count {
            var bytes = Array(base.utf8)
            bytes[i] ^= 0x01
            names.append(String(decoding: bytes, as: UTF8.self))
        }
        for a in names {
            for b in names {
                #expect((NameKey(a) == NameKey(b)) == (a == b), "\(a) / \(b)")
            }
        }
        let unique = Set(names.map(NameKey.init))
        #expect(unique.count == Set(names).count)
    }

    /// Strings `==` calls equal but whose bytes differ: composed and decomposed accents, and KELVIN SIGN, whose NFC form
    /// is the ASCII letter K. Each pair is one key, with one hash.
    @Test func canonicallyEquivalentNamesAreOneKey() {
        let pairs = [("Th\u{E8}me", "The\u{300}me"), ("K", "\u{212A}"), ("caf\u{E9}Background", "cafe\u{301}Background"),
                     ("\u{212B}ngstr\u{F6}m", "A\u{30A}ngstro\u{308}m")]
        for (a, b) in pairs {
            #expect(a == b)
            #expect(NameKey(a) == NameKey(b))
            #expect(NameKey(a).hashValue == NameKey(b).hashValue)
            var map = NameMap<Int>()
            map[a] = 1
            #expect(map[b] == 1, "\(b) finds \(a)")
        }
        #expect(NameKey("K") != NameKey("k"))
    }

    /// Non-ASCII names' hashes are kept by name once made: made again and again, from many threads at once, in either
    /// spelling first, each name still has the one hash of its NFC form, and names that differ still differ.
    @Test func nonASCIIHashesAreTheSameMadeAgainFromManyThreads() async {
        let spellings = [("ros\u{E9}", "rose\u{301}"), ("\u{212B}", "A\u{30A}"), ("na\u{EF}ve\u{2014}\(Int.random(in: 0..<1_000_000))", "")]
        let nfc = spellings.map { NameKey($0.0.precomposedStringWithCanonicalMapping).hashValue }
        let hashes = await withTaskGroup(of: [[Int]].self) { group in
            for task in 0..<16 {
                group.addTask {
                    (0..<200).map { i in
                        spellings.map { pair in NameKey((i + task) % 2 == 0 || pair.1.isEmpty ? pair.0 : pair.1).hashValue }
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        for round in hashes { #expect(round == nfc) }
        #expect(Set(nfc).count == spellings.count)
        #expect(NameKey("ros\u{E9}") != NameKey("ros\u{E8}"))
    }

    /// A NameMap and a NameSet give the answers a `[String: Int]` and a `Set<String>` give, through inserts, updates,
    /// removals and growth.
    @Test func mapAndSetBehaveAsDictionaryAndSet() {
        var map = NameMap<Int>()
        var dictionary: [String: Int] = [:]
        var set = NameSet()
        var strings: Set<String> = []
        var state: UInt64 = 42
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33)
        }
        for step in 0..<5_000 {
            let name = "token\(next() % 900)" + (next() % 3 == 0 ? ".\u{E9}" : "")
            switch next() % 4 {
            case 0:
                map[name] = nil
                dictionary[name] = nil
            case 1:
                map[name, default: 0] += step
                dictionary[name, default: 0] += step
            default:
                map[name] = step
                dictionary[name] = step
            }
            #expect(set.insert(name) == strings.insert(name).inserted)
            #expect(map[name] == dictionary[name])
        }
        #expect(map.count == dictionary.count)
        #expect(Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) }) == dictionary)
        #expect(Set(map.keys) == Set(dictionary.keys))
        #expect(set.count == strings.count)
        #expect(strings.allSatisfy(set.contains))
        #expect(!set.contains("token-1"))
        let other: NameMap<Int> = ["token1": -1, "elsewhere": -2]
        let merged = map.merging(other) { own, _ in own }
        #expect(merged["elsewhere"] == -2)
        #expect(merged["token1"] == (dictionary["token1"] ?? -1))
    }
}
