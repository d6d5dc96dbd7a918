import Foundation

/// The color spaces asset catalogs and design-token files write colors in. WCAG 2.x defines relative
/// luminance on sRGB, so every color is converted to gamma-encoded sRGB before the audit sees it.
public enum SourceColorSpace: String, CaseIterable, Hashable, Sendable {
    /// Xcode `srgb`, DTCG `srgb`.
    case sRGB = "srgb"
    /// Xcode `extended-srgb`: sRGB primaries and curve, components may leave 0...1 (sign-reflected curve).
    case extendedSRGB = "extended-srgb"
    /// Xcode `extended-linear-srgb`, DTCG `srgb-linear`: sRGB primaries, linear light.
    case extendedLinearSRGB = "extended-linear-srgb"
    /// Xcode and DTCG `display-p3`: P3 primaries, D65 white, the sRGB transfer curve.
    case displayP3 = "display-p3"
    /// Xcode `gray-gamma-22` (Core Graphics `genericGrayGamma2_2`): one `white` component, pure power 2.2 curve.
    case grayGamma22 = "gray-gamma-22"
    /// Xcode `extended-gray` (Core Graphics `extendedGray`): gray gamma 2.2, sign-reflected outside 0...1.
    case extendedGray = "extended-gray"
    /// DTCG `oklab`: L in 0...1, a and b roughly -0.4...0.4.
    case oklab
    /// DTCG `oklch`: L in 0...1, chroma, hue in degrees.
    case oklch
    /// DTCG `hsl`: hue in degrees, saturation and lightness in 0...100 (DTCG 2025.10 color module).
    case hsl
    /// DTCG `xyz-d65`: CIE XYZ relative to D65 white.
    case xyzD65 = "xyz-d65"

    /// How many components a color in this space has (alpha excluded).
    public var componentCount: Int {
        switch self {
        case .grayGamma22, .extendedGray: return 1
        default: return 3
        }
    }
}

/// A color converted to sRGB: `color` is ready for WCAG math (clipped into 0...1); `unclipped` keeps the
/// exact sRGB coordinates so a finding can show how far outside the sRGB gamut the source was.
public struct ConvertedColor: Hashable, Sendable {
    public var color: ColorValue
    public var unclipped: [Double]
    /// True when at least one component left 0...1 by more than rounding noise and was clipped.
    public var wasGamutMapped: Bool

    public init(color: ColorValue, unclipped: [Double], wasGamutMapped: Bool) {
        self.color = color
        self.unclipped = unclipped
        self.wasGamutMapped = wasGamutMapped
    }
}

/// Pure color-space math. Matrices and curves are the published ones; sources are cited per function.
public enum ColorSpaceConversion {
    /// The sRGB transfer function (IEC 61966-2-1), extended by sign reflection as Core Graphics does for its
    /// extended spaces ("negative values are encoded as the signed reflection": Apple, CGColorSpace.extendedSRGB).
    public static func sRGBEncode(_ linear: Double) -> Double {
        let magnitude = abs(linear)
        let encoded = magnitude <= 0.0031308 ? magnitude * 12.92 : 1.055 * pow(magnitude, 1 / 2.4) - 0.055
        return linear < 0 ? -encoded : encoded
    }

