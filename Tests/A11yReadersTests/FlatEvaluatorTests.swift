@testable import A11yEngine
import A11yReaders
import Foundation
import Testing

/// The evaluator's paths (`FlatEvaluator`, docs/flat-core-plan.md): project functions and initialisers, statements,
/// operators, closures, themes and the step budget, each fixture's static stored members evaluated by a fresh
/// interpreter and checked value by value below.
struct FlatEvaluatorTests {
    struct Outcome {
        var values: [String: Value] = [:]
    }

    static func evaluate(_ source: String, configuration: Interpreter.Configuration = .init()) -> Outcome {
        let parsed = SwiftSourceReader().read(source: source, file: "/tmp/FlatEvaluatorFixture.swift")
        let interpreter = Interpreter(declarations: parsed.declarations, types: parsed.types, configuration: configuration)
        var outcome = Outcome()
        for d in parsed.declarations where d.isStatic {
            guard case .stored(_?) = d.kind else { continue }
            outcome.values[d.key] = interpreter.value(of: d, selfValue: .type(d.ownerKey))
        }
        return outcome
    }

    /// `count` members, each a value except those named in `unknown`.
    static func expectEvaluated(_ outcome: Outcome, count: Int, unknown: Set<String> = [],
                                sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(outcome.values.count == count, sourceLocation: sourceLocation)
        let unknowns = Set(outcome.values.filter { $0.value.unknown != nil }.keys)
        #expect(unknowns == unknown, "unknown: \(outcome.values.filter { unknowns.contains($0.key) })", sourceLocation: sourceLocation)
    }

    static func isColor(_ value: Value?) -> Bool { if case .color? = value { return true } else { return false } }

    @Test func projectInitialisersOfAPlatformTypeAndOfAStruct() {
        let outcome = Self.evaluate("""
            extension Color {
                init(rgb value: UInt32, alpha: Double = 1) {
                    self.init(.sRGB,
                              red: Double((value >> 16) & 0xFF) / 255,
                              green: Double((value >> 8) & 0xFF) / 255,
                              blue: Double(value & 0xFF) / 255,
                              opacity: alpha)
                }
            }
            struct Duo {
                let day: Color
                let night: Color
                init(day: Color, night: Color) {
                    self.day = day
                    self.night = night
                }
                init(same: Color) {
                    day = same
                    self.night = same
                }
            }
            enum Inks {
                static let slate = Color(rgb: 0x33465A)
                static let slateVeil = Color(rgb: 0x33465A, alpha: 0.4)
                static let pair = Duo(day: Color(rgb: 0xFAFAF0), night: .black)
                static let single = Duo(same: Color(rgb: 0x102030))
            }
            """)
        Self.expectEvaluated(outcome, count: 4)
        #expect(Self.isColor(outcome.values["Inks.slate"]) && Self.isColor(outcome.values["Inks.slateVeil"]))
        guard case .instance(let type, let fields)? = outcome.values["Inks.single"] else {
            Issue.record("no instance: \(String(describing: outcome.values["Inks.single"]))")
            return
        }
        #expect(type == "Duo" && Self.isColor(fields["day"]) && fields["day"] == fields["night"])
    }

    @Test func functionsWithStatementsDefaultsAndOverloads() {
        let outcome = Self.evaluate("""
            extension Color {
                static func mode(day: Color, night: Color) -> Color {
                    return Color(UIColor { traits in
                        switch traits.userInterfaceStyle {
                        case .dark:
                            return UIColor(night)
                        default:
                            return UIColor(day)
                        }
                    })
                }
                static func mode(dayHex: String, nightHex: String, fade: Double = 1) -> Color {
                    let day = Color(hex: dayHex)
                    var night = Color(hex: nightHex)
                    if fade < 1 {
                        night = night.opacity(fade)
                    }
                    guard fade > 0 else { return .clear }
                    return mode(day: day, night: night)
                }
            }
            enum Surface {
                static let base = Color.mode(day: .white, night: .black)
                static let raised = Color.mode(dayHex: "#F4F4F4", nightHex: "#202020")
                static let sunken = Color.mode(dayHex: "#E0E0E0", nightHex: "#101010", fade: 0.5)
                static let gone = Color.mode(dayHex: "#E0E0E0", nightHex: "#101010", fade: 0)
            }
            """)
        Self.expectEvaluated(outcome, count: 4)
        guard case .color(let raised)? = outcome.values["Surface.raised"] else {
            Issue.record("raised is not a color")
            return
        }
        #expect(raised.light != raised.dark)
    }

