import A11yReaders
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
}
