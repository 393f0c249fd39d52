"""``rsb verify [--format json|md|table] [--jobs N] [--mutants] [--status S,...] [--id PREFIX] [--proof LABEL]
[--findings] [--fresh]``.

The claims ledger.  Every format starts with the summary line (counts by status,
and how many entries the filters kept); with ``--format json`` it goes to stderr
so that stdout stays the JSON list of the contract.  The table and Markdown open with
what matters (:mod:`proofs_checks.findings`: one finding per cause, ranked by
consequence, each with its entries, and a bottom line per lemma and theorem); ``--findings``
prints only that (as a JSON object with ``--format json``).  ``--status`` and ``--id``
select the entries shown; ``--proof LABEL`` prints one lemma's or theorem's
statement entries and its steps in the paper's order, with the first broken step,
then what the proof uses (:mod:`proofs_checks.proof_uses`: the results and rules of
the dependency graph, each used result's statement and proof verdicts, and the places
where a used claim that does not hold as printed is used).

The entries come from :func:`proofs_checks.stored.load_or_compute`: the stored
ledger when it is current (same code, same installed versions; nothing runs and
neither NumPy nor SymPy is imported for ``--status`` and ``--id``), else the whole
ledger is computed and stored -- except for ``--id`` and ``--proof``, which then
run only their own checks.  ``--fresh`` computes even when it is current.  Where the
entries came from is one line on stderr.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from .. import paper_labels
from ..ledger import STATUSES
from . import values
from .errors import fail


@dataclass(frozen=True)
class Request:
    format: str
    jobs: int | None
    mutants: bool
    statuses: tuple[str, ...] | None = None
    prefix: str | None = None
    proof: str | None = None
    findings: bool = False
    fresh: bool = False
    recheck: bool = False


def _prefix(text) -> str:
    """``--id PREFIX``: the start of a ledger id, so the start of one of the paper's labels (or a label and more)."""
    prefix = str(text)
    if not prefix.strip():
        raise fail("--id", "expected the start of a ledger id (e.g. --id lemma:RTD or --id 'table:table_regrets#gini')")
    if not any(label.startswith(prefix) or prefix.startswith(label) for label in paper_labels.ORDER):
        raise fail("--id", f"no ledger id can start with {prefix!r}: ids start with a label of the paper "
                           "(see rsb labels), e.g. --id lemma:RTD")
    return prefix


def _proof(text) -> str:
    """``--proof LABEL``: a lemma's or theorem's label."""
    label = str(text)
    info = paper_labels.BY_LABEL.get(label)
    example = "e.g. --proof lemma:RTD or --proof 'theorem: ETC upper bound' (see rsb labels)"
    if info is None:
        raise fail("--proof", f"unknown label {label!r}; give a lemma's or theorem's label, {example}")
    if not info.is_result:
        where = info.proof or info.statement
        hint = f"; it is in the proof of {where!r}: --proof {where!r}" if where else ""
        raise fail("--proof", f"{label!r} is a {info.kind} ({info.element}), not a lemma or theorem{hint}")
    return label


def validate(args) -> Request:
    jobs = None if args.jobs is None else values.count(args.jobs, "--jobs", 1)
    statuses = None if args.status is None else values.choices(args.status, "--status", STATUSES, "status")
    prefix = None if args.id is None else _prefix(args.id)
    proof = None if args.proof is None else _proof(args.proof)
    if proof is not None and (statuses or prefix or args.mutants or args.findings):
        raise fail("--proof", "shows one proof's steps; not with --status, --id, --mutants or --findings")
    if args.findings and (statuses or prefix or args.mutants):
        raise fail("--findings", "summarises the whole ledger; not with --status, --id or --mutants")
    recheck = bool(getattr(args, "recheck", False))
    if recheck and (proof is not None or args.findings or args.mutants):
        raise fail("--recheck", "re-checks the stored certificates; not with --proof, --findings or --mutants")
    return Request(args.format, jobs, bool(args.mutants), statuses, prefix, proof, bool(args.findings),
                   bool(args.fresh), recheck)


