"""``lemma:undersampling`` and the "under-sampled by rho T / 2" step before it (``eq:oversampledproof``).

* ``lemma:undersampling`` — under the complement of E3 (a fixed target a* from T_0(eps) on),
  |tau_t(i)/t - a*(i)| < K/t for every t >= T(eps).  With D_i = t a*(i) - tau_t(i) (sum_i D_i = 0):
  from T(eps) on every D_i >= -1 (``lemma:oversampling``), so D_i = -sum_{j != i} D_j <= K - 1.  The
  lemma therefore holds with the strictly better constant: -1 <= tau_t(i) - t a*(i) <= ... and
  |tau_t(i)/t - a*(i)| <= (K - 1)/t; status ``loose``.  Checked exactly on tracking trajectories
  (:func:`proofs_checks.checks.oversampling.track_exact`) from worst-case starts, and on rsb_sim's recorded
  RS-UCB-M actions.
* ``eq:oversampledproof`` — the text before the lemma: an arm not sampled after the forced exploration
  (tau = rho T eps / 4, ``eq:samlingequiv``) "becomes under-sampled at the latest at the time instant
  rho T / 2".  The algorithm explores ceil(rho T eps / 4) times (``algorithm:B-UCB-M``), and with
  a(i) = eps/2 the arm is under-sampled (t a(i) > tau) only for t > 2 ceil(rho T eps/4)/eps, which exceeds
  rho T / 2 by up to 2/eps.  Counterexample by exact arithmetic and by rsb_sim's recorded actions.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

import sympy as sp

from rsb_theory.expressions import evaluate, to_sympy

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from . import oversampling as ov
from ..numfmt import num
from ..causes import because
from rsb_theory.errors import ArgumentError

ID = "lemma:undersampling"
ID_RHO = "eq:oversampledproof"
PARTS = ("bound", "rhoT2")


def max_abs_deficit_after(traj: ov.Trajectory, bound: Fraction) -> Fraction:
    """max over t >= bound and i of |tau_t(i) - t a(i)| (exact)."""
    den = math.lcm(*(x.denominator for x in traj.a))
    A = np.array([int(x * den) for x in traj.a], dtype=object)
    t = np.arange(traj.t0, traj.t0 + len(traj.counts), dtype=object)
    rows = np.nonzero([tt >= bound for tt in t])[0]
    if rows.size == 0:
        return Fraction(0)
    D = t[rows][:, None] * A[None, :] - traj.counts[rows].astype(object) * den
    return Fraction(int(np.max(np.abs(D))), den)


@lru_cache(maxsize=1)
def undersampling_battery(extra: int = 200) -> dict[int, Fraction]:
    """K -> worst |tau_t(i) - t a(i)| after T(eps) over the oversampling battery, run ``extra`` steps past T(eps)."""
    worst: dict[int, Fraction] = {}
    for K, eps, n, t0 in ov.battery():
        a = ov.grid_point(K, eps, n)
        for tau0 in ov.worst_starts(K, t0):
            bound = ov.T_eps(eps, t0)
            traj = ov.track_exact(a, tau0, int(math.ceil(bound)) - t0 + extra)
            worst[K] = max(worst.get(K, Fraction(0)), max_abs_deficit_after(traj, bound))
    return worst


_K = sp.Symbol("K", positive=True)


def _numerator(text: str, K: int) -> Fraction:
    v = sp.nsimplify(to_sympy(text, "bound", {"K": _K}).subs(_K, K))
    return Fraction(int(v.p), int(v.q))


def _within(deficit: Fraction, bound: Fraction, relation: str) -> bool:
    return deficit < bound if relation == "<" else deficit <= bound


def first_undersampled(T: int, rho: float, eps: float) -> tuple[int, int]:
    """(n0, first t with t eps/2 > n0) for an arm with target eps/2 never pulled after exploration."""
    n0 = max(1, math.ceil(rho * T * eps / 4 - 1e-12))
    e = Fraction(eps)
    t = math.floor(Fraction(2 * n0) / e) + 1
    return n0, t


@lru_cache(maxsize=1)
def simulated_rho_case(T: int = 1000, rho: float = 0.1):
    """rsb_sim RS-UCB-M, K = 2, paper constants (first grid point a = (eps/2, 1 - eps/2) kept): first pull of arm 0
    after the forced exploration."""
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run
    from rsb_sim.instances import BernoulliInstance
    from rsb_theory.distortions import get

    res = run(SimConfig(T=T, trials=2, seed=5, rho=rho, record_actions=True), BernoulliInstance((0.4, 0.9)),
              get("gini"), "rs-ucb-m")
    t0 = res.setup.explore_steps
    acts = np.asarray(res.actions)[0]
    later = np.nonzero(acts[t0:] == 0)[0]
    first_pull_step = t0 + int(later[0]) + 1 if later.size else None  # 1-based step of the pull
    return res.setup.eps, res.setup.n0, first_pull_step


@because("forced_exploration")
def _check_bound(claim: Claim) -> CheckResult:
    numerator, relation = claim.printed
    worst = undersampling_battery()
    same, sv, traj, eps = ov.simulated_verdict()
    sim_m = max_abs_deficit_after(traj, sv.bound)
    K_sim = len(traj.a)
    bad = {K: w for K, w in worst.items() if not _within(w, _numerator(numerator, K), relation)}
    holds = not bad and same and _within(sim_m, _numerator(numerator, K_sim), relation)
    # proven below: |tau_t(i) - t a(i)| <= K - 1, strictly better than the printed numerator where it is larger
    sharper = any(_numerator(numerator, K) > K - 1 for K in worst)
    tight = {K: str(v) for K, v in sorted(worst.items())}
    shown = f"|tau_t(i)/t - a*(i)| {relation} ({numerator})/t"
    ev = (f"Exact tracking (eq:UCB_sampling_rule, fixed mid-point target, worst-case starts at T_0, 200 steps past "
          f"T(eps)): max_t>=T(eps), i |tau_t(i) - t a(i)| by K: {tight} -- "
          + (f"all {relation} {numerator}" if not bad else f"VIOLATIONS of {relation} {numerator}: {bad}")
          + f".  rsb_sim RS-UCB-M (K={K_sim}, paper constants, fixed first grid point) gives {num(float(sim_m), 3, 'f')}.  "
          f"Proof of the sharper constant: from T(eps) on every D_j = t a(j) - tau_t(j) >= -1 (lemma:oversampling) "
          f"and sum_j D_j = 0, so D_i <= K - 1; hence |tau_t(i)/t - a(i)| <= (K-1)/t (< K/t as printed).  The proof's "
          f"own bound (eq:UK_oneside) is 1/t on the over-sampled side.  These starts at T_0 leave out RS-UCB-M's forced "
          f"exploration, which can run past T(eps) (lemma:undersampling#step:eq:UK_oneside has the witness); the bound "
          f"then fails just after T(eps) and holds again once the exploration's over-sampled arms are back on target.  ")
    # the printed statement in RS-UCB-M's context with the paper's T(eps) (theorem:UCB upper bound's hypothesis)
    from . import _sampling_context as sc

    repaired = claim.assumes("range") == sc.REPAIR
    ctx = sc.cases(lambda a, tau, t: not _within(max(abs(t * Fraction(x) - c) for x, c in zip(a, tau)),
                                                 _numerator(numerator, len(a)), relation),
                   lambda run: run.setting.T_eps)
    ev += sc.words(ctx, shown)
    in_context = not any(c.witness for c in ctx) or repaired
    repair_ok = holds and all(c.holds_from_start for c in ctx)
    at_uses = repair_ok and all(c.holds_at_T for c in ctx)
    ev += f"  Used only at t = T (theorem:UCB upper bound, eq:samlingequiv's bound), where it holds: {at_uses}."
    status = decide(holds=holds and in_context, repair=sc.REPAIR if repair_ok and not in_context else None,
                    sharper=sharper, repair_at_uses=at_uses)
    return CheckResult(ID, f"{shown} for all t >= T(eps) under the complement of E3"
                       + (f", read for {sc.REPAIR}" if repaired else ""),
                       paper_claims.SAMPLING_CLAIMS[ID] if claim.printed == paper_claims.UNDERSAMPLING_BOUND else shown,
                       ("(K-1)/t (and tau_t(i) - t a*(i) <= 1)" + ("" if in_context else
                                                                    f" in RS-UCB-M's context only for {sc.REPAIR}"))
                       if holds else "violated",
                       status, "simulation", ev, condition_at_uses=at_uses if status == "conditional" else None)


#: (T, rho) at which the time an arm becomes under-sampled is computed exactly (K = 2, eps = sqrt(K log T / T)).
RHO_SETTINGS = tuple((T, rho) for T in (1000, 10**4, 10**5, 3 * 10**5) for rho in (0.1, 0.5, 0.9))


@because("integer_counts")
def _check_rho(claim: Claim) -> CheckResult:
    eps_sim, n0_sim, first_pull = simulated_rho_case()
    rows, late, sharper = [], [], False
    for T, rho in RHO_SETTINGS:
        eps = math.sqrt(2 * math.log(T) / T)
        n0, t_under = first_undersampled(T, rho, eps)
        latest = evaluate(claim.printed, "time", {"rho": rho, "T": T, "eps": eps})
        if t_under > latest:
            late.append((T, rho, eps, n0, t_under, latest))
        # the exact time is floor(2 n0/eps) + 1; a later printed time is loose
        sharper |= t_under < latest - 1
        rows.append(f"T={T}, rho={rho}: {t_under} vs {num(latest, 6)}")
    holds = not late
    T, rho = 1000, 0.1
    n0, t_under = first_undersampled(T, rho, eps_sim)
    ev = (f"first time t with t eps/2 > n0 = ceil(rho T eps/4) (an arm with target eps/2 never pulled after the "
          f"forced exploration), K = 2, eps = sqrt(K log T/T), exact, against the claimed t = {claim.printed}: "
          + "; ".join(rows) + ".  "
          + (f"E.g. T = {late[0][0]}, rho = {late[0][1]}: n0 = {late[0][3]}, under-sampled first at t = {late[0][4]} "
             f"> {num(late[0][5], 6)}.  " if late else "")
          + f"rsb_sim RS-UCB-M at T = {T}, rho = {rho} and the paper's constants (the first grid point "
          f"(eps/2, 1 - eps/2) is kept; n0 = {n0_sim}, exact first time {t_under}) pulls arm 1 again first at step "
          f"{first_pull}.  The step eq:samlingequiv uses tau = rho T eps/4 instead of its ceiling; correct bound: "
          "2 ceil(rho T eps/4)/eps < rho T/2 + 2/eps.  Harmless for the theorems (T(eps) is defined independently), "
          "but the stated time is wrong.")
    paper = (paper_claims.SAMPLING_CLAIMS[ID_RHO] if claim.printed == paper_claims.UNDERSAMPLED_BY
             else f"under-sampled at the latest at t = {claim.printed}")
    return CheckResult(ID_RHO, "An arm not sampled after the forced exploration becomes under-sampled at the latest "
                               f"at t = {claim.printed}", paper, "2 ceil(rho T eps/4) / eps (up to rho T/2 + 2/eps)",
                       decide(holds=holds, sharper=sharper), "simulation", ev)


def mutants_bound(claim: Claim, result: CheckResult) -> list[Claim]:
    from . import _sampling_context as sc

    out = []
    if result.status == "conditional":
        out.append(claim.assuming("range", sc.REPAIR, f"for {sc.REPAIR}"))
    if result.status in ("loose", "refuted"):
        out.append(claim.reprinted(("K - 1", "<="), "|tau_t(i)/t - a*(i)| <= (K-1)/t (the derived bound)"))
    out.append(claim.reprinted(("1", "<="), "|tau_t(i)/t - a*(i)| <= 1/t (stronger)"))
    return out


def mutants_rho(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status == "refuted":
        later = f"{claim.printed} + 2/eps"
        return [claim.reprinted(later, f"under-sampled at the latest at t = {later} (the derived bound)")]
    earlier = f"({claim.printed})/2"
    return [claim.reprinted(earlier, f"under-sampled at the latest at t = {earlier}")]


CLAIMS = claim_map(Claim(ID, paper_claims.UNDERSAMPLING_BOUND, _check_bound, mutants_bound),
                   Claim(ID_RHO, paper_claims.UNDERSAMPLED_BY, _check_rho, mutants_rho))


def check(part: str = "bound") -> CheckResult:
    """The ledger entry of ``part`` (``bound``: lemma:undersampling, ``rhoT2``: eq:oversampledproof)."""
    if part == "bound":
        return CLAIMS[ID].run()
    if part == "rhoT2":
        return CLAIMS[ID_RHO].run()
    raise ArgumentError("part", f"unknown part {part!r}; known: {', '.join(PARTS)}")
