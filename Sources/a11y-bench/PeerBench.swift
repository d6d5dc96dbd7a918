import A11yReaders
import Foundation
import Glibc

/// `a11y-bench peer`: `a11yctl audit DIR --format json` side by side with `bench/peer_audit.py` (the ~60-line Python
/// script a user would write instead, run by Debian's /usr/bin/python3) on the synthetic system of `writeSystem`, at
/// several sizes, once per peer (`Peer`: the script's ratios by coloraide or by the standard library). They run in
/// rotating order so load on this shared machine hits all alike. Peak RSS comes from GNU time
/// (`%M`), not from our own wait4: posix_spawn shares this process's memory until exec, and Linux then records this
/// process's high-water mark as the child's ru_maxrss (a 10 MB Python run read as 36 MB). `time` is small, so the
/// child it forks starts from a small mark.
enum PeerBench {
    static let python = "/usr/bin/python3"
    static let time = "/usr/bin/time"

    /// One finished child: wall time, CPU time (user + system) and peak resident memory.
    struct Sample {
        var wallMilliseconds: Double
        var cpuMilliseconds: Double
        var peakMegabytes: Double
    }

    struct Figures {
        var wall: Double
        var cpu: Double
        var peak: Double
        init(_ samples: [Sample]) {
            wall = median(samples.map(\.wallMilliseconds))
            cpu = median(samples.map(\.cpuMilliseconds))
            peak = samples.map(\.peakMegabytes).max() ?? 0  // the largest over the runs, not a median
        }
    }

    /// Where a peer's ratios come from (`bench/peer_audit.py --contrast`): the issue's script uses the `coloraide`
    /// library; the standard-library one computes the same formula itself and is ~5x faster, a stricter yardstick.
    enum Peer: String {
        case coloraide, stdlib

        var label: String { self == .coloraide ? "peer (coloraide)" : "peer (stdlib)" }
        /// How far its ratios may be from a11yctl's, relative to the ratio: the same formula in the same double
        /// arithmetic agrees exactly; coloraide weighs the channels by its own sRGB-to-XYZ matrix (0.212639, 0.715169,
        /// 0.072192) instead of WCAG's rounded weights, so colored pairs differ by up to ~1e-4 of the ratio (0.001 at
        /// 9.9:1 in the 20k system). Pass or fail must agree either way.
        var tolerance: Double { self == .coloraide ? 5e-4 : 1e-12 }
    }

