import A11yEngine
import Foundation

/// A one-shot audit's Swift files, read and parsed on a pool thread while the command still loads `.a11yd.yml` and the
/// policy (~2 ms on the command's thread, with the other core otherwise idle). The audit's `Workspace.refresh` takes
/// what was read ahead instead of reading it again, and reads the rest itself.
///
/// Read ahead as `refresh` would read them: the same function (`Workspace.read`), with the default `#if` flags; a
/// configuration that sets flags or leaves files out makes some of that work useless, never a result different
/// (`refresh` takes a file's entry only when its configuration has no flags, and only for the files it lists).
/// Only the first `refresh` of a workspace on the same root takes entries: the daemon never starts a read-ahead.
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
    private var states: [String: State] = [:]
    /// Set by the audit's first claim: nothing more is read ahead, and later claims (a daemon's refreshes) get nothing.
    private var claimed = false

    /// Reads the Swift files below `root` that the default configuration includes, largest first, until the audit claims
    /// what was read (it does so when it starts reading).
    public func read(root: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        lock.lock()
        guard self.root == nil, !claimed else { lock.unlock(); return }
        self.root = root
        lock.unlock()
        let include = ProjectConfiguration.defaultInclude.filter { $0.hasSuffix(".swift") }.map(Glob.init)
        let files = Workspace.filesBelow(root)
            .filter { relative in relative.hasSuffix(".swift") && include.contains { $0.matches(relative) } }
            .map { ($0, Workspace.fileSize(Workspace.path(of: $0, below: root))) }
            .sorted { $0.1 > $1.1 }
            .map(\.0)
        let reader = SwiftSourceReader(customFlags: [])
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

    /// What was read ahead of `files` below `root`: each file read or being read, by relative path. Nothing is read
    /// ahead after this (the caller reads every other file); a second claim gets nothing.
    func claim(root: String, files: [String]) -> [String: State] {
        lock.lock()
        defer { lock.unlock() }
        guard !claimed else { return [:] }
        claimed = true
        guard self.root == root else { return [:] }
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

    /// The entry of a file being read ahead, once it is read; the caller helps with the pool's work meanwhile (the file
    /// is read in parts when it is large).
    func entry(waitingFor relative: String) -> Workspace.Entry? {
        func state() -> State? {
            lock.lock()
            defer { lock.unlock() }
            return states[relative]
        }
        WorkerPool.shared.help { if case .read? = state() { return true } else { return false } }
        if case .read(let entry)? = state() { return entry }
        return nil
    }
}
