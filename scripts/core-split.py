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
core costs nothing). Each run is timed by scripts/alternate-audit.py's `run`. Needs a machine with at least two
CPUs. Standard library only: runs on Debian's /usr/bin/python3.
"""
import importlib.util
import os
import statistics
import sys
import time

# After the audit has counted its cores (its first step, ~0.3 ms in) and before its threads have work.
PIN_AFTER_MS = 2.5


def alternate_audit():
    """scripts/alternate-audit.py, whose `run` times one cold audit (its name has a dash: loaded by path)."""
    sys.dont_write_bytecode = True  # no __pycache__ left in scripts/
    location = os.path.join(os.path.dirname(__file__), "alternate-audit.py")
    spec = importlib.util.spec_from_file_location("alternate_audit", location)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pin_all_threads(pid):
    """Every thread of `pid` onto CPU 0, once it has counted its cores. Threads started later inherit their starter's
    affinity; the listing is taken twice for one being started meanwhile."""
    time.sleep(PIN_AFTER_MS / 1000)
    for _ in range(2):
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                try:
                    os.sched_setaffinity(int(task), {0})
                except OSError:
                    pass  # the thread has ended
        except FileNotFoundError:
            return  # the audit has ended


def run(audit, binary, path, setup):
    """One cold audit in `setup`: (wall ms, CPU ms)."""
    if setup == "one core":
        return audit.run(binary, path, in_child=lambda: os.sched_setaffinity(0, {0}))
    if setup == "two threads":
        return audit.run(binary, path, once_started=pin_all_threads)
    return audit.run(binary, path)


def main(argv):
    if len(argv) < 3 or (len(argv) > 3 and not argv[3].isdigit()):
        sys.exit(__doc__.strip())
    if len(os.sched_getaffinity(0)) < 2:
        sys.exit("core-split.py: this process may run on one CPU only: nothing to split")
    binary, path = argv[1], argv[2]
    runs = int(argv[3]) if len(argv) > 3 else 25
    setups = ["two cores", "two threads", "one core"]
    audit = alternate_audit()
    wall = {setup: [] for setup in setups}
    cpu = {setup: [] for setup in setups}
    for _ in range(runs):
        for setup in setups:
            w, c = run(audit, binary, path, setup)
            wall[setup].append(w)
            cpu[setup].append(c)
    print(f"{path}: medians of {runs} runs each, in turn")
    median = {setup: (statistics.median(wall[setup]), statistics.median(cpu[setup])) for setup in setups}
    for setup in setups:
        print(f"  {setup:12} wall {median[setup][0]:6.1f} ms, CPU {median[setup][1]:6.1f} ms")
    extra_work = median["two threads"][1] - median["one core"][1]
    two_cores = median["two cores"][1] - median["two threads"][1]
    print(f"  the parallel path's extra work (two threads - one core): {extra_work:+.1f} ms of CPU")
    print(f"  running on two cores (two cores - two threads):          {two_cores:+.1f} ms of CPU")


if __name__ == "__main__":
    main(sys.argv)
