"""Run one policy on one instance: ``run(config, instance, distortion, algo) -> SimResult``.

Regret per trial is ``eq:regret``: V(alpha*) - V(tau_T / T), measured from the
optimal *mixture* (:meth:`~rsb_sim.instances.BernoulliInstance.optimal`).
"""

from __future__ import annotations


import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from rsb_theory.distortions import Distortion

from . import jsontext
from .arm_laws import run_policy
from .config import SimConfig
from .policies.catalog import get as get_policy
from .rewards import RewardTable
from .setup import Setup, prepare
from .trajectory import CI_LEVEL, check_record, counts_at, mean_ci, regrets_at, run_recorded, trajectory_points
from rsb_theory.errors import ArgumentError


@dataclass(frozen=True)
class SimResult:
    """Result of :func:`run` (frozen).

    Attributes
    ----------
    algo : str
    config : SimConfig
    instance : BernoulliInstance or FiniteSupportInstance
    distortion : str
        ``Distortion.describe()``.
    regrets : numpy.ndarray, shape (trials,)
        V(alpha*) - V(tau_T / T) per trial (``eq:regret``).
    counts : numpy.ndarray, shape (trials, K)
        Final pull counts tau_T.
    mean_regret, std_regret : float
        Mean and standard deviation (ddof = 1; 0 for one trial) over trials.
    v_star : float
    alpha_star : tuple of float
    seconds : float
        Wall time of the simulation (setup included).
    warnings : tuple of str
        Plain-words notes on degenerate paper defaults.
    entropy : int
        Root SeedSequence entropy of the reward table.
    setup : Setup
        eps, n0, radius constant, q, L, N(eps), Delta_min(eps).
    stats : dict
        Search counters of the policy.
    versions : dict
        Package versions; ``git`` commit when available.
    actions : numpy.ndarray or None
        (trials, T) int8 when ``config.record_actions``.
    trajectory : tuple of dict
        ``{"t", "mean_regret", "ci_low", "ci_high"}`` at the steps ``record`` of :func:`run`
        (:mod:`rsb_sim.trajectory`); empty when nothing was recorded.
    arm_values : tuple of float
        U_h(F_i) = V(e_i) of each arm (``eq:V`` at a vertex).  ``best_arm_gap`` of the summary,
        V(alpha*) - max_i U_h(F_i), is the least regret a policy that converges to one arm keeps.
    trajectory_regrets : numpy.ndarray or None
        (recorded steps, trials): the per-trial regrets behind ``trajectory``; in the summary as
        ``trajectory_regrets`` so that a chunked sweep merges its chunks into the one run's trajectory.
    """

    algo: str
    config: SimConfig
    instance: object
    distortion: str
    regrets: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)
    mean_regret: float
    std_regret: float
    v_star: float
    alpha_star: tuple
    seconds: float
    warnings: tuple
    entropy: int
    setup: Setup = field(repr=False)
    stats: dict = field(default_factory=dict)
    versions: dict = field(default_factory=dict)
    actions: np.ndarray | None = field(default=None, repr=False)
    trajectory: tuple = ()
    arm_values: tuple = ()
    trajectory_regrets: np.ndarray | None = field(default=None, repr=False)

    def summary(self) -> dict:
        """JSON-ready summary (the ``rsb simulate --format json`` payload)."""
        s = self.setup
        ci_low, ci_high = mean_ci(self.regrets)
        out = {
            "algo": self.algo,
            "distortion": self.distortion,
            "instance": _instance_dict(self.instance),
            "T": self.config.T,
            "trials": self.config.trials,
            "mean_regret": self.mean_regret,
            "std_regret": self.std_regret,
            "ci_low": ci_low,
            "ci_high": ci_high,
            "ci_level": CI_LEVEL,
            "v_star": self.v_star,
            "alpha_star": list(self.alpha_star),
            "arm_values": list(self.arm_values),
            "best_arm_gap": self.v_star - max(self.arm_values) if self.arm_values else None,
            "seconds": self.seconds,
            "warnings": list(self.warnings),
            "seed": self.config.seed,
            "seed_entropy": str(self.entropy),
            "eps": s.eps if s.grid is not None else None,  # a policy without a grid reads no eps
            "explore_per_arm": s.n0,
            "N_eps": s.N_eps,
            "Delta_min": s.Delta_min,
            "radius_constant": None if s.radius_c != s.radius_c else s.radius_c,  # NaN: no W1 radius
            "q": None if s.q != s.q else s.q,
            "L": None if s.L != s.L else s.L,
            "config": self.config.to_dict(),
            "stats": self.stats,
            "versions": self.versions,
            "mean_counts": self.counts.mean(axis=0).tolist(),
            "regrets": self.regrets.tolist(),
            **self._quantization(),
        }
        if self.trajectory:
            out["trajectory"] = [dict(p) for p in self.trajectory]
            out["trajectory_regrets"] = self.trajectory_regrets.tolist()
        return out

    def to_json(self) -> str:
        """:meth:`summary` as JSON text: the one serialisation of ``rsb simulate --format json``."""
        return jsontext.dumps(self.summary(), indent=2)

    def to_frame(self):
        """A tidy pandas DataFrame: one row per trial and recorded step (:func:`frame_rows`)."""
        import pandas as pd

        return pd.DataFrame(frame_rows(self), columns=FRAME_COLUMNS)

    def _quantization(self) -> dict:
        """``{"quantization": ...}`` when the UCB's estimates were quantised (rsb_sim.arm_laws), else nothing."""
        declare = getattr(self.instance, "quantization", None)
        out = None if declare is None else declare(self.setup.L_bonus, self.setup.q)
        return {} if out is None else {"quantization": out}


