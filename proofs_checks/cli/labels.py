"""``rsb labels [--format json|table]``: every label of the paper, its kind, and the ledger ids that check it.

The kinds are data (:mod:`proofs_checks.paper_labels`); the ids are derived from
the registry (:func:`proofs_checks.registry.ids_by_label`: an entry checks its
own label; ``RESULT#step:LABEL`` also the step's label; another entry of a result
also the displays of the result's statement); ``uses`` (JSON) from the dependency
graph (:mod:`proofs_checks.paper_uses`).  No check runs.
"""

from __future__ import annotations

from rsb_sim import jsontext
from dataclasses import dataclass


@dataclass(frozen=True)
class Request:
    format: str


def validate(args) -> Request:
    return Request(args.format)


def rows() -> list[dict]:
    """``[{"label", "kind", "ledger_ids", "uses"}]`` in the paper's order (``uses``: the labels it uses directly,
    :func:`proofs_checks.graph.uses`)."""
    from .. import paper_labels
    from ..graph import uses
    from ..registry import ids_by_label

    ids = ids_by_label()
    return [{"label": x.label, "kind": x.kind, "ledger_ids": list(ids[x.label]), "uses": list(uses(x.label))}
            for x in paper_labels.LABELS]


def _table(data: list[dict]) -> str:
    from .. import paper_labels

    claims = [d for d in data if d["kind"] == "claim"]
    checked = sum(bool(d["ledger_ids"]) for d in claims)
    width = max(len(d["label"]) for d in data)
    lines = [f"{len(data)} labels: " + ", ".join(f"{sum(d['kind'] == k for d in data)} {k}"
                                                 for k in paper_labels.KINDS)
             + f"; {checked} of {len(claims)} claims have a ledger entry",
             f"{'label':<{width}}  {'kind':<10}  ledger ids"]
    for d in data:
        ids = ", ".join(d["ledger_ids"]) if len(d["ledger_ids"]) <= 3 else \
            f"{', '.join(d['ledger_ids'][:2])}, ... ({len(d['ledger_ids'])} ids)"
        lines.append(f"{d['label']:<{width}}  {d['kind']:<10}  {ids or '-'}")
    return "\n".join(lines)


def execute(req: Request) -> str:
    data = rows()
    return jsontext.dumps(data, indent=2, ensure_ascii=False) if req.format == "json" else _table(data)
