"""RS-UCB-M's time loop, compiled (Bernoulli arms, concave h): the driver.

The phases are those of :func:`rsb_sim.policies._ucb.run` (round-robin exploration, first
decision, tracking).  After the exploration the whole loop runs compiled, one trial at a time
(:mod:`rsb_sim.policies._rs_loop`), on ``setup.threads`` threads (:mod:`rsb_sim.policies._driver`).
It stops for a used-up reward buffer (refilled here) and for a decision its exact search leaves
to the branch and bound (:func:`rsb_theory.argmax.argmax` decides it here, on the same objective
the NumPy loop builds); then it resumes.  Same actions as the NumPy loop and the reference loop
(``tests/sim/test_exactness.py``).
"""

from __future__ import annotations

import numpy as np

from rsb_theory import argmax as am
from rsb_theory.argmax import edge_lines, intervals
from rsb_theory.objectives.validation import concave_fields

from ..rules import RADII_MAX, TIE_TOL, radius_table
from . import PolicyRun
from ._ce_loop import Streams
from ._driver import PAUSE_WORK, drive, pause_steps, start, thread_count
from ._rs_loop import Constants, Output, State, compiled_loop, scratch

#: Default trial-steps per compiled call (the progress bar and Ctrl-C are served between calls).
STEPS_PER_CALL = 200_000


def applies(setup, d, instance) -> bool:
    """True when the compiled loop applies: Bernoulli arms (RS-UCB-M's only case), a tracking phase,
    an h that numba compiles (concave: RS-UCB-M refuses the others), and a maximiser of h within the
    hull [min p, max p] of the means.

    The last condition is a route choice, not a change of the algorithm (both loops take the
    reference loop's actions): the compiled search decides when a mixture's interval of means can
    reach the level set of h near its maximum.  When every maximiser lies outside the hull (a monotone
    h, u**s, the mean; Gini on an instance with both means on one side of 1/2), that soon fails at
    every step once the radius is small, and each decision went to the branch and bound one trial
    at a time -- hundreds of times slower than the NumPy loop, which searches all trials at once.
    """
    if not (instance.kind == "bernoulli" and setup.explore_steps < setup.T and edge_lines.available(d)):
        return False
    fields = concave_fields(d)
    if not fields.get("concave"):
        return False
    p = np.asarray(instance.p, dtype=float)
    return float(fields["xs_hi"]) >= float(p.min()) and float(fields["xs_lo"]) <= float(p.max())


def run(setup, d, instance, table, record_actions: bool = False, progress=None,
        steps_per_call: int = STEPS_PER_CALL, work_budget: int = intervals.WORK_BUDGET,
        radii_max: int = RADII_MAX) -> PolicyRun:
    """Simulate RS-UCB-M; requires :func:`applies`.

    ``steps_per_call`` (trial-steps per compiled call), ``work_budget`` (points a compiled
    search may read before it leaves the decision to the branch and bound) and ``radii_max`` (pull
    counts whose radius is tabulated; larger ones by the formula) change no result.
    ``stats``: ``quick`` (decisions kept by the interval certificate), ``compiled`` (exact
    searches in the loop), ``full`` and ``bnb`` (decisions by :func:`rsb_theory.argmax.argmax`),
    ``work`` (points and prefixes the compiled searches read), ``refills``.
    """
    B, K, T, n0 = table.trials, setup.K, setup.T, setup.n0
    n_thr = thread_count(setup, B)
    loop = compiled_loop()
    h = edge_lines.compiled_h(d)
    xs = float(concave_fields(d)["xs_lo"])
    actions, rew, bufs, ones = start(setup, table, record_actions)
    t0 = K * n0 + 1
    grid = setup.grid
    streams = Streams(*bufs)
    state = State(ones=ones, tau=np.full((B, K), float(n0)),
                  cur=np.full((B, K - 1), -1, dtype=np.int64), a=np.zeros((B, K)), arm=np.zeros(B, dtype=np.int64),
                  t_next=np.full(B, t0 - 1, dtype=np.int64), need=np.zeros(B, dtype=np.int64))
    consts = Constants(t0=int(t0), T=int(T), radius_c=float(setup.radius_c), budget=int(grid.budget),
                       eps=float(grid.eps), offset=float(grid.offset), tol=float(TIE_TOL), xs=xs, hmax=float(h.ctypes(xs)),
                       work=int(work_budget), record=bool(record_actions), radii=radius_table(setup.radius_c, T, radii_max),
                       pause_steps=pause_steps(steps_per_call), pause_work=int(PAUSE_WORK))
    stats = np.zeros((n_thr, 16), dtype=np.int64)  # a row of 128 bytes per thread: no shared cache line
    outs = [Output(stats[r, :4], actions) for r in range(n_thr)]
    scratches = [scratch(K) for _ in range(n_thr)]
    total = T - t0 + 1
    per_call = max(1, int(steps_per_call) // max(1, total))
    bnb = [0]

    def loop_call(r: int, b: int, end: int) -> int:
        return loop(h, streams, state, consts, outs[r], scratches[r], b, end)

    def on_stop(b: int) -> None:
        if state.need[b] == 0:  # the reward stream of its next pull is used up
            rew.refill(b * K + state.arm[b])
            return
        # the decision of step t_next[b]: the branch and bound on the NumPy loop's objective
        tau = state.tau[b:b + 1]
        obj = am.rs_ucb_objective(d, state.ones[b:b + 1] / tau, setup.radius(tau), validate=False)
        prev = state.cur[b:b + 1] if state.cur[b, 0] >= 0 else None
        dec = am.argmax(obj, grid, previous=prev)
        state.cur[b] = dec.counts[0]
        state.a[b] = dec.points[0]
        state.need[b] = 2
        bnb[0] += 1

    drive(B, n_thr, per_call, total, loop_call, on_stop, progress,
          partial=lambda b: max(0, min(total, int(state.t_next[b]) - t0 + 1)))
    tot = stats.sum(axis=0)
    return PolicyRun(state.tau.astype(np.int64), actions if record_actions else None,
                     {"full": int(tot[1]) + bnb[0], "bnb": bnb[0], "candidate": 0, "upper_bound": 0,
                      "quick": int(tot[0]), "compiled": int(tot[1]), "work": int(tot[2]), "refills": rew.refills})
