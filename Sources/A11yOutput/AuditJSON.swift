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
        func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            do { try handle.write(contentsOf: UnsafeRawBufferPointer(bytes)) } catch { throw OutputWriteError(error) }
        }
        try SortedJSONEncoder(pretty: pretty).write(value, to: write)
        if pretty { try [UInt8(0x0A)].withUnsafeBufferPointer(write) }
    }
}

/// The output could not be written (a full disk, a pipe closed early), said as the system says it.
public struct OutputWriteError: Error, CustomStringConvertible {
    public let description: String

    init(_ error: any Error) {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain {
            description = "cannot write the output: " + String(cString: strerror(Int32(underlying.code)))
        } else {
            description = "cannot write the output: \(error.localizedDescription)"
        }
    }
}
