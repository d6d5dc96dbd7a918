@testable import A11yReaders
import Testing

/// `include:`/`exclude:` patterns of `.a11yd.yml` as .gitignore-style globs on root-relative paths.
struct GlobTests {
    @Test(arguments: [
        ("**/*.swift", "DesignTokens.swift", true),
        ("**/*.swift", "Sources/UI/Tokens/Colors.swift", true),
        ("**/*.swift", "Sources/UI/Colors.swiftinterface", false),
        ("**/*.colorset/Contents.json", "Assets.xcassets/Brand/Ink.colorset/Contents.json", true),
        ("**/*.colorset/Contents.json", "Assets.xcassets/Contents.json", false),
        ("Sources/**/Tokens/*.swift", "Sources/Tokens/A.swift", true),
        ("Sources/**/Tokens/*.swift", "Sources/UI/Kit/Tokens/A.swift", true),
        ("Sources/**/Tokens/*.swift", "Tests/Tokens/A.swift", false),
        ("**/.build/**", "pkg/.build/debug/A.swift", true),
        ("**/.build/**", "pkg/build/A.swift", false),
        ("./Sources/*.swift", "Sources/A.swift", true),
        ("*.tokens.json", "design/dark.tokens.json", true),  // no slash: the file name anywhere
        ("theme-?.json", "theme-a.json", true),
        ("theme-?.json", "theme-ab.json", false),
        ("[a-c]x.swift", "bx.swift", true),
        ("[a-c]x.swift", "dx.swift", false),
        ("[!a]x.swift", "ax.swift", false),
        ("[!a]x.swift", "zx.swift", true),
        ("Ré*/*.swift", "Résumé/A.swift", true),
    ])
    func patternsMatchAsGitignoreDoes(pattern: String, path: String, expected: Bool) {
        #expect(Glob(pattern).matches(path) == expected, "\(pattern) on \(path)")
    }

    /// ASCII patterns on ASCII paths are matched on bytes: every pattern form (wildcards, `**`, classes, ranges,
    /// negations) gives the answers the character matcher gives, on ASCII paths and on paths it must take back
    /// (non-ASCII, a `\r\n` in a name).
    @Test func bytesAndCharactersAgree() {
        let patterns = ["**/*.swift", "**/*.colorset/Contents.json", "**/.build/**", "Sources/**/Tokens/*.swift", "*.tokens.json",
                        "theme-?.json", "[a-c]x.swift", "[!a]x.swift", "[^a-]x.swift", "[]x.swift", "a*b*c.swift", "**", "*",
                        "**/**/*.json", "x/**", "?", "[0-9][0-9]*.swift", "Ré*/*.swift", "*é.swift"]
        let paths = ["DesignTokens.swift", "Sources/UI/Tokens/Colors.swift", "Sources/UI/Colors.swiftinterface",
                     "Assets.xcassets/Brand/Ink.colorset/Contents.json", "pkg/.build/debug/A.swift", "theme-a.json", "theme-ab.json",
                     "bx.swift", "dx.swift", "ax.swift", "-x.swift", "aXbYc.swift", "abc.swift", "x", "x/y/z.json", "a",
                     "42a.swift", "Résumé/A.swift", "café.swift", "we\r\nird.swift", "", "/", "a//b.swift", "Sources/Tokens/A.swift"]
        for pattern in patterns {
            let glob = Glob(pattern)
            for path in paths {
                #expect(glob.matches(path) == glob.matchesByCharacters(path), "\(pattern) on \(path)")
            }
        }
    }
}
