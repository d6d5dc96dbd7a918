import Testing
@testable import A11yEngine

/// Published contrast vectors. Each source is named next to its values.
struct ContrastMathTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var foreground: String
        var background: String
        /// The published value, as the source displays it (two decimals).
        var published: String
        var source: String
        var testDescription: String { "\(foreground) on \(background) = \(published) (\(source))" }
    }

    static let vectors: [Vector] = [
        // WCAG 2.x definition: black on white is the maximum, 21:1; identical colors 1:1.
        Vector(foreground: "#000000", background: "#FFFFFF", published: "21.00", source: "WCAG 2.x contrast ratio definition"),
        Vector(foreground: "#FFFFFF", background: "#FFFFFF", published: "1.00", source: "WCAG 2.x contrast ratio definition"),
        // WebAIM Contrast Checker: #777777 on white is 4.47:1 (fails AA), #767676 is 4.54:1 (passes).
        Vector(foreground: "#777777", background: "#FFFFFF", published: "4.47", source: "WebAIM Contrast Checker"),
        Vector(foreground: "#767676", background: "#FFFFFF", published: "4.54", source: "WebAIM Contrast Checker"),
        // styled-components/polished src/color/test/getContrast.test.js.
        Vector(foreground: "#CCCD64", background: "#000000", published: "12.48", source: "polished getContrast rgb(204,205,100) on rgb(0,0,0)"),
        Vector(foreground: "#FF0000", background: "#FFFFFF", published: "3.99", source: "polished getContrast hsl(0,100%,50%) on hsl(0,100%,100%)"),
        Vector(foreground: "#FFEFD5", background: "#FFFFFF", published: "1.13", source: "polished getContrast papayawhip on white"),
        // misund/get-contrast-ratio test/test.js: blue on red.
        Vector(foreground: "#0000FF", background: "#FF0000", published: "2.14", source: "get-contrast-ratio blue on red"),
    ]

    @Test(arguments: vectors)
    func publishedVectorMatchesDisplayedRatio(_ v: Vector) throws {
        let fg = try #require(ColorValue(hex: v.foreground))
        let bg = try #require(ColorValue(hex: v.background))
        #expect(displayRatio(ColorValue.contrastRatio(fg, bg)) == v.published)
        // The ratio is symmetric.
        #expect(ColorValue.contrastRatio(fg, bg) == ColorValue.contrastRatio(bg, fg))
    }

    @Test func unroundedRatioOf777777OnWhiteFailsAAWhile767676Passes() throws {
        let white = ColorValue.white
        let r777 = ColorValue.contrastRatio(try #require(ColorValue(hex: "#777")), white)
        let r767 = ColorValue.contrastRatio(try #require(ColorValue(hex: "767676")), white)
        #expect(abs(r777 - 4.478) < 0.001)
        #expect(abs(r767 - 4.542) < 0.001)
        #expect(r777 < 4.5)
        #expect(r767 >= 4.5)
    }

    @Test func displayedRatioIsRoundedDownNeverUp() {
        #expect(displayRatio(4.496) == "4.49")
        #expect(displayRatio(4.4999) == "4.49")
        #expect(displayRatio(4.5) == "4.50")
        #expect(displayRatio(2.999) == "2.99")
        #expect(displayRatio(21) == "21.00")
        #expect(displayRatio(1) == "1.00")
        #expect(displayRatio(1.05) == "1.05")
        #expect(displayRatio(4.54) == "4.54")  // 4.54 * 100 is 453.99999... in binary
        #expect(displayRatio(10.1) == "10.10")
        // Whole hundredths are printed as "%.2f" prints them, across the range ratios take.
        for hundredths in stride(from: 100, through: 2100, by: 1) {
            #expect(displayRatio(Double(hundredths) / 100) == String(format: "%.2f", Double(hundredths) / 100))
        }
        // And below 1, and whole parts of every length the digits are written for (up to 13).
        let others = Array(0..<100) + (2...13).flatMap { digits -> [Int] in
            let power = (0..<digits).reduce(1) { r, _ in r * 10 }
            return [power * 10, power * 10 + 7, power * 100 - 1]
        }
        for hundredths in others {
            #expect(displayRatio(Double(hundredths) / 100) == String(format: "%.2f", Double(hundredths) / 100), "\(hundredths)")
        }
    }

    @Test(arguments: [
        ("#FFF", ColorValue(red: 1, green: 1, blue: 1, alpha: 1)),
        ("#0f08", ColorValue(red: 0, green: 1, blue: 0, alpha: 136.0 / 255)),
        ("0x336699", ColorValue(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0x99 / 255.0, alpha: 1)),
        ("336699CC", ColorValue(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0x99 / 255.0, alpha: 0xCC / 255.0)),
        ("#abc", ColorValue(red: 0xAA / 255.0, green: 0xBB / 255.0, blue: 0xCC / 255.0, alpha: 1)),
    ])
    func hexFormsParse(_ text: String, _ expected: ColorValue) {
        #expect(ColorValue(hex: text) == expected)
    }

    @Test(arguments: ["", "#", "#12", "#12345", "#1234567", "#GGGGGG", "0x", "##fff", "#fff fff"])
    func malformedHexIsRejected(_ text: String) {
        #expect(ColorValue(hex: text) == nil)
    }

    @Test func hexRoundTripsAndKeepsAlpha() throws {
        #expect(try #require(ColorValue(hex: "#0f172a")).hex == "#0F172A")
        #expect(try #require(ColorValue(hex: "#0F172A80")).hex == "#0F172A80")
        #expect(try #require(ColorValue(hex: " 0xabc ")).hex == "#AABBCC")
        #expect(try #require(ColorValue(hex: "#abcd")).hex == "#AABBCCDD")
    }

    @Test func hexRoundsEachComponentAndClampsIt() {
        #expect(ColorValue(red: 1, green: 0, blue: 0.5).hex == "#FF0080")  // 127.5 rounds to 128
        #expect(ColorValue(red: 1.2, green: -0.1, blue: 0.0019).hex == "#FF0000")
        #expect(ColorValue(red: 0, green: 0, blue: 0, alpha: 0.999).hex == "#000000FF")  // not opaque: alpha written
        #expect(ColorValue.clear.hex == "#00000000")
    }

    @Test func halfBlackOverWhiteCompositesInGammaSpace() {
        // UIKit blends gamma-encoded values: 50% black over white is 0.5 gray, not linear-light 0.5 (which would be #BCBCBC).
        let c = ColorValue.black.withAlpha(0.5).composited(over: .white)
        #expect(abs(c.red - 0.5) < 1e-12)
        #expect(c.alpha == 1)
        // 0.5 gray on white: L = ((0.5+0.055)/1.055)^2.4 = 0.21404; (1.05)/(0.26404) = 3.9767.
        #expect(abs(ColorValue.contrastRatio(c, .white) - 3.9767) < 0.0005)
    }

    @Test func translucentForegroundIsCompositedOverBackgroundOverSurface() {
        // A 60%-opaque white text on a clear background over a black surface reads as 0.6 gray on black.
        let ratio = ColorValue.contrastRatio(
            foreground: ColorValue.white.withAlpha(0.6), background: .clear, surface: .black)
        let gray = ColorValue(white: 0.6)
        #expect(abs(ratio - ColorValue.contrastRatio(gray, .black)) < 1e-12)
        // A clear foreground has no contrast at all.
        #expect(ColorValue.contrastRatio(foreground: .clear, background: .white, surface: .white) == 1)
    }

    @Test func opacityMultipliesAlpha() {
        #expect(ColorValue.white.withAlpha(0.5).multiplyingAlpha(0.5).alpha == 0.25)
    }

    @Test func nearestPassingColorReachesTheThresholdWithTheSameHue() throws {
        let fg = try #require(ColorValue(hex: "#8E8E93"))
        let fix = try #require(nearestPassingColor(foreground: fg, background: .white, required: 4.5))
        #expect(fix.ratio >= 4.5)
        #expect(fix.ratio < 4.7) // nearest, not black
        #expect(ColorValue.contrastRatio(fix.color, .white) == fix.ratio)
        let fixedHue = OKLCH(fix.color).hue, originalHue = OKLCH(fg).hue
        #expect(abs(fixedHue - originalHue) < 0.2)
    }

    /// The search bisects both directions side by side in SIMD lanes; its answers must be the very ones (same 8-bit
    /// color, same ratio, bit for bit) of the bisection written one direction and one color at a time with `OKLCH`, kept
    /// here.
    @Test func nearestPassingColorGivesWhatTheScalarSearchGives() {
        func scalarSearch(_ foreground: ColorValue, _ background: ColorValue, _ required: Double) -> (color: ColorValue, ratio: Double)? {
            let start = OKLCH(foreground.withAlpha(1))
            let backgroundLuminance = background.relativeLuminance
            func ratio(_ l: Double) -> Double { (max(l, backgroundLuminance) + 0.05) / (min(l, backgroundLuminance) + 0.05) }
            func at(_ lightness: Double) -> OKLCH { start.with(lightness: lightness, chroma: start.chroma).mappedIntoGamut }
            var best: PassingFix?
            for target in [0.0, 1.0] {
                guard ratio(at(target).relativeLuminance) >= required else { continue }
                var near = start.lightness, far = target
                for _ in 0..<12 {
                    let mid = (near + far) / 2
                    if ratio(at(mid).relativeLuminance) >= required { far = mid } else { near = mid }
                }
                // (The rounding after the bisection is the search's own: the lanes replace only the bisection.)
                guard let fix = PassingFix(start, lightness: far, mapped: at(far), toward: target, on: backgroundLuminance,
                                           required: required) else { continue }
                if best == nil || fix.distance < best!.distance { best = fix }
            }
            return best.map { ($0.color, $0.ratio) }
        }
        // A fixed sequence (splitmix64), so a failure names the same case every run; saturated, dark, light and gray
        // colors, against light, dark and mid backgrounds, at the three thresholds the rules use.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        var compared = 0, found = 0
        for _ in 0..<3_000 {
            let fg = ColorValue(red: next(), green: next(), blue: next())
            let bg = ColorValue(red: next(), green: next(), blue: next())
            for required in [3.0, 4.5, 7.0] {
                let lanes = nearestPassingColor(foreground: fg, background: bg, required: required)
                let scalar = scalarSearch(fg, bg, required)
                #expect(lanes?.color == scalar?.color && lanes?.ratio == scalar?.ratio, "\(fg.hex) on \(bg.hex) at \(required)")
                compared += 1
                if scalar != nil { found += 1 }
            }
        }
        // Most cases have a fix, some none (a mid-gray background at 7:1): both kinds were compared.
        #expect(found > compared / 2 && found < compared)
    }
}
