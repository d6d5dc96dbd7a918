#!/usr/bin/python3
"""Where a cold `a11yctl audit PATH --format json` spends its CPU, by kind of work (BENCHMARKS.md).

    /usr/bin/python3 scripts/cpu-categories.py BINARY PATH [--runs 12] [--cores 1|2] [--callers 25]

Audits PATH --runs times under `perf record -e cpu-clock -F 20000 -g` (Debian: linux-perf; run as root or with
perf_event_paranoid <= 1), pinned to one core by default (`taskset -c 0`: the work itself, without the second core's
waiting), and sorts every sample by its innermost function into a category: reference counting (swift_retain,
swift_release and their helpers), memory (malloc, free, Swift's object allocation), hashing and hash-table look-ups,
the kernel clearing fresh pages, the rest of the kernel, the worker pool waiting for work, and the rest (the audit's own
code and the standard library's). Then the functions of ours (A11yEngine, A11yReaders, A11yOutput, a11yctl) whose
reference counting costs most: the first of our frames under each reference-counting sample. Pass a binary with debug
info stripped (`strip --strip-debug`) for a faster perf report. Standard library only: runs on Debian's /usr/bin/python3.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

# (category, pattern of the innermost symbol), first match wins.
CATEGORIES = [
    ("reference counting", re.compile(r"^(swift_(nonatomic_)?(retain|release|bridgeObjectRetain|bridgeObjectRelease|unknownObject)"
                                      r"|_swift_release_dealloc|bool swift::RefCounts|swift::RefCounts)")),
    ("memory (malloc, free, Swift allocation)", re.compile(r"^(malloc|free|cfree|_int_malloc|_int_free|__malloc|__libc_malloc"
                                                           r"|__libc_free|malloc_consolidate|_mid_memalign|swift_allocObject"
                                                           r"|swift_slowAlloc|swift_slowDealloc|swift_deallocObject"
                                                           r"|swift_deallocClassInstance|swift_arrayDestroy|unlink_chunk)")),
    ("hashing and hash-table look-ups", re.compile(r"(Hasher|hashOfBytes|_RawDictionaryStorage|_NativeDictionary|_NativeSet"
                                                   r"|_RawSetStorage|_finalize|SipHash)")),
    ("kernel: clearing fresh pages", re.compile(r"^(clear_page|clear_huge_page|folio_zero|__clear_user)")),
    ("worker pool waiting", re.compile(r"(WorkerPoolC3run|WorkerPoolC7perform.*fU_ySPyySicGXEfU_$|sched_yield|__schedule"
                                       r"|do_sched_yield|__vdso_clock_gettime)")),
]
OURS = re.compile(r"^\$s(10A11yEngine|11A11yReaders|10A11yOutput|7a11yctl)")
FRAME = re.compile(r"^\s*[0-9a-f]+\s+(.*?)(\+0x[0-9a-f]+)?\s+\((.*)\)\s*$")


def category(symbol, dso):
    for name, pattern in CATEGORIES:
        if pattern.search(symbol):
            return name
    if "kernel" in dso:
        return "kernel, other"
    return "the rest (our code, the standard library)"


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    binary, path = argv[1], argv[2]
    options = dict(zip(argv[3::2], argv[4::2]))
    runs, cores, shown = int(options.get("--runs", 12)), int(options.get("--cores", 1)), int(options.get("--callers", 25))
    pin = "taskset -c 0 " if cores == 1 else ""
    with tempfile.TemporaryDirectory() as scratch:
        data = os.path.join(scratch, "perf.data")
        loop = f"for i in $(seq {runs}); do {pin}{binary} audit {path} --format json >/dev/null || true; done"
        subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "20000", "-g", "-o", data, "--", "bash", "-c", loop],
                       check=True, stderr=subprocess.DEVNULL)
        script = subprocess.run(["perf", "script", "-i", data, "--comm", os.path.basename(binary)], check=True,
                                capture_output=True, text=True).stdout
    totals, callers, samples = collections.Counter(), collections.Counter(), 0
    for block in script.split("\n\n"):
        frames = [m.groups() for m in map(FRAME.match, block.split("\n")[1:]) if m]
        if not frames:
            continue
        samples += 1
        kind = category(frames[0][0], frames[0][2])
        totals[kind] += 1
        if kind == "reference counting":
            callers[next((f[0] for f in frames if OURS.search(f[0])), "(none of ours)")] += 1
    if samples == 0:
        sys.exit("no samples: is perf allowed here (perf_event_paranoid)?")
    print(f"{path}: {runs} audits on {cores} core(s), {samples} samples ({samples / 20000 / runs * 1000:.1f} ms of CPU per audit)")
    for kind, count in totals.most_common():
        print(f"  {count / samples * 100:5.1f}%  {kind}")
    print(f"reference counting by the first function of ours under it (share of all samples):")
    for symbol, count in callers.most_common(shown):
        print(f"  {count / samples * 100:5.2f}%  {symbol[:150]}")


if __name__ == "__main__":
    main(sys.argv)
