"""The ``rsb simulate`` and ``rsb bench`` subcommands (registered by :mod:`proofs_checks.cli`).

Bad input raises ValueError whose message names the argument; the ``rsb``
entry point turns it into one line on stderr and exit status 2.
"""

from __future__ import annotations

import json
import math
import sys

from .args import parse_float as _float
from .args import parse_int as _int
from .args import parse_means
from .args import parse_params as _params
from .config import ALGORITHMS, SimConfig


def _means(text) -> tuple[float, ...]:
    if text is None:
        raise ValueError("argument '--p': required (Bernoulli means, comma-separated), or --support and --probs")
    return parse_means(text)


def _numbers(text, name: str) -> tuple[float, ...]:
    try:
        vals = tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise ValueError(f"argument '--{name}': expected comma-separated numbers, got {text!r}") from None
    if not all(math.isfinite(v) for v in vals):
        raise ValueError(f"argument '--{name}': entries must be finite, got {text!r}")
    return vals


def _instance(args):
    """Bernoulli arms from ``--p``, or finite-support arms from ``--support`` and ``--probs``.

    ``--probs`` holds one law per arm, arms separated by ';' and masses by ','
    (e.g. --support 0,0.5,1 --probs "0.2,0.3,0.5;0.6,0.2,0.2").
    """
    from .instances import BernoulliInstance, FiniteSupportInstance

    finite = args.support is not None or args.probs is not None
    if finite:
        if args.p is not None:
            raise ValueError("argument '--p': give either --p (Bernoulli) or --support/--probs, not both")
        if args.support is None or args.probs is None:
            missing = "--support" if args.support is None else "--probs"
            raise ValueError(f"argument '{missing}': finite-support arms need both --support and --probs")
        support = _numbers(args.support, "support")
        probs = tuple(_numbers(row, "probs") for row in args.probs.split(";") if row.strip())
        try:
            return FiniteSupportInstance(support, probs)
        except ValueError as exc:
            raise _config_errors_as_flags(exc) from None
    return BernoulliInstance(_means(args.p))


def _config_errors_as_flags(exc: ValueError) -> ValueError:
    msg = str(exc)
    for name in ("T", "trials", "seed", "eps", "rho", "radius_scale", "explore", "p", "algo", "dr", "support",
                 "probs", "threads"):
        flag = "--" + name.replace("_", "-")
        msg = msg.replace(f"argument '{name}'", f"argument '{flag}'")
    return ValueError(msg)


def cmd_simulate(args) -> str:
    from rsb_theory.distortions import resolve

    from .engine import run

    if args.algo not in ALGORITHMS:
        raise ValueError(f"argument '--algo': unknown algorithm {args.algo!r}; known: {', '.join(ALGORITHMS)}")
    if args.format not in ("json", "table"):
        raise ValueError(f"argument '--format': expected json or table, got {args.format!r}")
    instance = _instance(args)
    try:
        d = resolve(args.dr, **_params(args.param))
    except ValueError as exc:
        raise ValueError(f"argument '--dr': {exc}") from None
    try:
        cfg = SimConfig(
            T=_int(args.T, "T", 1), trials=_int(args.trials, "trials", 1), seed=_int(args.seed, "seed", 0),
            eps=None if args.eps is None else _float(args.eps, "eps"), rho=_float(args.rho, "rho"),
            radius_scale=_float(args.radius_scale, "radius-scale"),
            explore=None if args.explore is None else _int(args.explore, "explore", 1),
            threads=None if args.threads is None else _int(args.threads, "threads", 1))
        progress = None
        if not args.quiet and sys.stderr.isatty():
            from tqdm import tqdm

            def progress(total):
                return tqdm(total=total, file=sys.stderr, unit="step", leave=False)
        res = run(cfg, instance, d, args.algo, progress=progress)
    except ValueError as exc:
        raise _config_errors_as_flags(exc) from None
    for w in res.warnings:
        print(f"rsb simulate: warning: {w}", file=sys.stderr)
    out = res.summary()
    if args.format == "json":
        return json.dumps(out, indent=2)
    keys = ("algo", "distortion", "T", "trials", "mean_regret", "std_regret", "v_star", "alpha_star", "eps",
            "explore_per_arm", "mean_counts", "seconds", "seed_entropy")
    width = max(len(k) for k in keys)
    return "\n".join(f"{k:<{width}}  {out[k]}" for k in keys)


def cmd_bench(args) -> str:
    from .bench import bench, format_rows

    rows = bench(quick=args.quick)
    if args.format == "json":
        return json.dumps([r.to_dict() for r in rows], indent=2)
    return format_rows(rows)


def add_commands(sub) -> None:
    """Register ``simulate`` and ``bench`` on an argparse subparsers object."""
    s = sub.add_parser("simulate", help="simulate a policy: regret per trial (eq:regret)")
    s.add_argument("--algo", required=True, help=f"one of: {', '.join(ALGORITHMS)}")
    s.add_argument("--dr", required=True, help="distortion: a registry name or an expression in u")
    s.add_argument("--param", action="append", metavar="K=V", help="distortion parameter (repeatable)")
    s.add_argument("--p", default=None, help="Bernoulli means, comma-separated")
    s.add_argument("--support", default=None,
                   help="finite-support arms: common support points in [0, b], comma-separated (with --probs)")
    s.add_argument("--probs", default=None,
                   help="finite-support arms: one law per arm, ';' between arms, e.g. '0.2,0.3,0.5;0.6,0.2,0.2'")
    s.add_argument("--T", required=True, help="horizon")
    s.add_argument("--trials", default="100", help="number of trials (default 100)")
    s.add_argument("--seed", default="0", help="root seed (default 0)")
    s.add_argument("--rho", default="0.1", help="exploration rate of the UCBs (default 0.1)")
    s.add_argument("--eps", default=None, help="discretisation level (default sqrt(K log T / T))")
    s.add_argument("--radius-scale", dest="radius_scale", default="1", help="factor on the confidence radius")
    s.add_argument("--explore", default=None,
                   help="ETC: replaces N(eps); UCBs: forced exploration pulls per arm")
    s.add_argument("--threads", default=None,
                   help="threads of CE-UCB-M's compiled loop (default: the CPUs available; no effect on results)")
    s.add_argument("--format", default="table", help="json or table")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_simulate)
    b = sub.add_parser("bench", help="trial-steps per second of each policy (engine vs reference loop)")
    b.add_argument("--quick", action="store_true")
    b.add_argument("--format", choices=("json", "table"), default="table")
    b.set_defaults(func=cmd_bench)
