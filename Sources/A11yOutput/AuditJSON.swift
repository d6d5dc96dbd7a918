import A11yEngine
import Foundation

/// The JSON form of an audit (schema: docs/audit-json.md). Sorted keys and stable ordering: the same input gives
/// byte-identical output.
public enum AuditJSON {
    public static func encode<T: Encodable>(_ value: T, pretty: Bool = true) throws -> Data {
        var bytes = try SortedJSONEncoder(pretty: pretty).encode(value)
        if pretty { bytes.append(0x0A) }
        return Data(bytes)
    }

    /// The same text as `encode`, written to `handle` as it is produced (a large audit is never one buffer).
    public static func write<T: Encodable>(_ value: T, pretty: Bool = true, to handle: FileHandle) throws {
        try SortedJSONEncoder(pretty: pretty).write(value) { try handle.write(contentsOf: $0) }
        if pretty { try handle.write(contentsOf: [0x0A]) }
    }
}
