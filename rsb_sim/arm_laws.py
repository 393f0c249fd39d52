"""Bandit instances of any arm laws (``--arms``): continuous, empirical, finite and Bernoulli.

The policies of :mod:`rsb_sim.policies` work on *levels*: every reward is mapped to the index of a
level of a finite, increasing array (``support``), and the state of an arm is the count of each level
(the exact sufficient statistic of its empirical law, ``eq:empirical_CDF``).  A
:class:`LawInstance` chooses the levels so that this is exact wherever it is affordable
(``docs/arms.md``, "Simulating"):

* ``union`` -- every arm is discrete (Bernoulli, finite, empirical): the levels are the union of
  the atoms; a reward *is* a level.  Exact.
* ``trial`` -- continuous arms: the levels of trial k are the sorted distinct rewards its reward
  table can give in the run (the first ``n`` uniforms of each arm's stream, ``n`` = T for the UCBs,
  the exploration for RS-ETC-M); the mixture of the empirical laws on them is the exact sorted
  merge of the arms' samples.  Trials are then simulated one at a time (:func:`run_policy`), each on
  its own levels, so a trial's result does not depend on the other trials of its chunk.  Used while
  the levels of a trial are at most :data:`MAX_EXACT_LEVELS` (a work budget by counts, never time).
* ``quantized`` -- ``quantize = m`` (a named option, ``--quantize M``): rewards are rounded to the
  mid-points of m equal cells of [lo, hi] (the hull of the arms' supports); each reward moves by at
  most delta = (hi - lo) / (2 m), so every empirical law and every mixture of them moves by at most
  delta in W1 and U_h by at most L (hi - lo)^(1-q) delta^q <= L_bonus delta^q
  (``lemma:lipschitz-wasserstein`` with Hölder and Jensen); the result reports the bound
  (:meth:`LawInstance.quantization`).  Only the UCB-type algorithms' estimates are quantised;
  RS-ETC-M and uniform are exact, and the regret is always measured on the true laws.

How a uniform U of the reward table becomes a reward is :meth:`rsb_theory.laws.law.FiniteLaw.draw`
and friends: the inverse-CDF rule of the table's ``(seed, stream, trial, arm, j)`` convention,
unchanged.  Bernoulli arms given with ``--p`` (and all-Bernoulli ``--arms``) keep
:class:`rsb_sim.instances.BernoulliInstance`, finite arms given with ``--support/--probs`` keep
:class:`rsb_sim.instances.FiniteSupportInstance`: their results are bit for bit those of before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from rsb_theory.distortions import Distortion

from .instances import BernoulliInstance, Optimum
from rsb_theory.errors import ArgumentError

__all__ = ["LawInstance", "MAX_EXACT_LEVELS", "law_instance", "run_policy", "QuantizeError"]

#: Most levels per trial of the exact ``trial`` route of continuous arms (a count: the UCBs evaluate
#: their objective on every level at every step, so their work grows with it).  Beyond it a UCB-type
#: algorithm needs ``quantize`` (never chosen silently).
MAX_EXACT_LEVELS = 4096


def _quantized(algo) -> bool:
    """The policy's estimates may be quantised (it reads ``quantize``: its objective reads the empirical laws at
    every step)."""
    from .policies.catalog import get

    return "quantize" in get(algo).reads


class QuantizeError(ArgumentError):
    """A UCB-type run on continuous arms that the exact route cannot afford: the message names ``quantize``."""


@dataclass(frozen=True)
class LawInstance:
    """K arms of any laws of :mod:`rsb_theory.laws`, with the levels a policy counts (module docstring).

    Build it with :func:`law_instance`.

    Attributes
    ----------
    laws : tuple of laws
    route : {"union", "trial", "quantized"}
    levels : tuple of float
        The increasing levels (``support``); empty for the ``trial`` route until :meth:`for_trial`.
    quantize : int or None
        m of the ``quantized`` route.
    """

    laws: tuple
    route: str
    levels: tuple[float, ...] = ()
    quantize: int | None = None
    kind: str = field(default="laws", init=False)

    @property
    def K(self) -> int:
        return len(self.laws)

    @property
    def support(self) -> tuple[float, ...]:
        return self.levels

    @property
    def n_outcomes(self) -> int:
        return max(len(self.levels), 1)

    @property
    def lo(self) -> float:
        return float(min(law.support[0] for law in self.laws))

    @property
    def width(self) -> float:
        """b: the upper end of the arms' supports (the laws live on [0, b])."""
        return float(max(law.support[1] for law in self.laws))

    @property
    def delta(self) -> float:
        """The largest move of a reward by the quantisation, (hi - lo) / (2 m); 0 when exact."""
        return (self.width - self.lo) / (2 * self.quantize) if self.route == "quantized" else 0.0

    # --- rewards -------------------------------------------------------------------------------------
    def rewards(self, u, arm: int) -> np.ndarray:
        """The rewards of uniforms ``u`` for arm ``arm`` (0-based): ``law.draw(u)``, the table's inverse-CDF rule."""
        return np.asarray(self.laws[int(arm)].draw(np.asarray(u, dtype=float)), dtype=float)

    def outcome(self, u, arm) -> np.ndarray:
        """The level index of the reward of each uniform ``u`` for arm ``arm`` (an int, or an array like ``u``)."""
        if np.ndim(arm) > 0:
            arm = np.broadcast_to(arm, np.shape(u))
            out = np.empty(np.shape(u), dtype=np.int64)
            for i in np.unique(arm).tolist():
                sel = arm == i
                out[sel] = self.outcome(np.asarray(u)[sel], int(i))
            return out
        x = self.rewards(u, arm)
        if self.route == "quantized":
            w = (self.width - self.lo) / self.quantize
            j = np.floor((x - self.lo) / w) if w > 0 else np.zeros_like(x)
            return np.clip(j, 0, self.quantize - 1).astype(np.int64)
        # union / trial: the reward is a level (a reward that is never consumed may fall between levels)
        j = np.searchsorted(np.asarray(self.levels), x, side="left")
        return np.minimum(j, len(self.levels) - 1).astype(np.int64)

    def empirical(self, hist: np.ndarray) -> np.ndarray:
        """Empirical laws on the levels (``eq:empirical_CDF``) from per-level counts ``hist`` (..., K, m)."""
        hist = np.asarray(hist, dtype=float)
        return hist / hist.sum(axis=-1, keepdims=True)

    def for_trial(self, table, k: int, n: int):
        """(table of the one trial k, 0, this instance on that trial's levels) for the ``trial`` route.

        The levels are the sorted distinct rewards of the first ``n`` uniforms of each arm's stream in
        trial k (every reward a policy with at most ``n`` pulls per arm can read).  Other routes:
        ``(table, k, self)``.
        """
        if self.route != "trial":
            return table, k, self
        one = replace(table, trials=1, first=table.first + int(k), instance=None)
        xs = np.unique(np.concatenate([self.rewards(one.uniforms(0, i, n), i) for i in range(self.K)]))
        inst = replace(self, levels=tuple(float(v) for v in xs))
        return replace(one, instance=inst), 0, inst

    # --- values on the true laws ---------------------------------------------------------------------
    def value(self, d: Distortion, alpha) -> np.ndarray:
        """V(alpha) = U_h(sum_i alpha_i F_i) of the true laws (``eq:V``), vectorised over rows of alpha."""
        from rsb_theory.laws import mixture_value

        a = np.clip(np.asarray(alpha, dtype=float), 0.0, None)
        a = a / a.sum(axis=-1, keepdims=True)
        return np.asarray(mixture_value(d, self.laws, a), dtype=float)

    def true_values(self, d: Distortion, points) -> np.ndarray:
        """V at grid points (n, K) on the true laws (Delta_min(eps) of RS-ETC-M, :func:`rsb_sim.setup.true_gap`)."""
        return np.atleast_1d(self.value(d, points))

    def arm_values(self, d: Distortion) -> np.ndarray:
        """U_h(F_i) of each arm alone."""
        from rsb_theory.laws import arm_values

        return np.asarray(arm_values(d, self.laws), dtype=float)

    def optimal(self, d: Distortion) -> Optimum:
        """alpha* and V* of the true laws (:func:`rsb_theory.oracle.optimal_mixture_laws`)."""
        from rsb_theory.oracle import optimal_mixture_laws

        o = optimal_mixture_laws(d, self.laws)
        return Optimum(tuple(float(x) for x in o.alpha), float(o.value), o.method)

    # --- what a user reads ---------------------------------------------------------------------------
    def quantization(self, L_bonus: float, q: float) -> dict | None:
        """The declared quantisation: m, delta, the W1 bound delta and the value bound L_bonus delta^q."""
        if self.route != "quantized":
            return None
        bound = L_bonus * self.delta ** q if math.isfinite(L_bonus) else None
        return {"levels": self.quantize, "cells": [self.lo, self.width], "delta": self.delta, "w1_bound": self.delta,
                "value_bound": bound,
                "note": f"rewards rounded to the mid-points of {self.quantize} equal cells of [{self.lo:g}, "
                        f"{self.width:g}] for the estimates of the UCB-type algorithm: W1 <= {self.delta:.3g} for "
                        f"every empirical law and mixture, |U_h error| <= L b^(1-q) delta^q"
                        + (f" = {bound:.3g}" if bound is not None else "")}

    def to_dict(self) -> dict:
        out = {"kind": "laws", "arms": [law.describe() for law in self.laws], "route": self.route}
        if self.route == "union":
            out["levels"] = len(self.levels)
        if self.route == "quantized":
            out["quantize"] = self.quantize
        return out


