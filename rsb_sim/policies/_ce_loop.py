"""CE-UCB-M's time loop for Bernoulli arms, q = 1 and concave h, compiled by numba.

Plain Python below, compiled by :func:`compiled_loop` (readable, and runnable, as Python).
:func:`run_trials` advances trials b0..b1-1, one trial at a time, from their step
``state.t_next[b]`` to T, and returns the first trial it did not finish: b1, or a trial b
whose next reward stream is used up (the caller refills the stream b * K + arm[b] of
:class:`rsb_sim.rewards.VectorRewards` and calls again), or -1 - b when trial b paused at the
call's bound on work (``pause_steps`` steps or ``pause_work`` evaluations, :class:`Constants`:
the caller calls again; a pause is taken where a used-up stream stops, so it changes nothing,
and no call runs long enough to keep a signal waiting, :mod:`rsb_sim.policies._driver`).  At each step t of a trial
(``algorithm:UCB-M``):

1. if t >= t0: the reward of arm ``arm[b]`` is read from its buffer
   (:func:`rsb_sim.rewards.pop_buffered`), the action is recorded, tau[b, arm] += 1 and,
   if t < T, ones[b, arm] += reward (at t = T the run ends: only the count is updated);
2. phat = ones / tau and c = L_bonus * radius, with the radius of
   ``eq:UCB_alpha2`` with the previous choice cur[b]: by the window route of
   :mod:`rsb_theory.argmax.x_window` (K >= 3, grids of at most
   :data:`rsb_theory.argmax.x_window.WINDOW_MAX_GRID` points), or, where it declines, by the line
   search (:func:`rsb_theory.argmax.edge_lines.compiled_search`); the same decision either way,
   written to cur[b] with its mixture a[b]
   (:func:`record_choice`, as :func:`rsb_theory.argmax.points_of`);
3. the next arm by ``eq:UCB_sampling_rule`` with t pulls made
   (:func:`rsb_sim.rules.track_arm`), written to arm[b].

Step t0 - 1 (``t_next`` starts there) makes the first decision from the exploration's
counts without a pull.  These are the operations of the NumPy loop
(:func:`rsb_sim.policies._ucb.run`) in the same order, so the actions are the same
(``tests/sim/test_exactness.py``).

The loop releases the GIL: calls on disjoint trial ranges, each with its own
:class:`Scratch` and :class:`Output` counters, may run in parallel threads
(:mod:`rsb_sim.policies._ce_compiled`).  Its on-disk cache is stamped with this file and
every file compiled into it (:data:`SOURCES`, :func:`rsb_theory.argmax.edge_lines.njit_cached`), so
a change of the search in ``rsb_theory/argmax/edge_lines.py`` recompiles the loop.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rsb_theory.argmax import edge_lines, x_window

from .. import rewards, rules


class Streams(NamedTuple):
    """The reward buffers of :meth:`rsb_sim.rewards.VectorRewards.buffers` and its pull counts."""

    buf: np.ndarray  # (trials * K, block) int8 outcomes
    pos: np.ndarray  # (trials * K,) int64 next unread position
    fill: np.ndarray  # (trials * K,) int64 valid length
    pulls: np.ndarray  # (trials, K) int64


class State(NamedTuple):
    """The per-trial state of the run, shared by the threads (each touches its own rows)."""

    ones: np.ndarray  # (trials, K) float: rewards summed (number of ones)
    tau: np.ndarray  # (trials, K) float: pull counts
    cur: np.ndarray  # (trials, K-1) int64: the current choice (grid coordinates), -1: none
    a: np.ndarray  # (trials, K) float: the current mixture
    arm: np.ndarray  # (trials,) int64: the arm of the next pull
    t_next: np.ndarray  # (trials,) int64: the next step of each trial (T + 1: finished)


class Constants(NamedTuple):
    """The constants of the run (Python ints, floats and a bool: one compiled signature)."""

    t0: int  # first tracking step, K n0 + 1
    T: int
    radius_c: float  # radius_scale * 16 (sqrt(2 e log T) + 32)
    L_bonus: float
    budget: int  # the grid's budget m, step eps and offset (rsb_theory.grids.Grid)
    eps: float
    offset: float
    tol: float  # the mixture tie tolerance (rsb_sim.rules.TIE_TOL)
    cap: int  # candidates kept by the search (rsb_theory.argmax.edge_lines.CAND_CAP)
    record: bool  # write the actions
    window: bool  # try the window route (off when the radius is at least 1 all run long: it would decline)
    pause_steps: int  # a call pauses after this many steps (rsb_sim.policies._driver: signals are served between calls)
    pause_work: int  # ... or after this many objective evaluations


class Output(NamedTuple):
    """What one caller (thread) accumulates."""

    stats: np.ndarray  # (4,) int64: evaluations, decisions by enumeration of the grid, decisions, by the window
    actions: np.ndarray  # (trials, T) int8 when recording, else (1, 1)


class Scratch(NamedTuple):
    """Work arrays of one caller (thread)."""

    search: tuple  # rsb_theory.argmax.edge_lines.scratch(K, m)
    window: tuple  # rsb_theory.argmax.x_window.window_scratch(grid) (an empty grid: the route is off)
    p: np.ndarray  # (K,) float: phat of the trial
    c: np.ndarray  # (K,) float: the bonus
    new: np.ndarray  # (K-1,) int64: the decision


#: Files whose code is compiled into :func:`run_trials` (besides this one): the stamp of its cache.
SOURCES = (edge_lines, x_window, rules, rewards)


def record_choice(n, eps, off, cur, a, b):
    """Record the choice n (K-1 integer coordinates) of trial b in cur[b], and its mixture in a[b].

    a_k = eps (n_k + offset) (``eq:etc_discrete_set``, :class:`rsb_theory.grids.Grid`), the
    last coordinate 1 - sum of the others (summed in order), clipped at 0: the mixture of
    :func:`rsb_theory.argmax.points_of`, bit for bit (``tests/sim/test_rules.py``).  One loop
    for both (measured: the mixture written in a loop of its own after the choice made the
    compiled loop 10-15 % slower at K = 2).
    """
    K1 = cur.shape[1]
    s = 0.0
    for j in range(K1):
        cur[b, j] = n[j]
        v = eps * (float(n[j]) + off)
        a[b, j] = v
        s += v
    last = 1.0 - s
    a[b, K1] = last if last > 0.0 else 0.0


# The callees of run_trials, by global name: the plain functions, rebound to their compiled
# versions by compiled_loop() before run_trials is compiled.
_decide_one = edge_lines._decide_one
_window = x_window.decide_window
_record = record_choice
_pop = rewards.pop_buffered
_radius = rules.confidence_radius
_track = rules.track_arm

_COMPILED: dict = {}  # per-process memo of the compiled loop

DECLINED = x_window.DECLINED


def run_trials(h, streams: Streams, state: State, k: Constants, out: Output, sc: Scratch, b0: int, b1: int) -> int:
    buf, pos, fill, pulls = streams
    ones, tau, cur, a, arm, t_next = state
    t0, T, radius_c, L_bonus, m, eps, off, tol, cap, record, use_window, pause_steps, pause_work = k
    stats, actions = out
    search, window, p, c, new = sc
    K = tau.shape[1]
    n = 0
    e0 = stats[0]
    for b in range(b0, b1):
        t = t_next[b]
        while t <= T:
            if n >= pause_steps or stats[0] - e0 >= pause_work:  # bounded work per call: pause, resumable
                t_next[b] = t
                return -1 - b
            n += 1
            if t >= t0:
                i = arm[b]
                reward = _pop(buf, pos, fill, pulls, b, i)
                if reward < 0:  # the stream is used up: the caller refills it and calls again
                    t_next[b] = t
                    return b
                if record:
                    actions[b, t - 1] = i
                tau[b, i] += 1.0
                if t == T:
                    break
                ones[b, i] += reward
            for j in range(K):
                p[j] = ones[b, j] / tau[b, j]
                c[j] = L_bonus * _radius(radius_c, tau[b, j])
            ev = _window(h, p, c, cur[b], new, m, eps, off, tol, cap, search, window, b) if use_window else DECLINED
            if ev == DECLINED:
                ev = _decide_one(h, p, c, cur[b], new, m, eps, off, tol, cap, search)
            else:
                stats[3] += 1
            if ev < 0:
                stats[0] -= ev
                stats[1] += 1
            else:
                stats[0] += ev
            stats[2] += 1
            _record(new, eps, off, cur, a, b)
            arm[b] = _track(t, a[b], tau[b])
            t += 1
        t_next[b] = T + 1
    return b1


def compiled_loop():
    """:func:`run_trials` compiled (on first use, or loaded from the on-disk cache).

    Releases the GIL; compiled without numba's reference-counted runtime (it allocates nothing).
    """
    if "run_trials" not in _COMPILED:
        g = globals()
        g["_decide_one"] = edge_lines.compiled_search()
        g["_window"] = x_window.compiled_window()
        for name in ("_record", "_pop", "_radius", "_track"):
            g[name] = edge_lines.njit_cached(g[name], inline="always", nrt=False)
        _COMPILED["run_trials"] = edge_lines.njit_cached(run_trials, sources=SOURCES, inline="never", nrt=False,
                                                         nogil=True)
    return _COMPILED["run_trials"]


def own_lines(a: np.ndarray, line: int = 64) -> np.ndarray:
    """A copy of ``a`` on cache lines of its own (aligned, padded by a line on each side).

    The work arrays of a thread are written at every step; when two threads run, small
    arrays allocated one after the other could share a cache line with the other thread's
    and slow both down (false sharing).
    """
    raw = np.zeros(a.nbytes + 3 * line, dtype=np.uint8)
    start = line + (-raw.ctypes.data) % line
    out = raw[start:start + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


def scratch(grid) -> Scratch:
    """The work arrays of one thread, each on cache lines of its own (:func:`own_lines`)."""
    K, m = grid.K, int(grid.budget)
    search = tuple(own_lines(x) for x in edge_lines.scratch(K, m))
    window = tuple(own_lines(x) for x in x_window.window_scratch(grid))
    return Scratch(search, window, own_lines(np.zeros(K)), own_lines(np.zeros(K)),
                   own_lines(np.zeros(K - 1, dtype=np.int64)))
