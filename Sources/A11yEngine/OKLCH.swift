import Foundation

/// OKLab/OKLCH (Björn Ottosson, 2020), used to find the nearest passing color: same hue and chroma,
/// lightness adjusted, because OKLCH lightness tracks perceived lightness evenly across hues.
struct OKLCH: Hashable {
    var lightness: Double
    var chroma: Double
    private(set) var hue: Double
    /// cos and sin of `hue`, computed once: the search below converts one hue hundreds of times per color.
    fileprivate private(set) var hueCosine: Double, hueSine: Double

    init(lightness: Double, chroma: Double, hue: Double) {
        self.lightness = lightness
        self.chroma = chroma
        self.hue = hue
        (hueCosine, hueSine) = (cos(hue), sin(hue))
    }

    /// The same hue at another lightness and chroma.
    func with(lightness: Double, chroma: Double) -> OKLCH {
        var result = self
        (result.lightness, result.chroma) = (lightness, chroma)
        return result
    }

    private static func gamma(_ c: Double) -> Double { c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055 }

    init(_ color: ColorValue) {
        let r = ColorValue.linear(color.red), g = ColorValue.linear(color.green), b = ColorValue.linear(color.blue)
        let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        let labL = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
        let labA = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
        let labB = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
        self.init(lightness: labL, chroma: (labA * labA + labB * labB).squareRoot(), hue: atan2(labB, labA))
    }

    /// Linear-light sRGB components, unclamped (out of 0...1 when outside the gamut). Cubes, no `pow`. (One lane of
    /// `HueLanes.linear`: one formula for both.)
    var linear: (r: Double, g: Double, b: Double) {
        let c = HueLanes.linear(lightness: SIMD2(repeating: lightness), chroma: SIMD2(repeating: chroma), cosine: hueCosine, sine: hueSine)
        return (c.r[0], c.g[0], c.b[0])
    }

    var inGamut: Bool {
        let c = linear, low = -1e-7, high = 1 + 1e-7
        return c.r >= low && c.r <= high && c.g >= low && c.g <= high && c.b >= low && c.b <= high
    }

    /// The same lightness and hue with chroma reduced until the color is inside sRGB.
    var mappedIntoGamut: OKLCH {
        if inGamut { return self }
        var low = 0.0, high = chroma
        for _ in 0..<10 {
            let mid = (low + high) / 2
            if with(lightness: lightness, chroma: mid).inGamut { low = mid } else { high = mid }
        }
        return with(lightness: min(max(lightness, 0), 1), chroma: low)
    }

    /// WCAG relative luminance straight from linear light (no gamma round trip).
    var relativeLuminance: Double {
        let c = linear
        return 0.2126 * min(max(c.r, 0), 1) + 0.7152 * min(max(c.g, 0), 1) + 0.0722 * min(max(c.b, 0), 1)
    }

    /// The gamma-encoded sRGB color rounded to 8 bits per component, as it would be written in a token.
    var color8Bit: ColorValue {
        let c = linear
        func encode(_ v: Double) -> Double { (Self.gamma(min(max(v, 0), 1)) * 255).rounded() / 255 }
        return ColorValue(red: encode(c.r), green: encode(c.g), blue: encode(c.b))
    }
}

