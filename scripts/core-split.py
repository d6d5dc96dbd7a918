#!/usr/bin/python3
"""What a cold audit's second core buys, split three ways (BENCHMARKS.md, "Where the second core's time goes").

    A11YD_POLICIES=policies /usr/bin/python3 scripts/core-split.py BINARY PATH [RUNS]

Runs `BINARY audit PATH --format json` RUNS times (default 25) in each of three set-ups, one run of each in turn:
  two cores      as a user runs it;
  two threads    the same threads (the audit counts two cores when it starts), then all pinned to CPU 0 after
                 PIN_AFTER_MS, before the audit's work: the parallel code path's extra work, on one core;
  one core       under an affinity of CPU 0 from the start: the audit sees one core and takes its serial path.
and prints each set-up's median wall and CPU time (user + system, all threads, from wait4). Two threads' CPU less one
core's is what the parallel path adds (prefetch workers, merges, tables built in parts); two cores' CPU less two
threads' is what running on two cores adds (data moving between them, a thread waiting for the other, which on one
core costs nothing). Needs a machine with at least two CPUs. Standard library only: runs on Debian's /usr/bin/python3.
"""
import os
import statistics
import sys
import time

# After the audit has counted its cores (its first step, ~0.3 ms in) and before its threads have work.
PIN_AFTER_MS = 2.5


def run(binary, path, setup):
    """One cold audit with its output discarded: (wall ms, CPU ms)."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        try:
            if setup == "one core":
                os.sched_setaffinity(0, {0})
            os.execv(binary, [binary, "audit", path, "--format", "json"])
        finally:
            os._exit(127)
    if setup == "two threads":
        time.sleep(PIN_AFTER_MS / 1000)
        # Threads started later inherit their starter's affinity; the listing is taken twice for one being started.
        for _ in range(2):
            try:
                for task in os.listdir(f"/proc/{pid}/task"):
                    try:
                        os.sched_setaffinity(int(task), {0})
                    except OSError:
                        pass  # the thread has ended
            except FileNotFoundError:
                break  # the audit has ended
    _, status, usage = os.wait4(pid, 0)
    # 0, or 1 when pairs fail (expected of most systems); anything else (a crash, a usage error) is not a timing.
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) > 1:
        sys.exit(f"{binary} audit {path} failed (wait status {status}): not timing it")
    return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def main(argv):
    if len(argv) < 3 or (len(argv) > 3 and not argv[3].isdigit()):
        sys.exit(__doc__.strip())
    if len(os.sched_getaffinity(0)) < 2:
        sys.exit("core-split.py: this process may run on one CPU only: nothing to split")
    binary, path = argv[1], argv[2]
    runs = int(argv[3]) if len(argv) > 3 else 25
    setups = ["two cores", "two threads", "one core"]
    wall = {setup: [] for setup in setups}
    cpu = {setup: [] for setup in setups}
    for _ in range(runs):
        for setup in setups:
            w, c = run(binary, path, setup)
            wall[setup].append(w)
            cpu[setup].append(c)
    print(f"{path}: medians of {runs} runs each, in turn")
    for setup in setups:
        print(f"  {setup:12} wall {statistics.median(wall[setup]):6.1f} ms, CPU {statistics.median(cpu[setup]):6.1f} ms")
    med = {setup: statistics.median(cpu[setup]) for setup in setups}
    print(f"  the parallel path's extra work (two threads - one core): {med['two threads'] - med['one core']:+.1f} ms of CPU")
    print(f"  running on two cores (two cores - two threads):          {med['two cores'] - med['two threads']:+.1f} ms of CPU")


if __name__ == "__main__":
    main(sys.argv)
