"""The finding of docs/competitors.md, summarised from the output directories of ``rsb compare --tune``.

Run: PYTHONPATH=. python benchmarks/competitors_finding_summary.py OUT_CSV DIR [DIR ...] > details.txt
then PYTHONPATH=. python benchmarks/competitors_finding_summary.py --markdown OUT_CSV > tables.md

Each DIR is one ``rsb compare --tune`` run (one distortion and instance).  At the largest horizon of each run it
writes, for both metrics (the terminal mixture regret of eq:regret and the pseudo-regret sum_k Delta_k N_k):

* the mean of every reported algorithm (tuned ones at the multiplier chosen on the tuning seeds) with a 95 %
  bootstrap percentile interval over the trials;
* the paired comparison of each tuning-free learner (ts-mix, plugin-track) with the better of the paper's
  algorithms at their chosen multipliers (ce-ucb-m, rs-ucb-m, rs-etc-m; "better" = smaller mean on the fresh
  seeds, which favours the paper's side): the ratio of means with a 95 % paired-bootstrap percentile interval
  (trials resampled jointly: the common random numbers), and the Holm-adjusted verdicts of ``rsb compare``'s
  paired t and Wilcoxon tests (read from compare_tests.csv, not recomputed);
* the algorithms not shown worse than the smallest mean by either Holm-adjusted paired test ("best set").

The summary CSV has one row per run, metric and algorithm (column ``best_set_or_verdicts``: whether the
algorithm is in the best set), and one per ratio, ``algo`` = "learner/paper algorithm", whose
``best_set_or_verdicts`` holds the two tests' verdicts.

The bootstrap streams are spawned from one SeedSequence(0), one per run directory and metric in the order the
directories are given: the same command gives the same intervals.
"""

import csv
import json
import sys
from pathlib import Path

import numpy as np

from proofs_checks.numfmt import num

PAPER = ("ce-ucb-m", "rs-ucb-m", "rs-etc-m")
FREE = ("ts-mix", "plugin-track")
METRICS = ("regret", "pseudo_regret")
B = 4000


def _header(path):
    lines = [ln[2:] if ln.startswith("# ") else ln[1:] for ln in path.read_text().splitlines() if ln.startswith("#")]
    return json.loads("\n".join(lines))


def _rows(path):
    with path.open() as f:
        return list(csv.DictReader(ln for ln in f if not ln.startswith("#")))


def _interval(rng, x):
    idx = rng.integers(0, len(x), size=(B, len(x)))
    lo, hi = np.percentile(x[idx].mean(axis=1), [2.5, 97.5])
    return lo, hi


