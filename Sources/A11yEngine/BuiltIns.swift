import Foundation

/// What SwiftUI and UIKit provide, in one table: color and font initialisers, system colors, text styles, color and
/// font methods, trait collections, `UIFontMetrics`. The interpreter asks here after the project's own declarations,
/// so a project's `init(hex:)` or `Color.primary` wins over the platform's.
enum BuiltIns {
    static let platformTypes: Set<String> = [
        "Color", "UIColor", "SwiftUI.Color", "CGColor", "NSColor", "ShapeStyle", "Font", "UIFont", "SwiftUI.Font",
        "CGFloat", "Double", "Float", "Int", "UInt", "UInt8", "UInt32", "Int64", "UInt64", "String", "Bool",
        "UIFontMetrics", "UIDevice", "UITraitCollection", "UIUserInterfaceStyle", "UIAccessibilityContrast",
        "ColorScheme", "Font.Weight", "UIFont.Weight", "Font.TextStyle", "UIFont.TextStyle", "Font.Design",
        "UIUserInterfaceIdiom", "Weight", "TextStyle", "Design", "UIFontDescriptor", "UIFontWeight",
    ]

    static func isPlatformType(_ name: String) -> Bool { platformTypes.contains(name) }

    /// The platform types of arguments by label, so `.body` in `preferredFont(forTextStyle: .body)` is the text style
    /// even where a project token is named `body`; nil when no argument has one (nearly every call: no array is made).
    static func argumentTypes(_ function: String, _ arguments: [CallArgument]) -> [String?]? {
        var types: [String?]?
        for (index, argument) in arguments.enumerated() {
            let type: String?
            // By length first: most labels are none of these (`hex`, `red`, `opacity`), and each string compared in the
            // switch below is a call into the runtime.
            if let label = argument.label, ![6, 9, 10, 12, 13].contains(label.utf8.count) { continue }
            switch argument.label {
            case "forTextStyle", "withTextStyle", "relativeTo", "textStyle": type = "Font.TextStyle"
            case "weight": type = "Font.Weight"
            case "design": type = "Font.Design"
            case nil where index == 0 && function == "system": type = "Font.TextStyle"
            default: type = nil
            }
            guard let type else { continue }
            if types == nil { types = Array(repeating: nil, count: arguments.count) }
            types![index] = type
        }
        return types
    }

    /// Implicit members that are cases of platform enums (weights, text styles, designs, trait values), not colors.
    static let platformEnumCases: Set<String> = [
        "ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black",
        "largeTitle", "title", "title1", "title2", "title3", "headline", "subheadline", "body", "callout", "footnote",
        "caption", "caption1", "caption2", "extraLargeTitle", "extraLargeTitle2",
        "default", "rounded", "monospaced", "serif", "dark", "high", "normal", "unspecified",
        "sRGB", "sRGBLinear", "displayP3", "phone", "pad", "mac", "tv", "carPlay", "vision",
    ]

    static func unknown(_ reason: String, _ location: SourceLocation, kind: TokenKind? = nil, rule: String = "parse") -> Value {
        .unknown(.init(rule: rule, reason: reason, location: location, kind: kind))
    }

    /// (`Color` and `UIColor` first, by string equality: every adaptive token constructs both, and a look-up hashes the name.)
    static func isColorType(_ type: String) -> Bool { type == "Color" || type == "UIColor" || Interpreter.namespaceKind(type) == .color }
    static func isFontType(_ type: String) -> Bool { Interpreter.namespaceKind(type) == .font }
    static func isNumberType(_ type: String) -> Bool { Interpreter.namespaceKind(type) == .number }

    // MARK: Static members

