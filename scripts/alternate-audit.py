#!/usr/bin/env python3
"""Cold wall time of two a11yctl builds on the same design systems, one run of each in turn (so both see the machine's
slow and fast minutes alike), with medians and minimums, and the median CPU time (user + system, all threads, from
wait4). On two cores a cold audit keeps both busy, so its wall time follows its CPU time; CPU time is the second view
of a change (it counts the worker pool's spinning between phases too, a few ms).
usage: A11YD_POLICIES=policies /usr/bin/python3 scripts/alternate-audit.py OLD_BINARY NEW_BINARY RUNS PATH...
"""
import os
import statistics
import sys
import time


def run(binary, path, in_child=None, once_started=None):
    """One cold audit with its output discarded: (wall ms, CPU ms). `in_child()` runs in the audit's process before the
    exec, `once_started(pid)` here once it has started (scripts/core-split.py sets CPU affinities with them)."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        try:
            if in_child:
                in_child()
            os.execv(binary, [binary, "audit", path, "--format", "json"])
        finally:
            os._exit(127)
    if once_started:
        once_started(pid)
    _, status, usage = os.wait4(pid, 0)
    # 0, or 1 when pairs fail (expected of most systems); anything else (a crash, a usage error) is not a timing.
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) > 1:
        sys.exit(f"{binary} audit {path} failed (wait status {status}): not timing it")
    return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def main(argv):
    if len(argv) < 5 or not argv[3].isdigit():
        sys.exit(__doc__.strip())
    old, new, runs, paths = argv[1], argv[2], int(argv[3]), argv[4:]
    for path in paths:
        wall = {old: [], new: []}
        cpu = {old: [], new: []}
        for i in range(runs):
            for binary in (old, new) if i % 2 == 0 else (new, old):
                w, c = run(binary, path)
                wall[binary].append(w)
                cpu[binary].append(c)
        print(f"{path}: old {statistics.median(wall[old]):.1f} ms, new {statistics.median(wall[new]):.1f} ms "
              f"(min {min(wall[old]):.1f} / {min(wall[new]):.1f}); CPU {statistics.median(cpu[old]):.1f} / "
              f"{statistics.median(cpu[new]):.1f} ms; over {runs} runs each")


if __name__ == "__main__":
    main(sys.argv)
