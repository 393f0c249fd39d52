"""The eps schedules a slope or a bound plot may use, checked with the math-only evaluator.

* ``experiments`` -- eps = sqrt(K log T / T) of ``sec: experiments`` (the default);
* ``theorem`` -- the eps-independent choice of ``theorem:RS-ETC-M`` /
  ``corollary:RS-UCB-M`` (needs the instance's q, r and beta:
  :func:`proofs_checks.bound_rates.theorem_eps_expr`);
* anything else -- a number in (0, 1] or an expression in T and K, read by
  :mod:`rsb_theory.expressions` (never evaluated as code).

Importable without SymPy: the command line checks ``--eps`` before anything
heavy is imported.
"""

from __future__ import annotations

from rsb_sim.options import EXPERIMENTS_EPS
from rsb_theory import expressions

__all__ = ["EXPERIMENTS_EPS", "EPS_RULES", "check_eps_rule"]
#: Named eps rules (anything else is a number or an expression in T and K).
EPS_RULES = ("experiments", "theorem")


def check_eps_rule(rule: str, K: int, Ts) -> None:
    """ValueError naming ``eps`` unless ``rule`` is a named rule or an expression in T and K in (0, 1] at every T."""
    if rule in EPS_RULES:
        return
    for T in Ts:
        expressions.parse_number(rule, "eps", {"T": T, "K": K}, low=0, high=1, low_open=True)
