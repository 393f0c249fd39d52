"""The finding table of docs/competitors.md: every distortion (the nine rows and cvar_lower) on a mixture-optimal
and a solitary Bernoulli instance, K = 2, at a modest scale (T and trials below), each algorithm's mean regret.

Run: PYTHONPATH=. python benchmarks/competitors_finding.py T TRIALS [k2|extra] > table.md
``k2``: every distortion on Bern(0.4), Bern(0.9) and Bern(0.2), Bern(0.45); ``extra``: the monotone concave
distortions on a finite-support instance where a mixture is optimal, and the deviation ones at K = 4.
Algorithms: CE-UCB-M and DR-UCB with the radius x 0.01 (as `rsb reproduce mixture-vs-solitary`), UCB-FW, U-UCB,
UCB1 with their printed bonuses, and CVaR-UCB and B-CVTS on the CVaR distortions.  Seed 0, stream (0,).
"""

import sys

import numpy as np

from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_sim.options import CVAR_ONLY
from rsb_theory.distortions import family_names, get

T, TRIALS = int(sys.argv[1]), int(sys.argv[2])
PLAN = sys.argv[3] if len(sys.argv) > 3 else "k2"
FS = FiniteSupportInstance((0.0, 0.5, 1.0), ((0.0, 1.0, 0.0), (0.6, 0.0, 0.4)))
if PLAN == "k2":
    ROWS = [(name, BernoulliInstance(p)) for name in family_names() for p in ((0.4, 0.9), (0.2, 0.45))]
else:
    ROWS = ([(name, FS) for name in ("dual_power", "quadratic", "cvar", "pht", "cvar_lower")]
            + [(name, BernoulliInstance(p)) for name in ("gini", "mean_median", "inter_es", "right_tail")
               for p in ((0.2, 0.4, 0.6, 0.9), (0.05, 0.15, 0.3, 0.45))])
ALGOS = {"ce-ucb-m": {"radius_scale": 0.01}, "ucb-fw": {}, "dr-ucb": {"radius_scale": 0.01}, "u-ucb": {},
         "ucb1": {}, "cvar-ucb": {}, "b-cvts": {}}

print(f"T = {T}, {TRIALS} trials, seed 0; mean regret V* - V(tau_T/T) (+- standard error); best in bold")
print()
print("| h | instance | alpha* | floor | " + " | ".join(ALGOS) + " | best |")
print("|---|---|---|---|" + "---|" * len(ALGOS) + "---|")
for name, inst in ROWS:
    d = get(name)
    p = inst.p if inst.kind == "bernoulli" else f"support {inst.support}, probs {inst.probs}"
    if True:
        cells, means = [], {}
        floor = None
        alpha = None
        for algo, opts in ALGOS.items():
            if algo in CVAR_ONLY and name not in CVAR_ONLY[algo]:
                cells.append("n/a")
                continue
            try:
                r = run(SimConfig(T=T, trials=TRIALS, seed=0, **opts), inst, d, algo)
            except ValueError:
                cells.append("refused")
                continue
            se = r.std_regret / np.sqrt(TRIALS)
            means[algo] = r.mean_regret
            cells.append(f"{r.mean_regret:.2e} +- {se:.1e}")
            floor = r.v_star - max(r.arm_values)
            alpha = r.alpha_star
        low = min(means.values())
        best = [a for a in means if means[a] <= low + 1e-12]  # ties (e.g. UCB-FW = U-UCB = UCB1 for the mean)
        cells = [f"**{c}**" if a in best else c for a, c in zip(ALGOS, cells)]
        print(f"| {d.describe()} | {p} | {tuple(round(a, 3) for a in alpha)} | {floor:.2e} | " + " | ".join(cells)
              + f" | {', '.join(best)} |", flush=True)