#: Columns of :meth:`SimResult.to_frame`: the run (algorithm, h, horizon T), the trial (0-based, as in the
#: reward table), the step t and the regret V* - V(tau_t / t) of that trial at t (``eq:regret``).
FRAME_COLUMNS = ("algo", "distortion", "T", "trial", "t", "regret")


def frame_rows(res: "SimResult") -> list[tuple]:
    """The rows of :meth:`SimResult.to_frame`: every recorded step of every trial, else t = T alone."""
    first = res.config.first_trial
    if res.trajectory_regrets is None:
        steps, table = (res.config.T,), res.regrets[None, :]
    else:
        steps, table = tuple(int(p["t"]) for p in res.trajectory), res.trajectory_regrets
    return [(res.algo, res.distortion, res.config.T, first + k, t, float(table[j, k]))
            for k in range(table.shape[1]) for j, t in enumerate(steps)]


def _instance_dict(inst) -> dict:
    if hasattr(inst, "to_dict"):  # arm laws of --arms (rsb_sim.arm_laws)
        return inst.to_dict()
    if inst.kind == "bernoulli":
        return {"kind": "bernoulli", "p": list(inst.p)}
    return {"kind": "finite", "support": list(inst.support), "probs": [list(r) for r in inst.probs]}


def versions() -> dict:
    """Versions of python, numpy, scipy, sympy and the git commit (if available)."""
    import scipy
    import sympy

    out = {"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__,
           "sympy": sympy.__version__}
    try:
        root = Path(__file__).resolve().parents[1]
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=5)
        if commit.returncode == 0:
            out["git"] = commit.stdout.strip()
    except (OSError, subprocess.SubprocessError):  # pragma: no cover
        pass
    return out


def regrets_of(counts: np.ndarray, T: int, instance, d: Distortion, v_star: float) -> np.ndarray:
    """V* - V(tau_T / T) per trial (``eq:regret``)."""
    return v_star - instance.value(d, counts / float(T))


def run(config: SimConfig, instance, distortion: Distortion, algo: str, progress=None, record=None) -> SimResult:
    """Simulate ``algo`` for ``config.trials`` trials of horizon ``config.T``.

    Parameters
    ----------
    config : SimConfig
    instance : BernoulliInstance or FiniteSupportInstance
    distortion : Distortion
    algo : str or rsb_sim.policies.base.Policy
        A name of the catalog (:data:`rsb_sim.options.ALGORITHMS`) or a policy object (a user's own
        :class:`~rsb_sim.policies.base.IndexRule` or :class:`~rsb_sim.policies.base.TargetRule`).
    progress : callable(total=...) -> tqdm-like, optional
        Progress bar factory for the time loop.
    record : sequence of int, optional
        Steps t in 1..T at which the regret V* - V(tau_t / t) is recorded (T is added last):
        :attr:`SimResult.trajectory` (:mod:`rsb_sim.trajectory`).  Changes no decision.

    Raises
    ------
    ValueError
        Invalid combination (message names the argument).
    """
    if not isinstance(config, SimConfig):
        raise ArgumentError("config", f"expected a rsb_sim.config.SimConfig, got {type(config).__name__}")
    if not all(hasattr(instance, a) for a in ("K", "kind", "optimal", "value")):
        raise ArgumentError("instance", "expected an instance (rsb_sim.instances.BernoulliInstance(p), "
                         f"FiniteSupportInstance, or rsb_sim.arm_laws.law_instance(...)), got "
                         f"{type(instance).__name__} {str(instance)[:60]}")
    if not isinstance(distortion, Distortion):
        raise ArgumentError("dr", f"expected a Distortion, got {distortion!r}")
    chosen = get_policy(algo)  # ValueError naming algo for an unknown name or a policy without one
    start = time.perf_counter()
    steps = None if record is None else check_record(record, config.T)
    setup = prepare(config, instance, distortion, chosen)
    table = RewardTable.from_seed(config.seed, config.trials, instance, config.first_trial, config.stream)
    opt = instance.optimal(distortion)
    base = chosen.simulate

    def policy(setup, d, inst, tab, record_actions=False, progress=None):
        # arms of any laws run one trial at a time on their exact route (rsb_sim.arm_laws); others as they are
        return run_policy(base, setup, d, inst, tab, record_actions=record_actions, progress=progress)

    trajectory, at = (), None
    if steps is not None and not config.record_actions:
        pr, at = run_recorded(policy, setup, distortion, instance, table, steps, progress)
    else:
        pr = policy(setup, distortion, instance, table, record_actions=config.record_actions, progress=progress)
        if steps is not None:
            at = counts_at(pr.actions, instance.K, steps)
    traj_regrets = None if at is None else regrets_at(at, steps, instance, distortion, opt.value)
    if traj_regrets is not None:
        trajectory = trajectory_points(traj_regrets, steps)
    regrets = regrets_of(pr.counts, config.T, instance, distortion, opt.value)
    seconds = time.perf_counter() - start
    std = float(regrets.std(ddof=1)) if regrets.size > 1 else 0.0
    return SimResult(chosen.name, config, instance, distortion.describe(), regrets, pr.counts, float(regrets.mean()), std,
                     opt.value, opt.alpha, seconds, setup.warnings, table.entropy, setup, pr.stats, versions(),
                     pr.actions, trajectory, tuple(float(v) for v in instance.value(distortion, np.eye(instance.K))),
                     traj_regrets)
