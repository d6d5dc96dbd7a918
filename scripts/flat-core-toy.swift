// What evaluating a token costs in the flat core issue 12 asks for, measured on a toy of it (BENCHMARKS.md, "What the
// flat core would cost a token"). Not part of the product: the number it gives is the target for the rewrite.
//
// The toy evaluates the 5k synthetic system's token pattern (variant E of scripts/helper-costs.sh):
//   static func adaptive(light: String, dark: String) -> Color {
//       Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(Color(hex: dark)) : UIColor(Color(hex: light)) })
//   }
//   static let tN = adaptive(light: "#RRGGBB", dark: "#RRGGBB")
// as that core would hold it: nodes in one array addressed by index, the call's callee resolved before evaluation,
// locals in slots, values with no reference counted in them, strings and colors in flat tables. The provider runs
// once per appearance, and once only when it did not read the style, as the interpreter's does.
//
// Build and count (the engine's release flags: no run-time exclusivity checks; two sizes, so that start-up cancels):
//   swiftc -O -enforce-exclusivity=unchecked scripts/flat-core-toy.swift -o /tmp/flat-core-toy
//   for n in 5000 10000; do valgrind --tool=callgrind --callgrind-out-file=/tmp/toy.$n \
//       --toggle-collect='*evaluateAll*' /tmp/flat-core-toy $n --no-luminance 2>&1 | grep Collected; done
//   per token = (count at 10000 - count at 5000) / 5000; without --no-luminance each color's WCAG luminance is cached too.
import Foundation

enum Op: UInt8 { case string, local, call, wrapColor, wrapUIColor, hex, provider, ternary, styleIs }
struct Node { var op: Op; var a: Int32 = 0; var b: Int32 = 0; var c: Int32 = 0 }
enum Value { case string(Int32), color(Int32), traits(UInt8), bool(Bool), unknown }
/// A provider made while evaluating is recorded as the interpreter records its closure value (the cost is counted).
struct Closure { var body: Int32; var capturedStart: Int32 }
struct AppearanceColors { var rgba: (SIMD4<Double>, SIMD4<Double>); var luminance: (Double, Double) }

final class Program {
    var nodes: [Node] = []
    var stringBytes: [UInt8] = []
    var stringRanges: [(start: Int32, count: Int32)] = []
    var colors: [AppearanceColors] = []
    var closures: [Closure] = []
    var captures: [Value] = []
    var slots = [Value](repeating: .unknown, count: 64)
    var frameBase = 0
    var styleRead = false

    func add(_ n: Node) -> Int32 { nodes.append(n); return Int32(nodes.count - 1) }
    func intern(_ s: String) -> Int32 {
        stringRanges.append((Int32(stringBytes.count), Int32(s.utf8.count)))
        stringBytes.append(contentsOf: s.utf8)
        return Int32(stringRanges.count - 1)
    }

