import A11yEngine
import Foundation

/// The cores this process may use, asked once (the token file reader asks for every large block). Readers decide an
/// audit's threads (`AuditInput.evaluationThreads`, the worker pool's size); the engine is told, and does no I/O.
public let activeCores = CoreCount.active()

/// The lowest-numbered CPU this process may run on (0 when its mask cannot be read): `a11y-bench peer` holds an audit to
/// it with `taskset --cpu-list` (a container's set may not hold CPU 0).
public var firstAllowedCore: Int { CoreCount.firstAllowed() }

/// The cores this process may run on (its affinity mask: `taskset`, a cpuset cgroup), fewer when its cgroup's CPU quota
/// allows fewer (a container's `--cpus`). Read with plain system calls: `ProcessInfo.activeProcessorCount` took 1-3 ms
/// at the start of every a11yctl run, on the way to the first file (its first use of Foundation's URL, through type
/// look-ups by mangled name that scan every conformance record of this large binary).
enum CoreCount {
    static func active() -> Int {
        var cores = affinityCores() ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        if let quota = quotaCores() { cores = min(cores, quota) }
        return max(1, cores)
    }

    /// The CPUs in this process's affinity mask, from `/proc/self/status` ("Cpus_allowed:\tff,ffffffff"): Glibc's
    /// module does not offer `sched_getaffinity` to Swift. Read as bytes (`PlainFile`): this runs first of all.
    static func affinityCores() -> Int? {
        guard let status = PlainFile.bytes(atPath: "/proc/self/status", limit: 8192),
              let mask = field("Cpus_allowed:", in: status) else { return nil }
        let count = mask.reduce(0) { count, byte in count + (hexDigit(byte)?.nonzeroBitCount ?? 0) }
        return count > 0 ? count : nil
    }

    /// The lowest CPU of the affinity mask in `/proc/self/status`, 0 when it cannot be read.
    static func firstAllowed() -> Int {
        guard let status = PlainFile.bytes(atPath: "/proc/self/status", limit: 8192),
              let mask = field("Cpus_allowed:", in: status) else { return 0 }
        return firstCPU(inMask: mask) ?? 0
    }

    /// The lowest CPU set in a mask as the kernel writes it: hex digits, most significant first, in comma-separated
    /// groups of 32 bits ("ff,ffffff00": CPU 8); nil when none is set.
    static func firstCPU(inMask mask: ArraySlice<UInt8>) -> Int? {
        var cpu = 0
        for byte in mask.reversed() {
            guard let digit = hexDigit(byte) else { continue }  // the commas, the tab before the mask
            if digit != 0 { return cpu + digit.trailingZeroBitCount }
            cpu += 4
        }
        return nil
    }

    /// The CPU quota in whole cores (rounded up), nil when there is none: cgroup v2's `cpu.max` ("max 100000" or
    /// "150000 100000"), else v1's `cpu.cfs_quota_us` (-1 for none) over `cpu.cfs_period_us`.
    static func quotaCores() -> Int? {
        if let line = firstLine("/sys/fs/cgroup/cpu.max") { return cores(cpuMax: line) }
        guard let quota = firstLine("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").flatMap({ Int($0) }),
              let period = firstLine("/sys/fs/cgroup/cpu/cpu.cfs_period_us").flatMap({ Int($0) }) else { return nil }
        return cores(quota: quota, period: period)
    }

    /// cgroup v2's `cpu.max` line: "max 100000" (no quota) or "150000 100000" (1.5 cores: 2).
    static func cores(cpuMax line: String) -> Int? {
        guard let space = line.utf8.firstIndex(of: UInt8(ascii: " ")), let quota = Int(line[..<space]),
              let period = Int(line[line.utf8.index(after: space)...]) else { return nil }
        return cores(quota: quota, period: period)
    }

    static func cores(quota: Int, period: Int) -> Int? {
        guard quota > 0, period > 0 else { return nil }
        return max(1, (quota + period - 1) / period)
    }

