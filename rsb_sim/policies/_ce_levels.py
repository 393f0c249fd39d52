"""CE-UCB-M's time loop on levels (finite-support, empirical and quantised or per-trial continuous arms),
compiled: q = 1 and a concave h with a finite Lipschitz constant.

The phases are those of :func:`rsb_sim.policies._ucb.run` (round-robin exploration, first
decision, tracking), one trial at a time, with the operations of the reference loop in the same
order (``algorithm:UCB-M``):

1. at step t >= t0 the reward of arm ``arm[b]`` is read from its buffer (its level index),
   the action recorded, tau[b, arm] += 1 and, if t < T, the arm's level count, its survival
   S_ij = #(rewards >= x_j) / tau_i (``eq:empirical_CDF``) and its radius are updated (at t = T
   the run ends);
2. the mixture of ``eq:UCB_alpha2`` with the previous choice, exactly
   (:mod:`rsb_theory.argmax.levels`);
3. the next arm by ``eq:UCB_sampling_rule`` (:func:`rsb_sim.rules.track_arm`).

Every decision is a full search (no step is skipped): with the paper's radius the choice changes
at nearly every step, and a certificate that keeps it (the search's Q, an upper bound on every
other grid point, moved by the Lipschitz bound of one new reward) was tried and never held on the
instances measured (``docs/arms.md``).  The reference loop and the NumPy route are compared with
this loop in ``tests/sim/test_ce_levels.py``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rsb_theory.argmax import edge_lines, levels

from .. import rewards, rules
from ..rules import TIE_TOL
from . import PolicyRun
from ._driver import PAUSE_WORK, drive, pause_steps, start, thread_count

#: Default trial-steps per compiled call (the progress bar and Ctrl-C are served between calls).
STEPS_PER_CALL = 20_000

class State(NamedTuple):
    """Per-trial state, shared by the threads (each touches its own rows)."""

    hist: np.ndarray  # (trials, K, J) int64: rewards per level
    tau: np.ndarray  # (trials, K) float: pull counts
    cur: np.ndarray  # (trials, K-1) int64: the current choice, -1: none
    a: np.ndarray  # (trials, K) float: the current mixture
    arm: np.ndarray  # (trials,) int64: the arm of the next pull
    t_next: np.ndarray  # (trials,) int64: the next step (T + 1: finished)


class Constants(NamedTuple):
    t0: int
    T: int
    radius_c: float
    L_bonus: float
    L: float  # the Lipschitz constant of h (q = 1)
    budget: int
    eps: float
    offset: float
    tol: float
    record: bool
    mode: int  # 1: h quadratic, 2: piecewise linear, 0: neither (rsb_theory.argmax.levels.forms)
    pause_steps: int  # a call pauses after this many steps (rsb_sim.policies._driver: signals are served between calls)
    pause_work: int  # ... or after this many evaluations, prefixes and lines


class Scratch(NamedTuple):
    ST: np.ndarray  # (J, K) survival of the trial being run
    CNT: np.ndarray  # (J, K) float: rewards >= x_j per arm
    r: np.ndarray  # (K,) radii
    new: np.ndarray  # (K-1,) int64 decision
    search: tuple  # rsb_theory.argmax.levels.scratch
    qc: np.ndarray  # (3,) c0 W, c1, c2 of a quadratic h
    mq: np.ndarray  # (K,) sum_j w_j S_ij
    Qm: np.ndarray  # (K, K) sum_j w_j S_ij S_kj
    pl: np.ndarray  # (p, 2) pieces of a piecewise-linear h
    bk: np.ndarray  # (p-1,) its breakpoints
    PS: np.ndarray  # (J+1, K) prefix sums of w_j S_ij
    WP: np.ndarray  # (J+1,) prefix sums of w_j


# Callees by global name, rebound to their compiled versions by compiled_loop().
_decide = levels._decide
_point = levels._point
_quad_forms = levels.quad_forms
_quad_row = levels._quad_row
_pl_sums = levels.pl_sums
_pop = rewards.pop_buffered
_radius = rules.confidence_radius
_track = rules.track_arm

#: Files whose code is compiled into :func:`run_trials` (the stamp of its cache).
SOURCES = (levels, rules, rewards)

_COMPILED: dict = {}


def _enter(hist, tau, b, w, radius_c, ST, CNT, r):
    """Rebuild the trial's survival, counts and radii from its level counts (on entering a trial)."""
    K = tau.shape[1]
    J = w.shape[0]
    for i in range(K):
        c = 0.0
        for j in range(J - 1, -1, -1):
            c += hist[b, i, j]
            CNT[j, i] = c
            ST[j, i] = c / tau[b, i]
        r[i] = _radius(radius_c, tau[b, i])


