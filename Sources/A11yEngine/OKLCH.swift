import Foundation

/// OKLab/OKLCH (Björn Ottosson, 2020), used to find the nearest passing color: same hue and chroma,
/// lightness adjusted, because OKLCH lightness tracks perceived lightness evenly across hues.
struct OKLCH: Hashable {
    var lightness: Double
    var chroma: Double
    var hue: Double

    init(lightness: Double, chroma: Double, hue: Double) {
        self.lightness = lightness
        self.chroma = chroma
        self.hue = hue
    }

    private static func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
    private static func gamma(_ c: Double) -> Double { c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055 }

    init(_ color: ColorValue) {
        let r = Self.linear(color.red), g = Self.linear(color.green), b = Self.linear(color.blue)
        let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        let labL = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
        let labA = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
        let labB = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
        lightness = labL
        chroma = (labA * labA + labB * labB).squareRoot()
        hue = atan2(labB, labA)
    }

    /// The sRGB color, or nil when it lies outside the sRGB gamut.
    var color: ColorValue? {
        let a = chroma * cos(hue), b = chroma * sin(hue)
        let l = pow(lightness + 0.3963377774 * a + 0.2158037573 * b, 3)
        let m = pow(lightness - 0.1055613458 * a - 0.0638541728 * b, 3)
        let s = pow(lightness - 0.0894841775 * a - 1.2914855480 * b, 3)
        let r = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s
        let g = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s
        let bl = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s
        let tolerance = 1e-7
        guard [r, g, bl].allSatisfy({ $0 >= -tolerance && $0 <= 1 + tolerance }) else { return nil }
        return ColorValue(red: Self.gamma(min(max(r, 0), 1)), green: Self.gamma(min(max(g, 0), 1)),
                          blue: Self.gamma(min(max(bl, 0), 1)))
    }

    /// In gamut at this lightness, reducing chroma if needed (keeps the hue).
    var gamutMapped: ColorValue {
        if let c = color { return c }
        var low = 0.0, high = chroma
        for _ in 0..<10 {
            let mid = (low + high) / 2
            if OKLCH(lightness: lightness, chroma: mid, hue: hue).color != nil { low = mid } else { high = mid }
        }
        return OKLCH(lightness: lightness, chroma: low, hue: hue).color ?? ColorValue(white: min(max(lightness, 0), 1))
    }
}

/// The nearest color to `foreground` (same OKLCH hue, lightness moved as little as possible) that reaches `required`
/// on `background`, with its ratio. Nil when neither direction can reach it.
public func nearestPassingColor(foreground: ColorValue, background: ColorValue, required: Double) -> (color: ColorValue, ratio: Double)? {
    let start = OKLCH(foreground.withAlpha(1))
    var best: (color: ColorValue, ratio: Double, distance: Double)?
    for target in [0.0, 1.0] {
        let extreme = OKLCH(lightness: target, chroma: start.chroma, hue: start.hue).gamutMapped
        guard ColorValue.contrastRatio(extreme, background) >= required else { continue }
        // Bisect on lightness between the current color and the extreme: ratio grows monotonically toward it.
        var near = start.lightness, far = target
        // 12 halvings: lightness to within 1/4096, finer than the 8-bit step the rounding below settles.
        for _ in 0..<12 {
            let mid = (near + far) / 2
            let candidate = OKLCH(lightness: mid, chroma: start.chroma, hue: start.hue).gamutMapped
            if ColorValue.contrastRatio(candidate, background) >= required { far = mid } else { near = mid }
        }
        // Round to 8 bits, and step further if rounding lost the pass.
        var lightness = far
        var candidate = ColorValue(hex: OKLCH(lightness: lightness, chroma: start.chroma, hue: start.hue).gamutMapped.hex) ?? .black
        var steps = 0
        while ColorValue.contrastRatio(candidate, background) < required && steps < 50 {
            lightness += target == 0 ? -0.002 : 0.002
            candidate = ColorValue(hex: OKLCH(lightness: lightness, chroma: start.chroma, hue: start.hue).gamutMapped.hex) ?? .black
            steps += 1
        }
        let ratio = ColorValue.contrastRatio(candidate, background)
        guard ratio >= required else { continue }
        let distance = abs(lightness - start.lightness)
        if best == nil || distance < best!.distance { best = (candidate, ratio, distance) }
    }
    return best.map { ($0.color, $0.ratio) }
}