    /// The bytes after `name` up to the end of its line, in a file of "Name:\tvalue" lines.
    static func field(_ name: String, in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let key = Array(name.utf8)
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            if bytes[lineStart..<lineEnd].starts(with: key) { return bytes[(lineStart + key.count)..<lineEnd] }
            lineStart = lineEnd + 1
        }
        return nil
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    private static func firstLine(_ path: String) -> String? {
        guard let bytes = PlainFile.bytes(atPath: path, limit: 128), !bytes.isEmpty else { return nil }
        let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        return end > 0 ? String(decoding: bytes[..<end], as: UTF8.self) : nil
    }
}

/// A design system on disk: its configuration, policy, and one parsed result per file. The one-shot audit reads it
/// once; the daemon keeps it and refreshes only the files that changed (by content digest), keeping the last good
/// version of a file that stops parsing. The engine never sees a path it has to open.
public final class Workspace {
    public let root: String
    public let policyOverride: String?
    public let policySearchDirectories: [String]
    public private(set) var configuration = ProjectConfiguration()
    public private(set) var policy: Policy
    /// Set while `.a11yd.yml` (or the policy it names) is broken: the previous configuration stays in force and every
    /// audit carries a `config` finding saying so, so the problem shows where the audits go, not only in a log.
    public private(set) var configurationProblem: ConfigurationError?
    /// True when `root` is a single file rather than a directory.
    private let isSingleFile: Bool

    struct Entry {
        var digest: UInt64
        /// The file's bytes when `source` was read from them (a Swift file that parsed): the next save is compared
        /// with them to find a literal edit.
        var bytes: [UInt8]? = nil
        var source: ParsedSource
        var suppressions: [Suppression]
        /// The last version that parsed, kept in force while the file is broken.
        var lastGood: ParsedSource?
    }
    private var entries: [String: Entry] = [:]

    /// Directories never audited, whatever the globs say: VCS, build products, dependencies.
    public static let skippedDirectories: Set<String> = [".git", ".build", "DerivedData", "Pods", "Carthage", "node_modules", ".swiftpm"]

    /// Where the first refresh looks for files read ahead (a11yctl's; nothing in the daemon).
    private let readAhead: ReadAhead