    /// Inverse of `sRGBEncode`.
    public static func sRGBDecode(_ encoded: Double) -> Double {
        let magnitude = abs(encoded)
        let linear = magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4)
        return encoded < 0 ? -linear : linear
    }

    /// Linear Display P3 to linear sRGB: the CSS Color 4 matrices (§ "Sample code for color conversions",
    /// `lin_P3_to_XYZ` then `XYZ_to_lin_sRGB`) multiplied out. Both spaces use D65, so no adaptation is needed.
    /// Check: P3 red (1, 0, 0) gives linear sRGB (1.2249, -0.0421, -0.0196), gamma-encoded (1.0930, -0.2267, -0.1501).
    static let linearP3ToLinearSRGB: [[Double]] = multiply(xyzToLinearSRGB, linearP3ToXYZ)

    /// CSS Color 4 `lin_P3_to_XYZ` (rational form given there).
    static let linearP3ToXYZ: [[Double]] = [
        [608311.0 / 1250200, 189793.0 / 714400, 198249.0 / 1000160],
        [35783.0 / 156275, 247089.0 / 357200, 198249.0 / 2500400],
        [0, 32229.0 / 714400, 5220557.0 / 5000800],
    ]

    /// CSS Color 4 `XYZ_to_lin_sRGB`.
    static let xyzToLinearSRGB: [[Double]] = [
        [3.2409699419045226, -1.537383177570094, -0.4986107602930034],
        [-0.9692436362808796, 1.8759675015077202, 0.04155505740717559],
        [0.05563007969699366, -0.20397695888897652, 1.0569715142428786],
    ]

    static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<3).map { row in (0..<3).map { column in (0..<3).reduce(0) { $0 + a[row][$1] * b[$1][column] } } }
    }

    static func apply(_ m: [[Double]], _ v: [Double]) -> [Double] {
        (0..<3).map { row in m[row][0] * v[0] + m[row][1] * v[1] + m[row][2] * v[2] }
    }

    /// OKLab to linear sRGB, Björn Ottosson, "A perceptual color space for image processing" (2020),
    /// the `oklab_to_linear_srgb` reference matrices.
    static func oklabToLinearSRGB(_ lab: [Double]) -> [Double] {
        let l_ = lab[0] + 0.3963377774 * lab[1] + 0.2158037573 * lab[2]
        let m_ = lab[0] - 0.1055613458 * lab[1] - 0.0638541728 * lab[2]
        let s_ = lab[0] - 0.0894841775 * lab[1] - 1.2914855480 * lab[2]
        let l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_
        return [
            4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
            -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
            -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s,
        ]
    }

    /// HSL (CSS Color 4 § 7, `hslToRgb`) with saturation and lightness as fractions; result is gamma-encoded sRGB.
    static func hslToSRGB(hue: Double, saturation: Double, lightness: Double) -> [Double] {
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = saturation * min(lightness, 1 - lightness)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return [f(0), f(8), f(4)]
    }

    /// Converts `components` in `space` to sRGB. Components outside sRGB are clipped per channel and
    /// reported through `wasGamutMapped`: clipping keeps the hue's channel order and is what an sRGB display
    /// does with such a color; the audit says so rather than pretending the clipped value is exact.
    /// Returns nil when the component count does not match the space or a component is not finite.
    public static func toSRGB(_ space: SourceColorSpace, components: [Double], alpha: Double = 1) -> ConvertedColor? {
        guard components.count == space.componentCount, components.allSatisfy(\.isFinite), alpha.isFinite else {
            return nil
        }
        let encoded: [Double]
        switch space {
        case .sRGB, .extendedSRGB:
            encoded = components
        case .extendedLinearSRGB:
            encoded = components.map(sRGBEncode)
        case .displayP3:
            encoded = apply(linearP3ToLinearSRGB, components.map(sRGBDecode)).map(sRGBEncode)
        case .grayGamma22, .extendedGray:
            // Gray gamma 2.2 has D65 white like sRGB, so a gray stays neutral: only the curve changes.
            let w = components[0]
            let linear = (w < 0 ? -1 : 1) * pow(abs(w), 2.2)
            let g = sRGBEncode(linear)
            encoded = [g, g, g]
        case .oklab:
            encoded = oklabToLinearSRGB(components).map(sRGBEncode)
        case .oklch:
            let radians = components[2] * .pi / 180
            let lab = [components[0], components[1] * cos(radians), components[1] * sin(radians)]
            encoded = oklabToLinearSRGB(lab).map(sRGBEncode)
        case .hsl:
            encoded = hslToSRGB(hue: components[0], saturation: components[1] / 100, lightness: components[2] / 100)
        case .xyzD65:
            encoded = apply(xyzToLinearSRGB, components).map(sRGBEncode)
        }
        // 1e-6 absorbs float noise (a P3 white converts to 1.0000000002), far below one 8-bit step (0.0039).
        let tolerance = 1e-6
        let outOfGamut = encoded.contains { $0 < -tolerance || $0 > 1 + tolerance }
        let clipped = encoded.map { min(max($0, 0), 1) }
        let clippedAlpha = min(max(alpha, 0), 1)
        return ConvertedColor(
            color: ColorValue(red: clipped[0], green: clipped[1], blue: clipped[2], alpha: clippedAlpha),
            unclipped: encoded, wasGamutMapped: outOfGamut)
    }
}