def _table(results) -> str:
    if not results:
        return ""
    width = max(len(r.id) for r in results)
    from ..certificates import short

    lines = [f"{'id':<{width}}  {'status':<11}  {'method':<9}  paper -> derived  [certificate]"]
    for r in results:
        cert = short(getattr(r, "certificate", None))
        lines.append(f"{r.id:<{width}}  {r.status:<11}  {r.method:<9}  {r.paper} -> {r.derived}"
                     + (f"  [{cert}]" if cert else ""))
    return "\n".join(lines)


def _filters(req: Request) -> str:
    bits = ([f"--status {','.join(req.statuses)}"] if req.statuses else []) + (
        [f"--id {req.prefix!r}"] if req.prefix else [])
    return ", ".join(bits)


def _proof_uses(label: str, fmt: str, jobs: int, fresh: bool) -> str:
    """``--proof LABEL``: the proof's view, then what it uses (the dependency graph) with the used results'
    verdicts; the entries of the proof and of the results it uses come from the stored ledger when it is current,
    else their checks run."""
    from rsb_sim import jsontext

    from .. import proof_uses, proof_view
    from ..stored import load_or_compute

    got = load_or_compute(fresh=fresh, jobs=jobs, progress=True,
                          subset=lambda ids: proof_uses.ids_needed(label, ids))
    print(got.note, file=sys.stderr)
    results = list(got.entries)
    view = proof_view.build(label, results)
    used = proof_uses.build(label, results)
    if fmt == "json":
        return jsontext.dumps({**proof_view.to_dict(view), "uses": [u.to_dict() for u in used]},
                              ensure_ascii=False)
    if fmt == "md":
        return proof_view.to_markdown(view) + "\n" + proof_uses.to_markdown(label, used)
    return proof_view.to_text(view) + "\n" + proof_uses.to_text(label, used)


def _recheck(results, where="the ledger") -> str:
    """``--recheck``: every certificate re-checked by the kernel from its data alone; a failure names its entry
    (exit status 74, as for a stored file that fails its check)."""
    from rsb_sim.files import CorruptFile

    from ..certificates.recheck import recheck_entries

    ok, bad = recheck_entries(results)
    if bad:
        raise CorruptFile(where, f"{len(bad)} certificate(s) fail their re-check: " + " | ".join(bad))
    return "\n".join(ok + [f"Recheck: {len(ok)} certificates re-checked from their data alone; all hold."])


def execute(req: Request) -> str:
    import os

    from ..ledger import select, summary, to_json
    from ..stored import load_or_compute

    jobs = min(os.cpu_count() or 1, 4) if req.jobs is None else req.jobs
    if req.proof is not None:
        return _proof_uses(req.proof, req.format, jobs, req.fresh)
    subset = None if req.prefix is None else (lambda ids: [i for i in ids if i.startswith(req.prefix)])
    got = load_or_compute(mutants=req.mutants, fresh=req.fresh, jobs=jobs, progress=True, subset=subset)
    results = list(got.entries)
    if req.prefix is not None and not results:
        raise fail("--id", f"no ledger id starts with {req.prefix!r}")
    print(got.note, file=sys.stderr)
    if req.recheck:
        return _recheck(results, getattr(got, "stored", None) or "the ledger")
    from rsb_sim import jsontext

    from .. import findings

    shown = select(results, req.statuses)
    line = summary(results, len(shown), _filters(req))
    if req.findings:
        if req.format == "json":
            return jsontext.dumps(findings.to_dict(results), ensure_ascii=False)
        return (findings.to_markdown(results) if req.format == "md" else findings.to_text(results)).rstrip("\n")
    if req.format == "json":
        print(line, file=sys.stderr)  # stdout stays the JSON list (ARCHITECTURE.md)
        return to_json(shown)
    if req.format == "md":
        return findings.document(shown, results, _filters(req)).rstrip("\n")
    # the whole ledger opens with what matters; a filtered query (--status, --id) shows its entries only
    opening = findings.to_text(results) if not _filters(req) else ""
    return "\n".join(x for x in (line, opening, _table(shown)) if x)
