"""The index policies' form (:class:`IndexPolicy`): the arm of largest index after a round robin.

Light at import, like every policy module (the loops are imported inside the methods): the vectorised loop is
:func:`rsb_sim.policies._solitary.run`, the plain reference loop :func:`rsb_sim.reference_index.reference_trial`,
one each for every index policy.
"""

from __future__ import annotations

from .base import Policy


class IndexPolicy(Policy):
    """Pull the arm of largest index after a round robin (:mod:`rsb_sim.policies._solitary`).

    A subclass gives :meth:`vector_index` and :meth:`reference_index`, and, where its index needs more than
    ``explore``, :meth:`constants_of` (its constants and notes, computed once before the first pull).
    """

    family = "baseline"

    def constants_of(self, cfg, instance, d, warnings: list) -> dict:
        """The fields of :class:`rsb_sim.setup.Setup` this policy sets (``q``, ``L``, ``L_bonus``, ``radius_c``,
        ``constants``); plain-words notes appended to ``warnings``.  ValueError naming the argument."""
        return {}

    def prepare(self, cfg, instance, d, eps):
        from ..setup import index_setup

        return index_setup(cfg, instance, d, self, eps)

    def vector_index(self, setup, d, instance):
        """``index(counts (B, K, m) float, tau (B, K) float, t) -> (B, K)``: the index of every arm of every
        trial before the pull of step t (t - 1 pulls done), from the counts of each level."""
        raise NotImplementedError

    def reference_state(self, setup, table, k: int):
        """What the reference loop of trial k keeps besides the counts (a sampler's streams); None."""
        return None

    def reference_index(self, setup, d, instance, hists: list, n: int, state) -> list:
        """The K indices before the pull of step n + 1, one trial, plain loops: ``hists[i][j]`` rewards of arm i
        on level j."""
        raise NotImplementedError

    def reference_choice(self, setup, d, instance, hists: list, n: int, state) -> int:
        """The arm pulled at step n + 1 (the reference loop): the largest index, lowest arm on ties."""
        from ._solitary import choose_arm

        return choose_arm(self.reference_index(setup, d, instance, hists, n, state))

    def simulate(self, setup, d, instance, table, record_actions: bool = False, progress=None):
        from . import _solitary

        return _solitary.run(setup, instance, table, self.vector_index(setup, d, instance), record_actions,
                             progress)

    def reference_trial(self, setup, d, instance, table, k: int, decisions: list | None = None):
        from ..reference_index import reference_trial

        return reference_trial(self, setup, d, instance, table, k)
