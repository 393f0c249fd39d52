"""This work's rows of ``table:literature_comparison`` (RS-ETC-M, RS-UCB-M).

Both are general formulas in (q, r, kappa); they are checked as symbolic
identities against the theorems' rates re-derived in ``rsb_theory.rates``.
"""

from __future__ import annotations

import sympy as sp

from rsb_theory import rates

from .. import paper_claims
from ..ledger import CheckResult

COLUMNS = ("rs_etc_m", "rs_ucb_m")


def check(column: str) -> CheckResult:
    """The ledger entry ``table:literature_comparison#column``."""
    printed = paper_claims.LITERATURE_THIS_WORK[column]
    exp, arg = rates.parse_varpi(printed)
    q, r, beta = rates.q, rates.r, rates.beta
    if column == "rs_etc_m":
        tr = rates.table_rates(q, r, beta, solitary=True)
        got, got_arg = tr.etc_exponent, tr.etc_argument
        why = ("theorem: ETC upper bound with a solitary optimum (table footnote): Delta(eps) = 0 on "
               "eq:etc_discrete_set, M(eps) = O(1), so the regret is (log T/T)^q = varpi^(2q)")
        claim = "RS-ETC-M regret is O(varpi^(2q)) for sub-Gaussian arms when a solitary arm is optimal"
    else:
        got, got_arg = rates.table_rates(q, r, beta, solitary=False).ucb_exponent, "T"
        why = ("corollary:RS-UCB-M: K^(c_U) (log T/T)^(r kappa) = varpi^(2 r kappa), valid when beta exists and "
               "r <= beta + q/2")
        claim = "RS-UCB-M regret is O(varpi^(2 r kappa)) for sub-Gaussian arms"
    cmp = rates.same_rate(exp, got, q, r, beta)
    ok = bool(cmp) and arg == got_arg
    return CheckResult(f"table:literature_comparison#{column}", claim, printed, rates.format_varpi(got, got_arg),
                       "verified" if ok else "refuted", "symbolic",
                       f"{why}; printed minus derived exponent = {sp.simplify(cmp.difference)}")
