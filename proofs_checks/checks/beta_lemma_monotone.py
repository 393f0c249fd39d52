"""``lemma:beta_lemma_monotone``: beta = 1 for concave, strictly increasing h,
and its best / second-best grid points eq:astar_lemma14, eq:aprime_lemma14.

Enumeration on the mid-point grid (1/eps - K/2 integer) for instances with
increasing distinct means; the premise h'(p_K) > 0 of the proof's last step is
checked by :func:`rsb_theory.gap.beta_monotone`, with dual power at p_K = 1 as
the counterexample (Delta_min = Theta(eps^2)).
"""

from __future__ import annotations

import numpy as np

from rsb_theory.distortions import get
from rsb_theory.gap import beta_monotone, estimate_beta
from rsb_theory.grids import Grid

from ..ledger import CheckResult

ID = "lemma:beta_lemma_monotone"
#: eps = 1/n for the numeric beta (K = 3 grids stay below 10^4 points).
N_VALUES = (10, 14, 20, 28, 40, 56, 80, 113)
INSTANCES = (("mean", (0.2, 0.5, 0.7)), ("pht", (0.1, 0.4, 0.6)), ("quadratic", (0.3, 0.6, 0.9)),
             ("dual_power", (0.2, 0.5, 0.8)), ("cvar", (0.1, 0.2, 0.4)))


def _lemma_points(K, eps):
    a_star = np.full(K, eps / 2)
    a_star[-1] = 1 - (K - 1) * eps / 2
    a_prime = a_star.copy()
    a_prime[-1] -= eps
    a_prime[-2] += eps
    return a_star, a_prime


def check() -> CheckResult:
    mismatches, checked, betas = [], 0, []
    for key, p in INSTANCES:
        d = get(key)
        p_arr = np.array(p)
        for n in (10, 20, 30):
            eps = 1.0 / (n + 1.5)  # 1/eps - 3/2 = n: exact mid-point grid for K = 3
            g = Grid(3, eps, "ucb")
            pts = g.points()
            vals = d.numeric(pts @ p_arr)
            order = np.argsort(-vals, kind="stable")
            a_star, a_prime = _lemma_points(3, eps)
            checked += 1
            if not (np.allclose(pts[order[0]], a_star) and np.allclose(pts[order[1]], a_prime)
                    and vals[order[1]] > vals[order[2]]):
                mismatches.append(f"{key} p={p} eps=1/{n + 1.5}")
        betas.append(f"{key}: {estimate_beta(d, p, n_values=N_VALUES).beta_fit:.3f}")
    counter = beta_monotone(get("dual_power"), (0.4, 1.0))
    est = estimate_beta(get("dual_power"), (0.4, 1.0), n_values=N_VALUES)
    ev = (f"eq:astar_lemma14 and eq:aprime_lemma14 are the best and second-best grid points in {checked - len(mismatches)}"
          f"/{checked} enumerations{'; mismatches: ' + ', '.join(mismatches) if mismatches else ''}; numeric beta: "
          + ", ".join(betas) + f". Premise of eq:delta_min_conc_mon_analysis: h'(p_K) > 0; dual power (s=2) at "
          f"p=(0.4, 1): {counter.reason}; numerically {est.evidence()}")
    status = "refuted" if mismatches else ("conditional" if not counter.applies else "verified")
    return CheckResult(ID, "For concave, strictly increasing h on K-arm Bernoulli instances, beta = 1", "beta = 1",
                       "beta = 1 if h'(max p) > 0" if status == "conditional" else "see evidence", status, "numeric", ev)
