#!/usr/bin/python3
"""How much of a cold `a11yctl audit PATH --format json` runs on one core, and what runs then (BENCHMARKS.md).

    /usr/bin/python3 scripts/thread-timeline.py BINARY PATH [--runs 10] [--detail PHASE]

Audits PATH --runs times under `perf record -e cpu-clock -F 10000 -g` (Debian: linux-perf; run as root or with
perf_event_paranoid <= 1), cuts each process's samples into 0.5 ms buckets and counts the buckets in which one thread
was sampled against those with two or more. The one-thread samples are then grouped by the phase of the audit they were
taken in (the first of PHASES whose symbol fragment is on the stack). perf slows the process down (its spans are longer
than a plain run's) and on a virtual machine a thread may also be alone because the other core was taken from it: read
the split, not the milliseconds. Samples of threads spinning in the worker pool (waiting for work) are left out of
that split (`is_waiting`) and counted instead: the CPU a thread spent waiting, and what the other threads were running
meanwhile, by phase (the audit's serial steps, however short: on two cores a millisecond of it is a millisecond of
wall time with one core working). `--detail PHASE` (a phase's name as printed) also lists the innermost frames of ours
(A11yEngine, A11yReaders, A11yOutput, a11yctl) in that phase's one-thread samples. Pass a binary with debug info
stripped (`strip --strip-debug`) for a faster perf report.
Standard library only: runs on Debian's /usr/bin/python3.
"""
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile

# (phase, fragment of a mangled or plain symbol name), most specific first.
PHASES = [
    ("argument parsing", "parseAsRoot"), ("reading files", "11A11yReaders9WorkspaceC"), ("readers", "11A11yReaders"),
    ("prefetch (evaluation)", "prefetch"), ("graph: reading tokens", "readTokens"),
    ("graph: keys and rows", "sortKeysAndFillRows"), ("program indexes", "ProgramV7sources"),
    ("graph and themes, rest", "ThemedSystem"), ("view code", "ViewCode"), ("components", "ComponentV3all"),
    ("pairing inference", "PairingInference"), ("pairing sources", "PairingResolver"), ("rules", "checkConcurrently"),
    ("graph findings", "TokenGraphC8findings"), ("JSON", "A11yOutput"), ("audit, rest", "AuditorO3run"),
    ("main, rest", "a11yctl_main"),
]
HEADER = re.compile(r"^\s*(\d+)/(\d+)\s+([\d.]+):\s*$")

# Start-up and exit, and malloc (glibc has no frame pointers, so perf cannot walk past it to the caller).
UNATTRIBUTED = "unattributed (start-up, exit, malloc)"

OURS = re.compile(r"A11yEngine|A11yReaders|A11yOutput|a11yctl")
# The scheduler, system-call and clock frames a waiting thread is sampled in (sched_yield, a futex, the clock it reads).
WAITING_LEAF = re.compile(r"sched|yield|syscall|sys_call|clock_gettime|dispatch_time|vcpu_is_preempted|rt_mutex|futex")


def is_waiting(stack):
    """A pool thread looking for work, or a caller waiting for a job's last iterations (WorkerPool): waiting, not
    working. Its innermost frame of ours is the pool's own; or it has no frame of ours at all, only a scheduler or
    system-call frame under `start_thread`: glibc's `sched_yield` has no frame pointer, so perf's walk skips the pool's
    frame that called it (before 2026-11-28 these samples counted as work: a core left waiting looked like one working).
    """
    ours = next((frame for frame in stack if OURS.search(frame)), None)
    if ours is not None:
        return "10WorkerPoolC" in ours
    return bool(stack) and stack[-1].startswith("start_thread") and bool(WAITING_LEAF.search(stack[0]))


