#!/usr/bin/env python3
"""Where a cold audit leaves a core idle: perf samples every thread of RUNS audits of PATH, and for each sample of a
thread that waits for work (the worker pool spinning or yielding), takes the other thread's sample at the same moment.
What that thread was doing is a serial step (or the tail of an unbalanced parallel one): work only a shorter critical
path can hide. Prints the steps, by the audit's frames, in milliseconds per audit.
usage: A11YD_POLICIES=policies /usr/bin/python3 scripts/serial-steps.py BINARY PATH [RUNS] [DEPTH]
Needs `perf` (Debian package linux-perf) and permission to sample (root, or kernel.perf_event_paranoid <= 1).
"""
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile

FREQUENCY = 20_000  # samples a second on each CPU: one sample stands for 50 µs of one thread


def waiting(frames):
    """A thread in the pool's wait (spinning, yielding, or the kernel scheduling it out of a yield): the innermost frame
    of the audit's own code is the pool's loop or a caller's wait in `perform`, not a job's work."""
    for frame in frames:
        if re.match(r'\$s\d+A11y(Engine|Readers|Output)', frame):
            return 'WorkerPoolC3run' in frame or ('WorkerPoolC7perform' in frame and 'Job' not in frame)
    return False


def label(frames, depth):
    """The outermost `depth` frames of the audit's own code (engine, readers, output), pool frames left out."""
    ours = [re.sub(r'33_[0-9A-F]{32}LL', '', f) for f in reversed(frames)
            if re.match(r'\$s\d+A11y(Engine|Readers|Output)', f) and 'WorkerPool' not in f and 'concurrent' not in f]
    if not ours:
        return frames[0][:60] if frames else '?'
    return ' > '.join(re.sub(r'^\$s\d+A11y\w+?\d+', '', f)[:60] for f in ours[:depth])


def samples(script_output):
    """(pid, tid, time, frames innermost first) for each sample of a11yctl."""
    current = None
    for line in script_output:
        if not line.strip():
            if current:
                yield current
            current = None
        elif not line[0].isspace():
            m = re.match(r'(\S+)\s+(\d+)/(\d+)\s+([\d.]+):', line)
            current = (int(m.group(2)), int(m.group(3)), float(m.group(4)), []) if m and m.group(1) == 'a11yctl' else None
        elif current is not None:
            parts = line.split(None, 1)
            current[3].append(parts[1].strip() if len(parts) > 1 else '?')
    if current:
        yield current


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.strip())
    binary, path = argv[1], argv[2]
    runs = int(argv[3]) if len(argv) > 3 else 20
    depth = int(argv[4]) if len(argv) > 4 else 3
    with tempfile.TemporaryDirectory() as scratch:
        data = os.path.join(scratch, 'perf.data')
        audits = f'for i in $(seq {runs}); do "{binary}" audit "{path}" --format json > /dev/null; done; true'
        subprocess.run(['perf', 'record', '-q', '-F', str(FREQUENCY), '-g', '-o', data, 'sh', '-c', audits], check=True,
                       stderr=subprocess.DEVNULL)
        script = subprocess.run(['perf', 'script', '-i', data, '-F', 'comm,pid,tid,time,ip,sym'], check=True,
                                capture_output=True, text=True).stdout.splitlines()
    by_process = collections.defaultdict(list)
    for sample in samples(script):
        by_process[sample[0]].append(sample)
    total = waits = 0
    steps = collections.Counter()
    for process in by_process.values():
        threads = collections.defaultdict(list)
        for sample in sorted(process, key=lambda s: s[2]):
            threads[sample[1]].append(sample)
        times = {tid: [s[2] for s in thread] for tid, thread in threads.items()}
        for sample in process:
            total += 1
            if not waiting(sample[3]):
                continue
            waits += 1
            for tid, thread in threads.items():
                if tid == sample[1]:
                    continue
                i = bisect.bisect_left(times[tid], sample[2])
                nearest = [thread[j] for j in (i - 1, i) if 0 <= j < len(thread) and abs(thread[j][2] - sample[2]) < 1e-4]
                if nearest and not waiting(nearest[0][3]):
                    steps[label(nearest[0][3], depth)] += 1
    per_audit = 1000 / FREQUENCY / runs  # ms of one thread per sample, per audit
    print(f'{runs} audits of {path}: {total * per_audit:.1f} ms of thread time per audit, '
          f'{waits * per_audit:.1f} ms of it waiting for work ({100 * waits / max(total, 1):.0f}%)')
    print(f'while a thread waited, the other was in (ms per audit, outermost {depth} frames of the audit):')
    for step, count in steps.most_common(25):
        print(f'{count * per_audit:7.2f}  {step}')


if __name__ == '__main__':
    main(sys.argv)
