"""A user's own policy: subclass :class:`IndexRule` or :class:`TargetRule` in a notebook (``docs/api.md``, "Your
own policy") and pass an instance wherever an algorithm's name goes (:func:`proofs_checks.api.simulate`,
:func:`proofs_checks.api.compare`, :func:`rsb_sim.engine.run`).  It runs in the plain (not compiled) engine, on the
same reward table and with the same statistics (:class:`Stats`) as the built-ins.

The adapters below run its ``index``/``target`` in the engine's loop (:func:`rsb_sim.policies._solitary.run`)
and in the plain reference loop (:mod:`rsb_sim.reference_index`).  Both routes hand the user's method the same :class:`Stats` -- all trials at once in the engine, one trial (B = 1)
in the reference loop -- so the routes differ only in their bookkeeping (vectorised counts against Python lists),
which the exactness test compares.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..rules import track_arm
from ._index import IndexPolicy
from rsb_theory.errors import ArgumentError


@dataclass(frozen=True)
class Stats:
    """What a user's policy sees before the pull of step t: the exact sufficient statistic of each arm's
    empirical law (``eq:empirical_CDF``).

    Attributes
    ----------
    counts : numpy.ndarray, shape (B, K), float
        Pulls of each arm (tau_i).
    levels : numpy.ndarray, shape (B, K, m), float
        Pulls of each arm whose reward was ``support[j]``.
    support : numpy.ndarray, shape (m,)
        The reward levels (0, 1 for Bernoulli arms).
    """

    counts: np.ndarray
    levels: np.ndarray
    support: np.ndarray

    @property
    def sums(self) -> np.ndarray:
        """Sum of each arm's rewards, (B, K)."""
        return self.levels @ self.support

    @property
    def means(self) -> np.ndarray:
        """Empirical mean of each arm, (B, K)."""
        return self.sums / self.counts


def _checked(values, shape: tuple, what: str) -> np.ndarray:
    out = np.asarray(values, dtype=float)
    if out.shape != shape:
        raise ArgumentError("algo", f"the policy's {what} returned shape {out.shape}, expected {shape}")
    return out


def vector_scores(index, instance):
    """The engine's index (counts (B, K, m), tau (B, K), t) -> (B, K) from a user's ``index(stats, t)``."""
    support = np.asarray(instance.support, dtype=float)

    def scores(counts_m, tau, t):
        return _checked(index(Stats(tau, counts_m, support), t), tau.shape, "index")

    return scores


def one_trial_scores(index, instance, hists: list, t: int) -> list:
    """The reference loop's K indices of one trial from a user's ``index(stats, t)`` (B = 1)."""
    levels = np.array([hists], dtype=float)
    stats = Stats(levels.sum(axis=2), levels, np.asarray(instance.support, dtype=float))
    return [float(v) for v in _checked(index(stats, t), (1, len(hists)), "index")[0]]


def vector_deficits(target, instance):
    """The engine's index for a user's ``target(stats, t)``: the deficits (t - 1) alpha_i - tau_i of
    ``eq:UCB_sampling_rule``, whose largest (lowest arm within TRACK_TOL = INDEX_TOL) is the tracked arm."""
    support = np.asarray(instance.support, dtype=float)

    def deficits(counts_m, tau, t):
        alpha = _checked(target(Stats(tau, counts_m, support), t), tau.shape, "target")
        return (t - 1) * alpha - tau

    return deficits


def one_trial_track(target, instance, hists: list, t: int) -> int:
    """The reference loop's arm for a user's ``target(stats, t)``: :func:`rsb_sim.rules.track_arm` (B = 1)."""
    levels = np.array([hists], dtype=float)
    stats = Stats(levels.sum(axis=2), levels, np.asarray(instance.support, dtype=float))
    alpha = _checked(target(stats, t), (1, len(hists)), "target")[0]
    return int(track_arm(t - 1, alpha, np.array([sum(h) for h in hists], dtype=float)))


class IndexRule(IndexPolicy):
    """A user's index policy: subclass, set ``name``, and write ``index(stats, t)``.

    ``stats`` (:class:`Stats`) holds, for B trials at once, ``counts`` (B, K): the pulls
    of each arm; ``levels`` (B, K, m): the pulls of each arm whose reward fell on each level of ``support``
    (m,); ``sums`` (B, K) and ``means`` (B, K).  ``index`` returns the (B, K) scores before the pull of step
    t (t - 1 pulls done); the arm of largest score is pulled (lowest arm within
    :data:`rsb_sim.policies._solitary.INDEX_TOL` on ties), after ``explore`` pulls per arm in round robin
    (default 1).  The engine calls it with all trials at once; the reference loop, one trial (B = 1).
    """

    family = "user"

    def index(self, stats, t: int):
        raise NotImplementedError

    def vector_index(self, setup, d, instance):
        return vector_scores(self.index, instance)

    def reference_index(self, setup, d, instance, hists, n, state):
        return one_trial_scores(self.index, instance, hists, n + 1)


class TargetRule(IndexPolicy):
    """A user's mixture-target policy: subclass, set ``name``, and write ``target(stats, t)``.

    ``target`` returns the (B, K) mixtures alpha (rows on the simplex) before the pull of step t; the arm
    pulled is the tracking rule ``eq:UCB_sampling_rule`` (:func:`rsb_sim.rules.track`): the largest deficit
    (t - 1) alpha_i - tau_i, lowest arm within :data:`rsb_sim.rules.TRACK_TOL`.  ``stats`` as for
    :class:`IndexRule`; ``explore`` pulls per arm in round robin first (default 1).
    """

    family = "user"

    def target(self, stats, t: int):
        raise NotImplementedError

    def vector_index(self, setup, d, instance):
        return vector_deficits(self.target, instance)

    def reference_choice(self, setup, d, instance, hists, n, state):
        return one_trial_track(self.target, instance, hists, n + 1)
