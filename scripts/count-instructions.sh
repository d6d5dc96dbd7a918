#!/bin/bash
# Instructions a cold audit executes (all threads), counted by valgrind: a CPU measure that does not move with the
# machine's load the way wall and CPU time do here (±10% between minutes). Two counts of one binary still differ by up
# to ~1%: the pool's threads spin while they wait, and valgrind counts those instructions too (count a few times before
# reading a difference of that size). Needs `apt-get install valgrind`.
# usage: A11YD_POLICIES=policies scripts/count-instructions.sh BINARY PATH...
# valgrind 3.19 cannot read the DWARF 5 of a Swift release binary: it counts a copy without debug information.
set -eu
binary=$1; shift
copy=$(mktemp)
trap 'rm -f "$copy"' EXIT
strip --strip-debug -o "$copy" "$binary"
chmod +x "$copy"
for path in "$@"; do
    count=$(valgrind --tool=lackey --basic-counts=yes "$copy" audit "$path" --format json 2>&1 >/dev/null | awk '/guest instrs:/ {print $NF}')
    echo "$path: $count instructions"
done