def _ratio(rng, a, b):
    idx = rng.integers(0, len(a), size=(B, len(a)))
    den = b[idx].mean(axis=1)
    num_ = a[idx].mean(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = num_ / den
    lo, hi = np.percentile(r, [2.5, 97.5])
    return a.mean() / b.mean(), lo, hi


def main(out_csv, dirs):
    root = np.random.SeedSequence(0)
    streams = root.spawn(len(dirs) * len(METRICS))
    out = []
    for d_i, d in enumerate(map(Path, dirs)):
        head = _header(d / "compare.csv")
        rows = _rows(d / "compare.csv")
        tests = _rows(d / "compare_tests.csv")
        T = max(int(r["T"]) for r in rows)
        reported = [r for r in rows if int(r["T"]) == T and not r["algo"].endswith(" (default)")]
        algos = list(dict.fromkeys(r["algo"] for r in reported))
        mult = {a: next(r["multiplier"] for r in reported if r["algo"] == a) for a in algos}
        default = {}
        for r in rows:
            if int(r["T"]) == T and r["algo"].endswith(" (default)"):
                default.setdefault(r["algo"][:-len(" (default)")], []).append(float(r["regret"]))
        inst = head["instance"]
        desc = inst.get("p") if inst.get("kind") == "bernoulli" else inst
        print(f"\n### {d.name}: {head['dr']}, {json.dumps(desc)}, T = {T}, alpha* = {head['alpha_star']}, "
              f"floor = {num(head['best_arm_gap'])}\n")
        for m_i, metric in enumerate(METRICS):
            rng = np.random.default_rng(streams[d_i * len(METRICS) + m_i])
            vals = {a: np.array([float(r[metric]) for r in reported if r["algo"] == a]) for a in algos}
            trials = {a: np.array([int(r["trial"]) for r in reported if r["algo"] == a]) for a in algos}
            for a in algos:
                order = np.argsort(trials[a])
                vals[a] = vals[a][order]
            mt = [t for t in tests if int(t["T"]) == T and t["metric"] == metric]
            best = min(algos, key=lambda a: vals[a].mean())

            def verdict(a, b, mt=mt):
                for t in mt:
                    if {t["algo_a"], t["algo_b"]} == {a, b}:
                        return t["smaller_by_t"], t["smaller_by_wilcoxon"], t
                return None, None, None

            best_set = [a for a in algos
                        if a == best or all(v != best for v in verdict(a, best)[:2])]
            print(f"{metric}: best set (not shown worse than {best} by either paired test, Holm, 0.05): "
                  f"{', '.join(best_set)}")
            for a in algos:
                lo, hi = _interval(rng, vals[a])
                extra = f" x{mult[a]}" if mult[a] not in ("", "None") else ""
                dflt = (f"; default x1: {num(np.mean(default[a]))}" if metric == "regret" and a in default else "")
                print(f"  {a}{extra}: {num(vals[a].mean())} [{num(lo)}, {num(hi)}]{dflt}")
                out.append({"run": d.name, "dr": head["dr"], "T": T, "metric": metric, "algo": a,
                            "multiplier": mult[a], "trials": len(vals[a]), "mean": vals[a].mean(),
                            "ci_low": lo, "ci_high": hi, "best_set_or_verdicts": a in best_set,
                            "default_mean": np.mean(default[a]) if a in default and metric == "regret" else ""})
            paper = [a for a in PAPER if a in algos]
            if not paper:
                continue
            ref = min(paper, key=lambda a: vals[a].mean())
            for f in FREE:
                if f not in algos:
                    continue
                r, lo, hi = _ratio(rng, vals[f], vals[ref])
                vt, vw, t = verdict(f, ref)
                print(f"  {f} / {ref}: ratio of means {num(r)} [{num(lo)}, {num(hi)}]; mean diff "
                      f"{num(float(t['mean_diff']) * (1 if t['algo_a'] == f else -1))}; paired t (Holm): {vt}; "
                      f"Wilcoxon (Holm): {vw}")
                out.append({"run": d.name, "dr": head["dr"], "T": T, "metric": metric, "algo": f"{f}/{ref}",
                            "multiplier": "", "trials": len(vals[f]), "mean": r, "ci_low": lo, "ci_high": hi,
                            "best_set_or_verdicts": f"t: {vt}; wilcoxon: {vw}", "default_mean": ""})
    with open(out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(out[0]))
        w.writeheader()
        for row in out:
            w.writerow({k: (num(v, 3) if isinstance(v, float) else v) for k, v in row.items()})


ORDER = ("rs-etc-m", "ce-ucb-m", "rs-ucb-m", "ucb-fw", "u-ucb", "cvar-ucb", "b-cvts", "dr-ucb", "ucb1", "ts-mix",
         "plugin-track")


def markdown(summary_csv):
    """The finding's tables (one per metric, then the ratios) as Markdown, from the summary CSV."""
    with open(summary_csv) as f:
        rows = list(csv.DictReader(f))
    runs = list(dict.fromkeys(r["run"] for r in rows))
    for metric in METRICS:
        algos = [a for a in ORDER if any(r["algo"] == a and r["metric"] == metric for r in rows)]
        print(f"\n| run | {' | '.join(algos)} |\n|---|{'---|' * len(algos)}")
        for run in runs:
            cells = []
            for a in algos:
                r = next((r for r in rows if r["run"] == run and r["metric"] == metric and r["algo"] == a), None)
                if r is None:
                    cells.append("")
                    continue
                cell = f"{r['mean']} [{r['ci_low']}, {r['ci_high']}]"
                if r["multiplier"] not in ("", "None"):
                    cell += f" x{num(float(r['multiplier']))}"
                cells.append(f"**{cell}**" if r["best_set_or_verdicts"] == "True" else cell)
            print(f"| {run} | {' | '.join(cells)} |")
    print("\n| run | metric | ratio | of means [95 % paired bootstrap] | paired t (Holm) | Wilcoxon (Holm) |\n|---|---|---|---|---|---|")
    for r in rows:
        if "/" in r["algo"]:
            vt, vw = (v.split(": ", 1)[1] for v in r["best_set_or_verdicts"].split("; "))
            print(f"| {r['run']} | {r['metric']} | {r['algo']} | {r['mean']} [{r['ci_low']}, {r['ci_high']}] | {vt} | {vw} |")


if __name__ == "__main__":
    if sys.argv[1] == "--markdown":
        markdown(sys.argv[2])
    else:
        main(sys.argv[1], sys.argv[2:])
