"""``rsb verify --recheck``: every stored certificate re-checked from its data alone by the kernel.

Imports the kernel (:mod:`proofs_checks.certificates.kernel`) and nothing of the checks: the entries are plain
dicts (or entries whose ``certificate`` field is one), as read from a stored ledger.
"""

from __future__ import annotations

from .kernel import PROVED, KernelError, recheck


def recheck_entries(entries) -> tuple[list[str], list[str]]:
    """(one line per re-checked certificate, one line per failure naming its entry)."""
    ok, bad = [], []
    for e in entries:
        ident = e["id"] if isinstance(e, dict) else e.id
        cert = e.get("certificate") if isinstance(e, dict) else getattr(e, "certificate", None)
        if not cert:
            continue
        if cert.get("kind") not in PROVED and not cert.get("parts"):
            continue
        try:
            lines = recheck(cert)
        except (KernelError, KeyError, TypeError, ValueError) as exc:
            bad.append(f"{ident}: {type(exc).__name__}: {exc}")
            continue
        ok.append(f"{ident}: {cert['kind']} re-checked ({'; '.join(lines)})")
    return ok, bad


def recheck_file(path) -> tuple[list[str], list[str]]:
    """Re-check the certificates of a stored ledger file (``stored.path_of``), read with the standard library."""
    import json
    from pathlib import Path

    record = json.loads(Path(path).read_text(encoding="utf-8"))
    entries = record["entries"] if isinstance(record, dict) else record
    return recheck_entries(entries)