def law_instance(laws, algo: str = "uniform", T: int | None = None, quantize: int | None = None):
    """The instance to simulate ``algo`` on ``laws`` (module docstring for the routes).

    All-Bernoulli laws give a :class:`~rsb_sim.instances.BernoulliInstance` (the rule 1{U < p} of every
    Bernoulli experiment).  ``quantize`` is read by the UCB-type algorithms only.

    Raises
    ------
    QuantizeError
        (names ``quantize``) a UCB-type algorithm on laws whose exact levels exceed
        :data:`MAX_EXACT_LEVELS` without ``quantize``; ``quantize`` < 1.
    """
    from rsb_theory.laws import all_discrete, union_support

    laws = tuple(laws)
    if len(laws) < 2:
        raise ArgumentError("arms", f"need K >= 2 arms, got {len(laws)}")
    if quantize is not None and (isinstance(quantize, bool) or not isinstance(quantize, (int, np.integer))
                                 or quantize < 1):
        raise QuantizeError("quantize", f"need an integer number of levels >= 1, got {quantize!r}")
    if all(law.kind == "bernoulli" for law in laws) and quantize is None:
        return BernoulliInstance(tuple(float(law.p) for law in laws))
    ucb = _quantized(algo)
    if quantize is not None and ucb:
        return LawInstance(laws, "quantized", tuple(_midpoints(laws, int(quantize))), int(quantize))
    if all_discrete(laws):
        xs, _ = union_support(laws)
        if ucb and xs.size > MAX_EXACT_LEVELS:
            raise QuantizeError(
                "quantize", f"the arms have {xs.size} distinct reward values together; {algo} evaluates "
                f"its estimate on every one at every step, more than the exact route's budget of "
                f"{MAX_EXACT_LEVELS} levels: give --quantize M to round rewards to M levels (the W1 error bound "
                f"is reported)")
        return LawInstance(laws, "union", tuple(float(v) for v in xs))
    if ucb and T is not None and len(laws) * T > MAX_EXACT_LEVELS:
        raise QuantizeError(
            "quantize", f"continuous arms give up to K*T = {len(laws) * T} distinct rewards per trial; "
            f"{algo}'s exact estimate (the sorted merge of the arms' samples) is affordable up to "
            f"{MAX_EXACT_LEVELS} (a work budget): give --quantize M to round rewards to M levels (the W1 error "
            f"bound (hi-lo)/2M and the value bound L b^(1-q) ((hi-lo)/2M)^q are reported)")
    return LawInstance(laws, "trial")


