"""Cells of ``table:table_regrets``: h (with the row's shading), the RS-UCB-M
and the RS-ETC-M regret rates.

Rates are re-derived by ``rsb_theory.rates.table_rates`` from (q, r, beta)
derived from h (:mod:`proofs_checks.derived`) at every parameter value of the
range the table states (dual power s in [2, oo), quadratic s in [0, 1], CVaR
alpha over its domain; PHT and inter-ES at their pinned values), with
``corollary:RS-UCB-M``'s side condition r <= beta + q/2 respected: any
r' <= r is a valid mixture exponent, so the derivation uses
r_use = min(r, beta + q/2).

* Solitary rows: beta is derived (``lemma:beta_lemma_monotone``), so each
  cell is a number compared by :func:`proofs_checks.verdict.compare`; where
  beta = 1 needs a bound on the means the table does not state (its only such
  footnote is CVaR's), the UCB cell is conditional on it.
* Mixture rows: beta is left open ('-' in ``table:table_risks``), so both
  rates are functions of beta; the printed cell (its kappa and gamma read
  with the row's printed q and r of ``table:table_risks``) is compared with
  the derived one over the range of beta the claim states (none: every
  beta > 0, and the existence of beta is itself an unstated condition) by
  :func:`proofs_checks.verdict.compare_on`.  UCB cells are powers of
  varpi(T); ETC cells are powers of varpi(T^gamma), compared by their decay
  in T first and their power of log T second.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import sympy as sp

from rsb_theory import distortions, rates
from rsb_theory.argmax.rule import TIE_TOL
from rsb_theory.discretization import enumerate_optimum
from rsb_theory.profile import mixture_witness

from .. import derived, paper_claims
from ..causes import caused
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..numfmt import num
from ..verdict import Rate, compare, compare_on, compare_rates_on, decide, fmt_set, worst
from rsb_theory.errors import ArgumentError
from ..statuses import Status

TABLE = "table:table_regrets"
COLUMNS = ("h", "ucb", "etc")
#: Every beta > 0: the range of beta a mixture-row claim is read over when it states none.
ALL_BETA = sp.Interval.open(0, sp.oo)
#: The condition a solitary row's RS-ETC-M rate needs (eq:discrete_gap read as printed: the minimum over a != a*).
UNIQUE_OPT = "the optimal grid point unique (Delta_min(eps) > 0)"
#: 1/eps of the ETC grids (eq:etc_discrete_set) a tie at the top is checked on, and the horizons (multiples of K)
#: at which the regret of the exploration that never ends is evaluated.
TIE_GRIDS = (2, 4, 8, 16)
TIE_HORIZONS = (10**2, 10**4, 10**6)


@dataclass(frozen=True)
class RateCell:
    """A rate cell as printed: the row of Table 1, the row of Table 2 whose q, r it reads kappa and gamma with,
    the column, and Table 1's footnote on the arms' means for the UCB column (None: no footnote)."""

    regret: paper_claims.RegretRow
    risk: paper_claims.RiskRow
    column: str
    means_below: str | None = None

    @property
    def text(self) -> str:
        return self.regret.ucb if self.column == "ucb" else self.regret.etc


# ---------------------------------------------------------------------------
# h and the shading
# ---------------------------------------------------------------------------
def check_h(claim: Claim) -> CheckResult:
    """Printed h equals the family's h symbolically, and the shading equals the derived optimum's kind."""
    row: paper_claims.RegretRow = claim.printed
    fam = distortions.REGISTRY[row.key]
    syms = {p.name: p.symbol for p in fam.parameters}
    printed_h = distortions.parse_expression(row.h, syms)
    same = sp.simplify(printed_h - fam.expression()) == 0
    mixture, why = mixture_witness(derived.profile(row.key).distortion)
    status = decide(holds=same and mixture == row.shaded)
    shade = "shaded (mixture optimal)" if row.shaded else "not shaded (solitary optimal)"
    ev = (f"printed h {'equals' if same else 'differs from'} the registry's {fam.expression()} symbolically; "
          f"derived: {'mixture' if mixture else 'solitary'} optimal, {why}")
    return CheckResult(claim.id, f"{row.name}: h(u) = {row.h}, row {shade}",
                       f"{row.h}; {'shaded' if row.shaded else 'unshaded'}",
                       f"{fam.expression()}; {'shaded' if mixture else 'unshaded'}", status, "symbolic", ev)


def mutants_h(claim: Claim, result: CheckResult) -> list[Claim]:
    row: paper_claims.RegretRow = claim.printed
    flipped = replace(row, shaded=not row.shaded)
    return [claim.reprinted(flipped, f"row {'unshaded' if row.shaded else 'shaded'} (the other kind of optimum)")]


# ---------------------------------------------------------------------------
# rates
# ---------------------------------------------------------------------------
def _paper_params(cell: RateCell, params: dict) -> tuple[sp.Expr, sp.Expr, sp.Expr | None]:
    """The printed q, r, beta of ``table:table_risks`` for the cell's row, at ``params``."""
    beta = None if cell.risk.beta.strip() == "-" else derived.printed(cell.risk.beta, params)
    return derived.printed(cell.risk.q, params), derived.printed(cell.risk.r, params), beta


