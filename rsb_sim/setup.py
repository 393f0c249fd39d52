"""Everything a policy needs that is fixed before the first pull.

:func:`prepare` turns a :class:`~rsb_sim.config.SimConfig`, an instance, a
distortion and an algorithm name into a frozen :class:`Setup`: eps and the
grid, the exploration count per arm, the Hölder q and L of ``h``
(:func:`rsb_theory.holder.holder`, never typed in), the confidence-radius
constant, N(eps) and Delta_min(eps) for RS-ETC-M, and the plain-words
warnings when a paper default makes the algorithm degenerate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rsb_theory.distortions import Distortion
from rsb_theory.grids import Grid

from rsb_theory.rates import N_eps_value, radius_constant

from .options import NOT_PAPER, READS, check_distortion
from .config import (
    ALGORITHMS,
    SimConfig,
    etc_explore_per_arm,
    ucb_explore_per_arm,
)
from .rewards import DEFAULT_BLOCK, auto_block
from .rules import confidence_radius


@dataclass(frozen=True)
class Setup:
    """Constants of one run (see :func:`prepare`).

    Attributes
    ----------
    algo : str
    K, T : int
    eps : float or None
        The grid's level; for an algorithm without a grid the experiments' default as recorded, None where
        it is not in (0, 1] (K log T > T).
    grid : rsb_theory.grids.Grid or None
        ``etc`` grid for RS-ETC-M, mid-point ``ucb`` grid for the UCBs, None for uniform.
    n0 : int or None
        Pulls per arm in the round-robin exploration, exact however large (ETC:
        ceil(N(eps)/K), None when N(eps) is infinite; UCBs: ceil(rho T eps / 4);
        ``explore`` for every algorithm when it is given; uniform: 0).  Only the
        first T pulls of an exploration longer than the horizon happen
        (:attr:`explore_steps`).
    radius_c : float
        radius_scale * 16 (sqrt(2 e log T) + 32); the radius of arm i is radius_c / sqrt(tau_i).
    q, L : float
        Hölder exponent and constant of h on Bernoulli laws (``assumption:Holder``).
    L_bonus : float
        The constant used in the bonus of ``eq:UCB_alpha2``: L for Bernoulli arms,
        L * b^(1 - q) for finite-support arms on [0, b] (the W1-Hölder constant of
        U_h on laws supported in [0, b]: int |h(S) - h(S')| <= L int |S - S'|^q
        <= L b^(1-q) W1^q by Jensen).
    u_star : float
        A maximiser of h on [0, 1] (RS-UCB-M with concave h: max of h on [x, y]
        is h(clip(u_star, x, y))).
    N_eps : float or None
        ETC: N(eps) of ``eq:number of samples main paper``; None when ``explore``
        replaces ceil(N(eps)/K) (the exploration is then K * explore pulls).
    Delta_min : float or None
        ETC: Delta_min(eps) of the true instance on the etc grid (``eq:discrete_gap``);
        None when ``explore`` is given (N(eps), its only use, is not computed).
    warnings : tuple of str
    threads : int
        Threads of CE-UCB-M's compiled time loop (``SimConfig.threads`` resolved);
        no effect on any result.
    block : int
        Rewards drawn per refill of a (trial, arm) stream: ``SimConfig.block``, or, when it is left
        at its default, :func:`rsb_sim.rewards.auto_block` (larger for long runs); no effect on
        any reward.
    compiled : bool
        CE-UCB-M may use its compiled loop (``SimConfig.compiled``); no effect on any result.
    enum_budget : int or None
        The NumPy searcher's work budget (``SimConfig.enum_budget``); no effect on any result.
    """

    algo: str
    K: int
    T: int
    eps: float | None
    grid: Grid | None
    n0: int
    radius_c: float
    q: float
    L: float
    L_bonus: float
    u_star: float
    N_eps: float | None
    Delta_min: float | None
    warnings: tuple[str, ...]
    threads: int = 1
    block: int = DEFAULT_BLOCK
    compiled: bool = True
    enum_budget: int | None = None

    @property
    def explore_steps(self) -> int:
        """Length of the round-robin phase, min(T, K n0) (T when n0 is None: infinite)."""
        return self.T if self.n0 is None else min(self.T, self.K * self.n0)

    def radius(self, tau: np.ndarray) -> np.ndarray:
        """radius_scale * 16 (sqrt(2 e log T) + 32) / sqrt(tau) (``eq:UCB_confidence_sets``,
        :func:`rsb_sim.rules.confidence_radius`)."""
        return confidence_radius(self.radius_c, tau)


def true_gap(d: Distortion, instance, grid: Grid) -> float:
    """Delta_min(eps) of ``eq:discrete_gap`` for the true instance: best minus best non-optimal grid value.

    Full enumeration of the grid in lexicographic blocks with the canonical
    :func:`rsb_theory.argmax.values` (two passes: M, then the best value below
    M - TIE_TOL).  With several optimal grid points the gap is to the best
    point outside the optimal set (the literal ``a != a*`` reading would give 0
    and N(eps) = inf).
    """
    from rsb_theory import argmax as am
    from rsb_theory.argmax.rule import TIE_TOL

    if hasattr(instance, "true_values"):  # arm laws of --arms: V on the true laws (rsb_sim.arm_laws)
        def values_of(block):
            return instance.true_values(d, am.points_of(grid, block))
    else:
        obj = _true_objective(d, instance)

        def values_of(block):
            return am.values(obj, grid, block)[0]
    M = -math.inf
    for block in am.lex_blocks(grid):
        M = max(M, float(values_of(block).max()))
    second = -math.inf
    for block in am.lex_blocks(grid):
        v = values_of(block)
        below = v[v < M - TIE_TOL]
        if below.size:
            second = max(second, float(below.max()))
    return M - second if math.isfinite(second) else math.inf


def _true_objective(d: Distortion, instance):
    """``eq:ETC_alpha`` on the true laws: h(<a, p>) (Bernoulli) or U_h(sum_i a_i F_i) (finite support)."""
    from rsb_theory import argmax as am

    if instance.kind == "bernoulli":
        return am.etc_objective(d, np.asarray(instance.p)[None, :])
    return am.etc_objective_finite(d, np.asarray(instance.support, dtype=float),
                                   np.asarray(instance.probs, dtype=float)[None])


def prepare(cfg: SimConfig, instance, d: Distortion, algo: str) -> Setup:
    """Validate the combination and compute the constants of the run.

    Raises
    ------
    ValueError
        Unknown ``algo``; T < K (names ``T``); eps too coarse for the grid (names
        ``eps``); RS-UCB-M with finite-support arms or non-concave h (names ``algo``
        / ``dr``); a Hölder constant that is not finite (names ``dr``).

    Notes
    -----
    Finite-support arms run with RS-ETC-M, CE-UCB-M and uniform.  Delta_min(eps)
    is then computed on the true laws with
    :func:`rsb_theory.argmax.etc_objective_finite`, and N(eps) uses L_H =
    L b^(1-q) (``L_bonus``), the W1-Hölder constant of U_h on laws on [0, b].
    """
    from rsb_theory.holder import holder, optimal_means

    if algo not in ALGORITHMS:
        raise ValueError(f"argument 'algo': unknown algorithm {algo!r}; known: {', '.join(ALGORITHMS)}")
    K, T = instance.K, cfg.T
    cfg.check_K(K)
    # eps is the grid's: an algorithm without a grid records the experiments' default where it is a level
    # (in (0, 1]) and None where K log T > T -- it must still run (issue 28)
    eps = cfg.eps_for(K) if "eps" in READS[algo] else _recorded_eps(cfg, K)
    if algo in NOT_PAPER:
        return _solitary(cfg, instance, d, algo, eps)
    warnings: list[str] = []
    grid = None
    q = L = L_bonus = float("nan")
    u_star = float("nan")
    n0 = 0
    N = Dmin = None
    radius_c = cfg.radius_scale * radius_constant(T) if T > 1 else 0.0
    block = auto_block(T, cfg.trials, K) if cfg.block == DEFAULT_BLOCK else cfg.block
    if algo == "uniform":
        return Setup(algo, K, T, eps, None, 0, radius_c, q, L, L_bonus, u_star, None, None, (), cfg.threads_for(),
                     block, cfg.compiled, cfg.enum_budget)
    if algo == "rs-ucb-m":
        if instance.kind != "bernoulli":
            raise ValueError("argument 'algo': rs-ucb-m is implemented for Bernoulli arms only (the Jensen "
                             "reduction of eq:UCB_alpha to an interval of means is exact only there)")
        if not d.shape.is_concave:
            raise ValueError(f"argument 'dr': rs-ucb-m needs a concave h (Jensen reduction of eq:UCB_alpha); "
                             f"{d.describe()} is not concave")
    hr = holder(d)
    q, L = float(hr.q), float(hr.L_H)
    if not (hr.attained and math.isfinite(L)) and algo in ("rs-etc-m", "ce-ucb-m"):
        raise ValueError(f"argument 'dr': h has no finite Hölder constant at exponent q = {hr.q}; "
                         f"{algo} needs one")
    L_bonus = L * instance.width ** (1.0 - q) if instance.kind != "bernoulli" else L
    tops = optimal_means(d, 0, 1)
    u_star = float(tops[0])
    if algo == "rs-etc-m":
        grid = Grid(K, eps, "etc")
        if cfg.explore is not None:
            n0 = int(cfg.explore)
            if K * n0 >= T:
                warnings.append(
                    f"RS-ETC-M never commits: an exploration of {n0} pulls per arm (explore) and "
                    f"K*{n0} = {K * n0} >= T = {T}, so every pull is round-robin exploration")
        else:
            Dmin = true_gap(d, instance, grid)
            # the L_H of eq:Holder (W1-Hölder constant of U_h): L on [0, 1], L b^(1-q) on [0, b]
            N = N_eps_value(K, T, eps, L_bonus, q, Dmin)
            n0 = etc_explore_per_arm(N, K)
            if n0 is None or K * n0 >= T:
                warnings.append(
                    f"RS-ETC-M never commits: the exploration of eq:number of samples main paper, "
                    f"N(eps) = {_size(N)} (Delta_min(eps) = {Dmin:.3g}), asks for ceil(N(eps)/K) = "
                    f"{_size(None if n0 is None else n0)} pulls per arm and K*ceil(N(eps)/K) >= T = {T}, so every "
                    f"pull is round-robin exploration")
    else:
        grid = Grid(K, eps, "ucb")
        n0 = ucb_explore_per_arm(cfg, K)
        if K * n0 >= T:
            warnings.append(
                f"{algo.upper()} never tracks: forced exploration of {n0} pulls per arm and K*{n0} >= T = {T}, "
                f"so every pull is round-robin")
        else:
            max_tau = T - (K - 1) * n0
            smallest = float(confidence_radius(radius_c, max_tau))
            if smallest >= instance.width:
                warnings.append(
                    f"{algo.upper()}: the confidence radius of eq:UCB_confidence_sets is >= {instance.width:g} at "
                    f"every t (radius_scale*16(sqrt(2e log T)+32)/sqrt(tau) >= {smallest:.3g} "
                    f"for tau <= {max_tau}), so every law on the support is in every confidence set"
                    + ("; the optimistic value is the same for every mixture and the first mixture is kept"
                       if algo == "rs-ucb-m" else "; the exploration bonus dominates the estimate"))
    return Setup(algo, K, T, eps, grid, n0, radius_c, q, L, L_bonus, u_star, N, Dmin, tuple(warnings),
                 cfg.threads_for(), block, cfg.compiled, cfg.enum_budget)


def _recorded_eps(cfg: SimConfig, K: int) -> float | None:
    """eps as recorded by an algorithm that reads none: ``cfg.eps``, or the default when it is in (0, 1], else None."""
    try:
        return cfg.eps_for(K)
    except ValueError:
        return None


def _solitary(cfg: SimConfig, instance, d: Distortion, algo: str, eps: float) -> Setup:
    """The constants of a solitary baseline (UCB1, DR-UCB; :mod:`rsb_sim.policies.dr_ucb`).

    No grid; ``eps`` is recorded as for the uniform policy and not used.  n0 = ``explore`` or 1
    round-robin pulls per arm.
    DR-UCB's bonus is L_H r_i^q with r_i = radius_c / sqrt(tau_i), the radius of
    ``eq:UCB_confidence_sets`` (radius_c = radius_scale * 16 (sqrt(2 e log T) + 32)), and L_H
    the W1-Hölder constant of U_h (``assumption:Holder``; ``L_bonus`` = L b^(1-q) on [0, b]).
    The warning says in words when the radius is at least b at every t (the bonus dominates), as for the UCBs.
    """
    from rsb_theory.holder import holder

    K, T = instance.K, cfg.T
    n0 = int(cfg.explore) if cfg.explore is not None else 1
    warnings: list[str] = []
    q = L = L_bonus = float("nan")
    radius_c = 0.0
    if K * n0 >= T:
        warnings.append(f"{algo.upper()} never uses its index: an exploration of {n0} pulls per arm and "
                        f"K*{n0} = {K * n0} >= T = {T}, so every pull is round-robin")
    if algo == "dr-ucb":
        radius_c = cfg.radius_scale * radius_constant(T) if T > 1 else 0.0
        hr = holder(d)
        q, L = float(hr.q), float(hr.L_H)
        if not (hr.attained and math.isfinite(L)):
            raise ValueError(f"argument 'dr': h has no finite Hölder constant at exponent q = {hr.q}; "
                             f"dr-ucb needs one for its bonus L_H r^q")
        L_bonus = L * instance.width ** (1.0 - q)
        max_tau = T - (K - 1) * n0
        if K * n0 < T and float(confidence_radius(radius_c, max_tau)) >= instance.width:
            warnings.append(
                f"DR-UCB: the confidence radius of eq:UCB_confidence_sets is >= {instance.width:g} at every t "
                f"(radius_scale*16(sqrt(2e log T)+32)/sqrt(tau) >= {float(confidence_radius(radius_c, max_tau)):.3g} "
                f"for tau <= {max_tau}), so every law on the support is in every confidence set; the bonus L_H r^q "
                f"dominates the estimate and the pulls stay nearly balanced, like uniform sampling")
    if algo in ("ucb-fw", "u-ucb", "cvar-ucb", "b-cvts"):
        q, L, L_bonus, radius_c = _competitor(cfg, instance, d, algo, warnings)
    return Setup(algo, K, T, eps, None, n0, radius_c, q, L, L_bonus, float("nan"), None, None, tuple(warnings),
                 cfg.threads_for(), cfg.block, cfg.compiled, cfg.enum_budget)


def _competitor(cfg: SimConfig, instance, d: Distortion, algo: str, warnings: list) -> tuple:
    """(q, L, L_bonus, radius_c) of a competitor (``docs/simulation.md``, "Competitors"); notes in ``warnings``.

    ``radius_c`` is ``radius_scale``, the factor on the printed bonus (0 for B-CVTS, which has none).
    U-UCB's bonus is f(r) = L_inf r^q with the stability constants of U_h in the sup norm that rsb
    derives: q and L of ``assumption:Holder`` (:func:`rsb_theory.holder.holder`) and L_inf = L b
    (``L_bonus``; int_0^b |h(S) - h(S')| <= L b ||S - S'||_inf^q).  UCB-FW is told in words when h is
    not concave (V is then not concave and Frank-Wolfe is a local rule) or not smooth (a kink: the
    derivative there is a supergradient, and the fast rates of Berthet and Perchet, which assume a
    smooth objective, do not apply).
    """
    from rsb_theory.distortions import breakpoints
    from rsb_theory.holder import holder

    check_distortion(algo, d.key)
    q = L = L_bonus = float("nan")
    scale = float(cfg.radius_scale) if algo != "b-cvts" else 0.0
    if algo == "u-ucb":
        hr = holder(d)
        q, L = float(hr.q), float(hr.L_H)
        if not (hr.attained and math.isfinite(L)):
            raise ValueError(f"argument 'dr': h has no finite Hölder constant at exponent q = {hr.q}; "
                             f"u-ucb needs one for its bonus L b r^q")
        L_bonus = L * instance.width
    if algo == "ucb-fw":
        kinks = [float(x) for x in breakpoints(d.expr)]
        if not d.shape.is_concave:
            warnings.append(f"UCB-FW: h = {d.describe()} is not concave, so V(alpha) is not concave in alpha: "
                            f"Frank-Wolfe's step toward the largest partial derivative is a local rule, and the "
                            f"guarantees of Berthet and Perchet (2017) do not apply")
        if kinks:
            warnings.append(f"UCB-FW: h = {d.describe()} has a kink at u = {', '.join(f'{x:g}' for x in kinks)}: V "
                            f"is not smooth there, the derivative used at a kink is a supergradient (the mean of the "
                            f"one-sided derivatives), and the fast rates of Berthet and Perchet (2017, smooth "
                            f"objective) do not apply")
    return q, L, L_bonus, scale


def _size(x) -> str:
    """A count or size for a message: an integer exactly up to 10^12, else 4 significant digits
    (never a machine cap); None or inf: beyond the largest float."""
    if x is None or (isinstance(x, float) and math.isinf(x)):
        return "inf (beyond the largest float)"
    if isinstance(x, int) and abs(x) < 10**12:
        return str(x)
    return f"{float(x):.4g}"