    public init(root: String, policyOverride: String? = nil,
                policySearchDirectories: [String] = PolicyReader.presetDirectories(),
                readAhead: ReadAhead = .shared) throws(ConfigurationError) {
        self.readAhead = readAhead
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw ConfigurationError("\(root): no such file or directory")
        }
        self.root = root
        self.isSingleFile = !isDirectory.boolValue
        self.policyOverride = policyOverride
        self.policySearchDirectories = policySearchDirectories
        // One pool thread per core but the caller's (a11yctl has started it so already; the daemon and tests start it here).
        WorkerPool.shared.start(threads: activeCores - 1)
        self.policy = Policy(id: "", name: "", sources: [], largeText: .wcag, contrast: .init(text: 4.5, largeText: 3, graphic: 3),
                             highContrast: nil, severities: [:])
        try reloadConfiguration()
    }

    public var rootDirectory: String { isSingleFile ? (root as NSString).deletingLastPathComponent : root }
    public var configurationPath: String { (rootDirectory as NSString).appendingPathComponent(ConfigurationReader.fileName) }

    /// Re-reads `.a11yd.yml` and the policy. On error the previous configuration stays in force (and the error is
    /// `configurationProblem` until a reload succeeds).
    public func reloadConfiguration() throws(ConfigurationError) {
        do {
            try loadConfiguration()
            configurationProblem = nil
        } catch {
            configurationProblem = error
            throw error
        }
    }

    /// The project configuration in the file at `path`; the defaults when there is none.
    static func configuration(at path: String) throws(ConfigurationError) -> ProjectConfiguration {
        guard FileManager.default.fileExists(atPath: path) else { return ProjectConfiguration() }
        guard let text = PlainFile.text(atPath: path) else { throw ConfigurationError("cannot read \(path)") }
        return try ConfigurationReader.read(text, file: path)
    }

    private func loadConfiguration() throws(ConfigurationError) {
        let newConfiguration = try Self.configuration(at: configurationPath)
        let preset = try PolicyReader.load(
            policyOverride ?? newConfiguration.policy, relativeTo: rootDirectory, searchDirectories: policySearchDirectories,
            referencedAt: policyOverride == nil && newConfiguration.file != nil
                ? SourceLocation(file: configurationPath, line: 1, column: 1) : nil)
        let flagsChanged = newConfiguration.flags != configuration.flags
        configuration = newConfiguration
        policy = newConfiguration.customize(preset)
        // `#if` flags change what a file means: parse everything again.
        if flagsChanged { entries.removeAll() }
    }

    /// Relative paths of the files to audit, sorted (so audits are deterministic).
    public func listFiles() -> [String] {
        if isSingleFile { return [(root as NSString).lastPathComponent] }
        return Self.files(below: root, configuration: configuration)
    }

    /// The files below the directory `root` that `configuration` includes and does not exclude, sorted.
    static func files(below root: String, configuration: ProjectConfiguration) -> [String] {
        let include = configuration.include.map(Glob.init), exclude = configuration.exclude.map(Glob.init)
        var result: [String] = []
        for relative in Self.filesBelow(root) {
            let path = Glob.Path(relative)
            guard include.contains(where: { $0.matches(path) }), !exclude.contains(where: { $0.matches(path) }) else { continue }
            result.append(relative)
        }
        return result.sorted()
    }

    /// Relative paths of everything under `directory` that is not a directory (symbolic links are not followed),
    /// leaving out `skippedDirectories` by name. Read with readdir: the entry types come with the names, where
    /// FileManager's enumerator asked for each entry's attributes (~20 ms of a 200-file repository's cold audit).
    static func filesBelow(_ directory: String) -> [String] {
        var result: [String] = []
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? directory : directory + "/" + relative
            guard let stream = opendir(path) else { continue }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
                guard name != ".", name != "..", !skippedDirectories.contains(name) else { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
                if entry.pointee.d_type == UInt8(DT_UNKNOWN) {  // file systems that do not fill in the type
                    var info = stat()
                    isDirectory = lstat(directory + "/" + child, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
                }
                if isDirectory { pending.append(child) } else { result.append(child) }
            }
        }
        return result
    }

    public func path(of relative: String) -> String {
        isSingleFile ? root : Self.path(of: relative, below: root)
    }

    static func path(of relative: String, below root: String) -> String { (root as NSString).appendingPathComponent(relative) }

    /// Brings the parsed files up to date and returns the audit input. `changed` limits reading to those relative
    /// paths (the watcher's batch); nil reads every file (start-up, overflow rescan). Unchanged bytes are never re-parsed.
    public func refresh(changed: Set<String>? = nil) -> AuditInput {
        let files = listFiles()
        let present = Set(files)
        entries = entries.filter { present.contains($0.key) }
        let reader = SwiftSourceReader(customFlags: Set(configuration.flags))
        // Files are parsed concurrently (the readers are pure); results are applied in file order.
        let toRead = files.filter { changed == nil || changed!.contains($0) || entries[$0] == nil }
        let jobs = toRead.map { (relative: $0, path: path(of: $0), previous: entries[$0]) }
        let results = ConcurrentResults<Entry>(count: jobs.count)
        let modes = configuration.modes
        // What a11yctl read ahead while this workspace loaded its configuration (`ReadAhead`), taken when it was read with
        // the same `#if` flags. Files still being read ahead are waited for last.
        let readAheadStates = isSingleFile || changed != nil ? [:]
            : readAhead.claim(root: root, flags: Set(configuration.flags), files: jobs.filter { $0.previous == nil }.map(\.relative))
        func isBeingReadAhead(_ i: Int) -> Bool {
            if case .reading? = readAheadStates[jobs[i].relative] { return true } else { return false }
        }
        // On the reader's large-stack threads (SwiftSyntax recurses as deep as the code nests).
        // Largest files first, so no worker is left parsing a big file alone at the end.
        let largestFirst = jobs.indices.map { ($0, isBeingReadAhead($0) ? -1 : Self.fileSize(jobs[$0].path)) }
            .sorted { $0.1 > $1.1 }.map(\.0)
        SwiftSourceReader.performOnLargeStacks(iterations: jobs.count) { n in
            let i = largestFirst[n]
            switch readAheadStates[jobs[i].relative] {
            case .read(let entry)?: results.set(i, entry)
            case .reading?: results.set(i, readAhead.entry(waitingFor: jobs[i].relative))
            case nil:
                results.set(i, Self.read(jobs[i].relative, path: jobs[i].path, previous: jobs[i].previous, reader: reader, modes: modes))
            }
        }
        for (job, entry) in zip(jobs, results.values) {
            if let entry { entries[job.relative] = entry }
        }
        var digest = FNV1a64()
        var sources: [ParsedSource] = []
        var suppressions: [Suppression] = []
        for relative in files {
            guard let entry = entries[relative] else { continue }
            digest.add(relative)
            digest.add(word: entry.digest)
            sources.append(entry.source)
            suppressions += entry.suppressions
        }
        var findings: [Finding] = []
        if let problem = configurationProblem {
            findings.append(Finding(
                rule: "config", severity: .error, subject: ConfigurationReader.fileName,
                message: "\(problem.message); the previous configuration stays in force",
                location: problem.location ?? SourceLocation(file: configurationPath, line: 1, column: 1)))
            digest.add(problem.description)
        }
        var input = AuditInput(sources: sources, configuration: configuration, policy: policy,
                               inputDigest: "fnv1a64:" + digest.hex, findings: findings, suppressions: suppressions)
        input.evaluationThreads = activeCores
        // The daemon serves this audit (a11yctl stops at the same error first): it must not read "No findings".
        if let nothingRead = nothingReadError(input) {
            input.findings.append(Finding(rule: "config", severity: .error, subject: root, message: nothingRead.message,
                                          location: SourceLocation(file: root, line: 1, column: 1)))
        }
        return input
    }

    /// The size of the file at `path` in bytes (0 when it cannot be read).
    static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The entry a file has after reading it: nil when nothing changes (same bytes, or a file no reader takes).
    static func read(_ relative: String, path: String, previous: Entry?, reader: SwiftSourceReader,
                     modes: [Appearance: [String]]) -> Entry? {
        func unreadable(_ message: String) -> Entry {
            var source = previous?.lastGood ?? ParsedSource(file: path)
            source.findings = [Finding(rule: "parse", severity: .error, subject: path,
                                       message: message + (previous?.lastGood != nil ? "; the last good version stays in force" : ""),
                                       location: SourceLocation(file: path, line: 1, column: 1))]
            return Entry(digest: 0, source: source, suppressions: previous?.suppressions ?? [], lastGood: previous?.lastGood)
        }
        guard let data = PlainFile.bytes(atPath: path) else { return unreadable("cannot read \(path)") }
        var fileDigest = FNV1a64()
        fileDigest.add(data)
        if let previous, previous.digest == fileDigest.value { return nil }
        guard let text = PlainFile.text(of: data) else { return unreadable("\(path) is not UTF-8 text") }
        let bytes = relative.hasSuffix(".swift") ? data : nil
        if let bytes, let previous, let previousBytes = previous.bytes,
           let patched = LiteralEdit(from: previousBytes, to: bytes)?.apply(to: previous.source) {
            return Entry(digest: fileDigest.value, bytes: bytes, source: patched,
                         suppressions: InlineSuppressions.scan(text, file: path), lastGood: patched)
        }
        guard var source = parse(relative: relative, path: path, text: text, reader: reader, modes: modes) else { return nil }
        let previousGood = previous?.lastGood
        let broken = source.findings.contains { $0.rule == "parse" && $0.subject == path }
        if broken, let good = previousGood {
            // Keep serving the last version that parsed; say so in the finding.
            let parseFindings = source.findings.filter { $0.rule == "parse" && $0.subject == path }.map { f -> Finding in
                var f = f
                f.message += "; the last good version of this file stays in force"
                return f
            }
            source = good
            source.findings = good.findings + parseFindings
        }
        return Entry(digest: fileDigest.value, bytes: broken ? nil : bytes, source: source,
                     suppressions: InlineSuppressions.scan(text, file: path), lastGood: broken ? previousGood : source)
    }
}