def _midpoints(laws, m: int) -> np.ndarray:
    lo = min(law.support[0] for law in laws)
    hi = max(law.support[1] for law in laws)
    w = (hi - lo) / m
    return lo + (np.arange(m) + 0.5) * w


def trial_draws(setup) -> int:
    """Uniforms per arm that fix a trial's levels (``trial`` route): the exploration for a policy whose exploration
    alone decides (RS-ETC-M), else T."""
    if setup.policy is not None and setup.policy.exploration_only:
        return max(1, min(setup.T, setup.n0 or setup.T))
    return setup.T


def run_policy(policy, setup, d, instance, table, record_actions: bool = False, progress=None):
    """``policy(setup, d, instance, table, ...)``, one trial at a time on the ``trial`` route (module docstring)."""
    from .policies import PolicyRun

    reads = setup.policy is None or setup.policy.reads_rewards
    if getattr(instance, "route", None) != "trial" or not reads or setup.explore_steps >= setup.T:
        # no reward is read (uniform; a horizon that ends inside the exploration): nothing to merge
        return policy(setup, d, instance, table, record_actions=record_actions, progress=progress)
    n = trial_draws(setup)
    runs = []
    bar = progress(total=table.trials) if progress is not None else None  # one tick per trial on this route
    for k in range(table.trials):
        one, _, inst = instance.for_trial(table, k, n)
        runs.append(policy(setup, d, inst, one, record_actions=record_actions, progress=None))
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    counts = np.concatenate([r.counts for r in runs])
    actions = None if not record_actions else np.concatenate([r.actions for r in runs])
    stats: dict = {}
    for r in runs:
        for key, v in r.stats.items():
            stats[key] = stats.get(key, 0) + v if isinstance(v, (int, float)) and not isinstance(v, bool) else v
    stats["trial_levels"] = True
    return PolicyRun(counts, actions, stats)