    @Test func implicitMemberCallsAndProjectMethods() {
        let outcome = Self.evaluate("""
            extension Color {
                static func tint(_ amount: Double) -> Color { Color(white: 1, opacity: amount) }
                func veiled() -> Color { opacity(0.3) }
            }
            struct Swatch {
                let color: Color
                func half() -> Color { color.opacity(0.5) }
            }
            enum Step {
                case size(Int)
                case none
            }
            enum Marks {
                static let light: Color = .tint(0.8)
                static let heading: Font = .custom("Serif Display", size: 28)
                static let veil = Color.red.veiled()
                static let halfBlue = Swatch(color: .blue).half()
                static let step: Step = .size(3)
                static let heading2 = Font.custom("Serif Display", size: 22)
            }
            """)
        Self.expectEvaluated(outcome, count: 6, unknown: ["Marks.veil"])  // (`opacity(_:)` on a project color is not a built-in)
        #expect(Self.isColor(outcome.values["Marks.light"]) && Self.isColor(outcome.values["Marks.halfBlue"]))
    }

    @Test func switchesPatternsAndArithmetic() {
        let outcome = Self.evaluate("""
            enum Level {
                case step(Int)
                case named(String)
                case flat
            }
            enum Spacing {
                static func points(_ level: Level, scale: CGFloat = 4) -> CGFloat {
                    switch level {
                    case .step(let n) where n > 10: return 40
                    case .step(let n): return CGFloat(n) * scale + 2
                    case .named("wide"): return 24
                    case .named: return 8
                    default: return 0
                    }
                }
                static let base: CGFloat = 8
                static let small = points(.step(2))
                static let capped = points(.step(12))
                static let wide = points(.named("wide"))
                static let other = points(.named("narrow"))
                static let none = points(.flat, scale: 2)
                static let sum = base * 2 + base / 4 - 1
                static let remainder = base.truncatingRemainder(dividingBy: 3) + 17 % 5
                static let bits = (0xABCDEF >> 8) & 0xFF | 1 << 4
                static let broken = base / 0
                static let negative = -base
                static let either = base > 4 && base < 10 || false
                static let pick = base == 8 ? base : 0
                static let fallback = missingThing ?? 3
                static let pair = (width: base, height: base * 2)
            }
            """)
        Self.expectEvaluated(outcome, count: 15, unknown: ["Spacing.broken", "Spacing.remainder"])  // (`truncatingRemainder` is not a built-in)
        #expect(outcome.values["Spacing.small"] == .number(10))
        #expect(outcome.values["Spacing.capped"] == .number(40))
        #expect(outcome.values["Spacing.wide"] == .number(24))
        #expect(outcome.values["Spacing.other"] == .number(8))
        guard case .unknown(let u)? = outcome.values["Spacing.broken"] else {
            Issue.record("division by zero is not unknown")
            return
        }
        #expect(u.reason == "division by zero" && u.location.line == 25)
    }

    @Test func closuresCalledDirectlyAndUnsupportedSyntax() {
        let outcome = Self.evaluate("""
            enum Layout {
                static let gutter: CGFloat = {
                    let columns: CGFloat = 12
                    var width = columns * 8
                    width += 4
                    return width
                }()
                static let choose = { (a: CGFloat, b: CGFloat) in a > b ? a : b }
                static let larger = choose(3, 9)
                static let sizes: [CGFloat] = [4, 8, 12]
                static let ratio = { $1 / $0 }(4, 10)
            }
            """)
        Self.expectEvaluated(outcome, count: 5, unknown: ["Layout.sizes", "Layout.larger"])  // (a closure in a static member is not called)
        #expect(outcome.values["Layout.gutter"] == .number(100))
        #expect(outcome.values["Layout.ratio"] == .number(2.5))
        guard case .unknown(let u)? = outcome.values["Layout.sizes"] else {
            Issue.record("an array literal is not unknown")
            return
        }
        #expect(u.location.line == 10)
    }