def run_trials(h, buf, pos, fill, pulls, w, state, k, stats, actions, sc, b0, b1):
    hist, tau, cur, a, arm, t_next = state
    t0, T, radius_c, L_bonus, Lh, m, eps, off, tol, record, mode, pause_steps, pause_work = k
    ST, CNT, r, new, search, qc, mq, Qm, pl, bk, PS, WP = sc
    K = tau.shape[1]
    J = w.shape[0]
    n = 0
    w0 = stats[0] + stats[1] + stats[2]
    for b in range(b0, b1):
        t = t_next[b]
        _enter(hist, tau, b, w, radius_c, ST, CNT, r)
        if mode == 1:
            _quad_forms(ST, w, mq, Qm)
        elif mode == 2:
            _pl_sums(ST, w, PS, 0, K)
        ob = (ST, w, r, L_bonus, mode, qc, mq, Qm, pl, bk, PS, WP)
        while t <= T:
            # bounded work per call (J per step for the counts, the search's own work): pause, resumable
            if n >= pause_steps or stats[0] + stats[1] + stats[2] - w0 >= pause_work:
                t_next[b] = t
                return -1 - b
            n += 1 + J
            if t >= t0:
                i = arm[b]
                lev = _pop(buf, pos, fill, pulls, b, i)
                if lev < 0:  # the stream is used up: the caller refills it and calls again
                    t_next[b] = t
                    return b
                if record:
                    actions[b, t - 1] = i
                tau[b, i] += 1.0
                if t == T:
                    break
                hist[b, i, lev] += 1
                ti = tau[b, i]
                for j in range(J):
                    if j <= lev:
                        CNT[j, i] += 1.0
                    ST[j, i] = CNT[j, i] / ti
                r[i] = _radius(radius_c, ti)
                if mode == 1:
                    _quad_row(ST, w, i, mq, Qm)
                elif mode == 2:
                    _pl_sums(ST, w, PS, i, i + 1)
            _decide(h, ob, Lh, K, m, eps, off, tol, cur[b], new, search, stats)
            stats[4] += 1
            for j in range(K - 1):
                if cur[b, j] != new[j]:
                    stats[5] += 1
                    break
            for j in range(K - 1):
                cur[b, j] = new[j]
            _point(new, K, eps, off, a[b])
            arm[b] = _track(t, a[b], tau[b])
            t += 1
        t_next[b] = T + 1
    return b1


def compiled_loop():
    """:func:`run_trials` compiled (on first use, or loaded from the on-disk cache); releases the GIL."""
    if "run_trials" not in _COMPILED:
        g = globals()
        fns = levels.compiled()
        for name in ("_decide", "_point", "_quad_row"):
            g[name] = fns[name]
        g["_quad_forms"] = fns["quad_forms"]
        g["_pl_sums"] = fns["pl_sums"]
        for name in ("_pop", "_radius", "_track", "_enter"):
            g[name] = edge_lines.njit_cached(g[name], inline="always", nrt=False)
        _COMPILED["run_trials"] = edge_lines.njit_cached(run_trials, sources=SOURCES, inline="never", nrt=False,
                                                         nogil=True)
    return _COMPILED["run_trials"]


