"""Benchmark of the batched exact discrete argmax (rsb_theory.argmax, method="bnb").

The objectives are the classes of rsb_theory.objectives (ETCObjective, RSUCBObjective,
CEUCBObjective); the search is rsb_theory.argmax.bnb behind rsb_theory.argmax.argmax.

Setting (paper scale): K = 6, T = 3e5, eps = sqrt(K log T / T) (about 10^7 grid
points on either grid), B = 1000 trials.  The estimates are empirical means of
tau_{b,i} Bernoulli samples of the instance with means linspace(0.2, 0.9, K),
tau_{b,i} ~ T/(10K) (uniform in [0.5, 1.5] T/(10K) per trial and arm, as after
unequal pulls; --equal-tau for the same count everywhere).  Radii: the paper's
16 (sqrt(2 e log T) + 32) / sqrt(tau) of eq:UCB_confidence_sets (>= 1 here:
degenerate, every ball contains every Bernoulli law) and that radius times 1e-3
(informative).  Also K = 2 and K = 4 with eps = 0.05.

Each row: one batched argmax call for all B trials, best of --repeat runs (a
call slower than 2 s is run once), the mean number of leaf lines (prefixes
(n_1..n_{K-2})) the search evaluated per trial, whether the greedy dive ran
(Decision.dived) and the grid size.  Results belong in docs/simulation.md.

Run:  .venv/bin/python benchmarks/bench_argmax.py [--json] [--trials B] [--dr gini,pht]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np

from rsb_theory.argmax import argmax
from rsb_theory.distortions import get
from rsb_theory.grids import Grid
from rsb_theory.holder import holder
from rsb_theory.objectives import CEUCBObjective, ETCObjective, RSUCBObjective
from rsb_theory.rates import radius_constant


def _instance(K: int, B: int, T: float, equal_tau: bool, seed: int):
    rng = np.random.default_rng(seed)
    base = T / (10 * K)
    tau = np.full((B, K), int(base)) if equal_tau else (base * rng.uniform(0.5, 1.5, (B, K))).astype(int)
    phat = rng.binomial(tau, np.linspace(0.2, 0.9, K)) / tau
    radius = radius_constant(T) / np.sqrt(tau)  # eq:UCB_confidence_sets
    return phat, radius


def _time_call(obj, grid, repeat: int):
    argmax(obj, grid, method="bnb")  # warm-up: caches of h, its maximisers and derivative
    best, dec, runs = math.inf, None, 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        dec = argmax(obj, grid, method="bnb")
        best = min(best, time.perf_counter() - t0)
        runs += 1
        if best > 2.0:
            break
    return best, dec, runs


def run(trials: int, names: list[str], repeat: int, equal_tau: bool, T: float, seed: int, progress) -> list[dict]:
    rows = []
    settings = [(6, math.sqrt(6 * math.log(T) / T)), (4, 0.05), (2, 0.05)]
    for name in names:
        d = get(name)
        hr = holder(d)
        q, L = float(hr.q), float(hr.L_H)
        for K, eps in settings:
            phat, radius = _instance(K, trials, T, equal_tau, seed)
            objectives = [
                ("etc", ETCObjective.build(d, phat)),
                ("rs_ucb (paper radius)", RSUCBObjective.build(d, phat, radius)),
                ("rs_ucb (radius x 1e-3)", RSUCBObjective.build(d, phat, radius * 1e-3)),
            ]
            if math.isfinite(L):
                objectives += [
                    ("ce_ucb (paper radius)", CEUCBObjective.build(d, phat, radius, q, L)),
                    ("ce_ucb (radius x 1e-3)", CEUCBObjective.build(d, phat, radius * 1e-3, q, L)),
                ]
            for kind in ("etc", "ucb"):
                grid = Grid(K, float(eps), kind)
                for label, obj in objectives:
                    seconds, dec, runs = _time_call(obj, grid, repeat)
                    row = {"h": d.describe(), "objective": label, "K": K, "eps": round(float(eps), 6), "grid": kind,
                           "grid_points": grid.size, "trials": trials, "ms_per_call": round(1e3 * seconds, 2),
                           "runs": runs, "mean_lines": round(float(dec.lines.mean()), 2),
                           "max_lines": int(dec.lines.max()), "dived": bool(dec.dived)}
                    rows.append(row)
                    progress(row)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--dr", default="gini,pht,mean_median", help="comma-separated distortion names")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--T", type=float, default=3e5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--equal-tau", action="store_true")
    args = ap.parse_args(argv)
    if args.trials < 1:
        ap.error("argument --trials: need >= 1")

    def progress(row):
        if not args.json:
            print(f"{row['h']:<12} {row['objective']:<24} K={row['K']} {row['grid']:<3} "
                  f"{row['grid_points']:>9} pts  {row['ms_per_call']:>10.1f} ms  "
                  f"lines/trial {row['mean_lines']:>9.1f} (max {row['max_lines']})", flush=True)

    if not args.json:
        print(f"batched argmax, method='bnb', B = {args.trials} trials, best of {args.repeat}")
    rows = run(args.trials, [n.strip() for n in args.dr.split(",") if n.strip()], args.repeat, args.equal_tau,
               args.T, args.seed, progress)
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
