"""Totals of results.jsonl by class and verdict, and the defects, as Markdown (pasted into report.md)."""

import collections
import json
import os
import sys

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "results.jsonl")
rows = [json.loads(ln) for ln in open(path)]
tot = collections.defaultdict(collections.Counter)
for r in rows:
    tot[r["cls"]][r["verdict"]] += 1
print("| class | attempts | ok | defect |\n|---|---|---|---|")
for c, n in tot.items():
    print(f"| {c} | {sum(n.values())} | {n['ok']} | {n['defect']} |")
print(f"| **all** | {len(rows)} | {sum(n['ok'] for n in tot.values())} | {sum(n['defect'] for n in tot.values())} |")
print()
for r in rows:
    if r["verdict"] == "defect":
        cmd = r["command"] if isinstance(r["command"], str) else " ".join(r["command"])
        print(f"* [{r['cls']}] `{cmd[:200]}` -> exit {r['rc']}, {r['wall']} s: {r['why'][:200]}")