def applies(setup, d, instance) -> bool:
    """True when this loop runs CE-UCB-M: ``setup.compiled``, arms on levels (not Bernoulli), a tracking
    phase, and :func:`rsb_theory.argmax.levels.applies` (q = 1, concave compilable h, levels >= 0)."""
    return bool(setup.compiled and instance.kind != "bernoulli" and setup.explore_steps < setup.T
                and levels.applies(d, setup.q, setup.L, instance.support))


def run(setup, d, instance, table, record_actions: bool = False, progress=None,
        steps_per_call: int = STEPS_PER_CALL) -> PolicyRun:
    """Simulate CE-UCB-M on levels (requires :func:`applies`).

    Trials are split over ``setup.threads`` threads as in :mod:`rsb_sim.policies._ce_compiled` (a
    trial's actions depend on its own rewards only: the split changes no result).
    ``stats``: ``evaluations`` (objective values and planes computed), ``searches`` (decisions),
    ``changes`` (decisions that moved the choice), ``prefixes`` and ``lines`` (of the branch and
    bound), ``refills``.
    """
    B, K, T, n0 = table.trials, setup.K, setup.T, setup.n0
    n_thr = thread_count(setup, B)
    loop = compiled_loop()
    h = edge_lines.compiled_h(d)
    w = levels.steps_of(instance.support)
    form = levels.forms(d)
    qc, pl, bk = levels.form_arrays(form, w)
    actions, rew, bufs, hist = start(setup, table, record_actions, counts=True)
    t0 = K * n0 + 1
    grid = setup.grid
    state = State(hist=hist, tau=np.full((B, K), float(n0)), cur=np.full((B, K - 1), -1, dtype=np.int64),
                  a=np.zeros((B, K)), arm=np.zeros(B, dtype=np.int64), t_next=np.full(B, t0 - 1, dtype=np.int64))
    consts = Constants(t0=int(t0), T=int(T), radius_c=float(setup.radius_c), L_bonus=float(setup.L_bonus),
                       L=float(setup.L), budget=int(grid.budget), eps=float(grid.eps), offset=float(grid.offset),
                       tol=float(TIE_TOL), record=bool(record_actions), mode=int(form[0]),
                       pause_steps=pause_steps(steps_per_call, 1 + w.size), pause_work=int(PAUSE_WORK))
    J = w.size
    stats = np.zeros((n_thr, 16), dtype=np.int64)  # a row of 128 bytes per thread: no shared cache line
    scratches = [Scratch(np.zeros((J, K)), np.zeros((J, K)), np.zeros(K), np.zeros(K - 1, dtype=np.int64),
                         levels.scratch(K, grid.budget), qc.copy(), np.zeros(K), np.zeros((K, K)), pl.copy(),
                         bk.copy(), np.zeros((J + 1, K)), levels.prefix_widths(w))
                 for _ in range(n_thr)]
    total = T - t0 + 1
    per_call = max(1, int(steps_per_call) // max(1, total))
    buf, pos, fill, pulls = bufs

    def loop_call(r: int, b: int, end: int) -> int:
        return loop(h, buf, pos, fill, pulls, w, state, consts, stats[r, :6], actions, scratches[r], b, end)

    def on_stop(b: int) -> None:  # trial b stopped: the reward stream of its next pull is used up
        rew.refill(b * K + state.arm[b])

    drive(B, n_thr, per_call, total, loop_call, on_stop, progress,
          partial=lambda b: max(0, min(total, int(state.t_next[b]) - t0 + 1)))
    tot = stats.sum(axis=0)
    return PolicyRun(state.tau.astype(np.int64), actions if record_actions else None,
                     {"full": int(tot[4]), "candidate": 0, "upper_bound": 0, "quick": 0,
                      "evaluations": int(tot[0]), "prefixes": int(tot[1]), "lines": int(tot[2]),
                      "searches": int(tot[4]), "changes": int(tot[5]), "refills": rew.refills, "levels_loop": True})
