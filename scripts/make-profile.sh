#!/usr/bin/env bash
# Remakes Profiles/a11y.profdata, the profile release builds of the engine, readers and output are optimised with
# (Package.swift; BENCHMARKS.md, "Profile-guided optimisation"). Run as `make profile`, which passes the Makefile's
# COMPILE_FLAGS (its RELEASE_FLAGS without link-time optimisation: the profile is read when each module is compiled,
# before the link-time step, and counts functions as that compilation sees them; instrumented LTO builds were not tried),
# so that the profile is made from the compilation the release builds make:
#   1. builds a11yctl and a11y-bench with those targets instrumented (A11Y_PGO=generate), in a scratch directory of
#      their own so that .build's release objects are never instrumented (the first build compiles the dependencies
#      there too: ~10 minutes here);
#   2. audits the training systems with the instrumented a11yctl, as `a11yctl audit PATH --format json` and as a table:
#      the bundled examples, the test fixtures, ../shared/corpus when it is there, and a synthetic system of 1,000
#      tokens written by `a11y-bench write` (the 5,000- and 20,000-token systems the benchmarks time are not trained on);
#   3. merges the counts into Profiles/a11y.profdata with the toolchain's llvm-profdata.
# Run it again when the hot code has changed much: a profile older than the code is still used where it matches.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${COMPILE_FLAGS:?run as make profile, which passes the compile flags of the Makefile}"
toolchain_bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
runtime=$(ls "$toolchain_bin"/../lib/clang/*/lib/linux/libclang_rt.profile-x86_64.a | head -1)
scratch=.build/pgo-instrumented
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for product in a11yctl a11y-bench; do
    # shellcheck disable=SC2086 # the flags are words
    A11Y_PGO=generate swift build -c release $COMPILE_FLAGS \
        -Xlinker -u -Xlinker __llvm_profile_runtime -Xlinker "$runtime" \
        --scratch-path "$scratch" --product "$product"
done
bin="$scratch/release"
LLVM_PROFILE_FILE="$work/bench.profraw" "$bin/a11y-bench" write "$work/synthetic-1k" --tokens 1000 >/dev/null
mkdir -p "$work/raw"
systems=("$work/synthetic-1k" Examples/*/ Tests/Fixtures/*/)
[ -d ../shared/corpus ] && systems+=(../shared/corpus/*/)
for system in "${systems[@]}"; do
    for format in json table; do
        # 1 is "findings at or above --fail-on" and 2 a configuration error, both expected of training systems; anything
        # else (a crash) stops the script rather than leave that audit out of the profile unnoticed.
        status=0
        LLVM_PROFILE_FILE="$work/raw/%p.profraw" A11YD_POLICIES=policies "$bin/a11yctl" audit "$system" --format "$format" \
            >/dev/null 2>&1 || status=$?
        if [ "$status" -gt 2 ]; then echo "make-profile: a11yctl audit $system --format $format exited $status" >&2; exit 1; fi
    done
done
mkdir -p Profiles
"$toolchain_bin/llvm-profdata" merge -o Profiles/a11y.profdata "$work"/raw/*.profraw
echo "Profiles/a11y.profdata: $(ls "$work"/raw/*.profraw | wc -l) audits merged"
