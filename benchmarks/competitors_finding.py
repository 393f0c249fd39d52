"""The finding table of docs/competitors.md: every distortion (the nine rows and cvar_lower) on a mixture-optimal
and a solitary Bernoulli instance, K = 2, at a modest scale (T and trials below), each algorithm's mean regret.

Run: PYTHONPATH=. python benchmarks/competitors_finding.py T TRIALS > table.md
Algorithms: CE-UCB-M and DR-UCB with the radius x 0.01 (as `rsb reproduce mixture-vs-solitary`), UCB-FW, U-UCB,
UCB1 with their printed bonuses, and CVaR-UCB and B-CVTS on the CVaR distortions.  Seed 0, stream (0,).
"""

import sys

import numpy as np

from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance
from rsb_sim.options import CVAR_ONLY
from rsb_theory.distortions import family_names, get

T, TRIALS = int(sys.argv[1]), int(sys.argv[2])
INSTANCES = {"mixture-optimal (Gini)": (0.4, 0.9), "solitary (Gini)": (0.2, 0.45)}
ALGOS = {"ce-ucb-m": {"radius_scale": 0.01}, "ucb-fw": {}, "dr-ucb": {"radius_scale": 0.01}, "u-ucb": {},
         "ucb1": {}, "cvar-ucb": {}, "b-cvts": {}}

print(f"T = {T}, {TRIALS} trials, seed 0; mean regret V* - V(tau_T/T) (+- standard error); best in bold")
print()
print("| h | instance | alpha* | floor | " + " | ".join(ALGOS) + " | best |")
print("|---|---|---|---|" + "---|" * len(ALGOS) + "---|")
for name in family_names():
    d = get(name)
    for label, p in INSTANCES.items():
        inst = BernoulliInstance(p)
        cells, means = [], {}
        floor = None
        alpha = None
        for algo, opts in ALGOS.items():
            if algo in CVAR_ONLY and name not in CVAR_ONLY[algo]:
                cells.append("n/a")
                continue
            try:
                r = run(SimConfig(T=T, trials=TRIALS, seed=0, **opts), inst, d, algo)
            except ValueError as exc:
                cells.append("refused")
                continue
            se = r.std_regret / np.sqrt(TRIALS)
            means[algo] = r.mean_regret
            cells.append(f"{r.mean_regret:.2e} +- {se:.1e}")
            floor = r.v_star - max(r.arm_values)
            alpha = r.alpha_star
        best = min(means, key=means.get)
        cells = [f"**{c}**" if a == best else c for a, c in zip(ALGOS, cells)]
        print(f"| {d.describe()} | {p} | {tuple(round(a, 3) for a in alpha)} | {floor:.2e} | " + " | ".join(cells)
              + f" | {best} |", flush=True)
