"""The policies, one per module, each exporting one ``POLICY`` (:mod:`rsb_sim.policies.base`) that the catalog
(:mod:`rsb_sim.policies.catalog`) finds: the paper's algorithms and uniform sampling, the solitary baselines and
the competitors from the literature; ``POLICY.simulate(setup, d, instance, table, record_actions=False,
progress=None) -> PolicyRun`` runs one vectorised across trials.

Light: importable without NumPy (the command line reads the catalog before it imports anything heavy).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the loops import NumPy, this package stays light
    import numpy as np


@dataclass(frozen=True)
class PolicyRun:
    """What a policy returns.

    Attributes
    ----------
    counts : numpy.ndarray, shape (trials, K), int64
        Final pull counts tau_T.
    actions : numpy.ndarray or None, shape (trials, T), int8
        Arm pulled at each step (0-based) when recorded.
    stats : dict
        Search counters (full searches, certificates), per trial-step.
    """

    counts: np.ndarray
    actions: np.ndarray | None = None
    stats: dict = field(default_factory=dict)


def round_robin_start(setup, trials: int, record_actions: bool):
    """(actions, finished): the action array with the round-robin exploration filled in (or None), and
    the finished run when the exploration fills the whole horizon (else None).

    Every index policy starts this way (``eq:UCB_sampling_rule``'s forced exploration, the baselines'
    round robin): arm order 0..K-1, repeated, ``setup.explore_steps`` pulls.
    """
    import numpy as np

    from ..rules import round_robin_counts

    K, T, steps = setup.K, setup.T, setup.explore_steps
    actions = np.empty((trials, T), dtype=np.int8) if record_actions else None
    if actions is not None:
        actions[:, :steps] = np.arange(steps) % K
    if steps < T:
        return actions, None
    return actions, PolicyRun(np.broadcast_to(round_robin_counts(T, K), (trials, K)).copy(), actions, {})


def get_policy(algo):
    """The ``simulate`` of a policy: a name of the catalog (:mod:`rsb_sim.policies.catalog`) or a policy object."""
    from .catalog import get

    return get(algo).simulate
