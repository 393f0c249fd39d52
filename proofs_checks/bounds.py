"""The eps-dependent regret bounds of the paper evaluated numerically for one instance.

* ``theorem: ETC upper bound`` (RS-ETC-M)::

      R^E(T) <= (L K + W^-q) (3 W M(eps) log T / T)^q + Delta(eps),   for T > N(eps),

  with M(eps) = N(eps) / log T and N(eps) of ``eq:number of samples main paper``.
* ``theorem:UCB upper bound`` (RS-UCB-M and CE-UCB-M)::

      R^pi(T) <= [B + L (W^q + 1)] [64/sqrt(eps rho T) (sqrt(2 e log T) + 32)]^q + Delta(eps),
      for T > max(e^K, T(eps)).

The formulas are :func:`rsb_theory.rates.etc_bound_eps` /
:func:`rsb_theory.rates.ucb_bound_eps` (lambdified, never retyped); the
constants are derived for the instance: q and L of ``assumption:Holder`` from
:func:`rsb_theory.holder.holder`; W from :func:`rsb_theory.oracle.W_bernoulli`;
Delta(eps) = V(alpha*) - V(a*) and Delta_min(eps) (``eq:discrete_gap``) by
:func:`rsb_theory.discretization.discrete_optimum` on the algorithm's grid
(``etc`` for RS-ETC-M, ``ucb`` for the UCBs); N(eps) and T(eps) from
:mod:`rsb_sim.config` / :func:`rsb_theory.rates.T_of_eps`.

B: the paper uses "the DR is bounded above by B" (proofs of the two theorems)
without defining B; we take B = sup over laws on [0, 1] of U_h = max_u h(u)
(U_h(F) = int_0^1 h(1 - F(x)) dx <= max h), which is exact for Bernoulli arms.

The *trivial bound* is V* - min_alpha V(alpha) = max h - min h on
[min p, max p]; a bound at or above it is *vacuous*.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from rsb_theory import rates

from rsb_sim.policies import catalog
from rsb_theory.errors import ArgumentError

#: The paper's bound of each algorithm that has one (each policy's declaration ``theorem``).
BOUND_LABELS = {p.name: p.theorem for p in catalog.policies() if p.theorem is not None}


@dataclass(frozen=True)
class InstanceConstants:
    """Constants of one (distortion, Bernoulli instance) used by the bounds.

    Attributes
    ----------
    K : int
    q, L : float
        Hölder exponent and constant of h on [0, 1] (``assumption:Holder``).
    W : float
        W of the instance (:func:`rsb_theory.oracle.W_bernoulli`).
    B : float
        max_u h(u) on [0, 1] (bound on U_h; see the module docstring).
    v_star : float
        V(alpha*) = max h on [min p, max p].
    trivial : float
        V* - min_alpha V(alpha) (largest possible regret).
    """

    K: int
    q: float
    L: float
    W: float
    B: float
    v_star: float
    trivial: float


@lru_cache(maxsize=64)
def _constants(dr: str, params: tuple, p: tuple) -> InstanceConstants:
    from rsb_theory.distortions import resolve
    from rsb_theory.oracle import W_bernoulli
    from rsb_theory.profile import of

    d = resolve(dr, **dict(params))
    prof = of(d)
    hr = prof.holder()
    B = prof.sup_h()
    lo, hi = min(p), max(p)
    v_star = prof.sup_h((lo, hi))
    xs = np.concatenate([np.linspace(lo, hi, 20001), [lo, hi]])
    v_min = float(np.min(d.numeric(xs)))
    return InstanceConstants(len(p), float(hr.q), float(hr.L_H), float(W_bernoulli(np.array(p))), B, v_star,
                             v_star - v_min)


def instance_constants(dr: str, params: dict | None, p) -> InstanceConstants:
    """:class:`InstanceConstants` of ``dr`` (registry name or expression) on Bernoulli means ``p`` (cached)."""
    return _constants(dr, tuple(sorted((params or {}).items())), tuple(float(x) for x in p))


@lru_cache(maxsize=4)
def _lambdified(kind: str):
    """The discrete-regret term of the theorem as an mpmath function of (T, K, eps, q, L, W, B, rho, Delta_min)."""
    eb = rates.etc_bound_eps() if kind == "etc" else rates.ucb_bound_eps()
    syms = (rates.T, rates.K, rates.eps, rates.q, rates.L, rates.W, rates.B, rates.rho, rates.Delta_min)
    return sp.lambdify(syms, eb.discrete_regret, "mpmath")


def _eval(kind: str, *args) -> float:
    import mpmath

    with mpmath.workdps(30):
        v = _lambdified(kind)(*(mpmath.mpf(a) for a in args))
    try:
        return float(v)
    except (OverflowError, TypeError):
        return math.inf


@dataclass(frozen=True)
class BoundPoint:
    """A theorem's bound at one horizon.

    Attributes
    ----------
    T : int
    eps : float
    discrete : float
        The discrete-regret term.
    Delta : float
        Delta(eps) (exact, on the algorithm's grid).
    bound : float
        discrete + Delta.
    Delta_min : float
    threshold : float
        N(eps) (ETC) or max(e^K, T(eps)) (UCB): the theorem needs T > threshold.
    side_ok : bool
        Whether T > threshold.
    vacuous : bool
        bound >= trivial bound.
    label : str
    """

    T: int
    eps: float
    discrete: float
    Delta: float
    bound: float
    Delta_min: float
    threshold: float
    side_ok: bool
    vacuous: bool
    label: str

    def to_dict(self) -> dict:
        return asdict(self)


def theorem_bound(algo: str, dr: str, params: dict | None, p, T: int, eps: float | None = None,
                  rho: float = 0.1) -> BoundPoint:
    """Evaluate the eps-dependent theorem for ``algo`` at horizon ``T``.

    Parameters
    ----------
    algo : {"rs-etc-m", "rs-ucb-m", "ce-ucb-m"}
    dr, params, p
        Distortion and Bernoulli means.
    T : int
    eps : float, optional
        Default sqrt(K log T / T) (``sec: experiments``).
    rho : float
        Exploration rate (UCB bound and T(eps)).

    Returns
    -------
    BoundPoint

    Raises
    ------
    ValueError
        ``algo`` without a bound in the paper (names ``algo``).
    """
    from rsb_theory.discretization import discrete_optimum
    from rsb_theory.distortions import resolve

    _check_algo(algo)
    c = instance_constants(dr, params, p)
    T, eps = int(T), _eps(c.K, T, eps)
    opt = discrete_optimum(resolve(dr, **(params or {})), np.asarray(p, dtype=float), eps, grid_of(algo))
    return _bound_point(algo, c, T, eps, rho, opt)


def grid_of(algo: str) -> str:
    """The grid of ``algo``'s discretisation (its declaration): ``etc`` for RS-ETC-M, ``ucb`` for the UCBs."""
    return catalog.get(algo).grid


def _check_algo(algo: str) -> None:
    if algo not in BOUND_LABELS:
        raise ArgumentError("algo", f"the paper proves no regret bound for {algo!r}; "
                         f"bounds exist for {', '.join(BOUND_LABELS)}")


def _eps(K: int, T: int, eps: float | None) -> float:
    """eps as run: the experiments' sqrt(K log T / T) by default, at most 1."""
    return min(float(math.sqrt(K * math.log(T) / T) if eps is None else eps), 1.0)


def _bound_point(algo: str, c: InstanceConstants, T: int, eps: float, rho: float, opt) -> BoundPoint:
    """The theorem's bound of ``algo`` from the constants ``c`` and the discrete optimum ``opt`` on its grid."""
    from rsb_theory.rates import N_eps_value

    K = c.K
    if grid_of(algo) == "etc":  # theorem: ETC upper bound, with its side condition T > N(eps)
        N = N_eps_value(K, T, eps, c.L, c.q, opt.Delta_min)
        disc = _eval("etc", T, K, eps, c.q, c.L, c.W, c.B, rho, opt.Delta_min) if math.isfinite(N) else math.inf
        threshold = N
    else:
        disc = _eval("ucb", T, K, eps, c.q, c.L, c.W, c.B, rho, opt.Delta_min)
        if math.isfinite(opt.Delta_min) and opt.Delta_min > 0:
            T_eps = rates.T_of_eps(eps, rho, opt.Delta_min, K, c.L, c.q).T_eps
        else:
            T_eps = 0.0 if math.isinf(opt.Delta_min) else math.inf
        threshold = max(math.exp(K), T_eps)
    bound = float(disc) + float(opt.Delta)
    return BoundPoint(T, eps, float(disc), float(opt.Delta), bound, float(opt.Delta_min), float(threshold),
                      bool(T > threshold), bool(bound >= c.trivial), BOUND_LABELS[algo])


# ---------------------------------------------------------------------------
# arms of any laws (--arms)
# ---------------------------------------------------------------------------
def laws_constants(dr: str, params: dict | None, laws) -> InstanceConstants:
    """:class:`InstanceConstants` of ``dr`` on arm laws (``--arms``), as ``rsb derive --arms`` gives them.

    L is L_MH = L_H b^(1-q) with r = q for laws on [0, b] (the appendix's paragraph on Hölder
    exponents; the W1-Hölder constant of U_h that :mod:`rsb_sim.setup` also uses), W of
    :func:`rsb_theory.oracle.W_laws`, B = b max h (U_h(F) = int_0^b h(1 - F(x)) dx <= b max h),
    v_star = V(alpha*) (:func:`rsb_theory.oracle.optimal_mixture_laws`), and the trivial bound is V*
    itself (U_h >= 0, so the regret is at most V*; min_alpha V is not computed for general laws).
    """
    from rsb_theory.distortions import resolve
    from rsb_theory.oracle import W_laws, optimal_mixture_laws
    from rsb_theory.profile import of

    d = resolve(dr, **(params or {}))
    prof = of(d)
    q = float(prof.q)
    b = max(law.support[1] for law in laws)
    h_max = prof.sup_h()
    v_star = float(optimal_mixture_laws(d, laws).value)
    return InstanceConstants(len(laws), q, prof.w1_constant(b), float(W_laws(laws)), b * h_max,
                             v_star, v_star)


def laws_bound(algo: str, dr: str, params: dict | None, laws, c: InstanceConstants, T: int,
               eps: float | None = None, rho: float = 0.1) -> BoundPoint:
    """:func:`theorem_bound` on arm laws, with the constants ``c`` of :func:`laws_constants`.

    Delta(eps) and Delta_min(eps) come from :func:`rsb_theory.laws.discrete.discrete_optimum_laws` (the grid
    enumerated, V exact for discrete laws, by quadrature to 1e-9 otherwise), so the side conditions are
    checked as for Bernoulli arms.

    Raises
    ------
    ValueError
        ``algo`` without a bound (names ``algo``); the grid above the enumeration budget (names ``eps``).
    """
    from rsb_theory.distortions import resolve
    from rsb_theory.laws.discrete import discrete_optimum_laws

    _check_algo(algo)
    T, eps = int(T), _eps(c.K, T, eps)
    opt = discrete_optimum_laws(resolve(dr, **(params or {})), laws, eps, grid_of(algo), v_star=c.v_star)
    return _bound_point(algo, c, T, eps, rho, opt)
