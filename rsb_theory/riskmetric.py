"""The distortion riskmetric U_h of ``eq:wang_def``, symbolic and numeric.

For a distortion h (h(0) = 0) and a CDF Q, ``eq:wang_def`` is the signed
Choquet integral

    U_h(Q) = int_{-oo}^0 (h(1 - Q(x)) - h(1)) dx + int_0^oo h(1 - Q(x)) dx .

Symbolic routes (SymPy)
-----------------------
:func:`wang_integral` integrates ``eq:wang_def`` for a CDF given as a SymPy
``Piecewise`` in :data:`X`.  :func:`bernoulli_closed_form` feeds it the CDF of
Bern(p) and h(p) (``eq:h_1_p``) comes out of the integral;
:func:`mixture_of_bernoullis` feeds it the CDF of sum_i alpha_i Bern(p_i) and
h(<alpha, p>) comes out, which is ``eq:V`` for Bernoulli arms.
:func:`finite_support_symbolic` uses the exact step-function identity below
for laws with finitely many (possibly symbolic) atoms.

Numeric routes (NumPy / SciPy)
------------------------------
* :func:`finite_support`, :func:`bernoulli`, :func:`mixture_value` — the
  step-function identity split at 0 exactly as ``eq:wang_def`` is written,
  vectorised over leading batch axes;
* :func:`empirical` — the same identity for the empirical CDF (an L-statistic);
* :func:`quadrature` — ``scipy.integrate.quad`` on the survival function of a
  frozen ``scipy.stats`` law, the independent second route;
* :func:`wasserstein1_finite` — ``lemma:lipschitz-wasserstein``,
  W1 = int |F_a - F_b|.

Step-function identity
----------------------
For atoms x_1 <= ... <= x_m with masses pi_1, ..., pi_m the survival function
1 - Q is constant on [x_j, x_{j+1}), equal to S_j = P(X > x_j) = sum_{k>j} pi_k;
it is 1 left of x_1 and 0 from x_m on.  Inserting 0 as a massless atom, every
step lies on one side of 0 and ``eq:wang_def`` is the finite sum

    U_h = sum_{steps right of 0} (x_{j+1} - x_j) h(S_j)
        + sum_{steps left of 0}  (x_{j+1} - x_j) (h(S_j) - h(1)),

the half-lines contributing nothing (with 0 inserted, x_1 <= 0 <= x_m, and
the integrand is h(1) - h(1) = 0 left of x_1 and h(0) = 0 from x_m on).  The h(1) terms telescope, which gives the sign-free form

    U_h = x_1 h(1) + sum_{j=1}^{m-1} (x_{j+1} - x_j) h(S_j).

The numeric finite-support route uses the split form, the symbolic and the
empirical routes the telescoped form; the tests compare the two.

Input errors raise :class:`ValueError` whose message names the argument.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
import sympy as sp

from rsb_theory.distortions import U, Distortion
from .errors import ArgumentError

#: Integration variable of ``eq:wang_def``.
X = sp.Symbol("x", real=True)

#: Default Bernoulli parameter of :func:`bernoulli_closed_form`.
P = sp.Symbol("p", real=True)

#: Tolerance on "rows sum to one" (probability vectors and mixture weights).
SUM_TOL = 1e-9

#: Quantile levels used as break points by :func:`quadrature`.
_QUAD_LEVELS = (1e-9, 1e-3, 0.1, 0.5, 0.9, 1 - 1e-3, 1 - 1e-9)


# ---------------------------------------------------------------------------
# Symbolic routes
# ---------------------------------------------------------------------------


def _h_expr(d) -> sp.Expr:
    """The SymPy expression of h, from a :class:`Distortion` or an expression in ``u``.

    Other free symbols are family parameters (e.g. ``s`` of PHT) and stay symbolic;
    only the integration variable ``x`` and the mean ``p`` are reserved.
    """
    expr = d.expr if isinstance(d, Distortion) else d
    if not isinstance(expr, sp.Expr) or U not in expr.free_symbols | {U} or expr.free_symbols & {X, P}:
        raise ArgumentError("d", f"expected a Distortion or a SymPy expression in u, got {d!r}")
    return expr


def _drop_zero_pieces(expr: sp.Expr, thorough: bool) -> sp.Expr:
    """Replace pieces of a Piecewise that vanish by a literal 0.

    SymPy only integrates a piece over a half-line when it *sees* that the
    piece vanishes (e.g. h(1) - h(1) left of the support); an unrecognised
    zero comes back as ``oo*(...)``.  ``thorough=False`` tests with ``expand``
    (cheap), ``thorough=True`` with ``simplify``.
    """
    if not isinstance(expr, sp.Piecewise):
        return expr

    def vanishes(e: sp.Expr) -> bool:
        return (sp.simplify(e) if thorough else sp.expand(e)) == 0

    return sp.Piecewise(*[(sp.Integer(0) if vanishes(e) else e, c) for e, c in expr.args])


def _finite(value: sp.Expr) -> bool:
    return not (value.has(sp.Integral) or value.has(sp.oo, -sp.oo, sp.zoo, sp.nan))


def wang_integral(d, cdf: sp.Expr, x: sp.Symbol = X) -> sp.Expr:
    """U_h(Q) of ``eq:wang_def`` by symbolic integration.

    Parameters
    ----------
    d : Distortion or sympy.Expr
        The distortion h (an expression in :data:`rsb_theory.distortions.U`).
    cdf : sympy.Expr
        The CDF Q as an expression in ``x``, typically a ``Piecewise``.
    x : sympy.Symbol, optional
        The integration variable of ``cdf`` (default :data:`X`).

    Returns
    -------
    sympy.Expr
        int_{-oo}^0 (h(1 - Q) - h(1)) dx + int_0^oo h(1 - Q) dx, as returned by
        ``sympy.integrate`` (``Min`` in h comes back as a ``Piecewise``).

    Raises
    ------
    ValueError
        ``argument 'cdf'`` when SymPy leaves an integral unevaluated or finds it
        divergent (Q not a CDF, or h(0) != 0).
    """
    h = _h_expr(d)
    try:
        cdf = sp.sympify(cdf, strict=True)
    except sp.SympifyError:
        raise ArgumentError("cdf", f"expected a SymPy expression in x, got {cdf!r}") from None
    integrand = sp.piecewise_fold(h.subs(U, 1 - cdf))
    negative = sp.piecewise_fold(integrand - h.subs(U, 1))
    for thorough in (False, True):  # retry with simplify only if the cheap pass diverges
        value = (sp.integrate(_drop_zero_pieces(negative, thorough), (x, -sp.oo, 0))
                 + sp.integrate(_drop_zero_pieces(integrand, thorough), (x, 0, sp.oo)))
        if _finite(value):
            return value
    raise ArgumentError("cdf", f"eq:wang_def did not evaluate to a finite value for Q = {cdf}: {value}")


def _check_unit_interval_symbolic(value: sp.Expr, name: str) -> None:
    """Reject a number outside [0, 1]; symbolic values pass."""
    if value.is_number and (value.is_real is False or bool(value < 0) or bool(value > 1)):
        raise ArgumentError(name, f"{value} is outside [0, 1]")


def bernoulli_cdf(p: sp.Expr = P, x: sp.Symbol = X) -> sp.Piecewise:
    """CDF of Bern(p): 0 for x < 0, 1 - p on [0, 1), 1 for x >= 1."""
    return sp.Piecewise((0, x < 0), (1 - p, x < 1), (1, True))


def bernoulli_closed_form(d, p: sp.Expr = P) -> sp.Expr:
    """U_h(Bern(p)) by integrating ``eq:wang_def`` over the Bernoulli CDF.

    The result, h(p), is ``eq:h_1_p``; it is produced by ``sympy.integrate``
    over the piecewise CDF of :func:`bernoulli_cdf`, not substituted.

    Parameters
    ----------
    d : Distortion or sympy.Expr
        The distortion h.
    p : sympy.Expr, optional
        Success probability, a symbol (default :data:`P`) or a number in [0, 1].

    Returns
    -------
    sympy.Expr
        h(p), passed through ``sympy.simplify`` (``Min`` in h comes back as
        a ``Piecewise`` in p).

    Examples
    --------
    >>> from rsb_theory.distortions import get
    >>> bernoulli_closed_form(get("gini"))
    p*(1 - p)
    """
    try:
        p = sp.sympify(p, strict=True)
    except sp.SympifyError:
        raise ArgumentError("p", f"expected a SymPy expression or a number, got {p!r}") from None
    _check_unit_interval_symbolic(p, "p")
    return sp.simplify(wang_integral(d, bernoulli_cdf(p)))


def _symbolic_law(support: Sequence, probs: Sequence) -> tuple[list[sp.Expr], list[sp.Expr]]:
    """Sympify and check a finite law wherever the checks are decidable."""
    try:
        xs = [sp.sympify(v, strict=True) for v in support]
    except (TypeError, sp.SympifyError):
        raise ArgumentError("support", f"expected a sequence of numbers or expressions, got {support!r}") from None
    try:
        ps = [sp.sympify(v, strict=True) for v in probs]
    except (TypeError, sp.SympifyError):
        raise ArgumentError("probs", f"expected a sequence of numbers or expressions, got {probs!r}") from None
    if not xs:
        raise ArgumentError("support", "need at least one support point")
    if len(ps) != len(xs):
        raise ArgumentError("probs", f"has {len(ps)} entries, support has {len(xs)}")
    for a, b in zip(xs, xs[1:]):
        if (b - a).is_negative:
            raise ArgumentError("support", f"not sorted ascending ({a} > {b})")
    for v in ps:
        _check_unit_interval_symbolic(v, "probs")
    total = sp.simplify(sum(ps) - 1)
    if total.is_number and total != 0:
        raise ArgumentError("probs", f"sums to {sum(ps)}, not 1")
    return xs, ps


def finite_support_symbolic(d, support: Sequence, probs: Sequence) -> sp.Expr:
    """U_h of a finite-support law with (possibly symbolic) atoms, exactly.

    With atoms x_1 <= ... <= x_m, masses pi_j and S_j = P(X > x_j) =
    sum_{k>j} pi_k, the integrand of ``eq:wang_def`` is a step function and

        U_h = sum_{steps right of 0} (x_{j+1} - x_j) h(S_j)
            + sum_{steps left of 0} (x_{j+1} - x_j) (h(S_j) - h(1))
            = x_1 h(1) + sum_{j=1}^{m-1} (x_{j+1} - x_j) h(S_j)

    (0 inserted as a massless atom; the h(1) terms telescope).  The second,
    sign-free form is used, so the signs of symbolic atoms need not be known.

    Parameters
    ----------
    d : Distortion or sympy.Expr
        The distortion h.
    support : sequence
        Atoms, sorted ascending (numbers, rationals or symbols; negatives allowed).
    probs : sequence
        Masses, same length, summing to one (checked where decidable).

    Returns
    -------
    sympy.Expr
        Unsimplified sum; a number when all inputs are numbers.
    """
    h = _h_expr(d)
    xs, ps = _symbolic_law(support, probs)
    m = len(xs)
    tails = [sp.Add(*ps[j + 1:]) for j in range(m)]
    steps = [(xs[j + 1] - xs[j]) * h.subs(U, tails[j]) for j in range(m - 1)]
    return xs[0] * h.subs(U, 1) + sp.Add(*steps)


def step_cdf(support: Sequence, probs: Sequence, x: sp.Symbol = X) -> sp.Piecewise:
    """The CDF of a finite-support law as a SymPy ``Piecewise`` in ``x``.

    Q(x) = 0 for x < x_1, pi_1 + ... + pi_j on [x_j, x_{j+1}), 1 from x_m on;
    the input of :func:`wang_integral` for the direct symbolic route.
    """
    xs, ps = _symbolic_law(support, probs)
    pieces = [(sp.Integer(0), x < xs[0])]
    pieces += [(sp.Add(*ps[: j + 1]), x < xs[j + 1]) for j in range(len(xs) - 1)]
    pieces.append((sp.Add(*ps), True))
    return sp.Piecewise(*pieces)


def mixture_of_bernoullis(d, K: int) -> tuple[sp.Expr, tuple[sp.Symbol, ...], tuple[sp.Symbol, ...]]:
    """U_h(sum_i alpha_i Bern(p_i)) by integrating ``eq:wang_def`` (``eq:V``).

    The mixture CDF G = sum_i alpha_i Q_i is formed from the Bernoulli CDFs and
    folded into one ``Piecewise``: 0 for x < 0, sum_i alpha_i (1 - p_i) on
    [0, 1) and sum_i alpha_i from 1 on.  The simplex constraint is imposed by
    alpha_K = 1 - sum_{i<K} alpha_i *before* integrating: without it the
    integrand on [1, oo) is the constant h(1 - sum_i alpha_i) and the
    integral diverges.  With it, 1 - G = <alpha, p> on [0, 1) and 0 after,
    so the integral returns h(<alpha, p>): a Bernoulli mixture is
    Bern(<alpha, p>) and ``eq:h_1_p`` applies.  This is the step used in the
    proof of the Gini lemma (label ``example utility``) and behind every
    Bernoulli-family quantity of :mod:`rsb_theory.holder`.

    Parameters
    ----------
    d : Distortion or sympy.Expr
        The distortion h.
    K : int
        Number of arms, K >= 1.

    Returns
    -------
    expr : sympy.Expr
        The integral, in alpha_1..alpha_{K-1} and p_1..p_K (alpha_K eliminated).
    alphas : tuple of sympy.Symbol
        (alpha_1, ..., alpha_K); alpha_K does not occur in ``expr``.
    ps : tuple of sympy.Symbol
        (p_1, ..., p_K).
    """
    if isinstance(K, bool) or not isinstance(K, (int, np.integer)) or K < 1:
        raise ArgumentError("K", f"need an integer K >= 1, got {K!r}")
    K = int(K)
    alphas = tuple(sp.symbols(f"alpha_1:{K + 1}", real=True))
    ps = tuple(sp.symbols(f"p_1:{K + 1}", real=True))
    mixture = sp.piecewise_fold(sp.Add(*[a * bernoulli_cdf(p) for a, p in zip(alphas, ps)]))
    mixture = mixture.subs(alphas[-1], 1 - sp.Add(*alphas[:-1]))
    mixture = sp.Piecewise(*[(sp.expand(e), c) for e, c in mixture.args])
    return wang_integral(d, mixture), alphas, ps


# ---------------------------------------------------------------------------
# Validation of numeric input
# ---------------------------------------------------------------------------


def _as_h(h_numeric) -> Callable[[np.ndarray], np.ndarray]:
    if not callable(h_numeric):
        raise ArgumentError("h_numeric", f"expected a callable h(u) on arrays, got {h_numeric!r}")
    return h_numeric


def _eval_h(h: Callable, u) -> np.ndarray:
    """h(u) as a float array of u's shape; non-finite values are an error."""
    u = np.asarray(u, dtype=float)
    out = np.broadcast_to(np.asarray(h(u), dtype=float), u.shape)
    if not np.all(np.isfinite(out)):
        bad = u[~np.isfinite(out)].ravel()[0]
        raise ArgumentError("h_numeric", f"h is not finite at u = {bad!r}")
    return out


