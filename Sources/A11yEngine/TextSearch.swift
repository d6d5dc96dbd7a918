extension StringProtocol {
    /// Whether `needle` occurs in the text, compared byte by byte (UTF-8). Foundation's `contains(_:)` on strings goes
    /// through NSString and locale-aware search, which showed up in profiles of the interpreter's type look-ups.
    public func containsText(_ needle: String) -> Bool {
        var needle = needle
        return needle.withUTF8 { pattern in
            utf8.withContiguousStorageIfAvailable { Self.find(pattern, in: $0) }
                ?? Array(utf8).withUnsafeBufferPointer { Self.find(pattern, in: $0) }
        }
    }

    private static func find(_ pattern: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = pattern.first else { return true }
        guard text.count >= pattern.count else { return false }
        var i = 0
        while i <= text.count - pattern.count {
            if text[i] == first {
                var j = 1
                while j < pattern.count && text[i + j] == pattern[j] { j += 1 }
                if j == pattern.count { return true }
            }
            i += 1
        }
        return false
    }
}
