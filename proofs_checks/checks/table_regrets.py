"""Cells of ``table:table_regrets``: h (with the row's shading), the RS-UCB-M
and the RS-ETC-M regret rates.

Rates are re-derived by ``rsb_theory.rates.table_rates`` from (q, r, beta)
derived from h (:mod:`proofs_checks.derived`), with
``corollary:RS-UCB-M``'s side condition r <= beta + q/2 respected: any
r' <= r is a valid mixture exponent, so the derivation uses
r_use = min(r, beta + q/2).  The paper's own ``table:table_risks`` values are
also pushed through the same formulas, so the evidence says whether a printed
cell follows from the paper's parameters.
"""

from __future__ import annotations

import sympy as sp

from rsb_theory import distortions, rates
from rsb_theory.profile import mixture_witness

from .. import derived, paper_claims
from ..ledger import CheckResult

COLUMNS = ("h", "ucb", "etc")


def check_h(row: paper_claims.RegretRow) -> CheckResult:
    fam = distortions.REGISTRY[row.key]
    syms = {p.name: p.symbol for p in fam.parameters}
    printed = distortions.parse_expression(row.h, syms)
    same = sp.simplify(printed - fam.expression()) == 0
    mixture, why = mixture_witness(derived.profile(row.key).distortion)
    status = "verified" if same and mixture == row.shaded else "refuted"
    shade = "shaded (mixture optimal)" if row.shaded else "not shaded (solitary optimal)"
    ev = (f"printed h {'equals' if same else 'differs from'} the registry's {fam.expression()} symbolically; "
          f"derived: {'mixture' if mixture else 'solitary'} optimal, {why}")
    return CheckResult(f"table:table_regrets#{row.key}.h", f"{row.name}: h(u) = {row.h}, row {shade}",
                       f"{row.h}; {'shaded' if row.shaded else 'unshaded'}",
                       f"{fam.expression()}; {'shaded' if mixture else 'unshaded'}", status, "symbolic", ev)


def _paper_params(key: str) -> tuple[sp.Expr, sp.Expr, sp.Expr | None]:
    risk = paper_claims.risk_row(key)
    params = derived.table_params(key) or {p.name: str(p.default) for p in distortions.REGISTRY[key].parameters}
    params = {k: sp.Rational(v) for k, v in params.items()}
    beta = None if risk.beta.strip() == "-" else derived.printed(risk.beta, params)
    return derived.printed(risk.q, params), derived.printed(risk.r, params), beta


def _verdict(printed: sp.Expr, got: sp.Expr) -> str:
    diff = sp.simplify(printed - got)
    if diff == 0:
        return "verified"
    return "loose" if bool(diff < 0) else "refuted"


def _beta_numeric_note(key: str) -> str:
    est = derived.beta_numeric(key, derived.MIXTURE_INSTANCE)
    return f"at p={derived.MIXTURE_INSTANCE}: {est.evidence()}"