    static func staticMember(_ type: String, _ name: String, interpreter: Interpreter, at location: SourceLocation) -> Value? {
        if isColorType(type), let color = SystemColors.color(named: name) { return .color(color) }
        if isFontType(type), let style = SystemColors.textStyles[name] {
            return .font(FontValue(size: style.size, weight: style.weight, face: nil, textStyle: name, scales: true, location: location))
        }
        if isNumberType(type) {
            switch name {
            case "zero": return .number(0)
            case "infinity", "greatestFiniteMagnitude": return .number(.infinity)
            case "pi": return .number(.pi)
            default: break
            }
        }
        switch (type, name) {
        case ("UIFont", "systemFontSize"), ("UIFont", "labelFontSize"), ("UIFont", "buttonFontSize"): return .number(17)
        case ("UIFont", "smallSystemFontSize"): return .number(12)
        case ("UIFontMetrics", "default"): return metrics("body")
        case ("UIDevice", "current"): return .instance(type: "UIDevice", fields: [:])
        default: break
        }
        if platformTypes.contains(type) && !isColorType(type) && !isNumberType(type) && !isFontType(type) {
            // `UIUserInterfaceStyle.dark`, `Font.Weight.bold`, `UIFont.TextStyle.body`: platform enum cases.
            return .enumCase(type: "", name: name, payload: [])
        }
        if type.hasSuffix(".Weight") || type.hasSuffix(".TextStyle") || type.hasSuffix(".Design") {
            return .enumCase(type: "", name: name, payload: [])
        }
        if isFontType(type), ["Weight", "TextStyle", "Design"].contains(name) { return .type(type + "." + name) }
        return nil
    }

    static func metrics(_ style: String) -> Value { .instance(type: "UIFontMetrics", fields: ["textStyle": .string(style)]) }

    // MARK: Members of values

    static func member(of base: Value, _ name: String, interpreter: Interpreter, at location: SourceLocation) -> Value? {
        switch base {
        case .traits(let traits):
            switch name {
            case "userInterfaceStyle", "colorScheme":
                interpreter.traitReads.insert(.style)
                return traits.appearance.isDark ? interpreter.traitValues.dark : interpreter.traitValues.light
            case "accessibilityContrast", "colorSchemeContrast":
                interpreter.traitReads.insert(.contrast)
                return traits.appearance.isHighContrast ? interpreter.traitValues.high : interpreter.traitValues.normal
            case "userInterfaceIdiom": return .enumCase(type: "", name: traits.idiom, payload: [])
            case "legibilityWeight": return .enumCase(type: "", name: "regular", payload: [])
            case "horizontalSizeClass", "verticalSizeClass": return .enumCase(type: "", name: "regular", payload: [])
            case "userInterfaceLevel": return .enumCase(type: "", name: "base", payload: [])
            default: return nil
            }
        case .instance("UIDevice", _):
            if name == "userInterfaceIdiom" { return .enumCase(type: "", name: interpreter.configuration.idiom, payload: []) }
            return nil
        case .color(let c):
            switch name {
            case "cgColor", "uiColor", "color", "swiftUIColor": return .color(c)
            default: return nil
            }
        case .font(let f):
            switch name {
            case "fontDescriptor": return base
            case "pointSize": return f.size.map(Value.number)
            case "lineHeight": return f.size.map { .number($0 * 1.2) }
            default: return nil
            }
        case .string(let s):
            if name == "count" { return .number(Double(s.count)) }
            return nil
        case .number(let n):
            if name == "cgFloat" || name == "doubleValue" { return .number(n) }
            return nil
        default:
            return nil
        }
    }

    // MARK: Calls

    // By index: `first(where:)` copied each argument it looked at (its label and value, references counted), and every
    // color initialiser asks several times.
    static func label(_ args: [EvaluatedArgument], _ name: String?) -> Value? {
        for i in args.indices where args[i].label == name { return args[i].value }
        return nil
    }

    static func firstUnknown(_ args: [EvaluatedArgument]) -> Value? {
        for i in args.indices { if case .unknown = args[i].value { return args[i].value } }
        return nil
    }

