import A11yReaders
import CInotifyTools
import Foundation
import Glibc

/// What the watcher reports: changed files (relative to the root), or "rescan everything".
public enum WatchEvent: Hashable, Sendable {
    case changed(Set<String>)
    /// The kernel queue overflowed, a directory moved or disappeared: the watched tree must be re-read.
    case rescan(reason: String)
}

public struct WatchLimitError: Error, CustomStringConvertible {
    public var path: String
    public var description: String {
        "cannot watch \(path): the inotify watch limit is reached (sysctl fs.inotify.max_user_watches = \(inotifytools_get_max_user_watches())); "
            + "raise it, e.g. `sudo sysctl fs.inotify.max_user_watches=524288` (persist in /etc/sysctl.d/), or exclude large directories"
    }
}

public struct WatchError: Error, CustomStringConvertible {
    public var description: String
}

/// Watches a directory tree through libinotifytools. The library keeps its state in process globals, is not
/// thread-safe and returns events in static storage, so every call happens on one dedicated thread and each event
/// is copied out at once. Directories (not files) are watched, so an editor's write-to-temp + rename onto a watched
/// name is seen. Stopping is prompt without polling: a private wake directory is watched too, and `stop()` creates a
/// file in it.
public final class FileWatcher: @unchecked Sendable {
    /// Directory names never watched: the same ones the workspace never reads.
    public static let skippedDirectories = Workspace.skippedDirectories

    public let root: String
    private let handler: @Sendable (WatchEvent) -> Void
    private var thread: Thread?
    private let wakeDirectory: String
    private let lock = NSLock()
    private var stopping = false
    private let started = DispatchSemaphore(value: 0)
    private var startError: Error?
    private let finished = DispatchSemaphore(value: 0)

    /// Only one watcher per process: libinotifytools has a single global instance.
    nonisolated(unsafe) private static var active = false
    private static let activeLock = NSLock()

    static let mask: Int32 = {
        var mask: Int32 = IN_CLOSE_WRITE
        for flag in [IN_MODIFY, IN_MOVED_TO, IN_MOVED_FROM, IN_CREATE, IN_DELETE, IN_DELETE_SELF, IN_MOVE_SELF] { mask |= flag }
        return mask
    }()

    /// At most this many directories are watched before the watch limit counts as reached (the seam tests use to
    /// reach the limit without changing the machine's `fs.inotify.max_user_watches`); nil: the kernel's limit.
    let maxWatches: Int?
    private var watchCount = 0

