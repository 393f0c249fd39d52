"""Which certificate an entry gets: the obligations of its printed claim, proved, or what it was tested on.

Certified today (``docs/theory.md``, "Certificates"): the q, r and L cells of ``table:table_risks`` and the
statement items q, r, L and the summary of the seven Hölder lemmas, each over the family's whole stated parameter
range (:mod:`proofs_checks.certificates.bernoulli`).  An entry whose claim holds (verified, loose) and whose
obligations are all proved gets the weakest proved kind; every other entry of those tables says ``sampled`` with
the points its check swept and, when an attempt failed, why.  The claim is read from ``claim.printed``, so a
mutant of a certified claim goes through the same attempt and must fail it.
"""

from __future__ import annotations

from . import record, sampled
from .bernoulli import domain_of, obligation
from .kernel import KernelError
from .prove import NotProved

TABLE = "table:table_risks"
#: Statuses whose claim holds as printed (a loose claim holds with a weaker value).
HOLDS = ("verified", "loose")


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


def _lemma(claim) -> tuple[list[dict], str]:
    label, _, part = claim.id.partition("#")
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


HOLDER_LABELS = ("lemma:example_utility_Holder", "lemma:PHT", "lemma:RTD", "lemma:Dual_Power", "lemma:Quadratic",
                 "lemma:mean_median_Holder", "lemma:inter_ES_Holder")


def certificate_for(claim, result) -> dict | None:
    """The certificate of ``claim``'s entry, None for an entry outside the certified tables (for now)."""
    ident = claim.id
    if ident.startswith(TABLE + "#"):
        if ident.endswith(".beta"):
            return _sampled_table(claim, "beta: the gap exponent is derived per parameter (lemma:beta_lemma_monotone)")
        build = _table_parts
    elif ident.partition("#")[0] in HOLDER_LABELS and "#step" not in ident and "#chain" not in ident:
        build = _lemma
    else:
        return None
    if result.status not in HOLDS:
        return _sampled_table(claim, f"not attempted: the verdict is {result.status}")
    try:
        parts, key = build(claim)
    except (NotProved, KernelError) as exc:
        why = str(exc) + (f" (witness {exc.witness})" if getattr(exc, "witness", None) else "")
        return _sampled_table(claim, f"attempt failed: {why}")
    words, data = domain_of(key)
    return record(parts, words, data, whole=True)


def _sampled_table(claim, why: str) -> dict:
    from .. import derived

    key = getattr(claim.printed, "key", None)
    if key is None:
        key = _family_of_lemma(claim.id.partition("#")[0])
    if key is None:
        return sampled("the points the evidence lists", attempt=why)
    pts = derived.parameter_sweep(key, TABLE)
    words = "the swept parameter values " + ", ".join(derived.fmt_params(p).strip() or "(none)" for p in pts)
    return sampled(words, len(pts), why)