    /// `Type(args)` for platform types, and global functions (`min`, `max`).
    static func construct(_ type: String, _ args: [EvaluatedArgument], interpreter: Interpreter,
                          at location: SourceLocation) -> Value {
        if isColorType(type) { return colorInitializer(args, interpreter: interpreter, at: location) }
        if isNumberType(type) {
            guard args.count == 1 else { return unknown("\(type)(...) with \(args.count) arguments", location, kind: .number) }
            if case .number(let n) = args[0].value { return .number(type == "Int" ? n.rounded(.towardZero) : n) }
            if case .string(let s) = args[0].value, let n = Double(s) { return .number(n) }
            return args[0].value.unknown != nil ? args[0].value : unknown("\(type)(\(args[0].value.typeDescription))", location, kind: .number)
        }
        if let u = firstUnknown(args) { return u }
        switch type {
        case "Font" where args.count == 1:
            // `Font(uiFont)`: a SwiftUI font from a UIKit one scales exactly when the UIKit font does.
            if case .font = args[0].value { return args[0].value }
        case "UIFont":
            if case .string(let face)? = label(args, "name"), case .number(let size)? = label(args, "size") {
                return .font(FontValue(size: size, weight: nil, face: face, textStyle: nil, scales: false, location: location))
            }
            if case .font(var f)? = label(args, "descriptor"), case .number(let size)? = label(args, "size") {
                // `UIFont(descriptor:size:)` keeps the descriptor's text style (so it scales when that one does); size 0
                // means the descriptor's own size.
                if size > 0 { f.size = size }
                return .font(f)
            }
        case "UIFontMetrics":
            if let style = label(args, "forTextStyle"), case .enumCase(_, let name, _) = style { return metrics(name) }
        case "min", "max":
            let numbers = args.compactMap(\.value.number)
            guard numbers.count == args.count, !numbers.isEmpty else { break }
            return .number(type == "min" ? numbers.min()! : numbers.max()!)
        case "abs":
            if let n = args.first?.value.number { return .number(Swift.abs(n)) }
        case "round", "floor", "ceil":
            if let n = args.first?.value.number {
                return .number(type == "round" ? n.rounded() : type == "floor" ? n.rounded(.down) : n.rounded(.up))
            }
        case "pow":
            if args.count == 2, let a = args[0].value.number, let b = args[1].value.number { return .number(pow(a, b)) }
        default: break
        }
        if let adaptive = lightDarkCall(args, at: location) { return adaptive }
        let kind: TokenKind? = isFontType(type) ? .font : nil
        let signature = "\(type)(\(args.map { ($0.label ?? "_") + ":" }.joined()))"
        if platformTypes.contains(type) { return unknown("\(signature) is not something a11yd can evaluate", location, kind: kind) }
        let what = type.first?.isUppercase == true ? "unknown type" : "unknown helper"
        return unknown("\(what) \(signature): it is not declared in the audited files", location, kind: kind, rule: "reference")
    }

    /// A helper the audit cannot read (from a binary framework, say) called with `light:` and `dark:` colors or hex
    /// strings is taken to choose by appearance, as its labels say.
    static func lightDarkCall(_ args: [EvaluatedArgument], at location: SourceLocation) -> Value? {
        func color(_ v: Value?) -> AppearanceColor? {
            switch v {
            case .color(let c)?: return c
            case .string(let s)?: return ColorValue(hex: s).map { AppearanceColor(constant: $0) }
            default: return nil
            }
        }
        guard let light = color(label(args, "light") ?? label(args, "any")), let dark = color(label(args, "dark")) else { return nil }
        var branches: [Appearance: AppearanceColor] = [.light: light, .dark: dark]
        if let hc = color(label(args, "lightHighContrast")) { branches[.lightHighContrast] = hc }
        if let hc = color(label(args, "darkHighContrast")) { branches[.darkHighContrast] = hc }
        return combine(branches).map(Value.color)
    }

