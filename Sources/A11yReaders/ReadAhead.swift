import A11yEngine
import Foundation

/// A one-shot audit's Swift files, read and parsed on a pool thread while the command still loads `.a11yd.yml` and the
/// policy (~2 ms on the command's thread, with the other core otherwise idle). The audit's `Workspace.refresh` takes
/// what was read ahead instead of reading it again, and reads the rest itself.
///
/// Read ahead as `refresh` would read them: the files `.a11yd.yml` includes (read here too), with its `#if` flags, by the
/// same function (`Workspace.read`). `refresh` takes an entry only for a file it lists, read with the flags it reads
/// with; a configuration that cannot be read leaves nothing read ahead (the audit reports it).
/// Only the first full `refresh` (every file, no `changed` set) takes entries: the daemon never starts a read-ahead, and
/// its refreshes after saves do not ask.
public final class ReadAhead: @unchecked Sendable {
    public static let shared = ReadAhead()

    /// A file's state: being read ahead, or read ahead (its entry; nil for none).
    enum State {
        case reading
        case read(Workspace.Entry?)
    }

    public init() {}

    private let lock = NSLock()
    private var root: String?
    /// The `#if` flags the files were read with.
    private var flags: Set<String> = []
    private var states: [String: State] = [:]
    /// Set once a read-ahead has started (there is one a process).
    private var started = false
    /// Set by the audit's first claim: nothing more is read ahead, and later claims (a daemon's refreshes) get nothing.
    private var claimed = false

    /// Reads the Swift files below `root` that its `.a11yd.yml` includes, largest first, until the audit claims what was
    /// read (it does so when it starts reading).
    public func read(root: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        lock.lock()
        guard !started, !claimed else { lock.unlock(); return }
        started = true
        lock.unlock()
        guard let configuration = try? Workspace.configuration(at: Workspace.path(of: ConfigurationReader.fileName, below: root))
        else { return }
        let files = Workspace.files(below: root, configuration: configuration)
            .filter { $0.hasSuffix(".swift") }
            .map { ($0, Workspace.fileSize(Workspace.path(of: $0, below: root))) }
            .sorted { $0.1 > $1.1 }
            .map(\.0)
        let reader = SwiftSourceReader(customFlags: Set(configuration.flags))
        lock.lock()
        (self.root, flags) = (root, Set(configuration.flags))
        lock.unlock()
        for relative in files {
            lock.lock()
            guard !claimed else { lock.unlock(); return }
            states[relative] = .reading
            lock.unlock()
            let entry = Workspace.read(relative, path: Workspace.path(of: relative, below: root), previous: nil, reader: reader,
                                       modes: [:])
            lock.lock()
            states[relative] = .read(entry)
            lock.unlock()
        }
    }

    /// What was read ahead of `files` below `root` with `flags`: each file read or being read, by relative path. Nothing
    /// is read ahead after this (the caller reads every other file); a second claim gets nothing.
    func claim(root: String, flags: Set<String>, files: [String]) -> [String: State] {
        lock.lock()
        defer { lock.unlock() }
        guard !claimed else { return [:] }
        claimed = true
        guard self.root == root, self.flags == flags else { return [:] }
        var found: [String: State] = [:]
        for relative in files { found[relative] = states[relative] }
        return found
    }

    /// How many files were read ahead or are being read (tests).
    var filesStarted: Int {
        lock.lock()
        defer { lock.unlock() }
        return states.count
    }

    /// How many files the audit waited for, still being read when it claimed them (tests).
    var filesWaitedFor: Int {
        lock.lock()
        defer { lock.unlock() }
        return waitedFor
    }
    private var waitedFor = 0

    /// The entry of a file being read ahead, once it is read; the caller helps with the pool's work meanwhile (the file
    /// is read in parts when it is large).
    func entry(waitingFor relative: String) -> Workspace.Entry? {
        func state() -> State? {
            lock.lock()
            defer { lock.unlock() }
            return states[relative]
        }
        lock.lock()
        waitedFor += 1
        lock.unlock()
        WorkerPool.shared.help { if case .read? = state() { return true } else { return false } }
        if case .read(let entry)? = state() { return entry }
        return nil
    }
}
