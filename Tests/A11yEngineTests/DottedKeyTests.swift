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

    @Test func aMemberKeyIsItsOwnerDotItsNameOrTheNameAtTopLevel() {
        #expect(memberKey("Color", "brand") == "Color.brand")
        #expect(memberKey("", "brand") == "brand")
        #expect(memberKey("ElevateTokens.Palette.Blue", "blue500") == "ElevateTokens.Palette.Blue.blue500")
        #expect(memberKey("Thème", "é") == "Thème.é")
    }
}