    public init(root: String, maxWatches: Int? = nil, handler: @escaping @Sendable (WatchEvent) -> Void) {
        self.maxWatches = maxWatches
        self.root = (root as NSString).standardizingPath
        self.handler = handler
        Self.removeWakeDirectoriesOfEndedProcesses()
        var template = Array((NSTemporaryDirectory() + "a11yd-wake-\(getpid())-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        wakeDirectory = made.map { String(cString: $0) } ?? (NSTemporaryDirectory() + "a11yd-wake-\(getpid())")
    }

    /// A watcher killed with SIGKILL cannot remove its wake directory; the next one removes those of ended processes
    /// (the pid is in the name), so kills never accumulate directories in the temporary directory.
    private static func removeWakeDirectoriesOfEndedProcesses() {
        let temporary = NSTemporaryDirectory()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary) else { return }
        for name in names where name.hasPrefix("a11yd-wake-") {
            let fields = name.dropFirst("a11yd-wake-".count).split(separator: "-")
            guard fields.count == 2, let pid = pid_t(fields[0]) else { continue }
            let path = temporary + "/" + name
            var info = stat()
            // Only our own directories, and only when their process is gone (ESRCH); EPERM means it runs as another user.
            guard stat(path, &info) == 0, info.st_uid == getuid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Starts watching; returns once every directory is watched, or throws (watch limit, missing root, another watcher).
    public func start() throws {
        try Self.activeLock.withLock {
            guard !Self.active else { throw WatchError(description: "only one FileWatcher can run per process (libinotifytools is global)") }
            Self.active = true
        }
        let thread = Thread { [self] in run() }
        thread.name = "a11yd.inotify"
        self.thread = thread
        thread.start()
        started.wait()
        if let startError {
            try? FileManager.default.removeItem(atPath: wakeDirectory)
            Self.activeLock.withLock { Self.active = false }
            throw startError
        }
    }

    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { stopping = true }
            return !stopping && thread != nil
        }
        guard wasRunning else { return }
        FileManager.default.createFile(atPath: wakeDirectory + "/wake", contents: nil)
        finished.wait()
        try? FileManager.default.removeItem(atPath: wakeDirectory)
        Self.activeLock.withLock { Self.active = false }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: wakeDirectory)
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    /// Set while the root does not exist: its parent is watched for the root's name to come back.
    private var waitingForRoot = false
    private var rootParent: String { (root as NSString).deletingLastPathComponent }
    private var rootName: String { (root as NSString).lastPathComponent }

    // MARK: - The inotify thread

    private func run() {
        defer { finished.signal() }
        do {
            try watchAll()
        } catch {
            startError = error
            inotifytools_cleanup()
            started.signal()
            return
        }
        started.signal()
        while !isStopping {
            // -1: block until an event arrives (no polling).
            guard let event = inotifytools_next_event(-1) else {
                if inotifytools_error() == EINTR { continue }
                handler(.rescan(reason: "inotify read failed (errno \(inotifytools_error()))"))
                break
            }
            // Copy everything out of the library's static storage before the next call.
            let mask = event.pointee.mask
            let wd = event.pointee.wd
            let directory = inotifytools_filename_from_wd(wd).map { String(cString: $0) } ?? ""
            // The name is a NUL-padded flexible array member right after the fixed-size header (inotify(7)).
            var name = ""
            if event.pointee.len > 0 {
                let bytes = UnsafeRawPointer(event).advanced(by: MemoryLayout<inotify_event>.size)
                    .assumingMemoryBound(to: CChar.self)
                name = String(cString: bytes)
            }
            if isStopping { break }
            process(mask: mask, wd: wd, directory: directory, name: name)
        }
        inotifytools_cleanup()
    }

    private func watchAll() throws {
        guard inotifytools_initialize() != 0 else {
            throw WatchError(description: "cannot initialise inotify (errno \(inotifytools_error()))")
        }
        guard inotifytools_watch_file(wakeDirectory, IN_CREATE) != 0 else {
            throw WatchError(description: "cannot watch \(wakeDirectory) (errno \(inotifytools_error()))")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WatchError(description: "\(root) is not a directory")
        }
        try watchTree(root)
    }

    /// Watches `directory` and every subdirectory not skipped.
    private func watchTree(_ directory: String) throws {
        var pending = [directory]
        while let dir = pending.popLast() {
            if let maxWatches, watchCount >= maxWatches { throw WatchLimitError(path: dir) }
            watchCount += 1
            if inotifytools_watch_file(dir, Self.mask) == 0 {
                let error = inotifytools_error()
                if error == ENOSPC { throw WatchLimitError(path: dir) }
                if error == ENOENT { continue } // gone meanwhile
                throw WatchError(description: "cannot watch \(dir) (errno \(error))")
            }
            guard let children = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for child in children where !Self.skippedDirectories.contains(child) {
                let path = dir + "/" + child
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                   (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil {
                    pending.append(path)
                }
            }
        }
    }

    /// Rebuilds every watch: directory renames and deletions leave libinotifytools' path table stale.
    private func rewatch(reason: String) {
        inotifytools_cleanup()
        watchCount = 0
        waitingForRoot = false
        do {
            try watchAll()
            handler(.rescan(reason: reason))
        } catch {
            // A deleted root (a branch switch, `rm -rf` and re-clone): watch its parent until it is back.
            if !FileManager.default.fileExists(atPath: root), inotifytools_watch_file(rootParent, IN_CREATE | IN_MOVED_TO) != 0 {
                waitingForRoot = true
                handler(.rescan(reason: "\(reason); waiting for \(root) to be created again"))
                return
            }
            handler(.rescan(reason: "\(reason); re-watching failed: \(error)"))
        }
    }

    static func isIgnored(name: String) -> Bool {
        name.hasSuffix(".swp") || name.hasSuffix(".swx") || name.hasSuffix(".swo") || name.hasSuffix("~") || name == "4913"
            || name.hasPrefix(".#") || name.hasSuffix(".tmp") || name.hasPrefix(".~") || name.hasSuffix(".___jb_tmp___")
            || name.hasSuffix(".___jb_old___")
    }

    private func process(mask: UInt32, wd: Int32, directory: String, name: String) {
        if directory.hasPrefix(wakeDirectory) { return }
        if waitingForRoot {
            let parent = rootParent.hasSuffix("/") ? rootParent : rootParent + "/"
            let here = directory.hasSuffix("/") ? directory : directory + "/"
            if here == parent, name == rootName, mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 {
                rewatch(reason: "the watched root was created again")
            }
            return
        }
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return rewatch(reason: "the inotify queue overflowed") }
        // A watch libinotifytools no longer maps (removed while its events were queued): nothing to attribute it to.
        if directory.isEmpty { return }
        let isDirectory = mask & UInt32(IN_ISDIR) != 0
        let directory = directory.hasSuffix("/") ? directory : directory + "/"
        // A watched directory moved or was deleted. For subdirectories the parent's IN_MOVED_FROM / IN_DELETE
        // already rebuilds the watches; only the root's own disappearance needs handling here.
        if mask & (UInt32(IN_IGNORED) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 {
            if directory == root + "/" { rewatch(reason: "the watched root moved or disappeared") }
            return
        }
        if isDirectory {
            if Self.skippedDirectories.contains(name) { return }
            // libinotifytools keeps paths per watch and does not follow renames or handle IN_IGNORED: rebuild.
            if mask & (UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE)) != 0 { return rewatch(reason: "directory \(name) was moved or deleted") }
            if mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 {
                let path = directory + name
                do {
                    try watchTree(path)
                    handler(.rescan(reason: "new directory \(relative(path))"))
                } catch {
                    handler(.rescan(reason: "cannot watch new directory \(path): \(error)"))
                }
            }
            return
        }
        guard !name.isEmpty, !Self.isIgnored(name: name) else { return }
        let path = relative(directory + name)
        if path.split(separator: "/").contains(where: { Self.skippedDirectories.contains(String($0)) }) { return }
        handler(.changed([path]))
    }

    private func relative(_ path: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