extension Workspace {
    /// The reader for a file, by its name: Swift sources, asset catalog colorsets, design-token JSON.
    static func parse(relative: String, path: String, text: String, reader: SwiftSourceReader,
                      modes: [Appearance: [String]]) -> ParsedSource? {
        if relative.hasSuffix(".swift") { return reader.read(source: text, file: path) }
        // (NSString's path methods cost ~35,000 instructions a call on Linux: Swift files, most of a project, skip them.)
        let name = (relative as NSString).lastPathComponent
        if name == "Contents.json", (relative as NSString).deletingLastPathComponent.hasSuffix(".colorset") {
            // Folder namespaces come from each parent folder's own Contents.json.
            return AssetCatalogReader.read(text: text, file: path) { folder in
                PlainFile.text(atPath: folder + "/Contents.json")
            }
        }
        let configuredMode = Appearance.allCases.first { modes[$0]?.contains(where: { Glob($0).matches(relative) }) ?? false }
        if configuredMode != nil || DesignTokenReader.defaultFilePatterns.contains(where: { Glob($0).matches(relative) }) {
            // `modes:` in .a11yd.yml decides; otherwise the file name (`dark.tokens.json`, `theme-light-hc`...).
            return DesignTokenReader.read(text: text, file: path,
                                          appearance: configuredMode ?? DesignTokenReader.guessAppearance(fileName: name))
        }
        return nil
    }
}

