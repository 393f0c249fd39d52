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

import ast

from rsb_sim.options import EXPERIMENTS_EPS
from rsb_theory import expressions

__all__ = ["EXPERIMENTS_EPS", "EPS_RULES", "check_eps_rule"]
#: Named eps rules (anything else is a number or an expression in T and K).
EPS_RULES = ("experiments", "theorem")


def check_eps_rule(rule: str, K: int, Ts) -> None:
    """ValueError naming ``eps`` unless ``rule`` is a named rule or an expression in T and K in (0, 1] at every T
    whose dependence on T is a power law (:func:`power_law`)."""
    if rule in EPS_RULES:
        return
    for T in Ts:
        expressions.parse_number(rule, "eps", {"T": T, "K": K}, low=0, high=1, low_open=True)
    if not power_law(expressions.check(rule, "eps", ("T", "K"))):
        raise expressions.ExpressionError(
            "eps", f"{rule!r} is not a power law in T: the derived slope reads eps ~ T^-a (log T)^b, so T "
            f"may appear only in sums, products, quotients, powers with exponents free of T, sqrt and log")


#: The functions a power law in T may apply to an expression in T (their limits in T are read in closed form).
_POWER_LAW_CALLS = ("log", "sqrt")


def _has_T(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and n.id == "T" for n in ast.walk(node))


def power_law(node: ast.AST) -> bool:
    """True when T appears in ``node`` (a tree of :func:`rsb_theory.expressions.check`) only in sums, products,
    quotients, powers whose exponent is free of T, ``sqrt`` and ``log``: the form whose exponents
    (eps ~ T^-a (log T)^b) SymPy's limit reads.  ``sin(1e9*T)`` or ``exp(-T)`` has no such limit, and the limit
    ran for minutes; such a schedule is refused before any run."""
    if not _has_T(node) or isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.UnaryOp):
        return power_law(node.operand)
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Pow):
            return power_law(node.left) and not _has_T(node.right)
        return isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)) and power_law(node.left) \
            and power_law(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _POWER_LAW_CALLS:
        return all(power_law(a) for a in node.args)
    return False
