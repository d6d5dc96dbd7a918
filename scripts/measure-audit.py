#!/usr/bin/env python3
"""One row of docs/real-world.md from `a11yctl audit PATH --format json` on stdin.

    a11yctl audit PATH --format json | python3 scripts/measure-audit.py NAME
"""
import collections
import json
import sys

audit = json.load(sys.stdin)
summary = audit["summary"]
rules = collections.Counter(f["rule"] for f in audit["findings"])
reasons = collections.Counter(p["reason"] for p in audit["pairs"])
failing = collections.Counter(p["reason"] for p in audit["pairs"] if not p["pass"])
tokens = summary["tokens"]
unevaluated = summary.get("unevaluatedTokens") or 0
read_problems = rules["parse"] + rules["reference"]
name = sys.argv[1] if len(sys.argv) > 1 else "system"
print(f"| {name} | {tokens:,} | {tokens - unevaluated:,} | {read_problems} ({100 * read_problems / max(tokens, 1):.1f}) "
      f"| {summary['pairs']:,} ({', '.join(f'{k} {v}' for k, v in sorted(reasons.items()))}) "
      f"| {summary['failingPairs']:,} ({', '.join(f'{k} {v}' for k, v in sorted(failing.items()))}) |")