    /// A name bound again in a nested block (`if let value = given` inside a body with its own `value`) is a new binding,
    /// as in Swift: the outer one is unchanged after the block. (The interpreter before the flat evaluator copied the
    /// branch's binding back over the outer name and gave 5.)
    @Test func aNameBoundAgainInANestedBlockIsANewBinding() {
        let outcome = Self.evaluate("""
            enum Shadows {
                static func pick(_ given: CGFloat?) -> CGFloat {
                    let value: CGFloat = 1
                    if let value = given {
                        _ = value
                    }
                    return value
                }
                static let chosen = pick(5)
            }
            """)
        #expect(outcome.values["Shadows.chosen"] == .number(1))
    }

    /// A name assigned without a declaration inside a branch: `self`'s field when `self` is an instance, else a local of
    /// that branch only (the interpreter's `copyBack` copies back the names the outer frame had), so that after the branch
    /// the name means the static member again.
    @Test func namesAssignedWithoutADeclarationInABranch() {
        let outcome = Self.evaluate("""
            struct Mode {
                var level: CGFloat
                init(high: Bool) {
                    if high {
                        level = 2
                    } else {
                        level = 1
                    }
                }
            }
            enum Scratch {
                static func probe(_ flag: Bool) -> CGFloat {
                    if flag {
                        width = 10
                        guard width > 5 else { return 0 }
                    }
                    return width
                }
                static let width: CGFloat = 3
                static let probed = probe(true)
                static let mode = Mode(high: true)
            }
            """)
        Self.expectEvaluated(outcome, count: 3)
        #expect(outcome.values["Scratch.probed"] == .number(3))
        guard case .instance(_, let fields)? = outcome.values["Scratch.mode"] else {
            Issue.record("no instance")
            return
        }
        #expect(fields["level"] == .number(2))
    }

    /// The step budget: at every budget from 1 to 120 a member is either its full value or cut off with the budget's
    /// reason, and the budgets tried cut some members off and not others.
    @Test func theStepBudgetCutsMembersOffAndNothingElse() {
        let source = """
            enum Budget {
                static func grow(_ x: CGFloat, by step: CGFloat = 2) -> CGFloat {
                    var total = x
                    total += step
                    if total > 3 {
                        total *= 2
                    } else {
                        total -= 1
                    }
                    guard total != 0 else { return 0 }
                    switch total {
                    case 10: return total
                    default: return total + 1
                    }
                }
                static let a = grow(3)
                static let b = grow(1, by: 1) == 1 ? 1 : 2
                static let c = Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(Color(hex: "#101010")) : .white })
                static let d = { (n: CGFloat) -> CGFloat in
                    let doubled = n * 2
                    return doubled > 4 && n < 10 ? doubled : -n
                }(3)
            }
            """
        let full = Self.evaluate(source)
        Self.expectEvaluated(full, count: 4)
        var cutOff = 0
        for budget in 1...120 {
            var configuration = Interpreter.Configuration()
            configuration.stepBudget = budget
            let outcome = Self.evaluate(source, configuration: configuration)
            for (key, value) in outcome.values where value != full.values[key] {
                #expect(value.unknown?.reason.hasPrefix("evaluation stopped") == true, "budget \(budget): \(key) is \(value)")
            }
            cutOff += outcome.values.values.filter { $0.unknown?.reason.hasPrefix("evaluation stopped") == true }.count
        }
        // The budgets tried cut some members off and not others.
        #expect(cutOff > 20 && cutOff < 4 * 120)
    }

    /// A provider read from an instance's computed member (DesignResourcesKit's `DynamicColor.dynamicProvider`) is a
    /// closure value; applied again for each instance, it runs from its definition: the evaluator's closure definitions
    /// do not grow with the instances (each was lowered again per application).
    @Test func aProviderReadFromAnInstanceIsAppliedFromItsDefinition() {
        func source(_ tokens: Int) -> String {
            let lines = (0..<tokens).map { i in
                "    static let tone\(i) = Pair(light: Color(hex: \"#\(String(format: "%06X", i * 4099))\"), dark: .black).uiColor"
            }
            return """
                struct Pair {
                    var light: Color
                    var dark: Color
                    var provider: (UITraitCollection) -> UIColor {
                        { traits in traits.userInterfaceStyle == .dark ? UIColor(dark) : UIColor(light) }
                    }
                    var uiColor: UIColor { UIColor(dynamicProvider: provider) }
                }
                enum Tones {
                \(lines.joined(separator: "\n"))
                }
                """
        }
        var definitions: [Int] = []
        for tokens in [3, 30] {
            let parsed = SwiftSourceReader().read(source: source(tokens), file: "/tmp/FlatEvaluatorFixture.swift")
            let interpreter = Interpreter(declarations: parsed.declarations, types: parsed.types)
            for d in parsed.declarations where d.isStatic {
                guard case .color(let c) = interpreter.value(of: d, selfValue: .type(d.ownerKey)) else {
                    Issue.record("\(d.key) is not a color")
                    continue
                }
                let i = Int(d.name.dropFirst("tone".count))!
                #expect(c[.light].hex == "#" + String(format: "%06X", i * 4099) && c[.dark].hex == "#000000", "\(d.key): \(c)")
            }
            definitions.append(interpreter.evaluator.program.closures.count)
        }
        #expect(definitions[0] == definitions[1] && definitions[0] > 0, "closure definitions at 3 and 30 instances: \(definitions)")
    }

