"""``rsb simulate --algo NAME --dr NAME|EXPR (--p P1,... | --support X --probs ROWS | --arms SPECS) --T N [...]``.

``--arms`` takes laws of any kind (``docs/arms.md``); rewards come from the reward table's uniforms
through each law's inverse CDF, and CE-UCB-M's estimates are exact (the sorted merge of the samples)
within a work budget, else need ``--quantize M`` (declared in the result: :mod:`rsb_sim.arm_laws`).

Regret per trial (``eq:regret``) of one policy.  Every constant the paper fixes
is a flag whose default is the paper's formula; a flag that the chosen algorithm
does not use is an error (:mod:`rsb_sim.options`).  ``--explore`` is
the forced exploration in pulls *per arm* (a count or an expression in T and K,
rounded up); ``--eps`` may be an expression in T and K.  ``--record T1,T2,...`` adds the
regret at those steps of the same run (``trajectory``, :mod:`rsb_sim.trajectory`).  ``--out DIR``
keeps the run on disk, resumable (:mod:`proofs_checks.simulate_out`; ``--chunk``, ``--wait``):
``simulate.json`` (the JSON output), ``simulate.csv`` (one row per trial) and, with ``--record``,
``trajectory.csv`` and its figure ``trajectory.png``/``.pdf``.
"""

from __future__ import annotations

from rsb_sim import jsontext
import sys
from dataclasses import dataclass, field

from rsb_sim import options as sim_options
from rsb_theory.workload import simulate_memory, simulate_work

from . import values, work
from .errors import fail

LIBRARY_FLAGS = {"h": "--dr", "expr": "--dr"}

#: Keys of the table output (the JSON output has every key of ``SimResult.summary``).
TABLE_KEYS = ("algo", "distortion", "T", "trials", "mean_regret", "std_regret", "ci_low", "ci_high", "v_star",
              "alpha_star", "eps", "explore_per_arm", "mean_counts", "seconds", "seed_entropy")


@dataclass(frozen=True)
class Request:
    algo: str
    dr: str
    params: dict
    p: tuple | None
    support: tuple | None
    probs: tuple | None
    config: dict = field(repr=False)
    format: str = "table"
    quiet: bool = False
    notes: tuple = ()
    keep: dict | None = None  # --out DIR [--chunk N] [--wait S]: options of simulate_out.simulate_to
    record: tuple | None = None
    arms: str | None = None


def _instance(args) -> tuple[tuple | None, tuple | None, tuple | None, list[str]]:
    """(p, support, probs, notes): Bernoulli means from --p, or finite-support arms from --support/--probs."""
    if args.arms is not None and (args.support is not None or args.probs is not None):
        raise fail("--arms", "give either --arms or --support/--probs, not both (write finite laws in --arms as "
                             "finite(x1:p1, x2:p2, ...))")
    if args.support is not None or args.probs is not None:
        if args.p is not None:
            raise fail("--p", "give either --p (Bernoulli) or --support/--probs, not both")
        support, probs, notes = values.finite_arms(args.support, args.probs)
        return None, support, probs, notes
    if args.p is None:
        raise fail("--p", "required: Bernoulli means, comma-separated (e.g. --p 0.4,0.9), or --support and --probs")
    return values.means(args.p, "--p"), None, None, []


def IN_WORKER(req) -> bool:
    """Without ``--out`` the run writes no file: it computes in a worker process (proofs_checks.cli.app), so a
    signal stops it inside SciPy's special functions and CVXPY (an arm such as ``irwinhall(1000000)``) too."""
    return req.keep is None


def validate(args) -> Request:
    algo = args.algo
    arms = None
    if args.arms is not None:
        if args.support is not None or args.probs is not None:
            _instance(args)  # refuses --arms beside --support/--probs
        p, arms = values.means_or_arms(args)
        support = probs = None
        notes = []
        K = values.arm_count(arms)
    else:
        if args.quantize is not None:
            raise fail("--quantize", "applies to --arms only (Bernoulli and --support/--probs arms are exact)")
        p, support, probs, notes = _instance(args)
        K = len(p) if p is not None else len(probs)
    T = values.count(args.T, "--T", 1)
    if T < K:
        raise fail("--T", f"the horizon T = {T} is smaller than the number of arms K = {K}")
    at = {"T": T, "K": K}
    given = [n for n in ("eps", "rho", "radius_scale", "explore", "threads", "quantize")
             if getattr(args, n) is not None]
    sim_options.check_applies(algo, given)  # names the option; main() maps it to the flag
    config = {"T": T, "trials": values.count(args.trials, "--trials", 1), "seed": values.count(args.seed, "--seed", 0)}
    if args.eps is not None:
        config["eps"] = values.number(args.eps, "--eps", at, low=0, high=1, low_open=True)
    if args.rho is not None:
        config["rho"] = values.number(args.rho, "--rho", low=0, high=1, low_open=True, high_open=True)
    if args.radius_scale is not None:
        config["radius_scale"] = values.number(args.radius_scale, "--radius-scale", low=0)
    if args.explore is not None:
        config["explore"] = values.count(args.explore, "--explore", 1, at, rounding="ceil")
    if args.threads is not None:
        config["threads"] = values.count(args.threads, "--threads", 1)
    if args.quantize is not None:
        config["quantize"] = values.count(args.quantize, "--quantize", 1)
    params = values.params(args.param)
    dr = values.distortion(args.dr, "--dr", tuple(params))
    sim_options.check_distortion(algo, dr)  # CVaR-only learners (names --algo) before anything is built or written
    eps = config.get("eps") if "eps" in config else work.eps_at(None, K, T)
    if "eps" not in sim_options.READS[algo]:  # the baselines search no grid
        eps = None
    policy = sim_options.catalog.get(algo)
    levels = len(support) if support is not None else config.get("quantize", 2)
    work.check(simulate_work(algo, K, T, config["trials"], eps, grid=policy.grid,
                             per_step=policy.step_work(K, levels)), args)
    record = None if args.record is None else _record(args.record, at)
    keep = _keep(args)
    held = config["trials"] if keep is None else min(config["trials"], keep.get("chunk", work.SWEEP_CHUNK))
    memory = simulate_memory(algo, K, T, held, eps, record is not None, levels, state=policy.state, grid=policy.grid)
    if keep is not None:  # a sweep of chunks: their list is built before any trial runs
        from rsb_theory.workload import Memory, chunk_list_memory

        listed = chunk_list_memory(1, config["trials"], keep.get("chunk", work.SWEEP_CHUNK))
        memory = Memory(memory.bytes + listed, "mostly the list of chunks (--chunk)" if listed > memory.bytes
                        else memory.what)
    work.check_memory(memory, args)
    if keep is not None:
        work.check_chunks(config["trials"], keep.get("chunk", work.SWEEP_CHUNK))
    return Request(algo, dr, params, p, support, probs, config, args.format, bool(args.quiet), tuple(notes),
                   keep, record, arms)