    static func colorInitializer(_ args: [EvaluatedArgument], interpreter: Interpreter, at location: SourceLocation) -> Value {
        // A dynamic provider: `UIColor { traits in ... }`, `UIColor(dynamicProvider:)`.
        if let provider = label(args, "dynamicProvider") ?? (args.count == 1 ? args[0].value : nil), case .closure(let closure) = provider {
            return dynamicColor(closure, interpreter: interpreter, at: location)
        }
        if let u = firstUnknown(args) {
            guard var unknown = u.unknown else { return u }
            if unknown.kind == nil { unknown.kind = .color }
            return .unknown(unknown)
        }
        // A color of another type (`UIColor(color)`, `Color(uiColor:)`): the most common initialiser, first.
        if args.count == 1, case .color = args[0].value {
            switch args[0].label {
            case nil, "uiColor", "nsColor", "cgColor", "color": return args[0].value
            default: break
            }
        }
        func number(_ name: String) -> Double? { label(args, name)?.number }
        let alpha = number("opacity") ?? number("alpha") ?? 1
        if let hex = label(args, "hex") ?? label(args, "hexString") {
            switch hex {
            case .string(let s):
                guard let c = ColorValue(hex: s) else {
                    return unknown("invalid hex color \"\(s)\" (expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA)", location, kind: .color)
                }
                return .color(AppearanceColor(constant: c.multiplyingAlpha(alpha)))
            case .number(let n):
                return .color(AppearanceColor(constant: packed(n, alpha: alpha)))
            default: break
            }
        }
        if let r = number("red"), let g = number("green"), let b = number("blue") {
            return .color(AppearanceColor(constant: ColorValue(red: r, green: g, blue: b, alpha: alpha)))
        }
        if let w = number("white") {
            return .color(AppearanceColor(constant: ColorValue(white: w, alpha: alpha)))
        }
        if let h = number("hue"), let s = number("saturation"), let v = number("brightness") {
            return .color(AppearanceColor(constant: hsb(h, s, v, alpha: alpha)))
        }
        if let name = label(args, "named") ?? (args.count == 1 && args[0].label == nil ? args[0].value : nil), case .string(let text) = name {
            // `Color("Name")`, `UIColor(named: "Name")`: an asset catalog color.
            return interpreter.assetColor(named: text)
                ?? unknown("no colorset named \"\(text)\" in the audited folder", location, kind: .color, rule: "reference")
        }
        if args.count == 2, args[0].label == nil, case .color(let c) = args[0].value, let opacity = number("opacity") {
            return .color(c.map { $0.multiplyingAlpha(opacity) })
        }
        let labels = args.map { ($0.label ?? "_") + ":" }.joined()
        return unknown("Color(\(labels)) is not an initialiser a11yd knows", location, kind: .color, rule: "reference")
    }

    /// `0xRRGGBB` as an integer.
    static func packed(_ n: Double, alpha: Double) -> ColorValue {
        let v = Int64(n)
        return ColorValue(red: Double((v >> 16) & 0xFF) / 255, green: Double((v >> 8) & 0xFF) / 255, blue: Double(v & 0xFF) / 255,
                          alpha: alpha)
    }

    static func hsb(_ h: Double, _ s: Double, _ v: Double, alpha: Double) -> ColorValue {
        let hue = (h - h.rounded(.down)) * 6
        let i = Int(hue) % 6, f = hue - Double(Int(hue))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (Double, Double, Double)
        switch i {
        case 0: (r, g, b) = (v, t, p)
        case 1: (r, g, b) = (q, v, p)
        case 2: (r, g, b) = (p, v, t)
        case 3: (r, g, b) = (p, q, v)
        case 4: (r, g, b) = (t, p, v)
        default: (r, g, b) = (v, p, q)
        }
        return ColorValue(red: r, green: g, blue: b, alpha: alpha)
    }

