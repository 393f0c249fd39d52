"""``lemma:oversampling`` and ``lemma:undersampling`` read as printed, in the context of RS-UCB-M (the runs of
:mod:`._ucb_run`: the forced exploration, then the tracking rule with a fixed target, at the horizons the theorem
allows), with the paper's T(eps) = T_0 + m (eq:T_epsilon_actual), the quantity theorem:UCB upper bound's hypothesis
T > T(eps) uses.

The forced exploration (round robin, ceil(rho T eps/4) pulls per arm, E = K ceil(rho T eps/4) steps) can outlast
T(eps) (for T >= ~8 T_0/(K rho eps^2)); then an arm with a*(i) < 1/K is over-sampled just after T(eps), and both
statements fail there.  Such an arm is never pulled while over-sampled (the pulled arm has the largest deficit, >= 0)
and leaves O_t once t a*(i) >= ceil(rho T eps/4) - 1, i.e. by (2/eps)(ceil(rho T eps/4) - 1) since a*(i) >= eps/2 on
the mid-point grid; arms outside O_t never enter it (``lemma:oversampling``'s battery).  So both statements hold for
t >= max(T(eps), (2/eps)(ceil(rho T eps/4) - 1)) (:data:`REPAIR`), and in particular at t = T, the only time
theorem:UCB upper bound uses them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Callable

from . import _ucb_run as ur

#: The unstated range of t under which both lemmas hold in RS-UCB-M's context.
REPAIR = "t >= max(T(eps), (2/eps)(ceil(rho T eps/4) - 1)) (after the forced exploration's over-sampled arms are back)"
#: Single pulls stepped exactly after the repaired start (beyond them the absorbing facts of the proof carry it).
STEPS_AFTER = 200


@dataclass(frozen=True)
class ContextCase:
    """One run: the first t > T(eps) where the statement fails (or None), the repaired start, and whether the
    statement holds from it (stepped) and at the use t = T."""

    run: object
    T_eps: Fraction
    witness: tuple | None  # (t, tau_t)
    start: int
    holds_from_start: bool
    holds_at_T: bool


def repaired_start(run, T_eps: Fraction) -> int:
    """max(first integer > T(eps), ceil((2/eps)(ceil(rho T eps/4) - 1)))."""
    s = run.setting
    return max(math.floor(T_eps) + 1, math.ceil(2 / s.eps * (run.N - 1)))


def cases(fails: Callable[[tuple, tuple, int], bool], T_eps_of: Callable[[object], Fraction],
          families=("example", "unbalanced")) -> tuple[ContextCase, ...]:
    """For each run of :mod:`._ucb_run`: ``fails(a, tau_t, t)`` is the printed statement's failure at t."""
    out = []
    for fam in families:
        for run in ur.runs(fam):
            s = run.setting
            T_eps = T_eps_of(run)
            first = math.floor(T_eps) + 1
            witness = None
            for t in sorted({first, max(first, run.E)}):
                if t > run.T:
                    continue
                tau = run.counts(t)
                if fails(s.a, tau, t):
                    witness = (t, tau)
                    break
            start = repaired_start(run, T_eps)
            ok = True
            if start <= run.T:
                tr = run.tracker(start) if start >= run.E else None
                if tr is None:
                    ok = not fails(s.a, run.counts(start), start)
                else:
                    for _ in range(STEPS_AFTER):
                        if fails(s.a, tuple(tr.tau), tr.t):
                            ok = False
                            break
                        if tr.t >= run.T:
                            break
                        tr.step()
            at_T = start <= run.T and not fails(s.a, run.counts(run.T), run.T)
            out.append(ContextCase(run, T_eps, witness, start, ok, at_T))
    return tuple(out)


def words(found: tuple[ContextCase, ...], what: str) -> str:
    """The evidence: the smallest witness, and the repair's check."""
    bad = [c for c in found if c.witness is not None]
    text = (f"In RS-UCB-M's context ({len(found)} runs of the proof's context: printed mid-point grids, forced "
            f"exploration ceil(rho T eps/4) per arm round robin, the paper's T_0(eps) and T(eps), T the smallest "
            f"horizon > max(e^K, T(eps)) and 400 T_0, tracking of a fixed a* from the end of the exploration, exact): ")
    if bad:
        c = min(bad, key=lambda c: (c.run.setting.K, c.run.T))
        s, (t, tau) = c.run.setting, c.witness
        text += (f"{what} fails just after T(eps) in {len(bad)} runs, e.g. {s.describe()}, T = {c.run.T}: the "
                 f"exploration runs to E = {c.run.E} (N = {c.run.N} per arm), and at t = {t} > T(eps) the counts are "
                 f"tau_t = {tau}.  ")
    else:
        text += f"{what} holds after T(eps) in every run.  "
    text += (f"With {REPAIR}: holds from the repaired start ({STEPS_AFTER} pulls stepped exactly, then the proof's "
             f"absorbing facts) in {sum(c.holds_from_start for c in found)} of {len(found)} runs, and at the use t = T in "
             f"{sum(c.holds_at_T for c in found)} of {len(found)} runs (the start is <= T in "
             f"{sum(c.start <= c.run.T for c in found)}).")
    return text