    /// A helper called again and again from a node (a token helper's inner call, a recursion) goes straight to its one
    /// function after the first call, with the same values and the same unknowns as through the overload checks.
    @Test func aHelperCalledAgainFromOneNodeKeepsItsValuesAndUnknowns() {
        let outcome = Self.evaluate("""
            enum Palette {
                static func tone(_ hex: String, scale: Double = 1) -> Color { Color(hex: hex).opacity(scale) }
                static func pair(light: String, dark: String) -> Color {
                    Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(tone(dark)) : UIColor(tone(light)) })
                }
                static func loop(_ n: Double) -> Double { loop(n + 1) }
                static let paper = pair(light: "#FFFFFF", dark: "#101010")
                static let ink = pair(light: "#202020", dark: "#EEEEEE")
                static let veil = tone("#336699", scale: 0.5)
                static let misnamed = pair(day: "#FFFFFF", night: "#000000")
                static let endless = loop(1)
            }
            """)
        Self.expectEvaluated(outcome, count: 5, unknown: ["Palette.misnamed", "Palette.endless"])
        guard case .color(let paper)? = outcome.values["Palette.paper"], case .color(let ink)? = outcome.values["Palette.ink"],
              case .color(let veil)? = outcome.values["Palette.veil"] else {
            Issue.record("not colors: \(outcome.values)")
            return
        }
        #expect(paper[.light].hex == "#FFFFFF" && paper[.dark].hex == "#101010")
        #expect(ink[.light].hex == "#202020" && ink[.dark].hex == "#EEEEEE")
        #expect(veil[.light].alpha == 0.5)
        #expect(outcome.values["Palette.endless"]?.unknown?.reason.hasSuffix("deep (recursion?)") == true)
        #expect(outcome.values["Palette.misnamed"]?.unknown?.reason.hasPrefix("no pair(day:night:)") == true)
    }

    /// A type's name read as a value (the base of `Ink.base`) is kept per scope once looked up (`FlatEvaluator.lookUp`):
    /// the same name is another type where a typealias of that name is in scope, and a name some static member has is
    /// looked up as before (the member in its scope, the type elsewhere).
    @Test func aTypeNameMeansWhatItsScopeMakesIt() {
        let outcome = Self.evaluate("""
            enum Ink { static let base = Color(hex: "#112233") }
            enum Night { static let base = Color(hex: "#445566") }
            enum Palette {
                typealias Ink = Night
                static let first = Ink.base
                static let second = Ink.base
            }
            enum Other {
                static let first = Ink.base
                static let second = Ink.base
                static let night = Night.base
            }
            enum Shadowed {
                static let Night = Color(hex: "#778899")
                static let first = Night
            }
            """)
        Self.expectEvaluated(outcome, count: 9)
        func hex(_ key: String) -> String? { if case .color(let c)? = outcome.values[key] { return c[.light].hex } else { return nil } }
        #expect(hex("Palette.first") == "#445566" && hex("Palette.second") == "#445566")
        #expect(hex("Other.first") == "#112233" && hex("Other.second") == "#112233")
        #expect(hex("Other.night") == "#445566")
        #expect(hex("Shadowed.first") == "#778899")
    }

