"""The steps about RS-UCB-M's tracking rule: the forced exploration (eq:samlingequiv .. eq:midpointsmatter, in the
proof of ``theorem:UCB upper bound``) and the proofs of ``lemma:undersampling`` and ``lemma:oversampling``.

Evidence: exact integer and rational arithmetic -- the exploration counts of ``algorithm:B-UCB-M``
(rsb_sim.config.ucb_explore_per_arm) at the experiments' horizons, the mid-point grids of rsb_theory.grids, and the
exact tracking trajectories of ``eq:UCB_sampling_rule`` with a fixed target
(:func:`proofs_checks.checks.oversampling.battery_trajectories`: K = 2, 3, 4, 6, aligned and non-aligned grids,
worst-case starts, run past T(eps)).  Deficits D_i(t) = t a(i) - tau_t(i) are integers after scaling by the common
denominator of a, so every comparison below is exact.

A step judged in its proof's context (``theorem:UCB upper bound``'s, which ``lemma:oversampling`` and
``lemma:undersampling`` share: :mod:`proofs_checks.contexts`) is judged on runs of RS-UCB-M as the context fixes them
(:mod:`._ucb_run`): the printed mid-point grids, the forced exploration ceil(rho T eps/4) per arm, the paper's T_0(eps)
and T(eps), T > max(e^K, T(eps)).  The trajectories above, from arbitrary starts at T_0, are then what the entry's note
reports outside the context.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

import numpy as np
import sympy as sp

from ..claims import Claim, claim_map
from ..ledger import CheckResult
from . import _steps
from . import _ucb_run as ur
from . import oversampling as ov
from ._steps import entry
from ..numfmt import num
from ..causes import because

U = "theorem:UCB upper bound#step:"


# ------------------------------------------------------------------------------------ the exploration
#: (T, rho) of the exploration-count steps: the experiments' horizons and rho, plus small ones.
SETTINGS = tuple((T, rho) for T in (100, 1000, 75_000, 100_000, 300_000) for rho in (0.1, 0.5, 0.9))


def _count_cases():
    from rsb_sim.config import SimConfig, ucb_explore_per_arm

    for T, rho in SETTINGS:
        for K in (2, 3, 6):
            cfg = SimConfig(T=T, rho=rho)
            yield T, rho, K, cfg.eps_for(K), ucb_explore_per_arm(cfg, K)


def _count_fn(text: str):
    expr, syms = _steps.printed(text, ("rho", "T", "eps"))
    return sp.lambdify((syms["rho"], syms["T"], syms["eps"]), expr, "math")


def _count_exact(text: str):
    """The printed count as an exact function of (rho, T, eps) (Fractions in, a SymPy Rational out)."""
    expr, syms = _steps.printed(text, ("rho", "T", "eps"))

    def f(rho: Fraction, T: int, eps: Fraction):
        return sp.nsimplify(expr.subs({syms["rho"]: sp.Rational(rho.numerator, rho.denominator), syms["T"]: T,
                                       syms["eps"]: sp.Rational(eps.numerator, eps.denominator)}))
    return f


def _unpulled_arms():
    """(run, arm, N) of the runs of the proof's context in which an arm (target a*(i) < 1/K) is not pulled after the
    forced exploration: it keeps tau = N = ceil(rho T eps/4) until t a*(i) >= N (the pulled arm has the largest
    deficit, >= 0, and this arm's is < 0 until then).  At t = E itself every arm has tau = N, whatever the targets."""
    for run in ur.runs("unbalanced"):
        for i, x in enumerate(run.setting.a):
            if x < Fraction(1, run.setting.K):
                yield run, i, run.N


def _in_theorem_context(claim: Claim) -> bool:
    return claim.fixed("T") is not None


@because("integer_counts")
def check_samlingequiv(claim: Claim) -> CheckResult:
    st = claim.printed
    f = _count_fn(st.value("count"))
    relation = claim.assumes("relation", "=")
    bad = []
    n = 0
    for T, rho, K, eps, n0 in _count_cases():
        v = f(rho, T, eps)
        n += 1
        ok = abs(n0 - v) <= 1e-9 * v if relation == "=" else n0 <= v * (1 + 1e-12)
        if not ok:
            bad.append((T, rho, K, eps, n0, v))
    free = (f"An arm never pulled after the forced exploration keeps its n0 = ceil(rho T eps/4) pulls (algorithm:B-UCB-M, "
            f"rsb_sim.config.ucb_explore_per_arm); against tau {relation} {st.value('count')} at {n} (T, rho, K) with the "
            f"experiments' eps = sqrt(K log T/T), T in 100..3e5, rho in 0.1, 0.5, 0.9.  ")
    if bad:
        T, rho, K, eps, n0, v = _steps.smallest(bad, key=lambda c: (c[0], c[2], c[1]))
        free += (f"Differs in {len(bad)} cases, smallest: T = {T}, rho = {rho}, K = {K}, eps = {num(eps, 6)}: tau = {n0} "
                 f"vs {num(v, 6)} (the ceiling).")
    if not _in_theorem_context(claim):
        return entry(claim, holds=not bad, method="numeric", derived="ceil(rho T eps/4)" if bad else "holds",
                     evidence=free)
    fx = _count_exact(st.value("count"))
    cbad, cn = [], 0
    for run, i, N in _unpulled_arms():
        s_ = run.setting
        v = fx(s_.rho, run.T, s_.eps)
        cn += 1
        if not (N == v if relation == "=" else N <= v):
            cbad.append((run, i, N, v))
    ev = (f"In the proof's context ({cn} (run, arm) pairs of RS-UCB-M with an arm not pulled after the exploration: "
          f"a*(i) < 1/K on the printed mid-point grid, T = the smallest horizon > max(e^K, T(eps)) and 400 T_0, exact "
          f"rationals): tau {relation} {st.value('count')}?  ")
    if cbad:
        run, i, N, v = min(cbad, key=lambda c: (c[0].setting.K, c[0].T))
        ev += (f"Differs in {len(cbad)}; e.g. {run.setting.describe()}, T = {run.T}: arm {i + 1} keeps tau = "
               f"ceil(rho T eps/4) = {N} after the exploration, while {st.value('count')} = {v} (= "
               f"{num(float(v), 6)}).  At t = E = K N every arm has tau = N, whatever the targets.  ")
    note = "Outside the proof's context: " + free
    return entry(claim, holds=not cbad, method="numeric", derived="ceil(rho T eps/4)" if cbad else "holds",
                 evidence=ev, note=note)


def mutants_samlingequiv(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status == "refuted":
        return [claim.reprinted(claim.printed.with_value("count", "rho*T*eps/4 + 1"), "tau <= rho T eps/4 + 1").assuming(
            "relation", "<=", "tau <= rho T eps/4 + 1")]
    return [claim.reprinted(claim.printed.with_value("count", "rho*T*eps/8"), "tau = rho T eps/8")]


@because("integer_counts")
def check_replace(claim: Claim) -> CheckResult:
    st = claim.printed
    f = _count_fn(st.value("count"))
    bad, n = [], 0
    for T, rho, K, eps, n0 in _count_cases():
        a = eps / 2  # the smallest target on the mid-point grid (eq:midpointsmatter)
        c = f(rho, T, eps)
        # not under-sampled at t: n0 >= t a; the step claims c/t >= a there; the largest such t is floor(n0/a)
        t = math.floor(n0 / a)
        n += 1
        if t >= 1 and c / t < a * (1 - 1e-12):
            bad.append((T, rho, K, eps, n0, t, c / t, a))
    free = (f"An arm with target a = eps/2 and tau_t(i) = n0 = ceil(rho T eps/4) is not under-sampled for every t <= "
            f"n0/a; the step claims {st.value('count')}/t >= a_t(i) there.  {n} (T, rho, K) as for eq:samlingequiv.  ")
    if bad:
        T, rho, K, eps, n0, t, lhs, a = _steps.smallest(bad, key=lambda c: (c[0], c[2], c[1]))
        free += (f"Fails in {len(bad)} cases, smallest: T = {T}, rho = {rho}, K = {K}, eps = {num(eps, 6)}, n0 = {n0}, "
                 f"t = {t}: tau = {n0} >= t a = {num(t * a, 6)} (not under-sampled) but {st.value('count')}/t = "
                 f"{num(lhs, 6)} < a = {num(a, 6)}: eq:samlingequiv's rho T eps/4 is the count rounded down.  With "
                 f"ceil(rho T eps/4)/t >= a_t(i) (or (rho T eps/4 + 1)/t) the step holds, and the 'latest rho T/2' of "
                 f"eq:oversampledproof becomes 2 ceil(rho T eps/4)/eps.")
    if not _in_theorem_context(claim):
        return entry(claim, holds=not bad, method="numeric",
                     derived="ceil(rho T eps/4)/t >= a_t(i)" if bad else "holds", evidence=free)
    fx = _count_exact(st.value("count"))
    cbad, cn = [], 0
    # example utility: at t = E every arm has tau = N = E a*(i) (a* = (1/2, 1/2)): not under-sampled, on target
    for run in ur.runs("example"):
        cn += 1
        lhs = fx(run.setting.rho, run.T, run.setting.eps) / run.E
        if lhs < sp.Rational(1, run.setting.K):
            cbad.append((run, 0, run.N, run.E, lhs))
    for run, i, N in _unpulled_arms():
        s_ = run.setting
        a = s_.a[i]
        t = math.floor(N / a)  # the last t at which tau = N >= t a*(i): not under-sampled from E to here
        if t < run.E:
            continue
        cn += 1
        lhs = fx(s_.rho, run.T, s_.eps) / t
        if lhs < sp.Rational(a.numerator, a.denominator):
            cbad.append((run, i, N, t, lhs))
    ev = (f"In the proof's context ({cn} (run, arm) pairs of RS-UCB-M on the printed mid-point grids, T = the smallest "
          f"horizon > max(e^K, T(eps)) and 400 T_0, exact rationals: example utility (a* = (1/2, 1/2)) at the end E of "
          f"the exploration, and arms with a*(i) < 1/K not pulled after it, at the last t with tau_t(i) = N >= t a*(i)): "
          f"the arm is not under-sampled there; is {st.value('count')}/t >= a*(i)?  ")
    if cbad:
        run, i, N, t, lhs = min(cbad, key=lambda c: (c[0].setting.member != "gini" or c[0].setting.p[0] != Fraction(1, 4),
                                                     c[0].T))
        ev += (f"No in {len(cbad)}; e.g. {run.setting.describe()}, T = {run.T}: at t = {t} (E = {run.E}) arm {i + 1} "
               f"has tau = N = {N} >= t a*(i) = {t * run.setting.a[i]} (not under-sampled), but "
               f"{st.value('count')}/t = {lhs} < a*(i) = {run.setting.a[i]}: rho T eps/4 = "
               f"{fx(run.setting.rho, run.T, run.setting.eps)} is not an integer and the exploration count is its "
               f"ceiling.  ")
    note = "Outside the proof's context: " + free
    return entry(claim, holds=not cbad, method="numeric",
                 derived="ceil(rho T eps/4)/t >= a_t(i)" if cbad else "holds", evidence=ev, note=note)


def mutants_replace(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status == "refuted":
        return [claim.reprinted(claim.printed.with_value("count", "rho*T*eps/4 + 1"), "(rho T eps/4 + 1)/t >= a_t(i)")]
    return [claim.reprinted(claim.printed.with_value("count", "rho*T*eps/8"), "rho T eps/(8 t) >= a_t(i)")]


def check_midpoints(claim: Claim) -> CheckResult:
    from rsb_theory.grids import Grid

    st = claim.printed
    least, syms = _steps.printed(st.value("least"), ("eps",))
    f = sp.lambdify((syms["eps"],), least, "math")
    bad, n = [], 0
    for K in range(2, 7):
        m_max = {2: 40, 3: 30}.get(K, 12)  # grids of C(m + K - 1, K - 1) points: a work budget
        extra = [0.3, 0.123, 0.07] + ([0.0123] if K <= 3 else [])
        for eps in [1 / m for m in range(K, m_max + 1)] + extra:
            g = Grid(K, eps, "ucb")
            pts = g.points()
            n += 1
            if pts.min() < f(eps) * (1 - 1e-9):
                bad.append((K, eps, float(pts.min()), g.exact))
    ev = (f"Smallest coordinate of the mid-point grid (rsb_theory.grids, the footnote rule for the last coordinate) "
          f"against {st.value('least')}, {n} grids: K = 2..6, 1/eps = K..40 (K = 2), ..30 (K = 3), ..12 (K >= 4), and "
          f"eps = 0.3, 0.123, 0.07 (0.0123 for K <= 3) where 1/eps - K/2 is not an integer.  ")
    if bad:
        K, eps, mn, exact = _steps.smallest(bad, key=lambda c: (c[0], -c[1]))
        ev += f"Fails in {len(bad)} grids, smallest: K = {K}, eps = {num(eps, 6)}: {num(mn, 6)}."
    else:
        ev += ("Holds: eps(n_i + 1/2) >= eps/2, and the last coordinate 1 - eps(sum n + (K-1)/2) >= eps/2 since "
               "sum n <= floor(1/eps - K/2).")
    return entry(claim, holds=not bad, method="numeric", derived="holds" if not bad else "fails", evidence=ev)


def mutants_midpoints(claim: Claim, result: CheckResult) -> list[Claim]:
    return [claim.reprinted(claim.printed.with_value("least", "eps"), "a_t(i) >= eps")]


# --------------------------------------------------------------------------------- the trajectories
@lru_cache(maxsize=1)
def deficits() -> tuple[tuple, ...]:
    """Per battery trajectory: (K, eps, t (steps+1,), D*den (steps+1, K) int64, actions (steps,), den, T(eps))."""
    out = []
    for K, eps, n, traj in ov.battery_trajectories():
        den = math.lcm(*(x.denominator for x in traj.a))
        A = np.array([int(x * den) for x in traj.a], dtype=np.int64)
        t = np.arange(traj.t0, traj.t0 + len(traj.counts), dtype=np.int64)
        D = t[:, None] * A[None, :] - traj.counts.astype(np.int64) * den
        out.append((K, eps, t, D, traj.actions, den, ov.T_eps(eps, traj.t0), traj))
    return tuple(out)


def _traj_words() -> str:
    return (f"{len(deficits())} exact tracking trajectories (eq:UCB_sampling_rule with a fixed mid-point target, lowest "
            f"arm on ties; K = 2, 3, 4, 6; eps = 1/10, 3/20, 2/9; extreme grid points; starts all-on-one-arm, balanced, "
            f"all-but-one at T_0 = K or 3K + 1; run 40 steps past T(eps))")


def _show(c) -> str:
    K, eps, traj, t, j = c
    return (f"K = {K}, eps = {eps}, a = ({', '.join(map(str, traj.a))}), start tau_T0 = "
            f"{tuple(int(x) for x in traj.counts[0])} at T_0 = {traj.t0}, t = {t}, arm {j + 1}")


#: The condition under which the steps that start the tracking at T_0(eps) hold in the proof's context: the forced
#: exploration is over by then.  It fails for every T above about 4 T_0/(K rho eps), which the theorem allows.
EXPLORATION_OVER = "the forced exploration K ceil(rho T eps/4) ends by T_0(eps)"


def _in_context(claim: Claim) -> bool:
    """The claim is judged in the proof's context (the forced exploration fixed) and states no condition."""
    return claim.fixed("n0") is not None


def _context_runs(claim: Claim, families=("example", "unbalanced")) -> list:
    """The runs of :mod:`._ucb_run` (with the condition stated: only those whose exploration ends by T_0)."""
    out = [r for f in families for r in ur.runs(f)]
    if claim.assumes("condition") == EXPLORATION_OVER:
        out = [r for r in out if r.E <= r.setting.T0]
    return out


def _context_words(runs) -> str:
    return (f"{len(runs)} runs of RS-UCB-M in the proof's context (printed mid-point grids, forced exploration "
            f"ceil(rho T eps/4) per arm round robin, T_0(eps) and T(eps) of the paper with Delta_min(eps), q and L of "
            f"the distortion, T = the smallest horizon > max(e^K, T(eps)) and T = 400 T_0; the rule "
            f"eq:UCB_sampling_rule tracks a* from the end of the exploration, computed exactly)")


#: Why the exploration's witnesses hold for every law of sec:setting, unbounded (sub-Gaussian) ones included.
_LAW_FREE = ("The run depends on the arms' laws only through a* and T_0(eps): for any T_0, T = 400 T_0, K = 4, rho = 1/2, "
             "eps = 1/10 give E = 4 ceil(5 T_0) = 20 T_0 > T(eps) = 20 (T_0 - 1), and every arm with a*(i) < 1/K is in "
             "O_E, so the failure holds on unbounded sub-Gaussian laws as on Bernoulli ones.")


def _uk_oneside_context(claim: Claim, frm: Fraction, bnd, syms):
    """(worst tau_t(i) - t a*(i) over t >= T(eps) at the times that matter, failures) in the proof's context.  Within
    the exploration tau_t(i) - t a(i) grows for a(i) < 1/K, so its largest value there is at its end E; after E the
    run is tracked exactly (at ceil(T(eps)) and at T)."""
    worst, bad = None, []
    for run in _context_runs(claim):
        s = run.setting
        b = Fraction(str(bnd.subs(syms["K"], s.K)))
        for t in sorted({math.ceil(s.T_eps), run.E, run.T}):
            if t < s.T_eps or t > run.T:
                continue
            tau = run.counts(t)
            m, i = max((c - t * x, i) for i, (c, x) in enumerate(zip(tau, s.a)))
            worst = m if worst is None else max(worst, m)
            if not (m <= frm and frm < b):
                bad.append((s, run, t, i, tau, m))
    return worst, bad


@because("forced_exploration")
def check_UK_oneside(claim: Claim) -> CheckResult:
    st = claim.printed
    frm = Fraction(str(_steps.printed(st.value("from"), ())[0]))
    bnd, syms = _steps.printed(st.value("bound"), ("K",))
    worst, bad, n = Fraction(-10**9), [], 0
    for K, eps, t, D, acts, den, Teps, traj in deficits():
        after = t >= Teps
        over = -D[after]  # (tau - t a) * den
        if over.size:
            m = Fraction(int(over.max()), den)
            worst = max(worst, m)
            n += 1
            b = Fraction(str(bnd.subs(syms["K"], K)))
            if not (m <= frm and frm < b):
                bad.append((K, eps, traj, m, b))
    free = (f"{_traj_words()}: max over t >= T(eps) and arms of tau_t(i) - t a(i) = {worst} (<= {st.value('from')}, "
            f"lemma:oversampling), and {st.value('from')} < {st.value('bound')} for every K >= 2.  ")
    if bad:
        K, eps, traj, m, b = bad[0]
        free += f"Fails: K = {K}, eps = {eps}: max {m}, bound {b} (strictness needs 1/t < K/t with {st.value('from')})."
    if not _in_context(claim):
        return entry(claim, holds=not bad, method="numeric", derived="holds" if not bad else "fails", evidence=free)
    cworst, cbad = _uk_oneside_context(claim, frm, bnd, syms)
    runs = _context_runs(claim)
    ev = (f"{_context_words(runs)}: max over t >= T(eps) (at ceil(T(eps)), the end E of the exploration when E >= "
          f"T(eps), and T) and arms of tau_t(i) - t a*(i) = {num(float(cworst), 6)} against {st.value('from')}.  ")
    if cbad:
        s, run, t, i, tau, m = min(cbad, key=lambda c: (c[0].K != 4, c[5]))
        ev += (f"Fails in {len(cbad)} of them; e.g. {s.describe()}, T = {run.T}: the exploration gives "
               f"each arm N = ceil(rho T eps/4) = {run.N} pulls and ends at E = K N = {run.E} > T(eps); at t = {t}, "
               f"tau_t = {tau}, arm {i + 1}: tau_t(i) - t a*(i) = {m} > {st.value('from')}, and tau_t(i)/t - a*(i) = "
               f"{num(float(m / t), 6)} >= K/t = {num(s.K / t, 6)}.  The forced exploration lasts K ceil(rho T eps/4) "
               f"steps, more than T(eps) ~ (2/eps) T_0 once T > about 8 T_0/(K rho eps^2), which the theorem allows "
               f"(T > max(e^K, T(eps)) only); lemma:oversampling's proof starts the tracking at T_0.  At t = T itself "
               f"the over-sampled arms have left O (by 2 ceil(rho T eps/4)/eps ~ rho T/2 < T), so the use at T in "
               f"eq:UCB_UB11 survives.  {_LAW_FREE}  ")
    elif claim.assumes("condition") == EXPLORATION_OVER:
        ev += f"Holds on the runs where {EXPLORATION_OVER}.  "
    note = "Outside the proof's context (arbitrary start counts at T_0): " + free
    return entry(claim, holds=not cbad, method="numeric", derived="holds" if not cbad else
                 "fails while the forced exploration runs past T(eps)", evidence=ev, note=note)


def mutants_UK_oneside(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status == "refuted" and _in_context(claim):
        return [claim.assuming("condition", EXPLORATION_OVER, f"{EXPLORATION_OVER} (stated)")]
    return [claim.reprinted(claim.printed.with_value("bound", "1"), "< 1/t")]


def _case_mask(D: np.ndarray, den: int, low: str) -> np.ndarray:
    """Case (b) of the proof per (t, arm): a*(j) <= tau_t(j)/t (low = "a"; < for "strict") and tau_t(j)/t <= a*(j) +
    1/t, i.e. -den <= D <= 0 (D < 0), for t = T_0 .. the last step."""
    upper = D[:-1] <= 0 if low == "a" else D[:-1] < 0
    return upper & (D[:-1] >= -den)


def check_oversampling1(claim: Claim) -> CheckResult:
    st = claim.printed
    bnd, syms = _steps.printed(st.value("bound"), ("a", "t"))
    f = sp.lambdify((syms["a"], syms["t"]), bnd, "numpy")
    bad, n = [], 0
    for K, eps, t, D, acts, den, Teps, traj in deficits():
        mask = D[:-1] >= 0  # case (a): tau_t(j) <= t a(j)
        n += int(mask.sum())
        a = np.array([float(x) for x in traj.a])
        tt = t[:-1, None].astype(float)
        lhs = traj.counts[1:].astype(float) / (tt + 1)
        viol = mask & (lhs > f(a[None, :], tt) + 1e-12)
        if viol.any():
            s, j = (int(x[0]) for x in np.nonzero(viol))
            bad.append((K, eps, traj, int(t[s]), j, lhs[s, j], float(f(a[j], float(t[s])))))
    ev = (f"{_traj_words()}: every (t, j) of case (a) ({n} pairs): tau_(t+1)(j)/(t+1) <= {st.value('bound')} "
          "(exact counts, the bound in floating point with 1e-12 slack for the equality cases).  ")
    if bad:
        c = _steps.smallest(bad, key=lambda c: (c[0], c[3]))
        ev += f"Fails in {len(bad)} trajectories; smallest: {_show(c[:5])}: {num(c[5], 6)} > {num(c[6], 6)}."
    else:
        ev += "Holds (tau_(t+1)(j) <= tau_t(j) + 1 <= t a(j) + 1)."
    return entry(claim, holds=not bad, method="numeric", derived="holds" if not bad else "fails", evidence=ev)


def mutants_oversampling1(claim: Claim, result: CheckResult) -> list[Claim]:
    return [claim.reprinted(claim.printed.with_value("bound", "a*t/(t + 1)"), "<= a t/(t+1)")]


def _algebra(claim: Claim, names: tuple[str, ...], assumptions: str) -> CheckResult:
    st = claim.printed
    lhs, syms = _steps.printed(st.value("lhs"), names)
    rhs, _ = _steps.printed(st.value("rhs"), names)
    gap = sp.factor(sp.simplify(rhs - lhs))
    nonneg = bool(gap.is_nonnegative)  # a, t positive symbols
    ev = f"SymPy: ({st.value('rhs')}) - ({st.value('lhs')}) = {gap}, non-negative for {assumptions}: {nonneg}."
    return entry(claim, holds=nonneg, method="symbolic", derived="holds" if nonneg else str(gap), evidence=ev)


def check_UK_1(claim: Claim) -> CheckResult:
    return _algebra(claim, ("a", "t"), "a >= 0, t > 0")


def mutants_UK_1(claim: Claim, result: CheckResult) -> list[Claim]:
    return [claim.reprinted(claim.printed.with_value("rhs", "a*t/(t + 1) + 1/(t + 2)"), "<= a t/(t+1) + 1/(t+2)")]


def check_oversampling2(claim: Claim) -> CheckResult:
    st = claim.printed
    bnd, syms = _steps.printed(st.value("bound"), ("a", "t"))
    f = sp.lambdify((syms["a"], syms["t"]), bnd, "numpy")
    low = "strict" if st.value("case_low") == "strict" else "a"
    pulled, bad_bound, n = [], [], 0
    for K, eps, t, D, acts, den, Teps, traj in deficits():
        mask = _case_mask(D, den, low)
        n += int(mask.sum())
        hit = mask[np.arange(len(acts)), acts]
        if hit.any():
            s = int(np.flatnonzero(hit)[0])
            pulled.append((K, eps, traj, int(t[s]), int(acts[s])))
        a = np.array([float(x) for x in traj.a])
        tt = t[:-1, None].astype(float)
        over = mask & (traj.counts[:-1].astype(float) / (tt + 1) > f(a[None, :], tt) + 1e-12)
        if over.any():
            bad_bound.append((K, eps, traj))
    case = "a*(j) <= tau_t(j)/t" if low == "a" else "a*(j) < tau_t(j)/t"
    free = (f"{_traj_words()}: every (t, j) of case (b) ({case} <= a*(j) + 1/t; {n} pairs): is arm j pulled at t+1 "
            f"(the step says no), and tau_t(j)/(t+1) <= {st.value('bound')}.  ")
    if pulled:
        c = _steps.smallest(pulled, key=lambda c: (c[0], c[3]))
        free += (f"Arm j is pulled in {len(pulled)} trajectories; smallest: {_show(c)}: tau_t(j) = t a*(j) exactly, "
                 "all deficits are 0 and the tie goes to the lowest arm, so j is 'the most under-sampled arm' (case "
                 "(b) includes the boundary of case (a)).  The conclusion survives: a pulled arm has D >= 0, so after "
                 "the pull tau_(t+1)(j)/(t+1) <= a*(j) + 1/(t+1).  ")
    if bad_bound:
        free += f"The inequality fails in {len(bad_bound)} trajectories.  "
    holds = not pulled and not bad_bound
    derived = ("not pulled only when tau_t(j)/t > a*(j); the bound a*(j) + 1/(t+1) holds" if not holds else "holds")
    if not _in_context(claim):
        return entry(claim, holds=holds, method="numeric", derived=derived, evidence=free)
    # in the proof's context: exploration from the start, printed mid-point grids, t > T_0(eps), T > T(eps)
    runs = _context_runs(claim, ("example",))
    found = []
    for run in runs:
        w = ur.first_boundary_pull(run, run.setting.T0 + 1)
        if w is not None and (low == "a" or w[2][w[1]] * 1 > w[0] * run.setting.a[w[1]]):
            found.append((run, w))
    ev = (f"{_context_words(runs)}, on the family of example utility (Gini deviation on Bern(p), Bern(1 - p), a* = "
          f"(1/2, 1/2) on the mid-point grid: it reaches the largest Gini value 1/4 with the true laws, so on E_0 it is "
          f"optimistic-optimal at every t and the rule keeps it from the end of the exploration on, a path of "
          f"positive probability): is an arm of case (b) ({case}) pulled at some t > T_0(eps)?  ")
    if found:
        run, (t, j, tau) = min(found, key=lambda c: c[1][0])
        s_ = run.setting
        ev += (f"Yes, in {len(found)} of {len(runs)} runs; smallest: {s_.describe()}, T = {run.T} (> max(e^K, T(eps))), "
               f"N = ceil(rho T eps/4) = {run.N} per arm, exploration over at E = {run.E}; at t = {t} > T_0(eps), "
               f"tau_t = {tau} = t a* exactly, every deficit is 0 and eq:UCB_sampling_rule pulls arm {j + 1} (lowest "
               f"index on the tie; a random tie rule pulls it with probability 1/2), though it is in case (b) "
               f"(tau_t(j)/t = a*(j)).  It recurs at every even t.  The conclusion j notin O_(t+1) survives (a pulled "
               f"arm has D >= 0, so tau_(t+1)(j)/(t+1) <= a*(j) + 1/(t+1)).  ")
    note = "Outside the proof's context (non-aligned grids, arbitrary start counts at T_0 = K or 3K + 1): " + free
    return entry(claim, holds=not found and not bad_bound, method="numeric", derived=derived if found or not holds
                 else "holds", evidence=ev, note=note)


def mutants_oversampling2(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status == "refuted" and claim.printed.value("case_low") != "strict":
        return [claim.reprinted(claim.printed.with_value("case_low", "strict"), "case (b) with a*(j) < tau_t(j)/t")]
    return [claim.reprinted(claim.printed.with_value("case_low", "a"), "case (b) with a*(j) <= tau_t(j)/t")]


def _O_threshold(claim: Claim) -> Fraction:
    return Fraction(str(_steps.printed(claim.printed.value("threshold"), ())[0]))


def check_UK_2(claim: Claim) -> CheckResult:
    thr = _O_threshold(claim)
    entered, n = [], 0
    for K, eps, t, D, acts, den, Teps, traj in deficits():
        inO = D * 1 < -thr * den  # tau/t > a + thr/t
        n += inO.shape[0]
        new = inO[1:] & ~inO[:-1]
        if new.any():
            s, j = (int(x[0]) for x in np.nonzero(new))
            entered.append((K, eps, traj, int(t[s + 1]), j))
    ev = (f"{_traj_words()}: with O_t = {{i: tau_t(i)/t > a*(i) + {claim.printed.value('threshold')}/t}}, does an arm "
          f"outside O_t enter O_(t+1)?  ")
    if entered:
        c = _steps.smallest(entered, key=lambda c: (c[0], c[3]))
        ev += f"Yes, in {len(entered)} trajectories; smallest: {_show(c)}."
    else:
        ev += "Never (exact deficits)."
    return entry(claim, holds=not entered, method="numeric", derived="holds" if not entered else "fails", evidence=ev)


def mutants_O(claim: Claim, result: CheckResult) -> list[Claim]:
    return [claim.reprinted(claim.printed.with_value("threshold", "-1"), "threshold -1/t")]


@because("forced_exploration")
def check_m_finite(claim: Claim) -> CheckResult:
    thr = _O_threshold(claim)
    pulled, n = [], 0
    for K, eps, t, D, acts, den, Teps, traj in deficits():
        inO = D[:-1] < -thr * den
        s_idx = np.arange(len(acts))
        hit = inO[s_idx, acts]
        n += int(inO.sum())
        if hit.any():
            s = int(np.flatnonzero(hit)[0])
            pulled.append((K, eps, traj, int(t[s]), int(acts[s])))
    free = (f"{_traj_words()}: is an arm of O_t (threshold {claim.printed.value('threshold')}/t) ever pulled?  ({n} "
            "(t, arm) pairs in O.)  ")
    if pulled:
        c = _steps.smallest(pulled, key=lambda c: (c[0], c[3]))
        free += f"Yes, {len(pulled)} trajectories; smallest: {_show(c)}."
    else:
        free += ("Never: the pulled arm has the largest deficit, which is >= 0 since the deficits sum to 0, while an "
                 "arm of O_t has D < -1; so tau stays tau_(T_0)(i) until the arm leaves O.")
    if not _in_context(claim):
        return entry(claim, holds=not pulled, method="numeric", derived="holds" if not pulled else "fails",
                     evidence=free)
    runs = _context_runs(claim)
    cpulled = []
    for run in runs:
        s = run.setting
        count, first = ur.exploration_pulls_of_over_sampled(run, s.T0, threshold=thr)
        if count:
            cpulled.append((run, count, first))
    ev = f"{_context_words(runs)}: is an arm of O_t pulled at some t >= T_0(eps)?  "
    if cpulled:
        run, count, first = min(cpulled, key=lambda c: (c[0].setting.K != 4, c[0].T))
        s = run.setting
        oE = ur.over_sampled(s.a, ur.explore_counts(s.K, run.E), run.E, thr)
        ev += (f"Yes, in {len(cpulled)} of {len(runs)} runs: the forced exploration (round robin, "
               f"K ceil(rho T eps/4) steps) is still running at T_0 and pulls every arm.  E.g. {s.describe()}, "
               f"T = 400 T_0 = {run.T}: N = {run.N}, the exploration ends at E = {run.E} "
               f"{'>' if run.E > s.T_eps else '<='} T(eps); arms of O_t are pulled {count} times after T_0 (first at "
               f"t = {first}), and O_E = {{{', '.join(str(i + 1) for i in oE)}}}.  "
               f"{_issue_scale(claim)}  {_LAW_FREE}")
    else:
        ev += "No."
    note = "Outside the proof's context (tracking from arbitrary start counts at T_0): " + free
    return entry(claim, holds=not cpulled, method="numeric", derived="holds" if not cpulled else
                 "arms of O_t are pulled while the forced exploration runs past T_0(eps)", evidence=ev, note=note)


def _issue_scale(claim: Claim) -> str:
    """The same run scaled down to T_0 = 1000 (K = 4, eps = 1/10, rho = 1/2, a* = (1/20, 1/20, 1/20, 17/20),
    T = 400 T_0), stepped pull by pull: the count a reader can redo by hand."""
    thr = _O_threshold(claim)
    s = ur.setting(*ur.UNBALANCED[0])
    small = ur.Run(ur.Setting(s.member, s.p, s.eps, s.rho, s.a, s.n_optimal, s.delta_min, 1000,
                              Fraction(2) / s.eps * 999), 400 * 1000)
    loop = ur.exploration_pulls_loop(small, 1000, threshold=thr)
    oE = ur.over_sampled(s.a, ur.explore_counts(4, small.E), small.E, thr)
    return (f"Scaled to T_0 = 1000 (same K, eps, rho, a*, T = 400 T_0): E = {small.E} > T(eps) = "
            f"{small.setting.T_eps}, arms of O_t pulled {loop} times after T_0 (stepped one pull at a time), O_E = "
            f"{{{', '.join(str(i + 1) for i in oE)}}}.")


def mutants_m_finite(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status == "refuted" and _in_context(claim):
        return [claim.assuming("condition", EXPLORATION_OVER, f"{EXPLORATION_OVER} (stated)")]
    return mutants_O(claim, result)


#: The threshold of the over-sampled set O_t = {i: tau_t(i)/t > a*(i) + 1/t} as the proof defines it (the display
#: before eq:oversampling3); eq:oversampling3 must take an arm below it.
O_DEFINITION = 1


def check_oversampling3(claim: Claim) -> CheckResult:
    thr = _O_threshold(claim)
    missing, still_in, n = [], [], 0
    for K, eps, t, D, acts, den, Teps, traj in deficits():
        inO = D < -O_DEFINITION * den
        display = D >= -thr * den  # tau_t(i)/t <= a(i) + thr/t, exactly (deficits scaled by den)
        for i in np.flatnonzero(inO[0]):
            n += 1
            hits = np.flatnonzero(display[:, i])
            if not hits.size:
                missing.append((K, eps, traj, int(t[-1]), int(i)))
            elif inO[hits[0], i]:
                still_in.append((K, eps, traj, int(t[hits[0]]), int(i)))
    ev = (f"{_traj_words()}: for each of the {n} arms in O_(T_0) (O_t = {{i: tau_t(i)/t > a*(i) + {O_DEFINITION}/t}}), "
          f"the first m with tau_(T_0 + m)(i)/(T_0 + m) <= a*(i) + {claim.printed.value('threshold')}/(T_0 + m): ")
    if missing:
        c = _steps.smallest(missing, key=lambda c: (c[0], c[3]))
        ev += f"no such m within the run in {len(missing)} cases; smallest: {_show(c)}.  "
    if still_in:
        c = _steps.smallest(still_in, key=lambda c: (c[0], c[3]))
        ev += f"at that m the arm is still in O in {len(still_in)} cases; smallest: {_show(c)}."
    if not missing and not still_in:
        ev += ("it exists in every trajectory (before the run's end, 40 steps past T(eps)), and the arm is then out of "
               "O (the display with threshold 1 is the negation of membership; the proof writes O_(T(eps)+m) for "
               "O_(T_0(eps)+m)).")
    bad = bool(missing or still_in)
    return entry(claim, holds=not bad, method="numeric", derived="fails" if bad else "holds", evidence=ev)


def mutants_oversampling3(claim: Claim, result: CheckResult) -> list[Claim]:
    return [claim.reprinted(claim.printed.with_value("threshold", "2"), "threshold 2/(T_0 + m)")]


def check_m(claim: Claim) -> CheckResult:
    from rsb_theory.rates import T_eps_matches_appendix

    st = claim.printed
    m_printed, syms = _steps.printed(st.value("m"), ("eps", "T_0"))
    e, T0, m = syms["eps"], syms["T_0"], sp.Symbol("m", positive=True)
    # eq:m_finite with tau_(T_0)(i) <= T_0 and a*(i) >= eps/2: T_0/(T_0 + m) <= eps/2 + 1/(T_0 + m)
    m_needed = sp.solve(sp.Eq(T0, e / 2 * (T0 + m) + 1), m)[0]
    diff = sp.simplify(m_printed - m_needed)
    holds = bool(sp.simplify(diff) == 0 or (diff.is_nonnegative is True))
    ev = (f"eq:m_finite with tau_(T_0)(i) <= T_0 and a*(i) >= eps/2 holds once T_0 <= (eps/2)(T_0 + m) + 1, i.e. m >= "
          f"{sp.simplify(m_needed)}; printed m = {st.value('m')}: difference {diff}.  T_0 + m = (2/eps)(T_0 - 1), the "
          f"T(eps) of the main text: {T_eps_matches_appendix()}.")
    return entry(claim, holds=holds, sharper=holds and diff != 0, method="symbolic",
                 derived=str(sp.simplify(m_needed)), evidence=ev)


def mutants_m(claim: Claim, result: CheckResult) -> list[Claim]:
    return [claim.reprinted(claim.printed.with_value("m", f"({claim.printed.value('m')})/2"), "m halved")]


def _c(ident: str, check, mutants) -> Claim:
    return Claim(ident, _steps.step(ident), check, mutants)


_O = "lemma:oversampling#step:"


def _case_b_typo(claim: Claim) -> Claim:
    """eq:oversampling2 with its evident typo recorded: case (b) reads a*(j) <= tau_t(j)/t where the tie
    tau_t(j)/t = a*(j) is already case (a)'s (tau_t(j)/t <= a*(j), eq:oversampling1 and eq:UK_1 conclude j notin
    O_(t+1) there, pulled or not); read with a*(j) < tau_t(j)/t the step holds."""
    return replace(claim, typo=("a*(j) < tau_t(j)/t for a*(j) <= tau_t(j)/t in case (b): the tie is case (a)",
                                claim.printed.with_value("case_low", "strict")))


CLAIMS = claim_map(
    _c(U + "eq:samlingequiv", check_samlingequiv, mutants_samlingequiv),
    _c(U + "eq:replace", check_replace, mutants_replace),
    _c(U + "eq:midpointsmatter", check_midpoints, mutants_midpoints),
    _c("lemma:undersampling#step:eq:UK_oneside", check_UK_oneside, mutants_UK_oneside),
    _c(_O + "eq:oversampling1", check_oversampling1, mutants_oversampling1),
    _c(_O + "eq:UK_1", check_UK_1, mutants_UK_1),
    _case_b_typo(_c(_O + "eq:oversampling2", check_oversampling2, mutants_oversampling2)),
    _c(_O + "eq:UK_2", check_UK_2, mutants_O),
    _c(_O + "eq:oversampling3", check_oversampling3, mutants_oversampling3),
    _c(_O + "eq:m_finite", check_m_finite, mutants_m_finite),
    _c(_O + "eq:m", check_m, mutants_m),
)
