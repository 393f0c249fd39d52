"""The optimum stated in ``sec: experiments``: alpha* = [0.8, 0.2] for Gini on
(Bern(0.4), Bern(0.9)); derived from the exact maximiser of h on [0.4, 0.9]."""

from __future__ import annotations

import numpy as np

from rsb_theory.distortions import get
from rsb_theory.holder import optimal_means
from rsb_theory.profile import alpha_star_bernoulli

from .. import paper_claims
from ..ledger import CheckResult

ID = "sec: experiments#alpha_star"


def check() -> CheckResult:
    p = np.array([0.4, 0.9])
    tops = optimal_means(get("gini"), 0.4, 0.9)
    alpha = alpha_star_bernoulli(p, float(tops[0]))
    ok = len(tops) == 1 and np.allclose(alpha, paper_claims.EXPERIMENT_ALPHA_STAR, atol=1e-12)
    return CheckResult(ID, "For Gini deviation on (Bern(0.4), Bern(0.9)) the optimal mixture is alpha* = [0.8, 0.2]",
                       str(list(paper_claims.EXPERIMENT_ALPHA_STAR)), str([round(float(x), 12) for x in alpha]),
                       "verified" if ok else "refuted", "symbolic",
                       f"V(alpha) = h(<alpha, p>) is maximised where <alpha, p> = {tops[0]} (unique maximiser of "
                       f"u(1-u) on [0.4, 0.9]); 0.4 a + 0.9 (1 - a) = 1/2 gives a = 4/5")
