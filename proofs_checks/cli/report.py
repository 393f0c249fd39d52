"""``rsb report --out DIR [--jobs N]``: run the ledger and write ``DIR/index.html``, one self-contained page.

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


def validate(args) -> Request:
    from ..outputs import check_out

    jobs = None if args.jobs is None else values.count(args.jobs, "--jobs", 1)
    return Request(check_out(args.out), jobs)


def execute(req: Request) -> str:
    import os

    from ..ledger import summary
    from ..registry import run_all
    from ..report import write

    jobs = min(os.cpu_count() or 1, 4) if req.jobs is None else req.jobs
    results = run_all(progress=True, jobs=jobs)
    path = write(results, req.out)
    return f"{summary(results)}\nwrote {path}"