/// The nearest color to `foreground` (same OKLCH hue, lightness moved as little as possible) that reaches `required`
/// on `background`, with its ratio. Nil when neither direction can reach it.
public func nearestPassingColor(foreground: ColorValue, background: ColorValue, required: Double) -> (color: ColorValue, ratio: Double)? {
    let start = OKLCH(foreground.withAlpha(1))
    let backgroundLuminance = background.relativeLuminance
    // Toward black and toward white side by side, one lane each (`HueLanes`): each search is a chain of steps that
    // wait on each other, and two independent chains run in the time of one.
    let lanes = HueLanes(start)
    let targets = SIMD2<Double>(0, 1)
    // Whether each lane passes, and its color mapped into the gamut (the search's last passing one is its fix's start).
    func passes(_ lightness: SIMD2<Double>) -> (pass: SIMDMask<SIMD2<Int64>>, mapped: (lightness: SIMD2<Double>, chroma: SIMD2<Double>)) {
        let mapped = lanes.mappedIntoGamut(lightness: lightness), luminance = mapped.luminance
        let high = luminance.replacing(with: backgroundLuminance, where: backgroundLuminance .>= luminance)  // max
        let low = luminance.replacing(with: backgroundLuminance, where: backgroundLuminance .< luminance)  // min
        return ((high + 0.05) / (low + 0.05) .>= required, (mapped.lightness, mapped.chroma))
    }
    let (reachable, mappedTargets) = passes(targets)
    guard any(reachable) else { return nil }
    // Bisect on lightness between the current color and the extreme: the ratio grows monotonically toward it.
    // 12 halvings: lightness to within 1/4096, finer than the 8-bit step the rounding below settles.
    var far = targets, farMapped = mappedTargets
    if all(reachable) {
        var near = SIMD2<Double>(repeating: start.lightness)
        for _ in 0..<12 {
            let mid = (near + far) / 2
            let (pass, mapped) = passes(mid)
            far.replace(with: mid, where: pass)
            farMapped.lightness.replace(with: mapped.lightness, where: pass)
            farMapped.chroma.replace(with: mapped.chroma, where: pass)
            near.replace(with: mid, where: .!pass)
        }
    } else {
        // One direction only (three searches in four: a light background is reached only toward black): the same
        // halvings, the second lane testing the midpoint of the step after on the guess that this step's passes. Half
        // the time it does, and two steps take one test. Every midpoint tested is the one the halvings above test.
        let lane = reachable[0] ? 0 : 1
        var near = start.lightness, halvings = 0
        while halvings < 12 {
            let mid = (near + far[lane]) / 2, nextIfPassing = (near + mid) / 2
            let (pass, mapped) = passes(SIMD2(mid, nextIfPassing))
            halvings += 1
            guard pass[0] else {
                near = mid
                continue
            }
            (far[lane], farMapped.lightness[lane], farMapped.chroma[lane]) = (mid, mapped.lightness[0], mapped.chroma[0])
            guard halvings < 12 else { break }
            if pass[1] {
                (far[lane], farMapped.lightness[lane], farMapped.chroma[lane]) = (nextIfPassing, mapped.lightness[1], mapped.chroma[1])
            } else {
                near = nextIfPassing
            }
            halvings += 1
        }
    }
    var best: PassingFix?
    for lane in 0..<2 where reachable[lane] {
        let mapped = start.with(lightness: farMapped.lightness[lane], chroma: farMapped.chroma[lane])
        guard let fix = PassingFix(start, lightness: far[lane], mapped: mapped, toward: targets[lane], on: backgroundLuminance,
                                   required: required) else { continue }
        if best == nil || fix.distance < best!.distance { best = fix }
    }
    return best.map { ($0.color, $0.ratio) }
}

/// The end of one direction's search: the lightness the bisection found (`mapped`: its color mapped into the gamut, as
/// the search mapped it), rounded to 8 bits as a token would be and stepped further toward `target` while rounding
/// lost the pass (at most 50 steps); nil when that does not reach it.
struct PassingFix {
    let color: ColorValue
    let ratio: Double
    /// How far the lightness moved from the foreground's.
    let distance: Double

    init?(_ start: OKLCH, lightness found: Double, mapped: OKLCH, toward target: Double, on backgroundLuminance: Double, required: Double) {
        func ratioOn(_ luminance: Double) -> Double {
            (max(luminance, backgroundLuminance) + 0.05) / (min(luminance, backgroundLuminance) + 0.05)
        }
        func at(_ lightness: Double) -> ColorValue { start.with(lightness: lightness, chroma: start.chroma).mappedIntoGamut.color8Bit }
        var lightness = found
        var candidate = mapped.color8Bit
        var steps = 0
        while ratioOn(candidate.relativeLuminance) < required && steps < 50 {
            lightness += target == 0 ? -0.002 : 0.002
            candidate = at(lightness)
            steps += 1
        }
        let achieved = ratioOn(candidate.relativeLuminance)
        guard achieved >= required else { return nil }
        (color, ratio, distance) = (candidate, achieved, abs(lightness - start.lightness))
    }
}