def _as_support(support, name: str = "support") -> np.ndarray:
    try:
        xs = np.asarray(support, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError(name, "expected an array of numbers") from None
    if xs.ndim != 1 or xs.size == 0:
        raise ArgumentError(name, f"expected a non-empty 1-d array, got shape {xs.shape}")
    if not np.all(np.isfinite(xs)):
        raise ArgumentError(name, "support points must be finite")
    if np.any(np.diff(xs) < 0):
        raise ArgumentError(name, "not sorted ascending")
    return xs


def _as_probs(probs, m: int, name: str = "probs", *, min_ndim: int = 1) -> np.ndarray:
    """Probability rows along the last axis: entries in [0, 1], rows summing to 1."""
    try:
        ps = np.asarray(probs, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError(name, "expected an array of numbers") from None
    if ps.ndim < min_ndim or ps.shape[-1] != m:
        raise ArgumentError(name, f"expected shape (..., {m}), got {ps.shape}")
    if not np.all(np.isfinite(ps)):
        raise ArgumentError(name, "entries must be finite")
    if np.any(ps < 0) or np.any(ps > 1):
        raise ArgumentError(name, f"entries must lie in [0, 1] (min {ps.min()!r}, max {ps.max()!r})")
    sums = ps.sum(axis=-1)
    err = np.abs(sums - 1.0)
    if np.any(err > SUM_TOL):
        worst = np.unravel_index(int(np.argmax(err)), err.shape)
        # rows are numbered from 1, as the paper numbers arms (a (K, m) array has one row per arm)
        row = ", ".join(str(int(i) + 1) for i in worst) if worst else "1"
        raise ArgumentError(name, f"rows must sum to 1 within {SUM_TOL:g}; row {row} sums to "
                         f"{float(sums[worst]):.12g}")
    return ps


# ---------------------------------------------------------------------------
# Numeric routes
# ---------------------------------------------------------------------------


def _survival_after_atoms(probs: np.ndarray) -> np.ndarray:
    """S_j = P(X > x_j) = sum_{k>j} pi_k for j = 1..m-1 (reverse cumulative sums)."""
    tail = np.cumsum(probs[..., ::-1], axis=-1)[..., ::-1]
    return np.clip(tail[..., 1:], 0.0, 1.0)


def _step_sum(h: Callable, xs: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """``eq:wang_def`` for atoms ``xs`` and rows ``probs``, split at 0 (no validation)."""
    k = int(np.searchsorted(xs, 0.0))
    xs0 = np.insert(xs, k, 0.0)
    probs0 = np.insert(probs, k, 0.0, axis=-1)
    widths = np.diff(xs0)  # steps [x_j, x_{j+1}), each on one side of 0
    left_of_zero = xs0[1:] <= 0.0
    h1 = float(_eval_h(h, 1.0))
    integrand = _eval_h(h, _survival_after_atoms(probs0)) - np.where(left_of_zero, h1, 0.0)
    return np.sum(widths * integrand, axis=-1)


def finite_support(h_numeric: Callable, support, probs) -> np.ndarray:
    """U_h (``eq:wang_def``) of finite-support laws, exactly, vectorised.

    Uses the step-function identity of the module docstring in its split form:
    0 is inserted as a massless atom and each step [x_j, x_{j+1}) contributes
    (x_{j+1} - x_j) h(S_j) right of 0 and (x_{j+1} - x_j)(h(S_j) - h(1)) left
    of 0, with S_j = P(X > x_j).

    Parameters
    ----------
    h_numeric : callable
        Vectorised h on [0, 1] with h(0) = 0 (e.g. ``Distortion.numeric``).
    support : array_like, shape (m,)
        Atoms sorted ascending (ties and negative values allowed).
    probs : array_like, shape (..., m)
        Masses, rows in [0, 1] summing to 1 (tolerance :data:`SUM_TOL`);
        zero masses allowed.

    Returns
    -------
    numpy.ndarray, shape (...)
        One value per row (a NumPy scalar for a single row).
    """
    h = _as_h(h_numeric)
    xs = _as_support(support)
    ps = _as_probs(probs, xs.size)
    return _step_sum(h, xs, ps)


def bernoulli(h_numeric: Callable, p) -> np.ndarray:
    """U_h(Bern(p)) = h(p) (``eq:h_1_p``) via :func:`finite_support` on {0, 1}.

    Parameters
    ----------
    h_numeric : callable
    p : array_like
        Success probabilities in [0, 1], any shape.

    Returns
    -------
    numpy.ndarray
        Same shape as ``p``.
    """
    try:
        p = np.asarray(p, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError("p", "expected numbers in [0, 1]") from None
    if not np.all(np.isfinite(p)) or np.any(p < 0) or np.any(p > 1):
        raise ArgumentError("p", "success probabilities must lie in [0, 1]")
    return finite_support(h_numeric, [0.0, 1.0], np.stack([1.0 - p, p], axis=-1))


def empirical(h_numeric: Callable, samples) -> np.ndarray:
    """U_h of the empirical CDF of ``samples`` (``eq:wang_def``), exact, vectorised.

    With order statistics x_(1) <= ... <= x_(n) the survival function on
    [x_(k), x_(k+1)) is (n - k)/n, so by the telescoped step identity

        U_h(F_n) = x_(1) h(1) + sum_{k=1}^{n-1} (x_(k+1) - x_(k)) h((n - k)/n).

    Parameters
    ----------
    h_numeric : callable
    samples : array_like, shape (..., n)
        n >= 1 samples along the last axis, any leading batch axes.

    Returns
    -------
    numpy.ndarray, shape (...)
    """
    h = _as_h(h_numeric)
    try:
        xs = np.asarray(samples, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError("samples", "expected an array of numbers") from None
    if xs.ndim == 0 or xs.shape[-1] == 0:
        raise ArgumentError("samples", f"expected shape (..., n) with n >= 1, got {xs.shape}")
    if not np.all(np.isfinite(xs)):
        raise ArgumentError("samples", "samples must be finite")
    xs = np.sort(xs, axis=-1)
    n = xs.shape[-1]
    weights = _eval_h(h, np.arange(n - 1, 0, -1) / n)
    return xs[..., 0] * float(_eval_h(h, 1.0)) + np.diff(xs, axis=-1) @ weights


def quadrature(h_numeric: Callable, dist, *, epsabs: float = 1e-11, epsrel: float = 1e-10, limit: int = 200) -> float:
    """U_h of a continuous law by ``scipy.integrate.quad`` (independent route).

    The integrand of ``eq:wang_def`` is h(dist.sf(x)) - h(1) left of 0 and
    h(dist.sf(x)) right of 0.  The range [min(a, 0), max(b, 0)] (a, b the ends
    of ``dist.support()``) is cut at 0, at the finite ends and at the
    quantiles :data:`_QUAD_LEVELS`, so that every piece lies on one side of 0
    and the mass is never missed by the adaptive rule; infinite tails are
    passed to ``quad`` with infinite limits.  Outside the support the
    integrand is 0 left of 0 and constant in between, which the cut handles.

    Parameters
    ----------
    h_numeric : callable
    dist : frozen scipy.stats distribution
        Must provide ``sf``, ``ppf`` and ``support``.
    epsabs, epsrel, limit
        Passed to each ``quad`` call.

    Returns
    -------
    float
    """
    from scipy import integrate  # imported here: the rest of this module, and so `rsb derive`, needs no SciPy

    h = _as_h(h_numeric)
    if not all(hasattr(dist, attr) for attr in ("sf", "ppf", "support")):
        raise ArgumentError("dist", f"expected a frozen scipy.stats distribution, got {dist!r}")
    a, b = (float(v) for v in dist.support())
    h1 = float(_eval_h(h, 1.0))

    def right(x: float) -> float:
        return float(_eval_h(h, min(max(float(dist.sf(x)), 0.0), 1.0)))

    def left(x: float) -> float:
        return right(x) - h1

    lo, hi = min(a, 0.0), max(b, 0.0)
    knots = {0.0} | {v for v in (lo, hi) if np.isfinite(v)}
    knots |= {float(q) for q in dist.ppf(_QUAD_LEVELS) if np.isfinite(q) and lo <= q <= hi}
    knots = sorted(knots)
    opts = dict(epsabs=epsabs, epsrel=epsrel, limit=limit)
    total = 0.0
    if not np.isfinite(lo):
        total += integrate.quad(left, -np.inf, knots[0], **opts)[0]
    for s, t in zip(knots, knots[1:]):
        total += integrate.quad(left if t <= 0.0 else right, s, t, **opts)[0]
    if not np.isfinite(hi):
        total += integrate.quad(right, knots[-1], np.inf, **opts)[0]
    return float(total)


def wasserstein1_finite(support, probs_a, probs_b) -> np.ndarray:
    """W1 between finite-support laws on a common support (``lemma:lipschitz-wasserstein``).

    W1 = int |F_a - F_b| dx = sum_{j=1}^{m-1} (x_{j+1} - x_j) |F_a(x_j) - F_b(x_j)|.

    Parameters
    ----------
    support : array_like, shape (m,)
        Sorted ascending.
    probs_a, probs_b : array_like, shapes (..., m) broadcastable
        Probability rows.

    Returns
    -------
    numpy.ndarray
        Broadcast batch shape.
    """
    xs = _as_support(support)
    pa = _as_probs(probs_a, xs.size, "probs_a")
    pb = _as_probs(probs_b, xs.size, "probs_b")
    try:
        cdf_gap = np.cumsum(pa - pb, axis=-1)[..., :-1]
    except ValueError:
        raise ArgumentError("probs_b", f"shape {pb.shape} does not broadcast with probs_a {pa.shape}") from None
    return np.sum(np.diff(xs) * np.abs(cdf_gap), axis=-1)


def mixture_value(h_numeric: Callable, support, arm_probs, alpha) -> np.ndarray:
    """V(alpha, F) = U_h(sum_i alpha_i F_i) of ``eq:V`` for finite-support arms.

    Parameters
    ----------
    h_numeric : callable
    support : array_like, shape (m,)
        Common sorted support of the arms.
    arm_probs : array_like, shape (K, m)
        Row i is the law of arm i.
    alpha : array_like, shape (..., K)
        Mixture weights on the simplex (non-negative, rows summing to 1).

    Returns
    -------
    numpy.ndarray, shape (...)

    Notes
    -----
    The mixture CDF is sum_i alpha_i F_i, i.e. the masses alpha @ arm_probs.
    ``lemma:risk-concave``: for concave h, V(., F) is concave in alpha and
    V(alpha, F) >= sum_i alpha_i U_h(F_i).  The paper's proof writes only the
    integral over [0, oo); the h(1) of the negative half-line is affine in
    alpha, so the statement holds for signed supports too (tested).
    """
    h = _as_h(h_numeric)
    xs = _as_support(support)
    arms = _as_probs(arm_probs, xs.size, "arm_probs")
    if arms.ndim != 2:
        raise ArgumentError("arm_probs", f"expected shape (K, {xs.size}), got {arms.shape}")
    weights = _as_probs(alpha, arms.shape[0], "alpha")
    # summed left to right over the arms: a row's value does not depend on the batch it is in
    mix = weights[..., 0, None] * arms[0]
    for i in range(1, arms.shape[0]):
        mix = mix + weights[..., i, None] * arms[i]
    return _step_sum(h, xs, np.clip(mix, 0.0, 1.0))
