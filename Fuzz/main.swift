// libFuzzer entry point for the readers, the interpreter, the configuration reader and the JSON-RPC decoder.
// Built by `make fuzz` with `-sanitize=fuzzer -parse-as-library` (an ordinary build of this file does nothing); `A11Y_FUZZ_TARGET` picks what the
// input is fed to (swift, json, colorset, tokens, config, rpc). Each input must return normally: a crash, a trap or a
// hang is a bug, and the input that caused it becomes a regression test.
import A11yDaemon
import A11yEngine
import A11yReaders
import Foundation

let fuzzTarget = ProcessInfo.processInfo.environment["A11Y_FUZZ_TARGET"] ?? "swift"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    switch fuzzTarget {
    case "swift":
        // Reading and evaluating: the interpreter's budget and depth limits must hold on any input.
        let parsed = SwiftSourceReader().read(source: text, file: "Fuzz.swift")
        _ = TokenGraph(sources: [parsed]).findings()
    case "json":
        _ = try? LocatedJSON.parse(text)
    case "colorset":
        _ = AssetCatalogReader.read(text: text, file: "Fuzz.xcassets/Fuzz.colorset/Contents.json", name: "Fuzz")
    case "tokens":
        _ = TokenGraph(sources: [DesignTokenReader.read(text: text, file: "fuzz.tokens.json", appearance: nil)]).findings()
    case "config":
        _ = try? ConfigurationReader.read(text, file: ".a11yd.yml")
    case "rpc":
        _ = RPCServer.decodeRequest(bytes)
    default:
        fatalError("unknown A11Y_FUZZ_TARGET \(fuzzTarget) (swift, json, colorset, tokens, config, rpc)")
    }
    return 0
}

#if A11Y_FUZZING
// SwiftPM links executables through `<target>_main`; hand control to libFuzzer's driver from there.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("a11y_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}
#endif