/// Two colors of one OKLCH hue and chroma at two lightnesses, computed lane by lane with exactly `OKLCH`'s arithmetic
/// (the same operations in the same order, no fused multiply-adds), so each lane's result is the one `OKLCH` gives.
struct HueLanes {
    let chroma: Double
    private let hueCosine: Double, hueSine: Double

    init(_ color: OKLCH) {
        chroma = color.chroma
        (hueCosine, hueSine) = (color.hueCosine, color.hueSine)  // cos and sin of its hue, as `OKLCH` computed them
    }

    /// Linear-light sRGB at these lightnesses and chromas of the hue whose cosine and sine are given (`OKLCH.linear`).
    static func linear(lightness: SIMD2<Double>, chroma: SIMD2<Double>, cosine: Double, sine: Double)
        -> (r: SIMD2<Double>, g: SIMD2<Double>, b: SIMD2<Double>) {
        let a = chroma * cosine, b = chroma * sine
        let l0 = lightness + 0.3963377774 * a + 0.2158037573 * b
        let m0 = lightness - 0.1055613458 * a - 0.0638541728 * b
        let s0 = lightness - 0.0894841775 * a - 1.2914855480 * b
        let l = l0 * l0 * l0, m = m0 * m0 * m0, s = s0 * s0 * s0
        return (4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
                -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
                -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s)
    }

    func linear(lightness: SIMD2<Double>, chroma: SIMD2<Double>) -> (r: SIMD2<Double>, g: SIMD2<Double>, b: SIMD2<Double>) {
        Self.linear(lightness: lightness, chroma: chroma, cosine: hueCosine, sine: hueSine)
    }

    /// `OKLCH.inGamut`.
    func inGamut(lightness: SIMD2<Double>, chroma: SIMD2<Double>) -> SIMDMask<SIMD2<Int64>> {
        let c = linear(lightness: lightness, chroma: chroma), low = -1e-7, high = 1 + 1e-7
        return c.r .>= low .& c.r .<= high .& c.g .>= low .& c.g .<= high .& c.b .>= low .& c.b .<= high
    }

    /// `OKLCH.mappedIntoGamut` of the colors at `lightness`, with their `relativeLuminance`.
    func mappedIntoGamut(lightness: SIMD2<Double>) -> (lightness: SIMD2<Double>, chroma: SIMD2<Double>, luminance: SIMD2<Double>) {
        let full = SIMD2<Double>(repeating: chroma)
        let inside = inGamut(lightness: lightness, chroma: full)
        var mapped = (lightness: lightness, chroma: full)
        if !all(inside) {
            var low = SIMD2<Double>(repeating: 0), high = full
            for _ in 0..<10 {
                let mid = (low + high) / 2
                let fits = inGamut(lightness: lightness, chroma: mid)
                low.replace(with: mid, where: fits)
                high.replace(with: mid, where: .!fits)
            }
            // `min(max(lightness, 0), 1)` as Swift's `max` and `min` choose.
            var clamped = lightness.replacing(with: 0, where: 0 .>= lightness)
            clamped.replace(with: 1, where: 1 .< clamped)
            mapped.lightness.replace(with: clamped, where: .!inside)
            mapped.chroma.replace(with: low, where: .!inside)
        }
        // `OKLCH.relativeLuminance`, each component clamped as Swift's `max` and `min` choose.
        let c = linear(lightness: mapped.lightness, chroma: mapped.chroma)
        func clamp(_ v: SIMD2<Double>) -> SIMD2<Double> {
            var v = v.replacing(with: 0, where: 0 .>= v)
            v.replace(with: 1, where: 1 .< v)
            return v
        }
        return (mapped.lightness, mapped.chroma, 0.2126 * clamp(c.r) + 0.7152 * clamp(c.g) + 0.0722 * clamp(c.b))
    }
}