@dataclass(frozen=True)
class RateFacts:
    """What the rate check found (shared by the check and its mutants)."""

    status: str
    derived_text: str
    evidence: str
    printed_exponent: sp.Expr
    printed_argument: str
    derived_exponent: sp.Expr | None  # solitary rows: the same at every swept parameter, else None
    needed_bound: sp.Expr | None  # solitary UCB cells: the bound on the means beta = 1 needs (None: none)
    beta_holds_on: sp.Set | None  # mixture rows: where in beta the printed cell holds
    top_tie: bool = False  # solitary ETC cells: an instance with tied top arms breaks the rate (Delta_min(eps) = 0)


@dataclass(frozen=True)
class TopTie:
    """A Bernoulli instance whose optimal arms tie, and what RS-ETC-M does on it.

    Attributes
    ----------
    p : tuple of float
        The arms' means.
    how : str
        Why the top arms tie (equal means, or means where h is flat at its maximum).
    tied : bool
        Several optimal points, so the literal Delta_min(eps) = 0 and N(eps) = inf, on every grid tried.
    regret : tuple of (int, float)
        (T, V(a*) - V(a_T)) for the round-robin exploration that never ends (a_T its empirical mixture).
    text : str
    """

    p: tuple[float, ...]
    how: str
    tied: bool
    regret: tuple[tuple[int, float], ...]
    text: str


def top_ties(d: distortions.Distortion, q: sp.Expr, L: float) -> list[TopTie]:
    """Instances where two arms tie at the top, derived from h, with Delta_min(eps), N(eps) and the regret.

    For Bernoulli arms U_h(Bern(u)) = h(u) and V(a) = h(<a, p>) (eq:V), so two arms tie at the top when they have
    the largest mean (equal means: any h), or means in the set where h attains its maximum on [0, 1] when that set
    is an interval (a flat top, CVaR's [1 - alpha, 1]: an open set of instances).  On every ETC grid both vertices
    are then optimal, eq:discrete_gap's Delta_min(eps) (the minimum over a != a*) is 0, N(eps) of
    eq:number of samples main paper is infinite (:func:`rsb_theory.rates.N_eps_value`), and RS-ETC-M explores
    round robin forever: its regret tends to V(a*) - V(uniform) and does not decay.
    """
    u = np.linspace(0.0, 1.0, 1001)
    hu = np.asarray(d(u), dtype=float)
    flat = u[hu >= hu.max() - TIE_TOL]
    top = float(flat[0])  # the smallest maximiser of h on [0, 1]
    cands = [((top / 4, top / 2, top / 2), f"two arms with the same largest mean {num(top / 2)}")]
    if flat[-1] - flat[0] > 0:
        lo, w = float(flat[0]), float(flat[-1] - flat[0])
        cands.append(((0.0, lo + w / 3, lo + 2 * w / 3),
                      f"two arms with different means in [{num(lo)}, {num(lo + w)}], where h is flat at its maximum"))
    out = []
    for p, how in cands:
        K, pa = len(p), np.asarray(p)
        bits, tied, v_star = [], True, None
        for m in TIE_GRIDS:
            opt = enumerate_optimum(d, p, 1.0 / m, "etc")
            literal = 0.0 if opt.n_optimal > 1 else opt.Delta_min
            N = rates.N_eps_value(K, K * TIE_HORIZONS[-1], 1.0 / m, L, float(q), literal)
            tied = tied and opt.n_optimal > 1 and N == float("inf")
            v_star = opt.value
            bits.append(f"1/eps = {m}: {opt.n_optimal} optimal points, Delta_min = {num(literal)}, N = {num(N)}")
        regret = []
        for T0 in TIE_HORIZONS:
            T = K * T0
            counts = np.array([len(range(i, T, K)) for i in range(K)], dtype=float)
            regret.append((T, float(v_star - float(d(counts / T @ pa)))))
        text = (f"p = ({', '.join(num(x) for x in p)}) ({how}): " + "; ".join(bits)
                + "; round robin forever: regret " + ", ".join(f"{num(r)} at T = {T}" for T, r in regret))
        out.append(TopTie(tuple(float(x) for x in p), how, tied, tuple(regret), text))
    return out


