import A11yReaders
import ArgumentParser
import Foundation

/// `a11yctl service install|uninstall`: the systemd user units, with the real binary path and watched root.
extension A11yCtl {
    struct Service: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "service",
            abstract: "Install or remove the a11yd systemd user service (socket-activated).",
            subcommands: [Install.self, Uninstall.self])

        static var unitDirectory: String {
            let env = ProcessInfo.processInfo.environment
            let config = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? NSHomeDirectory()) + "/.config")
            return config + "/systemd/user"
        }

        /// The unit templates: `$A11YD_SYSTEMD_UNITS`, then `share/a11yd/systemd` beside the prefix, then `systemd/` above the executable.
        static func templateDirectory() -> String? {
            var candidates: [String] = []
            if let env = ProcessInfo.processInfo.environment["A11YD_SYSTEMD_UNITS"], !env.isEmpty { candidates.append(env) }
            candidates += PolicyReader.installedDirectories(named: "systemd")
            return candidates.first { FileManager.default.fileExists(atPath: $0 + "/a11yd.service") }
        }

        static func systemctl(_ arguments: [String]) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["systemctl", "--user"] + arguments
            try p.run()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else {
                throw ValidationError("systemctl --user \(arguments.joined(separator: " ")) failed (exit \(p.terminationStatus))")
            }
        }

        struct Install: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "install",
                abstract: "Write a11yd.service and a11yd.socket into ~/.config/systemd/user, reload, enable and start the socket.")
            @Option(help: "The design system to watch.") var root: String
            @Option(help: "The a11yd binary (default: next to a11yctl).") var daemon: String?
            @Flag(help: "Only write the units; do not run systemctl.") var noSystemctl = false

            func run() throws {
                guard let templates = Service.templateDirectory() else {
                    throw ValidationError("unit templates not found; set A11YD_SYSTEMD_UNITS to the systemd/ directory")
                }
                let binary = daemon ?? PolicyReader.installedFile("a11yd")
                guard FileManager.default.isExecutableFile(atPath: binary) else { throw ValidationError("\(binary) is not an executable a11yd") }
                let rootPath = URL(fileURLWithPath: root).standardizedFileURL.path
                guard FileManager.default.fileExists(atPath: rootPath) else { throw ValidationError("\(rootPath) does not exist") }
                // systemd unit syntax: spaces in paths are written \x20 inside ExecStart=.
                func escape(_ s: String) -> String { s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: " ", with: "\\x20") }
                try FileManager.default.createDirectory(atPath: Service.unitDirectory, withIntermediateDirectories: true)
                for unit in ["a11yd.service", "a11yd.socket"] {
                    let text = try String(contentsOfFile: templates + "/" + unit, encoding: .utf8)
                        .replacingOccurrences(of: "@A11YD@", with: escape(binary))
                        .replacingOccurrences(of: "@ROOT@", with: escape(rootPath))
                    try text.write(toFile: Service.unitDirectory + "/" + unit, atomically: true, encoding: .utf8)
                }
                print("wrote \(Service.unitDirectory)/a11yd.service and a11yd.socket (watching \(rootPath))")
                guard !noSystemctl else { return }
                try Service.systemctl(["daemon-reload"])
                try Service.systemctl(["enable", "--now", "a11yd.socket"])
                print("enabled a11yd.socket: `a11yctl status` starts the daemon")
            }
        }

        struct Uninstall: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "uninstall",
                abstract: "Stop and disable the units, remove them, reload.")
            @Flag(help: "Only remove the unit files; do not run systemctl.") var noSystemctl = false

            func run() throws {
                if !noSystemctl {
                    try? Service.systemctl(["disable", "--now", "a11yd.socket", "a11yd.service"])
                }
                for unit in ["a11yd.service", "a11yd.socket"] {
                    try? FileManager.default.removeItem(atPath: Service.unitDirectory + "/" + unit)
                }
                if !noSystemctl { try Service.systemctl(["daemon-reload"]) }
                print("removed a11yd.service and a11yd.socket from \(Service.unitDirectory)")
            }
        }
    }
}
