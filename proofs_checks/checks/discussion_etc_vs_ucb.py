"""The Discussion after ``eq:UCB_alpha2``: "for Wang's right-tail deviation RS-ETC-M is better, whereas for Gini
deviation RS-UCB-M outperforms RS-ETC-M".

The eps-independent rates of ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M``
are compared by :func:`rsb_theory.rates.compare_etc_ucb` for every beta > 0
(beta is left open by ``table:table_risks`` for both rows): first by the power
of T, then by the power of log T (a larger power of log T is a worse bound).
q is derived from h (:func:`rsb_theory.holder.holder`) and r at a mixture
optimum (:func:`rsb_theory.holder.family_mixture_exponent`); the paper's
printed (q, r) of ``table:table_risks`` are compared too.
"""

from __future__ import annotations

import sympy as sp

from rsb_theory.distortions import get
from rsb_theory.holder import family_mixture_exponent, holder
from rsb_theory.rates import compare_etc_ucb

from functools import lru_cache

from .. import derived, paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide

LABEL = "eq:UCB_alpha2"
PARTS = tuple(f"discussion.{k}" for k in paper_claims.DISCUSSION_BETTER)
ALGORITHMS = ("RS-ETC-M", "RS-UCB-M")
_BETA = sp.Symbol("beta", positive=True)


@lru_cache(maxsize=None)
def _verdict(q, r) -> tuple[str, str]:
    """(better algorithm for every beta > 0 or 'tie', explanation)."""
    o = compare_etc_ucb(q, r, _BETA)
    diff = sp.simplify(o.T_decay_difference)
    if diff != 0:
        if diff.is_positive is None:  # sign not decided symbolically for all beta > 0
            return "depends on beta", f"T-decay difference ETC - UCB = {diff}"
        better = "RS-ETC-M" if diff.is_positive else "RS-UCB-M"
        return better, (f"T-decay ETC {o.etc_T_decay} vs UCB {o.ucb_T_decay} (difference {diff}, one sign for all "
                        f"beta > 0)")
    lp = sp.simplify(o.etc_log_power - o.ucb_log_power)
    if lp == 0:
        return "tie", f"same T-decay {o.etc_T_decay} and log power {o.etc_log_power}"
    if lp.is_positive is None:
        return "depends on beta", f"same T-decay {o.etc_T_decay}; log power difference ETC - UCB = {lp}"
    better = "RS-UCB-M" if lp.is_positive else "RS-ETC-M"
    return better, (f"same T-decay {o.etc_T_decay}; log T powers ETC {o.etc_log_power} vs UCB {o.ucb_log_power} "
                    f"(the larger power is the worse bound)")


@lru_cache(maxsize=None)
def _better(key: str) -> tuple[str, str, sp.Expr, sp.Expr, str, str, sp.Expr, sp.Expr]:
    """(derived better, why, q, r, better with the printed q and r, why, printed q, printed r) for row ``key``."""
    d = get(key)
    q = holder(d).q
    r, _ = family_mixture_exponent(d, solitary=False)
    better, why = _verdict(q, r)
    row = paper_claims.risk_row(key)
    pq, pr = derived.printed(row.q, {}), derived.printed(row.r, {})
    p_better, p_why = _verdict(pq, pr)
    return better, why, q, r, p_better, p_why, pq, pr


def check(claim: Claim) -> CheckResult:
    key, claimed = claim.printed
    better, why, q, r, p_better, p_why, pq, pr = _better(key)
    status = decide(holds=better == claimed,
                    repair="the printed q and r of table:table_risks" if p_better == claimed else None)
    only_log = "log T powers" in why
    ev = (f"derived q = {q}, r = {r} (mixture optimum): {why}; better: {better}. With the printed q = {pq}, "
          f"r = {pr}: {p_why}; better: {p_better}."
          + (" The advantage is only a power of log T." if only_log and better == claimed else ""))
    return CheckResult(claim.id, f"For {key} the better eps-independent regret bound is {claimed}'s "
                       "(Discussion after eq:UCB_alpha2)", claimed, better, status, "symbolic", ev)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    key, claimed = claim.printed
    other = next(a for a in ALGORITHMS if a != claimed)
    return [claim.reprinted((key, other), f"{other} is the better one for {key}")]


CLAIMS = claim_map(*(Claim(f"{LABEL}#{part}", (part.split(".", 1)[1], paper_claims.DISCUSSION_BETTER[part.split(".", 1)[1]]),
                           check, mutants) for part in PARTS))
