#!/usr/bin/python3
"""Where a cold audit counts references, call site by call site, with exact counts (BENCHMARKS.md, "Where a cold 5k
audit's CPU goes").

    strip --strip-debug -o /tmp/a11yctl-s BINARY
    A11YD_POLICIES=policies valgrind --tool=callgrind --dump-instr=yes --compress-pos=no --compress-strings=no \\
        --callgrind-out-file=/tmp/cg.out /tmp/a11yctl-s audit PATH --format json >/dev/null
    /usr/bin/python3 scripts/refcount-sites.py /tmp/cg.out BINARY [TOP]

Reads every call of swift_retain, swift_release and their bridge-object variants from the callgrind profile (made with
--dump-instr=yes, so each call's site is an instruction address), and names each site by its source lines in BINARY, the
unstripped build the stripped copy came from (addr2line, with the chain of inlined functions: innermost first). Sites
without a line (compiler-generated copies) are named by their function. Counts are calls, not cycles: each is one
atomic read-modify-write (scripts/atomic-cost.c) when the object is a real one. A bridge-object call is counted once, at
its caller, not again as the swift_retain it makes. Standard library only (Debian's /usr/bin/python3); needs binutils.
"""
import collections
import subprocess
import sys

COUNTING = {"swift_retain", "swift_release", "swift_bridgeObjectRetain", "swift_bridgeObjectRelease"}


def calls_by_site(profile):
    """(calling function, call-site address) -> calls, for the reference-counting functions."""
    counts = collections.Counter()
    lines = open(profile).read().split("\n")
    caller = callee = None
    for i, line in enumerate(lines):
        if line.startswith("fn="):
            caller = line[3:]
        elif line.startswith("cfn="):
            callee = line[4:]
        elif line.startswith("calls=") and callee in COUNTING and caller not in COUNTING:
            counts[(caller, lines[i + 1].split()[0])] += int(line.split()[0][len("calls="):])
    return counts


def source_chains(binary, addresses):
    """Address -> its source locations, innermost inlined function first (file:line, paths dropped)."""
    chains = {}
    for start in range(0, len(addresses), 2000):
        output = subprocess.run(["addr2line", "-e", binary, "-i", "-a"] + addresses[start:start + 2000],
                                capture_output=True, text=True, check=True).stdout.split("\n")
        address, chain = None, []
        for line in output:
            if line.startswith("0x"):
                if address:
                    chains[address] = chain
                address, chain = int(line, 16), []
            elif line:
                chain.append(line.split("/")[-1])
        if address:
            chains[address] = chain
    return chains


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    profile, binary = sys.argv[1], sys.argv[2]
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    counts = calls_by_site(profile)
    chains = source_chains(binary, sorted({address for _, address in counts}))
    by_site = collections.Counter()
    for (caller, address), n in counts.items():
        known = [place for place in chains.get(int(address, 16), []) if not place.endswith(":?") and not place.startswith("<")]
        by_site[" <- ".join(known[:3]) if known else caller[:100]] += n
    total = sum(counts.values())
    print(f"{total} reference-counting calls")
    for site, n in by_site.most_common(top):
        print(f"{n:9d} {100 * n / total:5.1f}%  {site}")


main()
