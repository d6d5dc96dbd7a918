import A11yEngine
import Foundation

/// Reads a design system directory into an `AuditInput`: configuration, policy, and one `ParsedSource` per file.
/// The only place the one-shot audit touches the disk.
public struct DesignSystemLoader {
    public struct Loaded {
        public var input: AuditInput
        public var root: String
        /// Files read, relative to the working directory (as they appear in locations).
        public var files: [String]
    }

    public var policySearchDirectories: [String]

    public init(policySearchDirectories: [String] = PolicyReader.presetDirectories()) {
        self.policySearchDirectories = policySearchDirectories
    }

    /// Directories never audited, whatever the globs say: VCS, build products, dependencies.
    static let skippedDirectories: Set<String> = [".git", ".build", "DerivedData", "Pods", "Carthage", "node_modules", ".swiftpm"]

    public func load(root: String, policyOverride: String? = nil) throws(ConfigurationError) -> Loaded {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw ConfigurationError("\(root): no such file or directory")
        }
        let rootDir = isDirectory.boolValue ? root : (root as NSString).deletingLastPathComponent
        let configPath = (rootDir as NSString).appendingPathComponent(ConfigurationReader.fileName)
        var configuration = ProjectConfiguration()
        if fm.fileExists(atPath: configPath) {
            guard let text = try? String(contentsOfFile: configPath, encoding: .utf8) else {
                throw ConfigurationError("cannot read \(configPath)")
            }
            configuration = try ConfigurationReader.read(text, file: configPath)
        }
        let policyName = policyOverride ?? configuration.policy
        let preset = try PolicyReader.load(policyName, relativeTo: rootDir, searchDirectories: policySearchDirectories,
                                           referencedAt: policyOverride == nil && configuration.file != nil
                                               ? SourceLocation(file: configPath, line: 1, column: 1) : nil)
        let policy = configuration.customize(preset)

        let relativeFiles = isDirectory.boolValue
            ? Self.files(under: root, include: configuration.include.map(Glob.init), exclude: configuration.exclude.map(Glob.init))
            : [(root as NSString).lastPathComponent]
        let reader = SwiftSourceReader(customFlags: Set(configuration.flags))
        var sources: [ParsedSource] = []
        var suppressions: [Suppression] = []
        var files: [String] = []
        var digest = FNV1a64()
        for relative in relativeFiles {
            let path = isDirectory.boolValue ? (root as NSString).appendingPathComponent(relative) : root
            files.append(path)
            guard let data = fm.contents(atPath: path) else {
                sources.append(ParsedSource(file: path, findings: [Finding(
                    rule: "parse", severity: .error, subject: path, message: "cannot read \(path)",
                    location: SourceLocation(file: path, line: 1, column: 1))]))
                continue
            }
            digest.add(relative)
            digest.add(data)
            guard let text = String(data: data, encoding: .utf8) else {
                sources.append(ParsedSource(file: path, findings: [Finding(
                    rule: "parse", severity: .error, subject: path, message: "\(path) is not UTF-8 text",
                    location: SourceLocation(file: path, line: 1, column: 1))]))
                continue
            }
            if relative.hasSuffix(".swift") {
                sources.append(reader.read(source: text, file: path))
                suppressions += InlineSuppressions.scan(text, file: path)
            }
        }
        let input = AuditInput(sources: sources, configuration: configuration, policy: policy,
                               inputDigest: "fnv1a64:" + digest.hex, suppressions: suppressions)
        return Loaded(input: input, root: root, files: files)
    }

    /// Files below `root` matching the globs, relative and sorted (so audits are deterministic).
    static func files(under root: String, include: [Glob], exclude: [Glob]) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var result: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if skippedDirectories.contains(name) {
                enumerator.skipDescendants()
                continue
            }
            if let type = enumerator.fileAttributes?[.type] as? FileAttributeType, type == .typeDirectory { continue }
            guard include.contains(where: { $0.matches(relative) }), !exclude.contains(where: { $0.matches(relative) }) else { continue }
            result.append(relative)
        }
        return result.sorted()
    }
}

/// 64-bit FNV-1a: a fast, dependency-free digest to tell whether the input changed (not a security hash).
struct FNV1a64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        add(separator: ())
    }

    mutating func add(_ string: String) { add(Array(string.utf8)) }

    private mutating func add(separator: Void) {
        value ^= 0xFF
        value = value &* 0x0000_0100_0000_01b3
    }

    var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
