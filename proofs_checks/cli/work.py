"""``--max-work`` and ``--max-memory``: the work and memory estimates of a command (:mod:`rsb_theory.workload`),
checked before any search.

Light (no NumPy): a refused command answers in a fraction of a second, one line naming
``--max-work`` (with the grid size and the estimate) or ``--max-memory`` (with the estimate and
what dominates it), exit status 2.
"""

from __future__ import annotations

from rsb_theory import expressions
from rsb_theory.workload import _num
from rsb_theory.workload import DEFAULT_MAX_MEMORY, DEFAULT_MAX_WORK, Estimate, Memory, parse_bytes, RUN_WORK, simulate_work, total

from . import values
from .errors import fail

HELP = (f"refuse a run whose work estimate (grid points and trial-steps, multiply-adds; rsb_theory.workload) "
        f"exceeds this (default {DEFAULT_MAX_WORK:.0e}); a count or arithmetic, e.g. 10^12")


MEMORY_HELP = (f"refuse a run whose memory estimate (array sizes; rsb_theory.workload) exceeds this many bytes "
               f"(default {DEFAULT_MAX_MEMORY >> 30}G, for a 2-core, 24 GB machine shared with other work); "
               f"with a unit (512M, 8G) or a count (2^33)")


def memory_limit(args) -> int:
    """The ``--max-memory`` limit of the command (bytes)."""
    raw = getattr(args, "max_memory", None)
    if raw is None:
        return DEFAULT_MAX_MEMORY
    size = parse_bytes(raw)
    return size if size is not None else values.count(raw, "--max-memory", 1)


def check_memory(estimate: Memory, args, hint: str | None = None) -> None:
    """UsageError naming --max-memory when ``estimate`` is above the limit (``hint``: what else to change)."""
    lim = memory_limit(args)
    msg = estimate.refusal(lim) if hint is None else estimate.refusal(lim, hint=hint)
    if msg is not None:
        raise fail("--max-memory", msg)


def limit(args) -> int:
    """The ``--max-work`` limit of the command."""
    raw = getattr(args, "max_work", None)
    return DEFAULT_MAX_WORK if raw is None else values.count(raw, "--max-work", 1)


#: Grid points no budget can lift: the grid's points are indexed by 64-bit integers (the compiled searches,
#: NumPy), so a larger grid is the fault of eps, not of --max-work (``--eps 1e-300``).
MAX_GRID_POINTS = 2**63 - 1


def check(estimate: Estimate, args, hint: str | None = None) -> None:
    """UsageError naming --max-work when ``estimate`` is above the limit (``hint``: what else to change).

    A grid of more than :data:`MAX_GRID_POINTS` points names ``--eps`` instead on a command that
    has it: no ``--max-work`` can run it.
    """
    if estimate.points > MAX_GRID_POINTS and hasattr(args, "eps"):  # a command without --eps: --max-work below
        raise fail("--eps", f"the grid has {_num(estimate.points)} points, more than rsb can index (2^63) "
                            f"whatever --max-work; use a coarser --eps (or fewer arms)")
    msg = estimate.refusal(limit(args)) if hint is None else estimate.refusal(limit(args), hint=hint)
    if msg is not None:
        raise fail("--max-work", msg)


def eps_at(rule, K: int, T: int) -> float | None:
    """eps of a run for the estimate: the experiments' default sqrt(K log T / T) for None or
    ``experiments``, a number or an expression in T and K as given; None (no grid term) for a rule
    that needs the symbolic derivation (``theorem``)."""
    from rsb_sim.options import EXPERIMENTS_EPS

    if rule == "theorem":
        return None
    text = EXPERIMENTS_EPS if rule in (None, "experiments") else rule
    try:
        e = float(expressions.evaluate(text, "eps", {"K": K, "T": T})) if T > 1 else 1.0
    except (ValueError, ZeroDivisionError):
        return None
    return e if 0 < e <= 1 else None


def runs(algos, K: int, Ts, trials: int, eps_rule, levels: int = 2) -> Estimate:
    """The estimate of a family of runs (each algorithm at each horizon; ``levels``: outcomes per arm)."""
    from rsb_sim.policies.catalog import get

    one = total(simulate_work(a, K, T, trials, eps_at(eps_rule, K, T), grid=get(a).grid,
                              per_step=get(a).step_work(K, levels)) for a in algos for T in Ts)
    return Estimate(one.points, one.work + RUN_WORK * len(algos) * len(Ts))


#: Trials of one stored chunk of a sweep (rsb_sim.sweep.DEFAULT_CHUNK): what a sweep holds in memory per worker.
SWEEP_CHUNK = 1000


def runs_memory(algos, K: int, Ts, trials: int, eps_rule, chunk: int | None = SWEEP_CHUNK, workers: int = 1,
                repeat: int = 1) -> Memory:
    """The largest memory estimate of a family of runs (each algorithm at each horizon, ``repeat`` times: the
    multipliers and instances of a tuning), each run holding ``chunk`` trials at a time (a sweep; None: all of
    them) on ``workers`` processes at once, plus the sweep's list of chunks (built before any trial runs)."""
    from rsb_sim.policies.catalog import get
    from rsb_theory.workload import chunk_list_memory, simulate_memory

    held = trials if chunk is None else min(trials, chunk)
    worst = max((simulate_memory(a, K, T, held, eps_at(eps_rule, K, T), state=get(a).state, grid=get(a).grid)
                 for a in algos for T in Ts),
                key=lambda m: m.bytes)
    extra = (max(1, workers) - 1) * worst.bytes  # each worker holds one chunk (the main process: results only)
    listed = chunk_list_memory(len(algos) * len(Ts) * repeat, trials, chunk)
    what = worst.what if workers <= 1 else f"{worst.what}, on {workers} workers"
    if listed > worst.bytes + extra:
        what = f"mostly the list of {_chunks(trials, chunk) * len(algos) * len(Ts) * repeat} chunks (--chunk)"
    return Memory(worst.bytes + extra + listed, what)


def _chunks(trials: int, chunk: int | None) -> int:
    from rsb_theory.workload import chunk_count

    return chunk_count(trials, chunk)


def check_chunks(trials: int, chunk: int | None) -> None:
    """UsageError naming --chunk when one run would be cut into more than MAX_CHUNKS stored chunks."""
    from rsb_theory.workload import MAX_CHUNKS

    n = _chunks(trials, chunk)
    if n > MAX_CHUNKS:
        raise fail("--chunk", f"{trials} trials in chunks of {chunk} make {n} stored chunks, more than "
                              f"{MAX_CHUNKS}; use a larger --chunk (at least {-(-trials // MAX_CHUNKS)})")


def progress_bar(prog: str, quiet: bool, unit: str = "step"):
    """``progress(total=...)`` for a run (:func:`rsb_sim.progress.bar`: a tqdm bar on a terminal, else a line every
    few seconds; the total counts ``unit``s per trial), None when quiet."""
    if quiet:
        return None
    from rsb_sim.progress import bar

    return lambda total: bar(prog, total, unit, note=" per trial")
