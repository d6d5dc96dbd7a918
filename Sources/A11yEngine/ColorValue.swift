import Foundation

/// A color in gamma-encoded sRGB with straight (non-premultiplied) alpha, components in 0...1.
public struct ColorValue: Hashable, Sendable, Codable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// The four components folded into one word, hashed once (synthesized hashing fed the hasher four doubles, and
    /// every appearance color is four of these: view code keys thousands of pairs by their colors). Equal values fold
    /// alike: `-0.0` folds as `0.0`, which it equals.
    public func hash(into hasher: inout Hasher) { hasher.combine(folded) }

    var folded: UInt64 {
        func bits(_ x: Double) -> UInt64 { x == 0 ? 0 : x.bitPattern }
        var h = bits(red)
        h = (h ^ (h >> 29)) &* 0x9FB2_1C65_1E98_DF25 ^ bits(green)
        h = (h ^ (h >> 29)) &* 0x9FB2_1C65_1E98_DF25 ^ bits(blue)
        h = (h ^ (h >> 29)) &* 0x9FB2_1C65_1E98_DF25 ^ bits(alpha)
        return h
    }

    public static let black = ColorValue(red: 0, green: 0, blue: 0)
    public static let white = ColorValue(red: 1, green: 1, blue: 1)
    public static let clear = ColorValue(red: 0, green: 0, blue: 0, alpha: 0)

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`, with or without `#` or `0x`. Returns nil when malformed.
    public init?(hex text: String) {
        // On the bytes, allocation-free: every adaptive token of a large system parses two of these.
        let packed = text.utf8.withContiguousStorageIfAvailable(Self.packedHex) ?? { var copy = text; return copy.withUTF8(Self.packedHex) }()
        guard let value = packed else { return nil }
        self.init(
            red: Double((value >> 24) & 0xFF) / 255,
            green: Double((value >> 16) & 0xFF) / 255,
            blue: Double((value >> 8) & 0xFF) / 255,
            alpha: Double(value & 0xFF) / 255)
    }

    /// `RRGGBBAA` packed from `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA` (or `0x`, or no prefix; spaces and tabs around
    /// it); nil for anything else.
    private static func packedHex(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        if start < end, bytes[start] == UInt8(ascii: "#") {
            start += 1
        } else if end - start > 2, bytes[start] == UInt8(ascii: "0"), bytes[start + 1] | 0x20 == UInt8(ascii: "x") {
            start += 2
        }
        let count = end - start
        guard count == 3 || count == 4 || count == 6 || count == 8 else { return nil }
        var packed: UInt64 = 0
        for byte in bytes[start..<end] {
            let nibble: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            // Short forms repeat each digit (`#F0A` is `#FF00AA`).
            packed = count <= 4 ? packed << 8 | nibble << 4 | nibble : packed << 4 | nibble
        }
        // With alpha (`#RGBA`, `#RRGGBBAA`): 8 digits packed; without, opaque.
        return count == 4 || count == 8 ? packed : packed << 8 | 0xFF
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque. Components are rounded to the nearest 8-bit value. Written digit by
    /// digit into one string (every pair and finding in an audit's output names its colors this way).
    public var hex: String {
        func byte(_ c: Double) -> UInt8 { UInt8((min(max(c, 0), 1) * 255).rounded()) }
        // The components in a tuple on the stack, not an array: every pair and finding writes its colors.
        let components = (byte(red), byte(green), byte(blue), byte(alpha)), count = alpha >= 1 ? 3 : 4
        return withUnsafeBytes(of: components) { bytes in
            String(unsafeUninitializedCapacity: 1 + 2 * count) { out in
                let digits: StaticString = "0123456789ABCDEF"
                out[0] = UInt8(ascii: "#")
                for i in 0..<count {
                    out[1 + 2 * i] = digits.utf8Start[Int(bytes[i] >> 4)]
                    out[2 + 2 * i] = digits.utf8Start[Int(bytes[i] & 0xF)]
                }
                return 1 + 2 * count
            }
        }
    }

    public func withAlpha(_ newAlpha: Double) -> ColorValue {
        ColorValue(red: red, green: green, blue: blue, alpha: newAlpha)
    }

    /// SwiftUI `.opacity(x)` multiplies the existing alpha.
    public func multiplyingAlpha(_ factor: Double) -> ColorValue {
        withAlpha(alpha * min(max(factor, 0), 1))
    }

    /// Source-over compositing on gamma-encoded components, as UIKit draws by default.
    public func composited(over background: ColorValue) -> ColorValue {
        let outAlpha = alpha + background.alpha * (1 - alpha)
        guard outAlpha > 0 else { return .clear }
        func mix(_ f: Double, _ b: Double) -> Double {
            (f * alpha + b * background.alpha * (1 - alpha)) / outAlpha
        }
        return ColorValue(
            red: mix(red, background.red), green: mix(green, background.green),
            blue: mix(blue, background.blue), alpha: outAlpha)
    }

    /// WCAG 2.x relative luminance of the opaque color (alpha ignored; composite first).
    /// Linearization uses the 0.04045 threshold of IEC 61966-2-1 (WCAG 2.x's text says 0.03928; the results agree to 8 bits).
    public var relativeLuminance: Double {
        0.2126 * Self.linear(red) + 0.7152 * Self.linear(green) + 0.0722 * Self.linear(blue)
    }

    /// The sRGB transfer function undone. A component that is an 8-bit value (`k / 255`, as hex literals and the 8-bit
    /// colors of fix hints are) is looked up: the table holds this same expression for each `k`, so the result is the
    /// same bits, without a `pow` (three per color, for every pair measured and every step of a fix hint's search).
    static func linear(_ c: Double) -> Double {
        let scaled = (c * 255).rounded()
        // (Out of range or NaN: computed, as before.)
        guard scaled >= 0, scaled <= 255, scaled / 255 == c else { return computedLinear(c) }
        return linearOf8Bit[Int(scaled)]
    }

    private static func computedLinear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }

    private static let linearOf8Bit: [Double] = (0...255).map { computedLinear(Double($0) / 255) }

    /// WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05) of two opaque colors, 1...21, unrounded.
    public static func contrastRatio(_ a: ColorValue, _ b: ColorValue) -> Double {
        let la = a.relativeLuminance, lb = b.relativeLuminance
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// The ratio of `foreground` drawn on `background`, with the background drawn on `surface`
    /// (the appearance's base surface), compositing alpha at each step.
    public static func contrastRatio(
        foreground: ColorValue, background: ColorValue, surface: ColorValue
    ) -> Double {
        let opaqueSurface = surface.composited(over: .white).withAlpha(1)
        let opaqueBackground = background.composited(over: opaqueSurface).withAlpha(1)
        let opaqueForeground = foreground.composited(over: opaqueBackground).withAlpha(1)
        return contrastRatio(opaqueForeground, opaqueBackground)
    }
}

