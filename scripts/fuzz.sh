#!/usr/bin/env bash
# Runs every libFuzzer target of a11y-fuzz for SECONDS each (default 600) with seed corpora from the example, the
# fixtures and ../shared/corpus. Crashes are written to .build-fuzz/crashes/<target>/; each becomes a regression test.
#   make fuzz                 # build with -sanitize=fuzzer, then this script
#   scripts/fuzz.sh 60 swift  # one target for a minute
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
targets="${2:-swift json colorset tokens config rpc}"
bin=".build-fuzz/debug/a11y-fuzz"
# libFuzzer's -timeout is wall time: under `nice -n 19` next to other builds an input that takes 0.1 s can be starved
# for more than 10 s. FUZZ_TIMEOUT=60 keeps such a run from reporting a hang that is only the scheduler.
timeout="${FUZZ_TIMEOUT:-10}"
[ -x "$bin" ] || { echo "build it first: make fuzz (or see the Makefile's fuzz target)" >&2; exit 2; }
shared="../shared/corpus"
failed=""
for target in $targets; do
    corpus=".build-fuzz/corpus/$target"
    crashes=".build-fuzz/crashes/$target"
    mkdir -p "$corpus" "$crashes"
    case "$target" in
        swift) find Examples Tests/Fixtures/Evaluator -name '*.swift' -exec cp {} "$corpus/" \; ;;
        json|tokens) [ -d "$shared" ] && find "$shared" -name '*.json' -size -200k | head -n 300 | while read -r f; do cp "$f" "$corpus/$(echo "$f" | md5sum | cut -c1-16).json"; done || true ;;
        colorset) [ -d "$shared" ] && find "$shared" -path '*.colorset/Contents.json' | head -n 300 | while read -r f; do cp "$f" "$corpus/$(echo "$f" | md5sum | cut -c1-16).json"; done || true ;;
        config) cp Examples/DesignSystem/.a11yd.yml "$corpus/example.yml"; cp policies/*.yml "$corpus/" 2>/dev/null || true ;;
        rpc) printf '{"jsonrpc":"2.0","id":1,"method":"status"}\n' > "$corpus/status"
             printf '{"jsonrpc":"2.0","id":"a","method":"audit.latest","params":{"appearance":"dark","rule":"contrast.text"}}\n' > "$corpus/latest"
             printf '{"jsonrpc":"2.0","method":"subscribe","params":{"since":3}}\n' > "$corpus/subscribe" ;;
    esac
    echo "== $target: ${seconds}s"
    start=$(date +%s)
    # SWIFT_BACKTRACE=enable=no: let libFuzzer's own handler see a Swift trap, so it saves the input that caused it.
    SWIFT_BACKTRACE=enable=no A11Y_FUZZ_TARGET="$target" "$bin" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 \
        -artifact_prefix="$crashes/" -print_final_stats=1 "$corpus" 2>&1 | tee ".build-fuzz/$target.log" | grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" || true
    found=$(ls "$crashes" | wc -l)
    echo "   $(( $(date +%s) - start ))s; crashes: $found"
    [ "$found" -eq 0 ] || failed="$failed $target"
done
# A crash fails the run (CI or a loop can tell), naming the targets; their inputs are in .build-fuzz/crashes/.
if [ -n "$failed" ]; then echo "fuzz: crashes in:$failed (inputs in .build-fuzz/crashes/)" >&2; exit 1; fi
