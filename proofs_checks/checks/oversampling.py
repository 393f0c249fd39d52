"""``lemma:oversampling``: with a fixed target the over-sampled set O_t empties by T(eps) and never refills.

The tracking rule ``eq:UCB_sampling_rule``, A_{t+1} = argmax_i (t a(i) - tau_t(i)) (lowest index on ties),
with a fixed target a on the mid-point grid (every coordinate >= eps/2, the last one by the footnote of
``eq:etc_discrete_set`` too), started at t0 = T_0(eps) from *any* counts tau_{t0} with sum t0.
O_t = {i : tau_t(i)/t > a(i) + 1/t}.  The lemma (proof: ``eq:oversampling1`` .. ``eq:m``,
``eq:T_epsilon_actual``) claims O_t = {} for every t > T(eps) = T_0 + m = (2/eps)(T_0 - 1).

With deficits D_i(t) = t a(i) - tau_t(i) (sum_i D_i = 0), i is in O_t iff D_i < -1.  Exact facts checked here
on exact rationals (:func:`track_exact`):

* the pulled arm has D >= 0 (it is the largest of a zero-sum vector), so after the pull D >= a - 1 > -1: an arm
  outside O_t never enters O_{t+1} (case (a) / (b) of the proof);
* an arm in O_t is never pulled and leaves O_t at t = ceil((tau_{t0}(i) - 1)/a(i)) <= (2/eps)(t0 - 1) = T(eps).

:func:`check` runs a deterministic battery (K = 2..6, several eps incl. non-aligned grids, worst-case
start counts) plus the recorded actions of rsb_sim's RS-UCB-M at the paper's constants (the radius is >= 1,
so the first grid point is kept for the whole run: a fixed target, T_0 = end of the forced exploration).
The hypothesis property tests are in ``tests/checks/test_sampling_lemmas.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

import sympy as sp

from rsb_theory.expressions import to_sympy

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num

from ._mid_point import grid_point  # the one definition (also used by the tracking checks)
from ..causes import because
from rsb_theory.errors import ArgumentError

ID = "lemma:oversampling"
_eps, _T0 = sp.symbols("eps T_0", positive=True)


def mid_point_budget(K: int, eps: Fraction) -> int:
    """m = floor(1/eps - K/2), the largest n_1 + ... + n_{K-1} on the mid-point grid."""
    return math.floor(1 / eps - Fraction(K, 2))


@dataclass(frozen=True)
class Trajectory:
    """Exact tracking trajectory: counts[s] = tau_{t0 + s} (shape (steps+1, K)), actions[s] = arm pulled at t0+s+1."""

    a: tuple
    t0: int
    counts: np.ndarray
    actions: np.ndarray

    def deficits(self) -> list[list[Fraction]]:
        """D_i(t) = t a(i) - tau_t(i), exact, for t = t0 .. t0 + steps."""
        out = []
        for s, row in enumerate(self.counts):
            t = self.t0 + s
            out.append([t * ai - int(c) for ai, c in zip(self.a, row)])
        return out


def track_exact(a, tau0, steps: int) -> Trajectory:
    """Run ``eq:UCB_sampling_rule`` with fixed target ``a`` (Fractions) from counts ``tau0`` for ``steps`` pulls.

    Ties go to the lowest arm index (ARCHITECTURE.md).  Exact rational arithmetic.
    """
    a = tuple(Fraction(x) for x in a)
    tau = [int(x) for x in tau0]
    if len(a) != len(tau) or sum(a) != 1 or any(x < 0 for x in a) or any(c < 0 for c in tau):
        raise ArgumentError("a", "need a probability vector with one entry per arm and counts >= 0")
    t = sum(tau)
    den = math.lcm(*(x.denominator for x in a))
    A = [int(x * den) for x in a]  # integer numerators: D_i * den = t A_i - tau_i den, exact
    counts = [tuple(tau)]
    actions = []
    for _ in range(steps):
        d = [t * ai - c * den for ai, c in zip(A, tau)]
        i = d.index(max(d))
        tau[i] += 1
        t += 1
        actions.append(i)
        counts.append(tuple(tau))
    return Trajectory(a, sum(int(x) for x in tau0), np.array(counts, dtype=np.int64), np.array(actions, dtype=np.int64))


def T_eps(eps: Fraction, t0: int, m_text: str = paper_claims.OVERSAMPLING_M) -> Fraction:
    """T(eps) = T_0 + m (``eq:T_epsilon_actual``), m printed as text in eps and T_0 (``eq:m``:
    (2/eps - 1) T_0 - 2/eps, which gives (2/eps)(T_0 - 1)); exact."""
    m = to_sympy(m_text, "m", {"eps": _eps, "T_0": _T0}).subs({_eps: sp.Rational(eps.numerator, eps.denominator),
                                                                 _T0: t0})
    m = sp.nsimplify(m)
    return t0 + Fraction(int(m.p), int(m.q))


@dataclass(frozen=True)
class OversamplingVerdict:
    holds: bool
    entered: list  # (t, arm) where an arm outside O entered O; arms numbered 1..K as in the paper
    late: list  # (t, arm) with arm in O_t for some t > T(eps); arms numbered 1..K
    exit_times: list  # exact exit time of each arm initially in O
    bound: Fraction


def oversampling_verdict(traj: Trajectory, eps: Fraction, m_text: str = paper_claims.OVERSAMPLING_M
                         ) -> OversamplingVerdict:
    """Check the lemma's statement (and the absorbing property of its proof) on one exact trajectory."""
    bound = T_eps(eps, traj.t0, m_text)
    den = math.lcm(*(x.denominator for x in traj.a))
    A = np.array([int(x * den) for x in traj.a], dtype=object)
    t = np.arange(traj.t0, traj.t0 + len(traj.counts), dtype=object)[:, None]
    inO = (t * A[None, :] - traj.counts.astype(object) * den) < -den  # D_i < -1, exact integers
    entered, late = [], []
    K = len(traj.a)
    for s, i in zip(*np.nonzero(inO)):
        tt = traj.t0 + int(s)
        if tt > bound:
            late.append((tt, int(i) + 1))
        if s > 0 and not inO[s - 1, i]:
            entered.append((tt, int(i) + 1))
    exits = []
    for i in range(K):
        if inO[0, i]:
            out = np.nonzero(~inO[:, i])[0]
            exits.append(traj.t0 + int(out[0]) if out.size else None)
    return OversamplingVerdict(not entered and not late, entered, late, exits, bound)


