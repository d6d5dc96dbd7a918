import Foundation

/// Where a token, value or finding comes from. Lines and columns are 1-based, as editors show them.
///
/// The file is held as its interned `SourceFile`, without reference counting: every expression carries a location, and
/// a location that held its path as a `String` retained and released that path's one shared storage at every copy. The
/// workers of a large audit contended for that one count (a 5,000-token audit: 96-100 ms of CPU on two cores with a
/// long path against 81 with a path short enough to be stored inline, BENCHMARKS.md).
public struct SourceLocation: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    // Never released: `SourceFile.named` keeps every file it makes for the life of the process.
    private unowned(unsafe) var source: SourceFile
    public var line: Int
    public var column: Int

    public var file: String {
        get { source.path }
        set { source = SourceFile.named(newValue) }
    }

    public init(file: String, line: Int, column: Int) {
        self.init(in: SourceFile.named(file), line: line, column: column)
    }

    /// A location in a file already interned (readers make thousands per file).
    public init(in source: SourceFile, line: Int, column: Int) {
        self.source = source
        self.line = line
        self.column = column
    }

    /// The file as an identity, equal exactly when the paths are (one `SourceFile` per path).
    public var fileIdentity: ObjectIdentifier { ObjectIdentifier(source) }

    /// The path's UTF-8 bytes, read without counting references (`SourceFile.pathBytes`).
    public var fileBytes: UnsafeBufferPointer<UInt8> { source.pathBytes }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        if a.source !== b.source { return a.file < b.file }
        return (a.line, a.column) < (b.line, b.column)
    }

    // One file, one `SourceFile` (paths equal as strings are interned as one), so identity is equality.
    public static func == (a: SourceLocation, b: SourceLocation) -> Bool {
        a.source === b.source && a.line == b.line && a.column == b.column
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(source))
        hasher.combine(line)
        hasher.combine(column)
    }

    private enum CodingKeys: String, CodingKey { case file, line, column }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(file: try container.decode(String.self, forKey: .file), line: try container.decode(Int.self, forKey: .line),
                  column: try container.decode(Int.self, forKey: .column))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
    }
}

/// A source file's path, interned: one object per path for the life of the process, so that locations can refer to it
/// without counting references. A daemon keeps one per path it has ever read: bounded by the design system's files.
public final class SourceFile: @unchecked Sendable {  // unchecked: `pathBytes` is written once, in `init`, only read after
    public let path: String
    /// `path`'s bytes in memory of their own, never freed (nor is the file): the output's writers, on several cores, read
    /// them for every finding, and reading `path` retained and released its one shared storage each time, a count the
    /// cores took from each other.
    public let pathBytes: UnsafeBufferPointer<UInt8>

    private init(path: String) {
        self.path = path
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: path.utf8.count)
        _ = bytes.initialize(from: path.utf8)
        pathBytes = UnsafeBufferPointer(bytes)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var byPath: [String: SourceFile] = [:]

    /// The file of `path`, made on first use.
    public static func named(_ path: String) -> SourceFile {
        lock.lock()
        defer { lock.unlock() }
        if let known = byPath[path] { return known }
        let file = SourceFile(path: path)
        byPath[path] = file
        return file
    }
}
