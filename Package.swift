// swift-tools-version:6.0
import Foundation
import PackageDescription

// Release builds of every target of ours reach the metadata of concrete generic types (`[NameKey: Value]`,
// `Set<String>`) through accessors given the witness tables, not by mangled name: the runtime resolves a mangled name's
// `Hashable` requirement by scanning all 11,400 conformance records of the static binary, ~650,000 instructions per
// type (a tenth of DesignResourcesKit's audit, BENCHMARKS.md). The Makefile's release builds pass the flag to the
// dependencies too (`RELEASE_FLAGS`), which a package cannot set for them.
let metadataAccessFlags = ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]
let metadataAccessSettings: [SwiftSetting] = [.unsafeFlags(metadataAccessFlags, .when(configuration: .release))]
// Release builds of the engine, readers and output also do not check exclusive access at run time: the interpreter's
// state is a class, and each read or write of it was checked (3% of evaluating a large token file, BENCHMARKS.md).
// Debug builds, which the tests run, still check it.
// Release builds of the engine, readers and output are also optimised with a profile of real audits (LLVM's IR-level
// profile-guided optimisation): Profiles/a11y.profdata, remade by scripts/make-profile.sh, which builds them instrumented
// (A11Y_PGO=generate) in a scratch directory of its own (`make profile`). A cold 5,000-token audit runs 4.8% fewer
// instructions (BENCHMARKS.md, "Profile-guided optimisation"). A profile older than the code is still used for the
// functions it matches; A11Y_PGO=off builds without it.
let profilePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Profiles/a11y.profdata").path
let profileFlags: [String] = switch ProcessInfo.processInfo.environment["A11Y_PGO"] {
case "generate": ["-Xfrontend", "-ir-profile-generate"]
case "off": []
default: FileManager.default.fileExists(atPath: profilePath) ? ["-Xfrontend", "-ir-profile-use=" + profilePath] : []
}
let releaseSettings: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"] + metadataAccessFlags + profileFlags, .when(configuration: .release)),
]

let package = Package(
    name: "a11yd",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "a11yctl", targets: ["a11yctl"]),
        .executable(name: "a11yd", targets: ["a11yd"]),
        .executable(name: "a11y-bench", targets: ["a11y-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "602.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // Pure audit engine: colors, token graph, pairing, rules, policy, audit, diff. No I/O.
        .target(name: "A11yEngine", dependencies: ["CSpinHint"], swiftSettings: releaseSettings),
        // Readers turn files into engine values: Swift sources (SwiftSyntax), project config and policies (Yams).
        .target(
            name: "A11yReaders",
            dependencies: [
                "A11yEngine",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftOperators", package: "swift-syntax"),
                .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: releaseSettings),
        // Human and machine output of an audit: table, JSON, SARIF.
        .target(name: "A11yOutput", dependencies: ["A11yEngine"], swiftSettings: releaseSettings),
        // libinotifytools (GPL-2.0) and SQLite, linked as system libraries (no pkg-config file for inotifytools).
        .systemLibrary(name: "CInotifyTools", path: "Sources/CInotifyTools"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // sd-bus from libsystemd, for desktop notifications over the session bus.
        .systemLibrary(name: "CSystemd", path: "Sources/CSystemd"),
        // glibc's malloc.h: the malloc arenas (M_ARENA_MAX: two in a11yctl, one in a11yd), a heap reserved at once and
        // backed by huge pages in a11yctl, and malloc_trim in the daemon.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // The processor's spin-wait hint (x86 `pause`), for the worker pool's polling: a C header, as Swift has no spelling
        // for it. Not I/O: the engine stays pure.
        .systemLibrary(name: "CSpinHint", path: "Sources/CSpinHint"),
        // The daemon: watcher, audit loop, durable store, JSON-RPC socket server.
        .target(name: "A11yDaemon", dependencies: ["A11yEngine", "A11yReaders", "A11yOutput", "A11yClient", "CInotifyTools", "CSQLite", "CSystemd", "CMalloc"],
                swiftSettings: metadataAccessSettings),
        // Talking to the daemon: JSON-RPC over the Unix socket (shared by the daemon and a11yctl).
        .target(name: "A11yClient", dependencies: ["A11yEngine"], swiftSettings: metadataAccessSettings),
        .executableTarget(
            name: "a11yd",
            dependencies: [
                "A11yDaemon", "A11yClient", "A11yEngine", "A11yReaders", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: metadataAccessSettings),
        .executableTarget(
            name: "a11yctl",
            dependencies: [
                "A11yEngine", "A11yReaders", "A11yOutput", "A11yClient", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: metadataAccessSettings,
            // A one-shot CLI, wholly static (glibc and libstdc++ too) and so linked at a fixed address: the loader
            // mapped and relocated four shared libraries at every start (1.4-2 ms of every audit), and a
            // position-independent binary made it apply ~112,000 relocations, reading and dirtying ~3 MB before `main`
            // (BENCHMARKS.md). The long-running daemon stays dynamic and position-independent (address randomisation).
            // Nor does a11yctl export its ~40,000 symbols (the static Swift runtime's link arguments ask for that): the
            // runtime's start-up `dladdr` scans them all. glibc warns at link time that user and host look-ups in a
            // static binary need its own version's shared libraries at run time: a11yctl is built where it runs.
            // Foundation's static libraries are named because a release build without `--static-swift-stdlib` (a plain
            // `swift build -c release`) compiles for the shared Foundation, whose own dependencies are then not linked.
            linkerSettings: [.unsafeFlags(["-static-executable", "-Xlinker", "--no-export-dynamic",
                                           "-Xlinker", "--start-group", "-lFoundation", "-lFoundationEssentials",
                                           "-lFoundationInternationalization", "-lCoreFoundation", "-l_FoundationICU",
                                           "-l_FoundationCShims", "-l_FoundationCollections", "-lswiftSynchronization",
                                           "-lstdc++", "-Xlinker", "--end-group"],
                                          .when(platforms: [.linux], configuration: .release))]),
        .executableTarget(name: "a11y-bench", dependencies: ["A11yEngine", "A11yReaders", "A11yOutput", "A11yClient", "CMalloc"]),
        // libFuzzer target (`make fuzz`); an ordinary build of it does nothing when run.
        .executableTarget(name: "a11y-fuzz", dependencies: ["A11yEngine", "A11yReaders", "A11yDaemon"], path: "Fuzz"),
        .testTarget(name: "A11yEngineTests", dependencies: ["A11yEngine"]),
        .testTarget(name: "A11yReadersTests", dependencies: ["A11yReaders", "A11yEngine"]),
        .testTarget(name: "A11yCLITests", dependencies: ["A11yEngine", "A11yReaders", "A11yOutput"]),
        .testTarget(name: "A11yDaemonTests", dependencies: ["A11yDaemon", "A11yClient", "A11yEngine", "A11yReaders"]),
    ]
)
