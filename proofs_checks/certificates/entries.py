"""Which certificate an entry gets: the obligations of its printed claim, proved, or what it was tested on.

Certified today (``docs/theory.md``, "Certificates"): the q, r and L cells of ``table:table_risks`` and the
statement items q, r, L and the summary of the seven Hölder lemmas, each over the family's whole stated parameter
range (:mod:`proofs_checks.certificates.bernoulli`).  An entry whose claim holds (verified, loose) and whose
obligations are all proved gets the weakest proved kind; every other entry of those tables says ``sampled`` with
the points its check swept and, when an attempt failed, why.  The claim is read from ``claim.printed``, so a
mutant of a certified claim goes through the same attempt and must fail it.
"""

from __future__ import annotations

from . import kernel, prove, record, sampled
from .bernoulli import domain_of, obligation
from .kernel import KernelError
from .prove import NotProved
from ..statuses import Status

TABLE = "table:table_risks"
#: Statuses whose claim holds as printed (a loose claim holds with a weaker value).
HOLDS = tuple(s.value for s in Status if s.holds)


def _family_of_lemma(label: str) -> str | None:
    from rsb_theory import distortions

    for key, fam in distortions.REGISTRY.items():
        if fam.label == label:
            return key
    return None


def _classes_of_lemma(label: str) -> dict[str, str]:
    """class -> the printed r of the lemma's items r, r.case1, ... (:data:`paper_claims.HOLDER_LEMMAS`)."""
    from .. import paper_claims

    out = {}
    for c in paper_claims.HOLDER_LEMMAS:
        base, _, part = c.id.partition("#")
        if base == label and (part == "r" or part.startswith("r.")):
            out[c.instances] = c.printed
    return out


def _item(label: str, part: str) -> str | None:
    from .. import paper_claims

    for c in paper_claims.HOLDER_LEMMAS:
        if c.id == f"{label}#{part}":
            return c.printed
    return None


def _table_parts(claim) -> tuple[list[dict], str]:
    from .. import derived

    row = claim.printed
    column = claim.id.rsplit(".", 1)[1]
    cls = "solitary" if derived.profile(row.key).solitary else "mixture"
    if column == "q":
        return obligation("H", row.key, row.q, row.L), row.key
    if column == "r":
        return obligation("M", row.key, row.r, row.L, cls), row.key
    if column == "L":
        return obligation("H", row.key, row.q, row.L) + obligation("M", row.key, row.r, row.L, cls), row.key
    raise NotProved(f"no obligation for the column {column}")


#: Proof steps of the Hölder lemmas whose printed inequality is the Hölder inequality of h itself:
#: step -> the item whose printed exponent it uses (its constant is the step's printed value).
HOLDER_STEPS = {
    "lemma:example_utility_Holder#step:eq:lemma_5_p": "q",  # U_h(F) - U_h(G) <= |p_F - p_G|
    "lemma:PHT#step:power": "q",  # (1-F)^s - (1-G)^s <= |F - G|^s pointwise, F, G in [0, 1]
    "lemma:Quadratic#step:eq:quadratic_lastline_2": "q",  # h(p_F) - h(p_G) <= (1+s)|p_F - p_G|
}


def _lemma(claim) -> tuple[list[dict], str]:
    label, _, part = claim.id.partition("#")
    if claim.id in HOLDER_STEPS:
        key = _family_of_lemma(label)
        return obligation("H", key, _item(label, HOLDER_STEPS[claim.id]), claim.printed.printed), key
    key = _family_of_lemma(label)
    if key is None:
        raise NotProved(f"no family for {label}")
    item = claim.printed
    L = _item(label, "L")
    classes = _classes_of_lemma(label)
    if part == "q":
        return obligation("H", key, item.printed, L), key
    if part == "r" or part.startswith("r."):
        return obligation("M", key, item.printed, L, item.instances), key
    if part == "L":
        parts = obligation("H", key, _item(label, "q"), item.printed)
        for cls, r in classes.items():
            parts += obligation("M", key, r, item.printed, cls)
        return parts, key
    if part == "summary":
        listed = dict(x.strip().split("=", 1) for x in item.printed.split(";"))
        Lv = listed.get("L", L)
        parts = obligation("H", key, listed.get("q", _item(label, "q")), Lv)
        for cls, r in classes.items():
            parts += obligation("M", key, listed.get("r", r), Lv, cls)
        return parts, key
    raise NotProved(f"no obligation for the item {part}")


REGRETS = "table:table_regrets"


def _regret_h(claim) -> tuple[list[dict], str]:
    """``.h``: the printed h is the family's h (an identity in u and the parameter), and the shading is the kind of
    optimum: shaded (some instance is mixture optimal) when h has a strict interior maximum (checked exactly at the
    maximiser, an enumeration of one point), unshaded when h(u) <= h(1) on [0, 1] (proved), for the concave h of
    ``table:table_regrets`` (``lemma:beta_lemma_monotone``'s setting)."""
    import sympy as sp

    from rsb_theory import distortions

    from .bernoulli import _prove_le, _range_data, h_of, maximiser, param_domain

    row = claim.printed
    fam = distortions.REGISTRY[row.key]
    params, pinned = param_domain(row.key, REGRETS)
    names = {p.name: sp.Symbol(p.name) for p in fam.parameters}
    printed = distortions.parse_expression(row.h, {k: sp.Symbol(k, positive=True) for k in names})
    printed = printed.xreplace({sp.Symbol(k, positive=True): v for k, v in names.items()})
    printed = printed.xreplace({distortions.U: sp.Symbol("u")})
    registry_h = h_of(row.key, {})
    vars_ = {"u": ["0", "1", False, False], **{p.name: _range_data(p.domain) for p in fam.parameters}}
    parts = [prove.identity(f"printed h = {fam.template}", [(str(printed), str(registry_h))], vars_)]
    h = h_of(row.key, pinned)
    u = sp.Symbol("u")
    if row.shaded:
        m = maximiser(row.key, pinned)
        if m is None:
            raise NotProved("shaded, but no single interior maximiser of h")
        gap = sp.Max(h.subs(u, 0), h.subs(u, 1)) - h.subs(u, m)
        part = prove.decision(f"h({m}) > max(h(0), h(1)): an interior strict maximum", str(gap), dict(params),
                              strict=True)
        parts.append(part)
    else:
        parts.append(_prove_le("h(u) <= h(1) for u in [0, 1]: a vertex is optimal", h - h.subs(u, 1),
                               {"u": ["0", "1", False, False], **params}))
    return parts, row.key


