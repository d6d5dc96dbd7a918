import A11yEngine
import Foundation

/// Whether to emit ANSI color: only on a terminal, never when `NO_COLOR` is set (https://no-color.org) or TERM=dumb.
public enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never

    public func enabled(fileDescriptor: Int32 = STDOUT_FILENO, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return isatty(fileDescriptor) == 1
        }
    }
}

enum ANSI {
    static let reset = "\u{1B}[0m"
    static let bold = "\u{1B}[1m"
    static let dim = "\u{1B}[2m"
    static let red = "\u{1B}[31m"
    static let green = "\u{1B}[32m"
    static let yellow = "\u{1B}[33m"

    static func byte(_ c: Double) -> Int { Int((min(max(c, 0), 1) * 255).rounded()) }

    /// "Aa" in the foreground color on the background color, with 24-bit escapes.
    static func swatch(foreground: ColorValue, background: ColorValue) -> String {
        "\u{1B}[38;2;\(byte(foreground.red));\(byte(foreground.green));\(byte(foreground.blue))m"
            + "\u{1B}[48;2;\(byte(background.red));\(byte(background.green));\(byte(background.blue))m Aa " + reset
    }
}

/// Pads to a display width (counting characters, not bytes), truncating with an ellipsis.
func pad(_ text: String, _ width: Int) -> String {
    if text.count > width { return String(text.prefix(max(width - 1, 0))) + "…" }
    return text + String(repeating: " ", count: width - text.count)
}

/// The width the table must fit: `$COLUMNS` when set (as shells and `COLUMNS=120 a11yctl ...` say), else the
/// terminal's own width when the output is one, else nil (a pipe or file gets every name whole).
public func terminalWidth(fileDescriptor: Int32 = STDOUT_FILENO,
                          environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
    if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
    guard isatty(fileDescriptor) == 1 else { return nil }
    var size = winsize()
    guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
}
