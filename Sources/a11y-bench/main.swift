import A11yEngine
import A11yOutput
import A11yReaders
import CMalloc
import Foundation

// Benchmark (not a test). `a11y-bench daemon` measures the daemon (see DaemonBench.swift); `a11y-bench themes` a ten-theme system (ThemesBench.swift);
// `a11y-bench peer [--sizes 1000,5000,20000] [--runs 9] [--peers stdlib,coloraide]` a11yctl against bench/peer_audit.py (PeerBench.swift). Default: cold audit of a synthetic design system of 5,000 color tokens and 300 component enums.
// Reports the median in-process audit time (read + parse + resolve + pair + rules) and, when `a11yctl` sits next to
// this executable, the median whole-process time of `a11yctl audit --format json`. Run in release:
//   swift build -c release && .build/release/a11y-bench [--tokens 5000] [--components 300] [--runs 9]

let usage = """
    usage: a11y-bench [SUBCOMMAND] [OPTIONS]   (a benchmark, not a test: build it with -c release)

      (none)            cold audit of a synthetic system, in process and as a whole a11yctl process
                        [--tokens 5000] [--components 300] [--runs 9]
      peer              a11yctl against bench/peer_audit.py on generated systems [--sizes 1000,5000,20000] [--runs 9]
                        [--peers stdlib,coloraide]: the script with standard-library arithmetic, and the issue's
                        (ratios by the coloraide library), by default when .build/peer/site holds coloraide (Debian
                        packages none and set-up installs nothing with pip: BENCHMARKS.md); each round also runs
                        the audit held to one CPU, and the bar is read apart for rounds whose CPUs gave one core's worth
      phases PATH       where a cold audit of PATH spends its time, phase by phase [--runs 9]
      daemon            the real a11yd: save-to-audit latency, idle CPU, save storm, memory
                        [--saves 200] [--settle-ms 30] [--tokens N] [--interval-ms N]
      themes            a ten-theme system [--tokens 150] [--runs 9]
      write DIR         write the synthetic system to DIR (for perf, valgrind or the daemon) [--tokens] [--components]
      edit DIR          the daemon's path in process on a copy of DIR: one literal edited and re-audited [--runs 9]

    a11yctl is looked for next to this executable. Figures and the commands behind them: BENCHMARKS.md.
    """

/// Exits with the usage when asked for it, and with status 2 on an unknown subcommand or option, a missing path, or an
/// option without its number: a mistyped option would otherwise run the default benchmark for minutes.
func validateArguments(_ arguments: [String]) {
    if arguments.contains(where: { ["--help", "-h", "help"].contains($0) }) {
        print(usage)
        exit(0)
    }
    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("a11y-bench: error: \(message)\n\n\(usage)\n".utf8))
        exit(2)
    }
    let withPath: Set = ["phases", "write", "edit"]
    var rest = arguments[...]
    if let first = rest.first, !first.hasPrefix("--") {
        guard withPath.union(["peer", "daemon", "themes"]).contains(first) else { fail("unknown subcommand '\(first)'") }
        rest = rest.dropFirst()
        if withPath.contains(first) {
            guard let path = rest.first, !path.hasPrefix("--") else { fail("\(first) needs a path") }
            if first != "write", !FileManager.default.fileExists(atPath: path) { fail("\(path): no such file or directory") }
            rest = rest.dropFirst()
        }
    }
    let options: Set = ["--tokens", "--components", "--runs", "--saves", "--settle-ms", "--interval-ms", "--sizes"]
    while let option = rest.first {
        if option == "--peers" {
            let names = (rest.dropFirst().first ?? "").split(separator: ",").map(String.init)
            guard !names.isEmpty, names.allSatisfy({ PeerBench.Peer(rawValue: $0) != nil }) else {
                fail("--peers needs a list of stdlib and coloraide, got '\(rest.dropFirst().first ?? "")'")
            }
            rest = rest.dropFirst(2)
            continue
        }
        guard options.contains(option) else { fail("unknown option '\(option)'") }
        let value = rest.dropFirst().first ?? ""
        let numbers = option == "--sizes" ? value.split(separator: ",").map(String.init) : [value]
        let least = ["--settle-ms", "--interval-ms"].contains(option) ? 0 : 1
        guard !numbers.isEmpty, numbers.allSatisfy({ (Int($0) ?? -1) >= least }) else {
            fail("\(option) needs \(least == 0 ? "a number" : "a positive number"), got '\(value)'")
        }
        rest = rest.dropFirst(2)
    }
}

