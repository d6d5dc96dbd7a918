import Testing
@testable import A11yEngine

struct DottedKeyTests {
    @Test func namesJoinAsJoinedWithADotDoes() {
        let cases: [[String]] = [
            [], [""], ["", ""], ["Color"], ["Color", "brand"], ["", "top"],
            ["ElevateTokens", "Palette", "Blue", "blue500"],  // longer than a small string
            ["Thème", "couleurÉclat", "🎨"], ["a", "", "b"],
        ]
        for parts in cases {
            #expect(parts.joinedWithDots() == parts.joined(separator: "."), "\(parts)")
            #expect(parts[...].joinedWithDots() == parts.joined(separator: "."), "\(parts)")
        }
    }

    @Test func theLastPieceIsTheLastOfTheSplit() {
        for name in ["", ".", "..", "Color", "Theme.Colors", "Theme.Colors.", "a..b", ".a", "ElevateTokens.Palette.Blue.blue500",
                     "Thème.Couleur", "a.🎨", "🎨"] {
            #expect(name.lastDotPiece == name.splitOnDots().last, "\(name)")
        }
    }

    @Test func stringsConcatenateAsPlusDoes() {
        for parts in [[], [""], ["Button", ": ", "ink", " on ", "paper"], ["Thème", " ", "🎨"], ["ElevateTokens.Palette.Blue.blue500", ""]] {
            #expect(parts.concatenated() == parts.reduce("", +), "\(parts)")
        }
    }

    @Test func aMemberKeyIsItsOwnerDotItsNameOrTheNameAtTopLevel() {
        #expect(memberKey("Color", "brand") == "Color.brand")
        #expect(memberKey("", "brand") == "brand")
        #expect(memberKey("ElevateTokens.Palette.Blue", "blue500") == "ElevateTokens.Palette.Blue.blue500")
        #expect(memberKey("Thème", "é") == "Thème.é")
    }

    /// A declaration keeps its owner's key and its own, made with it: they follow a change of owner or name, on the
    /// copy that changed only (declarations share their fields until one is changed).
    @Test func aDeclarationsKeysFollowItsOwnerAndName() {
        let location = SourceLocation(file: "T.swift", line: 1, column: 1)
        let original = MemberDeclaration(owner: ["Theme", "Colors"], name: "brand", isStatic: true, kind: .stored(initial: nil),
                                         type: nil, location: location)
        #expect(original.ownerKey == "Theme.Colors")
        #expect(original.key == "Theme.Colors.brand")
        var renamed = original
        renamed.name = "accent"
        #expect(renamed.key == "Theme.Colors.accent")
        var moved = original
        moved.owner = []
        #expect(moved.ownerKey == "")
        #expect(moved.key == "brand")
        #expect(original.key == "Theme.Colors.brand" && original.ownerKey == "Theme.Colors")
        for d in [original, renamed, moved] {
            #expect(d.key == d.qualifiedName.joinedWithDots())
            #expect(d.ownerKey == d.owner.joinedWithDots())
        }
    }

    @Test func splittingOnDotsGivesWhatSplittingByCharacterGives() {
        // Empty pieces are omitted; a dot followed by a combining accent is one character, not a separator.
        for name in ["", ".", "..", "Color", "Color.brand", ".brand", "Color.", "a..b", "ElevateTokens.Palette.Blue.blue500",
                     "Thème.couleur", "a.\u{301}b", "🎨.x"] {
            #expect(name.splitOnDots() == name.split(separator: "."), "\(name)")
            #expect(name.firstDotIndex == name.firstIndex(of: "."), "\(name)")
        }
        for text in ["showing and not disabled", " a  b ", "", "é und ü"] {
            #expect(text.split(onASCII: UInt8(ascii: " ")) == text.split(separator: " "), "\(text)")
        }
    }

