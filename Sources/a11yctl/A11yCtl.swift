import A11yEngine
import A11yOutput
import A11yReaders
import ArgumentParser
import Foundation

/// Exit codes (documented in README and `a11yctl --help`).
enum Exit {
    static let clean: Int32 = 0
    static let findings: Int32 = 1
    static let usage: Int32 = 2
}

@main
struct A11yCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "a11yctl",
        abstract: "Audit an iOS/SwiftUI design system for WCAG contrast in light and dark mode.",
        discussion: """
            Reads DesignTokens.swift, component styling files (enum XStyling { struct Colors/Layout/Typography }) \
            and the project's .a11yd.yml, pairs every foreground with the backgrounds it is drawn on, and checks \
            each pair in every appearance against the policy (default: WCAG 2.1 AA).

            EXAMPLES
              a11yctl audit Examples/DesignSystem
              a11yctl audit Examples/DesignSystem --format json > audit.json
              a11yctl audit MyApp/Design --policy apple-hig --fail-on warning
              a11yctl pairs Examples/DesignSystem

            EXIT CODES
              0  no finding at or above --fail-on (default: error)
              1  findings at or above --fail-on
              2  usage or configuration error (bad option, unknown policy, invalid .a11yd.yml)
            """,
        subcommands: [Audit.self, Pairs.self])

    /// ArgumentParser exits 64 on usage errors; this tool promises 2, so errors are mapped here.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            Foundation.exit(Exit.usage)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(Exit.clean)
            }
            if code.rawValue == Exit.findings, error is ExitCode { Foundation.exit(Exit.findings) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(Exit.usage)
        }
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json
}

struct AuditOptions: ParsableArguments {
    @Argument(help: "The design system directory (holding .a11yd.yml, Swift token and styling files).")
    var path: String = "."

    @Option(help: "Policy preset name (wcag21-aa, wcag21-aaa, wcag22-aa, apple-hig) or a policy file; overrides .a11yd.yml.")
    var policy: String?

    func load() throws -> AuditResult {
        let loaded = try DesignSystemLoader().load(root: path, policyOverride: policy)
        return Auditor.run(loaded.input)
    }
}

extension A11yCtl {
    struct Audit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Audit a design system once (no daemon) and print every pairing and finding.",
            discussion: """
                The table groups pairs by component: each foreground/background pair in each appearance with its \
                WCAG ratio (rounded down: 4.496 shows as 4.49 and fails 4.5), the required ratio and the result, \
                followed by findings as file:line:column. Swatches are shown on color terminals; NO_COLOR or a pipe \
                turns them off. JSON output is deterministic (docs/audit-json.md).
                """)

        @OptionGroup var options: AuditOptions

        @Option(help: "Output format: table or json.")
        var format: OutputFormat = .table

        @Option(help: "Lowest severity that makes the exit code 1: error, warning or info.")
        var failOn: SeverityArgument = .error

        @Option(help: "Colored output: auto (only on a terminal, off with NO_COLOR), always, never.")
        var color: ColorArgument = .auto

        func run() throws {
            let result = try options.load()
            switch format {
            case .json: FileHandle.standardOutput.write(try AuditJSON.encode(result.audit))
            case .table: print(AuditTable(color: color.choice.enabled()).render(result.audit), terminator: "")
            }
            if result.audit.findings.contains(where: { $0.severity >= failOn.severity }) { throw ExitCode(Exit.findings) }
        }
    }

    struct Pairs: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every foreground/background pairing and the reason it exists.",
            discussion: """
                Reasons, in order of trust: declared (pairs: in .a11yd.yml), component (a text or graphic color of a \
                styling enum paired with the same enum's backgrounds), naming-convention (textOnBrand on surfaceBrand, \
                badgeText on badge), default-surface (no or clear background: the default surfaces, configured with \
                surfaces: or inferred from token names).
                """)

        @OptionGroup var options: AuditOptions

        @Option(help: "Output format: table or json.")
        var format: OutputFormat = .table

        func run() throws {
            let listing = PairsListing(try options.load().context)
            switch format {
            case .json: FileHandle.standardOutput.write(try AuditJSON.encode(listing))
            case .table: print(listing.render(), terminator: "")
            }
        }
    }
}

struct SeverityArgument: ExpressibleByArgument {
    var severity: Severity
    static let error = SeverityArgument(severity: .error)
    init(severity: Severity) { self.severity = severity }
    init?(argument: String) {
        guard let s = Severity(rawValue: argument) else { return nil }
        severity = s
    }
    static var allValueStrings: [String] { Severity.allCases.map(\.rawValue) }
    var defaultValueDescription: String { severity.rawValue }
}

struct ColorArgument: ExpressibleByArgument {
    var choice: ColorChoice
    static let auto = ColorArgument(choice: .auto)
    init(choice: ColorChoice) { self.choice = choice }
    init?(argument: String) {
        guard let c = ColorChoice(rawValue: argument) else { return nil }
        choice = c
    }
    static var allValueStrings: [String] { ColorChoice.allCases.map(\.rawValue) }
    var defaultValueDescription: String { choice.rawValue }
}
