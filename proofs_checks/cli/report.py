"""``rsb report --out DIR [--jobs N] [--fresh]``: write ``DIR/index.html``, one self-contained page of the ledger.

The entries come from :func:`proofs_checks.stored.load_or_compute` (the stored ledger when it is current,
else computed and stored; ``--fresh`` computes).

The page (:mod:`proofs_checks.report`) has the summary, the ledger filterable by
status and searchable, one section per proof with its steps coloured by status,
every entry's evidence, and the figures of DIR and docs/figures embedded; it loads
nothing from the network.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import values


@dataclass(frozen=True)
class Request:
    out: Path
    jobs: int | None
    fresh: bool = False


def validate(args) -> Request:
    from ..outputs import check_out

    jobs = None if args.jobs is None else values.count(args.jobs, "--jobs", 1)
    return Request(check_out(args.out), jobs, bool(args.fresh))


def execute(req: Request) -> str:
    import os
    import sys

    from ..ledger import summary
    from ..report import write
    from ..stored import load_or_compute

    jobs = min(os.cpu_count() or 1, 4) if req.jobs is None else req.jobs
    got = load_or_compute(fresh=req.fresh, jobs=jobs, progress=True)
    print(got.note, file=sys.stderr)
    results = list(got.entries)
    path = write(results, req.out)
    return f"{summary(results)}\nwrote {path}"
