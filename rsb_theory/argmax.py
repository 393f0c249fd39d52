"""Exact, batched discrete argmax of the algorithms' objectives.

The three objectives (Bernoulli arms, estimates ``phat`` of shape (B, K))
----------------------------------------------------------------------------
* :func:`etc_objective` -- ``eq:ETC_alpha``: V(a) = U_h(sum_i a_i Bern(phat_i))
  = h(<a, phat>) (``eq:h_1_p``: a mixture of Bernoulli laws is Bern(<a, p>)).
* :func:`rs_ucb_objective` -- ``eq:UCB_alpha`` with the balls of
  ``eq:UCB_confidence_sets``: g(a) = max_{x in [<a, lo>, <a, hi>]} h(x) with
  lo = clip(phat - radius, 0, 1), hi = clip(phat + radius, 0, 1) (proof below).
* :func:`ce_ucb_objective` -- ``eq:UCB_alpha2``:
  h(<a, phat>) + L * sum_i (a_i radius_i)^q.

The RS-UCB reduction (concave h)
--------------------------------
Claim: for concave h and Bernoulli estimates, with C_i the W1 ball of radius
r_i around Bern(phat_i) among laws on [0, 1],

    max_{eta_i in C_i} U_h(sum_i a_i eta_i) = max_{x in [<a, lo>, <a, hi>]} h(x).

(<=) Let G = sum_i a_i eta_i, a law on [0, 1] with survival function S_G.
``eq:wang_def`` on [0, 1] reads U_h(G) = int_0^1 h(S_G(x)) dx, and Jensen's
inequality for the concave h and the uniform measure on [0, 1] gives
U_h(G) <= h(int_0^1 S_G(x) dx) = h(mean G).  The mean is 1-Lipschitz for W1,
so mean(eta_i) lies in [phat_i - r_i, phat_i + r_i] and in [0, 1] (eta_i lives
on [0, 1]), i.e. in [lo_i, hi_i]; hence mean G = sum_i a_i mean(eta_i) lies in
[<a, lo>, <a, hi>] and U_h(G) <= max of h over that interval.
(>=) For x = <a, m> with m_i in [lo_i, hi_i], take eta_i = Bern(m_i): the W1
distance between Bernoulli laws is |m_i - phat_i| <= r_i, so eta_i is in C_i,
and sum_i a_i Bern(m_i) = Bern(<a, m>) has U_h = h(<a, m>) = h(x).  Every x of
the interval is such a combination (the map m -> <a, m> is onto it).
For concave h the maximum of h over [u, v] is h(clip(x*, u, v)) for any
maximiser x* of h on [0, 1] (h is non-decreasing left of x* and
non-increasing right of it); this is how the value is computed.  Tests check
both directions numerically (random finite-support laws in the balls never
beat it; the Bernoulli witness attains it).

The tie rule (binding; :func:`argmax` and the enumeration agree on it)
-----------------------------------------------------------------------
With M the maximum of the computed objective over the grid and
O = {a : v(a) >= M - tol}: a ``previous`` choice with v(previous) >= M - tol is
kept (section ``RS_UCB_M``, "tracking a single mixture"); otherwise the first
point of O in lexicographic order of (n_1, ..., n_{K-1}) is taken (the order of
:meth:`rsb_theory.grids.Grid.counts`).

Values are computed by one canonical routine (fixed order of the floating-point
operations: a_i = eps (n_i + offset), running sums over i = 1..K-1 left to
right, a_K = 1 - sum, then the last arm), so the enumeration and the fast path
see bit-identical values at every grid point.

The fast exact path (``method="bnb"``)
--------------------------------------
All three objectives are concave in the continuous mixture when h is concave.
The grid is searched by branch and bound over prefixes (n_1, ..., n_k), vectorised
over (trial, prefix) rows and processed in slices (bounded memory):

* bound of a prefix -- the continuous relaxation in which the remaining mass
  R = 1 - sum_{i<=k} a_i is spread arbitrarily over arms k+1..K: max of h over
  the interval of reachable means (plus, for CE-UCB, the largest reachable
  bonus: R max r (q = 1) or R^q (sum r^{q/(1-q)})^{1-q} by Hölder); for CE-UCB
  also the Lagrangian bound of :class:`_Dual` (tangents of h near the mean of
  the incumbent; the minimum of both is used).  :func:`upper_bound` is the
  interval bound of the root;
* leaves are *lines*: the prefix (n_1, ..., n_{K-2}) fixed and t = n_{K-1}
  free; the objective is concave in t.  For ETC and RS-UCB the maximiser over a
  line is located in closed form (the objective is monotone between the
  parameters at which <a, p> (resp. <a, lo>, <a, hi>) crosses the maximisers of
  h) and the values around those crossings are evaluated; for CE-UCB a
  vectorised binary search on the sign of v(t+1) - v(t) is used, then the
  neighbours are evaluated;
* the walk is depth first over slices whose rows are in *rank-major* order (the
  r-th prefix of every trial, then the (r+1)-th, ...), handed over in windows of
  growing rank, so a trial that is finished early costs nothing more;
* phase 1 finds M, ranking a trial's prefixes by decreasing bound (best first):
  the values of ``previous`` and of its unit-move neighbours (K(K-1) grid
  points) and a greedy dive give the first incumbent (the dive is skipped when
  the neighbours already reach the certificate below), prefixes whose bound +
  guard is not above the incumbent are pruned; when the incumbent reaches the computed
  maximum of h itself (ETC, RS-UCB) no grid value can exceed it and the trial
  stops;
* phase 2 (only when ``previous`` is not kept) walks each trial's prefixes in
  lexicographic order, pruning those whose bound + guard is below M - tol, and
  stops for a trial at its first line whose maximum is >= M - tol; within that
  line the smallest t with v(t) >= M - tol is located (full scan of the line
  when it is short, else a guarded binary search).  Pruned prefixes contain no
  point of the optimal set, so the lexicographic rule is unaffected.

Cost.  The hard case is ETC (and CE-UCB with a tiny, nearly uniform bonus) with
the maximiser of h strictly inside [min phat, max phat]: the values <a, phat>
of ~10^7 grid points are dense around it, the bounds of most prefixes whose
reachable interval contains it equal max h, and M (the grid point closest to
the maximiser) is only certified after every such line has been evaluated (a
few 10^4 lines per trial at K = 6, T = 3e5).  The other cases (degenerate or
informative RS-UCB, CE-UCB with q < 1 or with a bonus that varies across arms,
monotone h) need a handful to a few hundred lines per trial; see
``benchmarks/bench_argmax.py``.

Floating point.  Concavity holds exactly only in real arithmetic; computed
values carry rounding errors of a few ulps.  The bounds are made safe by
widening every interval of means by :data:`MARGIN` and comparing bounds with
a guard :data:`GUARD` (relative to the size of the objective), so pruning never
removes a point that the enumeration could select.  The remaining difference
between the two methods is at rounding level: the fast path's M can differ from
the enumeration's by a few ulps (e.g. when several grid points are
mathematically tied and their computed values differ in the last bits), and the
decisions then differ only if some grid value lies within those ulps of the
threshold M - tol, i.e. if two mathematical values differ by tol up to
~1e-15.  The tests check bit-level agreement of the decisions on random
instances, including exact ties.

Non-concave h: only ``method="enumerate"`` (``"auto"`` falls back to it,
``"bnb"`` raises ``ValueError`` naming ``d``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .discretization import MAX_ENUMERATION, TIE_TOL
from .distortions import Distortion
from .grids import Grid
from .holder import optimal_means

__all__ = [
    "TIE_TOL",
    "MARGIN",
    "GUARD",
    "Objective",
    "Decision",
    "etc_objective",
    "rs_ucb_objective",
    "ce_ucb_objective",
    "etc_objective_finite",
    "ce_ucb_objective_finite",
    "values",
    "upper_bound",
    "argmax",
    "second_best",
]

#: Widening of every interval of means in the bounds (absolute, on [0, 1]).
MARGIN = 1e-13

#: Guard on bound comparisons, relative to max(1, |objective|): a prefix is
#: pruned only when bound + guard < threshold.
GUARD = 1e-12

#: Rows (trial x prefix) processed at once by the fast path.
CHUNK = 1 << 17

#: A line whose ends and peak agree within FLAT (relative) is scanned point by point.
FLAT = 1e-9

#: Smallest slice handed over by the progressive walk (amortises Python overhead).
MIN_SLICE = 1 << 12

#: Lines shorter than this are scanned point by point where exactness matters.
LINE_SCAN = 4096

#: Grid points evaluated at once by the enumeration (per trial row).
ENUM_CHUNK = 1 << 21

KINDS = ("etc", "rs_ucb", "ce_ucb", "etc_finite", "ce_finite")
METHODS = ("auto", "bnb", "enumerate")


# ---------------------------------------------------------------------------
# Maximisers of h
# ---------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _maximisers_cached(d: Distortion) -> tuple[float, float, float]:
    tops = [float(t) for t in optimal_means(d, 0, 1)]
    lo, hi = min(tops), max(tops)
    hmax = float(d.numeric(np.array([lo]))[0])
    return lo, hi, hmax


def _maximisers(d: Distortion) -> tuple[float, float, float]:
    """(x*_lo, x*_hi, h(x*_lo)): the interval of maximisers of h on [0, 1] and the computed max."""
    try:
        return _maximisers_cached(d)
    except TypeError:  # pragma: no cover - unhashable distortion
        return _maximisers_cached.__wrapped__(d)


# ---------------------------------------------------------------------------
# Objectives
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Objective:
    """One of the algorithms' objectives for a batch of B trials and K Bernoulli arms.

    Build it with :func:`etc_objective`, :func:`rs_ucb_objective` or
    :func:`ce_ucb_objective`.

    Attributes
    ----------
    kind : {"etc", "rs_ucb", "ce_ucb"}
    d : Distortion
    phat : numpy.ndarray, shape (B, K)
        Estimated means.
    lo, hi : numpy.ndarray, shape (B, K) or None
        RS-UCB: the clipped ends of the mean intervals.
    radius : numpy.ndarray, shape (B, K) or None
        RS-UCB and CE-UCB: the confidence radii.
    q, L : float
        CE-UCB: Hölder exponent and constant of the bonus.
    xs_lo, xs_hi : float
        The maximisers of h on [0, 1] (an interval for a flat top); nan for a
        non-concave h.
    h_max : float
        h(xs_lo) as computed (nan for a non-concave h).
    concave : bool
        h is concave (the fast path is available).
    surv, widths, left, h1
        Finite-support arms only: survival probabilities S_ij = P_i(X > x_j) of
        the steps [x_j, x_{j+1}) of the common support with 0 inserted (B, K, J),
        the step widths (J,), the steps left of 0 (J,) and h(1); ``phat`` then
        holds the arms' means.
    """

    kind: str
    d: Distortion
    phat: np.ndarray = field(repr=False)
    lo: np.ndarray | None = field(default=None, repr=False)
    hi: np.ndarray | None = field(default=None, repr=False)
    radius: np.ndarray | None = field(default=None, repr=False)
    q: float = 1.0
    L: float = 0.0
    xs_lo: float = math.nan
    xs_hi: float = math.nan
    h_max: float = math.nan
    concave: bool = False
    surv: np.ndarray | None = field(default=None, repr=False)
    widths: np.ndarray | None = field(default=None, repr=False)
    left: np.ndarray | None = field(default=None, repr=False)
    h1: float = 0.0

    @property
    def B(self) -> int:
        return int(self.phat.shape[0])

    @property
    def K(self) -> int:
        return int(self.phat.shape[1])

    @property
    def finite(self) -> bool:
        """Finite-support arms (``etc_objective_finite``, ``ce_ucb_objective_finite``)."""
        return self.surv is not None

    @property
    def h(self):
        return self.d.numeric


def _check_d(d) -> Distortion:
    if not isinstance(d, Distortion):
        raise ValueError(f"argument 'd': expected a Distortion (rsb_theory.distortions.get/resolve), got {d!r}")
    return d


def _check_phat(phat) -> np.ndarray:
    try:
        arr = np.array(phat, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("argument 'phat': expected an array of numbers") from None
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 2:
        raise ValueError(f"argument 'phat': expected shape (B, K) with B >= 1 and K >= 2, got {np.shape(phat)}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
        raise ValueError("argument 'phat': Bernoulli means must be finite and lie in [0, 1]")
    arr.setflags(write=False)
    return arr


def _check_radius(radius, shape: tuple[int, int], finite: bool) -> np.ndarray:
    try:
        arr = np.array(radius, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("argument 'radius': expected a number or an array of numbers") from None
    try:
        arr = np.array(np.broadcast_to(arr, shape), dtype=float)
    except ValueError:
        raise ValueError(f"argument 'radius': shape {arr.shape} does not broadcast to {shape}") from None
    if np.any(np.isnan(arr)) or np.any(arr < 0):
        raise ValueError("argument 'radius': radii must be >= 0 (not nan)")
    if finite and not np.all(np.isfinite(arr)):
        raise ValueError("argument 'radius': CE-UCB needs finite radii (the bonus would be infinite)")
    arr.setflags(write=False)
    return arr


def _concave_fields(d: Distortion) -> dict:
    if not d.shape.is_concave:
        return {"concave": False}
    lo, hi, hmax = _maximisers(d)
    return {"concave": True, "xs_lo": lo, "xs_hi": hi, "h_max": hmax}


def etc_objective(d: Distortion, phat) -> Objective:
    """``eq:ETC_alpha`` for Bernoulli arms: V(a) = h(<a, phat>).

    Parameters
    ----------
    d : Distortion
    phat : array_like, shape (B, K) (or (K,) for one trial)
        Estimated means in [0, 1].
    """
    d = _check_d(d)
    return Objective("etc", d, _check_phat(phat), **_concave_fields(d))


def _trusted(arr) -> np.ndarray:
    """A float array taken as valid (``validate=False``): read-only, no checks."""
    arr = np.asarray(arr, dtype=float)
    arr.setflags(write=False)
    return arr


def rs_ucb_objective(d: Distortion, phat, radius, validate: bool = True) -> Objective:
    """``eq:UCB_alpha`` with the W1 balls of ``eq:UCB_confidence_sets`` (Bernoulli arms).

    g(a) = max_{x in [<a, lo>, <a, hi>]} h(x), lo = clip(phat - radius, 0, 1),
    hi = clip(phat + radius, 0, 1); exact for concave h (module docstring),
    hence restricted to concave h.

    Parameters
    ----------
    d : Distortion
        Concave distortion (ValueError naming ``d`` otherwise).
    phat : array_like, shape (B, K)
    radius : float or array_like broadcastable to (B, K)
        Radii >= 0; ``inf`` allowed (the interval is then [0, 1]).
    validate : bool
        Check ``phat`` and ``radius`` (default).  The simulator passes False
        for arrays it built itself (shape (B, K), values in range), saving the
        checks at every step; the result is the same for valid input.
    """
    d = _check_d(d)
    if not d.shape.is_concave:
        raise ValueError(
            f"argument 'd': the RS-UCB reduction needs a concave h (Jensen); {d.describe()} is "
            f"{d.shape.curvature} ({d.shape.curvature_witness})"
        )
    if validate:
        phat = _check_phat(phat)
        radius = _check_radius(radius, phat.shape, finite=False)
    else:
        phat, radius = _trusted(phat), _trusted(radius)
    with np.errstate(invalid="ignore"):
        lo = np.clip(phat - radius, 0.0, 1.0)
        hi = np.clip(phat + radius, 0.0, 1.0)
    lo.setflags(write=False)
    hi.setflags(write=False)
    return Objective("rs_ucb", d, phat, lo=lo, hi=hi, radius=radius, **_concave_fields(d))


def ce_ucb_objective(d: Distortion, phat, radius, q: float, L: float, validate: bool = True) -> Objective:
    """``eq:UCB_alpha2``: h(<a, phat>) + L * sum_i (a_i radius_i)^q.

    Parameters
    ----------
    d : Distortion
    phat : array_like, shape (B, K)
    radius : float or array_like broadcastable to (B, K)
        Finite radii >= 0.
    q : float
        Hölder exponent, 0 < q <= 1.
    L : float
        Hölder constant, L >= 0 (finite).
    validate : bool
        As in :func:`rs_ucb_objective` (q and L are checked either way).
    """
    d = _check_d(d)
    if validate:
        phat = _check_phat(phat)
        radius = _check_radius(radius, phat.shape, finite=True)
    else:
        phat, radius = _trusted(phat), _trusted(radius)
    try:
        q, L = float(q), float(L)
    except (TypeError, ValueError):
        raise ValueError(f"argument 'q': q and L must be numbers, got q={q!r}, L={L!r}") from None
    if not (0 < q <= 1):
        raise ValueError(f"argument 'q': need 0 < q <= 1, got {q!r}")
    if not (math.isfinite(L) and L >= 0):
        raise ValueError(f"argument 'L': need a finite L >= 0, got {L!r}")
    return Objective("ce_ucb", d, phat, radius=radius, q=q, L=L, **_concave_fields(d))


def _finite_fields(d: Distortion, support, probs_hat) -> dict:
    from .riskmetric import _as_probs, _as_support, _survival_after_atoms

    xs = _as_support(support)
    probs = _as_probs(probs_hat, xs.size, "probs_hat", min_ndim=2)
    if probs.ndim == 2:
        probs = probs[None]
    if probs.ndim != 3 or probs.shape[1] < 2:
        raise ValueError(f"argument 'probs_hat': expected shape (B, K, {xs.size}) with K >= 2, got {probs.shape}")
    k = int(np.searchsorted(xs, 0.0))
    xs0 = np.insert(xs, k, 0.0)
    probs0 = np.insert(probs, k, 0.0, axis=-1)
    surv = _survival_after_atoms(probs0)  # (B, K, J): P(X > x_j) on the step [x_j, x_{j+1})
    widths = np.diff(xs0)
    means = probs @ xs
    for arr in (surv, widths, means):
        arr.setflags(write=False)
    left = xs0[1:] <= 0.0
    left.setflags(write=False)
    h1 = float(d.numeric(np.array([1.0]))[0])
    return {"phat": means, "surv": surv, "widths": widths, "left": left, "h1": h1}


def etc_objective_finite(d: Distortion, support, probs_hat) -> Objective:
    """``eq:ETC_alpha`` for finite-support arms: V(a) = U_h(sum_i a_i F_i).

    Computed by the step identity of :mod:`rsb_theory.riskmetric` (0 inserted as a
    massless atom): V(a) = sum_j w_j (h(S_j(a)) - [x_{j+1} <= 0] h(1)) with
    S_j(a) = sum_i a_i S_ij affine in a, hence concave in a for concave h.

    Parameters
    ----------
    d : Distortion
    support : array_like, shape (m,)
        Common sorted support of the arms.
    probs_hat : array_like, shape (B, K, m) (or (K, m))
        Estimated laws, rows summing to 1.
    """
    d = _check_d(d)
    f = _finite_fields(d, support, probs_hat)
    return Objective("etc_finite", d, **f, **_concave_fields(d))


def ce_ucb_objective_finite(d: Distortion, support, probs_hat, radius, q: float, L: float) -> Objective:
    """``eq:UCB_alpha2`` for finite-support arms: U_h(sum_i a_i F_i) + L sum_i (a_i radius_i)^q."""
    d = _check_d(d)
    f = _finite_fields(d, support, probs_hat)
    ce = ce_ucb_objective(d, f["phat"] * 0.0, radius, q, L)  # validation of radius, q, L
    return Objective("ce_finite", d, radius=ce.radius, q=ce.q, L=ce.L, **f, **_concave_fields(d))


def _check_obj(obj) -> Objective:
    if not isinstance(obj, Objective):
        raise ValueError(f"argument 'obj': expected an Objective (etc_objective, ...), got {type(obj).__name__}")
    return obj


def _check_grid(obj: Objective, grid) -> Grid:
    if not isinstance(grid, Grid):
        raise ValueError(f"argument 'grid': expected a rsb_theory.grids.Grid, got {type(grid).__name__}")
    if grid.K != obj.K:
        raise ValueError(f"argument 'grid': grid has K = {grid.K}, the objective has K = {obj.K} arms")
    return grid


# ---------------------------------------------------------------------------
# The canonical evaluation (accumulators)
# ---------------------------------------------------------------------------
# An accumulator is a tuple of arrays: (sum of a_i, then per kind)
#   etc:    (sa, sx)            sx = sum a_i phat_i
#   rs_ucb: (sa, slo, shi)
#   ce_ucb: (sa, sx, sb)        sb = sum (a_i r_i)^q
# All routines add the arms in the order 1, 2, ..., K-1 and then arm K, so the
# fast path and the enumeration produce bit-identical values.


def _acc_zero(obj: Objective, shape) -> tuple:
    if obj.finite:
        J = obj.widths.size
        acc = (np.zeros(shape), np.zeros(tuple(shape) + (J,)))
        return acc + (np.zeros(shape),) if obj.kind == "ce_finite" else acc
    n = 2 if obj.kind == "etc" else 3
    return tuple(np.zeros(shape) for _ in range(n))


def _term_bonus(obj: Objective, a: np.ndarray, r: np.ndarray) -> np.ndarray:
    return a * r if obj.q == 1.0 else np.power(a * r, obj.q)


def _acc_push(obj: Objective, acc: tuple, i: int, a: np.ndarray, rows: np.ndarray) -> tuple:
    """Add arm i (0-based, i < K-1) with weight ``a`` (broadcast with ``rows``)."""
    kind = obj.kind
    sa = acc[0] + a
    if obj.finite:
        out = (sa, acc[1] + a[..., None] * obj.surv[rows, i])
        return out + (acc[2] + _term_bonus(obj, a, obj.radius[rows, i]),) if kind == "ce_finite" else out
    if kind == "etc":
        return (sa, acc[1] + a * obj.phat[rows, i])
    if kind == "rs_ucb":
        return (sa, acc[1] + a * obj.lo[rows, i], acc[2] + a * obj.hi[rows, i])
    return (sa, acc[1] + a * obj.phat[rows, i], acc[2] + _term_bonus(obj, a, obj.radius[rows, i]))


def _acc_value(obj: Objective, acc: tuple, rows: np.ndarray) -> np.ndarray:
    """Close an accumulator with arm K (weight 1 - sum a_i) and evaluate the objective."""
    K = obj.K
    aK = np.maximum(1.0 - acc[0], 0.0)  # 1 - sum a_i can round to -2e-16 on an exact grid
    h = obj.h
    if obj.finite:
        S = np.clip(acc[1] + aK[..., None] * obj.surv[rows, K - 1], 0.0, 1.0)
        val = np.zeros(aK.shape)
        for j in range(S.shape[-1]):
            w = obj.widths[j]
            if w != 0.0:
                val = val + w * (h(S[..., j]) - (obj.h1 if obj.left[j] else 0.0))
        if obj.kind == "ce_finite":
            val = val + obj.L * (acc[2] + _term_bonus(obj, aK, obj.radius[rows, K - 1]))
        return val
    if obj.kind == "etc":
        return h(acc[1] + aK * obj.phat[rows, K - 1])
    if obj.kind == "rs_ucb":
        xlo = acc[1] + aK * obj.lo[rows, K - 1]
        xhi = acc[2] + aK * obj.hi[rows, K - 1]
        return h(np.minimum(np.maximum(obj.xs_lo, xlo), xhi))
    x = acc[1] + aK * obj.phat[rows, K - 1]
    sb = acc[2] + _term_bonus(obj, aK, obj.radius[rows, K - 1])
    return h(x) + obj.L * sb


def _weights(grid: Grid, n) -> np.ndarray:
    return grid.eps * (np.asarray(n, dtype=float) + grid.offset)


def _values_at(obj: Objective, grid: Grid, counts: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Objective at integer coordinates ``counts`` (..., K-1) for trials ``rows`` (...)."""
    acc = _acc_zero(obj, counts.shape[:-1])
    for i in range(obj.K - 1):
        acc = _acc_push(obj, acc, i, _weights(grid, counts[..., i]), rows)
    return _acc_value(obj, acc, rows)


