import A11yClient
import A11yEngine
import A11yOutput
import A11yReaders
import CMalloc
import Foundation

/// The daemon's heart: a thin loop of file events -> workspace refresh (changed files only) -> engine -> store ->
/// publish. All audit state lives on one serial queue; the socket server and the watcher only enqueue work.
public final class Daemon: @unchecked Sendable {
    public struct Options: Sendable {
        public var root: String
        public var stateDirectory: String
        /// Quiet time after the last event before auditing (coalesces editor bursts).
        public var settle: TimeInterval = 0.030
        /// A continuous storm still yields an audit at least this often.
        public var maxLatency: TimeInterval = 0.250
        public var retention = 500
        public var policyOverride: String?
        /// Directories watched at most before falling back to polling; nil: the kernel's inotify limit. Tests set it
        /// through `A11YD_TEST_MAX_WATCHES` to reach the limit without changing the machine.
        public var maxWatches: Int?
        /// How often the root is scanned when inotify cannot watch it.
        public var pollInterval: TimeInterval = 2
        /// Test seam (`A11YD_TEST_HANG_ON_FILE_CHANGE=1`): the audit loop hangs for good at the first audit a file
        /// change causes, so that a test can see the watchdog pings stop. Never set outside tests.
        public var hangOnFileChange = false

        public init(root: String, stateDirectory: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
            self.root = root
            self.stateDirectory = stateDirectory
            maxWatches = environment["A11YD_TEST_MAX_WATCHES"].flatMap(Int.init)
            hangOnFileChange = environment["A11YD_TEST_HANG_ON_FILE_CHANGE"] == "1"
        }

