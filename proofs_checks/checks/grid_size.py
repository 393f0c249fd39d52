"""``eq:E2C``: "the total number of discrete a values may not exceed (1/eps)^(K-1)",
and the count (1/eps)^(K-1) + 1 that ``eq:E3C`` and N(eps) carry; checked
against the exact size C(m + K - 1, K - 1) of eq:etc_discrete_set."""

from __future__ import annotations

from rsb_theory.grids import Grid

from ..ledger import CheckResult

ID = "eq:E2C"


def check(K_max: int = 6, n_max: int = 60) -> CheckResult:
    bad_e2c, bad_e3c = [], []
    for K in range(2, K_max + 1):
        for n in range(1, n_max + 1):
            size = Grid(K, 1.0 / n, "etc").size
            if size > n ** (K - 1):
                bad_e2c.append((K, n, size))
            if size > n ** (K - 1) + 1:
                bad_e3c.append((K, n, size))
    if not bad_e2c:
        return CheckResult(ID, "The ETC grid has at most (1/eps)^(K-1) points", "(1/eps)^(K-1)",
                           "C(1/eps + K - 1, K - 1)", "verified", "numeric",
                           f"exact sizes for K = 2..{K_max}, 1/eps = 1..{n_max}")
    ex = "; ".join(f"K={K}, eps=1/{n}: {s} > {n}^{K - 1} = {n ** (K - 1)}" for K, n, s in bad_e2c[:4])
    ex3 = "; ".join(f"K={K}, eps=1/{n}: {s} > {n ** (K - 1) + 1}" for K, n, s in bad_e3c[:3])
    k2 = all(K == 2 for K, _, _ in bad_e2c) and not bad_e3c
    return CheckResult(
        ID, "The ETC grid eq:etc_discrete_set has at most (1/eps)^(K-1) points", "(1/eps)^(K-1)",
        "C(1/eps + K - 1, K - 1)", "refuted", "numeric",
        f"{len(bad_e2c)} counterexamples among K = 2..{K_max}, 1/eps = 1..{n_max}, e.g. {ex} (for K = 2 the grid has "
        f"1/eps + 1 points, always one more)"
        + ("" if k2 else f"; even the (1/eps)^(K-1) + 1 of eq:E3C fails: {ex3}")
        + "; the union bound in eq:E2C-eq:E3C is off by this factor (it enters N(eps) only inside a log)",
    )
