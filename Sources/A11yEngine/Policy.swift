import Foundation

/// Contrast minimums for one set of appearances.
public struct ContrastThresholds: Hashable, Sendable, Codable {
    public var text: Double
    public var largeText: Double
    public var graphic: Double

    public init(text: Double, largeText: Double, graphic: Double) {
        self.text = text
        self.largeText = largeText
        self.graphic = graphic
    }
}

/// A standard's thresholds and severities, loaded from `policies/*.yml`.
public struct Policy: Hashable, Sendable {
    /// How "large text" (which needs less contrast) is decided.
    public enum LargeTextMapping: String, Hashable, Sendable, Codable {
        /// WCAG 2.x "large scale": at least 18pt, or at least 14pt bold (700+).
        case wcag
        /// Apple HIG: 17pt and below needs 4.5:1; 18pt and above, or bold at any size, needs 3:1.
        case appleHIG = "apple-hig"
    }

    public var id: String
    public var name: String
    public var sources: [String]
    public var largeText: LargeTextMapping
    public var contrast: ContrastThresholds
    /// Stricter minimums for the increased-contrast appearances; nil: the same as `contrast`.
    public var highContrast: ContrastThresholds?
    /// Severity per rule id; rules not listed are errors.
    public var severities: [String: Severity]
    /// Minimum hit area side in points (HIG 44; WCAG 2.5.5 AAA 44; WCAG 2.2 2.5.8 AA 24; Material 48).
    public var touchTargetMinimum: Double
    /// Smallest acceptable text size in points at the default Dynamic Type setting (HIG: 11pt).
    public var minimumFontSize: Double
    /// Namespaces or name prefixes of primitive (palette) tokens that styling files must not use.
    public var primitiveTokens: [String] { didSet { asciiPrimitiveMarkers = Self.asciiMarkers(primitiveTokens) } }
    /// `primitiveTokens` as bytes when every one is ASCII (`isPrimitive` then compares bytes), else nil.
    private var asciiPrimitiveMarkers: [[UInt8]]?

    public init(id: String, name: String, sources: [String], largeText: LargeTextMapping, contrast: ContrastThresholds,
                highContrast: ContrastThresholds?, severities: [String: Severity], touchTargetMinimum: Double = 44,
                minimumFontSize: Double = 11, primitiveTokens: [String] = Policy.defaultPrimitiveTokens) {
        self.id = id
        self.name = name
        self.sources = sources
        self.largeText = largeText
        self.contrast = contrast
        self.highContrast = highContrast
        self.severities = severities
        self.touchTargetMinimum = touchTargetMinimum
        self.minimumFontSize = minimumFontSize
        self.primitiveTokens = primitiveTokens
        asciiPrimitiveMarkers = Self.asciiMarkers(primitiveTokens)
    }

    public static let defaultPrimitiveTokens = ["Palette", "Primitives", "ElevatePrimitives", "prim", "primitive", "palette"]

    /// Whether a token (qualified name) is a primitive: in a primitive namespace or named with a primitive prefix.
    /// The name's parts are its dot-separated pieces, empty ones omitted (as `split(separator:)` has them).
    public func isPrimitive(_ qualifiedName: String) -> Bool {
        // Rules ask this of thousands of keys: ASCII names (nearly all) are compared byte by byte, without the Unicode
        // rules (canonical equivalence, characters, uppercase letters) the others need.
        if let markers = asciiPrimitiveMarkers, qualifiedName.isAllASCII {
            var name = qualifiedName
            return name.withUTF8 { Self.isPrimitive($0, markers: markers) }
        }
        let parts = qualifiedName.splitOnDots()
        guard let last = parts.last else { return false }
        for marker in primitiveTokens {
            if parts.dropLast().contains(where: { $0 == marker }) { return true }
            if last.hasPrefix(marker), last.count > marker.count,
               last[last.index(last.startIndex, offsetBy: marker.count)].isUppercase { return true }
        }
        return false
    }

    private static func asciiMarkers(_ tokens: [String]) -> [[UInt8]]? {
        tokens.allSatisfy(\.isAllASCII) ? tokens.map { Array($0.utf8) } : nil
    }

    /// `isPrimitive` for ASCII markers over an ASCII name's bytes: the name's parts found once and each compared with
    /// every marker (a walk of the name per marker cost ~1,100 instructions a name for the six default markers).
    private static func isPrimitive(_ name: UnsafeBufferPointer<UInt8>, markers: [[UInt8]]) -> Bool {
        let dot = UInt8(ascii: ".")
        guard let last = lastDottedPart(of: name, before: name.count) else { return false }
        let (lastStart, end) = (last.lowerBound, last.upperBound)
        func matches(_ marker: [UInt8], at start: Int) -> Bool {
            marker.withUnsafeBufferPointer { marker in
                marker.isEmpty || memcmp(name.baseAddress! + start, marker.baseAddress!, marker.count) == 0
            }
        }
        // A part before the last equal to a marker (parts are never empty: an empty marker names none).
        var start = 0
        while start < lastStart {
            var partEnd = start
            while name[partEnd] != dot { partEnd += 1 }
            for marker in markers where partEnd - start == marker.count && !marker.isEmpty && matches(marker, at: start) { return true }
            start = partEnd + 1
        }
        // The last part starts with a marker, followed by an uppercase letter.
        for marker in markers where end - lastStart > marker.count && matches(marker, at: lastStart) {
            let next = name[lastStart + marker.count]
            if next >= UInt8(ascii: "A") && next <= UInt8(ascii: "Z") { return true }
        }
        return false
    }

    public func severity(of rule: String) -> Severity { severities[rule] ?? .error }

    public func thresholds(for appearance: Appearance) -> ContrastThresholds {
        appearance.isHighContrast ? (highContrast ?? contrast) : contrast
    }

    /// The minimum ratio for a role, nil when the role is exempt (disabled, decorative, background).
    public func required(for role: Role, in appearance: Appearance) -> Double? {
        let t = thresholds(for: appearance)
        switch role {
        case .text: return t.text
        case .largeText: return t.largeText
        case .graphic: return t.graphic
        case .disabled, .decorative, .background: return nil
        }
    }

    /// Whether a font counts as large text under this policy; false when the size is unknown (the safe side).
    public func isLargeText(_ font: FontValue) -> Bool {
        guard let size = font.size else { return false }
        let bold = font.numericWeight >= 700
        switch largeText {
        case .wcag: return size >= 18 || (size >= 14 && bold)
        case .appleHIG: return size >= 18 || bold
        }
    }
}
