"""RS-UCB-M's time loop for Bernoulli arms and concave h, compiled by numba.

Plain Python below, compiled by :func:`compiled_loop`.  :func:`run_trials` advances trials b0..b1-1,
one trial at a time, from their step ``state.t_next[b]`` to T, and returns the first trial it did
not finish: b1, -1 - b for a trial b paused at the call's bound on work (:class:`Constants`: the caller
calls again; no decision changes), or a trial b that needs Python, either because the reward stream of its next pull
is used up (``state.need[b] = 0``: the caller refills stream b * K + arm[b]) or because the compiled
search left the decision to the branch and bound (``state.need[b] = 1``: the caller decides, writes
the choice and its mixture, sets ``need[b] = 2`` and calls again).  At each step t of a trial
(``algorithm:B-UCB-M``):

1. if t >= t0: the reward of arm ``arm[b]`` is read (:func:`rsb_sim.rewards.pop_buffered`), the
   action recorded, tau[b, arm] += 1 and, if t < T, ones[b, arm] += reward;
2. lo/hi = clip(phat -/+ radius, 0, 1) with phat = ones / tau and the radius of
   ``eq:UCB_confidence_sets`` (:func:`rsb_sim.rules.confidence_radius`, tabulated for 0..T pulls by
   :func:`rsb_sim.rules.radius_table`: a square root and a division less in the chain of dependent operations of
   a step; the same values);
3. the decision of ``eq:UCB_alpha`` (concave h: max of h over [<a, lo>, <a, hi>]): the current
   mixture is kept when its interval of means contains x* (its value is then max h, which no grid
   point exceeds); otherwise the exact search of :mod:`rsb_theory.argmax.intervals`, whose result
   is written to cur[b] with its mixture a[b] (:func:`rsb_sim.policies._ce_loop.record_choice`);
4. the next arm by ``eq:UCB_sampling_rule`` with t pulls made (:func:`rsb_sim.rules.track_arm`).

Step t0 - 1 (``t_next`` starts there) makes the first decision from the exploration's counts.
These are the operations of the NumPy loop (:func:`rsb_sim.policies._ucb.run`) in the same order,
and both searches apply the decision rule exactly, so the actions are the same
(``tests/sim/test_exactness.py``).  The loop releases the GIL and allocates nothing; calls on
disjoint trial ranges, each with its own :class:`Scratch` and :class:`Output`, may run in parallel
threads (:mod:`rsb_sim.policies._driver`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rsb_theory.argmax import edge_lines, intervals

from .. import rewards, rules
from . import _ce_loop
from ._ce_loop import Streams, own_lines


class State(NamedTuple):
    """The per-trial state of the run, shared by the threads (each touches its own rows)."""

    ones: np.ndarray  # (trials, K) float: rewards summed (number of ones)
    tau: np.ndarray  # (trials, K) float: pull counts
    cur: np.ndarray  # (trials, K-1) int64: the current choice (grid coordinates), -1: none
    a: np.ndarray  # (trials, K) float: the current mixture
    arm: np.ndarray  # (trials,) int64: the arm of the next pull
    t_next: np.ndarray  # (trials,) int64: the next step of each trial (T + 1: finished)
    need: np.ndarray  # (trials,) int64: why a trial stopped (0: refill, 1: a decision), 2: decided in Python


class Constants(NamedTuple):
    """The constants of the run (Python ints, floats and a bool: one compiled signature)."""

    t0: int  # first tracking step, K n0 + 1
    T: int
    radius_c: float  # radius_scale * 16 (sqrt(2 e log T) + 32)
    budget: int  # the grid's budget m, step eps and offset (rsb_theory.grids.Grid)
    eps: float
    offset: float
    tol: float  # the mixture tie tolerance (rsb_sim.rules.TIE_TOL)
    xs: float  # x*, the maximiser of h of RSUCBObjective (xs_lo)
    hmax: float  # h(x*) as the compiled h computes it
    work: int  # work budget of one compiled search (rsb_theory.argmax.intervals.WORK_BUDGET)
    record: bool  # write the actions
    radii: np.ndarray  # radius_c / sqrt(n) for n = 0.. pulls (rsb_sim.rules.radius_table: at most RADII_MAX + 1 entries)
    pause_steps: int  # a call pauses after this many steps (rsb_sim.policies._driver: signals are served between calls)
    pause_work: int  # ... or after this much search work


class Output(NamedTuple):
    """What one caller (thread) accumulates."""

    stats: np.ndarray  # (4,) int64: kept by the interval certificate, compiled searches, their work, left to Python
    actions: np.ndarray  # (trials, T) int8 when recording, else (1, 1)


class Scratch(NamedTuple):
    """Work arrays of one caller (thread)."""

    search: tuple  # rsb_theory.argmax.intervals.scratch(K)
    lo: np.ndarray  # (K,) float
    hi: np.ndarray  # (K,) float
    new: np.ndarray  # (K-1,) int64: the decision


#: Files whose code is compiled into :func:`run_trials` (besides this one): the stamp of its cache.
SOURCES = (edge_lines, intervals, rules, rewards, _ce_loop)

# The callees of run_trials, by global name: the plain functions, rebound to their compiled
# versions by compiled_loop() before run_trials is compiled.
_search = intervals.decide_one
_record = _ce_loop.record_choice
_pop = rewards.pop_buffered
_track = rules.track_arm
_radius = rules.confidence_radius

_COMPILED: dict = {}  # per-process memo of the compiled loop

FALLBACK = intervals.FALLBACK


def run_trials(h, streams: Streams, state: State, k: Constants, out: Output, sc: Scratch, b0: int, b1: int) -> int:
    buf, pos, fill, pulls = streams
    ones, tau, cur, a, arm, t_next, need = state
    t0, T, radius_c, m, eps, off, tol, xs, hmax, budget, record, radii, pause_steps, pause_work = k
    stats, actions = out
    search, lo, hi, new = sc
    K = tau.shape[1]
    K1 = K - 1
    nr = radii.shape[0]
    n = 0
    w0 = stats[2]
    for b in range(b0, b1):
        t = t_next[b]
        fresh = True  # lo and hi hold another trial's values (or this trial's before a stop)
        while t <= T:
            if n >= pause_steps or stats[2] - w0 >= pause_work:  # bounded work per call: pause, resumable
                t_next[b] = t
                return -1 - b
            n += 1
            if need[b] == 2:  # the decision of step t was made in Python
                need[b] = 0
                arm[b] = _track(t, a[b], tau[b])
                t += 1
                continue
            if t >= t0:
                i = arm[b]
                reward = _pop(buf, pos, fill, pulls, b, i)
                if reward < 0:  # the stream is used up: the caller refills it and calls again
                    t_next[b] = t
                    need[b] = 0
                    return b
                if record:
                    actions[b, t - 1] = i
                tau[b, i] += 1.0
                if t == T:
                    break
                ones[b, i] += reward
            # lo, hi of the trial: every arm at its first decision, then the pulled arm only (the
            # others' inputs have not changed, so neither have their values)
            j0 = 0 if t < t0 or fresh else arm[b]
            j1 = K if t < t0 or fresh else arm[b] + 1
            fresh = False
            for j in range(j0, j1):
                p = ones[b, j] / tau[b, j]
                pj = pulls[b, j]  # == tau[b, j]
                # = _radius(radius_c, tau[b, j]), tabulated up to nr - 1 pulls (the same bits beyond: one formula)
                r = radii[pj] if pj < nr else _radius(radius_c, float(pj))
                lo[j] = min(max(p - r, 0.0), 1.0)
                hi[j] = min(max(p + r, 0.0), 1.0)
            kept = False
            if cur[b, 0] >= 0:  # the interval of means of the current mixture contains x*: kept
                A = 0.0
                B = 0.0
                for j in range(K):
                    A += a[b, j] * lo[j]
                    B += a[b, j] * hi[j]
                kept = A <= xs and B >= xs
            if kept:
                stats[0] += 1
            else:
                w = _search(h, lo, hi, xs, hmax, cur[b], new, m, eps, off, tol, search, budget)
                if w == FALLBACK:  # the caller decides with the branch and bound, then calls again
                    t_next[b] = t
                    need[b] = 1
                    stats[3] += 1
                    return b
                stats[1] += 1
                stats[2] += w
                changed = False
                for j in range(K1):
                    changed = changed or new[j] != cur[b, j]
                if changed:
                    _record(new, eps, off, cur, a, b)
            arm[b] = _track(t, a[b], tau[b])
            t += 1
        t_next[b] = T + 1
    return b1


def track_only(t_from, T, a, tau, actions, record):
    """Tracking with a fixed mixture a (one trial): steps t_from..T by ``eq:UCB_sampling_rule``, counts
    into tau (K,), actions (if ``record``) into actions (T,)."""
    for t in range(t_from, T + 1):
        i = _track(t - 1, a, tau)
        tau[i] += 1.0
        if record:
            actions[t - 1] = i
    return 0


def compiled_loop():
    """:func:`run_trials` compiled (on first use, or loaded from the on-disk cache).

    Releases the GIL; compiled without numba's reference-counted runtime (it allocates nothing).
    """
    if "run_trials" not in _COMPILED:
        g = globals()
        g["_search"] = intervals.compiled_search()
        for name in ("_record", "_pop", "_track", "_radius"):
            g[name] = edge_lines.njit_cached(g[name], inline="always", nrt=False)
        _COMPILED["run_trials"] = edge_lines.njit_cached(run_trials, sources=SOURCES, inline="never", nrt=False,
                                                         nogil=True)
        _COMPILED["track_only"] = edge_lines.njit_cached(track_only, sources=SOURCES, nrt=False)
    return _COMPILED["run_trials"]


def compiled_tracking():
    """:func:`track_only` compiled."""
    compiled_loop()
    return _COMPILED["track_only"]


def scratch(K: int) -> Scratch:
    """The work arrays of one thread, each on cache lines of its own (:func:`rsb_sim.policies._ce_loop.own_lines`)."""
    return Scratch(tuple(own_lines(x) for x in intervals.scratch(K)), own_lines(np.zeros(K)), own_lines(np.zeros(K)),
                   own_lines(np.zeros(K - 1, dtype=np.int64)))
