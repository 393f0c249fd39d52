"""Certificates: how far a verdict is proved (``docs/theory.md``, "Certificates").

An entry's ``certificate`` (:attr:`proofs_checks.ledger.CheckResult.certificate`) is a plain dict::

    {"kind": "identity" | "decision" | "interval" | "enumeration" | "sampled",
     "domain": {"words": "...", "data": {...}},   # the domain the certificate covers
     "whole": bool,                               # that domain is the claim's whole stated domain
     "parts": [...]}                              # the obligations, each re-checkable from its data

The status stays the verdict; the certificate says how far it is proved.  ``kind`` is the weakest of the parts'
(:data:`~proofs_checks.certificates.kernel.KINDS`, strongest first).  :func:`attach` makes one for an entry;
:mod:`~proofs_checks.certificates.kernel` re-checks one from its data alone (``rsb verify --recheck``).

Layering: this package imports :mod:`rsb_theory`, :mod:`proofs_checks.paper_claims` and
:mod:`proofs_checks.derived`, never :mod:`rsb_sim` or a check module.
"""

from __future__ import annotations

from .kernel import KINDS, PROVED
from ..statuses import Status

__all__ = ["KINDS", "PROVED", "attach", "record", "sampled", "summary_counts", "short"]


def record(parts: list[dict], words: str, data, whole: bool) -> dict:
    """A certificate from its proved parts (kind: the weakest part's)."""
    kind = KINDS[max(KINDS.index(p["kind"]) for p in parts)]
    return {"kind": kind, "domain": {"words": words, "data": data}, "whole": bool(whole), "parts": parts}


def sampled(words: str, count: int | None = None, attempt: str = "") -> dict:
    """A tested-only certificate: the points the check swept (``count`` of them when known)."""
    out = {"kind": "sampled", "domain": {"words": words, "data": None}, "whole": False}
    if count is not None:
        out["count"] = count
    if attempt:
        out["attempt"] = attempt
    return out


def short(cert: dict | None) -> str:
    """``interval, whole: s in (0, 1), ...`` (the column beside the status)."""
    if not cert:
        return ""
    if cert["kind"] in PROVED:
        reach = "whole domain" if cert.get("whole") else "sub-domain"
        return f"{cert['kind']} ({reach}: {cert['domain']['words']})"
    count = cert.get("count")
    return f"{cert['kind']}" + (f" ({count} points: {cert['domain']['words']})" if count
                                else f" ({cert['domain']['words']})")


def summary_counts(results) -> dict[str, int]:
    """Entries proved on their whole domain, on a sub-domain, and tested only (no proved certificate)."""
    out = {"whole": 0, "sub": 0, "tested": 0}
    for r in results:
        cert = getattr(r, "certificate", None)
        if cert and cert.get("kind") in PROVED:
            out["whole" if cert.get("whole") else "sub"] += 1
        else:
            out["tested"] += 1
    return out


def attach(claim, result):
    """``result`` with its certificate (an entry that already carries one keeps it)."""
    from dataclasses import replace

    if getattr(result, "certificate", None) is not None:
        return result
    from .entries import certificate_for

    cert = certificate_for(claim, result)
    if cert is None and Status(result.status).holds:
        # no proof attempted for this kind of claim: a holding verdict says it is tested only, and where
        cert = sampled(f"the cases its {result.method} check tried (listed in the evidence); not proved on the "
                       "claim's whole domain")
    return result if cert is None else replace(result, certificate=cert)
