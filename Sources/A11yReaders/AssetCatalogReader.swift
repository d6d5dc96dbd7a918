import A11yEngine
import Foundation

/// Reads Xcode asset-catalog colors: `*.xcassets/**/*.colorset/Contents.json`.
///
/// A colorset `Foo.colorset` becomes the token `["Asset", "Foo"]` (inside folders marked
/// `"provides-namespace": true`, `["Asset", "Folder/Foo"]`), which is the name Swift's `Color("Foo")` and
/// `UIColor(named:)` use. Its value is `.adaptive` over the appearances the colorset gives:
/// - no luminosity (Xcode's "Any") and `light` feed `.light` (an explicit light entry wins over Any);
/// - `dark` feeds `.dark`; `contrast: high` combined with them feeds the high-contrast appearances.
/// Missing appearances are left out so the engine's iOS fallback (HC -> base, dark -> light) applies and is visible.
///
/// Idioms: `universal` entries are preferred; device-specific entries (`iphone`, then `ipad`, then any other)
/// are used only for an appearance no universal entry covers. Design-system colorsets are universal in practice
/// (every colorset in the corpus is), and auditing one device family per color keeps one value per appearance.
/// Likewise an entry without `display-gamut` (or with `sRGB`) wins over a `display-P3` gamut variant, since
/// WCAG contrast is defined on sRGB.
public enum AssetCatalogReader {
    /// The asset name of the colorset at `path` (`.../Colors.xcassets/Brand/Primary.colorset/Contents.json`
    /// or the `.colorset` directory itself): the colorset's base name, prefixed with every enclosing folder
    /// (inside the `.xcassets`) whose `Contents.json` says `"properties": {"provides-namespace": true}`.
    /// `folderContents` returns the text of a folder's `Contents.json` given the folder's path (as a prefix
    /// of `path`), or nil when the folder has none. Returns nil when `path` has no `.colorset` component.
    public static func colorSetName(path: String, folderContents: (String) -> String?) -> String? {
        let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let setIndex = components.lastIndex(where: { $0.hasSuffix(".colorset") }) else { return nil }
        let baseName = String(components[setIndex].dropLast(".colorset".count))
        guard let catalogIndex = components[..<setIndex].lastIndex(where: { $0.hasSuffix(".xcassets") }) else {
            return baseName
        }
        var namespaces: [String] = []
        if catalogIndex + 1 < setIndex {
            for folderIndex in (catalogIndex + 1)..<setIndex {
                let folderPath = components[...folderIndex].joined(separator: "/")
                if let text = folderContents(folderPath), providesNamespace(text) {
                    namespaces.append(components[folderIndex])
                }
            }
        }
        return (namespaces + [baseName]).joined(separator: "/")
    }

    /// Whether a folder's `Contents.json` text turns on namespacing. Unreadable text means no namespace:
    /// the folder's own parse problem is not this colorset's problem.
    public static func providesNamespace(_ folderContentsText: String) -> Bool {
        guard let json = try? LocatedJSON.parse(folderContentsText) else { return false }
        return json["properties"]?["provides-namespace"]?.bool == true
    }

    /// Reads one colorset's `Contents.json` given the asset name from `colorSetName(path:folderContents:)`.
    public static func read(text: String, file: String, name: String) -> ParsedSource {
        var reader = ColorSetReader(file: file, name: name)
        return reader.read(text: text)
    }

    /// Convenience: computes the name from the path, then reads.
    public static func read(text: String, file: String, folderContents: (String) -> String?) -> ParsedSource {
        let name = colorSetName(path: file, folderContents: folderContents)
            ?? String(file.split(separator: "/").last ?? Substring(file))
        return read(text: text, file: file, name: name)
    }

