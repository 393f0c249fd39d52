"""``rsb derive --h EXPR|NAME [--param k=v ...] [--p P1,P2,... | --arms SPECS]``.

With ``--arms`` (any laws, ``docs/arms.md``) the instance constants are those the paper's bounds read
for laws on [0, b]: L_H b^(1-q) (the W1-Hölder constant of U_h, Hölder and Jensen), r and L_MH of
``assumption:Holder_opt`` (r = q with L_MH = L_H b^(1-q), always valid by the remark of the
appendix's paragraph on Hölder exponents; a sharper r is derived for Bernoulli arms only, and the
report says so), W of ``eq:W``, alpha*, V(alpha*) and the solitary values.

The Bernoulli closed form, q and L_H of ``assumption:Holder``, and with an
instance r, L_MH, alpha*, beta and the rate exponents of ``theorem:RS-ETC-M``
and ``corollary:RS-UCB-M`` (JSON keys: the ARCHITECTURE.md contract).
"""

from __future__ import annotations

from rsb_sim import jsontext
from dataclasses import dataclass

from . import values, work

#: Run ``execute`` in a worker process (proofs_checks.cli.app): SciPy, CVXPY and SymPy calls do not look at signals.
IN_WORKER = True
LIBRARY_FLAGS = {"h": "--h", "expr": "--h"}


@dataclass(frozen=True)
class Request:
    h: str
    params: dict
    p: tuple | None
    format: str
    arms: str | None = None
    max_memory: int | None = None


def validate(args) -> Request:
    params = values.params(args.param)
    h = values.distortion(args.h, "--h", tuple(params))
    p, arms = values.means_or_arms(args, required=False)
    return Request(h, params, p, args.format, arms, work.memory_limit(args))


def execute(req: Request) -> str:
    from ..instance_reports import derive_report

    p = req.p if req.arms is None else values.arm_laws(req.arms)
    report = derive_report(req.h, req.params, p, req.max_memory)
    if req.format == "json":
        return jsontext.dumps(report, indent=2)
    width = max(len(k) for k in report)
    lines = []
    for k, v in report.items():
        if isinstance(v, dict):
            v = "; ".join(f"{a}={b}" for a, b in v.items())
        lines.append(f"{k:<{width}}  {v}")
    return "\n".join(lines)