def _solitary(claim: Claim, cell: RateCell, printed_e, printed_arg) -> RateFacts:
    key, column = cell.regret.key, cell.column
    stated = claim.assumes("means_below", cell.means_below)
    stated_unique = claim.assumes("grid_optimum") == UNIQUE_OPT
    statuses, got, ev, exps, bounds, tied = [], [], [], set(), set(), False
    for params in derived.parameter_sweep(key, TABLE):
        prof = derived.profile(key, params)
        tag = derived.fmt_params(params)
        q, r, beta = prof.q, prof.r, prof.beta.value
        if beta is None:  # no derived value: the printed cell cannot be compared with one
            statuses.append(compare(None, None, "larger", comparable=False))
            ev.append(f"{tag}beta not derived: {prof.beta.evidence}")
            continue
        r_use = sp.Min(r, beta + q / 2)
        tr = rates.table_rates(q, r_use, beta, True)
        got_e = tr.ucb_exponent if column == "ucb" else tr.etc_exponent
        got_arg = "T" if column == "ucb" else tr.etc_argument
        st = compare(printed_e, got_e, "larger", comparable=printed_arg == got_arg)
        exps.add((got_e, got_arg))
        got.append(f"{tag}{rates.format_varpi(got_e, got_arg)}")
        bits = [f"{tag}derived q = {q}, r = {r} (used r = {sp.simplify(r_use)}), beta = {beta}: exponent {got_e}"]
        if column == "ucb":
            bits.append(f"corollary:RS-UCB-M: kappa = 1/(2 beta/q + 2) = {rates.kappa(q, r_use, beta)}, "
                        "exponent 2 r kappa")
            if prof.beta.bound is not None:
                ok = stated is not None and bool(derived.printed(stated, params) <= prof.beta.bound)
                bounds.add(prof.beta.bound)
                bits.append(f"beta = 1 needs {prof.beta.condition} (see table:table_risks#{key}.beta); "
                            + (f"stated: means < {stated}" if ok else "not stated"))
                if not ok:
                    st = worst(st, decide(holds=False, repair=prof.beta.condition))
        else:
            bits.append("solitary optimum: the vertex is on eq:etc_discrete_set, so Delta(eps) = 0 for a fixed eps "
                        "and the regret is the discrete regret (log T/T)^q = varpi^(2q) of theorem: ETC upper bound, "
                        "which needs N(eps) finite, i.e. Delta_min(eps) > 0 (eq:discrete_gap: a unique optimal grid "
                        "point)")
            for tie in top_ties(prof.distortion, q, prof.holder.L_H):
                fails = tie.tied and min(r for _T, r in tie.regret) > 0
                T_last, r_last = tie.regret[-1]
                bound = float(rates.varpi(sp.Integer(T_last)) ** printed_e) if printed_arg == "T" else None
                bits.append(f"tie at the top: {tie.text}"
                            + (f" (the printed {cell.text} is {num(bound)} at T = {T_last})" if bound else ""))
                if fails and stated_unique:
                    bits.append(f"outside the claim: {UNIQUE_OPT} is stated")
                elif fails:
                    # a repair at the uses: the paper applies these rows at no instance of its own (its experiments
                    # run Gini, a mixture row), so excluding tied tops excludes no use: conditional, not refuted
                    tied = True
                    st = worst(st, decide(holds=False, repair=UNIQUE_OPT))
        pq, pr, pbeta = _paper_params(cell, params)
        paper_tr = rates.table_rates(pq, pr, pbeta, True)
        paper_e = paper_tr.ucb_exponent if column == "ucb" else paper_tr.etc_exponent
        bits.append(f"with the paper's own table:table_risks values (q={pq}, r={pr}, beta={pbeta}) the same "
                    f"formula gives varpi^({paper_e})"
                    + ("" if sp.simplify(paper_e - printed_e) == 0 else f", not the printed {cell.text}"))
        statuses.append(st)
        ev.append("; ".join(bits))
    status = worst(*statuses)
    single = next(iter(exps)) if len(exps) == 1 else None
    text = got[0].split("] ", 1)[-1] if len(set(g.split("] ", 1)[-1] for g in got)) == 1 and got else "; ".join(got)
    return RateFacts(status, text, " | ".join(ev), printed_e, printed_arg,
                     single[0] if single and single[1] == printed_arg else None,
                     max(bounds, key=float) if len(bounds) == 1 else None, None, tied)


