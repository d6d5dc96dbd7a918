import A11yEngine
import A11yOutput
import A11yReaders
import CMalloc
import ArgumentParser
import Foundation

/// Exit codes (documented in README and `a11yctl --help`).
enum Exit {
    static let clean: Int32 = 0
    static let findings: Int32 = 1
    static let usage: Int32 = 2
    /// sysexits' EX_IOERR: the output could not be written.
    static let output: Int32 = 74
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
              a11yctl audit MyApp/Design --format sarif > a11yd.sarif
              # adopt: accept today's findings, then report only new ones
              a11yctl audit MyApp/Design --write-baseline a11yd-baseline.json
              a11yctl audit MyApp/Design --baseline a11yd-baseline.json
              a11yctl pairs Examples/DesignSystem
              a11yctl rules

            EXIT CODES
              0  no finding at or above --fail-on (default: error)
              1  findings at or above --fail-on
              2  usage or configuration error (bad option, unknown policy, invalid
                 .a11yd.yml, no design-system file found)
              69 no daemon answers on the socket (status, latest, watch, history,
                 diff, run, reload)
              74 the output could not be written (a full disk, a pipe closed early)

            DAEMON
              a11yd --root Examples/DesignSystem &      # or the systemd user service
              a11yctl status; a11yctl latest; a11yctl watch
            """,
        version: toolVersion,
        subcommands: [Audit.self, Pairs.self, Explain.self, Rules.self, Status.self, Latest.self, Watch.self, History.self,
                      Diff.self, Run.self, Reload.self, Service.self])

    /// ArgumentParser exits 64 on usage errors; this tool promises 2, so errors are mapped here. Every error is one
    /// style: `a11yctl: error: message`, or `file:line:column: error: message` when it has a location (as compilers do).
    static func main() {
        // Two malloc arenas, the main heap reserved at once on huge pages (BENCHMARKS.md: peak memory of a 5,000-token
        // audit 107 -> 76 MB; elevate-ios's cold audit -11 ms, ~7,800 -> ~1,600 page faults; two arenas, not one: -9%).
        a11y_malloc_for_one_shot_audit()
        let arguments = Array(CommandLine.arguments.dropFirst())
        let auditRequest = AuditRequest(readingQuickly: arguments)
        // The worker pool's threads are started first: the first parallel phase (reading the files) otherwise waited for
        // them. They spin between the audit's phases (WorkerPool) for as long as it runs. Meanwhile the first reads the
        // audit's Swift files ahead while the command loads its configuration (`ReadAhead`), or, for other commands,
        // audits a tiny design system (`warmUpAuditPath`).
        // The command runs on a thread with a deep stack, as the pool's are, so that it reads files itself too (each
        // parallel phase: this thread and one pool thread per other core). Whichever of them makes the second malloc
        // arena puts it on huge pages, as the main heap is.
        WorkerPool.shared.start(threads: activeCores - 1, spinMilliseconds: 50) {
            a11y_malloc_thread_arena_on_huge_pages()
            // (On one core it would only take turns with the command.)
            guard activeCores > 1 else { return }
            if let auditRequest { ReadAhead.shared.read(root: auditRequest.path) } else { warmUpAuditPath() }
        }
        WorkerPool.runOnDeepStack {
            a11y_malloc_thread_arena_on_huge_pages()
            runCommand(arguments, auditRequest)
        }
    }

    private static func runCommand(_ arguments: [String], _ auditRequest: AuditRequest?) {
        do {
            if let auditRequest { return try auditRequest.run() }
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let error as ConfigurationError {
            reportError(error)
            Foundation.exit(Exit.usage)
        } catch let error as OutputWriteError {
            reportError(error.description)
            Foundation.exit(Exit.output)
        } catch let exitCode as ExitCode where exitCode != .success {
            // Commands that exit with a code have said what there was to say. Caught before asking ArgumentParser's
            // `exitCode(for:)`, which builds the command's whole help text (~8 M instructions, 2-3 ms at the end of
            // every audit with findings) to find the code an `ExitCode` holds.
            Foundation.exit(exitCode == .validationFailure ? Exit.usage : exitCode.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(Exit.clean)
            }
            var message = fullMessage(for: error)
            for prefix in ["Error: ", "error: "] where message.hasPrefix(prefix) { message.removeFirst(prefix.count) }
            FileHandle.standardError.write(Data("a11yctl: error: \(message)\n".utf8))
            Foundation.exit(Exit.usage)
        }
    }
}

/// What `a11yctl audit` is asked to do, however its arguments were read.
struct AuditRequest {
    var path = "."
    var policy: String?
    var format = AuditFormat.table
    var failOn = Severity.error
    var color = ColorChoice.auto
    var writeBaseline: String?
    var baseline: String?
    var strictBaseline = false
}

// In an extension, so that the memberwise initialiser (`Audit.run`'s) is kept.
extension AuditRequest {
    /// `audit`'s usual arguments, read here: a path and `--name value` (or `--name=value`) options, each once, with valid
    /// values. ArgumentParser took ~3 ms to read them (reflection over the command's properties, each property type a
    /// look-up among the binary's 11,375 conformance records), a fifth of a small system's audit. Nil for anything
    /// else (help, a short option, a mistyped or repeated one, an invalid value, `--`, another command): ArgumentParser
    /// reads those, with its messages. `CLITests` checks that both readings give the same results.
    init?(readingQuickly arguments: [String]) {
        guard arguments.first == A11yCtl.Audit.configuration.commandName else { return nil }
        var seen: Set<String> = []
        var pathGiven = false
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--") else {
                guard !argument.hasPrefix("-"), !pathGiven else { return nil }
                (path, pathGiven) = (argument, true)
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard seen.insert(name).inserted else { return nil }
            if name == "strict-baseline" {
                guard value == nil else { return nil }
                strictBaseline = true
                continue
            }
            if value == nil, let next = rest.first, !next.hasPrefix("-") { value = rest.popFirst() }
            guard let value, !value.isEmpty else { return nil }
            switch name {
            case "policy": policy = value
            case "format": guard let f = AuditFormat(rawValue: value) else { return nil }; format = f
            case "fail-on": guard let f = Severity(rawValue: value) else { return nil }; failOn = f
            case "color": guard let c = ColorChoice(rawValue: value) else { return nil }; color = c
            case "write-baseline": writeBaseline = value
            case "baseline": baseline = value
            default: return nil
            }
        }
        if strictBaseline && baseline == nil { return nil }
    }
}

extension AuditRequest {
    func run() throws {
        var result = try AuditOptions.load(path: path, policy: policy)
        if let path = writeBaseline {
            let data = try AuditJSON.encode(A11yEngine.Baseline(findings: result.audit.findings))
            guard FileManager.default.createFile(atPath: path, contents: data) else {
                throw ConfigurationError("cannot write baseline \(path)")
            }
        }
        var fixed: [A11yEngine.Baseline.Entry] = []
        if let path = baseline {
            guard let data = FileManager.default.contents(atPath: path) else { throw ConfigurationError("cannot read baseline \(path)") }
            let accepted: A11yEngine.Baseline
            do { accepted = try JSONDecoder().decode(A11yEngine.Baseline.self, from: data) } catch {
                throw ConfigurationError("\(path) is not an a11yd baseline: \(error)")
            }
            let comparison = accepted.compare(result.audit.findings)
            result.audit.findings = comparison.new
            fixed = comparison.fixed
        }
        switch format {
        case .json: try AuditJSON.write(result.audit, to: FileHandle.standardOutput)
        case .sarif: try SARIF.write(result.audit, toolVersion: toolVersion, to: FileHandle.standardOutput)
        case .table: AuditTable(color: color.enabled(), width: terminalWidth()).write(result.audit) { print($0, terminator: "") }
        }
        if !fixed.isEmpty {
            let list = fixed.map { "  \($0.rule) \($0.subject)\($0.appearance.map { " (\($0.rawValue))" } ?? "")" }.joined(separator: "\n")
            FileHandle.standardError.write(Data("\(fixed.count) baselined finding(s) no longer occur; rewrite the baseline with --write-baseline:\n\(list)\n".utf8))
            if strictBaseline { throw ExitCode(Exit.findings) }
        }
        if result.audit.findings.contains(where: { $0.severity >= failOn }) { throw ExitCode(Exit.findings) }
    }
}

/// Writes one error line on stderr in the tool's one style (see `A11yCtl.main`).
func reportError(_ error: ConfigurationError) {
    let line = error.location == nil ? "a11yctl: \(error)" : "\(error)"
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

func reportError(_ message: String) {
    FileHandle.standardError.write(Data("a11yctl: error: \(message)\n".utf8))
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json
}

enum AuditFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, sarif
}

let toolVersion = "0.1.0"

struct AuditOptions: ParsableArguments {
    @Argument(help: "The design system directory (holding .a11yd.yml, Swift token and styling files).")
    var path: String = "."

    @Option(help: "Policy preset name (wcag21-aa, wcag21-aaa, wcag22-aa, apple-hig) or a policy file; overrides .a11yd.yml.")
    var policy: String?

    func load() throws -> AuditResult { try Self.load(path: path, policy: policy) }

    static func load(path: String, policy: String?) throws -> AuditResult {
        let workspace = try Workspace(root: path, policyOverride: policy)
        let input = workspace.refresh()
        if let error = workspace.nothingReadError(input) { throw error }
        let result = Auditor.run(input)
        keptUntilExit += [workspace, input, result]
        return result
    }
}

/// What a one-shot command read and computed, kept until the process exits: freeing a large audit's files, token
/// graph and results object by object took ~20 ms of a 5,000-token audit, which exiting does at once.
nonisolated(unsafe) var keptUntilExit: [Any] = []

extension A11yCtl {
    struct Audit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "audit",
            abstract: "Audit a design system once (no daemon) and print every pairing and finding.",
            discussion: """
                The table groups pairs by component: each foreground/background pair in each appearance with its \
                WCAG ratio (rounded down: 4.496 shows as 4.49 and fails 4.5), the required ratio and the result, \
                followed by findings as file:line:column. A design system with themes (palettes, a theme enum, \
                palette types) is measured theme by theme: each component's rows are grouped under its themes, and \
                `a11yctl pairs PATH` shows how each theme was found and drawn (`themes:` in .a11yd.yml overrides). \
                Swatches are shown on color terminals; NO_COLOR or a pipe turns them off. JSON output is \
                deterministic (docs/audit-json.md).
                """)

        // `AuditRequest(readingQuickly:)` reads the usual arguments without ArgumentParser; an option it does not know
        // (one added here) sends the whole command line to ArgumentParser, so it only needs teaching to be fast.
        @OptionGroup var options: AuditOptions

        @Option(help: "Output format: table, json or sarif (SARIF 2.1.0 for code scanning).")
        var format: AuditFormat = .table

        @Option(help: "Lowest severity that makes the exit code 1: error, warning or info.")
        var failOn: SeverityArgument = .error

        @Option(help: "Colored output: auto (only on a terminal, off with NO_COLOR), always, never.")
        var color: ColorArgument = .auto

        @Option(help: ArgumentHelp("Write the current findings (warning and above) to FILE as a baseline, then report as usual.", valueName: "FILE"))
        var writeBaseline: String?

        @Option(help: ArgumentHelp("Report only findings not in the baseline FILE (matched by rule, subject and appearance, not line).", valueName: "FILE"))
        var baseline: String?

        @Flag(help: "With --baseline: also fail when a baselined finding no longer occurs, so the baseline is kept tight.")
        var strictBaseline = false

        func validate() throws {
            if strictBaseline && baseline == nil { throw ValidationError("--strict-baseline needs --baseline FILE") }
        }

        func run() throws {
            try AuditRequest(path: options.path, policy: options.policy, format: format, failOn: failOn.severity, color: color.choice,
                             writeBaseline: writeBaseline, baseline: baseline, strictBaseline: strictBaseline).run()
        }
    }

    struct Pairs: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pairs",
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

extension A11yCtl {
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explain",
            abstract: "Explain a pairing: how both colors resolve, why they are paired, and the ratio in each appearance.",
            discussion: """
                FG and BG are property names (placeholder, NativePickerStyling.Colors.placeholder) or token names \
                (appTextMuted). Two colors that no pairing links are measured anyway, as text.
                  a11yctl explain placeholder menuBackground Examples/DesignSystem
                """)

        @Argument(help: "Foreground property or token.") var foreground: String
        @Argument(help: "Background property or token.") var background: String
        @OptionGroup var options: AuditOptions

        @Option(help: "Output format: table or json.")
        var format: OutputFormat = .table

        func run() throws {
            let context = try options.load().context
            guard let explanations = PairExplanation.explain(foreground: foreground, background: background, in: context) else {
                reportError("no color named \(foreground) or \(background) in \(options.path)")
                throw ExitCode(Exit.usage)
            }
            switch format {
            case .json: FileHandle.standardOutput.write(try AuditJSON.encode(explanations))
            case .table: print(ExplanationText.render(explanations), terminator: "")
            }
        }
    }

    struct Rules: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rules",
            abstract: "Describe every rule: id, what it checks, the standard it comes from, examples (Markdown, as docs/rules.md).")

        func run() throws {
            print(RulesDocument.markdown(), terminator: "")
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
    /// Shell completions offer the values (a struct, unlike a CaseIterable enum, gets no list by default).
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
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
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
    var defaultValueDescription: String { choice.rawValue }
}

/// A two-token design system audited and written as JSON once, on a pool thread as a command other than the usual
/// `audit` starts (that one reads its files ahead instead: `ReadAhead`): the runtime's
/// first look-ups of the audit's types (conformances among 11,375 records, generic metadata) and
/// the engine's tables are made then, off the command's path (BENCHMARKS.md: DesignResourcesKit -9% and -13%, the 5k
/// system -7% and -5.5%, alternating 31 runs). Nothing of it reaches the command's audit.
func warmUpAuditPath() {
    let source = """
        import SwiftUI
        extension Color {
            static func adaptive(light: String, dark: String) -> Color {
                Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(Color(hex: dark)) : UIColor(Color(hex: light)) })
            }
            static let warmUpInk = adaptive(light: "#202020", dark: "#F0F0F0")
            static let warmUpSurface = adaptive(light: "#FFFFFF", dark: "#101010")
        }
        enum WarmUpStyling {
            struct Colors {
                static let label = Color.warmUpInk
                static let background = Color.warmUpSurface
            }
        }
        """
    let parsed = SwiftSourceReader().read(source: source, file: "a11yctl-warm-up.swift")
    let policy = Policy(id: "warm-up", name: "warm-up", sources: [], largeText: .wcag, contrast: .init(text: 4.5, largeText: 3, graphic: 3),
                        highContrast: nil, severities: [:])
    let result = Auditor.run(AuditInput(sources: [parsed], configuration: ProjectConfiguration(), policy: policy, inputDigest: ""))
    // Written as an audit's JSON is (streamed), so that the runtime's first answers that path needs are found here.
    try? SortedJSONEncoder(pretty: true).write(result.audit) { _ in }
}
