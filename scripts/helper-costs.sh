#!/bin/bash
# What the interpreter spends on one token made by a helper, piece by piece (BENCHMARKS.md, "What a token helper
# costs"): the synthetic system's tokens written five ways, and the instructions of the prefetch (where they are
# evaluated) per token, counted by callgrind (`apt-get install valgrind`):
#   A  static let t = Color(hex: "#...")                              the token alone: its memo and one built-in init
#   B  a helper `adaptive(light:dark:)` whose body is `Color(hex: light)`   + a call of a project function
#   C  body `Color(UIColor(Color(hex: light)))`                      + two built-in inits that wrap a color
#   D  body `Color(UIColor { traits in UIColor(Color(hex: light)) })`  + a closure, a color provider, one application
#   E  the synthetic system's own helper (it reads the style)         + the condition and the dark application
# Only the DesignTokens.swift of SYSTEM (written by `a11y-bench write SYSTEM`) is used; the pairs and rules, which
# differ with the colors, are not counted.
# usage: A11YD_POLICIES=policies scripts/helper-costs.sh BINARY SYSTEM
set -eu
binary=$1
tokens_file=$2/DesignTokens.swift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF 5 of a Swift release binary: it runs a copy without debug information.
strip --strip-debug -o "$work/a11yctl" "$binary"
grep -E '^    static let [A-Za-z0-9_]+ = adaptive\(light: "#[0-9A-Fa-f]+", dark: "#[0-9A-Fa-f]+"\)$' "$tokens_file" > "$work/lines"
count=$(wc -l < "$work/lines")
[ "$count" -gt 0 ] || { echo "no adaptive(light:dark:) tokens in $tokens_file" >&2; exit 2; }

write() {  # variant, helper body (none for A)
    mkdir -p "$work/$1"
    {
        printf 'import SwiftUI\n\nextension Color {\n'
        if [ -n "$2" ]; then
            printf '    static func adaptive(light: String, dark: String) -> Color {\n        %s\n    }\n' "$2"
            cat "$work/lines"
        else
            sed -E 's/adaptive\(light: ("#[0-9A-Fa-f]+"), dark: "#[0-9A-Fa-f]+"\)/Color(hex: \1)/' "$work/lines"
        fi
        printf '}\n'
    } > "$work/$1/DesignTokens.swift"
}
write A ''
write B 'Color(hex: light)'
write C 'Color(UIColor(Color(hex: light)))'
write D 'Color(UIColor { traits in UIColor(Color(hex: light)) })'
write E 'Color(UIColor { traits in traits.userInterfaceStyle == .dark ? UIColor(Color(hex: dark)) : UIColor(Color(hex: light)) })'

echo "$count tokens; instructions per token in the prefetch (callgrind), and what each step adds:"
previous=0
for variant in A B C D E; do
    # The workers' closure is entered through its partial-apply thunk (`..._TA`); an LTO build inlines the closure into
    # the thunk, so the thunk is the one name both kinds of build have.
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.$variant" --toggle-collect='*prefetchRound*ySiXEfU_TA' \
        "$work/a11yctl" audit "$work/$variant" --format json > /dev/null 2> "$work/log.$variant" || true
    total=$(awk '/Collected :/ {print $NF}' "$work/log.$variant")
    [ -n "$total" ] || { echo "valgrind failed on variant $variant:" >&2; cat "$work/log.$variant" >&2; exit 1; }
    per=$((total / count))
    if [ "$variant" = A ]; then echo "  $variant $per"; else echo "  $variant $per (+$((per - previous)))"; fi
    previous=$per
done
