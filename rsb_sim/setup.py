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
from dataclasses import dataclass, field, replace

import numpy as np

from rsb_theory.distortions import Distortion
from rsb_theory.grids import Grid

from rsb_theory.rates import N_eps_value, radius_constant

from .config import (
    SimConfig,
    etc_explore_per_arm,
    ucb_explore_per_arm,
)
from .rewards import DEFAULT_BLOCK, auto_block
from .rules import confidence_radius
from rsb_theory.errors import ArgumentError


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
        The constant of the paper's W1 radius ``eq:UCB_confidence_sets``: radius_scale * 16 (sqrt(2 e log T) + 32);
        the radius of arm i is radius_c / sqrt(tau_i).  NaN for a policy that uses no such radius (one meaning
        only: a policy's own radii and scales are in ``constants``).
    q, L : float
        Hölder exponent and constant of h on Bernoulli laws (``assumption:Holder``); NaN where unused.
    L_bonus : float
        The W1-Hölder constant of U_h (``eq:Holder``) used in the bonus of ``eq:UCB_alpha2``: L for
        Bernoulli arms, L * b^(1 - q) for finite-support arms on [0, b] (int |h(S) - h(S')| <= L int |S -
        S'|^q <= L b^(1-q) W1^q by Jensen); NaN where unused.
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
    constants : dict
        The policy's own constants, each named by its meaning (the policy's ``constants`` declaration says
        what each is; a competitor's scale on its printed bonus, a sup-norm stability constant, ...).
    policy : rsb_sim.policies.base.Policy
        The policy this set-up is for (``algo`` is its name).
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
    constants: dict = field(default_factory=dict)
    policy: object = field(default=None, repr=False, compare=False)

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


def prepare(cfg: SimConfig, instance, d: Distortion, algo) -> Setup:
    """Validate the combination and compute the constants of the run.

    ``algo`` is a name of the catalog (:mod:`rsb_sim.policies.catalog`) or a policy object (a user's own,
    :class:`rsb_sim.policies.base.IndexRule`); the policy's own ``prepare`` computes its constants.

    Raises
    ------
    ValueError
        Unknown ``algo``; T < K (names ``T``); a policy that is not defined for the distortion or the arms
        (names ``algo``); eps too coarse for the grid (names ``eps``); RS-UCB-M with non-concave h (names
        ``dr``); a Hölder constant that is not finite where the policy needs one (names ``dr``).

    Notes
    -----
    Finite-support arms run with RS-ETC-M, CE-UCB-M and uniform.  Delta_min(eps)
    is then computed on the true laws with
    :func:`rsb_theory.argmax.etc_objective_finite`, and N(eps) uses L_H =
    L b^(1-q) (``L_bonus``), the W1-Hölder constant of U_h on laws on [0, b].
    """
    policy = check(cfg, instance, d, algo)
    K = instance.K
    # eps is the grid's: an algorithm without a grid records the experiments' default where it is a level
    # (in (0, 1]) and None where K log T > T -- it must still run
    eps = cfg.eps_for(K) if "eps" in policy.reads else _recorded_eps(cfg, K)
    return replace(policy.prepare(cfg, instance, d, eps), policy=policy)


def check(cfg: SimConfig, instance, d: Distortion, algo):
    """The policy of ``algo`` once the combination is one it is defined for; the declarations only, no work.

    What :func:`prepare` refuses from the declarations (T < K, a distortion family or a kind of arms the
    policy is not defined for), so that a caller that writes (``rsb simulate --out``) refuses before it
    creates anything.

    Raises
    ------
    ValueError
        As :func:`prepare` (names ``T`` or ``algo``).
    """
    from .policies.catalog import get

    policy = get(algo)
    cfg.check_K(instance.K)
    refusal = policy.refusal(d.key)
    if refusal is not None:
        raise ArgumentError("algo", refusal)
    if policy.arms is not None and instance.kind not in policy.arms:
        raise ArgumentError("algo", policy.arms_refusal)
    return policy


def _block(cfg: SimConfig, K: int) -> int:
    return auto_block(cfg.T, cfg.trials, K) if cfg.block == DEFAULT_BLOCK else cfg.block


def plain_setup(cfg: SimConfig, instance, name: str, eps) -> Setup:
    """The set-up of a fixed schedule (uniform sampling): no grid, no exploration, no constant."""
    nan = float("nan")
    return Setup(name, instance.K, cfg.T, eps, None, 0, nan, nan, nan, nan, nan, None, None, (), cfg.threads_for(),
                 _block(cfg, instance.K), cfg.compiled, cfg.enum_budget)


def _holder_of(d: Distortion, instance, name: str, need_finite: bool) -> tuple[float, float, float, float]:
    """(q, L, L_bonus, u_star): the Hölder data of h (``assumption:Holder``, :func:`rsb_theory.holder.holder`),
    the W1-Hölder constant of U_h (L on [0, 1], L b^(1-q) on [0, b]) and a maximiser of h on [0, 1], read from
    the distortion's profile (:func:`rsb_theory.profile.of`)."""
    from rsb_theory.profile import of

    prof = of(d)
    hr = prof.holder()
    q, L = float(hr.q), float(hr.L_H)
    if need_finite and not (hr.attained and math.isfinite(L)):
        raise ArgumentError("dr", f"h has no finite Hölder constant at exponent q = {hr.q}; "
                         f"{name} needs one")
    L_bonus = prof.w1_constant(instance.width) if instance.kind != "bernoulli" else L
    u_star = float(prof.maximisers()[0])
    return q, L, L_bonus, u_star


def etc_setup(cfg: SimConfig, instance, d: Distortion, name: str, eps: float) -> Setup:
    """RS-ETC-M's set-up (``algorithm:RS-ETC-M-Alg``): the etc grid, n0 = ceil(N(eps)/K) of ``eq:number of
    samples main paper`` (or ``explore``), with Delta_min(eps) of the true instance."""
    K, T = instance.K, cfg.T
    warnings: list[str] = []
    q, L, L_bonus, u_star = _holder_of(d, instance, name, True)
    N = Dmin = None
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
    return Setup(name, K, T, eps, grid, n0, float("nan"), q, L, L_bonus, u_star, N, Dmin, tuple(warnings),
                 cfg.threads_for(), _block(cfg, K), cfg.compiled, cfg.enum_budget)


def ucb_setup(cfg: SimConfig, instance, d: Distortion, name: str, eps: float, need_finite: bool,
              degenerate: str) -> Setup:
    """The set-up of the paper's UCBs (``algorithm:B-UCB-M``, ``algorithm:UCB-M``): the mid-point ucb grid, the
    forced exploration ceil(rho T eps / 4) per arm (or ``explore``), the radius constant of
    ``eq:UCB_confidence_sets``; ``degenerate``: the words that end the note of a radius that covers the support."""
    K, T = instance.K, cfg.T
    warnings: list[str] = []
    radius_c = cfg.radius_scale * radius_constant(T) if T > 1 else 0.0
    q, L, L_bonus, u_star = _holder_of(d, instance, name, need_finite)
    grid = Grid(K, eps, "ucb")
    n0 = ucb_explore_per_arm(cfg, K)
    if K * n0 >= T:
        warnings.append(
            f"{name.upper()} never tracks: forced exploration of {n0} pulls per arm and K*{n0} >= T = {T}, "
            f"so every pull is round-robin")
    else:
        max_tau = T - (K - 1) * n0
        smallest = float(confidence_radius(radius_c, max_tau))
        if smallest >= instance.width:
            warnings.append(
                f"{name.upper()}: the confidence radius of eq:UCB_confidence_sets is >= {instance.width:g} at "
                f"every t (radius_scale*16(sqrt(2e log T)+32)/sqrt(tau) >= {smallest:.3g} "
                f"for tau <= {max_tau}), so every law on the support is in every confidence set" + degenerate)
    return Setup(name, K, T, eps, grid, n0, radius_c, q, L, L_bonus, u_star, None, None, tuple(warnings),
                 cfg.threads_for(), _block(cfg, K), cfg.compiled, cfg.enum_budget)


def _recorded_eps(cfg: SimConfig, K: int) -> float | None:
    """eps as recorded by an algorithm that reads none: ``cfg.eps``, or the default when it is in (0, 1], else None."""
    try:
        return cfg.eps_for(K)
    except ValueError:
        return None


def index_setup(cfg: SimConfig, instance, d: Distortion, policy, eps) -> Setup:
    """The set-up of an index policy (:class:`rsb_sim.policies.base.IndexPolicy`): no grid (``eps`` is recorded
    as for the uniform policy and not used), n0 = ``explore`` or 1 round-robin pulls per arm, and the constants
    of the policy's own :meth:`~rsb_sim.policies.base.IndexPolicy.constants_of`."""
    K, T = instance.K, cfg.T
    n0 = int(cfg.explore) if cfg.explore is not None else 1
    warnings: list[str] = []
    if K * n0 >= T:
        warnings.append(f"{policy.name.upper()} never uses its index: an exploration of {n0} pulls per arm and "
                        f"K*{n0} = {K * n0} >= T = {T}, so every pull is round-robin")
    nan = float("nan")
    fields = {"q": nan, "L": nan, "L_bonus": nan, "radius_c": nan, "constants": {}}
    fields.update(policy.constants_of(cfg, instance, d, warnings))
    return Setup(policy.name, K, T, eps, None, n0, fields["radius_c"], fields["q"], fields["L"], fields["L_bonus"],
                 nan, None, None, tuple(warnings), cfg.threads_for(), cfg.block, cfg.compiled, cfg.enum_budget,
                 dict(fields["constants"]))


def w1_bonus_constants(cfg: SimConfig, instance, d: Distortion, name: str) -> dict:
    """(q, L, L_bonus, radius_c) of a bonus L_H r^q on the paper's W1 radius r = radius_c / sqrt(tau) of
    ``eq:UCB_confidence_sets`` (radius_c = radius_scale * 16 (sqrt(2 e log T) + 32)), L_H = L b^(1-q) the
    W1-Hölder constant of U_h (``assumption:Holder``).  ValueError naming ``dr`` when L is not finite."""
    from rsb_theory.profile import of

    prof = of(d)
    hr = prof.holder()
    q, L = float(hr.q), float(hr.L_H)
    if not (hr.attained and math.isfinite(L)):
        raise ArgumentError("dr", f"h has no finite Hölder constant at exponent q = {hr.q}; "
                         f"{name} needs one for its bonus L_H r^q")
    radius_c = cfg.radius_scale * radius_constant(cfg.T) if cfg.T > 1 else 0.0
    return {"q": q, "L": L, "L_bonus": prof.w1_constant(instance.width), "radius_c": radius_c}


def radius_covers(setup_like: dict, cfg: SimConfig, instance, n0: int) -> float | None:
    """The smallest W1 radius of a run, radius_c / sqrt(T - (K-1) n0), when it is at least the width b of the
    support at every t (every law on the support is in every confidence set); else None."""
    K, T = instance.K, cfg.T
    if K * n0 >= T:
        return None
    smallest = float(confidence_radius(setup_like["radius_c"], T - (K - 1) * n0))
    return smallest if smallest >= instance.width else None


def _size(x) -> str:
    """A count or size for a message: an integer exactly up to 10^12, else 4 significant digits
    (never a machine cap); None or inf: beyond the largest float."""
    if x is None or (isinstance(x, float) and math.isinf(x)):
        return "inf (beyond the largest float)"
    if isinstance(x, int) and abs(x) < 10**12:
        return str(x)
    return f"{float(x):.4g}"