    /// View code evaluates one expression (one place in the source) again and again, with other locals: each evaluation
    /// reads its own locals, whatever was lowered for the place before (the evaluator keeps a lowering per place, checked
    /// to be the same expression and the same locals).
    @Test func anExpressionEvaluatedAgainWithOtherLocalsReadsThem() {
        let parsed = SwiftSourceReader().read(source: "enum Ink {\n    static let other = 7.0\n}\n", file: "/tmp/FlatEvaluatorFixture.swift")
        let interpreter = Interpreter(declarations: parsed.declarations, types: parsed.types)
        let at = SourceLocation(file: "/tmp/FlatEvaluatorView.swift", line: 3, column: 9)
        let tint = Expr(.name("tint"), at: at), other = Expr(.name("other"), at: at)
        func value(_ expr: Expr, _ locals: [String: Value]) -> Value {
            interpreter.evaluate(expr, locals: locals, selfValue: nil, scope: ["Ink"])
        }
        #expect(value(tint, ["tint": .number(1)]) == .number(1))
        #expect(value(tint, ["tint": .number(2)]) == .number(2))
        #expect(value(tint, ["other": .number(9), "tint": .number(3)]) == .number(3))
        #expect(value(tint, [:]).unknown?.reason.contains("tint") == true)
        // Another expression at the same place: its own lowering.
        #expect(value(other, ["other": .number(5), "tint": .number(3)]) == .number(5))
        #expect(value(other, [:]) == .number(7))
    }

    /// A provider that returns no color: unknown, at the call.
    @Test func aProviderReturningNoColorIsUnknownAtTheCall() {
        let outcome = Self.evaluate("""
            enum Odd {
                static let spare: CGFloat = 1
                static let tint = UIColor { traits in
                    spare
                }
            }
            """)
        guard case .unknown(let u)? = outcome.values["Odd.tint"] else {
            Issue.record("not unknown: \(String(describing: outcome.values["Odd.tint"]))")
            return
        }
        #expect(u.reason.hasPrefix("the color provider returns") && u.location.line == 3)
    }

    /// With a theme bound, a property declared with the theme's selector type reads the theme, also as a member of
    /// something the audit cannot evaluate (`Missing.shared.mood`).
    @Test func themeSelectionsAreReadAsTheInterpreterReadsThem() {
        var configuration = Interpreter.Configuration()
        configuration.theme = ["Mood": .enumCase(type: "Mood", name: "loud", payload: [])]
        let outcome = Self.evaluate("""
            enum Mood {
                case calm
                case loud
            }
            enum Prefs {
                static var mood: Mood = .calm
            }
            enum Tint {
                static let accent: Color = Prefs.mood == .loud ? .red : .blue
                static let unknownOwner = Missing.shared.mood
                static let unknownOwnerAccent: Color = Missing.shared.mood == .loud ? .red : .blue
            }
            """, configuration: configuration)
        Self.expectEvaluated(outcome, count: 4)
        #expect(outcome.values["Tint.unknownOwner"] == .enumCase(type: "Mood", name: "loud", payload: []))
        #expect(outcome.values["Tint.unknownOwnerAccent"] == outcome.values["Tint.accent"])
    }

    /// Static initial values of one shape in a scope (a call of a name with literal arguments, a member of a name) share
    /// nodes refilled for each (`LoweredProgram.refill`): each keeps its own literals and locations, and one read while
    /// another of its shape is evaluated (the shared nodes busy) is lowered afresh, with the same value.
    @Test func valuesOfOneShapeKeepTheirOwnLiteralsAndLocations() {
        let outcome = Self.evaluate("""
            enum Palette {
                static func tone(_ hex: String) -> Color { hex == "#000000" ? later : Color(hex: hex) }
                static func width(_ points: Double) -> Double { points * 2 }
                static let first = tone("#112233")
                static let nested = tone("#000000")
                static let later = tone("#445566")
                static let last = tone("#778899")
                static let thin = width(1)
                static let wide = width(4)
            }
            enum Alias {
                static let one = Palette.first
                static let missing = Palette.nothing
                static let two = Palette.last
            }
            """)
        Self.expectEvaluated(outcome, count: 9, unknown: ["Alias.missing"])
        func hex(_ key: String) -> String? { if case .color(let c)? = outcome.values[key] { return c[.light].hex } else { return nil } }
        #expect(hex("Palette.first") == "#112233" && hex("Palette.nested") == "#445566")
        #expect(hex("Palette.later") == "#445566" && hex("Palette.last") == "#778899")
        #expect(outcome.values["Palette.thin"] == .number(2) && outcome.values["Palette.wide"] == .number(8))
        #expect(hex("Alias.one") == "#112233" && hex("Alias.two") == "#778899")
        #expect(outcome.values["Alias.missing"]?.unknown?.location.line == 13, "\(String(describing: outcome.values["Alias.missing"]))")
    }
}