def _check_counts(grid: Grid, counts, name: str = "counts") -> np.ndarray:
    try:
        arr = np.asarray(counts)
    except (TypeError, ValueError):  # pragma: no cover
        raise ValueError(f"argument '{name}': expected an integer array") from None
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ValueError(f"argument '{name}': grid coordinates must be integers")
    arr = arr.astype(np.int64)
    if arr.ndim < 1 or arr.shape[-1] != grid.K - 1:
        raise ValueError(f"argument '{name}': expected shape (..., {grid.K - 1}) (K - 1 coordinates), got {arr.shape}")
    if np.any(arr < 0) or np.any(arr.sum(axis=-1) > grid.budget):
        raise ValueError(f"argument '{name}': coordinates must be >= 0 with sum <= {grid.budget} (the grid budget)")
    return arr


def values(obj: Objective, grid: Grid, counts) -> np.ndarray:
    """The objective at grid points given by integer coordinates.

    Parameters
    ----------
    obj : Objective
    grid : Grid
        Same K as ``obj``.
    counts : array_like of int, shape (B, n, K-1) or (n, K-1) (shared by all trials)
        Coordinates (n_1, ..., n_{K-1}) with sum <= grid.budget.

    Returns
    -------
    numpy.ndarray, shape (B, n)
    """
    obj = _check_obj(obj)
    grid = _check_grid(obj, grid)
    c = _check_counts(grid, counts)
    if c.ndim == 2:
        c = np.broadcast_to(c[None], (obj.B,) + c.shape)
    elif c.ndim != 3 or c.shape[0] != obj.B:
        raise ValueError(f"argument 'counts': expected shape ({obj.B}, n, {obj.K - 1}) or (n, {obj.K - 1}), got {c.shape}")
    rows = np.broadcast_to(np.arange(obj.B)[:, None], c.shape[:2])
    return _values_at(obj, grid, c, rows)


