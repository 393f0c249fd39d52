"""The loop shared by RS-UCB-M and CE-UCB-M (``algorithm:B-UCB-M``, ``algorithm:UCB-M``).

1. Forced exploration: n0 pulls per arm, round-robin in arm order 0..K-1
   (n0 = ceil(rho T eps / 4) or ``explore``); cut at T.
2. a = optimistic mixture from the exploration data (no previous).
3. For t = K n0 + 1, ..., T: pull A_t = argmax_i ((t-1) a(i) - tau(i)) (lowest
   index on ties, ``eq:UCB_sampling_rule`` with t-1 pulls done), update the
   counts, then (if t < T) recompute a with the previous a kept while still
   optimal (:class:`rsb_sim.search.Searcher`).

State arrays are (trials, K) for Bernoulli arms (number of ones) and
(trials, K, m) for finite-support arms (counts of each support point: the
exact sufficient statistic of the empirical CDF ``eq:empirical_CDF``); the
only Python loop is over time.
"""

from __future__ import annotations

import math

import numpy as np

from rsb_theory import argmax as am

from ..rewards import VectorRewards
from ..rules import track
from ..search import N_CAND, Searcher
from . import PolicyRun, round_robin_start
from ._driver import PAUSE_WORK
from ._rs_loop import compiled_tracking


def run(setup, d, instance, table, make_objective, use_upper_bound: bool, bonus: bool,
        record_actions: bool = False, progress=None, quick_keep=None,
        data_free: bool = False) -> PolicyRun:
    """Simulate one UCB-type policy.

    Parameters
    ----------
    make_objective : callable(est, radius (b, K)) -> rsb_theory.argmax.Objective
        ``est`` is phat (b, K) for Bernoulli arms, the empirical laws (b, K, m)
        for finite-support arms.
    use_upper_bound : bool
        Try the upper-bound certificate each step.
    bonus : bool
        The objective has the CE-UCB-M bonus (its drift enters the candidate certificate).
    quick_keep : callable(phat, radius, a) -> bool array, optional
        A cheap exact certificate that the current mixture is kept (checked first).
    data_free : bool
        Proven before the run that no decision depends on the rewards (every
        grid value is the same at every t, so the first mixture is kept for
        ever): one trial is simulated without rewards and broadcast.
    """
    B, K, T, n0 = table.trials, setup.K, setup.T, setup.n0
    actions, finished = round_robin_start(setup, B, record_actions)
    if finished is not None:
        finished.stats["full"] = 0
        return finished
    if data_free:
        one = _data_free(setup, d, make_objective, record_actions)
        counts = np.broadcast_to(one.counts, (B, K)).copy()
        acts = None if one.actions is None else np.broadcast_to(one.actions, (B, T)).copy()
        return PolicyRun(counts, acts, {"full": 1, "data_free": True})
    rew = VectorRewards(table, block=setup.block)
    hist = rew.take(np.full(K, n0))
    finite = instance.kind != "bernoulli"
    if finite:
        counts_m = hist.astype(float)  # (B, K, m) counts of each support point
        widths = np.diff(np.asarray(instance.support, dtype=float))  # steps [x_j, x_{j+1}), j = 1..m-1
    else:
        ones = hist[:, :, 1].astype(float)
        widths = None
    tau = np.full((B, K), float(n0))
    rows_all = np.arange(B)

    from rsb_theory.profile import of  # the distortion's one profile: q and L derived once per process

    hr = of(d).holder()
    L_exact = float(hr.L_exact) if (hr.attained and hr.L_exact is not None) else math.nan
    q = float(hr.q)
    # candidate sets pay off for CE-UCB-M only (see Searcher's use_candidates), and only on grids of more
    # than 2 N_CAND points: on smaller ones (K = 2, eps = 0.05: 20 points) enumerating every point is cheaper
    # than keeping the sets (measured: CE-UCB-M, K = 2, 1000 trials, T = 3000: 4.6e5 -> 1.1e6 trial-steps/s)
    budget = {} if setup.enum_budget is None else {"enum_budget": setup.enum_budget}
    searcher = Searcher(setup.grid, B, q, L_exact, setup.L_bonus if bonus else 0.0, use_upper_bound,
                        step_widths=widths, use_candidates=bonus and setup.grid.size > 2 * N_CAND, **budget)

    def estimates():
        """(estimate for the objective, drift statistic for the searcher, radius)."""
        radius = setup.radius(tau)
        if not finite:
            phat = ones / tau
            return phat, phat, radius
        probs = counts_m / tau[:, :, None]
        # S_ij = P_i(X > x_j) on the steps [x_j, x_{j+1}) (reverse cumulative sums of the masses)
        surv = np.clip(np.cumsum(probs[:, :, ::-1], axis=2)[:, :, ::-1][:, :, 1:], 0.0, 1.0)
        return probs, surv, radius

    est, stat, radius = estimates()
    searcher.full(make_objective(est, radius), rows_all, stat, radius ** setup.q if bonus else None)
    t0 = K * n0 + 1
    bar = progress(total=T - t0 + 1) if progress is not None else None
    for t in range(t0, T + 1):
        arm = track(t - 1, searcher.a, tau)
        out = rew.next(arm)
        tau[rows_all, arm] += 1
        if finite:
            counts_m[rows_all, arm, out] += 1
        else:
            ones[rows_all, arm] += out
        if actions is not None:
            actions[:, t - 1] = arm
        if t < T:
            est, stat, radius = estimates()
            if quick_keep is not None:
                todo = np.flatnonzero(~quick_keep(est, radius, searcher.a))
                searcher.stats.quick += B - todo.size
                if todo.size == 0:
                    continue
            else:
                todo = None
            rq = radius ** setup.q if bonus else None
            searcher.step(lambda rows: make_objective(est[rows], radius[rows]), stat, rq, todo)
            if bar is not None and (t - t0) % 1000 == 999:
                bar.update(1000)
    if bar is not None:
        bar.close()
    st = searcher.stats
    return PolicyRun(tau.astype(np.int64), actions, {"full": st.full, "bnb": st.bnb, "candidate": st.candidate,
                                                     "upper_bound": st.upper_bound, "quick": st.quick})


def _data_free(setup, d, make_objective, record_actions: bool) -> PolicyRun:
    """One trial when no decision depends on data: first decision, then pure tracking."""
    K, T, n0 = setup.K, setup.T, setup.n0
    # every grid value is max h: the tie rule takes the first grid point, (0, ..., 0)
    a = am.points_of(setup.grid, np.zeros((1, K - 1), dtype=np.int64))
    tau = np.full((1, K), float(n0))
    actions = np.empty((1, T), dtype=np.int8) if record_actions else None
    if actions is not None:
        actions[0, :K * n0] = np.arange(K * n0) % K
    # eq:UCB_sampling_rule with the fixed mixture (rsb_sim.rules.track_arm, compiled: T can be 3e5 steps), in
    # calls of at most PAUSE_WORK steps: signals are served between calls (the steps are the same)
    track = compiled_tracking()
    acts = actions[0] if actions is not None else np.empty(1, np.int8)
    for t_from in range(K * n0 + 1, T + 1, PAUSE_WORK):
        track(t_from, min(T, t_from + PAUSE_WORK - 1), a[0], tau[0], acts, actions is not None)
    return PolicyRun(tau.astype(np.int64), actions, {})
