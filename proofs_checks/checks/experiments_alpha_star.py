"""The optimum stated in ``sec: experiments``: alpha* = [0.8, 0.2] for Gini on the instance of
``fig:T_experiment`` (Bern(0.4), Bern(0.9)); derived from the exact maximiser of h on the hull of the means."""

from __future__ import annotations

import numpy as np

from rsb_theory.distortions import get
from rsb_theory.profile import of
from rsb_theory.oracle import alpha_star_bernoulli

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num

ID = "sec: experiments#alpha_star"
#: alpha* is compared to this absolute tolerance (the printed values have one decimal).
ATOL = 1e-12


def _instance() -> tuple[float, ...]:
    return next(e for e in paper_claims.EXPERIMENTS if e.figure == "fig:T_experiment").p


def check(claim: Claim) -> CheckResult:
    printed = tuple(claim.printed)
    p = np.array(_instance())
    tops = of(get("gini")).maximisers((float(p.min()), float(p.max())))
    alpha = alpha_star_bernoulli(p, float(tops[0]))
    ok = len(tops) == 1 and len(printed) == p.size and np.allclose(alpha, printed, atol=ATOL, rtol=0)
    return CheckResult(ID, f"For Gini deviation on (Bern({p[0]}), Bern({p[1]})) the optimal mixture is alpha* = "
                       f"{list(printed)}", str(list(printed)), "[" + ", ".join(num(float(x), 6) for x in alpha) + "]",
                       decide(holds=ok), "symbolic",
                       f"V(alpha) = h(<alpha, p>) is maximised where <alpha, p> = {tops[0]} (unique maximiser of "
                       f"u(1-u) on [{p.min()}, {p.max()}]); {p[0]} a + {p[1]} (1 - a) = {tops[0]} gives a = "
                       f"{num(alpha[0], 6)}")


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    a = tuple(claim.printed)
    moved = (round(a[0] - 0.1, 12), round(a[1] + 0.1, 12))
    return [claim.reprinted(moved, f"alpha* = {list(moved)}")]


CLAIMS = claim_map(Claim(ID, paper_claims.EXPERIMENT_ALPHA_STAR, check, mutants))