    /// The built-in system color an iOS colorset reference names: `systemBackgroundColor` ->
    /// `["UIColor", "systemBackground"]`, matching the Swift spelling `UIColor.systemBackground`.
    /// macOS references (`"platform": "osx"`) become `["NSColor", ...]`: the audit is for iOS, so the engine
    /// reports them as references it cannot resolve instead of guessing a UIKit equivalent.
    public static func systemColorPath(reference: String, platform: String?) -> [String] {
        var name = reference
        if name.hasSuffix("Color") && name.count > "Color".count { name.removeLast("Color".count) }
        return [platform == "osx" ? "NSColor" : "UIColor", name]
    }
}

/// One pass over one colorset file. Collects findings instead of stopping at the first problem, so a
/// designer sees every broken entry of a colorset at once.
struct ColorSetReader {
    let file: String
    let sourceFile: SourceFile
    let name: String
    var findings: [Finding] = []

    init(file: String, name: String) {
        self.file = file
        sourceFile = SourceFile.named(file)
        self.name = name
    }

    var subject: String { "Asset." + name }

    func location(_ position: TextPosition) -> SourceLocation {
        SourceLocation(in: sourceFile, line: position.line, column: position.column)
    }

    mutating func problem(_ message: String, at position: TextPosition) {
        findings.append(Finding(rule: "parse", severity: .error, subject: subject,
                                message: "\(name).colorset: \(message)", location: location(position)))
    }

    /// One `colors` entry that applies to one of our four appearances, ranked for the idiom/gamut preference.
    struct Candidate {
        var appearance: Appearance
        var rank: Int
        var expression: TokenExpression
    }

    mutating func read(text: String) -> ParsedSource {
        let root: LocatedJSON
        do {
            root = try LocatedJSON.parse(text)
        } catch {
            findings.append(Finding(rule: "parse", severity: .error, subject: subject,
                                    message: "\(name).colorset: invalid JSON: \(error.message)",
                                    location: location(error.position)))
            return ParsedSource(file: file, findings: findings)
        }
        guard root.members != nil else {
            problem("expected an object at the top level, found \(root.typeDescription)", at: root.position)
            return ParsedSource(file: file, findings: findings)
        }
        guard let colors = root["colors"] else {
            // An empty colorset (a fresh AccentColor) has no "colors": nothing to audit, nothing wrong.
            return ParsedSource(file: file)
        }
        guard let entries = colors.elements else {
            problem("\"colors\" must be an array, found \(colors.typeDescription)", at: colors.position)
            return ParsedSource(file: file, findings: findings)
        }
        var best: [Appearance: Candidate] = [:]
        for entry in entries {
            guard let candidates = readEntry(entry) else { continue }
            for candidate in candidates {
                // Lower rank wins; on a tie the first entry in the file wins (stable, like Xcode's list order).
                if let existing = best[candidate.appearance], existing.rank <= candidate.rank { continue }
                best[candidate.appearance] = candidate
            }
        }
        guard !best.isEmpty else { return ParsedSource(file: file, findings: findings) }
        let expression: TokenExpression
        if best.count == 1, let only = best[.light] {
            expression = only.expression
        } else {
            expression = .adaptive(best.mapValues(\.expression))
        }
        let token = TokenDefinition(
            qualifiedName: ["Asset", name], declaredKind: .color, expression: expression,
            location: location(root.members?.last(where: { $0.key == "colors" })?.keyPosition ?? root.position))
        return ParsedSource(file: file, tokens: [token], findings: findings)
    }