def _keep(args) -> dict | None:
    """``--out DIR [--chunk N] [--wait S]`` as options of :func:`proofs_checks.simulate_out.simulate_to`."""
    if args.out is None:
        for name in ("chunk", "wait"):
            if getattr(args, name) is not None:
                raise fail(f"--{name}", "only with --out DIR (the run is kept in chunks there)")
        return None
    from ..outputs import check_out

    check_out(args.out)
    keep = {"out": args.out}
    if args.chunk is not None:
        keep["chunk"] = values.count(args.chunk, "--chunk", 1)
    if args.wait is not None:
        keep["wait"] = values.number(args.wait, "--wait", low=0)
    return keep


def _execute_kept(req: Request) -> str:
    """``--out DIR``: the run through a resumable sweep, its summary and per-trial CSV in DIR."""
    from ..simulate_out import simulate_to, spec_of

    progress = None
    if not req.quiet and sys.stderr.isatty():
        from rsb_sim.progress import tracker

        progress = tracker("rsb simulate")
    spec = spec_of(req.algo, req.dr, req.params, req.p, req.support, req.probs, req.config, req.record, req.arms)
    out = simulate_to(spec, progress=progress, **req.keep)
    for w in out["warnings"]:
        print(f"rsb simulate: warning: {w}", file=sys.stderr)
    if "quantization" in out:
        print(f"rsb simulate: note: {out['quantization']['note']}", file=sys.stderr)
    if req.format == "json":
        return jsontext.dumps(out, indent=2)
    return _table(out) + "\n" + f"{'files':<{_WIDTH}}  {' '.join(out['files'].values())}"


def _record(text, at: dict) -> tuple[int, ...]:
    """The steps of ``--record``: counts or expressions in T and K (rounded up), each in 1..T."""
    items = values.split_top(str(text), ",")
    if not items:
        raise fail("--record", "expected comma-separated steps (e.g. --record 1000,T/2)")
    steps = tuple(values.count(item, "--record", 1, at, rounding="ceil") for item in items)
    late = [t for t in steps if t > at["T"]]
    if late:
        raise fail("--record", f"the step {late[0]} is after the horizon T = {at['T']}")
    return steps


def execute(req: Request) -> str:
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run
    from rsb_sim.instances import make_instance
    from rsb_theory.distortions import resolve

    for note in req.notes:
        print(f"rsb simulate: note: {note}", file=sys.stderr)
    # the instance and h first: a bad arm, a missing --quantize or a bad h ends here, before --out writes
    if req.arms is not None:
        from rsb_sim.arm_laws import law_instance

        instance = law_instance(values.arm_laws(req.arms), req.algo, req.config["T"], req.config.get("quantize"))
    else:
        instance = make_instance(req.p, req.support, req.probs)
    d = resolve(req.dr, **req.params)
    if req.keep is not None:
        from rsb_sim.setup import check

        check(SimConfig(**req.config), instance, d, req.algo)  # what the set-up refuses from declarations: before --out
        if sim_options.catalog.get(req.algo).reads_h:  # h's Hölder analysis too (rsb_sim.setup): an h SymPy cannot
            from rsb_theory.profile import of  # expand is refused before --out gets a runs/ directory

            of(d).holder()
        return _execute_kept(req)
    progress = work.progress_bar("rsb simulate", req.quiet)
    res = run(SimConfig(**req.config), instance, d, req.algo, progress=progress, record=req.record)
    for w in res.warnings:
        print(f"rsb simulate: warning: {w}", file=sys.stderr)
    out = res.summary()
    if "quantization" in out:
        print(f"rsb simulate: note: {out['quantization']['note']}", file=sys.stderr)
    if req.format == "json":
        return res.to_json()  # the one serialisation (SimResult.to_json)
    return _table(out)


_WIDTH = max(len(k) for k in TABLE_KEYS)


def _table(out: dict) -> str:
    """The table output: :data:`TABLE_KEYS`, then one line per recorded step."""
    lines = [f"{k:<{_WIDTH}}  {out[k]}" for k in TABLE_KEYS if not (k == "eps" and out[k] is None)]  # no grid
    for pt in out.get("trajectory", ()):
        ci = "" if pt["ci_low"] is None else f"  (95% CI {pt['ci_low']:.4g} .. {pt['ci_high']:.4g})"
        lines.append(f"{'t = ' + str(pt['t']):<{_WIDTH}}  {pt['mean_regret']:.6g}{ci}")
    return "\n".join(lines)