def _mixture(claim: Claim, cell: RateCell, printed_e, printed_arg) -> RateFacts:
    key, column = cell.regret.key, cell.column
    params = derived.parameter_sweep(key, TABLE)
    if len(params) != 1:  # pragma: no cover - every mixture row is a single member (table:table_regrets)
        raise ArgumentError("claim", f"mixture row {key} with a parameter range")
    prof = derived.profile(key, params[0])
    q, r = prof.q, prof.r
    pq, pr, _pb = _paper_params(cell, params[0])
    b = rates.beta
    domain = claim.assumes("beta_in", ALL_BETA)
    unstated = claim.assumes("beta_in") is None
    est = derived.beta_numeric(key, derived.MIXTURE_INSTANCE)
    beta_note = (f"beta is '-' in table:table_risks and its limit fails to exist numerically at "
                 f"p={derived.MIXTURE_INSTANCE}: {est.evidence()}")
    if column == "ucb":
        r_use = sp.Min(r, b + q / 2)
        got_e = sp.simplify(2 * r_use * rates.kappa(q, r_use, b))
        p_e = printed_e.subs(rates.kappa_sym, rates.kappa(pq, pr, b))
        rv = compare_on(p_e, got_e, b, domain, "larger", unstated, comparable=printed_arg == "T")
        ev = [f"corollary:RS-UCB-M gives varpi^(2 r kappa) with kappa = 1/(2 beta/q + 2) only when beta exists and "
              f"r <= beta + q/2; derived q = {q}, r = {r} (largest valid; any r' <= r also holds), so the rate is "
              f"varpi^(2 min(r, beta + q/2) kappa) = varpi^({got_e})",
              f"the printed cell with the paper's q = {pq}, r = {pr} in kappa is varpi^({sp.simplify(p_e)})"]
        derived_text = rates.format_varpi(got_e)
    else:
        tr = rates.table_rates(q, r, b, False)
        got_e = tr.etc_exponent
        g_d, g_p = rates.gamma_E(q, r, b), rates.gamma_E(pq, pr, b)
        decay_d, decay_p = sp.simplify(g_d * got_e / 2), sp.simplify(g_p * printed_e / 2)
        # a power of T first, then the power of log T (varpi(x)^e = x^(-e/2) (log x)^(e/2), log T^gamma ~ log T)
        rv = compare_rates_on(Rate(decay_p, printed_e / 2), Rate(decay_d, got_e / 2), b, domain, unstated,
                              comparable=printed_arg == "T^gamma")
        ev = [f"theorem:RS-ETC-M gives [log T/T^gamma]^(qr/(2 beta)) = varpi(T^gamma)^(qr/beta) (up to gamma) with "
              f"gamma = 2 beta/(2 beta + r), only when beta exists; derived q = {q}, r = {r}: varpi(T^gamma)^({got_e}) "
              f"with gamma = {g_d}, decay T^-({decay_d}) (log T)^({sp.simplify(got_e / 2)})",
              f"the printed cell with the paper's r = {pr} in gamma = {g_p}: decay T^-({decay_p}) "
              f"(log T)^({sp.simplify(printed_e / 2)})"]
        derived_text = rates.format_varpi(got_e, tr.etc_argument)
    status, holds_on = rv.status, rv.holds_on
    where = "every beta in the stated range" if holds_on == domain else f"beta in {fmt_set(holds_on)}"
    ev.append(f"over beta in {fmt_set(domain)}{' (its existence not stated)' if unstated else ' (stated)'} the printed "
              f"cell holds for {where if holds_on != sp.EmptySet else 'no beta'}"
              + ("" if printed_arg == ("T" if column == "ucb" else "T^gamma") else
                 f" (the printed argument {printed_arg} is not the derived one)"))
    ev.append(beta_note)
    return RateFacts(status, derived_text, "; ".join(ev), printed_e, printed_arg, None, None, holds_on)


