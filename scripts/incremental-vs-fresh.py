#!/usr/bin/python3
"""Saves edits to a design system that a running a11yd watches, one hex color literal at a time (`"#RRGGBB"` strings,
or `0xRRGGBB` integers when the file has no strings), and checks after each save that the daemon's audit (made from its
previous audit) equals a fresh `a11yctl audit` of the same files.

usage: incremental-vs-fresh.py A11YCTL SOCKET ROOT SWIFT_FILE [SAVES]
(start `a11yd --root ROOT --socket SOCKET --state-dir DIR` first; ROOT must be a scratch copy: the file is edited)
"""
import json, re, subprocess, sys, time

ctl, socket, root, path = sys.argv[1:5]
saves = int(sys.argv[5]) if len(sys.argv) > 5 else 8

def run(*args):
    return json.loads(subprocess.run([ctl, *args, "--format", "json"], capture_output=True, text=True).stdout)

text = open(path).read()
literals = list(re.finditer(r'"#[0-9A-Fa-f]{6}"', text))
replacements = ['"#777777"', '"#D01010"', '"#F5F5F5"', '"#202020"']
if not literals:
    # Integer literals (`Color(0xDE5833)`, DesignResourcesKit's form).
    literals = list(re.finditer(r'\b0x[0-9A-Fa-f]{6}\b', text))
    replacements = ['0x777777', '0xD01010', '0xF5F5F5', '0x202020']
if not literals:
    sys.exit(f"no \"#RRGGBB\" or 0xRRGGBB literal in {path}")
equal = 0
for i, match in enumerate(literals[::max(1, len(literals) // saves)][:saves]):
    before = run("latest", "--socket", socket)["id"]
    # Same length, so the positions of the later literals still hold.
    text = text[:match.start()] + replacements[i % 4] + text[match.end():]
    open(path, "w").write(text)
    for _ in range(200):
        time.sleep(0.1)
        daemon = run("latest", "--socket", socket)
        if daemon["id"] != before:
            break
    fresh = run("audit", root)
    for audit in (daemon, fresh):
        audit.pop("id", None)
        audit.pop("time", None)
    equal += daemon == fresh
    print(f"save {i + 1}: daemon {'==' if daemon == fresh else '!='} fresh ({daemon['summary']['pairs']} pairs, "
          f"{daemon['summary']['failingPairs']} failing)")
print(f"{equal} of {min(saves, len(literals))} saves equal")
sys.exit(0 if equal == min(saves, len(literals)) else 1)
