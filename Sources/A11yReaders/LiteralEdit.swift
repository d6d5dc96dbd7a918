import A11yEngine

/// A save that changed one string or number literal and nothing else, the designer's most common edit (`"#1A73E8"`
/// to `"#1967D2"`, `44` to `48`). The previous parse of the file with that literal's IR node replaced is what parsing
/// the new text gives, at a fraction of the cost of parsing a large token file again. Anything else (two literals,
/// code, comments, a literal the IR holds in no node) is not a literal edit: the file is parsed again.
struct LiteralEdit {
    /// Where the literal starts (its opening quote or first digit), as the IR locates it.
    let line: Int
    let column: Int
    let before: Expr.Kind
    let after: Expr.Kind
    /// New length minus old length, in bytes: later nodes on the same line move by it.
    let shift: Int

    /// The literal edit that turns `old` into `new`, or nil when the bytes differ in any other way.
    init?(from old: [UInt8], to new: [UInt8]) {
        let limit = min(old.count, new.count)
        var prefix = 0
        while prefix < limit && old[prefix] == new[prefix] { prefix += 1 }
        guard prefix < max(old.count, new.count) else { return nil }
        var suffix = 0
        while suffix < limit - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldEnd = old.count - suffix, newEnd = new.count - suffix
        guard let literal = Self.stringLiteral(old, new, prefix: prefix, oldEnd: oldEnd, newEnd: newEnd)
                ?? Self.numberLiteral(old, new, prefix: prefix, oldEnd: oldEnd, newEnd: newEnd) else { return nil }
        var line = 1, lineStart = 0
        for i in 0..<literal.start where old[i] == UInt8(ascii: "\n") { line += 1; lineStart = i + 1 }
        self.line = line
        column = literal.start - lineStart + 1
        before = literal.before
        after = literal.after
        shift = new.count - old.count
    }

    private typealias Found = (start: Int, before: Expr.Kind, after: Expr.Kind)

    private static let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n"), backslash = UInt8(ascii: "\\"), hash = UInt8(ascii: "#")

    /// A single-line string literal without escapes or interpolation whose content holds the whole change.
    private static func stringLiteral(_ old: [UInt8], _ new: [UInt8], prefix: Int, oldEnd: Int, newEnd: Int) -> Found? {
        func isContent(_ b: UInt8) -> Bool { b != quote && b != newline && b != backslash && b != UInt8(ascii: "\r") }
        var open = prefix - 1
        while open >= 0 && isContent(old[open]) { open -= 1 }
        guard open >= 0, old[open] == quote else { return nil }
        func close(_ bytes: [UInt8], end: Int) -> Int? {
            var i = prefix
            while i < bytes.count && isContent(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == quote, i >= end else { return nil }
            // `"""` and raw strings (`#"..."#`) are other literals.
            if i + 1 < bytes.count, bytes[i + 1] == quote || bytes[i + 1] == hash { return nil }
            return i
        }
        if open > 0, old[open - 1] == quote || old[open - 1] == hash { return nil }
        guard let oldClose = close(old, end: oldEnd), let newClose = close(new, end: newEnd),
              let before = String(validating: old[(open + 1)..<oldClose], as: UTF8.self),
              let after = String(validating: new[(open + 1)..<newClose], as: UTF8.self) else { return nil }
        return (open, .string(before), .string(after))
    }

    /// An integer or float literal holding the whole change, read as the IR builder reads it.
    private static func numberLiteral(_ old: [UInt8], _ new: [UInt8], prefix: Int, oldEnd: Int, newEnd: Int) -> Found? {
        func isTokenByte(_ b: UInt8) -> Bool {
            (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
                || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || b == UInt8(ascii: "_") || b == UInt8(ascii: ".")
        }
        var start = prefix
        while start > 0 && isTokenByte(old[start - 1]) { start -= 1 }
        func value(_ bytes: [UInt8], end: Int) -> Double? {
            var i = prefix
            while i < bytes.count && isTokenByte(bytes[i]) { i += 1 }
            guard i >= end, start < i, bytes[start] >= UInt8(ascii: "0"), bytes[start] <= UInt8(ascii: "9"),
                  let text = String(validating: bytes[start..<i], as: UTF8.self) else { return nil }
            let radix = text.hasPrefix("0x") || text.hasPrefix("0b") || text.hasPrefix("0o")
            // Hex floats and a trailing `.` (member access on a literal) are left to the parser.
            if radix && (text.contains(".") || text.contains("p") || text.contains("P")) || text.hasSuffix(".") { return nil }
            let isFloat = !radix && (text.contains(".") || text.contains("e") || text.contains("E"))
            return SwiftIRBuilder.numberLiteral(text, isFloat: isFloat)
        }
        guard let before = value(old, end: oldEnd), let after = value(new, end: newEnd) else { return nil }
        return (start, .number(before), .number(after))
    }

    /// `source` (the previous parse) with the literal replaced, or nil when the IR holds no node for it (a literal in a
    /// comment, an inactive `#if` branch, syntax the IR does not model) or a shift would move nodes outside the
    /// declaration that holds it.
    func apply(to source: ParsedSource) -> ParsedSource? {
        let (line, column, shift, before, after) = (line, column, shift, before, after)
        let at = A11yEngine.SourceLocation(file: source.file, line: line, column: column)
        // Members are flat (a nested type's members are declarations of their own), so the literal belongs to the
        // declarations starting last before it (several when one binding declares several names).
        guard let start = source.declarations.lazy.map(\.location).filter({ $0 <= at }).max() else { return nil }
        let holders = source.declarations.indices.filter { source.declarations[$0].location == start }
        if shift != 0 {
            func moves(_ l: A11yEngine.SourceLocation) -> Bool { l.line == line && l.column > column }
            let others = source.declarations.indices.filter { !holders.contains($0) }.map { source.declarations[$0].location }
            if others.contains(where: moves) || source.types.contains(where: { moves($0.location) })
                || source.components.contains(where: { moves($0.location) }) || source.findings.contains(where: { $0.location.map(moves) ?? false }) {
                return nil
            }
        }
        final class Count { var replaced = 0 }
        let count = Count()
        let rewrite = IRRewrite(
            location: { l in l.line == line && l.column > column ? A11yEngine.SourceLocation(file: l.file, line: l.line, column: l.column + shift) : l },
            expression: { e in
                guard e.location == at, e.kind == before else { return e }
                count.replaced += 1
                return Expr(after, at: at)
            })
        var patched = source
        for i in holders { patched.declarations[i] = rewrite.apply(source.declarations[i]) }
        return count.replaced > 0 ? patched : nil
    }
}