    /// Runs a trait closure once per appearance. The appearances it defines explicitly are those its code tells apart:
    /// reading the style gives light and dark, reading the contrast gives the increased-contrast variants too.
    static func dynamicColor(_ closure: Value.Closure, interpreter: Interpreter, at location: SourceLocation) -> Value {
        let saved = interpreter.traitReads
        defer { interpreter.traitReads = saved }
        var reads: Interpreter.TraitReads = []
        var color = AppearanceColor(constant: .clear)  // every appearance is set below (or nothing is returned)
        var innerExplicit: AppearanceSet = []
        // The provider depends only on the traits it reads: a run whose reads do not tell two appearances apart stands
        // for both (no style read: dark is light's result; no contrast read: each high-contrast appearance is its base's).
        // The base appearances' results, the only ones a later appearance can stand for: two slots on the stack, not an
        // array (this runs for every adaptive token).
        var lightResult: Value?, darkResult: Value?
        for appearance in Appearance.allCases {
            let result: Value
            if let base = appearance.fallback, let known = base == .light ? lightResult : darkResult,
               appearance.isHighContrast ? !reads.contains(.contrast) : reads.isEmpty {
                result = known
            } else {
                interpreter.traitReads = []
                result = interpreter.apply(closure, CollectionOfOne(interpreter.traitValues.traits[appearance.order]), expected: "UIColor",
                                           at: location)
                reads.formUnion(interpreter.traitReads)
            }
            if appearance == .light { lightResult = result } else if appearance == .dark { darkResult = result }
            switch result {
            case .color(let c):
                color[appearance] = c[appearance]
                if c.explicit.contains(appearance) && !c.isConstant { innerExplicit.insert(appearance) }
            case .unknown(var u):
                if u.kind == nil { u.kind = .color }
                return .unknown(u)
            default:
                return unknown("the color provider returns \(result.typeDescription)", location, kind: .color)
            }
        }
        var explicit: AppearanceSet = [.light]
        if reads.contains(.style) { explicit.formUnion([.light, .dark]) }
        if reads.contains(.contrast) { explicit.formUnion(reads.contains(.style) ? .all : [.light, .lightHighContrast]) }
        explicit.formUnion(innerExplicit)
        color.explicit = explicit
        return .color(color)
    }

    /// Colors given per appearance (asset catalogs, per-mode token files): missing ones fall back as iOS does.
    static func combine(_ evaluated: [Appearance: AppearanceColor]) -> AppearanceColor? {
        guard !evaluated.isEmpty else { return nil }
        var values: [Appearance: ColorValue] = [:]
        var explicit: AppearanceSet = []
        for appearance in Appearance.allCases {
            var key = appearance
            while evaluated[key] == nil, let fallback = key.fallback { key = fallback }
            guard let branch = evaluated[key] ?? evaluated.values.first else { continue }
            values[appearance] = branch[appearance]
            if evaluated[appearance] != nil || branch.explicit.contains(appearance) { explicit.insert(appearance) }
        }
        return AppearanceColor(values: values, explicit: explicit)
    }

