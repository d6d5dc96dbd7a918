extension StringProtocol {
    /// Whether every byte is ASCII, checked on the contiguous UTF-8 where there is one. Names nearly always are, and
    /// then take byte-level paths (a generic walk of the UTF-8 view cost more than the work it guarded).
    public var isAllASCII: Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? utf8.allSatisfy { $0 < 0x80 }
    }

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