    @Test func keysSortAsSortedSortsThem() {
        // Prefixes, case (uppercase bytes sort first), digits, small and large strings, and duplicates.
        let ascii = ["Color.brand", "Color", "color", "Color.brand2", "Color.brand10", "", "ElevateTokens.Palette.Blue.blue500",
                     "ElevateTokens.Palette.Blue.blue50", "a", "Z", "Color.brand", "_private", "9"]
        #expect(ascii.sortedComparingBytes() == ascii.sorted())
        // Non-ASCII keys keep String's order: "e" + combining acute equals "é", which sorts by its canonical form.
        let unicode = ascii + ["Thème", "the\u{300}me", "é", "e\u{301}", "🎨", "f"]
        #expect(unicode.sortedComparingBytes() == unicode.sorted())
        #expect([String]().sortedComparingBytes() == [])
        #expect(["", ""].sortedComparingBytes() == ["", ""])
        #expect(["b", "", "a", ""].sortedComparingBytes() == ["", "", "a", "b"])
        // Keys that share a long prefix and differ past their first eight bytes after it, or end inside it, or hold NUL.
        let shared = ["Color.benchInk12", "Color.benchInk1", "Color.benchLine14", "Color.benchInk12Pressed", "Color.bench",
                      "Color.benchInk12PressedA", "Color.benchInk12PressedB", "Color.bench\u{0}", "Color.bench\u{0}a"]
        #expect(shared.sortedComparingBytes() == shared.sorted())
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aAzZ09._\u{0}~".utf8)
        let random = (0..<2_000).map { _ in
            "Theme.Colors." + String(decoding: (0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
        }
        #expect(random.sortedComparingBytes() == random.sorted())
        // Owners with no prefix in common, each with long runs of keys alike in their first sixteen bytes and more.
        let owners = ["Color.", "BenchComponent1Styling.Colors.", "BenchComponent10Styling.Colors.", "B", "Color.benchSurface"]
        let mixed = (0..<2_000).map { _ in
            owners.randomElement(using: &generator)! + "benchSurfaceBase"
                + String(decoding: (0..<Int.random(in: 0...20, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
        }
        #expect(mixed.sortedComparingBytes() == mixed.sorted())
        // Equal strings keep their order.
        let doubled = mixed + mixed
        #expect(doubled.orderComparingBytes() == doubled.indices.sorted { a, b in doubled[a] != doubled[b] ? doubled[a] < doubled[b] : a < b })
        // Long runs that differ only in trailing NULs, past several eight-byte steps (a shorter one is a prefix: first).
        let padded = (0..<60).map { "Color.benchSurfaceBasePrimary" + String(repeating: "\u{0}", count: ($0 * 7) % 30) }
        #expect(padded.orderComparingBytes() == padded.indices.sorted { a, b in padded[a] != padded[b] ? padded[a] < padded[b] : a < b })
    }

    /// A display name drops a color, number or font namespace or `Asset.` as the key's first name, nothing else.
    @Test func displayNamesDropOnlyNamespaces() {
        let expected = ["Color.brand": "brand", "UIColor.brand.dark": "brand.dark", "CGFloat.space4": "space4", "Font.body": "body",
                        "Asset.ink": "ink", "UInt8.max": "max", "Colors.brand": "Colors.brand", "Colr.brand": "Colr.brand",
                        "BenchComponent0Styling.Colors.label": "BenchComponent0Styling.Colors.label", "brand": "brand",
                        ".brand": ".brand", "Color": "Color", "SwiftUI.Color.brand": "SwiftUI.Color.brand", "Cöler.x": "Cöler.x"]
        for (key, name) in expected { #expect(TokenGraph.displayName(key) == name, "\(key)") }
        #expect(TokenGraph.displayName(String("xColor.brand".dropFirst())) == "brand")  // a substring's bytes
    }

    /// A member's reads, each once in the order first read: short lists searched, long ones (over 16) through a set.
    @Test func readsKeepTheirFirstOccurrences() {
        #expect(withoutDuplicates([]) == [])
        #expect(withoutDuplicates(["a"]) == ["a"])
        #expect(withoutDuplicates(["b", "a", "b", "c", "a"]) == ["b", "a", "c"])
        let long = (0..<40).map { "Color.k\($0 % 23)" }
        #expect(withoutDuplicates(long) == (0..<23).map { "Color.k\($0)" })
        #expect(stringRanks(["b", "a", "b", "", "c"]).map { "\($0.key)=\($0.value)" }.sorted() == ["=0", "a=1", "b=2", "c=3"])
        #expect(positionRanks(["b", "a", "b", "b", "", "c", "a"]) == [2, 1, 2, 2, 0, 3, 1])
    }
}
