"""Which algorithm has an exploration constant, and the tuning grid: the one place both are decided.

Light (no NumPy): the command line refuses ``--tune`` without a tunable algorithm before importing anything
heavy.  :mod:`proofs_checks.compare` runs the protocol.
"""

from __future__ import annotations

#: The log-grid of multipliers of ``rsb compare --tune`` (10^-3 .. 10^1), the same for every algorithm.
DEFAULT_TUNE_GRID: tuple[float, ...] = (1e-3, 1e-2, 1e-1, 1.0, 10.0)
#: Spawn-key head of the tuning runs' streams (TUNE_STREAM, j, i); horizon j of ``Ts`` is (j,), so there may be
#: at most TUNE_STREAM horizons.
TUNE_STREAM = 1 << 20


def exploration_constant(algo: str) -> str | None:
    """The option that carries ``algo``'s exploration constant, or None for a tuning-free algorithm.

    Read from the algorithm's declaration (:data:`rsb_sim.options.READS`):

    * ``radius_scale`` when the algorithm reads it (the radius of ``eq:UCB_confidence_sets`` of RS-UCB-M,
      CE-UCB-M and DR-UCB; the printed bonus of UCB-FW, U-UCB and CVaR-UCB): a multiplier m is the option's
      value;
    * else ``explore`` when the algorithm reads it *and* its default exploration is the grid's (it reads
      ``eps``: RS-ETC-M's ceil(N(eps)/K) of ``eq:number of samples main paper``): a multiplier m gives
      ceil(m n0) pulls per arm, n0 the default (:func:`proofs_checks.compare.scaled_options`);
    * else None: uniform sampling, UCB1 and B-CVTS (whose ``explore`` is one round-robin pull per arm, not
      a constant of a rule).
    """
    from rsb_sim.options import READS

    reads = READS.get(algo, ())  # a user's own policy (api.compare) declares no constant rsb tunes
    if "radius_scale" in reads:
        return "radius_scale"
    if "explore" in reads and "eps" in reads:
        return "explore"
    return None