    /// `Type.name(args)` for platform types: font constructors.
    static func staticCall(_ type: String, _ name: String, _ args: [EvaluatedArgument], interpreter: Interpreter,
                           at location: SourceLocation) -> Value {
        let fontContext = isFontType(type) || type.isEmpty || type == "UIFontDescriptor"
        if let u = firstUnknown(args) {
            guard var unknown = u.unknown else { return u }
            if unknown.kind == nil, fontContext, ["system", "custom", "systemFont", "preferredFont"].contains(name) { unknown.kind = .font }
            return .unknown(unknown)
        }
        func caseName(_ v: Value?) -> String? {
            switch v {
            case .enumCase(_, let n, _)?: return n
            case .string(let s)?: return s
            default: return nil
            }
        }
        func font(size: Double?, weight: String?, face: String?, style: String?) -> Value {
            .font(FontValue(size: size, weight: weight, face: face, textStyle: style, scales: style != nil, location: location))
        }
        switch name {
        case "system" where fontContext:
            if case .number(let size)? = label(args, "size") {
                // `Font.system(size:)` is fixed unless given `relativeTo:` (not an option of system(size:) before iOS 17).
                return font(size: size, weight: caseName(label(args, "weight")), face: nil, style: caseName(label(args, "relativeTo")))
            }
            if let style = caseName(label(args, nil)) ?? caseName(label(args, "textStyle")) {
                let known = SystemColors.textStyles[style]
                return font(size: known?.size, weight: caseName(label(args, "weight")) ?? known?.weight, face: nil, style: style)
            }
        case "custom" where fontContext:
            let face = caseName(label(args, nil))
            if case .number(let size)? = label(args, "fixedSize") {
                return font(size: size, weight: nil, face: face, style: nil)
            }
            if case .number(let size)? = label(args, "size") {
                // Apple: "custom(_:size:) ... scales with the body text style"; relativeTo: picks another style.
                return font(size: size, weight: nil, face: face, style: caseName(label(args, "relativeTo")) ?? "body")
            }
        case "systemFont", "boldSystemFont", "italicSystemFont", "monospacedSystemFont", "monospacedDigitSystemFont":
            if case .number(let size)? = label(args, "ofSize") {
                let weight = name == "boldSystemFont" ? "bold" : caseName(label(args, "weight"))
                return font(size: size, weight: weight, face: nil, style: nil)
            }
        case "preferredFont", "preferredFontDescriptor":
            // A font descriptor is modelled as the font it describes; one made for a text style scales with it.
            if let style = caseName(label(args, "forTextStyle")) ?? caseName(label(args, "withTextStyle")) {
                return font(size: SystemColors.textStyles[style]?.size, weight: SystemColors.textStyles[style]?.weight, face: nil, style: style)
            }
        case "init":
            return construct(type, args, interpreter: interpreter, at: location)
        default: break
        }
        if isColorType(type) || (type.isEmpty && name == "init") { return construct("Color", args, interpreter: interpreter, at: location) }
        let shown = type.isEmpty ? ".\(name)" : "\(type).\(name)"
        return unknown("\(shown)(\(args.map { ($0.label ?? "_") + ":" }.joined())) does not name a function", location,
                       kind: isFontType(type) ? .font : isColorType(type) ? .color : nil, rule: "reference")
    }

    static let colorMethods: Set<String> = ["opacity", "withAlphaComponent", "resolvedColor", "cgColor"]
    static let fontMethods: Set<String> = [
        "weight", "bold", "withSize", "italic", "monospacedDigit", "monospaced", "smallCaps", "lowercaseSmallCaps",
        "uppercaseSmallCaps", "leading", "width", "fontDesign", "withDesign", "withSymbolicTraits", "withTraits", "relativeTo",
    ]

    /// The types of a platform method's arguments, so implicit members in them are typed as Swift types them.
    static func methodArgumentTypes(_ base: Value, _ name: String) -> [String?]? {
        switch (base, name) {
        case (.font, "relativeTo"): return ["Font.TextStyle"]
        case (.font, "weight"): return ["Font.Weight"]
        case (.color, "opacity"), (.color, "withAlphaComponent"): return ["CGFloat"]
        default: return nil
        }
    }

    /// True when the table defines this method for the value (it then wins over a project extension of the same name).
    static func knowsMethod(_ base: Value, _ name: String) -> Bool {
        switch base {
        case .color: return colorMethods.contains(name)
        case .font: return fontMethods.contains(name)
        default: return true
        }
    }

