"""The one rule that turns what a check found into a ledger status.

Every check reduces its claim to a few facts and asks this module for the
status; no check types a status in.  The rule (``docs/theory.md``, "The
decision rule"):

1. a claim that fails in some case its own hypotheses allow is ``refuted``,
   unless the check names an unstated condition under which it holds: then it
   is ``conditional`` (the evidence names the condition);
2. a claim that holds is ``vacuous`` when it is a bound that is at least the
   trivial bound at every horizon the paper uses;
3. otherwise it is ``loose`` when a strictly better value is proven (the better
   value is the entry's ``derived``), and ``verified`` when not.

The common shapes of claims have helpers: a printed value against a derived
one (:func:`compare`: an exponent, where larger is stronger; a constant, where
smaller is stronger; a defined quantity, which must be equal), the same over a
range of an unknown parameter (:func:`compare_on`), and a sweep over cases
(:func:`worst`).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

#: How bad a status is when several cases are combined (:func:`worst`).
SEVERITY = {"verified": 0, "loose": 1, "vacuous": 2, "conditional": 3, "refuted": 4}
#: What "a stronger printed value" means: larger exponents, smaller constants, or equality only.
SENSES = ("larger", "smaller", "equal")
#: Relative tolerance when a printed or derived value is a float (grid suprema, quadrature).
REL_TOL = 1e-9


def decide(*, holds: bool, repair: str | None = None, vacuous: bool = False, sharper: bool = False) -> str:
    """The status of a claim from what its check found.

    Parameters
    ----------
    holds : bool
        The claim holds in every case its hypotheses (as printed, plus any the
        claim states) allow.
    repair : str or None
        When it does not hold: an unstated condition under which it does.
    vacuous : bool
        A bound that is at least the trivial bound at every horizon the paper uses.
    sharper : bool
        A strictly better value is proven.

    Returns
    -------
    str
        One of ``verified, loose, vacuous, conditional, refuted``.
    """
    if not holds:
        return "conditional" if repair else "refuted"
    if vacuous:
        return "vacuous"
    return "loose" if sharper else "verified"


def worst(*statuses: str) -> str:
    """The worst of several statuses (:data:`SEVERITY`); ``verified`` for none."""
    return max(statuses, key=SEVERITY.__getitem__, default="verified")


def _exact(x) -> bool:
    return isinstance(x, sp.Basic) and x.is_number and not x.atoms(sp.Float)


def _difference(printed, derived) -> float | sp.Expr:
    """printed - derived: exact when both are exact numbers, a float otherwise (0.0 within :data:`REL_TOL`)."""
    if isinstance(printed, str) or isinstance(derived, str):
        raise TypeError("compare: values must be numbers or SymPy expressions, not text (parse printed text first)")
    p, d = sp.sympify(printed), sp.sympify(derived)
    if _exact(p) and _exact(d):
        return sp.nsimplify(sp.simplify(p - d))
    pf, df = float(p), float(d)
    diff = pf - df
    return 0.0 if abs(diff) <= REL_TOL * max(1.0, abs(pf), abs(df)) else diff


def compare(printed, derived, sense: str) -> str:
    """A printed value against the derived one.

    ``sense``: ``"larger"`` (exponents: a printed value below the derived one
    still holds, loosely; above it, it is false), ``"smaller"`` (constants and
    upper bounds: the mirror image), ``"equal"`` (a defined quantity: any
    difference is false).

    Returns
    -------
    str
        ``verified``, ``loose`` or ``refuted`` (by :func:`decide`).
    """
    if sense not in SENSES:
        raise ValueError(f"argument 'sense': {sense!r} is not one of {SENSES}")
    diff = _difference(printed, derived)
    if diff == 0:
        return decide(holds=True)
    if sense == "equal":
        return decide(holds=False)
    weaker = bool(diff < 0) if sense == "larger" else bool(diff > 0)
    return decide(holds=weaker, sharper=weaker)


@dataclass(frozen=True)
class RangeVerdict:
    """:func:`compare_on`'s answer.

    Attributes
    ----------
    status : str
    holds_on : sympy.Set
        Where in the range the printed value holds.
    repair : str or None
        The condition "x in holds_on" when it holds on part of the range only.
    """

    status: str
    holds_on: sp.Set
    repair: str | None


def compare_on(printed: sp.Expr, derived: sp.Expr, x: sp.Symbol, domain: sp.Set, sense: str = "larger",
               unstated: bool = False) -> RangeVerdict:
    """A printed value against the derived one, both functions of an unknown ``x`` ranging over ``domain``.

    The printed value holds at x when it is no stronger than the derived one
    there (:func:`compare`'s ``sense``).  On all of ``domain``: ``verified``
    when the two are identical, ``loose`` when the derived one is strictly
    better somewhere.  On part of it: ``conditional``, the repair being
    "x in <that part>".  Nowhere: ``refuted``.  ``unstated``: the existence of
    x itself is a condition the paper does not state, so even a claim holding
    on all of ``domain`` is ``conditional``.

    Returns
    -------
    RangeVerdict
    """
    if sense not in ("larger", "smaller"):
        raise ValueError(f"argument 'sense': {sense!r} is not 'larger' or 'smaller'")
    gap = (derived - printed) if sense == "larger" else (printed - derived)
    gap = sp.piecewise_fold(sp.simplify(gap).rewrite(sp.Piecewise))
    holds_on = sp.solveset(gap >= 0, x, domain)
    if holds_on == sp.EmptySet:
        return RangeVerdict(decide(holds=False), holds_on, None)
    if holds_on != domain:
        repair = f"{x} in {fmt_set(holds_on)}"
        return RangeVerdict(decide(holds=False, repair=repair), holds_on, repair)
    if unstated:
        return RangeVerdict(decide(holds=False, repair=f"{x} exists"), holds_on, f"{x} exists")
    sharper = sp.solveset(gap > 0, x, domain) != sp.EmptySet
    return RangeVerdict(decide(holds=True, sharper=sharper), holds_on, None)


def fmt_set(s: sp.Set) -> str:
    """A set of reals as a reader writes it: ``[3/2, oo)``, ``(0, 1)``, ``{1/2}``, unions with ``U``."""
    if isinstance(s, sp.Interval):
        return f"{'(' if s.left_open else '['}{s.start}, {s.end}{')' if s.right_open else ']'}"
    if isinstance(s, sp.Union):
        return " U ".join(fmt_set(a) for a in s.args)
    if isinstance(s, sp.FiniteSet):
        return "{" + ", ".join(str(a) for a in sorted(s, key=float)) + "}"
    return str(s)