    func hexColor(_ id: Int32) -> SIMD4<Double>? {
        let r = stringRanges[Int(id)]
        guard r.count == 7 else { return nil }
        var v: UInt32 = 0
        for i in 1..<7 {
            let c = stringBytes[Int(r.start) + i]
            let d: UInt8
            switch c {
            case 48...57: d = c - 48
            case 65...70: d = c - 55
            case 97...102: d = c - 87
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return SIMD4(Double(v >> 16 & 255) / 255, Double(v >> 8 & 255) / 255, Double(v & 255) / 255, 1)
    }

    static func luminance(_ c: SIMD4<Double>) -> Double {
        func lin(_ x: Double) -> Double { x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }
        return 0.2126 * lin(c.x) + 0.7152 * lin(c.y) + 0.0722 * lin(c.z)
    }

    func evaluate(_ index: Int32) -> Value {
        let n = nodes[Int(index)]
        switch n.op {
        case .string: return .string(n.a)
        case .local: return slots[frameBase + Int(n.a)]
        case .call:
            // a = body node, b = first argument node, c = argument count: arguments into the next frame's slots
            let base = frameBase + 8
            for i in 0..<Int(n.c) { slots[base + i] = evaluate(n.b + Int32(i)) }
            let saved = frameBase
            frameBase = base
            defer { frameBase = saved }
            return evaluate(n.a)
        case .wrapColor, .wrapUIColor: return evaluate(n.a)
        case .hex:
            guard case .string(let s) = evaluate(n.a), let c = hexColor(s) else { return .unknown }
            colors.append(AppearanceColors(rgba: (c, c), luminance: withLuminance ? (Self.luminance(c), Self.luminance(c)) : (0, 0)))
            return .color(Int32(colors.count - 1))
        case .provider:
            // a = body, b = capture count: captured slots copied, then the body run once per appearance
            let start = Int32(captures.count)
            for i in 0..<Int(n.b) { captures.append(slots[frameBase + i]) }
            closures.append(Closure(body: n.a, capturedStart: start))
            var out: (SIMD4<Double>, SIMD4<Double>) = (.zero, .zero)
            var lum: (Double, Double) = (0, 0)
            let saved = frameBase
            frameBase += 8
            defer { frameBase = saved }
            for i in 0..<Int(n.b) { slots[frameBase + 1 + i] = captures[Int(start) + i] }
            styleRead = false
            for appearance: UInt8 in 0..<2 {
                slots[frameBase] = .traits(appearance)
                guard case .color(let id) = evaluate(n.a) else { return .unknown }
                let c = colors[Int(id)]
                if appearance == 0 { out.0 = c.rgba.0; lum.0 = c.luminance.0 } else { out.1 = c.rgba.1; lum.1 = c.luminance.1 }
                colors.removeLast()
                if appearance == 0 && !styleRead { out.1 = out.0; lum.1 = lum.0; break }
            }
            colors.append(AppearanceColors(rgba: out, luminance: lum))
            return .color(Int32(colors.count - 1))
        case .ternary:
            guard case .bool(let b) = evaluate(n.a) else { return .unknown }
            return evaluate(b ? n.b : n.c)
        case .styleIs:
            guard case .traits(let t) = evaluate(n.a) else { return .unknown }
            styleRead = true
            return .bool(t == UInt8(n.b))
        }
    }
}

let count = Int(CommandLine.arguments.dropFirst().first ?? "5000")!
let withLuminance = CommandLine.arguments.count < 3 || CommandLine.arguments[2] != "--no-luminance"
let p = Program()
// The helper's body: locals 0 = light, 1 = dark; the provider's: 0 = traits, 1 = light, 2 = dark.
let traits = p.add(Node(op: .local, a: 0))
let cond = p.add(Node(op: .styleIs, a: traits, b: 1))
let darkLocal = p.add(Node(op: .local, a: 2)), lightLocal = p.add(Node(op: .local, a: 1))
let darkHex = p.add(Node(op: .hex, a: darkLocal)), lightHex = p.add(Node(op: .hex, a: lightLocal))
let darkUI = p.add(Node(op: .wrapUIColor, a: darkHex)), lightUI = p.add(Node(op: .wrapUIColor, a: lightHex))
let body = p.add(Node(op: .ternary, a: cond, b: darkUI, c: lightUI))
let provider = p.add(Node(op: .provider, a: body, b: 2))
let helper = p.add(Node(op: .wrapColor, a: provider))
var tokenNodes: [Int32] = []
var seed: UInt64 = 42
func nextHex() -> String {
    seed = seed &* 6364136223846793005 &+ 1442695040888963407
    let v = Int(seed >> 40) & 0xFFFFFF
    let digits = Array("0123456789ABCDEF")
    return "#" + String((0..<6).map { digits[(v >> (20 - 4 * $0)) & 15] })
}
for _ in 0..<count {
    let light = p.add(Node(op: .string, a: p.intern(nextHex())))
    _ = p.add(Node(op: .string, a: p.intern(nextHex())))
    tokenNodes.append(p.add(Node(op: .call, a: helper, b: light, c: 2)))
}
// Only the evaluation is compared with the prefetch's per-token instructions: mark where it starts.
var table: [Int32] = []
table.reserveCapacity(count)
@inline(never) func evaluateAll() {
    for t in tokenNodes {
        guard case .color(let id) = p.evaluate(t) else { fatalError("token did not evaluate") }
        table.append(id)
    }
}
evaluateAll()
var sum = 0.0
for id in table { sum += p.colors[Int(id)].luminance.0 + p.colors[Int(id)].luminance.1 }
print(count, table.count, sum)
