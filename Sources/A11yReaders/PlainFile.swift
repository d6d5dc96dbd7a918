import Glibc

/// Files and paths read with plain system calls (`open`, `read`, `readlink`, `realpath`). Foundation's readers
/// (`String(contentsOfFile:)`, `FileManager.contents(atPath:)`, `URL.resolvingSymlinksInPath()`) and the standard
/// library's `split` have the runtime look generic types up by mangled name at their first use, each a scan of every
/// conformance record of the static binary (0.6–1 M instructions): a11yctl reads its first files (the cores it may use,
/// the configuration, the policy, then the design system) before anything else has made those look-ups.
enum PlainFile {
    /// The file's bytes (its first `limit` of them), nil when it cannot be opened or read (a directory, say).
    static func bytes(atPath path: String, limit: Int = .max) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        // The size when the file system knows it (a regular file); files in /proc and /sys say 0 and are read in steps.
        let size = fstat(fd, &info) == 0 && info.st_size > 0 ? Int(info.st_size) : 4096
        var bytes = [UInt8](repeating: 0, count: min(limit, size + 1))
        var count = 0
        while count < limit {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(limit - count, max(bytes.count, 4096)))) }
            let got = bytes.withUnsafeMutableBytes { buffer in read(fd, buffer.baseAddress! + count, buffer.count - count) }
            if got < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// The file as UTF-8 text, a byte order mark dropped; nil when it cannot be read or is not UTF-8 (as Foundation's
    /// `String(contentsOfFile:encoding: .utf8)`).
    static func text(atPath path: String) -> String? {
        bytes(atPath: path).flatMap(text(of:))
    }

    /// Bytes as UTF-8 text, a byte order mark dropped; nil when they are not UTF-8 (as `String(data:encoding: .utf8)`).
    static func text(of bytes: [UInt8]) -> String? {
        let hasMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        return String(validating: bytes[(hasMark ? 3 : 0)...], as: UTF8.self)
    }

    /// Where a symbolic link points, nil when `path` is not one.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` with every symbolic link resolved (`realpath`); `path` itself when that fails (it does not exist).
    static func resolvingSymlinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `name` inside `directory`, one slash between them (as `NSString.appendingPathComponent`, for these paths).
    static func joined(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// An absolute path without its last component (`/a/b/c` -> `/a/b`, `/a/b/` -> `/a`, `/a` -> `/`, `/` -> `/`).
    static func parent(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }
}
