import A11yEngine
import Foundation
import Testing

/// bench/peer_audit.py is what `a11y-bench peer` times a11yctl against; the comparison only means something if the
/// script measures the same pairs with the same WCAG 2.x ratios. Needs Debian's /usr/bin/python3 (package python3);
/// its coloraide variant needs coloraide in .build/peer/site, which set-up does not put there (Debian packages none, and
/// set-up installs nothing with pip: BENCHMARKS.md, "The issue's peer").
struct PeerAuditTests {
    static let python = "/usr/bin/python3"
    static let script = CLITests.packageRoot.appendingPathComponent("bench/peer_audit.py").path
    static let coloraideSite = CLITests.packageRoot.appendingPathComponent(".build/peer/site").path

    // The shape `a11y-bench` generates: tokens through `adaptive(light:dark:)`, a styling enum aliasing them.
    static let system = [
        "DesignTokens.swift": """
            import SwiftUI
            extension Color {
                static func adaptive(light: String, dark: String) -> Color {
                    Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(Color(hex: dark)) : UIColor(Color(hex: light)) })
                }
                static let benchSurfaceBasePrimary = adaptive(light: "#FFFFFF", dark: "#0B1120")
                static let benchText0 = adaptive(light: "#777777", dark: "#AAAAAA")
                static let benchIcon1 = adaptive(light: "#3366FF", dark: "#99BBFF")
                static let benchText2 = adaptive(light: "#1A1A1A", dark: "#5C5C5C")
                static let benchSurface3 = adaptive(light: "#FFFFFF", dark: "#000000")
                static let benchSurface7 = adaptive(light: "#F2E8D5", dark: "#202A44")
            }
            """,
        "NativeComponentStyling.swift": """
            import SwiftUI
            enum BenchComponent0Styling {
                struct Colors {
                    static let label = Color.benchText0
                    static let icon = Color.benchIcon1
                    static let background = Color.benchSurface3
                }
            }
            enum BenchComponent1Styling {
                struct Colors {
                    static let label = Color.benchText2
                    static let border = Color.benchIcon1
                    static let background = Color.benchSurface7
                }
            }
            """,
        ".a11yd.yml": "policy: wcag21-aa\nsurfaces: [benchSurfaceBasePrimary]\n",
    ]

    static func peer(_ dir: URL, contrast: String) throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, "--contrast", contrast, dir.path]
        process.environment = ["PYTHONPATH": coloraideSite]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(json["pairs"] as? [[String: Any]])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: python), "needs /usr/bin/python3 (Debian package python3)"))
    func peerMeasuresTheSamePairsWithTheSameRatiosAsA11yctl() throws {
        try measuresTheSamePairsAsA11yctl(contrast: "stdlib", tolerance: 1e-9)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: python) && FileManager.default.fileExists(atPath: coloraideSite + "/coloraide/__init__.py"),
                   "needs /usr/bin/python3 and coloraide in .build/peer/site (BENCHMARKS.md, \"The issue's peer\")"))
    func theIssuesPeerMeasuresTheSamePairsWithTheSameRatiosThroughColoraide() throws {
        // coloraide weighs the channels by its own sRGB-to-XYZ matrix (0.212639, 0.715169, 0.072192), not WCAG's
        // rounded 0.2126, 0.7152, 0.0722: the ratios of colored pairs differ in the fourth decimal.
        try measuresTheSamePairsAsA11yctl(contrast: "coloraide", tolerance: 1e-3)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: python), "needs /usr/bin/python3 (Debian package python3)"))
    func withoutColoraideTheIssuesPeerSaysHowToGetIt() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.script, "--contrast", "coloraide", "/nonexistent"]
        process.environment = ["PYTHONPATH": "/nonexistent"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(message.contains("coloraide is not importable"), "\(message)")
        #expect(message.contains("BENCHMARKS.md"), "\(message)")
        #expect(message.contains("--contrast stdlib"), "\(message)")
    }

    func measuresTheSamePairsAsA11yctl(contrast: String, tolerance: Double) throws {
        let dir = try CLITests.temporaryDesignSystem(Self.system)
        defer { try? FileManager.default.removeItem(at: dir) }
        func key(_ component: Any?, _ foreground: Any?, _ background: Any?, _ appearance: Any?) -> String {
            "\(component ?? "-") \(foreground ?? "-") on \(background ?? "-") \(appearance ?? "-")"
        }
        var peerRatios: [String: Double] = [:]
        for pair in try Self.peer(dir, contrast: contrast) {
            peerRatios[key(pair["component"], pair["foreground"], pair["background"], pair["appearance"])] = pair["ratio"] as? Double
        }
        let audit = try CLITests.run(["audit", dir.path, "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: audit.stdout) as? [String: Any], "\(audit.stderr)")
        var ctlRatios: [String: Double] = [:]
        for pair in try #require(json["pairs"] as? [[String: Any]]) {
            let fg = pair["foreground"] as? [String: Any], bg = pair["background"] as? [String: Any]
            ctlRatios[key(pair["component"], fg?["property"], bg?["property"], pair["appearance"])] = pair["ratio"] as? Double
        }
        // 2 components x 2 foregrounds x light and dark.
        #expect(peerRatios.count == 8)
        #expect(Set(peerRatios.keys) == Set(ctlRatios.keys))
        for (pair, ratio) in peerRatios {
            #expect(abs(ratio - (ctlRatios[pair] ?? 0)) < tolerance, "\(pair): peer \(ratio), a11yctl \(ctlRatios[pair] ?? 0)")
        }
        // And the engine's own formula on the inputs: #777777 on white is the classic just-failing 4.478:1 (a gray's
        // luminance is the same under either set of weights, which sum to 1).
        let light = try #require(peerRatios["BenchComponent0Styling label on background light"])
        #expect(abs(light - ColorValue.contrastRatio(ColorValue(hex: "#777777")!, .white)) < 1e-12)
        #expect(displayRatio(light) == "4.47")
        let dark = try #require(peerRatios["BenchComponent1Styling border on background dark"])
        #expect(abs(dark - ColorValue.contrastRatio(ColorValue(hex: "#99BBFF")!, ColorValue(hex: "#202A44")!)) < max(tolerance, 1e-12))
    }
}