/// 64-bit FNV-1a: a fast, dependency-free digest to tell whether input changed (not a security hash).
struct FNV1a64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        // Contiguous bytes (a file's Data, a string's UTF-8) are read through a pointer: Data's iterator costs a call
        // per byte, ~3 ms for the 5k system's half megabyte.
        let done: Bool? = bytes.withContiguousStorageIfAvailable { buffer in
            for byte in buffer { mix(byte) }
            return true
        }
        if done == nil {
            for byte in bytes { mix(byte) }
        }
        // A separator, so ("ab", "c") and ("a", "bc") differ.
        mix(0xFF)
    }

    mutating func add(_ data: Data) {
        data.withUnsafeBytes { raw in add(raw.bindMemory(to: UInt8.self)) }
    }

    mutating func add(_ string: String) { add(string.utf8) }

    mutating func add(word: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    private mutating func mix(_ byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x0000_0100_0000_01b3
    }

    var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}

extension Workspace {
    /// An audit that read no design-system file would pass with "No findings", so a wrong path in CI would pass
    /// too: that is an error naming what was looked for (and the globs that narrowed it, when configured).
    public func nothingReadError(_ input: AuditInput) -> ConfigurationError? {
        guard input.sources.isEmpty else { return nil }
        var message = "\(root): no design-system file found: looked for Swift files (*.swift), asset catalog colorsets "
            + "(*.colorset/Contents.json) and design-token JSON (*.tokens.json, *.tokens, *.tokens.json5)"
        if configuration.file != nil, configuration.include != ProjectConfiguration.defaultInclude || !configuration.exclude.isEmpty {
            message += " matching include: [\(configuration.include.joined(separator: ", "))]"
            if !configuration.exclude.isEmpty { message += ", exclude: [\(configuration.exclude.joined(separator: ", "))]" }
            message += " of \(configurationPath)"
        }
        return ConfigurationError(message)
    }
}