    /// The appearances one entry supplies (Any supplies light; Any + high contrast supplies lightHighContrast),
    /// or nil when the entry has no color, targets something else, or is malformed (then a finding is recorded).
    mutating func readEntry(_ entry: LocatedJSON) -> [Candidate]? {
        guard entry.members != nil else {
            problem("each \"colors\" entry must be an object, found \(entry.typeDescription)", at: entry.position)
            return nil
        }
        guard let color = entry["color"] else { return nil }  // Xcode writes entries without a color for empty slots.
        var isDark = false, isExplicitLight = false, isHighContrast = false
        if let appearances = entry["appearances"] {
            guard let list = appearances.elements else {
                problem("\"appearances\" must be an array, found \(appearances.typeDescription)", at: appearances.position)
                return nil
            }
            for item in list {
                let kind = item["appearance"]?.string, value = item["value"]?.string
                switch (kind, value) {
                case ("luminosity", "dark"): isDark = true
                case ("luminosity", "light"): isExplicitLight = true
                case ("luminosity", "any"): break
                case ("contrast", "high"): isHighContrast = true
                default:
                    // Other traits (e.g. a future vibrancy trait) describe no appearance we audit: skip the entry.
                    return nil
                }
            }
        }
        let idiom = entry["idiom"]?.string ?? "universal"
        let idiomRank: Int
        switch idiom {
        case "universal": idiomRank = 0
        case "iphone": idiomRank = 10
        case "ipad": idiomRank = 20
        default: idiomRank = 30
        }
        let gamut = entry["display-gamut"]?.string
        let gamutRank = (gamut == nil || gamut == "sRGB") ? 0 : 1
        // Explicit light beats Any for the light appearance.
        let lightRank = isExplicitLight ? 0 : 2
        if isDark && isExplicitLight {
            problem("an entry cannot be both light and dark", at: entry.position)
            return nil
        }
        guard let expression = readColor(color) else { return nil }
        let base: Appearance = isDark ? .dark : .light
        let appearance: Appearance = isHighContrast ? (isDark ? .darkHighContrast : .lightHighContrast) : base
        return [Candidate(appearance: appearance, rank: idiomRank + gamutRank * 5 + (isDark ? 0 : lightRank),
                          expression: expression)]
    }

    /// A `color` object: either components in a color space, or a reference to a system color.
    mutating func readColor(_ color: LocatedJSON) -> TokenExpression? {
        guard color.members != nil else {
            problem("\"color\" must be an object, found \(color.typeDescription)", at: color.position)
            return nil
        }
        if let reference = color["reference"] {
            guard let referenceName = reference.string, !referenceName.isEmpty else {
                problem("\"reference\" must be a system color name string", at: reference.position)
                return nil
            }
            let platform = color["platform"]?.string
            return .reference(TokenReference(
                path: AssetCatalogReader.systemColorPath(reference: referenceName, platform: platform),
                expectedKind: .color, scope: [], location: location(reference.position)))
        }
        // Xcode always writes color-space; a hand-written colorset without one gets Xcode's default, sRGB.
        var space = SourceColorSpace.sRGB
        if let spaceValue = color["color-space"] {
            guard let spaceName = spaceValue.string,
                  let known = SourceColorSpace(rawValue: spaceName),
                  [.sRGB, .extendedSRGB, .extendedLinearSRGB, .displayP3, .grayGamma22, .extendedGray].contains(known)
            else {
                problem("unsupported color-space \(describe(spaceValue)) (expected srgb, display-p3, extended-srgb, "
                        + "extended-linear-srgb, gray-gamma-22 or extended-gray)", at: spaceValue.position)
                return nil
            }
            space = known
        }
        guard let components = color["components"] else {
            problem("a color needs \"components\" or a system color \"reference\"", at: color.position)
            return nil
        }
        guard components.members != nil else {
            problem("\"components\" must be an object, found \(components.typeDescription)", at: components.position)
            return nil
        }
        let extended = [.extendedSRGB, .extendedLinearSRGB, .extendedGray].contains(space)
        let channelNames = space.componentCount == 1 ? ["white"] : ["red", "green", "blue"]
        var values: [Double] = []
        for channel in channelNames {
            guard let component = components[channel] else {
                problem("\(space.rawValue) color is missing the \"\(channel)\" component", at: components.position)
                return nil
            }
            guard let value = readComponent(component, channel: channel, extended: extended) else { return nil }
            values.append(value)
        }
        var alpha = 1.0
        if let alphaValue = components["alpha"] {
            guard let value = readAlpha(alphaValue) else { return nil }
            alpha = value
        }
        guard let converted = ColorSpaceConversion.toSRGB(space, components: values, alpha: alpha) else {
            problem("cannot convert the \(space.rawValue) components to sRGB", at: components.position)
            return nil
        }
        if converted.wasGamutMapped {
            let source = values.map { format($0) }.joined(separator: ", ")
            let exact = converted.unclipped.map { format($0) }.joined(separator: ", ")
            findings.append(Finding(
                rule: "gamut", severity: .info, subject: subject,
                message: "\(name).colorset: \(space.rawValue) (\(source)) is outside sRGB (\(exact)); "
                    + "contrast uses the clipped color \(converted.color.hex)",
                location: location(components.position)))
        }
        return .color(converted.color)
    }