validateArguments(Array(CommandLine.arguments.dropFirst()))

func argument(_ name: String, default value: Int) -> Int {
    let args = CommandLine.arguments
    if let i = args.firstIndex(of: name), i + 1 < args.count, let n = Int(args[i + 1]) { return n }
    return value
}

if CommandLine.arguments.dropFirst().first == "daemon" {
    let tokens = CommandLine.arguments.contains("--tokens") ? argument("--tokens", default: 5000) : nil
    let interval = CommandLine.arguments.contains("--interval-ms") ? argument("--interval-ms", default: 100) : nil
    try DaemonBench.run(saves: argument("--saves", default: 200), settleMilliseconds: argument("--settle-ms", default: 30),
                        syntheticTokens: tokens, intervalMilliseconds: interval)
    exit(0)
}

/// Median whole-process time of `a11yctl audit DIR --format json`, when `a11yctl` sits next to this executable.
func wholeProcessMedian(dir: URL, runs: Int) throws -> Double? {
    let ctl = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("a11yctl")
    guard FileManager.default.isExecutableFile(atPath: ctl.path) else {
        print("a11yctl not found next to a11y-bench; build the a11yctl product to measure the whole process")
        return nil
    }
    var wholeProcess: [Double] = []
    for _ in 0..<runs {
        let process = Process()
        process.executableURL = ctl
        process.arguments = ["audit", dir.path, "--format", "json"]
        process.standardOutput = FileHandle.nullDevice
        let start = DispatchTime.now()
        try process.run()
        process.waitUntilExit()
        wholeProcess.append(milliseconds(since: start))
    }
    return median(wholeProcess)
}