    /// `peers`: nil for the standard-library peer, and the coloraide one when `.build/peer/site` holds coloraide (Debian
    /// packages none and set-up installs nothing with pip: BENCHMARKS.md says how it was put there).
    static func run(sizes: [Int], runs: Int, peers requested: [Peer]?) throws {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let ctl = here.appendingPathComponent("a11yctl").path
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("bench/peer_audit.py").path
        // Fail rather than skip: `make bench` should not pass without the comparison it was asked for.
        for (path, remedy) in [(ctl, "build the a11yctl product"), (python, "Debian package python3"), (time, "Debian package time")]
        where !FileManager.default.isExecutableFile(atPath: path) {
            throw BenchError("\(path) not found (\(remedy)); scripts/install-deps.sh bench installs the packages")
        }
        // Unpacked and compiled as an installed package is (a zip on PYTHONPATH is compiled again at every run).
        let site = root.appendingPathComponent(".build/peer/site")
        let hasColoraide = FileManager.default.fileExists(atPath: site.appendingPathComponent("coloraide/__init__.py").path)
        let peers = requested ?? (hasColoraide ? [.coloraide, .stdlib] : [.stdlib])
        if peers.contains(.coloraide) {
            guard hasColoraide else {
                throw BenchError("coloraide is not in \(site.path) (Debian packages none; set-up installs nothing with pip): "
                                 + "BENCHMARKS.md, \"The issue's peer\", says how it was put there; or pass --peers stdlib")
            }
            // a11yctl ignores the variable.
            setenv("PYTHONPATH", site.path, 1)
            print("coloraide: \(site.path) (PYTHONPATH)")
        } else {
            print("the issue's peer (coloraide) is not measured: \(site.path) does not hold coloraide (BENCHMARKS.md, \"The issue's peer\")")
        }
        for peer in peers { print("\(peer.label): \(python) \(script) --contrast \(peer.rawValue)") }
        print("load average before: \(loadAverage())")

        // `roundRatios`: a11yctl's wall time over each peer's, round by round (the two ran one after the other).
        // `shares`: per round, the audit's wall time on all CPUs over its wall time held to one (`oneCore`).
        var rows: [(tokens: Int, components: Int, pairs: Int, ctl: Figures, peers: [Peer: Figures], roundRatios: [Peer: [Double]],
                    shares: [Double])] = []
        for tokens in sizes {
            // Components scale with tokens: 300 per 5,000 as in the cold bench.
            let components = max(1, tokens * 3 / 50)
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-bench-peer-\(getpid())-\(tokens)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            try writeSystem(to: dir, tokens: tokens, components: components)

            // Same answers first: a timing of two programs that measure different things would mean nothing.
            var pairs = 0
            for peer in peers {
                let agreement = try compare(ctl: ctl, peer: [script, "--contrast", peer.rawValue], tolerance: peer.tolerance, dir: dir.path)
                print("\(tokens) tokens, \(components) components, \(peer.label): \(agreement.summary)")
                guard agreement.agree else { throw BenchError("a11yctl and the \(peer.label) disagree at \(tokens) tokens; not timing them") }
                pairs = agreement.pairs
            }

            // One run of each program per round, the order rotating, so that load on this shared machine and one
            // program's cache warm-up fall on all of them alike. Last, the same audit held to one CPU (`oneCore`).
            let audit = ["audit", dir.path, "--format", "json"]
            var programs: [(path: String, args: [String], ok: Set<Int32>)] = [(ctl, audit, Set<Int32>([0, 1]))]
                + peers.map { (python, [script, "--contrast", $0.rawValue, dir.path], Set<Int32>([0])) }
            if oneCore { programs.append((taskset, ["--cpu-list", String(firstAllowedCore), ctl] + audit, [0, 1])) }
            var samples = Array(repeating: [Sample](), count: programs.count)
            for round in 0..<runs {
                for step in 0..<programs.count {
                    let i = (round + step) % programs.count
                    samples[i].append(try spawnAndMeasure(programs[i].path, programs[i].args, okStatuses: programs[i].ok))
                }
            }
            let c = Figures(samples[0])
            var peerFigures: [Peer: Figures] = [:], roundRatios: [Peer: [Double]] = [:]
            let shares = oneCore ? zip(samples[0], samples[programs.count - 1]).map { $0.wallMilliseconds / $1.wallMilliseconds } : []
            print(String(format: "  a11yctl audit --format json: median %.0f ms wall, %.0f ms CPU, peak %.1f MB", c.wall, c.cpu, c.peak))
            for (i, peer) in peers.enumerated() {
                let p = Figures(samples[i + 1])
                peerFigures[peer] = p
                roundRatios[peer] = zip(samples[0], samples[i + 1]).map { $0.wallMilliseconds / $1.wallMilliseconds }
                print(String(format: "  %@: median %.0f ms wall, %.0f ms CPU, peak %.1f MB; a11yctl / it: %.2fx wall, %.2fx CPU, %.2fx peak memory",
                             peer.label, p.wall, p.cpu, p.peak, c.wall / p.wall, c.cpu / p.cpu, c.peak / p.peak))
            }
            if oneCore {
                let one = Figures(samples[programs.count - 1])
                print(String(format: "  a11yctl held to one CPU (taskset): median %.0f ms wall, %.0f ms CPU", one.wall, one.cpu))
            }
            rows.append((tokens, components, pairs, c, peerFigures, roundRatios, shares))
        }
        print("load average after: \(loadAverage())")
        // Issue 12's bar, read off the run: the cold 5,000-token audit in at most a quarter of the issue's peer's time. The
        // ratio of the medians decides; the rounds' own ratios (quartiles, and how many rounds were at or under the bar)
        // show how far from the bar the run's minutes were.
        let bar = 0.25
        if let row = rows.first(where: { $0.tokens == 5000 }) {
            for peer in peers {
                let ratio = row.ctl.wall / row.peers[peer]!.wall
                let rounds = row.roundRatios[peer]!.sorted()
                let quartile = { (q: Int) in rounds[min(rounds.count - 1, rounds.count * q / 4)] }
                let roundsMet = rounds.filter { $0 <= bar }.count
                print(String(format: "issue 12's bar at 5,000 tokens, against the %@: %.3fx wall (at most %.2fx: %@; round by round %.2f-%.2fx, quartiles; %ld of %ld rounds at or under it)%@",
                             peer.label, ratio, bar, ratio <= bar ? "met" : "not met", quartile(1), quartile(3), roundsMet, rounds.count,
                             peer == .coloraide ? " <- the peer the issue describes" : ""))
                if !row.shares.isEmpty { printByCores(row.roundRatios[peer]!, shares: row.shares, bar: bar) }
            }
        }

        // Per-token cost from CPU time, which load on a shared machine disturbs less than wall time; the marginal cost
        // (extra CPU over extra tokens since the previous size) leaves out start-up, so flat means linear growth.
        for peer in peers {
            print("\nscaling series against the \(peer.label) (median of \(runs) rotating runs; µs/token = CPU time / tokens, marginal = extra CPU / extra tokens since the previous size):")
            print("| tokens | components | pairs | a11yctl wall | a11yctl CPU | a11yctl peak | a11yctl µs/token (marginal) | peer wall | peer CPU | peer peak | peer µs/token (marginal) | a11yctl/peer wall, CPU |")
            print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for (i, r) in rows.enumerated() {
                let previous = i > 0 ? rows[i - 1] : nil
                func side(_ f: Figures, _ before: Figures?) -> String {
                    var cost = String(format: "%.0f", f.cpu * 1000 / Double(r.tokens))
                    if let before, let previous {
                        cost += String(format: " (%.0f)", (f.cpu - before.cpu) * 1000 / Double(r.tokens - previous.tokens))
                    }
                    return String(format: "%.0f ms | %.0f ms | %.1f MB | ", f.wall, f.cpu, f.peak) + cost
                }
                let p = r.peers[peer]!
                print("| \(r.tokens) | \(r.components) | \(r.pairs) | " + side(r.ctl, previous?.ctl) + " | " + side(p, previous?.peers[peer])
                      + String(format: " | %.2fx, %.2fx |", r.ctl.wall / p.wall, r.ctl.cpu / p.cpu))
            }
            if let first = rows.first, let last = rows.last, last.tokens > first.tokens {
                let a = first.peers[peer]!, b = last.peers[peer]!
                print(String(format: "\n%.0fx the tokens: a11yctl %.1fx the CPU time (%.1fx wall, %.1fx the memory), peer %.1fx the CPU time (%.1fx wall, %.1fx the memory)",
                             Double(last.tokens) / Double(first.tokens), last.ctl.cpu / first.ctl.cpu, last.ctl.wall / first.ctl.wall, last.ctl.peak / first.ctl.peak,
                             b.cpu / a.cpu, b.wall / a.wall, b.peak / a.peak))
            }
        }
    }