def worst_starts(K: int, t0: int) -> list[tuple[int, ...]]:
    """Start counts with sum t0 that stress the lemma: all on one arm, balanced, all-but-one."""
    out = []
    for j in range(K):
        c = [0] * K
        c[j] = t0
        out.append(tuple(c))
    base = [t0 // K + (i < t0 % K) for i in range(K)]
    out.append(tuple(base))
    out.append(tuple([1] * (K - 1) + [t0 - (K - 1)]))
    return out


def battery():
    """(K, eps, n, t0) cases: aligned and non-aligned grids, extreme grid points."""
    cases = []
    for K in (2, 3, 4, 6):
        for eps in (Fraction(1, 10), Fraction(3, 20), Fraction(2, 9)):
            m = mid_point_budget(K, eps)
            if m < 0:
                continue
            pts = [tuple([0] * (K - 1)), tuple([m] + [0] * (K - 2)), tuple([0] * (K - 2) + [m])]
            for n in pts:
                for t0 in (K, 3 * K + 1):
                    cases.append((K, eps, n, t0))
    return cases


@lru_cache(maxsize=1)
def battery_trajectories() -> tuple[tuple[int, Fraction, tuple, Trajectory], ...]:
    """(K, eps, n, trajectory) of the battery, each run 40 steps past the printed T(eps) (the proof's own bound)."""
    out = []
    for K, eps, n, t0 in battery():
        a = grid_point(K, eps, n)
        for tau0 in worst_starts(K, t0):
            steps = int(math.ceil(T_eps(eps, t0))) - t0 + 40
            out.append((K, eps, n, track_exact(a, tau0, steps)))
    return tuple(out)


def run_battery(m_text: str = paper_claims.OVERSAMPLING_M):
    n_traj, fails, worst_gap = 0, [], None
    for K, eps, n, traj in battery_trajectories():
        bound = T_eps(eps, traj.t0, m_text)
        v = oversampling_verdict(traj, eps, m_text)
        n_traj += 1
        if not v.holds:
            fails.append((f"K={K}", f"eps={eps}", f"n={n}", f"tau_T0={tuple(int(x) for x in traj.counts[0])}",
                          f"entered (t, arm)={v.entered[:2]}", f"late (t, arm)={v.late[:2]}"))
        for e in v.exit_times:
            if e is not None:
                worst_gap = e - bound if worst_gap is None else max(worst_gap, e - bound)
    return n_traj, fails, worst_gap


@lru_cache(maxsize=1)
def simulated_trajectory(K: int = 3, T: int = 3000):
    """Recorded actions of rsb_sim RS-UCB-M at the paper's constants (fixed first grid point): (a, t0, actions, eps)."""
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run
    from rsb_sim.instances import BernoulliInstance
    from rsb_theory.distortions import get

    p = tuple(np.linspace(0.2, 0.8, K).round(3))
    res = run(SimConfig(T=T, trials=2, seed=3, record_actions=True), BernoulliInstance(p), get("gini"), "rs-ucb-m")
    eps = Fraction(res.setup.eps).limit_denominator(10**12)
    return res.setup, np.asarray(res.actions), eps


def simulated_verdict(K: int = 3, T: int = 3000, m_text: str = paper_claims.OVERSAMPLING_M):
    """Replay rsb_sim's recorded actions: same actions as the exact tracker with the first grid point as target."""
    setup, actions, _ = simulated_trajectory(K, T)
    a_float = setup.grid.points()[0]
    t0 = setup.explore_steps
    eps = Fraction(setup.eps)
    a = tuple(Fraction(x) for x in a_float[:-1])
    a = a + (1 - sum(a),)
    tau0 = np.bincount(actions[0, :t0], minlength=K)
    traj = track_exact(a, tau0, T - t0)
    same = all(np.array_equal(actions[k, t0:], traj.actions) for k in range(actions.shape[0]))
    return same, oversampling_verdict(traj, eps, m_text), traj, eps


@because("forced_exploration")
def check(claim: Claim) -> CheckResult:
    m_text = claim.printed
    n_traj, fails, worst_gap = run_battery(m_text)
    same, sv, _traj, eps = simulated_verdict(m_text=m_text)
    holds = not fails and sv.holds and same
    ev = (f"{n_traj} exact trajectories (K in 2,3,4,6; eps in 1/10, 3/20, 2/9 incl. non-aligned grids; extreme "
          f"grid points; start counts all-on-one-arm / balanced / all-but-one at t0 = T_0): "
          f"{'no' if not fails else len(fails)} violation(s) of O_t = {{}} for t > T_0 + m, m = {m_text}"
          f"{'' if not fails else ': ' + str(fails[:2])}; "
          f"no arm outside O_t ever entered O_{{t+1}}; latest exit - T(eps) = {num(float(worst_gap), 3, 'f')} "
          f"(in (0, 1) only for non-integer T(eps): the bound is attained by the all-on-one-arm start with "
          f"a(i) = eps/2).  rsb_sim RS-UCB-M (paper constants, K=3, T=3000: radius >= 1 so the first "
          f"grid point is kept) replays {'identically' if same else 'DIFFERENTLY'} with the exact tracker and "
          f"satisfies the lemma with T_0 = end of forced exploration (bound T(eps) = {num(float(sv.bound), 0, 'f')}).  "
          f"Proof facts: the pulled arm has D >= 0 so D stays > -1 after a pull; an over-sampled arm (D < -1) is "
          f"never pulled and leaves at ceil((tau_T0(i) - 1)/a(i)) <= (2/eps)(T_0 - 1) because a(i) >= eps/2 "
          f"(also for the footnote's last coordinate).  Needs a(i) > 0: false on the etc grid (a(i) = 0 keeps an "
          f"explored arm over-sampled forever), which the lemma does not use.  These trajectories start the tracking at "
          f"T_0, as the proof does; RS-UCB-M's forced exploration (algorithm:B-UCB-M) can run past T_0 and past "
          f"T_0 + m (lemma:oversampling#step:eq:m_finite has the witness), and then O_t is not empty just after "
          f"T_0 + m.  ")
    # the printed statement in RS-UCB-M's context, read with the paper's T(eps) = T_0 + m (the quantity of
    # theorem:UCB upper bound's hypothesis T > T(eps)): does O_t empty by T(eps) when the exploration outlasts it?
    from . import _sampling_context as sc
    from . import _ucb_run as ur

    repaired = claim.assumes("range") == sc.REPAIR
    ctx = sc.cases(lambda a, tau, t: bool(ur.over_sampled(a, tau, t)),
                   lambda run: T_eps(run.setting.eps, run.setting.T0, m_text))
    ev += sc.words(ctx, "O_t = {}")
    in_context = not any(c.witness for c in ctx) or repaired
    repair_ok = holds and all(c.holds_from_start for c in ctx)
    at_uses = repair_ok and all(c.holds_at_T for c in ctx)
    ev += f"  Used only at t = T (theorem:UCB upper bound), where it holds: {at_uses}."
    past_E = [c for c in ctx if c.witness and c.witness[0] > c.run.E]
    if past_E:
        ev += (f"  The range t >= max(T(eps), K ceil(rho T eps/4)) (the end of the exploration) is not enough: in "
               f"{len(past_E)} runs the failure is after both (t = {past_E[0].witness[0]} > E = {past_E[0].run.E}): the "
               "exploration's arms with a*(i) < 1/K leave O_t only at (2/eps)(ceil(rho T eps/4) - 1).")
    status = decide(holds=holds and in_context, repair=sc.REPAIR if repair_ok and not in_context else None,
                    repair_at_uses=at_uses)
    return CheckResult(ID, "Under the complement of E3 (fixed target a* from T_0 on), O_t is empty for every "
                           f"t > T(eps) = T_0 + m, m = {m_text}" + (f", read for {sc.REPAIR}" if repaired else ""),
                       f"O_t = {{}} for t > T(eps) = T_0 + m, m = {m_text}",
                       ("holds (exact tracking, every start)" if in_context else
                        f"holds from T_0 on (exact tracking, every start); in RS-UCB-M's context only for {sc.REPAIR}")
                       if holds else "violated",
                       status, "simulation", ev,
                       condition_at_uses=at_uses if status == "conditional" else None)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    """A smaller m (half the printed one): the exact exit times then come after T_0 + m; and the statement read for
    the repaired range of t (:data:`._sampling_context.REPAIR`)."""
    from . import _sampling_context as sc

    half = f"({claim.printed})/2"
    out = [claim.reprinted(half, f"m = {half}")]
    if result.status == "conditional":
        out.append(claim.assuming("range", sc.REPAIR, f"for {sc.REPAIR}"))
    return out


CLAIMS = claim_map(Claim(ID, paper_claims.OVERSAMPLING_M, check, mutants))
