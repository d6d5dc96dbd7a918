import Foundation
import Testing

/// The systemd user units: what `systemctl status` shows is stable and documented, and only the socket is enabled.
struct UnitFileTests {
    static func unit(_ name: String) throws -> [String] {
        try String(contentsOfFile: CLITests.packageRoot.appendingPathComponent("systemd/\(name)").path, encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }

    @Test(arguments: ["a11yd.service", "a11yd.socket"])
    func everyUnitHasADescriptionWithoutSpecifiersAndDocumentation(name: String) throws {
        let lines = try Self.unit(name)
        let description = try #require(lines.first { $0.hasPrefix("Description=") })
        #expect(!description.contains("%"), "\(description)")
        let documentation = try #require(lines.first { $0.hasPrefix("Documentation=") })
        #expect(documentation.contains("man:a11yd(8)"))
    }

    @Test func onlyTheSocketIsInstalledTheServiceIsStartedByIt() throws {
        #expect(!(try Self.unit("a11yd.service")).contains { $0.hasPrefix("WantedBy=") || $0 == "[Install]" })
        #expect(try Self.unit("a11yd.socket").contains("WantedBy=sockets.target"))
    }
}
