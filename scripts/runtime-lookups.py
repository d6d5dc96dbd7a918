#!/usr/bin/python3
"""Which of our functions make the Swift runtime look types and conformances up (BENCHMARKS.md).

    valgrind --tool=callgrind --callgrind-out-file=OUT STRIPPED_A11YCTL audit PATH --format json
    /usr/bin/python3 scripts/runtime-lookups.py OUT [--top 30]

The runtime's first answer to "does this type conform to this protocol" scans every conformance record of the static
binary (11,375 of them, ~0.5 M instructions), and finding a generic type's metadata by its mangled name does the same
for each requirement. Such first uses hide in library code (ArgumentParser's help, a cast in a generic writer, a lazy
sequence): this script charges the inclusive cost of the runtime's look-up functions to the nearest caller of ours (or
of a library: ArgumentParser, Yams, SwiftSyntax), splitting each function's cost among its callers by their share of
its calls. (valgrind 3.19 cannot read a Swift release binary's DWARF 5: profile a copy made with `strip --strip-debug`.)
Standard library only: runs on Debian's /usr/bin/python3.
"""
import collections
import re
import subprocess
import sys

LOOKUPS = ["swift_getTypeByMangledName", "swift_conformsToProtocol", "swift_getGenericMetadata", "swift_getWitnessTable",
           "swift_dynamicCast", "swift_once", "swift_getAssociatedTypeWitness", "swift_initClassMetadata",
           "swift_getSingletonMetadata", "swift_allocateGenericValueMetadata"]
# Frames of the runtime, the standard library and Foundation: climbed through, never charged.
RUNTIME = re.compile(r"^(swift_|_swift|__swift|\$ss|\$sS|\$s10Foundation|\$sSo|_Z|\?\?\?|0x|tryCast|_gather|_dl|malloc|free|_int)"
                     r"|swift::|Demangle|Metadata|getWitness|conformsTo")
OURS = re.compile(r"A11y|a11yctl|ArgumentParser|Yams|SwiftSyntax|SwiftParser|SwiftOperators")


def call_edges(path):
    """(caller, callee) -> inclusive cost of the calls, from a callgrind output file (names compressed as `(id) name`)."""
    names, edges = {}, collections.defaultdict(int)

    def name(token):
        match = re.match(r"\((\d+)\)(?: (.*))?", token)
        if not match:
            return token
        if match.group(2):
            names[match.group(1)] = match.group(2)
        return names[match.group(1)]

    function = callee = None
    after_calls = False
    with open(path) as lines:
        for line in lines:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                function = name(line[3:])
            elif line.startswith("cfn="):
                callee = name(line[4:])
            elif line.startswith("calls="):
                after_calls = True
            elif after_calls and line and (line[0].isdigit() or line[0] in "+-*"):
                edges[(function, callee)] += int(line.split()[1])
                after_calls = False
    return edges


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    top = int(argv[argv.index("--top") + 1]) if "--top" in argv else 30
    edges = call_edges(argv[1])
    callers = collections.defaultdict(list)
    for (caller, callee), cost in edges.items():
        callers[callee].append((cost, caller))
    charged = collections.defaultdict(float)

    def climb(function, cost, seen, depth):
        calls = [(c, a) for c, a in callers[function] if a not in seen]
        total = sum(c for c, _ in calls)
        if not calls or total == 0 or depth > 40:
            charged[function] += cost
            return
        for c, caller in calls:
            share = cost * c / total
            if share < 20000:
                continue
            if RUNTIME.search(caller) and not OURS.search(caller):
                climb(caller, share, seen | {caller}, depth + 1)
            else:
                charged[caller] += share

    functions = {f for edge in edges for f in edge if f}
    for function in functions:
        if not any(lookup in function for lookup in LOOKUPS):
            continue
        # Only the outermost look-up of a chain is climbed from (the inner ones are in its cost).
        if any(any(lookup in caller for lookup in LOOKUPS) for _, caller in callers[function]):
            continue
        climb(function, sum(c for c, _ in callers[function]), {function}, 0)
    ranked = sorted(charged.items(), key=lambda item: -item[1])[:top]
    demangled = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(n for n, _ in ranked),
                               capture_output=True, text=True).stdout.split("\n")
    print("instructions in the runtime's look-ups, charged to the nearest caller of ours or of a library:")
    for (_, cost), shown in zip(ranked, demangled):
        print(f"{int(cost):>12,} {shown[:150]}")


if __name__ == "__main__":
    main(sys.argv)
