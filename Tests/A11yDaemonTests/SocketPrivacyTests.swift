@testable import A11yDaemon
import A11yClient
import Foundation
import Glibc
import Testing

/// The socket directory is trusted only when it is ours and others cannot write to it, on both sides.
struct SocketPrivacyTests {
    static func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11yd-sock-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return dir
    }

    @Test func aSocketDirectoryOwnedByAnotherUserIsRefusedByDaemonAndClient() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketDirectory = dir + "/a11yd"
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Pre-created by someone else (nobody, 65534). Only root can give a directory away.
        guard chown(socketDirectory, 65534, 65534) == 0 else {
            print("skipped: giving a directory to another user needs root")
            return
        }
        #expect { try RPCServer.bind(path: socketDirectory + "/a11yd.sock") } throws: { "\($0)".contains("belongs to another user") }
        #expect { try RPCClient(socketPath: socketDirectory + "/a11yd.sock") } throws: { "\($0)".contains("refusing to connect") }
    }

    @Test func aSocketDirectoryOthersCanWriteIsRefusedWithWhatToDo() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketDirectory = dir + "/a11yd"
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        chmod(socketDirectory, 0o777)
        #expect { try RPCServer.bind(path: socketDirectory + "/a11yd.sock") } throws: { "\($0)".contains("chmod 700") }
        #expect { try RPCClient(socketPath: socketDirectory + "/a11yd.sock") } throws: { "\($0)".contains("writable by other users") }
    }

    @Test func theTmpFallbackChecksTheUserDirectoryToo() {
        #expect(SocketLocation.privateDirectories(of: "/tmp/a11yd-1000/a11yd/a11yd.sock") == ["/tmp/a11yd-1000", "/tmp/a11yd-1000/a11yd"])
        #expect(SocketLocation.privateDirectories(of: "/run/user/1000/a11yd/a11yd.sock") == ["/run/user/1000/a11yd"])
        #expect(SocketLocation.resolve(explicit: nil, environment: [:]) == "/tmp/a11yd-\(getuid())/a11yd/a11yd.sock")
    }
}
