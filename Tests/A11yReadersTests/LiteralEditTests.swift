import A11yEngine
@testable import A11yReaders
import Foundation
import Testing

/// A save that changes one literal is applied to the previous parse instead of parsing the file again; the result
/// must be exactly what parsing the new text gives, and anything that is not such an edit must be left to the parser.
struct LiteralEditTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let reader = SwiftSourceReader()

    /// Every Swift file of the example and the fixtures.
    static func swiftFiles() throws -> [String] {
        var files: [String] = []
        for folder in ["Examples/DesignSystem", "Tests/Fixtures"] {
            let base = root.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(atPath: base.path)
            while let relative = enumerator?.nextObject() as? String {
                if relative.hasSuffix(".swift") { files.append(base.appendingPathComponent(relative).path) }
            }
        }
        return files.sorted()
    }

    /// The patched parse when `edited` is a literal edit of `original`, else nil.
    static func patched(_ original: String, _ edited: String, file: String = "Edited.swift") -> ParsedSource? {
        LiteralEdit(from: Array(original.utf8), to: Array(edited.utf8))?.apply(to: reader.read(source: original, file: file))
    }

    /// Each hex color string and each number of every file, changed one at a time (numbers to a longer text, so later
    /// nodes on the line move): wherever the edit is taken as a literal edit, the patch equals a fresh parse.
    @Test func patchingEqualsParsingForEveryLiteralOfTheFixtures() throws {
        let hex = try NSRegularExpression(pattern: ##""#[0-9A-Fa-f]{6}""##)
        let number = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.#$])[0-9]+(\.[0-9]+)?(?![A-Za-z0-9_])"#)
        var patchedCount = 0, literalCount = 0
        for file in try Self.swiftFiles() {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let ns = text as NSString
            let whole = NSRange(location: 0, length: ns.length)
            var edits: [String] = []
            for match in hex.matches(in: text, range: whole).prefix(25) {
                let literal = ns.substring(with: match.range)
                edits.append(ns.replacingCharacters(in: match.range, with: literal == "\"#5A5A60\"" ? "\"#606060\"" : "\"#5A5A60\""))
            }
            for match in number.matches(in: text, range: whole).prefix(25) {
                edits.append(ns.replacingCharacters(in: match.range, with: ns.substring(with: match.range) + "7"))
            }
            let original = Self.reader.read(source: text, file: file)
            for edited in edits {
                literalCount += 1
                guard let edit = LiteralEdit(from: Array(text.utf8), to: Array(edited.utf8)), let patched = edit.apply(to: original) else { continue }
                patchedCount += 1
                #expect(patched == Self.reader.read(source: edited, file: file), "\(file) at \(edit.line):\(edit.column)")
            }
        }
        // Most literals of real token files sit in IR nodes; far from all would mean the edit is never taken.
        #expect(literalCount > 200)
        #expect(patchedCount * 2 > literalCount, "\(patchedCount) of \(literalCount) edits patched")
    }

    @Test func aHexColorEditIsPatchedInPlace() throws {
        let original = "enum Palette {\n    static let ink = Color(hex: \"#1A73E8\"), paper = Color(hex: \"#FFFFFF\")\n}\n"
        let edited = original.replacingOccurrences(of: "#1A73E8", with: "#1967D2")
        let edit = try #require(LiteralEdit(from: Array(original.utf8), to: Array(edited.utf8)))
        #expect(edit.line == 2 && edit.column == 33 && edit.before == .string("#1A73E8") && edit.after == .string("#1967D2") && edit.shift == 0)
        let patched = try #require(Self.patched(original, edited))
        #expect(patched == Self.reader.read(source: edited, file: "Edited.swift"))
    }

    @Test func aLongerNumberMovesLaterNodesOfItsLine() throws {
        let original = "enum Layout {\n    static let size = max(4.5, spacing * 2)\n    static let spacing = 8.0\n}\n"
        let edited = original.replacingOccurrences(of: "4.5", with: "44.25")
        let patched = try #require(Self.patched(original, edited))
        #expect(patched == Self.reader.read(source: edited, file: "Edited.swift"))
    }

    @Test func editsThatAreNotOneLiteralAreLeftToTheParser() {
        let original = """
            enum Palette {
                // The brand blue is "#1A73E8".
                static let ink = Color(hex: "#1A73E8")
                static let paper = Color(hex: "#FFFFFF")
                static let note = \"\"\"
                    #000000
                    \"\"\"
                static let raw = Color(hex: #"#101010"#)
                static let size = 44
            }
            """
        let cases: [(String, String)] = [
            ("a literal in a comment", original.replacingOccurrences(of: "is \"#1A73E8\"", with: "is \"#2A73E8\"")),
            ("two literals", original.replacingOccurrences(of: "#1A73E8\")", with: "#2A73E8\")").replacingOccurrences(of: "#FFFFFF", with: "#FFFFFE")),
            ("a closing quote removed", original.replacingOccurrences(of: "#FFFFFF\")", with: "#FFFFFF)")),
            ("a multi-line string", original.replacingOccurrences(of: "#000000", with: "#000001")),
            ("a raw string", original.replacingOccurrences(of: "#101010", with: "#101011")),
            ("a number turned into a name", original.replacingOccurrences(of: "44", with: "4x")),
            ("code around a literal", original.replacingOccurrences(of: "size = 44", with: "size = -44")),
            ("no change", original),
        ]
        for (what, edited) in cases {
            #expect(Self.patched(original, edited) == nil, "\(what)")
        }
    }

    /// The workspace takes the patch on a save and the next audit is the one a fresh workspace gives.
    @Test func aWorkspaceAuditAfterALiteralEditEqualsAFreshOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-literal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["DesignTokens.swift", "NativeComponentStyling.swift"] {
            try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Examples/DesignSystem/" + name), to: dir.appendingPathComponent(name))
        }
        let workspace = try Workspace(root: dir.path)
        var previous = Auditor.run(workspace.refresh())
        let tokens = dir.appendingPathComponent("DesignTokens.swift")
        // Saves in a row, each changing one more hex color (gray, then a red, ...): every audit equals a fresh one.
        var text = try String(contentsOf: tokens, encoding: .utf8)
        let literals = try NSRegularExpression(pattern: ##""#[0-9A-Fa-f]{6}""##).matches(in: text, range: NSRange(location: 0, length: (text as NSString).length))
        #expect(literals.count > 8)
        for (i, match) in literals.prefix(8).enumerated() {
            text = (text as NSString).replacingCharacters(in: match.range, with: ["\"#777777\"", "\"#D01010\"", "\"#F5F5F5\"", "\"#202020\""][i % 4])
            try text.write(to: tokens, atomically: true, encoding: .utf8)
            let incremental = Auditor.run(workspace.refresh(changed: ["DesignTokens.swift"]), previous: previous)
            let fresh = Auditor.run(try Workspace(root: dir.path).refresh()).audit
            #expect(incremental.audit == fresh, "save \(i + 1)")
            #expect(incremental.audit != previous.audit || i > 0, "save \(i + 1) changed nothing")
            previous = incremental
        }
    }
}
