"""``eq:E2C``: "the total number of discrete a values may not exceed (1/eps)^(K-1)",
and the count (1/eps)^(K-1) + 1 that ``eq:E3C`` and N(eps) carry; checked
against the exact size C(m + K - 1, K - 1) of eq:etc_discrete_set
(:attr:`rsb_theory.grids.Grid.size`, m = floor(1/eps)) for K = 2..6 and
1/eps = 1..60.  The printed bound is data (text, or a SymPy expression in
``eps`` and ``K`` for an altered claim)."""

from __future__ import annotations

import sympy as sp

from rsb_theory.expressions import to_sympy
from rsb_theory.grids import Grid

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..causes import because

ID = "eq:E2C"
K_MAX, N_MAX = 6, 60
_eps, _K = sp.symbols("eps K", positive=True)


def _bound(printed) -> sp.Expr:
    return printed if isinstance(printed, sp.Basic) else to_sympy(printed, "bound", {"eps": _eps, "K": _K})


def exact_size() -> sp.Expr:
    """The size of eq:etc_discrete_set for 1/eps an integer: C(1/eps + K - 1, K - 1) (stars and bars)."""
    return sp.binomial(1 / _eps + _K - 1, _K - 1)


@because("appendix_n_eps")
def check(claim: Claim) -> CheckResult:
    bound = _bound(claim.printed)
    f = sp.lambdify((_eps, _K), bound, "sympy")
    bad, plus_one, cases, slack = [], [], 0, False
    for K in range(2, K_MAX + 1):
        for n in range(1, N_MAX + 1):
            size = Grid(K, 1.0 / n, "etc").size
            b = sp.nsimplify(f(sp.Rational(1, n), K))
            cases += 1
            if size > b:
                bad.append((K, n, size, b))
            slack |= bool(size < b)
            if size > n ** (K - 1) + 1:
                plus_one.append((K, n, size))
    status = decide(holds=not bad, sharper=slack)
    scope = f"exact sizes for K = 2..{K_MAX}, 1/eps = 1..{N_MAX} ({cases} grids)"
    if not bad:
        return CheckResult(ID, f"The ETC grid has at most {claim.printed} points", str(claim.printed),
                           "C(1/eps + K - 1, K - 1)", status, "numeric",
                           scope + ("; the bound exceeds the size somewhere" if slack else "; the bound is the size"))
    ex = "; ".join(f"K={K}, eps=1/{n}: {s} > {b}" for K, n, s, b in bad[:4])
    ex3 = "; ".join(f"K={K}, eps=1/{n}: {s} > {n ** (K - 1) + 1}" for K, n, s in plus_one[:3])
    return CheckResult(
        ID, f"The ETC grid eq:etc_discrete_set has at most {claim.printed} points", str(claim.printed),
        "C(1/eps + K - 1, K - 1)", status, "numeric",
        f"{len(bad)} counterexamples among {scope}, e.g. {ex}"
        + (f"; even the (1/eps)^(K-1) + 1 of eq:E3C fails: {ex3}" if plus_one else
           "; (1/eps)^(K-1) + 1 of eq:E3C holds")
        + "; the union bound in eq:E2C-eq:E3C is off by this factor (it enters N(eps) only inside a log)",
    )


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status == "verified":
        half = f"({claim.printed})/2"
        return [claim.reprinted(half, f"at most {half} points")]
    return [claim.reprinted(exact_size(), "at most C(1/eps + K - 1, K - 1) points (the exact size)")]


CLAIMS = claim_map(Claim(ID, paper_claims.GRID_SIZE_BOUND, check, mutants))