def check_rate(row: paper_claims.RegretRow, column: str) -> CheckResult:
    prof = derived.profile(row.key)
    q, r = prof.q, prof.r
    pq, pr, pbeta = _paper_params(row.key)
    cell = row.ucb if column == "ucb" else row.etc
    printed_e, printed_arg = rates.parse_varpi(cell)
    ident = f"table:table_regrets#{row.key}.{column}"
    algo = "RS-UCB-M" if column == "ucb" else "RS-ETC-M"
    claim = f"{algo} regret for {row.name} is O({cell})"
    if prof.solitary:
        beta = prof.beta.value
        r_use = sp.Min(r, beta + q / 2)
        tr = rates.table_rates(q, r_use, beta, True)
        paper_tr = rates.table_rates(pq, pr, pbeta, True)
        got_e = tr.ucb_exponent if column == "ucb" else tr.etc_exponent
        got_arg = "T" if column == "ucb" else tr.etc_argument
        paper_e = paper_tr.ucb_exponent if column == "ucb" else paper_tr.etc_exponent
        status = _verdict(sp.sympify(printed_e), got_e) if printed_arg == got_arg else "refuted"
        ev = [f"derived q = {q}, r = {r} (used r = {sp.simplify(r_use)}), beta = {beta}: exponent {got_e}"]
        if column == "ucb":
            ev.append(f"corollary:RS-UCB-M: kappa = 1/(2 beta/q + 2) = {rates.kappa(q, r_use, beta)}, exponent 2 r kappa")
        else:
            ev.append("solitary optimum: the vertex is on eq:etc_discrete_set, so Delta(eps) = 0 for a fixed eps "
                      "and the regret is the discrete regret (log T/T)^q = varpi^(2q) of theorem: ETC upper bound")
        ev.append(f"with the paper's own table:table_risks values (q={pq}, r={pr}, beta={pbeta}) the same "
                  f"formula gives varpi^({paper_e})"
                  + ("" if sp.simplify(paper_e - printed_e) == 0 else f", not the printed {cell}"))
        if prof.beta.bound is not None and column == "ucb":
            ev.append(f"beta = 1 needs {prof.beta.condition} (see table:table_risks#{row.key}.beta)")
            risk = paper_claims.risk_row(row.key)
            if status == "verified" and risk.beta_bound is None:
                status = "conditional"
        return CheckResult(ident, claim, cell, rates.format_varpi(got_e, got_arg), status, "symbolic", "; ".join(ev))
    # mixture rows: beta unknown, the rate is a formula in beta
    b = rates.beta
    if column == "ucb":
        r_use = sp.Min(r, b + q / 2)
        got_e = rates.table_rates(q, r, b, False).ucb_exponent
        paper_formula = 2 * pr * rates.kappa(pq, pr, b)
        printed_sub = printed_e.subs(rates.kappa_sym, rates.kappa(pq, pr, b))
        follows = sp.simplify(printed_sub - paper_formula) == 0
        ev = [
            f"corollary:RS-UCB-M gives varpi^(2 r kappa) with kappa = 1/(2 beta/q + 2) only when beta exists and "
            f"r <= beta + q/2; derived q = {q}, r = {r} (largest valid; any r' <= r also holds), so the rate is "
            f"varpi^(2 min(r, beta + q/2) kappa) = varpi^({sp.simplify(2 * r_use * rates.kappa(q, r_use, b))})",
            f"the printed cell {'equals' if follows else 'differs from'} 2 r kappa with the paper's r = {pr}, which "
            f"needs beta >= {sp.simplify(pr - pq / 2)}",
            f"beta is '-' in table:table_risks and its limit fails to exist numerically {_beta_numeric_note(row.key)}",
        ]
        if bool(r > pr):
            ev.append(f"with the derived r = {r} the exponent improves to {got_e} when beta >= {sp.simplify(r - q / 2)}")
        derived_text = rates.format_varpi(sp.simplify(2 * r_use * rates.kappa(q, r_use, b)))
    else:
        tr = rates.table_rates(q, r, b, False)
        got_e = tr.etc_exponent
        paper_tr = rates.table_rates(pq, pr, b, False)
        follows = sp.simplify(printed_e - paper_tr.etc_exponent) == 0
        ev = [
            f"theorem:RS-ETC-M gives [log T/T^gamma]^(qr/(2 beta)) = varpi(T^gamma)^(qr/beta) (up to gamma) with "
            f"gamma = 2 beta/(2 beta + r), only when beta exists; derived q = {q}, r = {r}: exponent {got_e}",
            f"the printed cell {'equals' if follows else 'differs from'} qr/beta with the paper's q = {pq}, r = {pr}",
            f"beta is '-' in table:table_risks and its limit fails to exist numerically {_beta_numeric_note(row.key)}",
        ]
        if bool(r > pr):
            ev.append(f"with the derived r = {r}: varpi^({got_e})(T^gamma), gamma = {rates.gamma_E(q, r, b)}")
        derived_text = rates.format_varpi(got_e, tr.etc_argument)
    status = "conditional" if follows else "refuted"
    return CheckResult(ident, claim, cell, derived_text, status, "symbolic", "; ".join(ev))


def check(row: str, column: str) -> CheckResult:
    """The ledger entry ``table:table_regrets#row.column``."""
    r = paper_claims.regret_row(row)
    return check_h(r) if column == "h" else check_rate(r, column)