if CommandLine.arguments.dropFirst().first == "themes" {
    try ThemesBench.run(tokensPerTheme: argument("--tokens", default: 150), runs: argument("--runs", default: 9))
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "peer" {
    let args = CommandLine.arguments
    let sizes = args.firstIndex(of: "--sizes").flatMap { i in i + 1 < args.count ? args[i + 1].split(separator: ",").compactMap { Int($0) } : nil }
    // Each named peer once, in the order given.
    let peers = args.firstIndex(of: "--peers").map { i in
        args[i + 1].split(separator: ",").compactMap { PeerBench.Peer(rawValue: String($0)) }.reduce(into: [PeerBench.Peer]()) { if !$0.contains($1) { $0.append($1) } }
    }
    do {
        try PeerBench.run(sizes: sizes ?? [1000, 5000, 20000], runs: argument("--runs", default: 9), peers: peers)
    } catch {
        // exit, not a trap: what was printed before the failure still reaches a pipe.
        FileHandle.standardError.write(Data("a11y-bench: error: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

// `a11y-bench phases DIR [--runs 9]`: where a cold audit of DIR spends its time (medians per phase, in process).
if CommandLine.arguments.dropFirst().first == "phases", CommandLine.arguments.count > 2 {
    // Memory as a11yctl sets it up.
    a11y_malloc_for_one_shot_audit()
    WorkerPool.shared.start(threads: activeCores - 1, spinMilliseconds: 50) { a11y_malloc_thread_arena_on_huge_pages() }
    // On a deep stack, as a11yctl runs its command (so that it reads files itself too).
    WorkerPool.runOnDeepStack {
        a11y_malloc_thread_arena_on_huge_pages()
        do { try timePhases(root: CommandLine.arguments[2]) } catch { fatalError("\(error)") }
    }
    exit(0)
}

/// `a11y-bench phases`: the runs and the medians it prints.
func timePhases(root: String) throws {
    var read: [Double] = [], readCPUs: [Double] = [], audit: [Double] = [], json: [Double] = [], stored: [Double] = []
    let clock = PhaseClock()
    // Peak resident memory after each phase of the first run (VmHWM only grows: each figure is the peak so far).
    var peaks: [String] = ["start \(peakResidentMegabytes()) MB"]
    var heap: [String] = ["start \(heapInUseMegabytes()) MB"]
    for _ in 0..<argument("--runs", default: 9) {
        var start = DispatchTime.now()
        let readCPU = processCPUMilliseconds()
        var input = try Workspace(root: root).refresh()
        read.append(milliseconds(since: start))
        readCPUs.append(processCPUMilliseconds() - readCPU)
        if read.count == 1 { peaks.append("read \(peakResidentMegabytes()) MB"); heap.append("read \(heapInUseMegabytes()) MB") }
        input.onPhase = { clock.finished($0) }
        start = DispatchTime.now()
        clock.start()
        let result = Auditor.run(input)
        audit.append(milliseconds(since: start))
        if audit.count == 1 { peaks.append("audit \(peakResidentMegabytes()) MB"); heap.append("audit \(heapInUseMegabytes()) MB") }
        start = DispatchTime.now()
        // Streamed as `a11yctl audit --format json` writes it; the pieces are only counted.
        var bytes = 0
        try SortedJSONEncoder(pretty: true).write(result.audit) { bytes += $0.count }
        json.append(milliseconds(since: start))
        if json.count == 1 {
            peaks.append("JSON \(peakResidentMegabytes()) MB")
            print("\(result.audit.summary.tokens) tokens, \(result.audit.summary.pairs) pairs, \(bytes) bytes of JSON")
            print("peak resident memory after each phase of the first run: " + peaks.joined(separator: ", "))
            print("malloc's blocks in use after each phase of the first run: " + heap.joined(separator: ", "))
        }
        // Compact and in one buffer, as the daemon encodes each audit to store it.
        start = DispatchTime.now()
        _ = try AuditJSON.encode(result.audit, pretty: false)
        stored.append(milliseconds(since: start))
    }
    print(String(format: "read + parse %.1f ms (CPU %.1f ms), evaluate + pair + rules %.1f ms, JSON %.1f ms (medians)", median(read),
                 median(readCPUs), median(audit), median(json)))
    print("evaluate + pair + rules by phase (medians): " + clock.summary(\.wall, median))
    print("CPU time by phase, all threads (medians): " + clock.summary(\.cpu, median))
    print("malloc's blocks in use as each phase of the first run ended: " + clock.heapSummary)
    // A one-shot `a11yctl` pays the first run's costs (lazily built tables, the runtime's first type look-ups).
    print(String(format: "first run: read + parse %.1f ms, evaluate + pair + rules %.1f ms, JSON %.1f ms; by phase: ", read[0], audit[0],
                 json[0]) + clock.summary(\.wall, { $0[0] }))
    print(String(format: "the daemon's encoding of the audit for its history (compact, one buffer): %.1f ms (median)", median(stored)))
}

/// Times the phases of an audit (`AuditInput.onPhase`): each phase's wall time since the previous one finished, and the
/// process CPU time it used (CPU / wall near 1 is a phase that leaves the other cores idle).
final class PhaseClock: @unchecked Sendable {
    struct Times {
        var wall: [Double] = []
        var cpu: [Double] = []
    }
    private let lock = NSLock()
    private var last = (wall: DispatchTime.now(), cpu: processCPUMilliseconds())
    private var recorded: [AuditPhase: Times] = [:]
    /// malloc's blocks in use (MB) as each phase of the first run ended.
    private var heapAfter: [AuditPhase: String] = [:]

    func start() {
        lock.lock()
        last = (DispatchTime.now(), processCPUMilliseconds())
        lock.unlock()
    }

    func finished(_ phase: AuditPhase) {
        lock.lock()
        let cpu = processCPUMilliseconds()
        recorded[phase, default: Times()].wall.append(milliseconds(since: last.wall))
        recorded[phase, default: Times()].cpu.append(cpu - last.cpu)
        if heapAfter[phase] == nil { heapAfter[phase] = heapInUseMegabytes() }
        last = (DispatchTime.now(), cpu)
        lock.unlock()
    }

    /// "phase x MB, ..." in phase order: the heap in use as each phase of the first run ended.
    var heapSummary: String {
        lock.lock()
        defer { lock.unlock() }
        return AuditPhase.allCases.compactMap { phase in heapAfter[phase].map { "\(phase.rawValue) \($0) MB" } }.joined(separator: ", ")
    }

    /// "phase x ms, ..." in phase order: `reduce` (the median, the first run) of `times` for each phase seen.
    func summary(_ times: (Times) -> [Double], _ reduce: ([Double]) -> Double) -> String {
        lock.lock()
        defer { lock.unlock() }
        return AuditPhase.allCases.compactMap { phase in
            recorded[phase].map { String(format: "%@ %.1f ms", phase.rawValue, reduce(times($0))) }
        }.joined(separator: ", ")
    }
}

/// User + system CPU time of the whole process (all threads) so far.
func processCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return cpuMilliseconds(usage)
}

/// User + system time of a resource usage report.
func cpuMilliseconds(_ usage: rusage) -> Double {
    func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
    return ms(usage.ru_utime) + ms(usage.ru_stime)
}

// `a11y-bench edit DIR [--runs 9]`: the daemon's path in process, on a copy of DIR: one color literal in the largest
// Swift file changes and changes back; each save is re-read (that file only) and audited from the previous audit.
if CommandLine.arguments.dropFirst().first == "edit", CommandLine.arguments.count > 2 {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-bench-edit-\(getpid())")
    try FileManager.default.copyItem(at: URL(fileURLWithPath: CommandLine.arguments[2]), to: copy)
    defer { try? FileManager.default.removeItem(at: copy) }
    let workspace = try Workspace(root: copy.path)
    let largest = workspace.listFiles().filter { $0.hasSuffix(".swift") }.max {
        ((try? FileManager.default.attributesOfItem(atPath: workspace.path(of: $0))[.size] as? Int) ?? 0)
            < ((try? FileManager.default.attributesOfItem(atPath: workspace.path(of: $1))[.size] as? Int) ?? 0)
    }!
    let original = try String(contentsOfFile: workspace.path(of: largest), encoding: .utf8)
    guard let literal = original.range(of: ##""#[0-9A-Fa-f]{6}""##, options: .regularExpression) else { print("no hex literal in \(largest)"); exit(1) }
    let replacement = original[literal] == "\"#5A5A60\"" ? "\"#606060\"" : "\"#5A5A60\""
    let edited = original.replacingCharacters(in: literal, with: replacement)
    var previous = Auditor.run(workspace.refresh())
    var read: [Double] = [], audit: [Double] = [], stored: [Double] = []
    let clock = PhaseClock()
    for i in 0..<argument("--runs", default: 9) * 2 {
        try (i % 2 == 0 ? edited : original).write(toFile: workspace.path(of: largest), atomically: true, encoding: .utf8)
        var start = DispatchTime.now()
        var input = workspace.refresh(changed: [largest])
        read.append(milliseconds(since: start))
        input.onPhase = { clock.finished($0) }
        start = DispatchTime.now()
        clock.start()
        previous = Auditor.run(input, previous: previous)
        audit.append(milliseconds(since: start))
        // The daemon then encodes the audit to store it (compact, one buffer).
        start = DispatchTime.now()
        _ = try AuditJSON.encode(previous.audit, pretty: false)
        stored.append(milliseconds(since: start))
    }
    print("editing \(largest) (\(previous.audit.summary.tokens) tokens, \(previous.audit.summary.pairs) pairs):")
    print(String(format: "re-read the file %.1f ms, audit from the previous audit %.1f ms, its encoding for the history %.1f ms (medians of %d saves)",
                 median(read), median(audit), median(stored), read.count))
    print("the audit by phase (medians): " + clock.summary(\.wall, median))
    exit(0)
}

let tokenCount = argument("--tokens", default: 5000)
let componentCount = argument("--components", default: 300)
let runs = argument("--runs", default: 9)

// `a11y-bench write DIR [--tokens N] [--components N]` only writes the synthetic system, for `perf record` or the daemon.
if CommandLine.arguments.dropFirst().first == "write", CommandLine.arguments.count > 2 {
    let dir = URL(fileURLWithPath: CommandLine.arguments[2])
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try writeSystem(to: dir, tokens: tokenCount, components: componentCount)
    exit(0)
}

/// Deterministic pseudo-random hex colors (xorshift), so every run audits the same system.
struct Generator {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
    mutating func hex() -> String {
        let s = String(next() & 0xFFFFFF, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - s.count) + s
    }
}

/// The cold bench writes 5,000 tokens and 300 components; `a11y-bench peer` scales both (token counts divisible by 4).
func writeSystem(to dir: URL, tokens tokenCount: Int, components componentCount: Int) throws {
    var g = Generator()
    var tokens = """
        import SwiftUI

        extension Color {
            static func adaptive(light: String, dark: String) -> Color {
                Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(Color(hex: dark)) : UIColor(Color(hex: light)) })
            }
            static let benchSurfaceBasePrimary = adaptive(light: "#FFFFFF", dark: "#0B1120")

        """
    // Token names carry no role word (components give the roles), so unused tokens are not paired on their own and the
    // workload stays the components' pairs, the same for a11yctl and the peer.
    let roles = ["Ink", "Mark", "Line", "Base"]
    for i in 0..<tokenCount {
        tokens += "    static let bench\(roles[i % roles.count])\(i) = adaptive(light: \"\(g.hex())\", dark: \"\(g.hex())\")\n"
    }
    tokens += "}\n\nextension CGFloat {\n    static let space2: CGFloat = 8\n    static let space4: CGFloat = 16\n}\n"
    tokens += "\nextension Font {\n    static let benchBody = Font.system(size: 16).relativeTo(.body)\n}\n"
    var styling = "import SwiftUI\n"
    for c in 0..<componentCount {
        func token(_ role: String) -> String {
            let base = roles.firstIndex(of: role)!
            let index = (c * 16 + base * 4 + Int(g.next() % 4) * roles.count + base) % tokenCount
            return "bench\(roles[index % roles.count])\(index - index % roles.count + base)"
        }
        styling += """

            enum BenchComponent\(c)Styling {
                struct Colors {
                    static let label = Color.\(token("Ink"))
                    static let secondaryLabel = Color.\(token("Ink"))
                    static let icon = Color.\(token("Mark"))
                    static let border = Color.\(token("Line"))
                    static let background = Color.\(token("Base"))
                    static let pressedBackground = Color.\(token("Base"))
                }
                struct Layout {
                    static let paddingH = CGFloat.space4
                    static let paddingV = CGFloat.space2
                }
                struct Typography {
                    static let label = Font.benchBody
                }
            }

            """
    }
    try tokens.write(to: dir.appendingPathComponent("DesignTokens.swift"), atomically: true, encoding: .utf8)
    try styling.write(to: dir.appendingPathComponent("NativeComponentStyling.swift"), atomically: true, encoding: .utf8)
    try "policy: wcag21-aa\nsurfaces: [benchSurfaceBasePrimary]\n".write(
        to: dir.appendingPathComponent(".a11yd.yml"), atomically: true, encoding: .utf8)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func milliseconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
}

/// Writes a system into a scratch folder, audits it `runs` times in process and as `a11yctl audit --format json`, and
/// prints the medians.
func benchColdAudit(label: String, runs: Int, write: (URL) throws -> Void, describe: (Audit) -> String) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-bench-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try write(dir)
    var inProcess: [Double] = []
    var summary = ""
    for _ in 0..<runs {
        let start = DispatchTime.now()
        let audit = Auditor.run(try Workspace(root: dir.path).refresh()).audit
        inProcess.append(milliseconds(since: start))
        summary = describe(audit)
    }
    print("\(label): \(summary)")
    print(String(format: "in-process audit (read+parse+resolve+pair+rules): median %.1f ms over %d runs", median(inProcess), runs))
    if let ms = try wholeProcessMedian(dir: dir, runs: runs) {
        print(String(format: "whole process (a11yctl audit --format json): median %.1f ms over %d runs", ms, runs))
    }
}

try benchColdAudit(label: "synthetic system", runs: runs, write: { try writeSystem(to: $0, tokens: tokenCount, components: componentCount) }) { audit in
    "\(audit.summary.tokens) tokens, \(audit.summary.components) components, \(audit.summary.pairs) pair measurements, \(audit.summary.failingPairs) failing"
}

/// Bytes in malloc's blocks now (all arenas, `mallinfo2`), in MB: what the phases so far keep, not what they touched.
func heapInUseMegabytes() -> String {
    let info = mallinfo2()
    return String(format: "%.1f", Double(info.uordblks + info.hblkhd) / 1_048_576)
}

/// The process's peak resident set so far (VmHWM of /proc/self/status), in MB.
func peakResidentMegabytes() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    return String(format: "%.1f", kilobytes / 1024)
}