def rate_facts(claim: Claim) -> RateFacts:
    """The derivation behind a rate cell (cached per claim: mutants reuse the profiles)."""
    return _facts_and_conditions(claim)[0]


@lru_cache(maxsize=None)
def _facts_and_conditions(claim: Claim) -> tuple[RateFacts, str | None]:
    """The derivation and the unstated conditions its conditional verdicts gave (recorded once, with the cached
    derivation, so a later call that reads the cache still carries them)."""
    from ..statuses import recording

    cell: RateCell = claim.printed
    printed_e, printed_arg = rates.parse_varpi(cell.text)
    with recording() as repairs:
        if derived.profile(cell.regret.key, derived.parameter_sweep(cell.regret.key, TABLE)[0]).solitary:
            f = _solitary(claim, cell, printed_e, printed_arg)
        else:
            f = _mixture(claim, cell, printed_e, printed_arg)
    return f, ("; ".join(dict.fromkeys(repairs)) or None)


def check_rate(claim: Claim) -> CheckResult:
    cell: RateCell = claim.printed
    f, condition = _facts_and_conditions(claim)
    algo = "RS-UCB-M" if cell.column == "ucb" else "RS-ETC-M"
    given = ", ".join(f"{k} {v}" for k, v in claim.given)
    text = f"{algo} regret for {cell.regret.name} is O({cell.text})" + (f" (given {given})" if given else "")
    result = CheckResult(claim.id, text, cell.text, f.derived_text, f.status, "symbolic", f.evidence,
                         condition=condition if f.status == "conditional" else None)
    # tied top arms make eq:discrete_gap's Delta_min(eps) 0 on every grid: the finding of grids that tie
    return caused(result, "grid_ties") if f.top_tie else result


def mutants_rate(claim: Claim, result: CheckResult) -> list[Claim]:
    cell: RateCell = claim.printed
    f = rate_facts(claim)
    out = []
    if Status(result.status).holds:
        text = rates.format_varpi(f.printed_exponent + sp.Rational(1, 2), f.printed_argument)
        out.append(claim.reprinted(replace_cell(cell, text), f"{text} (a stronger rate)"))
    if result.status in ("loose", "refuted") and f.derived_exponent is not None:
        text = rates.format_varpi(f.derived_exponent, f.printed_argument)
        out.append(claim.reprinted(replace_cell(cell, text), f"{text} (the derived rate)"))
    if result.status == "conditional" and f.needed_bound is not None:
        out.append(claim.assuming("means_below", str(f.needed_bound), f"arm means < {f.needed_bound} stated"))
    if result.status == "conditional" and f.top_tie:
        out.append(claim.assuming("grid_optimum", UNIQUE_OPT, f"{UNIQUE_OPT} stated"))
    if Status(result.status).broken and f.beta_holds_on not in (None, sp.EmptySet):
        out.append(claim.assuming("beta_in", f.beta_holds_on, f"beta exists, beta in {fmt_set(f.beta_holds_on)} stated"))
    return out


def replace_cell(cell: RateCell, text: str) -> RateCell:
    """The cell with another printed rate."""
    field = "ucb" if cell.column == "ucb" else "etc"
    return replace(cell, regret=replace(cell.regret, **{field: text}))


def _claims():
    for row in paper_claims.TABLE_REGRETS:
        yield Claim(f"{TABLE}#{row.key}.h", row, check_h, mutants_h)
        for column in ("ucb", "etc"):
            cell = RateCell(row, paper_claims.risk_row(row.key), column,
                            paper_claims.UCB_MEANS_BELOW.get(row.key) if column == "ucb" else None)
            yield Claim(f"{TABLE}#{row.key}.{column}", cell, check_rate, mutants_rate)


CLAIMS = claim_map(*_claims())
