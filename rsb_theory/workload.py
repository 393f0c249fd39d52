"""Work estimates, computed before any search (light: the standard library only).

A command that enumerates or searches a discrete simplex, or simulates trials x T steps, first
computes the size of what it will read and an estimate of its work, and refuses above a limit
(``--max-work``) in well under a second, instead of running silently for minutes or for ever
(the refusal of large instances).  The estimates are counts (never timings): the same input gives the same answer on
any machine.

* Grid size: C(m + K - 1, K - 1) points (:attr:`rsb_theory.grids.Grid.size`), with m the
  budget of :attr:`rsb_theory.grids.Grid.budget`; recomputed here without NumPy (tests compare
  the two).
* ``rsb optimize --eps``: the discrete optimum enumerates every grid point, K multiply-adds each
  (:func:`rsb_theory.discretization.discrete_optimum`): work = points x K.
* ``rsb simulate`` (and the runs of ``slopes``, ``plot``): every trial-step updates K counts, and
  the policies that search (not the uniform one) build or walk the grid (materialised up to
  :data:`rsb_sim.search.STORE_MAX` points, branch and bound above, both growing with it): work =
  trials x T x K + points x K.  The estimate is a scale, not a forecast: the searches of the UCBs
  cost more per step on larger grids, and their certificates skip most of them.

Memory is estimated the same way, from the sizes of the arrays a command will hold, and
refused above ``--max-memory`` (default :data:`DEFAULT_MAX_MEMORY`, 4 GiB: a 2-core, 24 GB machine
runs several commands with room to spare) in one line naming the flag:

* :func:`simulate_memory`: the interpreter and its libraries (:data:`BASE_BYTES`), per trial the
  state of the vectorised loops (:data:`TRIAL_BYTES` per arm and level), the reward buffers
  (:data:`BUFFER_BYTES`, at least :data:`BLOCK` rewards per stream), the grid the searches
  materialise (at most :data:`STORE_POINTS` points), and with ``--record`` the actions of a chunk
  of trials (at least one whole trial: T bytes) and a mask of the same size.  No route keeps an
  array of length T otherwise (RS-UCB-M's radius table is capped, ``rsb_sim.rules.RADII_MAX``).
* :func:`cvxpy_memory`: CVXPY's program on the steps of the arms' common levels (the oracle of
  arms on levels: empirical and finite arms), :data:`CVXPY_STEP_BYTES` per step and arm.
* :func:`optimize_memory`: the enumeration of the grid (``--eps``).
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple
from .errors import ArgumentError

#: Default limit of ``--max-work`` (multiply-adds; about a minute of NumPy or compiled work).
DEFAULT_MAX_WORK = 10**10

#: The fixed work of one run (its set-up, derived constants and result), in multiply-adds: thousands of tiny runs
#: (a long ``--Ts``, a tuning grid of many values) are not free, whatever their steps.
RUN_WORK = 5 * 10**6

#: Default limit of ``--max-memory`` (bytes): 4 GiB.
DEFAULT_MAX_MEMORY = 4 << 30

#: The interpreter with NumPy, SciPy, SymPy, numba and CVXPY loaded (measured: 250-300 MB resident).
BASE_BYTES = 400 << 20

#: Bytes per trial, arm and level of the state of the UCB loops (counts, estimates, radii, candidate sets;
#: measured: CE-UCB-M, K = 2, 1e5 trials, T = 1000: 902 MB at its peak) and of the others (RS-ETC-M, uniform:
#: 326 and 330 MB with 1e6 trials).
TRIAL_BYTES = {"ucb": 2048, "other": 64}

#: The reward buffers of a run (rsb_sim.rewards.BUFFER_BYTES) and the fewest rewards per stream (DEFAULT_BLOCK).
BUFFER_BYTES = 64 << 20
BLOCK = 2048

#: Bytes held per buffered reward while a buffer is filled (the int8 reward, the float64 uniform it is drawn from,
#: temporaries; measured: RS-UCB-M, one trial of T = 1e9, K = 2: 677 MB at its peak with 64 MB of buffers,
#: about 290 MB of it the interpreter).
FILL_BYTES = 6

#: Most grid points a search materialises (rsb_sim.search.STORE_MAX; the branch and bound reads larger grids).
STORE_POINTS = 200_000

#: Most grid points ``rsb optimize --eps`` materialises (rsb_theory.argmax.enumeration.MAX_ENUMERATION).
ENUM_POINTS = 5_000_000

#: Bytes per grid point and arm of a materialised grid (coordinates, mixtures, values).
POINT_BYTES = 32

#: Action cells of one chunk of a recorded run (rsb_sim.trajectory.CHUNK_CELLS).
RECORD_CELLS = 1 << 24

#: CVXPY's memory per step of the common levels and arm (measured: 695 MB for 325 718 steps, K = 2).
CVXPY_STEP_BYTES = 1024

#: Bytes per entry of a sweep's list of chunks (the chunk, its future and its bookkeeping; a generous bound: the
#: entries are built before any trial runs, ``--trials 1e8 --chunk 1`` is 1e8 of them).
CHUNK_BYTES = 1024

#: Most chunks (stored files of partial results) one sweep makes: ``--chunk`` is then too small for ``--trials``.
MAX_CHUNKS = 10**6

#: Bytes per replicate and trial of the percentile bootstrap (the int64 resampling indices and the float64
#: resampled regrets, proofs_checks.slope_fit.fit_slope), and per replicate and horizon (the replicates' means,
#: their logs and slopes).
BOOT_CELL_BYTES = 16
BOOT_ROW_BYTES = 64

#: The offset of the coordinates eps (n + offset) of each grid kind (rsb_theory.grids.Grid.offset).
_OFFSET = {"etc": 0.0, "ucb": 0.5}


class Estimate(NamedTuple):
    """What a command would read: ``points`` of the grid (0: no grid) and ``work`` (multiply-adds)."""

    points: int
    work: int

    def refusal(self, limit: int, flag: str = "--max-work",
                hint: str = "a coarser --eps, fewer arms or trials, or a shorter --T") -> str | None:
        """None within ``limit``, else the one-line reason (size, estimate, the flag to change)."""
        if self.work <= limit:
            return None
        size = f"the grid has {_num(self.points)} points, " if self.points else ""
        return (f"{size}the work estimate is {_num(self.work)} multiply-adds, above the limit {_num(limit)}; "
                f"raise {flag} to run it anyway, or use {hint}")


def _num(x: int) -> str:
    """A count in words: exact below 10^6, else three digits and an exponent (also above the floats' range)."""
    if x < 10**6:
        return str(x)
    if x < 10**300:
        return f"{float(x):.3g}"
    digits = len(str(x))
    return f"{int(str(x)[:3]) / 100:.3g}e+{digits - 1}"


def grid_budget(K: int, eps: float, kind: str = "ucb") -> int:
    """m = max total of the integer coordinates (:attr:`rsb_theory.grids.Grid.budget`).

    Exact (rational arithmetic) when 1/eps is beyond the floats' range (``eps = 5e-324``): the count is
    then refused by the estimates (:func:`rsb_theory.workload.grid_points` is far above any limit), never an
    overflow.
    """
    inv = 1.0 / eps
    if math.isfinite(inv):
        return int(math.floor(inv - K * _OFFSET[kind] + 1e-9))
    from fractions import Fraction

    return math.floor(1 / Fraction(eps) - K * Fraction(_OFFSET[kind]).limit_denominator())


def grid_points(K: int, eps: float, kind: str = "ucb") -> int:
    """Points of the grid Delta^{K-1}_eps: C(m + K - 1, K - 1) (0 when m < 0)."""
    m = grid_budget(K, eps, kind)
    return math.comb(m + K - 1, K - 1) if m >= 0 else 0


def optimize_work(K: int, eps: float, kind: str = "ucb") -> Estimate:
    """The enumeration of the discrete optimum (``rsb optimize --eps``)."""
    n = grid_points(K, eps, kind)
    return Estimate(n, n * K)


def simplex_per_axis(K: int) -> int:
    """N of the simplex grid with coordinates in multiples of 1/N that the per-step searches use
    (``rsb_sim.policies._ts_loop.simplex_grid``): 200 for K = 2, else the largest N with at most ~2000 points
    (60 for K = 3, 20 for K = 4; 1, the vertices, for large K)."""
    if K == 2:
        return 200
    n = 1
    while math.comb(n + 1 + K - 1, K - 1) <= 2000:
        n += 1
    return n


def simplex_points(K: int, per_axis: int | None = None) -> int:
    """The number of points of that grid: C(N + K - 1, K - 1)."""
    n = simplex_per_axis(K) if per_axis is None else int(per_axis)
    return math.comb(n + K - 1, K - 1)


def sampled_step_work(K: int, levels: int) -> int:
    """Work of one step that draws a law on every level of every arm and values it: K (levels + 1)."""
    return K * (levels + 1)


def grid_step_work(K: int, levels: int) -> int:
    """Work of one step that values the mixture at every point of the simplex grid: its survival function at each of
    ``levels`` outcomes sums K laws (K multiply-adds), then h there."""
    return simplex_points(K) * levels * (K + 1)


def simulate_work(algo: str, K: int, T: int, trials: int, eps: float | None, *, grid: str | None,
                  per_step: int | None = None) -> Estimate:
    """One simulation: trials x T x (its work per step), plus the grid's points x K for the policies that search
    a grid once; ``grid``: the policy's grid kind (``etc``, ``ucb``; None: no grid), ``per_step``: its evaluations
    per step and trial (``rsb_sim.policies.base.Policy.step_work``; None: K, one per arm), both handed in by the
    caller from the policy's declaration (this layer knows no policy)."""
    steps = trials * T * (K if per_step is None else max(1, int(per_step)))
    if grid is None or eps is None:
        return Estimate(0, steps)
    n = grid_points(K, eps, grid)
    return Estimate(n, steps + n * K)


def total(estimates) -> Estimate:
    """The sum of several runs' estimates (the largest grid)."""
    est = list(estimates)
    return Estimate(max((e.points for e in est), default=0), sum(e.work for e in est))


class Memory(NamedTuple):
    """Bytes a command would hold at its peak (an estimate from array sizes), and what dominates, in words."""

    bytes: int
    what: str

    def refusal(self, limit: int, flag: str = "--max-memory", hint: str = "fewer trials, arms or levels, "
                "a shorter --T or a coarser --eps") -> str | None:
        """None within ``limit``, else the one-line reason (estimate, its main part, the flag to change)."""
        if self.bytes <= limit:
            return None
        return (f"the memory estimate is {_bytes(self.bytes)} ({self.what}), above the limit {_bytes(limit)}; "
                f"raise {flag} to run it anyway (e.g. {flag} {-(-self.bytes // (1 << 30))}G), or use {hint}")


def _bytes(n: int) -> str:
    if n >= 1 << 60:
        return f"{_num(n >> 30)} GiB"
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"


def _largest(parts: dict) -> Memory:
    total = BASE_BYTES + sum(parts.values())
    name = max(parts, key=parts.get) if parts else "the interpreter"
    return Memory(int(total), f"mostly {name}" if parts and parts[name] > BASE_BYTES else "mostly the interpreter")


def simulate_memory(algo: str, K: int, T: int, trials: int, eps: float | None, record: bool = False,
                    levels: int = 2, *, state: str, grid: str | None) -> Memory:
    """Peak memory of one simulation (module docstring); ``levels``: outcomes per arm (2: Bernoulli); ``state``:
    the per-trial state of the policy's loop, a key of :data:`TRIAL_BYTES` (each policy declares it,
    ``rsb_sim.policies.base.Policy.state``: the caller hands it in, this layer knows no policy); ``grid``: its
    grid kind, as for :func:`simulate_work`."""
    stream = max(BLOCK, min(T, BUFFER_BYTES // max(1, trials * K)))
    parts = {
        f"the state of {trials} trials": trials * K * max(2, levels) * TRIAL_BYTES[state],
        "the reward buffers": trials * K * min(stream, T) * (FILL_BYTES if levels <= 127 else 8 + FILL_BYTES),
    }
    if record:
        parts[f"the recorded actions of T = {T} steps"] = 2 * max(RECORD_CELLS, T)
    if grid is not None and eps is not None:
        parts["the grid"] = min(grid_points(K, eps, grid), STORE_POINTS) * K \
            * POINT_BYTES
    return _largest(parts)


def chunk_list_memory(runs: int, trials: int, chunk: int | None) -> int:
    """Bytes of a sweep's list of chunks: ``runs`` runs of ``trials`` trials in chunks of ``chunk`` (None: one)."""
    per_run = 1 if chunk is None else -(-int(trials) // max(1, int(chunk)))
    return int(runs) * per_run * CHUNK_BYTES


def chunk_count(trials: int, chunk: int | None) -> int:
    """Chunks of one run (None: the run is one chunk)."""
    return 1 if chunk is None else -(-int(trials) // max(1, int(chunk)))


def bootstrap_memory(n_boot: int, trials: int, horizons: int) -> Memory:
    """Peak memory of the slope's percentile bootstrap (``rsb slopes --bootstrap``): one horizon's resampling at a
    time (``n_boot x trials`` cells) and every horizon's replicate means."""
    return _largest({f"{n_boot} bootstrap replicates": int(n_boot) * int(trials) * BOOT_CELL_BYTES
                     + int(n_boot) * int(horizons) * BOOT_ROW_BYTES})


def optimize_memory(K: int, eps: float | None, kind: str = "ucb", steps: int = 0) -> Memory:
    """Peak memory of ``rsb optimize``: the grid it enumerates, CVXPY's program on ``steps`` common levels."""
    parts = {}
    if eps is not None:
        parts["the grid"] = min(grid_points(K, eps, kind), ENUM_POINTS) * K * POINT_BYTES
    if steps:
        parts[f"CVXPY's program on {steps} levels"] = cvxpy_memory(steps, K).bytes - BASE_BYTES
    return _largest(parts)


def cvxpy_memory(steps: int, K: int) -> Memory:
    """CVXPY's program of the oracle on ``steps`` common levels of K arms."""
    return _largest({f"CVXPY's program on {steps} levels": steps * K * CVXPY_STEP_BYTES})


def parse_bytes(text: str) -> int | None:
    """``"4G"``, ``"512MiB"``, ``"800k"`` -> bytes (binary units); None when the text has no unit (the caller
    then reads it as a count of bytes, an expression such as ``2^32``) or its number is not positive."""
    m = _SIZE.match(str(text))
    if m is None:
        return None
    v = float(m.group(1)) * _UNITS[m.group(2).upper()]
    return int(v) if 1 <= v < 2**62 else None


_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*([KMGTkmgt])(?:i?[Bb])?\s*$")


#: Largest T_0(eps) of ``eq:T_eps`` that :func:`rsb_theory.rates.T_of_eps` searches for (beyond it no float horizon).
T0_MAX = 2.0**900


def check_T0_floor(K: int, eps: float, rho: float) -> None:
    """ValueError naming ``rho`` when T_0(eps) of ``eq:T_eps`` is certainly above :data:`T0_MAX` (Bernoulli arms).

    s is in Q only if (sqrt(2e log s) + 32) 2 / sqrt(rho eps s) <= (1/16) (Delta_min / (2 K L))^(1/q).  For
    Bernoulli arms Delta_min <= L (h is (L, q)-Hölder on [0, 1] and two means differ by at most 1), so with
    q <= 1 the right side is at most 1/(32 K), and every s in Q has s >= (2048 K)^2 / (rho eps).  Read from
    the arguments alone, before any run: the search itself refuses the same rho only after the runs.
    """
    if not (rho > 0 and eps > 0):
        raise ArgumentError("rho", f"need rho > 0 and eps > 0, got rho = {rho!r}, eps = {eps!r}")
    lg = 2 * math.log10(2048.0 * K) - math.log10(rho) - math.log10(eps)  # logs: the floor itself may overflow
    if lg > math.log10(T0_MAX):
        raise ArgumentError("rho", f"T_0(eps) of eq:T_eps is at least (2048 K)^2 / (rho eps) = 10^{lg:.1f} "
                         f"with rho = {rho!r}, eps = {eps:.3g}, K = {K}, above {T0_MAX:.3g} (no horizon reaches it); "
                         f"use a larger rho")