def points_of(grid: Grid, counts: np.ndarray) -> np.ndarray:
    """Mixtures (..., K) of integer coordinates (..., K-1): the last coordinate takes the deficit."""
    head = _weights(grid, counts)
    # as Grid.points(), but 1 - sum can round to -2.2e-16 on an exact grid: clamp at 0
    return np.concatenate([head, np.maximum(1.0 - head.sum(axis=-1, keepdims=True), 0.0)], axis=-1)


# ---------------------------------------------------------------------------
# Bounds
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Suffix:
    """Per-trial suffix statistics of the arms i..K-1 (0-based), shape (B, K)."""

    pmin: np.ndarray
    pmax: np.ndarray
    bmax: np.ndarray  # CE: max of the bonus of the rest per unit mass^q


def _suffix(obj: Objective) -> _Suffix:
    if obj.finite:  # per step: (B, K, J)
        lo_src = hi_src = obj.surv
    elif obj.kind == "rs_ucb":
        lo_src, hi_src = obj.lo, obj.hi
    else:
        lo_src = hi_src = obj.phat
    pmin = np.minimum.accumulate(lo_src[:, ::-1], axis=1)[:, ::-1]
    pmax = np.maximum.accumulate(hi_src[:, ::-1], axis=1)[:, ::-1]
    bmax = np.zeros(obj.phat.shape)
    if obj.kind in ("ce_ucb", "ce_finite"):
        r = obj.radius
        if obj.q == 1.0:
            bmax = np.maximum.accumulate(r[:, ::-1], axis=1)[:, ::-1]
        else:
            s = obj.q / (1.0 - obj.q)
            with np.errstate(over="ignore"):
                tot = np.cumsum(np.power(r[:, ::-1], s), axis=1)[:, ::-1]
                bmax = np.power(tot, 1.0 - obj.q)
    return _Suffix(pmin, pmax, bmax)


