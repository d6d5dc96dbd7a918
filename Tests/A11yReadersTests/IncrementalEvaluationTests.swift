@testable import A11yEngine
import A11yReaders
import Foundation
import Testing

/// The daemon's next audit starts from the last one: static members an edit did not reach keep their values. The
/// audit must be exactly the one a fresh run gives, and only what the edit reached may be evaluated again.
struct IncrementalEvaluationTests {
    static let tokens = """
        import SwiftUI
        import UIKit

        extension UIColor {
            static func adaptive(light: UIColor, dark: UIColor) -> UIColor {
                UIColor { $0.userInterfaceStyle == .dark ? dark : light }
            }
        }

        extension Color {
            static let inkPrimitive = Color(UIColor.adaptive(light: UIColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1), dark: .white))
            static let paperPrimitive = Color(UIColor.adaptive(light: .white, dark: UIColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)))
            static let grayPrimitive = Color(red: 0.6, green: 0.6, blue: 0.6)
            static let appTextPrimary = inkPrimitive
            static let appTextSecondary = grayPrimitive.opacity(0.9)
            static let appSurfaceBase = paperPrimitive
        }
        """

    static let styling = """
        import SwiftUI

        enum CardStyling {
            struct Colors {
                static let title = Color.appTextPrimary
                static let subtitle = Color.appTextSecondary
                static let background = Color.appSurfaceBase
            }
        }
        """

