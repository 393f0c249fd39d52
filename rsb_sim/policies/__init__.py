"""The policies, one per module (the paper's four; the baselines ``ucb1``, ``dr-ucb``; the competitors ``ucb-fw``,
``u-ucb``, ``cvar-ucb``, ``b-cvts``), vectorised across trials (B-CVTS: compiled, one trial at a time).

Each module exposes ``simulate(setup, d, instance, table, record_actions=False,
progress=None) -> PolicyRun``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    from ..rules import round_robin_counts

    K, T, steps = setup.K, setup.T, setup.explore_steps
    actions = np.empty((trials, T), dtype=np.int8) if record_actions else None
    if actions is not None:
        actions[:, :steps] = np.arange(steps) % K
    if steps < T:
        return actions, None
    return actions, PolicyRun(np.broadcast_to(round_robin_counts(T, K), (trials, K)).copy(), actions, {})


def get_policy(algo: str):
    """The ``simulate`` function of a policy name (:data:`rsb_sim.options.ALGORITHMS`)."""
    from . import b_cvts, ce_ucb_m, cvar_ucb, dr_ucb, rs_etc_m, rs_ucb_m, u_ucb, ucb1, ucb_fw, uniform

    table = {"rs-etc-m": rs_etc_m.simulate, "rs-ucb-m": rs_ucb_m.simulate,
             "ce-ucb-m": ce_ucb_m.simulate, "uniform": uniform.simulate,
             "ucb1": ucb1.simulate, "dr-ucb": dr_ucb.simulate,
             "ucb-fw": ucb_fw.simulate, "u-ucb": u_ucb.simulate, "cvar-ucb": cvar_ucb.simulate,
             "b-cvts": b_cvts.simulate}
    if algo not in table:
        raise ValueError(f"argument 'algo': unknown algorithm {algo!r}; known: {', '.join(table)}")
    return table[algo]