def _hmax_on(obj: Objective, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """max of h over [lo, hi] (widened by MARGIN), for concave h."""
    lo = np.clip(lo - MARGIN, 0.0, 1.0)
    hi = np.clip(hi + MARGIN, 0.0, 1.0)
    return obj.h(np.minimum(np.maximum(obj.xs_lo, lo), hi))


def _bound(obj: Objective, suf: _Suffix, acc: tuple, i_next: int, rows: np.ndarray) -> np.ndarray:
    """Upper bound of the objective over all completions of a prefix.

    The prefix has pushed arms 0..i_next-1; the remaining mass R = 1 - sa is spread
    arbitrarily over arms i_next..K-1 (continuous relaxation).
    """
    R = np.maximum(1.0 - acc[0], 0.0)
    pmin = suf.pmin[rows, i_next]
    pmax = suf.pmax[rows, i_next]
    if obj.finite:  # each step: max of h over the reachable survival probabilities
        hm = _hmax_on(obj, acc[1] + R[..., None] * pmin, acc[1] + R[..., None] * pmax)
        b = np.zeros(R.shape)
        for j in range(hm.shape[-1]):
            w = obj.widths[j]
            if w != 0.0:
                b = b + w * (hm[..., j] - (obj.h1 if obj.left[j] else 0.0))
        b = b + 1e-12 * np.abs(b)
        if obj.kind == "ce_finite":
            Rq = R if obj.q == 1.0 else np.power(R, obj.q)
            b = b + obj.L * (acc[2] + Rq * suf.bmax[rows, i_next]) * (1.0 + 1e-12)
        return b
    if obj.kind == "rs_ucb":
        return _hmax_on(obj, acc[1] + R * pmin, acc[2] + R * pmax)
    b = _hmax_on(obj, acc[1] + R * pmin, acc[1] + R * pmax)
    if obj.kind == "ce_ucb":
        Rq = R if obj.q == 1.0 else np.power(R, obj.q)
        b = b + obj.L * (acc[2] + Rq * suf.bmax[rows, i_next]) * (1.0 + 1e-12)
    return b


@lru_cache(maxsize=256)
def _derivative_cached(d: Distortion):
    import sympy as sp

    from .distortions import U

    raw = sp.lambdify(U, sp.diff(d.expr, U), modules="numpy")

    def fn(x):
        x = np.asarray(x, dtype=float)
        with np.errstate(all="ignore"):
            return np.asarray(raw(x), dtype=float) * np.ones_like(x)

    return fn


class _Dual:
    """Lagrangian bound for CE-UCB prefixes (``eq:UCB_alpha2``), tight near a chosen mean y0.

    For concave h and a supergradient mu of h at y0, h(y) <= h(y0) + mu (y - y0), so
    on the prefix's completions (remaining mass R spread as w over the arms J)

        UCB(a) <= h(y0) + mu (S_x - y0) + L S_b + max_{w >= 0, sum w = R} sum_j phi_j(w_j),
        phi_j(w) = mu p_j w + L (w r_j)^q.

    The last term is a separable concave maximisation: for q = 1 it is
    R max_j (mu p_j + L r_j); for q < 1 weak duality gives, for every
    lambda > max_j mu p_j,

        <= lambda R + sum_j (1 - q) A_j (q A_j / (lambda - mu p_j))^{q/(1-q)},  A_j = L r_j^q,

    and lambda is chosen by a few safeguarded Newton steps on the stationarity
    condition sum_j w_j(lambda) = R (any lambda gives a valid bound).  The bound of a
    prefix is the minimum of this and the interval bound.
    """

    #: Offsets of the tangent points around y0 (q = 1: the bound is the minimum over them).
    OFFSETS = (0.0, -0.002, 0.002, -0.006, 0.006, -0.015, 0.015, -0.04, 0.04, -0.1, 0.1)

    def __init__(self, obj: Objective, y0: np.ndarray):
        self.obj = obj
        h = obj.h
        q, L = obj.q, obj.L
        self.linear = q == 1.0 or L == 0.0
        offs = np.array(self.OFFSETS if self.linear else self.OFFSETS[:1])
        y0 = np.clip(np.asarray(y0, dtype=float)[:, None] + offs[None, :], 1e-6, 1 - 1e-6)  # (B, T)
        mu = _derivative_cached(obj.d)(y0)
        h0 = h(y0)
        ys = np.linspace(0.0, 1.0, 129)
        with np.errstate(invalid="ignore"):
            tangent_ok = np.all(h(ys)[None, None, :] <= h0[..., None] + mu[..., None] * (ys - y0[..., None]) + 1e-12,
                                axis=2)
        self.valid = np.isfinite(mu) & np.isfinite(h0) & tangent_ok
        mu = np.where(self.valid, mu, 0.0)
        self.y0, self.mu, self.h0 = y0, mu, np.where(self.valid, h0, 0.0)
        self.c = mu[:, :, None] * obj.phat[:, None, :]  # (B, T, K)
        if self.linear:
            lin = self.c + (L * obj.radius[:, None, :] if q == 1.0 else 0.0)
            self.sufmax = np.maximum.accumulate(lin[:, :, ::-1], axis=2)[:, :, ::-1]
        else:
            self.A = L * np.power(obj.radius, q)

    def bound(self, acc: tuple, i_next: int, trial: np.ndarray) -> np.ndarray:
        obj = self.obj
        shape = np.broadcast(acc[0], trial).shape
        tr = np.broadcast_to(trial, shape).ravel()
        sa, sx, sb = (np.broadcast_to(a, shape).ravel() for a in acc)
        R = np.maximum(1.0 - sa, 0.0)
        base = self.h0[tr] + self.mu[tr] * (sx[:, None] - self.y0[tr]) + (obj.L * sb)[:, None]  # (n, T)
        if self.linear:
            val = base + R[:, None] * self.sufmax[tr, :, i_next]
        else:
            val = base + self._separable(R, tr, i_next)[:, None]
        val = np.where(self.valid[tr], val, np.inf).min(axis=1)
        return val.reshape(shape)

    def _separable(self, R: np.ndarray, tr: np.ndarray, i_next: int) -> np.ndarray:
        q = self.obj.q
        e, s = 1.0 / (1.0 - q), q / (1.0 - q)
        c = self.c[tr, 0, i_next:]
        A = self.A[tr, i_next:]
        qA = q * A
        cmax = c.max(axis=1)
        pos = R > 0
        Rs = np.where(pos, R, 1.0)
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            lam = cmax + np.power(np.power(qA, e).sum(axis=1) / Rs, 1.0 / e)
            best = np.full(R.shape, np.inf)
            for it in range(6):
                gap = np.maximum(lam[:, None] - c, 1e-300)
                w = np.power(qA / gap, e)
                D = lam * Rs + ((1.0 - q) * A * np.power(qA / gap, s)).sum(axis=1)
                best = np.minimum(best, np.where(np.isfinite(D), D, np.inf))
                F = w.sum(axis=1) - Rs
                dF = -(e * w / gap).sum(axis=1)
                step = np.where(dF < 0, F / dF, 0.0)
                new = lam - step
                lam = np.where(np.isfinite(new), np.maximum(new, 0.5 * (lam + cmax)), lam)
        return np.where(pos, best, 0.0)


def _guard(obj: Objective, level: np.ndarray) -> np.ndarray:
    return GUARD * np.maximum(1.0, np.abs(level))


def upper_bound(obj: Objective) -> np.ndarray:
    """Continuous relaxation of the root: an upper bound on M for every trial, shape (B,).

    ETC: max of h on [min phat, max phat]; RS-UCB: max of h on [min lo, max hi];
    CE-UCB: that plus L * max_a sum_i (a_i r_i)^q (= L max r for q = 1, else
    L (sum_i r_i^{q/(1-q)})^{1-q} by Hölder).  The intervals are widened by
    :data:`MARGIN` and :data:`GUARD` is added, so v(previous) >= upper_bound - tol
    certifies that ``previous`` is kept by :func:`argmax`.

    Requires a concave h (ValueError naming ``d`` otherwise).
    """
    obj = _check_obj(obj)
    if not obj.concave:
        raise ValueError(f"argument 'd': upper_bound needs a concave h; {obj.d.describe()} is not concave")
    suf = _suffix(obj)
    rows = np.arange(obj.B)
    b = _bound(obj, suf, _acc_zero(obj, (obj.B,)), 0, rows)
    return b + _guard(obj, b)


# ---------------------------------------------------------------------------
# Decisions
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Decision:
    """Result of :func:`argmax` for a batch of trials.

    Attributes
    ----------
    counts : numpy.ndarray, shape (B, K-1), int64
        Chosen grid coordinates (n_1, ..., n_{K-1}).
    points : numpy.ndarray, shape (B, K)
        The chosen mixtures (last coordinate takes the deficit).
    value : numpy.ndarray, shape (B,)
        Objective at the choice.
    best : numpy.ndarray, shape (B,)
        M, the maximum of the objective over the grid.
    kept : numpy.ndarray, shape (B,), bool
        The previous choice was kept.
    method : str
        "bnb" or "enumerate".
    lines : numpy.ndarray, shape (B,), int64
        Fast path: number of leaf lines (prefixes (n_1..n_{K-2})) evaluated per
        trial; enumeration: grid points evaluated.
    """

    counts: np.ndarray
    points: np.ndarray
    value: np.ndarray
    best: np.ndarray
    kept: np.ndarray
    method: str = "enumerate"
    lines: np.ndarray | None = field(default=None, repr=False)


def _check_previous(obj: Objective, grid: Grid, previous) -> np.ndarray | None:
    if previous is None:
        return None
    try:
        arr = np.asarray(previous)
    except (TypeError, ValueError):  # pragma: no cover
        raise ValueError("argument 'previous': expected an integer array") from None
    if arr.ndim != 2 or arr.shape != (obj.B, obj.K - 1):
        raise ValueError(f"argument 'previous': expected shape ({obj.B}, {obj.K - 1}), got {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ValueError("argument 'previous': grid coordinates must be integers")
    arr = arr.astype(np.int64)
    none = np.all(arr == -1, axis=1)
    bad = ~none & ((arr < 0).any(axis=1) | (arr.sum(axis=1) > grid.budget))
    if np.any(bad):
        raise ValueError(
            f"argument 'previous': row {int(np.argmax(bad))} is neither all -1 (no previous choice) nor a grid "
            f"point (coordinates >= 0 with sum <= {grid.budget})"
        )
    return arr


def _check_tol(tol) -> float:
    try:
        tol = float(tol)
    except (TypeError, ValueError):
        raise ValueError(f"argument 'tol': expected a number, got {tol!r}") from None
    if not (math.isfinite(tol) and tol >= 0):
        raise ValueError(f"argument 'tol': need a finite tol >= 0, got {tol!r}")
    return tol


def _resolve_method(obj: Objective, method: str) -> str:
    if method not in METHODS:
        raise ValueError(f"argument 'method': unknown method {method!r}; known: {', '.join(METHODS)}")
    if method == "auto":
        return "bnb" if obj.concave else "enumerate"
    if method == "bnb" and not obj.concave:
        raise ValueError(
            f"argument 'd': method='bnb' needs a concave h; {obj.d.describe()} is {obj.d.shape.curvature} "
            f"(use method='enumerate')"
        )
    return method


# ---------------------------------------------------------------------------
# Enumeration (the reference)
# ---------------------------------------------------------------------------


def lex_blocks(grid: Grid, max_rows: int = 1 << 20):
    """Yield the grid's integer coordinates in lexicographic order, in blocks of <= max_rows rows.

    Splits on leading coordinates until a subtree fits; each block is (rows, K-1) int64.
    """
    k = grid.K - 1
    m = grid.budget

    def size(r: int, free: int) -> int:
        return math.comb(r + free, free)

    def full(prefix: list[int], r: int) -> np.ndarray:
        free = k - len(prefix)
        rows = np.zeros((1, 0), dtype=np.int64)
        used = np.zeros(1, dtype=np.int64)
        for _ in range(free):
            cnt = r - used + 1
            par = np.repeat(np.arange(rows.shape[0]), cnt)
            start = np.cumsum(cnt) - cnt
            val = np.arange(par.size) - np.repeat(start, cnt)
            rows = np.column_stack([rows[par], val])
            used = used[par] + val
        head = np.broadcast_to(np.asarray(prefix, dtype=np.int64), (rows.shape[0], len(prefix)))
        return np.column_stack([head, rows]) if prefix else rows

    def rec(prefix: list[int], r: int):
        free = k - len(prefix)
        if free == 0 or size(r, free) <= max_rows or free == 1:
            yield full(prefix, r)
            return
        for v in range(r + 1):
            yield from rec(prefix + [v], r - v)

    yield from rec([], m)


def _enumerate_scan(obj: Objective, grid: Grid, tol: float, want_second: bool):
    """Full enumeration: per trial M, the first point of O (index and counts), |O| and the second best.

    Two passes over the grid (M first, then O).
    """
    if grid.size > MAX_ENUMERATION:
        raise ValueError(
            f"argument 'eps': the {grid.kind} grid with K = {grid.K}, eps = {grid.eps} has {grid.size} points, "
            f"more than {MAX_ENUMERATION} to enumerate"
        )
    B = obj.B
    rows_per = max(1, ENUM_CHUNK // max(B, 1))
    M = np.full(B, -np.inf)
    for block in lex_blocks(grid, rows_per):
        v = values(obj, grid, block)
        M = np.maximum(M, v.max(axis=1))
    thr = M - tol
    first = np.full((B, grid.K - 1), -1, dtype=np.int64)
    found = np.zeros(B, dtype=bool)
    n_opt = np.zeros(B, dtype=np.int64)
    second = np.full(B, -np.inf)
    for block in lex_blocks(grid, rows_per):
        v = values(obj, grid, block)
        opt = v >= thr[:, None]
        has = opt.any(axis=1)
        new = has & ~found
        if np.any(new):
            idx = np.argmax(opt[new], axis=1)
            first[new] = block[idx]
            found |= new
        if want_second:
            n_opt += opt.sum(axis=1)
            second = np.maximum(second, np.where(opt, -np.inf, v).max(axis=1))
        elif found.all():
            break
    return M, first, n_opt, second


# ---------------------------------------------------------------------------
# The fast exact path: branch and bound over prefixes
# ---------------------------------------------------------------------------


class _Rows:
    """A set of (trial, prefix) rows at one depth (arms 0..depth-1 pushed)."""

    __slots__ = ("trial", "cols", "used", "acc", "bound", "depth", "rank")

    def __init__(self, trial, cols, used, acc, bound, depth, rank=None):
        self.trial, self.cols, self.used, self.acc, self.bound, self.depth = trial, cols, used, acc, bound, depth
        self.rank = rank

    def __len__(self) -> int:
        return int(self.trial.size)

    def take(self, idx) -> "_Rows":
        return _Rows(self.trial[idx], self.cols[idx], self.used[idx], tuple(a[idx] for a in self.acc),
                     self.bound[idx], self.depth, None if self.rank is None else self.rank[idx])


def _rank_major(rows: _Rows, by_bound: bool) -> _Rows:
    """Reorder rows by (rank within trial, trial).

    The rank is the position of a row among its trial's rows: in the given order
    (rows of one trial are in lexicographic order of their prefixes, so slices of
    the result visit every trial's prefixes in lexicographic order, a few at a time),
    or by decreasing bound (``by_bound``: best first, for the search of M).
    """
    n = len(rows)
    order = np.lexsort((-rows.bound, rows.trial)) if by_bound else np.argsort(rows.trial, kind="stable")
    st = rows.trial[order]
    first = np.r_[0, np.flatnonzero(st[1:] != st[:-1]) + 1]
    size = np.diff(np.r_[first, n])
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - np.repeat(first, size)
    out = rows.take(np.lexsort((rows.trial, rank)))
    out.rank = np.sort(rank)
    return out


class _Keep:
    """Row filter ``bound + guard > level`` (``strict``) or ``>= level``, rows of finished trials dropped.

    ``level`` and ``finished`` are (B,) arrays that the caller updates in place.
    """

    def __init__(self, level: np.ndarray, g: np.ndarray, strict: bool, finished: np.ndarray | None = None):
        self.level, self.g, self.strict, self.finished = level, g, strict, finished

    def __call__(self, bound: np.ndarray, tr: np.ndarray) -> np.ndarray:
        b = bound + self.g[tr]
        ok = b > self.level[tr] if self.strict else b >= self.level[tr]
        if self.finished is not None:
            ok &= ~self.finished[tr]
        return ok


class _Search:
    """Branch and bound for one objective on one grid (see the module docstring)."""

    def __init__(self, obj: Objective, grid: Grid):
        self.obj, self.grid = obj, grid
        self.K, self.m = obj.K, grid.budget
        self.eps, self.off = grid.eps, grid.offset
        self.suf = _suffix(obj)
        self.dual = None
        self._sl_key, self._sl = None, None
        self.lines = np.zeros(obj.B, dtype=np.int64)
        self.line_cost = 2 if obj.kind in ("etc", "rs_ucb") else 8  # work of a line, in children-equivalents
        # ETC and RS-UCB values are h at some point: none exceeds the computed max of h
        self.cert = obj.h_max if obj.kind in ("etc", "rs_ucb") else math.inf
        self.g = _guard(obj, self.bound(_acc_zero(obj, (obj.B,)), 0, np.arange(obj.B)))
        if obj.finite:  # rounding of a sum over the steps scales with the support's length
            self.g = self.g * max(1.0, float(np.abs(obj.widths).sum()))

    @property
    def needs_start(self) -> bool:
        """:meth:`start` also sets up a bound used later (CE-UCB, K > 2): it cannot be skipped."""
        return self.obj.kind == "ce_ucb" and self.K > 2

    def start(self) -> np.ndarray:
        """Dive for a first incumbent and, for CE-UCB, switch on the Lagrangian bound at its mean."""
        B = self.obj.B
        inc, counts = self.dive(np.arange(B))
        if self.obj.kind == "ce_ucb" and self.K > 2:
            y0 = np.einsum("bk,bk->b", points_of(self.grid, counts), self.obj.phat)
            self.dual = _Dual(self.obj, y0)
        return inc

    def bound(self, acc: tuple, i_next: int, trial: np.ndarray) -> np.ndarray:
        b = _bound(self.obj, self.suf, acc, i_next, trial)
        if self.dual is not None:
            b = np.minimum(b, self.dual.bound(acc, i_next, trial))
        return b

    # -- rows ---------------------------------------------------------------

    def root(self, trials: np.ndarray) -> _Rows:
        obj = self.obj
        n = trials.size
        acc = _acc_zero(obj, (n,))
        return _Rows(trials, np.zeros((n, 0), dtype=np.int64), np.zeros(n, dtype=np.int64), acc,
                     self.bound(acc, 0, trials), 0, np.zeros(n, dtype=np.int64))

    def expand(self, rows: _Rows, keep=None) -> _Rows:
        """Children of ``rows`` (one more coordinate) that pass ``keep(bound, trial)``.

        Bounds are computed on a (parents, values) array; only the children that pass
        are materialised.  Order: parent-major, value-minor (lexicographic per trial).
        """
        r = self.m - rows.used
        if keep is not None and self.obj.kind in ("etc", "rs_ucb"):
            nlo, nhi = self._child_range(rows, keep)
        else:
            nlo, nhi = np.zeros_like(r), r
        width = int((nhi - nlo).max(initial=-1)) + 1
        if width <= 0:
            e = np.zeros(0, dtype=np.int64)
            return _Rows(e, np.zeros((0, rows.depth + 1), dtype=np.int64), e, tuple(a[e] for a in rows.acc),
                         np.zeros(0), rows.depth + 1)
        n = nlo[:, None] + np.arange(width)[None, :]
        tr = rows.trial[:, None]
        acc = _acc_push(self.obj, tuple(a[:, None] for a in rows.acc), rows.depth, _weights(self.grid, n), tr)
        bound = _bound(self.obj, self.suf, acc, rows.depth + 1, tr)
        ok = n <= nhi[:, None]
        if keep is not None:
            ok &= keep(bound, tr)
        pi, ji = np.nonzero(ok)
        ni = n[pi, ji]
        acc = tuple(a[pi, ji] for a in acc)
        bound = bound[pi, ji]
        trial = rows.trial[pi]
        if self.dual is not None and pi.size:  # the (dearer) Lagrangian bound only where the interval bound passes
            bound = np.minimum(bound, self.dual.bound(acc, rows.depth + 1, trial))
            if keep is not None:
                sel = np.flatnonzero(keep(bound, trial))
                pi, ni, trial, bound = pi[sel], ni[sel], trial[sel], bound[sel]
                acc = tuple(a[sel] for a in acc)
        cols = np.column_stack([rows.cols[pi], ni])
        return _Rows(trial, cols, rows.used[pi] + ni, acc, bound, rows.depth + 1)

    def _superlevel(self, level: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """[y_L, y_R] containing {y in [0, 1] : h(y) >= level} (bisection, outward-rounded); cached."""
        key = level.tobytes()
        if self._sl_key == key:
            return self._sl
        obj = self.obj
        h = obj.h
        lam = level
        # left side: h non-decreasing on [0, xs_lo]; keep h(lo) < lam <= h(hi)
        lo = np.zeros_like(lam)
        hi = np.full_like(lam, obj.xs_lo)
        left_all = h(lo) >= lam
        for _ in range(55):
            mid = 0.5 * (lo + hi)
            up = h(mid) >= lam
            hi = np.where(up, mid, hi)
            lo = np.where(up, lo, mid)
        yl = np.where(left_all, 0.0, lo) - 1e-12
        lo = np.full_like(lam, obj.xs_hi)
        hi = np.ones_like(lam)
        right_all = h(hi) >= lam
        for _ in range(55):
            mid = 0.5 * (lo + hi)
            up = h(mid) >= lam
            lo = np.where(up, mid, lo)
            hi = np.where(up, hi, mid)
        yr = np.where(right_all, 1.0, hi) + 1e-12
        empty = ~(obj.h_max + 1e-12 * max(1.0, abs(obj.h_max)) >= lam)
        yl = np.where(empty, 2.0, yl)
        yr = np.where(empty, -1.0, yr)
        self._sl_key, self._sl = key, (yl, yr)
        return yl, yr

    def _child_range(self, rows: _Rows, keep: "_Keep") -> tuple[np.ndarray, np.ndarray]:
        """Per parent, a range [nlo, nhi] of child values containing every child whose interval
        bound can pass ``keep`` (ETC, RS-UCB): the child's interval of means must meet the
        superlevel set of h at the level (closed form, linear in the child's weight; widened by 2)."""
        obj, suf = self.obj, self.suf
        tr = rows.trial
        i = rows.depth
        yl, yr = self._superlevel(keep.level - keep.g)
        yl, yr = yl[tr], yr[tr]
        sa = rows.acc[0]
        R = np.maximum(1.0 - sa, 0.0)
        if obj.kind == "rs_ucb":
            s_lo, s_hi, p_lo, p_hi = rows.acc[1], rows.acc[2], obj.lo[tr, i], obj.hi[tr, i]
        else:
            s_lo = s_hi = rows.acc[1]
            p_lo = p_hi = obj.phat[tr, i]
        pmin, pmax = suf.pmin[tr, i + 1], suf.pmax[tr, i + 1]
        r = self.m - rows.used
        amin = np.zeros_like(R)
        amax = np.full_like(R, np.inf)
        # lower end of the child's interval: (s_lo + R pmin) + a (p_lo - pmin) <= yr + margin
        for a0, a1, y, upper in ((s_lo + R * pmin, p_lo - pmin, yr + 2 * MARGIN, True),
                                 (s_hi + R * pmax, p_hi - pmax, yl - 2 * MARGIN, False)):
            flat = np.abs(a1) < 1e-9
            with np.errstate(divide="ignore", invalid="ignore"):
                cut = (y - a0) / np.where(flat, 1.0, a1)
            if upper:   # a0 + a a1 <= y
                none = flat & (a0 - 1e-9 > y)
                amax = np.where(~flat & (a1 > 0), np.minimum(amax, cut), amax)
                amin = np.where(~flat & (a1 < 0), np.maximum(amin, cut), amin)
            else:       # a0 + a a1 >= y
                none = flat & (a0 + 1e-9 < y)
                amax = np.where(~flat & (a1 < 0), np.minimum(amax, cut), amax)
                amin = np.where(~flat & (a1 > 0), np.maximum(amin, cut), amin)
            amax = np.where(none, -np.inf, amax)
        with np.errstate(invalid="ignore", over="ignore"):
            nlo = np.floor(np.clip(amin / self.eps - self.off, -4.0, r + 4.0)).astype(np.int64) - 2
            nhi = np.ceil(np.clip(amax / self.eps - self.off, -4.0, r + 4.0)).astype(np.int64) + 2
        return np.maximum(nlo, 0), np.minimum(nhi, r)

    def _slice_end(self, rows: _Rows, start: int, sizes: np.ndarray, progressive: bool) -> int:
        """End of the slice of ``rows`` starting at ``start`` (``sizes``: work per row from ``start``).

        The work of a slice is at most CHUNK; when ``progressive`` the slice also ends at
        the next rank window edge (windows [0, 1), [1, 2), [2, 4), ...) unless its work
        would then be below MIN_SLICE (amortises the per-slice overhead).
        """
        cnt = np.cumsum(sizes)
        end = max(1, int(np.searchsorted(cnt, CHUNK, side="right")))
        if progressive:
            r0 = int(rows.rank[start])
            edge = 1 if r0 == 0 else 1 << r0.bit_length()
            stop = int(np.searchsorted(rows.rank[start:start + cnt.size], edge))
            least = int(np.searchsorted(cnt, MIN_SLICE, side="left")) + 1
            end = min(end, max(stop, least))
        return start + max(1, end)

    def walk(self, trials: np.ndarray, keep, on_lines, progressive: bool, by_bound: bool = False) -> None:
        """Depth-first walk over chunks of rows; each trial's prefixes in lexicographic order.

        ``keep(rows)`` -> bool mask of rows to explore (re-evaluated with the current
        state before and after every expansion); ``on_lines(rows)`` processes lines
        (rows of depth K-2).  With ``progressive``, rows are kept in rank-major order
        and handed over in windows of growing rank per trial, so a trial that is
        finished early stops costing anything; ``by_bound`` ranks a trial's rows by
        decreasing bound instead of lexicographically (best first).
        """
        stack: list[tuple[_Rows, int]] = [(self.root(trials), 0)]
        K = self.K
        while stack:
            rows, start = stack.pop()
            if rows.depth == K - 2:
                n = len(rows)
                while start < n:
                    end = self._slice_end(rows, start, np.full(min(n - start, CHUNK), self.line_cost),
                                          progressive and rows.rank is not None)
                    part = rows.take(slice(start, end))
                    start = end
                    k = keep(part.bound, part.trial)
                    if k.any():
                        on_lines(part.take(k))
                continue
            end = self._slice_end(rows, start, self.m - rows.used[start:start + CHUNK] + 1, progressive)
            if end < len(rows):
                stack.append((rows, end))
            par = rows.take(slice(start, end))
            k = keep(par.bound, par.trial)
            if not k.any():
                continue
            ch = self.expand(par.take(k), keep)
            if not len(ch):
                continue
            if progressive and not (by_bound and ch.depth == K - 2):  # best-first lines: order is irrelevant
                ch = _rank_major(ch, by_bound)
            stack.append((ch, 0))

    # -- lines ---------------------------------------------------------------

    def line_values(self, rows: _Rows, t: np.ndarray) -> np.ndarray:
        """Objective on lines ``rows`` (depth K-2) at t = n_{K-1}, t of shape (n, c)."""
        tr = rows.trial[:, None]
        acc = _acc_push(self.obj, tuple(a[:, None] for a in rows.acc), self.K - 2, _weights(self.grid, t), tr)
        return _acc_value(self.obj, acc, tr)

    def _crossings(self, rows: _Rows, r: np.ndarray) -> np.ndarray:
        """Candidate t (n, c) around the crossings of the linear means with the maximisers of h.

        Between two crossings the value is monotone in t (h is monotone on each side
        of its maximisers), so a maximiser is within one step of a crossing or at an end.
        """
        obj, K = self.obj, self.K
        tr = rows.trial
        a0 = self.eps * self.off
        if obj.kind == "rs_ucb":
            fams = [(rows.acc[1], obj.lo), (rows.acc[2], obj.hi)]
        else:
            fams = [(rows.acc[1], obj.phat)]
        targets = [obj.xs_lo] if obj.xs_lo == obj.xs_hi else [obj.xs_lo, obj.xs_hi]
        cands = []
        sa = rows.acc[0]
        rf = r.astype(float)
        for s, p in fams:
            p1, p2 = p[tr, K - 2], p[tr, K - 1]
            x0 = (s + a0 * p1) + (1.0 - (sa + a0)) * p2
            sl = self.eps * (p1 - p2)
            nz = sl != 0
            for target in targets:
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    tc = np.where(nz, (target - x0) / np.where(nz, sl, 1.0), 0.0)
                tc = np.floor(np.clip(tc, -2.0, rf + 2.0)).astype(np.int64)
                cands.extend(tc + j for j in (-1, 0, 1, 2))
        c = np.stack(cands, axis=1)
        return np.clip(c, 0, r[:, None])

    def _peak_search(self, rows: _Rows, r: np.ndarray) -> np.ndarray:
        """Candidate t (n, 3) around the peak of a concave line (binary search on v(t+1) - v(t))."""
        lo = np.zeros_like(r)
        hi = r.copy()
        for _ in range(int(r.max()).bit_length() + 1):
            act = lo < hi
            if not act.any():
                break
            mid = (lo + hi) // 2
            v = self.line_values(rows, np.stack([mid, np.minimum(mid + 1, r)], axis=1))
            up = v[:, 1] > v[:, 0]
            lo = np.where(act & up, mid + 1, lo)
            hi = np.where(act & ~up, mid, hi)
        c = np.stack([lo - 1, lo, lo + 1], axis=1)
        return np.clip(c, 0, r[:, None])

    def line_max(self, rows: _Rows) -> tuple[np.ndarray, np.ndarray]:
        """(max value, the first maximising candidate t) on each line."""
        self.lines += np.bincount(rows.trial, minlength=self.obj.B)
        r = self.m - rows.used
        if self.obj.kind not in ("etc", "rs_ucb"):
            c = self._peak_search(rows, r)
        else:
            c = self._crossings(rows, r)
        c = np.concatenate([c, np.zeros_like(r)[:, None], r[:, None]], axis=1)
        v = self.line_values(rows, c)
        j = np.argmax(v, axis=1)
        ix = np.arange(len(rows))
        vmax, tmax = v[ix, j], c[ix, j]
        # (nearly) flat lines -- e.g. tied arms -- carry mathematically equal values that
        # differ by rounding: their computed maximum is found by a full scan (concavity:
        # the ends and the peak within FLAT bound every value of the line)
        flat = (vmax - v.min(axis=1) <= FLAT * np.maximum(1.0, np.abs(vmax))) & (r > 0)
        if np.any(flat):
            idx = np.flatnonzero(flat)
            vmax[idx], tmax[idx] = self._scan_max(rows.take(idx), r[idx])
        return vmax, tmax

    def _scan_max(self, rows: _Rows, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Exact (computed) maximum and its first t on each line, by evaluating every point."""
        best = np.full(len(rows), -np.inf)
        arg = np.zeros(len(rows), dtype=np.int64)
        width = max(1, min(int(r.max()) + 1, LINE_SCAN))
        step = max(1, CHUNK // width)
        for s0 in range(0, len(rows), step):
            ii = np.arange(s0, min(s0 + step, len(rows)))
            part = rows.take(ii)
            for t0 in range(0, int(r[ii].max()) + 1, width):
                t = np.minimum(t0 + np.arange(width)[None, :], r[ii, None])
                v = self.line_values(part, t)
                j = np.argmax(v, axis=1)
                vj = v[np.arange(ii.size), j]
                better = vj > best[ii]
                best[ii] = np.where(better, vj, best[ii])
                arg[ii] = np.where(better, t[np.arange(ii.size), j], arg[ii])
        return best, arg

    def first_at_least(self, rows: _Rows, thr: np.ndarray, t_best: np.ndarray) -> np.ndarray:
        """Smallest t on each line with v(t) >= thr (one exists: t_best).

        Lines of at most LINE_SCAN points are scanned; longer ones use a binary search
        on [0, t_best] (v is non-decreasing there) followed by a scan of the 64 points
        before the result (rounding guard).
        """
        r = self.m - rows.used
        out = t_best.copy()
        short = r + 1 <= LINE_SCAN
        if np.any(short):
            idx = np.flatnonzero(short)
            width = int(r[idx].max()) + 1
            step = max(1, CHUNK // width)
            for s0 in range(0, idx.size, step):
                ii = idx[s0:s0 + step]
                t = np.broadcast_to(np.arange(width), (ii.size, width))
                ok = (t <= r[ii, None]) & (self.line_values(rows.take(ii), t) >= thr[ii, None])
                out[ii] = np.argmax(ok, axis=1)
        if np.any(~short):
            idx = np.flatnonzero(~short)
            sub = rows.take(idx)
            th = thr[idx]
            lo = np.zeros(idx.size, dtype=np.int64)
            hi = t_best[idx].copy()
            for _ in range(int(hi.max()).bit_length() + 1):
                act = lo < hi
                if not act.any():
                    break
                mid = (lo + hi) // 2
                ok = self.line_values(sub, mid[:, None])[:, 0] >= th
                lo = np.where(act & ~ok, mid + 1, lo)
                hi = np.where(act & ok, mid, hi)
            t = np.clip(lo[:, None] + np.arange(-64, 1), 0, None)
            ok = (self.line_values(sub, t) >= th[:, None]) & (t <= lo[:, None])
            out[idx] = t[np.arange(idx.size), np.argmax(ok, axis=1)]
        return out

    def _last_at_least(self, rows: _Rows, thr: np.ndarray, t_best: np.ndarray, r: np.ndarray) -> np.ndarray:
        """Largest t >= t_best with v(t) >= thr on each line (mirror of :meth:`first_at_least`, long lines)."""
        lo = t_best.copy()
        hi = r.copy()
        for _ in range(int(r.max()).bit_length() + 1):
            act = lo < hi
            if not act.any():
                break
            mid = (lo + hi + 1) // 2
            ok = self.line_values(rows, mid[:, None])[:, 0] >= thr
            lo = np.where(act & ok, mid, lo)
            hi = np.where(act & ~ok, mid - 1, hi)
        t = np.minimum(lo[:, None] + np.arange(0, 65), r[:, None])
        run = np.cumprod(self.line_values(rows, t) >= thr[:, None], axis=1).astype(bool)
        return t[np.arange(len(rows)), run.sum(axis=1) - 1]

    # -- dive: a first incumbent ----------------------------------------------

    def dive(self, trials: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Greedy descent by best bound (first child on ties): (value, counts) per trial."""
        rows = self.root(trials)
        for _ in range(self.K - 2):
            ch = self.expand(rows)
            cnt = self.m - rows.used + 1
            starts = np.cumsum(cnt) - cnt
            gmax = np.maximum.reduceat(ch.bound, starts)
            best = np.flatnonzero(ch.bound >= np.repeat(gmax, cnt))
            par = np.repeat(np.arange(len(rows)), cnt)[best]
            _, first = np.unique(par, return_index=True)
            rows = ch.take(best[first])
        v, t = self.line_max(rows)
        return v, np.column_stack([rows.cols, t])

    # -- phase 1: M ------------------------------------------------------------

    def maximum(self, inc: np.ndarray) -> np.ndarray:
        """Maximum M per trial, starting from lower bounds ``inc`` (values of grid points)."""
        inc = inc.copy()
        done = inc >= self.cert
        g = self.g

        keep = _Keep(inc, g, True, done)

        def on_lines(rows):
            v, _ = self.line_max(rows)
            np.maximum.at(inc, rows.trial, v)
            done[:] |= inc >= self.cert

        trials = np.flatnonzero(~done)
        if trials.size:
            self.walk(trials, keep, on_lines, progressive=True, by_bound=True)
        return inc

    # -- phase 2: the lexicographically first optimal point ---------------------

    def first_optimal(self, trials: np.ndarray, thr: np.ndarray) -> np.ndarray:
        """Counts (len(trials), K-1) of the first grid point with v >= thr[trial], in lexicographic order."""
        B, K = self.obj.B, self.K
        g = self.g
        found = np.ones(B, dtype=bool)
        found[trials] = False
        hits = []

        keep = _Keep(thr, g, False, found)

        def on_lines(rows):
            v, t = self.line_max(rows)
            ok = np.flatnonzero(v >= thr[rows.trial])
            if ok.size:
                tr, first = np.unique(rows.trial[ok], return_index=True)
                sel = ok[first]
                found[tr] = True
                hits.append((rows.take(sel), t[sel]))

        self.walk(trials, keep, on_lines, progressive=True)
        out = np.full((B, K - 1), -1, dtype=np.int64)
        for part, t in hits:
            tf = self.first_at_least(part, thr[part.trial], t)
            out[part.trial] = np.column_stack([part.cols, tf])
        if np.any(~found[trials]):  # pragma: no cover - M is the value of a line maximum, always found
            raise RuntimeError("argmax: no grid point reaches M - tol; please report this instance")
        return out[trials]

    # -- second best -------------------------------------------------------------

    def _line_stats(self, rows: _Rows, thr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per line: number of t with v(t) >= thr and the largest value below thr (-inf if none)."""
        r = self.m - rows.used
        n = len(rows)
        cnt = np.zeros(n, dtype=np.int64)
        sec = np.full(n, -np.inf)
        short = r + 1 <= LINE_SCAN
        if np.any(short):
            idx = np.flatnonzero(short)
            width = int(r[idx].max()) + 1
            step = max(1, CHUNK // width)
            for s0 in range(0, idx.size, step):
                ii = idx[s0:s0 + step]
                t = np.broadcast_to(np.arange(width), (ii.size, width))
                inside = t <= r[ii, None]
                v = self.line_values(rows.take(ii), t)
                opt = inside & (v >= thr[ii, None])
                cnt[ii] = opt.sum(axis=1)
                sec[ii] = np.where(inside & ~opt, v, -np.inf).max(axis=1)
        if np.any(~short):
            idx = np.flatnonzero(~short)
            part = rows.take(idx)
            th = thr[idx]
            rr = r[idx]
            vmax, tb = self.line_max(part)
            has = vmax >= th
            left = np.where(has, self.first_at_least(part, th, tb), 0)
            right = np.where(has, self._last_at_least(part, th, tb, rr), -1)
            cnt[idx] = np.where(has, right - left + 1, 0)
            vl = self.line_values(part, np.clip(left - 1, 0, None)[:, None])[:, 0]
            vr = self.line_values(part, np.minimum(right + 1, rr)[:, None])[:, 0]
            s = np.where(has, -np.inf, vmax)
            s = np.where(has & (left > 0), np.maximum(s, vl), s)
            s = np.where(has & (right < rr), np.maximum(s, vr), s)
            sec[idx] = s
        return cnt, sec

    def second(self, M: np.ndarray, tol: float) -> tuple[np.ndarray, np.ndarray]:
        """Largest value below M - tol and the number of grid points at or above it, per trial."""
        B = self.obj.B
        thr = M - tol
        g = self.g
        inc2 = np.full(B, -np.inf)
        nopt = np.zeros(B, dtype=np.int64)

        keep = _Keep(inc2, g, True)

        def on_lines(rows):
            self.lines += np.bincount(rows.trial, minlength=B)
            c, s = self._line_stats(rows, thr[rows.trial])
            np.add.at(nopt, rows.trial, c)
            np.maximum.at(inc2, rows.trial, s)

        self.walk(np.arange(B), keep, on_lines, progressive=False)
        return inc2, nopt


# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------


def argmax(obj: Objective, grid: Grid, previous=None, tol: float = TIE_TOL, method: str = "auto") -> Decision:
    """Discrete argmax of an objective over a grid, with the binding tie rule.

    Implements the argmax of ``eq:ETC_alpha``, ``eq:UCB_alpha`` and
    ``eq:UCB_alpha2`` over the grids of :mod:`rsb_theory.grids`.

    Parameters
    ----------
    obj : Objective
    grid : Grid
    previous : array_like of int, shape (B, K-1), optional
        Coordinates of the previous choice per trial; a row of -1 means none.
        It is kept when v(previous) >= M - tol.
    tol : float
        Tie tolerance (default :data:`TIE_TOL`).
    method : {"auto", "bnb", "enumerate"}
        "enumerate" evaluates every grid point (reference; refuses grids larger
        than :data:`rsb_theory.discretization.MAX_ENUMERATION`, naming ``eps``);
        "bnb" is the fast exact path (concave h only); "auto" picks "bnb" when
        available.

    Returns
    -------
    Decision
    """
    obj = _check_obj(obj)
    grid = _check_grid(obj, grid)
    tol = _check_tol(tol)
    prev = _check_previous(obj, grid, previous)
    method = _resolve_method(obj, method)
    if method == "enumerate":
        M, first, _, _ = _enumerate_scan(obj, grid, tol, want_second=False)
        lines = np.full(obj.B, grid.size, dtype=np.int64)
        return _finish(obj, grid, M, first, prev, tol, "enumerate", lines)
    search = _Search(obj, grid)
    B = obj.B
    rows = np.arange(B)
    vprev = np.full(B, -np.inf)
    known = vprev
    if prev is not None:
        has = ~np.all(prev == -1, axis=1)
        if np.any(has):
            vprev[has] = _values_at(obj, grid, prev[has], rows[has])
            # the previous choice's neighbours are grid points: their values are lower bounds on M that
            # often reach the certificate of phase 1 (max h for ETC and RS-UCB) and end it at once
            known = np.maximum(vprev, _neighbour_best(obj, grid, prev, has))
    if search.needs_start or np.any(known < search.cert):
        inc = np.maximum(search.start(), known)
    else:
        inc = known  # every trial is certified already: no dive needed
    M = search.maximum(inc)
    need = ~(vprev >= M - tol)
    first = np.zeros((B, grid.K - 1), dtype=np.int64)
    if np.any(need):
        first[need] = search.first_optimal(np.flatnonzero(need), M - tol)
    return _finish(obj, grid, M, first, prev, tol, "bnb", search.lines)


@lru_cache(maxsize=16)
def _moves(k: int) -> np.ndarray:
    """Unit moves of the coordinates (n_1, ..., n_k) (the last arm takes the deficit): +-e_i and e_i - e_j."""
    eye = np.eye(k, dtype=np.int64)
    pairs = [eye[i] - eye[j] for i in range(k) for j in range(k) if i != j]
    out = np.concatenate([eye, -eye] + ([np.array(pairs)] if pairs else []), axis=0)
    out.setflags(write=False)
    return out


def _neighbour_best(obj: Objective, grid: Grid, prev: np.ndarray, has: np.ndarray) -> np.ndarray:
    """Best value among the grid points one unit move from ``prev`` (-inf where none or no previous)."""
    B = obj.B
    out = np.full(B, -np.inf)
    rows = np.flatnonzero(has)
    cand = prev[rows][:, None, :] + _moves(grid.K - 1)[None, :, :]  # (b, moves, K-1)
    ok = np.all(cand >= 0, axis=-1) & (cand.sum(axis=-1) <= grid.budget)
    if not ok.any():
        return out
    r_idx, m_idx = np.nonzero(ok)
    vals = _values_at(obj, grid, cand[r_idx, m_idx], rows[r_idx])
    np.maximum.at(out, rows[r_idx], vals)
    return out


def _finish(obj, grid, M, first, prev, tol, method, lines) -> Decision:
    B = obj.B
    rows = np.arange(B)
    kept = np.zeros(B, dtype=bool)
    if prev is not None:
        has = ~np.all(prev == -1, axis=1)
        if np.any(has):
            vp = _values_at(obj, grid, prev[has], rows[has])
            kept[has] = vp >= M[has] - tol
    counts = np.where(kept[:, None], prev if prev is not None else first, first)
    value = _values_at(obj, grid, counts, rows)
    return Decision(counts, points_of(grid, counts), value, M, kept, method, lines)


def second_best(obj: Objective, grid: Grid, tol: float = TIE_TOL, method: str = "auto"):
    """Best value M, best value outside the optimal set and the size of the optimal set.

    For Delta_min of ``eq:discrete_gap``: the optimal set is O = {v >= M - tol};
    ``second`` is the largest value outside O (-inf when O is the whole grid)
    and ``n_optimal`` = |O|, counted exactly.

    Returns
    -------
    best, second : numpy.ndarray, shape (B,)
    n_optimal : numpy.ndarray, shape (B,), int64
    """
    obj = _check_obj(obj)
    grid = _check_grid(obj, grid)
    tol = _check_tol(tol)
    method = _resolve_method(obj, method)
    if method == "enumerate":
        M, _, n_opt, second = _enumerate_scan(obj, grid, tol, want_second=True)
        return M, second, n_opt
    search = _Search(obj, grid)
    M = search.maximum(search.start())
    second, n_opt = search.second(M, tol)
    return M, second, n_opt