        /// `$XDG_STATE_HOME/a11yd` (default `~/.local/state/a11yd`).
        public static func defaultStateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
            if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/a11yd" }
            return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/a11yd"
        }
    }

    public let options: Options
    public let version = "0.1.0"
    let log: DaemonLog
    let workspace: Workspace
    /// nil when the history cannot be opened (state directory read-only or full): audits are served from memory.
    let store: AuditStore?
    let server: RPCServer
    private var watcher: FileWatcher?
    private var pollTimer: DispatchSourceTimer?
    private var polledState: [String: [Int]] = [:]
    /// How changes are noticed: inotify, or polling when the watch limit is reached (shown in `status`).
    private var watchMode = "inotify"
    /// Set while the root holds no design-system file (a wrong `--root`, everything excluded): `status` says so.
    private var nothingRead: String?
    let queue = DispatchQueue(label: "a11yd.audit")
    /// The serial queue every audit runs on; the systemd watchdog pings from it, so a hung audit loop stops them.
    public var auditQueue: DispatchQueue { queue }

    // Audit state: only touched on `queue`.
    private var current: AuditResult?
    private var previousAudit: Audit?
    /// The next audit id: read from the store once at start-up, then counted here (ids stay increasing while
    /// history is not kept).
    private var nextIDInMemory = 1
    /// Why the last audit could not be stored; nil while history is kept. Set by the store queue, read by requests.
    private var historyProblem: String? {
        get { historyLock.withLock { historyProblemStorage } }
        set { historyLock.withLock { historyProblemStorage = newValue } }
    }
    private var historyProblemStorage: String?
    private let historyLock = NSLock()
    /// Audits are encoded and written to SQLite here, after they are published: the next save's audit does not wait for
    /// a 4 MB audit's encoding (~14 ms) and write. Requests that read history or its health wait for it
    /// (`storeQueue.sync {}`), so they always see every published audit.
    private let storeQueue = DispatchQueue(label: "a11yd.store")
    /// At most two audits wait to be stored: memory stays bounded when saves come faster than SQLite writes.
    private let storeSlots = DispatchSemaphore(value: 2)
    private var pending: Set<String> = []
    private var rescanPending = false
    private var burstStart: DispatchTime?
    private var timer: DispatchSourceTimer?
    private var trimTimer: DispatchSourceTimer?
    private var subscribers: Set<RPCServer.ClientID> = []
    private let startTime = Date()

    /// Called on the audit queue after each stored audit (systemd STATUS=, desktop notifications).
    public var onAudit: ((Audit, AuditDiff) -> Void)?

    public init(options: Options, server: RPCServer, log: DaemonLog = DaemonLog()) throws {
        self.options = options
        self.server = server
        self.log = log
        workspace = try Workspace(root: options.root, policyOverride: options.policyOverride)
        do {
            store = try AuditStore(path: options.stateDirectory + "/audits.sqlite", retention: options.retention)
        } catch let error as StoreError where !error.isRefusal {
            // Not fatal (under Restart=on-failure that would be a restart loop and no audits at all): audits are served
            // from memory and `status` says why history is not kept.
            store = nil
            historyProblem = "\(error) (restart a11yd once \(options.stateDirectory) can be written)"
            log.error("cannot keep the audit history, serving audits from memory: \(historyProblem!)")
        }
        if let aside = store?.movedAside {
            log.warning("the audit history was not a database; moved it to \(aside) and started a fresh history")
        }
    }

    /// Watches, runs the first audit (reporting regressions against the last stored audit, which may predate a restart),
    /// then serves. Throws on watch-limit or socket problems. The watch starts first: a file saved while the first audit
    /// reads the files, or just after it, is then an event audited next (watching after serving could lose a save made
    /// by a client that connected and saved at once, which then waits for an audit that never comes).
    public func start() throws {
        let watcher = FileWatcher(root: options.root, maxWatches: options.maxWatches) { [weak self] event in
            guard let self else { return }
            self.queue.async { self.enqueue(event) }
        }
        do {
            try watcher.start()
            self.watcher = watcher
        } catch let error as WatchLimitError {
            // Keep auditing without inotify: scan the root on a timer. Slower to notice, never blind.
            watchMode = "polling every \(Int(options.pollInterval)) s (inotify watch limit reached)"
            log.warning("\(error); polling \(options.root) every \(Int(options.pollInterval)) s instead")
            startPolling()
        }
        try queue.sync {
            if let stored = try store?.latest() {
                previousAudit = try? JSONDecoder().decode(Audit.self, from: Data(stored.auditJSON.utf8))
            }
            nextIDInMemory = max((try? store?.nextID()) ?? 1, 1)
            auditNow(changed: nil, reason: "start-up")
        }
        server.onDisconnect = { [weak self] client in
            guard let self else { return }
            self.queue.async { self.subscribers.remove(client) }
        }
        server.start { [weak self] client, method, params, respond in
            guard let self else { return respond(.failure(.internalError("daemon stopped"))) }
            let request = UncheckedJSON(value: params)
            self.queue.async {
                self.handle(client: client, method: method, params: request.value as? [String: Any] ?? [:], respond: respond)
            }
        }
        log.info("watching \(options.root); serving \(server.path ?? "an inherited socket"); state in \(options.stateDirectory)")
    }

    /// The polling fallback: every `pollInterval`, compare each audited file's size and modification time.
    private func startPolling() {
        queue.sync { polledState = snapshotFiles() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + options.pollInterval, repeating: options.pollInterval)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let now = self.snapshotFiles()
            let changed = Set(now.keys.filter { now[$0] != self.polledState[$0] }).union(self.polledState.keys.filter { now[$0] == nil })
            self.polledState = now
            if !changed.isEmpty { self.enqueue(.changed(changed)) }
        }
        timer.resume()
        pollTimer = timer
    }

    private func snapshotFiles() -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for relative in workspace.listFiles() {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: workspace.path(of: relative)) else { continue }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
            let modified = Int(((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) * 1_000_000)
            result[relative] = [size, modified]
        }
        return result
    }

    public func stop() {
        pollTimer?.cancel()
        watcher?.stop()
        server.stop()
        queue.sync { timer?.cancel(); trimTimer?.cancel() }
        storeQueue.sync {}  // every published audit is in the history before the process ends
    }

    /// SIGHUP / config.reload: re-read `.a11yd.yml` and the policy, then audit everything.
    public func reload(completion: (@Sendable (Result<Audit, Error>) -> Void)? = nil) {
        queue.async { [self] in
            do {
                try workspace.reloadConfiguration()
                auditNow(changed: nil, reason: "configuration reload")
                if let audit = current?.audit { completion?(.success(audit)) }
            } catch {
                log.error("configuration reload failed, keeping the previous configuration: \(DaemonLog.describe(error))")
                // The audit carries the `config` finding: status, latest and watch show the broken file.
                auditNow(changed: nil, reason: "configuration reload (failed)")
                completion?(.failure(error))
            }
        }
    }

    public var latestAudit: Audit? { queue.sync { current?.audit } }

    // MARK: - Events and settling (on `queue`)

    private func enqueue(_ event: WatchEvent) {
        switch event {
        case .changed(let paths):
            pending.formUnion(paths)
        case .rescan(let reason):
            log.info("full rescan: \(reason)")
            rescanPending = true
        }
        let now = DispatchTime.now()
        if burstStart == nil { burstStart = now }
        let deadline = min(now + options.settle, burstStart! + options.maxLatency)
        if timer == nil {
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.setEventHandler { [weak self] in self?.settled() }
            t.resume()
            timer = t
        }
        timer?.schedule(deadline: deadline)
    }

    private func settled() {
        if options.hangOnFileChange { hangForTest() }
        // The configuration file changes what everything means. Read once per settled batch: an editor's save is
        // several events, and each would log the same error.
        if pending.contains(ConfigurationReader.fileName) {
            rescanPending = true
            do {
                try workspace.reloadConfiguration()
            } catch {
                // Workspace keeps the error: every audit carries a `config` finding until the file loads again.
                log.error("\(DaemonLog.describe(error)); keeping the previous configuration")
            }
        }
        let changed = rescanPending ? nil : pending
        pending.removeAll()
        rescanPending = false
        burstStart = nil
        auditNow(changed: changed, reason: "file change")
    }

    /// The hang of `Options.hangOnFileChange`: logged first, so a test knows from when no ping may arrive.
    private func hangForTest() -> Never {
        log.warning("test seam A11YD_TEST_HANG_ON_FILE_CHANGE: the audit loop hangs now")
        while true { sleep(3600) }
    }

    /// Refreshes changed files, audits, stores and publishes. Never throws: problems are logged and the last good
    /// audit stays served.
    private func auditNow(changed: Set<String>?, reason: String) {
        let input = workspace.refresh(changed: changed)
        nothingRead = workspace.nothingReadError(input)?.message
        if let current, current.audit.inputDigest == input.inputDigest, changed != nil {
            return // bytes unchanged (a touch, a save without edits): nothing to audit or report
        }
        var result = Auditor.run(input, previous: current)
        let id = nextIDInMemory
        nextIDInMemory = id + 1
        result.audit.id = id
        result.audit.time = ISO8601DateFormatter().string(from: Date())
        // The very first audit is the baseline, not news: nothing regressed (a restart compares with the stored audit).
        let diff = previousAudit == nil ? AuditDiff.baseline(result.audit) : AuditDiff.between(previousAudit, result.audit)
        // Published before it is stored: subscribers hear of it without waiting for 4 MB of JSON to reach SQLite (the
        // store queue writes it while the next save is audited), and no request sees the gap (those reading history
        // wait for the store queue). The last audit is let go after that too: freeing a large design system's
        // evaluation takes milliseconds.
        publish(result.audit, diff)
        onAudit?(result.audit, diff)
        // What the next save's audit asks of this one's evaluation, made now rather than after that save.
        result.context.graph.prepareForEdits()
        let retired = (current, previousAudit)
        current = result
        previousAudit = result.audit
        // No store at all (it could not be opened): historyProblem already says why, and nothing is retried.
        if let store {
            let audit = result.audit
            storeSlots.wait()
            storeQueue.async { [self] in
                defer { storeSlots.signal() }
                do {
                    try store.append(StoredAudit(
                        id: id, createdAt: audit.time ?? "", inputDigest: audit.inputDigest,
                        summaryJSON: Self.json(audit.summary), auditJSON: Self.json(audit), diffJSON: Self.json(diff)))
                    if historyProblem != nil { log.info("the audit history is kept again") }
                    historyProblem = nil
                } catch {
                    // Only durability failed (history locked by another process, disk full): the audit is still served,
                    // published and compared; `status` says history is not being kept.
                    historyProblem = "\(error)"
                    log.error("cannot store audit \(id), serving it from memory: \(error)")
                }
            }
        }
        log.debug("audit \(id) (\(reason)): \(Self.statusLine(result.audit))")
        withExtendedLifetime(retired) {}
        scheduleTrim()
    }

    /// An audit allocates and frees hundreds of MB on all cores. Once saves pause (a second without an audit), the
    /// freed pages go back to the system, so the resident size while idle is that of the design system, not of the
    /// largest audit's peak; during a burst of saves they are kept (taking them back costs page faults per audit).
    private func scheduleTrim() {
        if trimTimer == nil {
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.setEventHandler { malloc_trim(0) }
            t.resume()
            trimTimer = t
        }
        trimTimer?.schedule(deadline: .now() + .seconds(1))
    }

    static func json<T: Encodable>(_ value: T) -> String {
        (try? AuditJSON.encode(value, pretty: false)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// "90 pairs, 14 failing (dark: 6, light: 8)": the one-line summary for STATUS= and logs; with themes, failing per
    /// theme too ("(dark: 6, light: 8; sepia: 3, night: 11)").
    public static func statusLine(_ audit: Audit) -> String {
        let s = audit.summary
        var by = s.failingByAppearance.keys.sorted().map { "\($0): \(s.failingByAppearance[$0]!)" }.joined(separator: ", ")
        if let byTheme = s.failingByTheme {
            let themes = (audit.themes ?? []).map(\.name).filter { byTheme[$0] != nil }
            by += (by.isEmpty ? "" : "; ") + themes.map { "\($0): \(byTheme[$0]!)" }.joined(separator: ", ")
        }
        return "\(s.pairs) pairs, \(s.failingPairs) failing" + (by.isEmpty ? "" : " (\(by))") + ", \(s.errors) errors"
    }

    private func completedParams(_ audit: Audit, _ diff: AuditDiff) -> [String: Any] {
        ["id": audit.id ?? 0, "time": audit.time ?? "", "inputDigest": audit.inputDigest,
         "summary": JSONLine.object(audit.summary), "regressions": diff.regressions.count, "resolutions": diff.resolutions.count]
    }

    private func publish(_ audit: Audit, _ diff: AuditDiff) {
        for client in subscribers { send(audit: audit, diff: diff, to: client) }
    }

    private func send(audit: Audit, diff: AuditDiff, to client: RPCServer.ClientID) {
        server.send(client, JSONLine.notification("audit.completed", completedParams(audit, diff)))
        for change in diff.regressions {
            server.send(client, JSONLine.notification("regression", ["auditId": audit.id ?? 0, "change": JSONLine.object(change)]))
        }
        for change in diff.resolutions {
            server.send(client, JSONLine.notification("resolution", ["auditId": audit.id ?? 0, "change": JSONLine.object(change)]))
        }
    }

    // MARK: - Methods (on `queue`)

    private func handle(client: RPCServer.ClientID, method: String, params: [String: Any],
                        respond: @escaping @Sendable (Result<Any, RPCError>) -> Void) {
        guard server.isServing(client) else { return }
        do {
            switch method {
            case "status": respond(.success(status()))
            case "audit.latest": respond(.success(try latest(params)))
            case "audit.run":
                auditNow(changed: nil, reason: "audit.run")
                storeQueue.sync {}  // an audit asked for is answered once it is in the history (or failed to be)
                guard let audit = current?.audit else { throw RPCError.serverError("no audit") }
                respond(.success(["id": audit.id ?? 0, "summary": JSONLine.object(audit.summary)]))
            case "audit.history": respond(.success(try history(params)))
            case "audit.diff": respond(.success(try diff(params)))
            case "pairs.list":
                guard let context = current?.context else { throw RPCError.serverError("no audit yet") }
                respond(.success(JSONLine.object(PairsListing(context))))
            case "pair.explain":
                guard let fg = params["fg"] as? String, let bg = params["bg"] as? String else {
                    throw RPCError.invalidParams("pair.explain needs \"fg\" and \"bg\" strings")
                }
                guard let context = current?.context else { throw RPCError.serverError("no audit yet") }
                guard let explanations = PairExplanation.explain(foreground: fg, background: bg, in: context) else {
                    throw RPCError.invalidParams("no color named \(fg) or \(bg)")
                }
                respond(.success(JSONLine.object(explanations)))
            case "subscribe": try subscribe(client, params, respond)
            case "unsubscribe":
                subscribers.remove(client)
                respond(.success(["subscribed": false]))
            case "config.reload":
                do {
                    try workspace.reloadConfiguration()
                } catch {
                    auditNow(changed: nil, reason: "config.reload (failed)")
                    throw RPCError.serverError("configuration error, previous configuration kept: \(error)")
                }
                auditNow(changed: nil, reason: "config.reload")
                respond(.success(["id": current?.audit.id ?? 0, "summary": JSONLine.object(current?.audit.summary)]))
            default:
                throw RPCError.methodNotFound(method)
            }
        } catch let error as RPCError {
            respond(.failure(error))
        } catch {
            respond(.failure(.internalError("\(error)")))
        }
    }

    private func status() -> [String: Any] {
        storeQueue.sync {}  // historyWarning speaks of every published audit
        var result: [String: Any] = [
            "version": version, "pid": Int(getpid()), "root": options.root, "socket": server.path ?? "inherited",
            "stateDirectory": options.stateDirectory, "clients": server.clientCount, "subscribers": subscribers.count,
            "settleMilliseconds": Int(options.settle * 1000), "uptimeSeconds": Int(Date().timeIntervalSince(startTime)),
            "policy": workspace.policy.id, "watching": watchMode,
        ]
        var warnings: [String] = []
        if let aside = store?.movedAside { warnings.append("the previous history was corrupt and was moved to \(aside)") }
        if let problem = historyProblem { warnings.append("history is not being kept: \(problem)") }
        if !warnings.isEmpty { result["historyWarning"] = warnings.joined(separator: "; ") }
        if let problem = workspace.configurationProblem {
            result["configurationError"] = problem.description
        }
        if let nothingRead {
            result["inputError"] = nothingRead
        }
        if let audit = current?.audit {
            result["auditId"] = audit.id ?? 0
            result["time"] = audit.time ?? ""
            result["inputDigest"] = audit.inputDigest
            result["summary"] = JSONLine.object(audit.summary)
            result["statusLine"] = Self.statusLine(audit)
        }
        return result
    }

    private func latest(_ params: [String: Any]) throws -> Any {
        guard let audit = current?.audit else { throw RPCError.serverError("no audit yet") }
        let allowed: Set<String> = ["appearance", "theme", "rule", "severity", "component"]
        if let unknown = params.keys.first(where: { !allowed.contains($0) }) {
            throw RPCError.invalidParams("unknown filter \(unknown) (filters: appearance, theme, rule, severity, component)")
        }
        let theme = params["theme"] as? String
        if let theme, !(audit.themes ?? []).contains(where: { $0.name == theme }) {
            let names = (audit.themes ?? []).map(\.name)
            throw RPCError.invalidParams("unknown theme \(theme) (" + (names.isEmpty ? "the design system has no themes" : "themes: " + names.joined(separator: ", ")) + ")")
        }
        var appearance: Appearance?
        if let name = params["appearance"] as? String {
            guard let a = Appearance(rawValue: name) else {
                throw RPCError.invalidParams("unknown appearance \(name) (appearances: \(Appearance.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            appearance = a
        }
        var severity: Severity?
        if let name = params["severity"] as? String {
            guard let s = Severity(rawValue: name) else { throw RPCError.invalidParams("unknown severity \(name) (error, warning, info)") }
            severity = s
        }
        // The summary follows the filters, not only the findings; `rule` keeps the pair rows (`a11yctl latest --rule`
        // narrows them itself), so a client can still read the whole table next to one rule's findings.
        return JSONLine.object(audit.filtered(appearance: appearance, theme: theme, rule: params["rule"] as? String, severity: severity,
                                              component: params["component"] as? String, rowsByRule: false))
    }

    /// The store for history, diff and replay; without one, their error says why history is not kept.
    private func storeForQueries() throws -> AuditStore {
        storeQueue.sync {}  // history includes every published audit
        guard let store else { throw RPCError.serverError("history is not being kept: \(historyProblem ?? "no store")") }
        return store
    }

    private func history(_ params: [String: Any]) throws -> Any {
        let limit = params["limit"] as? Int ?? 20
        let before = params["before"] as? Int
        return try storeForQueries().history(limit: min(max(limit, 1), 500), before: before).map { stored -> [String: Any] in
            let diff = try? JSONDecoder().decode(AuditDiff.self, from: Data(stored.diffJSON.utf8))
            return ["id": stored.id, "time": stored.createdAt, "inputDigest": stored.inputDigest,
                    "summary": (try? JSONSerialization.jsonObject(with: Data(stored.summaryJSON.utf8))) ?? NSNull(),
                    "regressions": diff?.regressions.count ?? 0, "resolutions": diff?.resolutions.count ?? 0,
                    // The first audit has nothing to compare with: a baseline, not N regressions.
                    "baseline": diff.map { $0.fromAudit == nil } ?? false]
        }
    }

    private func diff(_ params: [String: Any]) throws -> Any {
        func load(_ id: Int) throws -> Audit {
            guard let stored = try storeForQueries().audit(id: id) else { throw RPCError.invalidParams("no stored audit \(id)") }
            return try JSONDecoder().decode(Audit.self, from: Data(stored.auditJSON.utf8))
        }
        if let from = params["from"] as? Int {
            let to = try (params["to"] as? Int).map(load) ?? (current?.audit ?? load(from))
            return JSONLine.object(AuditDiff.between(try load(from), to))
        }
        let stored: StoredAudit?
        if let to = params["to"] as? Int { stored = try storeForQueries().audit(id: to) } else { stored = try storeForQueries().latest() }
        guard let stored else { throw RPCError.serverError("no stored audit") }
        return (try? JSONSerialization.jsonObject(with: Data(stored.diffJSON.utf8))) ?? NSNull()
    }

    /// Registers a subscriber; with `since`, first replays every stored audit after that clock value.
    private func subscribe(_ client: RPCServer.ClientID, _ params: [String: Any], _ respond: @escaping @Sendable (Result<Any, RPCError>) -> Void) throws {
        // A request read before its client was dropped (too slow) must not subscribe it again after the drop removed it.
        guard server.isServing(client) else { return }
        subscribers.insert(client)
        respond(.success(["subscribed": true, "clock": current?.audit.id ?? 0]))
        // Nothing to replay without a store (history is not being kept: `status` says why).
        guard let since = params["since"] as? Int, let store else { return }
        storeQueue.sync {}  // the replay includes every published audit
        // Replayed from the stored JSON as is: no decoding of whole audits.
        for stored in try store.since(since) {
            guard server.isServing(client) else { return }
            let diff = (try? JSONSerialization.jsonObject(with: Data(stored.diffJSON.utf8))) as? [String: Any] ?? [:]
            let regressions = diff["regressions"] as? [Any] ?? [], resolutions = diff["resolutions"] as? [Any] ?? []
            let summary = (try? JSONSerialization.jsonObject(with: Data(stored.summaryJSON.utf8))) ?? NSNull()
            server.send(client, JSONLine.notification("audit.completed", [
                "id": stored.id, "time": stored.createdAt, "inputDigest": stored.inputDigest, "summary": summary,
                "regressions": regressions.count, "resolutions": resolutions.count,
            ]))
            for change in regressions { server.send(client, JSONLine.notification("regression", ["auditId": stored.id, "change": change])) }
            for change in resolutions { server.send(client, JSONLine.notification("resolution", ["auditId": stored.id, "change": change])) }
        }
    }
}
