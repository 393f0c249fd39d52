"""The one rule that turns what a check found into a ledger status.

Every check reduces its claim to a few facts and asks this module for the
status; no check types a status in, and no check picks a status with its own
``if``.  The rule (``docs/theory.md``, "The decision rule").  Each entry is on
one of two *axes*: the **statement** of a result, a table cell or a claim of
the running text, or a step of a **proof** (a display of a proof, a constant
chained through one).  A proof step is judged in the proof's *context*: the
setting the proof works in and the quantities it fixes
(:mod:`proofs_checks.contexts`); a failure outside that context is reported as
a note beside the status, never as it.  In the order :func:`decide` applies it:

1. **vacuous** — the claim is a bound that is informative at none of the
   cases it is about (at least the trivial bound there, or outside its own
   side conditions): whatever else is true, nothing it says there can be
   contradicted or used;
2. **conditional** — the claim fails in some case its hypotheses (and, for a
   step, its proof's context) allow, but the check names a *repair*: a
   condition in the claim's own terms, not stated for this claim, with which
   the claim held in every case tried (its mutant adds it and must come out
   verified or loose), and which holds *wherever the paper uses the claim*
   (``repair_at_uses``) — a condition that excludes a place where the paper
   uses the claim is no repair;
3. **refuted** — it fails in such a case (a counterexample inside the setting
   and with the quantities the proof fixes) and no repair is known; also a
   printed value that is wrong (its correct value is the entry's ``derived``,
   not a condition).  A failure observed only where the claim cannot be tested
   (a rate measured at horizons where the theorem's bound is not informative)
   is no refutation: such a claim is ``vacuous``;
4. **gap** (proof steps only) — no counterexample in context, but the step does
   not follow from what the proof has established (``follows=False``): the
   evidence says what is missing and, where found, the repair that closes it;
5. **loose** — it holds, and a strictly stronger value is *proven* (exactly, or
   symbolically) in what the claim is about — an exponent (a larger one, with
   whatever constant it needs: the rates improve), a constant (smaller, with
   the same exponent, everywhere the claim is about) or the whole bound
   (smaller everywhere); the entry's ``loose_in`` says which.  A dense-grid
   supremum or a Monte Carlo estimate proves no better value;
6. **verified** — it holds and no better value is proven.

Claims that depend on an unknown (beta) are judged as functions of it over
the range they state (every beta > 0 when they state none): :func:`on_range`
— all of the range: rules 5-6; part of it: conditional with "beta in S";
none: refuted; a claim that needs the unknown to exist without saying so is
conditional on "beta exists".  Numerical estimates of the unknown never decide.

Comparisons of two bounds (:func:`compare_bounds`) honour each theorem's side
conditions: each side's rate is used only where its hypotheses hold, and
elsewhere the rate its proof gives without them; the claimed winner must be
strictly better (a faster power of T, then a smaller power of log T) at every
value of the unknown, and the evidence says for which values each side wins.

What an entry changes (:func:`impact`): a false statement, a wrong rate, a
wrong constant, the proof only, an evident typo whose corrected form holds, or
nothing.

The helpers: a printed value against a derived one (:func:`compare`), the same
over a range of an unknown (:func:`compare_on`), a printed rate against a
derived rate over a range (:func:`compare_rates_on`), two bounds
(:func:`compare_bounds`), and a sweep over cases (:func:`worst`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from .statuses import ABOUT, BROKEN, LOOSE_IN, SEVERITY, STATUSES, Status, decide, impact, worst  # noqa: F401 (the rule's one place)
from rsb_theory.errors import ArgumentError, ArgumentTypeError

#: What "a stronger printed value" means: larger exponents, smaller constants, or equality only.
SENSES = ("larger", "smaller", "equal")
#: Relative tolerance when a printed or derived value is a float (grid suprema, quadrature).
REL_TOL = 1e-9


def _exact(x) -> bool:
    return isinstance(x, sp.Basic) and x.is_number and not x.atoms(sp.Float)


def _difference(printed, derived) -> float | sp.Expr:
    """printed - derived: exact when both are exact numbers, a float otherwise (0.0 within :data:`REL_TOL`)."""
    if isinstance(printed, str) or isinstance(derived, str):
        raise ArgumentTypeError("printed" if isinstance(printed, str) else "derived",
                                "compare: values must be numbers or SymPy expressions, not text (parse printed text first)")
    p, d = sp.sympify(printed), sp.sympify(derived)
    if _exact(p) and _exact(d):
        return sp.nsimplify(sp.simplify(p - d))
    pf, df = float(p), float(d)
    diff = pf - df
    return 0.0 if abs(diff) <= REL_TOL * max(1.0, abs(pf), abs(df)) else diff


def compare(printed, derived, sense: str, comparable: bool = True) -> str:
    """A printed value against the derived one.

    ``sense``: ``"larger"`` (exponents: a printed value below the derived one
    still holds, loosely; above it, it is false), ``"smaller"`` (constants and
    upper bounds: the mirror image), ``"equal"`` (a defined quantity: any
    difference is false).  ``comparable=False``: the printed value is not of
    the derived value's form (another argument of varpi, an identity that does
    not expand to 0, no derived value at all), so it is false as printed.

    Returns
    -------
    str
        ``verified``, ``loose`` or ``refuted`` (by :func:`decide`).
    """
    if sense not in SENSES:
        raise ArgumentError("sense", f"{sense!r} is not one of {SENSES}")
    if not comparable:
        return decide(holds=False)
    diff = _difference(printed, derived)
    if diff == 0:
        return decide(holds=True)
    if sense == "equal":
        return decide(holds=False)
    weaker = bool(diff < 0) if sense == "larger" else bool(diff > 0)
    return decide(holds=weaker, sharper=weaker)


@dataclass(frozen=True)
class RangeVerdict:
    """The verdict on a claim that depends on an unknown ``x`` (:func:`on_range`).

    Attributes
    ----------
    status : str
    holds_on : sympy.Set
        Where in the range the printed claim holds.
    repair : str or None
        The condition "x in holds_on" when it holds on part of the range only (or "x exists").
    """

    status: str
    holds_on: sp.Set
    repair: str | None


def on_range(holds_on: sp.Set, domain: sp.Set, x: sp.Symbol, *, unstated: bool = False,
             sharper: bool = False) -> RangeVerdict:
    """The rule for a claim that depends on an unknown ``x`` ranging over ``domain``.

    ``holds_on``: where in ``domain`` the claim holds.  All of ``domain``:
    ``verified`` (``loose`` when ``sharper``: a strictly better value is proven
    somewhere in the range); part of it: ``conditional``, the repair being
    "x in <that part>"; nowhere: ``refuted``.  ``unstated``: the claim needs x
    to exist (a limit such as beta) and does not say so, so even a claim
    holding on all of ``domain`` is ``conditional`` on "x exists".
    """
    holds_on = sp.Intersection(holds_on, domain)
    if holds_on == sp.EmptySet:
        return RangeVerdict(decide(holds=False), holds_on, None)
    if holds_on != domain:
        repair = f"{x} in {fmt_set(holds_on)}"
        return RangeVerdict(decide(holds=False, repair=repair), holds_on, repair)
    if unstated:
        return RangeVerdict(decide(holds=False, repair=f"{x} exists"), holds_on, f"{x} exists")
    return RangeVerdict(decide(holds=True, sharper=sharper), holds_on, None)


def compare_on(printed: sp.Expr, derived: sp.Expr, x: sp.Symbol, domain: sp.Set, sense: str = "larger",
               unstated: bool = False, comparable: bool = True) -> RangeVerdict:
    """A printed value against the derived one, both functions of an unknown ``x`` ranging over ``domain``.

    The printed value holds at x when it is no stronger than the derived one
    there (:func:`compare`'s ``sense``); :func:`on_range` turns the set where
    it holds into the status (``sharper``: the derived one is strictly better
    somewhere).  ``comparable=False``: the printed value is not of the derived
    one's form, so it holds nowhere.

    Returns
    -------
    RangeVerdict
    """
    if sense not in ("larger", "smaller"):
        raise ArgumentError("sense", f"{sense!r} is not 'larger' or 'smaller'")
    if not comparable:
        return on_range(sp.EmptySet, domain, x)
    gap = (derived - printed) if sense == "larger" else (printed - derived)
    gap = sp.piecewise_fold(sp.simplify(gap).rewrite(sp.Piecewise))
    holds_on = sp.solveset(gap >= 0, x, domain)
    sharper = sp.solveset(gap > 0, x, domain) != sp.EmptySet
    return on_range(holds_on, domain, x, unstated=unstated, sharper=sharper)


@dataclass(frozen=True)
class Rate:
    """A rate T^-decay (log T)^log_power as T -> oo, on the part ``where`` of an unknown's range.

    Attributes
    ----------
    decay, log_power : sympy.Expr
        Functions of the unknown.
    where : sympy.Set
        Where this rate is the bound (a theorem's side condition holds there); all of the range by default.
    source : str
        Which statement gives it (for the evidence).
    """

    decay: sp.Expr
    log_power: sp.Expr
    where: sp.Set = sp.S.Reals
    source: str = ""


@lru_cache(maxsize=None)
def _split(a: Rate, b: Rate, x: sp.Symbol, region: sp.Set) -> tuple[sp.Set, sp.Set, sp.Set]:
    """(a strictly better, b strictly better, tie) on ``region``: a faster power of T first, then a smaller power
    of log T."""
    d = sp.simplify(a.decay - b.decay)
    a_T, b_T = sp.solveset(d > 0, x, region), sp.solveset(d < 0, x, region)
    same_T = sp.Complement(region, sp.Union(a_T, b_T))
    lg = sp.simplify(b.log_power - a.log_power)
    a_log, b_log = sp.solveset(lg > 0, x, same_T), sp.solveset(lg < 0, x, same_T)
    tie = sp.Complement(same_T, sp.Union(a_log, b_log))
    return sp.Union(a_T, a_log), sp.Union(b_T, b_log), tie


def _pieces(rates: tuple[Rate, ...], domain: sp.Set) -> list[tuple[Rate, sp.Set]]:
    out = [(r, sp.Intersection(r.where, domain)) for r in rates]
    covered = sp.Union(*[s for _r, s in out]) if out else sp.EmptySet
    if sp.Complement(domain, covered) != sp.EmptySet:
        raise ArgumentError("rates", f"the pieces do not cover {fmt_set(domain)}")
    return [(r, s) for r, s in out if s != sp.EmptySet]


def compare_rates_on(printed: Rate, derived: tuple[Rate, ...] | Rate, x: sp.Symbol, domain: sp.Set,
                     unstated: bool = False, comparable: bool = True) -> RangeVerdict:
    """A printed rate (an upper bound's order in T) against the derived one, over an unknown ``x``.

    The printed rate holds at x when it is not faster than the derived bound
    there: a smaller power of T, or the same power and at least the same power
    of log T.  ``derived``: one rate, or pieces (:class:`Rate` ``where``)
    covering ``domain`` — a theorem's rate where its side condition holds and
    what its proof gives elsewhere.  Judged by :func:`on_range` (``sharper``:
    the derived rate is strictly faster somewhere).  ``comparable=False``: the printed rate is not of the derived
    one's form (another argument), so it holds nowhere.
    """
    if not comparable:
        return on_range(sp.EmptySet, domain, x)
    pieces = _pieces(derived if isinstance(derived, tuple) else (derived,), domain)
    holds, faster = [], []
    for rate, region in pieces:
        d_wins, p_wins, tie = _split(rate, printed, x, region)
        holds.append(sp.Union(d_wins, tie))
        faster.append(d_wins)
    return on_range(sp.Union(*holds), domain, x, unstated=unstated,
                    sharper=sp.Union(*faster) != sp.EmptySet)


@dataclass(frozen=True)
class BoundComparison:
    """:func:`compare_bounds`' answer: the status of "``claimed`` is the better bound" and where each side wins.

    Attributes
    ----------
    status : str
    claimed_wins, other_wins, ties : sympy.Set
        Subsets of the range of the unknown.
    repair : str or None
    evidence : str
        For which values of the unknown each side wins, and by which rates.
    """

    status: str
    claimed_wins: sp.Set
    other_wins: sp.Set
    ties: sp.Set
    repair: str | None
    evidence: str


def compare_bounds(claimed: tuple[str, tuple[Rate, ...]], other: tuple[str, tuple[Rate, ...]], x: sp.Symbol,
                   domain: sp.Set) -> BoundComparison:
    """"``claimed`` has the better bound than ``other``", both rates functions of an unknown ``x`` over ``domain``.

    Each side is ``(name, pieces)``: its theorem's rate where the theorem's
    side conditions hold, and elsewhere the rate its proof gives without them
    (a side with no bound somewhere cannot win there).  At each x the faster
    power of T wins, then the smaller power of log T; a tie is not "better".
    The claim holds where ``claimed`` wins (:func:`on_range`): everywhere ->
    verified, nowhere -> refuted, on part -> conditional on "x in <part>".  A
    hypothesis both sides share (beta exists) is not a condition of the
    comparison.
    """
    (a_name, a_rates), (b_name, b_rates) = claimed, other
    a_pieces, b_pieces = _pieces(a_rates, domain), _pieces(b_rates, domain)
    wins, loses, ties, lines = [], [], [], []
    for ra, sa in a_pieces:
        for rb, sb in b_pieces:
            region = sp.Intersection(sa, sb)
            if region == sp.EmptySet:
                continue
            w, l_, t = _split(ra, rb, x, region)
            wins.append(w)
            loses.append(l_)
            ties.append(t)
            lines.append(f"{x} in {fmt_set(region)}: {a_name} T^-({ra.decay}) (log T)^({ra.log_power})"
                         f"{' [' + ra.source + ']' if ra.source else ''} vs {b_name} T^-({rb.decay}) "
                         f"(log T)^({rb.log_power}){' [' + rb.source + ']' if rb.source else ''}")
    a_set, b_set, t_set = sp.Union(*wins), sp.Union(*loses), sp.Union(*ties)
    rv = on_range(a_set, domain, x)
    ev = ("; ".join(lines) + f". {a_name} is better for {x} in {fmt_set(a_set) if a_set != sp.EmptySet else 'no value'}"
          f", {b_name} for {x} in {fmt_set(b_set) if b_set != sp.EmptySet else 'no value'}"
          + (f", tie at {x} in {fmt_set(t_set)}" if t_set != sp.EmptySet else ""))
    return BoundComparison(rv.status, a_set, b_set, t_set, rv.repair, ev)


def fmt_set(s: sp.Set) -> str:
    """A set of reals as a reader writes it: ``[3/2, oo)``, ``(0, 1)``, ``{1/2}``, unions with ``U``."""
    if isinstance(s, sp.Interval):
        return f"{'(' if s.left_open else '['}{s.start}, {s.end}{')' if s.right_open else ']'}"
    if isinstance(s, sp.Union):
        return " U ".join(fmt_set(a) for a in s.args)
    if isinstance(s, sp.FiniteSet):
        return "{" + ", ".join(str(a) for a in sorted(s, key=lambda v: float(v) if v.is_number else 0)) + "}"
    return str(s)
