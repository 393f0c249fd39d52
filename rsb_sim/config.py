"""Simulation parameters and the paper's constants (defaults) derived from them.

Every constant the paper fixes is a named parameter whose default is the
paper's formula:

* ``eps`` — discretisation level; default sqrt(K log T / T) (``sec: experiments``).
* ``rho`` — exploration rate of RS-UCB-M / CE-UCB-M; default 0.1
  (``Appendix: Additional Experiments``).  Forced exploration: each arm
  n0 = ceil(rho T eps / 4) times, round-robin (``algorithm:B-UCB-M``).
* ``radius_scale`` — multiplies the confidence radius of
  ``eq:UCB_confidence_sets``, 16 (sqrt(2 e log T) + 32) / sqrt(tau); default 1.
* ``explore`` — override: exploration pulls *per arm*, for every algorithm.
  For RS-ETC-M it replaces ceil(N(eps)/K) of ``algorithm:RS-ETC-M-Alg``
  (N(eps) of ``eq:number of samples main paper`` is then not computed: the
  exploration is K * explore pulls); for RS-UCB-M / CE-UCB-M it replaces the
  forced exploration ceil(rho T eps / 4) of ``algorithm:B-UCB-M``; ignored by
  the uniform policy.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, asdict

import numpy as np

from rsb_theory import expressions

from .options import ALGORITHMS, EXPERIMENTS_EPS
from rsb_theory.errors import ArgumentError

__all__ = ["ALGORITHMS", "EXPERIMENTS_EPS", "SimConfig", "available_cpus", "ucb_explore_per_arm", "etc_explore_per_arm"]


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


@dataclass(frozen=True)
class SimConfig:
    """Parameters of one simulation (validated on construction).

    Attributes
    ----------
    T : int
        Horizon (>= K, checked against the instance by :meth:`check_K`).
    trials : int
        Independent trials (>= 1).
    seed : int or None
        Root seed of the reward table (``None``: fresh OS entropy, recorded).
    eps : float or None
        Discretisation level in (0, 1]; ``None``: sqrt(K log T / T).
    rho : float
        Exploration rate in (0, 1).
    radius_scale : float
        Factor (>= 0) on the radius of ``eq:UCB_confidence_sets``.
    explore : int or None
        Exploration pulls per arm (module docstring); ``None``: the paper's formula.
    record_actions : bool
        Keep the (trials, T) int8 action array in the result (small T only).
    block : int
        Reward-table block size (does not change any reward).
    first_trial : int
        Index of the first simulated trial (>= 0): the run simulates trials
        first_trial, ..., first_trial + trials - 1 of the reward table, so
        chunks of trials (:mod:`rsb_sim.sweep`) reproduce one big run exactly.
    threads : int or None
        Threads of CE-UCB-M's compiled time loop (each runs its own trials; the
        other policies ignore it); ``None``: the CPUs this process may use
        (:func:`available_cpus`).  Does not change any result (tested).
    stream : tuple of int
        Spawn-key prefix of this experiment within a family of experiments
        seeded by one root (:class:`rsb_sim.rewards.RewardTable`): the j-th
        horizon of ``rsb slopes`` uses ``(j,)``.  ``()``: a single experiment.
    compiled : bool
        CE-UCB-M runs its compiled loop where it applies (Bernoulli arms, q = 1,
        concave h, grids up to :data:`rsb_sim.policies.ce_ucb_m.COMPILED_MAX_GRID`
        points); False: the NumPy searcher always.  Does not change any result
        (tested) and, like ``threads``, is not recorded.
    enum_budget : int or None
        Work budget of the NumPy searcher (:class:`rsb_sim.search.Searcher`): a
        search on a grid above its in-memory limit enumerates the grid when
        (trials searched) x (grid points) is at most this, else runs the branch
        and bound; ``None``: :data:`rsb_sim.search.ENUM_BUDGET`, 0: the branch
        and bound always.  A count, never a time; changes no result (tested) and
        is not recorded.
    quantize : int or None
        Arms of any laws (:mod:`rsb_sim.arm_laws`): CE-UCB-M's estimates use rewards rounded to
        the mid-points of this many equal cells (declared in the result with its W1 and value
        bounds); ``None``: exact.  Changes results, so it is recorded when set.
    """

    T: int
    trials: int = 1
    seed: int | None = 0
    eps: float | None = None
    rho: float = 0.1
    radius_scale: float = 1.0
    explore: int | None = None
    record_actions: bool = False
    block: int = 2048
    first_trial: int = 0
    threads: int | None = None
    stream: tuple[int, ...] = ()
    compiled: bool = True
    enum_budget: int | None = None
    quantize: int | None = None

    def __post_init__(self) -> None:
        if not _is_int(self.T) or self.T < 1:
            raise ArgumentError("T", f"need a positive integer horizon, got {self.T!r}")
        if not _is_int(self.trials) or self.trials < 1:
            raise ArgumentError("trials", f"need an integer >= 1, got {self.trials!r}")
        if self.seed is not None and (not _is_int(self.seed) or self.seed < 0):
            raise ArgumentError("seed", f"need a non-negative integer or None, got {self.seed!r}")
        if self.eps is not None:
            if isinstance(self.eps, bool) or not isinstance(self.eps, (int, float)) or not math.isfinite(self.eps) \
                    or not 0 < self.eps <= 1:
                raise ArgumentError("eps", f"need 0 < eps <= 1, got {self.eps!r}")
        if isinstance(self.rho, bool) or not isinstance(self.rho, (int, float)) or not 0 < self.rho < 1:
            raise ArgumentError("rho", f"need 0 < rho < 1, got {self.rho!r}")
        if isinstance(self.radius_scale, bool) or not isinstance(self.radius_scale, (int, float)) \
                or not math.isfinite(self.radius_scale) or self.radius_scale < 0:
            raise ArgumentError("radius_scale", f"need a finite number >= 0, got {self.radius_scale!r}")
        if self.explore is not None and (not _is_int(self.explore) or self.explore < 1):
            raise ArgumentError("explore", f"need an integer >= 1, got {self.explore!r}")
        if self.record_actions and self.T * self.trials > 50_000_000:
            raise ArgumentError("record_actions", "trials * T too large to record actions")
        if not _is_int(self.block) or self.block < 1:
            raise ArgumentError("block", f"need an integer >= 1, got {self.block!r}")
        if not _is_int(self.first_trial) or self.first_trial < 0:
            raise ArgumentError("first_trial", f"need an integer >= 0, got {self.first_trial!r}")
        if self.threads is not None and (not _is_int(self.threads) or self.threads < 1):
            raise ArgumentError("threads", f"need an integer >= 1 or None, got {self.threads!r}")
        if isinstance(self.stream, list):  # a config read back from JSON
            object.__setattr__(self, "stream", tuple(self.stream))
        if not isinstance(self.stream, tuple) or not all(_is_int(x) and x >= 0 for x in self.stream):
            raise ArgumentError("stream", f"need a tuple of integers >= 0, got {self.stream!r}")
        if not isinstance(self.compiled, (bool, np.bool_)):
            raise ArgumentError("compiled", f"need True or False, got {self.compiled!r}")
        if self.enum_budget is not None and (not _is_int(self.enum_budget) or self.enum_budget < 0):
            raise ArgumentError("enum_budget", f"need an integer >= 0 or None, got {self.enum_budget!r}")
        if self.quantize is not None and (not _is_int(self.quantize) or self.quantize < 1):
            raise ArgumentError("quantize", f"need an integer >= 1 or None, got {self.quantize!r}")

    def check_K(self, K: int) -> None:
        """ValueError naming ``T`` if the horizon is shorter than the number of arms."""
        if self.T < K:
            raise ArgumentError("T", f"the horizon T = {self.T} is smaller than the number of arms K = {K}")

    def threads_for(self) -> int:
        """``threads``, or the CPUs available to this process when it is None."""
        return int(self.threads) if self.threads is not None else available_cpus()

    def eps_for(self, K: int) -> float:
        """eps, or the default sqrt(K log T / T) of ``sec: experiments`` (ValueError naming eps if > 1)."""
        if self.eps is not None:
            return float(self.eps)
        e = expressions.evaluate(EXPERIMENTS_EPS, "eps", {"K": K, "T": self.T}) if self.T > 1 else 1.0
        if not 0 < e <= 1:
            raise ArgumentError("eps", f"the default sqrt(K log T / T) = {e:.4g} is not in (0, 1]; give --eps")
        return e

    def to_dict(self) -> dict:
        """The fields as a dict, without ``threads``, ``compiled`` and ``enum_budget`` (they change
        no result, so results and the summaries of a sweep do not depend on the executor's choice
        of threads or on the route)."""
        out = asdict(self)
        del out["threads"], out["compiled"], out["enum_budget"]
        if not self.stream:  # a single experiment: the record (and the sweep's cache keys) as before
            del out["stream"]
        else:
            out["stream"] = list(self.stream)
        if self.quantize is None:  # exact runs: the record (and the sweep's cache keys) as before
            del out["quantize"]
        return out


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one, else ``os.cpu_count()``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


def ucb_explore_per_arm(cfg: SimConfig, K: int) -> int:
    """n0 = ceil(rho T eps / 4) (``algorithm:B-UCB-M``), or ``explore`` if given."""
    if cfg.explore is not None:
        return int(cfg.explore)
    return max(1, math.ceil(cfg.rho * cfg.T * cfg.eps_for(K) / 4.0 - 1e-12))


def etc_explore_per_arm(N: float, K: int) -> int | None:
    """ceil(N(eps) / K) (``algorithm:RS-ETC-M-Alg``), at least 1 (an empirical CDF needs a sample).

    Exact however large (a Python int: 1.9e22 / 2 gives 9.5e21, not a capped machine
    integer); None when N(eps) is infinite (beyond the largest float), an exploration that
    no horizon reaches.
    """
    if math.isinf(N):
        return None
    return max(1, math.ceil(N / K - 1e-9))
