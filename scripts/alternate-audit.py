#!/usr/bin/env python3
"""Cold wall time of two a11yctl builds on the same design systems, one run of each in turn (so both see the machine's
slow and fast minutes alike), with medians and minimums.
usage: A11YD_POLICIES=policies /usr/bin/python3 scripts/alternate-audit.py OLD_BINARY NEW_BINARY RUNS PATH...
"""
import os
import statistics
import subprocess
import sys
import time


def main(argv):
    if len(argv) < 5 or not argv[3].isdigit():
        sys.exit(__doc__.strip())
    old, new, runs, paths = argv[1], argv[2], int(argv[3]), argv[4:]
    for path in paths:
        times = {old: [], new: []}
        for i in range(runs):
            for binary in (old, new) if i % 2 == 0 else (new, old):
                start = time.perf_counter()
                subprocess.run([binary, "audit", path, "--format", "json"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times[binary].append((time.perf_counter() - start) * 1000)
        print(f"{path}: old {statistics.median(times[old]):.1f} ms, new {statistics.median(times[new]):.1f} ms "
              f"(min {min(times[old]):.1f} / {min(times[new]):.1f}) over {runs} runs each")


if __name__ == "__main__":
    main(sys.argv)