/// Ratios are compared unrounded and displayed rounded down, so 4.496 reads 4.49 and never "4.5 but failing".
public func displayRatio(_ ratio: Double) -> String {
    guard let digits = RatioDigits(ratio) else { return RatioDigits.formatted(ratio) }
    return String(unsafeUninitializedCapacity: digits.count) { out in
        digits.write(to: out.baseAddress!)
        return digits.count
    }
}

/// `displayRatio`'s text as bytes, written straight into a string or a message (`TextParts`).
struct RatioDigits {
    /// The ratio in whole hundredths.
    private let value: Int
    /// Bytes: the whole digits, `.`, two digits.
    let count: Int

    /// nil out of the range written by integer arithmetic (`formatted` then).
    init?(_ ratio: Double) {
        // The epsilon absorbs binary noise (4.54 * 100 = 453.99999...), far below any threshold's precision.
        let hundredths = Self.hundredths(ratio)
        // Digits by integer arithmetic (what "%.2f" prints for a whole number of hundredths); String(format:) was ~2% of
        // a large audit. Anything out of that range keeps the formatter.
        guard hundredths >= 0, hundredths < 1e15 else { return nil }
        value = Int(hundredths)
        var wholeDigits = 1
        var rest = value / 100
        while rest >= 10 { rest /= 10; wholeDigits += 1 }
        count = wholeDigits + 3
    }

    private static func hundredths(_ ratio: Double) -> Double { (ratio * 100 + 1e-9).rounded(.down) }

    static func formatted(_ ratio: Double) -> String { String(format: "%.2f", hundredths(ratio) / 100) }

    /// The digits written from the last (interpolation and appends cost ~1,000 instructions a ratio, and a message shows
    /// three).
    func write(to out: UnsafeMutablePointer<UInt8>) {
        var remaining = value
        for i in stride(from: count - 1, through: 0, by: -1) {
            if i == count - 3 {
                out[i] = UInt8(ascii: ".")
                continue
            }
            out[i] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
    }
}