def phase_of(stack):
    """The phase a sample was taken in: the first of PHASES whose symbol fragment is on its stack."""
    text = " ".join(stack)
    return next((name for name, fragment in PHASES if fragment in text), UNATTRIBUTED)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    binary, path, rest = argv[1], argv[2], argv[3:]
    options = dict(zip(rest[::2], rest[1::2]))
    runs = int(options.get("--runs", 10))
    detail, detailed = options.get("--detail"), collections.Counter()
    with tempfile.TemporaryDirectory() as scratch:
        data = os.path.join(scratch, "perf.data")
        # (An audit with findings exits 1: the loop's status is not the audits'.)
        loop = f'for i in $(seq {runs}); do "$0" audit "$1" --format json >/dev/null; done; true'
        subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "10000", "-g", "-o", data, "--",
                        "sh", "-c", loop, binary, path], check=True, stderr=subprocess.DEVNULL)
        script = subprocess.run(["perf", "script", "-i", data, "-F", "pid,tid,time,ip,sym"], check=True,
                                capture_output=True, text=True).stdout
    samples, current = [], None
    for line in script.splitlines():
        # A sample's first line is "pid/tid time:" (right-aligned: short pids start with spaces), then its frames.
        header = HEADER.match(line)
        if not line.strip():
            current = None
        elif header:
            current = (int(header[1]), int(header[2]), float(header[3]), [])
            samples.append(current)
        elif current:
            current[3].append(line.split(None, 1)[-1])
    by_process = collections.defaultdict(list)
    waiting_samples = collections.defaultdict(list)
    for sample in samples:
        if is_waiting(sample[3]):
            waiting_samples[sample[0]].append(sample)
        else:
            by_process[sample[0]].append(sample)
    spans, alone_times, alone, waited, beside = [], [], collections.Counter(), [], collections.Counter()
    for pid, process in by_process.items():
        if len(process) < 100:
            continue  # the shell
        start = min(s[2] for s in process)
        threads = collections.defaultdict(set)
        for _, tid, time, _ in process:
            threads[int((time - start) * 2000)].add(tid)
        spans.append((max(s[2] for s in process) - start) * 1000)
        alone_times.append(sum(1 for ids in threads.values() if len(ids) == 1) / 2)
        waited.append(len(waiting_samples[pid]) / 10)  # 10,000 samples a second: a sample is 0.1 ms
        for _, _, time, stack in process:
            if len(threads[int((time - start) * 2000)]) != 1:
                continue
            phase = phase_of(stack)
            alone[phase + (", page faults" if any("exc_page_fault" in frame for frame in stack) else "")] += 1
            if phase == detail:
                ours = next((frame for frame in stack if OURS.search(frame)), stack[0])
                detailed[ours[:140]] += 1
        # What the other threads were doing when a thread was sampled waiting (their sample nearest in time, within
        # 0.1 ms): the serial steps of the audit, however short (a bucket of 0.5 ms holds one only when it is longer).
        working = sorted(process, key=lambda s: s[2])
        times = [s[2] for s in working]
        for wait in waiting_samples[pid]:
            i = bisect.bisect_left(times, wait[2])
            near = [working[j] for j in (i - 1, i) if 0 <= j < len(working) and working[j][1] != wait[1]
                    and abs(working[j][2] - wait[2]) < 0.0001]
            if near:
                beside[phase_of(near[0][3])] += 1
    median = lambda values: sorted(values)[len(values) // 2]
    print(f"{path}: {len(spans)} runs under perf, median span {median(spans):.1f} ms, "
          f"of which one thread alone {median(alone_times):.1f} ms ({100 * median(alone_times) / median(spans):.0f}%) "
          f"in buckets of 0.5 ms; a thread waiting for work {median(waited):.1f} ms of CPU (median)")
    total = sum(alone.values())
    for phase, count in alone.most_common(20):
        print(f"  {100 * count / total:5.1f}%  {phase}")
    runs_seen = max(1, len(spans))
    print("while a thread waited, the others ran (ms a run, under perf):")
    for phase, count in beside.most_common(20):
        print(f"  {count / 10 / runs_seen:5.1f}  {phase}")
    if detail:
        print(f"{detail}, one thread alone, by innermost frame of ours:")
        for frame, count in detailed.most_common(15):
            print(f"  {100 * count / max(1, sum(detailed.values())):5.1f}%  {frame}")


if __name__ == "__main__":
    main(sys.argv)