def _regret_rate(claim) -> tuple[list[dict], str]:
    """A solitary row's rate cell: its printed exponent is the rate formula of ``corollary:RS-UCB-M`` /
    ``theorem: ETC upper bound`` (:func:`rsb_theory.rates.table_rates`) at the row's printed q, r and beta of
    ``table:table_risks`` (themselves certified there), an identity in the row's parameter."""
    from rsb_theory import rates

    from .bernoulli import param_domain, printed_value

    cell = claim.printed
    key = cell.regret.key
    if cell.risk.beta.strip() == "-":
        raise NotProved("beta is not printed ('-'): the cell is a function of beta")
    params, pinned = param_domain(key, REGRETS)
    q, r, beta = (printed_value(getattr(cell.risk, a), key, pinned) for a in ("q", "r", "beta"))
    pe, parg = rates.parse_varpi(cell.text)
    tr = rates.table_rates(q, r, beta, True)
    ge, garg = (tr.ucb_exponent, "T") if cell.column == "ucb" else (tr.etc_exponent, tr.etc_argument)
    if parg != garg:
        raise NotProved(f"printed argument {parg}, derived {garg}")
    return [prove.identity(f"printed exponent = the rate formula at q = {q}, r = {r}, beta = {beta}",
                           [(str(pe), str(ge))], dict(params))], key


HOLDER_LABELS = ("lemma:example_utility_Holder", "lemma:PHT", "lemma:RTD", "lemma:Dual_Power", "lemma:Quadratic",
                 "lemma:mean_median_Holder", "lemma:inter_ES_Holder")


def certificate_for(claim, result) -> dict | None:
    """The certificate of ``claim``'s entry, None for an entry outside the certified tables (for now)."""
    ident = claim.id
    if ident.startswith(TABLE + "#"):
        if ident.endswith(".beta"):
            return _sampled_table(claim, "beta: the gap exponent is derived per parameter (lemma:beta_lemma_monotone)")
        build = _table_parts
    elif ident.startswith(REGRETS + "#"):
        build = _regret_h if ident.endswith(".h") else _regret_rate
    elif ident.partition("#")[0] in HOLDER_LABELS and (ident in HOLDER_STEPS or (
            "#step" not in ident and "#chain" not in ident)):
        build = _lemma
    else:
        return None
    if result.status not in HOLDS + ("refuted",):
        return _sampled_table(claim, f"not attempted: the verdict is {result.status}")
    try:
        parts, key = build(claim)
    except NotProved as exc:
        if result.status == "refuted":
            found = counterexample(exc)
            if found is not None:
                return found
        why = str(exc) + (f" (witness {exc.witness})" if getattr(exc, "witness", None) else "")
        return _sampled_table(claim, f"attempt failed: {why}")
    except (KernelError, ValueError) as exc:
        why = str(exc) + (f" (witness {exc.witness})" if getattr(exc, "witness", None) else "")
        return _sampled_table(claim, f"attempt failed: {why}")
    if result.status == "refuted":
        return _sampled_table(claim, "the attempt proved the printed claim: the refutation is elsewhere in the "
                                     "entry (see its evidence)")
    words, data = domain_of(key, REGRETS if ident.startswith(REGRETS) else TABLE)
    return record(parts, words, data, whole=True)


def counterexample(exc: NotProved) -> dict | None:
    """A refuted entry's certificate: the point z3 found where the printed claim fails, re-checked exactly
    (``enumeration``, strict: the claim's left side exceeds its right side there)."""
    from fractions import Fraction

    point = {}
    for k in getattr(exc, "vars", {}) or {}:
        v = (exc.witness or {}).get(k)
        if v is None:
            return None
        try:
            point[k] = str(Fraction(v))
        except ValueError:  # an algebraic number: not a rational point
            return None
    part = {"kind": "enumeration", "claim": f"counterexample to {exc.claim}", "expr": f"-({exc.expr})",
            "vars": exc.vars, "points": [point], "strict": True}
    try:
        kernel.recheck_part(part)
    except KernelError:
        return None
    words = "the counterexample " + ", ".join(f"{k} = {v}" for k, v in point.items())
    return record([part], words, {"points": [point]}, whole=False)


def _sampled_table(claim, why: str) -> dict:
    from .. import derived

    key = getattr(claim.printed, "key", None) or getattr(getattr(claim.printed, "regret", None), "key", None)
    if key is None:
        key = _family_of_lemma(claim.id.partition("#")[0])
    if key is None:
        return sampled("the points the evidence lists", attempt=why)
    pts = derived.parameter_sweep(key, REGRETS if claim.id.startswith(REGRETS) else TABLE)
    words = "the swept parameter values " + ", ".join(derived.fmt_params(p).strip() or "(none)" for p in pts)
    return sampled(words, len(pts), why)