    /// Whether each round also runs the audit held to one CPU (the first this process may use): when the audit itself
    /// has more than one (`activeCores`, as the readers count them), its serial path then says what one core's worth of
    /// the machine gives.
    static let oneCore = activeCores > 1 && FileManager.default.isExecutableFile(atPath: taskset)
    static let taskset = "/usr/bin/taskset"
    /// At or above this share (the audit on all CPUs over the audit held to one, in the same round) the CPUs gave no more
    /// than one core's worth: this VM's two CPUs give ~0.6-0.7 in most minutes and ~1.0 in the minutes that slow a11yctl
    /// alone (BENCHMARKS.md, "The slow minutes are minutes of one core").
    static let oneCoreShare = 0.85

    /// The bar read apart for the rounds where the CPUs gave more than one core's worth and for the others.
    static func printByCores(_ ratios: [Double], shares: [Double], bar: Double) {
        let medianShare = median(shares)
        print(String(format: "  all CPUs over one CPU, round by round: median %.2f (%ld of %ld rounds at or above %.2f: the CPUs gave one core's worth)",
                     medianShare, shares.filter { $0 >= oneCoreShare }.count, shares.count, oneCoreShare))
        for (label, keep) in [("more than one core's worth", { (s: Double) in s < oneCoreShare }), ("one core's worth", { $0 >= oneCoreShare })] {
            let chosen = zip(ratios, shares).filter { keep($0.1) }.map(\.0)
            guard !chosen.isEmpty else { continue }
            print(String(format: "    rounds where the CPUs gave %@: %.3fx (median of %ld rounds; %ld at or under %.2fx)",
                         label, median(chosen), chosen.count, chosen.filter { $0 <= bar }.count, bar))
        }
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// Runs `path args` under GNU time with stdout to /dev/null; returns its wall time, CPU time (user + system, from
    /// wait4, so time's own fraction of a millisecond is included) and peak RSS (time's `%M`).
    static func spawnAndMeasure(_ path: String, _ args: [String], okStatuses: Set<Int32>) throws -> Sample {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-bench-time-\(getpid())").path
        defer { unlink(report) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        // -q: no "exited with non-zero status" line; a11yctl exits 1 when pairs fail, which is expected here.
        let argv: [UnsafeMutablePointer<CChar>?] = ([time, "-q", "-o", report, "-f", "%M %x", path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now()
        let spawned = posix_spawn(&pid, time, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchError("cannot run \(time): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let wall = milliseconds(since: start)
        let fields = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace)
        // %x is the command's exit status; a signal leaves no number there.
        guard fields.count == 2, let kilobytes = Double(fields[0]), let exit = Int32(fields[1]), okStatuses.contains(exit) else {
            throw BenchError("\(path) \(args.joined(separator: " ")) failed (wait status \(status), time reported '\(fields.joined(separator: " "))')")
        }
        return Sample(wallMilliseconds: wall, cpuMilliseconds: cpuMilliseconds(usage), peakMegabytes: kilobytes / 1024)
    }

    /// Runs a11yctl and one peer once, capturing their JSON, and checks they measure the same component pairs with the
    /// same ratios (within `tolerance`).
    static func compare(ctl: String, peer: [String], tolerance: Double, dir: String) throws -> (agree: Bool, pairs: Int, summary: String) {
        func output(_ path: String, _ args: [String]) throws -> [String: Any] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = args
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        }
        func key(_ component: Any?, _ foreground: Any?, _ background: Any?, _ appearance: Any?) -> String {
            "\(component ?? "-") \(foreground ?? "-") on \(background ?? "-") \(appearance ?? "-")"
        }
        var byA11yctl: [String: (ratio: Double, pass: Bool)] = [:]
        for pair in try output(ctl, ["audit", dir, "--format", "json"])["pairs"] as? [[String: Any]] ?? [] {
            let fg = pair["foreground"] as? [String: Any], bg = pair["background"] as? [String: Any]
            byA11yctl[key(pair["component"], fg?["property"], bg?["property"], pair["appearance"])] = (pair["ratio"] as? Double ?? .nan, pair["pass"] as? Bool ?? false)
        }
        var byPeer: [String: (ratio: Double, pass: Bool)] = [:]
        for pair in try output(python, peer + [dir])["pairs"] as? [[String: Any]] ?? [] {
            byPeer[key(pair["component"], pair["foreground"], pair["background"], pair["appearance"])] = (pair["ratio"] as? Double ?? .nan, pair["pass"] as? Bool ?? false)
        }
        let common = Set(byA11yctl.keys).intersection(byPeer.keys)
        let worst = common.map { abs(byA11yctl[$0]!.ratio - byPeer[$0]!.ratio) / max(byA11yctl[$0]!.ratio, byPeer[$0]!.ratio) }.max() ?? .nan
        let verdicts = common.filter { byA11yctl[$0]!.pass != byPeer[$0]!.pass }.count
        let agree = !common.isEmpty && common.count == byA11yctl.count && common.count == byPeer.count && worst <= tolerance && verdicts == 0
        return (agree, common.count, "a11yctl \(byA11yctl.count) pairs, peer \(byPeer.count), \(common.count) in common, "
                    + String(format: "largest ratio difference %.1e of the ratio, %d verdicts differ", worst, verdicts) + (agree ? " (agree)" : " (DISAGREE)"))
    }
}