    /// A color channel in any encoding Xcode writes: `"0xFF"` (8-bit hex), `"0.200"` (float, the
    /// "Floating point" input method), `"51"` (8-bit integer, the "8-bit (0-255)" input method).
    /// A string without a decimal point is therefore an 8-bit integer: `"1"` is 1/255, not 1.0.
    /// Plain JSON numbers (hand-written files) follow the same rule.
    mutating func readComponent(_ value: LocatedJSON, channel: String, extended: Bool) -> Double? {
        let text: String
        switch value.value {
        case .string(let s): text = s.trimmingCharacters(in: .whitespaces)
        case .number(let n):
            // `1e999` is infinite and 1e300 has no Int: only whole numbers an Int can hold are written as integers
            // (found by fuzzing: converting them trapped).
            text = n.isFinite && n == n.rounded() && abs(n) > 1 && abs(n) < 1e15 ? String(Int(n)) : String(n)
        default:
            problem("component \"\(channel)\" must be a string such as \"0.500\", \"128\" or \"0x80\", "
                    + "found \(value.typeDescription)", at: value.position)
            return nil
        }
        let lowered = text.lowercased()
        if lowered.hasPrefix("0x") {
            let digits = lowered.dropFirst(2)
            guard !digits.isEmpty, digits.count <= 2, let byte = UInt8(digits, radix: 16) else {
                problem("component \"\(channel)\" \"\(text)\" is not a hex byte (0x00...0xFF)", at: value.position)
                return nil
            }
            return Double(byte) / 255
        }
        if !text.contains(".") && !lowered.contains("e"), let integer = Int(text) {
            guard (0...255).contains(integer) else {
                problem("component \"\(channel)\" \(integer) is outside the 8-bit range 0...255", at: value.position)
                return nil
            }
            return Double(integer) / 255
        }
        guard let float = Double(text), float.isFinite else {
            problem("component \"\(channel)\" \"\(text)\" is not a number", at: value.position)
            return nil
        }
        if !extended && !(0...1).contains(float) {
            problem("component \"\(channel)\" \(text) is outside 0...1 (only extended color spaces allow that)",
                    at: value.position)
            return nil
        }
        return float
    }

    /// Alpha is always a fraction in Xcode's files (`"1.000"`, `"0.5"`); `"1"` and `"0"` mean 1.0 and 0.0.
    mutating func readAlpha(_ value: LocatedJSON) -> Double? {
        let parsed: Double?
        switch value.value {
        case .string(let s):
            let text = s.trimmingCharacters(in: .whitespaces)
            if text.lowercased().hasPrefix("0x") {
                parsed = UInt8(text.dropFirst(2), radix: 16).map { Double($0) / 255 }
            } else {
                parsed = Double(text)
            }
        case .number(let n): parsed = n
        default: parsed = nil
        }
        guard let alpha = parsed, alpha.isFinite, (0...1).contains(alpha) else {
            problem("alpha \(describe(value)) must be a number between 0 and 1", at: value.position)
            return nil
        }
        return alpha
    }

    func describe(_ value: LocatedJSON) -> String {
        if let s = value.string { return "\"\(s)\"" }
        if let n = value.number { return format(n) }
        return value.typeDescription
    }

    func format(_ x: Double) -> String {
        let rounded = (x * 1000).rounded() / 1000
        return String(format: "%.3f", rounded == 0 ? 0 : rounded)
    }
}
