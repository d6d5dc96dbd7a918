#!/usr/bin/python3
"""Cold `a11yctl audit PATH --format json` wall time and peak memory, per design system (docs/real-world.md, BENCHMARKS.md).

    /usr/bin/python3 scripts/time-audit.py .build/release/a11yctl [--runs 11] PATH [PATH ...]

Each PATH is audited --runs times (stdout to /dev/null), timed with time.perf_counter around the child; the median and
the minimum are printed, and the peak resident memory of one more run (GNU time's %M, so this script's own memory is
not counted). Standard library only: runs on Debian's /usr/bin/python3.
"""
import statistics
import subprocess
import sys
import time


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    binary, rest = argv[1], argv[2:]
    runs = 11
    if rest[0] == "--runs":
        runs, rest = int(rest[1]), rest[2:]
    for path in rest:
        command = [binary, "audit", path, "--format", "json"]
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append((time.perf_counter() - start) * 1000)
        timed = subprocess.run(["/usr/bin/time", "-f", "%M", *command], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        peak_kb = int(timed.stderr.strip().splitlines()[-1])
        print(f"{path}: median {statistics.median(times):.0f} ms (min {min(times):.0f}) over {runs} runs, "
              f"peak {peak_kb / 1024:.1f} MB")


if __name__ == "__main__":
    main(sys.argv)