    /// Writes the system, audits it, applies `edit` to the token file and audits again with the previous result and
    /// without; returns both audits and the program the incremental one started from.
    /// `preparedForEdits`: the first audit's indexes for edits are made before the edit, as the daemon does once an
    /// audit is published (otherwise the incremental audit makes them).
    static func audits(edit: (String) -> String, tokens: String = tokens, styling: String = styling, preparedForEdits: Bool = false) throws
        -> (incremental: Audit, fresh: Audit, reused: Int, before: Int, reusedPairing: Bool, rereadTokens: Set<String>?) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-incremental-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try tokens.write(to: dir.appendingPathComponent("DesignTokens.swift"), atomically: true, encoding: .utf8)
        try styling.write(to: dir.appendingPathComponent("Styling.swift"), atomically: true, encoding: .utf8)
        let workspace = try Workspace(root: dir.path)
        let first = Auditor.run(workspace.refresh())
        if preparedForEdits { first.context.graph.prepareForEdits() }
        try edit(tokens).write(to: dir.appendingPathComponent("DesignTokens.swift"), atomically: true, encoding: .utf8)
        let input = workspace.refresh(changed: ["DesignTokens.swift"])
        let program = TokenGraph.Program(sources: input.sources, configuration: first.context.graph.program.interpreter.configuration,
                                         previous: first.context.graph.program)
        let incremental = Auditor.run(input, previous: first)
        // Fresh: another workspace parses the edited files from scratch.
        let fresh = Auditor.run(try Workspace(root: dir.path).refresh()).audit
        return (incremental.audit, fresh, program.interpreter.memoisedStaticCount, first.context.graph.interpreter.memoisedStaticCount,
                incremental.carried.reusedPairing, incremental.context.graph.updatedKeys)
    }

    /// Two tokens read the same enum case's computed color, which reads a static: the second reading comes from the
    /// interpreter's memo of instance members, and must still record that it read the static, or an edit of the static
    /// would leave it stale.
    @Test func aMemoisedInstanceMemberStillRecordsTheStaticsItRead() throws {
        let tokens = """
            import SwiftUI

            extension Color {
                static let brandInk = Color(red: 0.1, green: 0.1, blue: 0.1)
                static let paper = Color.white
            }

            enum Tone {
                case primary
                var color: Color {
                    switch self {
                    case .primary: return Color.brandInk
                    }
                }
            }
            """
        let styling = """
            import SwiftUI

            enum CardStyling {
                struct Colors {
                    static let title = Tone.primary.color
                    static let subtitle = Tone.primary.color
                    static let background = Color.paper
                }
            }
            """
        let result = try Self.audits(edit: { $0.replacingOccurrences(of: "red: 0.1, green: 0.1, blue: 0.1", with: "red: 0.9, green: 0.9, blue: 0.9") },
                                     tokens: tokens, styling: styling)
        #expect(result.incremental == result.fresh)
        let failing = Set(result.incremental.pairs.filter { !$0.pass }.map { "\($0.foreground.property ?? "-") \($0.foreground.token ?? "-")" })
        // The edit made the ink light: both properties fail on the paper now.
        #expect(failing == ["title Tone.primary.color", "subtitle Tone.primary.color"], "\(failing)")
    }

    @Test(arguments: [false, true])
    func aValueEditReevaluatesOnlyWhatReadsIt(preparedForEdits: Bool) throws {
        let result = try Self.audits(edit: {
            $0.replacingOccurrences(of: "Color(red: 0.6, green: 0.6, blue: 0.6)", with: "Color(red: 0.9, green: 0.9, blue: 0.9)")
        }, preparedForEdits: preparedForEdits)
        #expect(result.incremental == result.fresh)
        #expect(result.incremental.pairs.contains { $0.foreground.token == "appTextSecondary" && !$0.pass })
        // grayPrimitive changed; appTextSecondary and CardStyling.Colors.subtitle read it: three values are dropped.
        #expect(result.before > 6)
        #expect(result.reused == result.before - 3)
        // Colors changed, nothing pairing reads: the last audit's pairs are taken as they are.
        #expect(result.reusedPairing)
        // Only the declarations that read what changed added their tokens again.
        #expect(result.rereadTokens == ["Color.grayPrimitive", "Color.appTextSecondary", "CardStyling.Colors.subtitle"])
    }

    /// Saves in a row on the fixture systems (token functions, struct-valued tokens, integer hex, traits, view code,
    /// themes), each changing one literal: every audit from the last one equals a fresh audit of the same files.
    @Test(arguments: ["Evaluator", "ViewCode", "Themes"])
    func literalEditsInARowEqualFreshAudits(fixture: String) throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(fixture)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-incremental-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: source, to: dir)
        defer { try? FileManager.default.removeItem(at: dir) }
        let workspace = try Workspace(root: dir.path)
        var previous = Auditor.run(workspace.refresh())
        let literal = try NSRegularExpression(pattern: ##""#[0-9A-Fa-f]{6}"|0x[0-9A-Fa-f]{6}\b|\b0\.[0-9]+\b"##)
        var saves = 0, updatedGraphs = 0
        for file in workspace.listFiles() where file.hasSuffix(".swift") {
            let path = dir.appendingPathComponent(file)
            var text = try String(contentsOf: path, encoding: .utf8)
            for i in 0..<6 {
                // Found again in the edited text: replacements change lengths.
                let matches = literal.matches(in: text, range: NSRange(location: 0, length: (text as NSString).length))
                guard i < matches.count else { break }
                let match = matches[i]
                let old = (text as NSString).substring(with: match.range)
                let new = old.hasPrefix("\"") ? "\"#6B2FA0\"" : old.hasPrefix("0x") ? "0x6B2FA0" : "0.35"
                guard new != old else { continue }
                text = (text as NSString).replacingCharacters(in: match.range, with: new)
                try text.write(to: path, atomically: true, encoding: .utf8)
                let incremental = Auditor.run(workspace.refresh(changed: [file]), previous: previous)
                let freshAudit = Auditor.run(try Workspace(root: dir.path).refresh()).audit
                #expect(incremental.audit == freshAudit, "\(file): \(old) -> \(new)")
                if incremental.context.graph.updatedKeys != nil { updatedGraphs += 1 }
                saves += 1
                previous = incremental
            }
        }
        #expect(saves >= 6)
        // Without themes, most saves update the last graph rather than build a new one.
        if fixture != "Themes" { #expect(updatedGraphs * 2 >= saves, "\(updatedGraphs) of \(saves)") }
    }

    /// An edit that changes what pairing reads (a color becoming clear, a color becoming a number, a token aliasing
    /// another) pairs again, and the audit is still the fresh one.
    @Test func anEditPairingReadsPairsAgain() throws {
        let edits: [(String, (String) -> String)] = [
            ("a color made clear", { $0.replacingOccurrences(of: "grayPrimitive.opacity(0.9)", with: "grayPrimitive.opacity(0)") }),
            ("a color made a number", { $0.replacingOccurrences(of: "static let grayPrimitive = Color(red: 0.6, green: 0.6, blue: 0.6)", with: "static let grayPrimitive = 0.6") }),
            ("an alias changed", { $0.replacingOccurrences(of: "static let appTextPrimary = inkPrimitive", with: "static let appTextPrimary = paperPrimitive") }),
        ]
        for (what, edit) in edits {
            let result = try Self.audits(edit: edit)
            #expect(result.incremental == result.fresh, "\(what)")
            #expect(!result.reusedPairing, "\(what)")
        }
    }

    @Test func aHelperEditOrANewTokenStartsAfresh() throws {
        let helper = try Self.audits { $0.replacingOccurrences(of: "$0.userInterfaceStyle == .dark ? dark : light", with: "$0.userInterfaceStyle == .dark ? light : dark") }
        #expect(helper.incremental == helper.fresh)
        #expect(helper.reused == 0)
        let added = try Self.audits { $0.replacingOccurrences(of: "    static let appSurfaceBase", with: "    static let appTextTertiary = grayPrimitive\n    static let appSurfaceBase") }
        #expect(added.incremental == added.fresh)
        #expect(added.reused == 0)
    }

    @Test func aCycleInTheLastAuditIsNotCarriedOver() throws {
        let cyclic = Self.styling.replacingOccurrences(of: "static let background = Color.appSurfaceBase",
                                                       with: "static let background = Color.appSurfaceBase\n        static let loopA = loopB\n        static let loopB = loopA")
        let result = try Self.audits(edit: { $0.replacingOccurrences(of: "blue: 0.6)", with: "blue: 0.7)") }, styling: cyclic)
        #expect(result.incremental == result.fresh)
        #expect(result.reused == 0)
    }
}
