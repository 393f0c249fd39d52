"""The gap exponent beta of ``eq:discrete_gap`` for Bernoulli instances.

beta = lim_{eps -> 0} log Delta_min(eps) / log eps (definition before
``theorem:RS-ETC-M``).  Two routes:

* analytic, :func:`beta_monotone`: ``lemma:beta_lemma_monotone`` gives
  beta = 1 for a concave, strictly increasing h; its proof also needs distinct
  means and h'(max p) > 0 (step ``eq:delta_min_conc_mon_analysis``), which is
  checked here rather than assumed;
* numeric, :func:`estimate_beta`: Delta_min(eps) by brute-force enumeration of
  the grid along eps = 1/n, with every local log-log slope kept, so that a
  limit that does not exist shows up as a wide spread instead of being
  averaged away.  Grid points whose values tie with the optimum (within
  :data:`rsb_theory.argmax.rule.TIE_TOL`) form the optimal set; the literal ``a != a*`` reading of
  ``eq:discrete_gap`` is 0 whenever that set has several points, which is
  counted separately.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from .budgets import shape_budget
from .discretization import check_p, enumerate_optimum, fast_optimum
from .distortions import U, Distortion, _pieces, _sign_on_unit_interval_on, exact_number
from .errors import ArgumentError


#: Width of the range of local slopes accepted as agreeing (a limit), :func:`estimate_beta`'s default ``tol``.
SLOPE_TOL = 0.15


@dataclass(frozen=True)
class GapPoint:
    """Delta_min at one eps: gap to the best value outside the optimal set."""

    eps: float
    delta_min: float
    n_optimal: int
    grid_size: int


@dataclass(frozen=True)
class BetaEstimate:
    """Numeric beta from Delta_min(eps) along a sequence of eps.

    Attributes
    ----------
    beta_fit : float
        Least-squares slope of log Delta_min against log eps (positive gaps only).
    slope_min, slope_max : float
        Range of the local slopes over the finer half of the sequence.
    converged : bool
        True when that range is narrower than ``tol``: the limit plausibly exists.
    n_ties : int
        Number of eps with several optimal grid points (literal Delta_min = 0).
    points : tuple of GapPoint
    """

    beta_fit: float
    slope_min: float
    slope_max: float
    converged: bool
    n_ties: int
    points: tuple[GapPoint, ...]
    grid: str

    def reading(self, tol: float = SLOPE_TOL) -> tuple[float | None, str]:
        """(beta or None, why) as ``rsb derive`` reports it: beta whenever the local slopes agree.

        Eps with several optimal grid points are left out of the slopes (there the literal
        ``a != a*`` reading of ``eq:discrete_gap`` gives Delta_min = 0), which does not stop the
        slopes of the other eps from agreeing; :attr:`converged` (no tie at all) is the stricter
        reading the ledger uses.  Ties are named as what they are: for Bernoulli arms
        V(alpha) = h(<alpha, p>), so grid points with the same mean, or with means at which h takes
        the same value (h symmetric about p*, a flat top), are all optimal.
        """
        n, untied = len(self.points), len(self.points) - self.n_ties
        ties = (f"{self.n_ties} of {n} eps have several optimal grid points (equal V: for Bernoulli arms V depends "
                f"on alpha only through <alpha, p>, so points with equal means, or means where h takes equal "
                f"values, tie); those eps are left out")
        if untied < 3 or not np.isfinite(self.slope_min):
            return None, (f"no beta: {ties}, and fewer than 3 eps remain. The optimum of eq:discrete optimal "
                          f"mixture is a set at (nearly) every eps, so the literal Delta_min of eq:discrete_gap "
                          f"is 0 and no limit of log Delta_min / log eps is read off")
        spread = f"local slopes (finer half of the {untied} eps with one optimal point) in " \
                 f"[{self.slope_min:.3f}, {self.slope_max:.3f}]"
        if self.slope_max - self.slope_min < tol:
            beta = round((self.slope_min + self.slope_max) / 2, 3)
            return beta, f"beta ~ {beta:.3f}: {spread} agree" + (f"; {ties}" if self.n_ties else "") + \
                f"; the fitted slope {self.beta_fit:.3f} includes the coarse eps"
        return None, f"no limit: {spread} do not settle (width >= {tol:g})" + (f"; {ties}" if self.n_ties else "")

    def evidence(self) -> str:
        eps = [p.eps for p in self.points]
        if self.converged:
            verdict = "limit plausible"
        elif self.n_ties and self.slope_max - self.slope_min < SLOPE_TOL:  # they agree; the ties are why
            verdict = ("local slopes agree; the limit is not claimed here because at the tied eps the literal "
                       "a != a* reading of eq:discrete_gap gives Delta_min = 0 (rsb derive reports beta from the "
                       "agreeing slopes)")
        elif len(self.points) - self.n_ties < 3:
            verdict = "no limit: the optimum is a set at (nearly) every eps (tied optima)"
        else:
            verdict = "no limit: local slopes do not settle"
        return (
            f"Delta_min(eps) on the {self.grid} grid for eps in [{min(eps):.3g}, {max(eps):.3g}] "
            f"({len(eps)} values): fitted slope {self.beta_fit:.3f}, local slopes (finer half) in "
            f"[{self.slope_min:.3f}, {self.slope_max:.3f}], {self.n_ties} eps with tied optima; {verdict}"
        )


@dataclass(frozen=True)
class AnalyticBeta:
    """Outcome of ``lemma:beta_lemma_monotone`` on an instance."""

    applies: bool
    beta: sp.Expr | None
    reason: str


def delta_min(d: Distortion, p, eps: float, grid: str = "ucb", method: str = "auto") -> GapPoint:
    """Delta_min(eps) of ``eq:discrete_gap`` (Bernoulli arms).

    ``method="enumerate"`` evaluates every grid point
    (:func:`rsb_theory.discretization.enumerate_optimum`); ``"bnb"`` uses the
    exact branch and bound of :mod:`rsb_theory.argmax` (concave h, no
    enumeration: :func:`rsb_theory.discretization.fast_optimum`); ``"auto"``
    takes bnb for concave h.  Both give the same gap (tests).
    """
    if method not in ("auto", "enumerate", "bnb"):
        raise ArgumentError("method", f"expected auto, enumerate or bnb, got {method!r}")
    if method == "auto":
        method = "bnb" if d.shape.is_concave else "enumerate"
    opt = fast_optimum(d, p, eps, grid) if method == "bnb" else enumerate_optimum(d, p, eps, grid)
    return GapPoint(float(eps), opt.Delta_min, opt.n_optimal, opt.grid_size)


def estimate_beta(
    d: Distortion,
    p,
    grid: str = "ucb",
    n_values=None,
    tol: float = SLOPE_TOL,
) -> BetaEstimate:
    """Numeric beta along eps = 1/n (see module docstring).

    Parameters
    ----------
    d : Distortion
    p : sequence of float
        Bernoulli means.
    grid : {"ucb", "etc"}
    n_values : sequence of int, optional
        The n of eps = 1/n; default 40 values from 8 to 400 (K = 2) or from
        8 to 120 (K >= 3), geometric and integer.
    tol : float
        Width of the local-slope range accepted as a limit.
    """
    p = check_p(p)
    if n_values is None:
        top = 400 if p.size == 2 else (120 if p.size == 3 else 40)
        n_values = np.unique(np.round(np.geomspace(8, top, 40)).astype(int))
    pts = tuple(delta_min(d, p, 1.0 / n, grid) for n in n_values)
    ok = [pt for pt in pts if pt.n_optimal == 1 and 0 < pt.delta_min < np.inf]
    n_ties = sum(pt.n_optimal > 1 for pt in pts)
    if len(ok) < 3:
        return BetaEstimate(float("nan"), float("nan"), float("nan"), False, n_ties, pts, grid)
    le = np.log([pt.eps for pt in ok])
    ld = np.log([pt.delta_min for pt in ok])
    fit = float(np.polyfit(le, ld, 1)[0])
    local = np.diff(ld) / np.diff(le)
    fine = local[len(local) // 2:]
    lo, hi = float(fine.min()), float(fine.max())
    converged = (hi - lo) < tol and n_ties == 0
    return BetaEstimate(fit, lo, hi, converged, n_ties, pts, grid)


def beta_monotone(d: Distortion, p) -> AnalyticBeta:
    """``lemma:beta_lemma_monotone``: beta = 1 when its premises hold at ``p``.

    Premises checked: h concave on [0, 1] (derived shape) and strictly
    increasing on the hull [min p, max p] (all the proof uses; this is the
    condition of the CVaR footnote of ``table:table_risks``), the largest mean unique, and the left derivative h'(max p) > 0,
    which the lemma's last step ``eq:delta_min_conc_mon_analysis`` uses
    (Delta_min >= h'(p_K)(p_K - p_{K-1}) eps).
    """
    p = [exact_number(x) for x in check_p(p)]
    if not d.shape.is_concave:
        return AnalyticBeta(False, None, f"h is {d.shape.curvature}, not concave")
    lo, hi = min(p), max(p)
    why = shape_budget(_pieces(d.expr), U)
    if why is not None:  # the signs of h' by solveset: beyond the work budget (the numeric estimate of beta applies)
        return AnalyticBeta(False, None, f"the premises are not decided symbolically: {why}")
    for piece, iv in _pieces(d.expr):
        a, b = sp.Max(iv.start, lo), sp.Min(iv.end, hi)
        if a < b and _sign_on_unit_interval_on(sp.diff(piece, U), sp.Interval(a, b)) != "+":
            return AnalyticBeta(False, None, f"h is not strictly increasing on [{lo}, {hi}] (piece {piece} on [{a}, {b}])")
    top = max(p)
    if sum(1 for x in p if x == top) > 1:
        return AnalyticBeta(False, None, f"the largest mean {top} is shared by several arms")
    piece = next(e for e, iv in _pieces(d.expr) if iv.start < top <= iv.end)
    slope = sp.limit(sp.diff(piece, U), U, top, "-")
    if not bool(slope > 0):
        return AnalyticBeta(False, None, f"h'({top}-) = {slope}: the lower bound of eq:delta_min_conc_mon_analysis is 0")
    return AnalyticBeta(True, sp.Integer(1),
                        f"h concave, strictly increasing, unique max mean {top}, h'({top}-) = {sp.simplify(slope)} > 0")