    /// Methods of platform values: color opacity, font modifiers, `UIFontMetrics`.
    static func method(_ base: Value, _ name: String, _ args: [EvaluatedArgument], interpreter: Interpreter,
                       at location: SourceLocation) -> Value {
        if case .unknown = base { return base }
        // Descriptor attributes (traits dictionaries, symbolic traits) change neither size nor scaling.
        if case .font = base, ["addingAttributes", "withSymbolicTraits", "withDesign", "withTraits"].contains(name) { return base }
        if let u = firstUnknown(args) { return u }
        switch base {
        case .color(let c):
            switch name {
            case "opacity", "withAlphaComponent":
                guard let amount = args.first?.value.number else { break }
                return .color(c.map { $0.multiplyingAlpha(amount) })
            case "resolvedColor":
                if case .traits(let t)? = args.first?.value { return .color(AppearanceColor(constant: c[t.appearance])) }
            case "cgColor": return base
            default: break
            }
        case .font(var f):
            switch name {
            case "weight":
                if case .enumCase(_, let w, _)? = args.first?.value { f.weight = w }
                return .font(f)
            case "bold":
                f.weight = "bold"
                return .font(f)
            case "relativeTo":
                // The house convention of the design-system brief (ios-native-app-design.md §1):
                // `Font.system(size:).relativeTo(.style)` scales a fixed size like `style` (implemented with UIFontMetrics).
                if case .enumCase(_, let style, _)? = args.first?.value {
                    f.textStyle = style
                    f.scales = true
                }
                return .font(f)
            case "withSize":
                // `withSize(0)` keeps the descriptor's size.
                if let size = args.first?.value.number, size > 0 { f.size = size }
                return .font(f)
            case "italic", "monospacedDigit", "monospaced", "smallCaps", "lowercaseSmallCaps", "uppercaseSmallCaps",
                 "leading", "width", "fontDesign", "withDesign", "withSymbolicTraits", "withTraits":
                return .font(f)
            default: break
            }
        case .instance("UIFontMetrics", let fields):
            let style: String = { if case .string(let s)? = fields["textStyle"] { return s } else { return "body" } }()
            switch name {
            case "scaledFont":
                guard case .font(var f)? = label(args, "for") else { break }
                f.scales = true
                f.textStyle = f.textStyle ?? style
                return .font(f)
            case "scaledValue":
                if let n = label(args, "for")?.number { return .number(n) }
            default: break
            }
        case .number(let n):
            switch name {
            case "rounded": return .number(n.rounded())
            default: break
            }
        default: break
        }
        return unknown(".\(name)(...) on \(base.typeDescription) is not something a11yd can evaluate", location, kind: base.tokenKind)
    }

    // MARK: Project initialisers recognised by signature

    /// `init(hex: String)`, `init(hexString:alpha:)` on a color type: hex parsing, whatever the body does.
    static func isHexStringInitializer(_ d: MemberDeclaration) -> Bool {
        guard case .initializer(let parameters, _) = d.kind, let owner = d.owner.last, isColorType(owner),
              let first = parameters.first, first.type.map(Interpreter.baseTypeName) == "String" else { return false }
        let name = ((first.label ?? "") + first.name).lowercased()
        return name.contains("hex") && parameters.dropFirst().allSatisfy { $0.defaultValue != nil || Interpreter.kindOfType($0.type ?? "") == .number }
    }

    static func hexStringInitializer(_ d: MemberDeclaration, _ args: [EvaluatedArgument], interpreter: Interpreter,
                                     at location: SourceLocation) -> Value {
        if let u = firstUnknown(args) { return u }
        guard case .string(let text)? = args.first?.value else {
            return unknown("\(d.ownerKey).init(\(d.parameters.first?.label ?? "_"):) needs a string", location, kind: .color)
        }
        guard let color = ColorValue(hex: text) else {
            return unknown("invalid hex color \"\(text)\" (expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA)", location, kind: .color)
        }
        let alpha = args.dropFirst().first { $0.label == "alpha" || $0.label == "opacity" }?.value.number ?? 1
        return .color(AppearanceColor(constant: color.multiplyingAlpha(alpha)))
    }
}

