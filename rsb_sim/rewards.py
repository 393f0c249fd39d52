"""The reward table: the j-th reward of arm i in trial k depends on (seed, k, i, j) only.

One root :class:`numpy.random.SeedSequence` per experiment.  The stream of the
pair (trial k, arm i) is ``SeedSequence(entropy, spawn_key=stream + (k, i))`` driving a
``PCG64`` generator; its j-th uniform (``Generator.random``, float64 in
[0, 1)) gives the j-th reward of arm i in trial k by the instance's inverse
CDF (:meth:`rsb_sim.instances.BernoulliInstance.outcome`: 1{U < p}).  ``stream``
is a spawn-key prefix, empty for a single experiment: the experiments of a
family (the horizons of ``rsb slopes``, say) use ``stream = (j,)``, the j-th
child of the root ``SeedSequence(seed).spawn(...)``, so one root seeds them all
and no two share a stream (never ``seed + j``).  Uniforms
are drawn in blocks; since ``Generator.random(n)`` consumes the stream one
64-bit word per double, block boundaries do not change the j-th uniform
(tested).  Two policies, or the fast engine and the reference loop, therefore
see the same rewards.

* :class:`RewardTable` — the frozen specification (entropy, trials, instance);
* :class:`ScalarRewards` — a plain accessor for one trial (reference loops);
* :class:`VectorRewards` — "the next reward of arm A_k in every trial k" with
  per-(k, i) pointers, for the vectorised engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rsb_theory.errors import ArgumentError

#: Default number of uniforms drawn per (trial, arm) refill.
DEFAULT_BLOCK = 2048

#: Memory of the reward buffers of one run when the block size is chosen automatically (:func:`auto_block`).
BUFFER_BYTES = 64 << 20


def auto_block(T: int, trials: int, K: int, budget: int = BUFFER_BYTES) -> int:
    """Rewards per refill for a run: as many as ``budget`` bytes of int8 buffers hold for the
    trials x K streams, between :data:`DEFAULT_BLOCK` and T (no stream needs more than T).

    Long runs then refill seldom (each refill is a call from a compiled loop back to Python:
    measured, RS-UCB-M, K = 2, T = 3e5, 1000 trials, 131 000 refills of 2048 rewards cost 40 % of
    the run); the block size changes no reward (tested).
    """
    fit = budget // max(1, trials * K)
    return int(max(DEFAULT_BLOCK, min(T, fit)))


def root_entropy(seed) -> int:
    """The entropy of the root SeedSequence for ``seed`` (``None``: fresh OS entropy)."""
    if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ArgumentError("seed", f"expected a non-negative integer or None, got {seed!r}")
    return int(np.random.SeedSequence(None if seed is None else int(seed)).entropy)


@dataclass(frozen=True)
class RewardTable:
    """The frozen reward table of one experiment.

    Attributes
    ----------
    entropy : int
        Entropy of the root SeedSequence (record it to reproduce a run).
    trials : int
    instance : BernoulliInstance or FiniteSupportInstance
    first : int
        Index of the first trial: local trial k of this table is trial
        ``first + k`` of the experiment (a chunk of trials of a sweep sees
        exactly the rewards those trials see in a single run).
    stream : tuple of int
        Spawn-key prefix of the experiment within its family (module docstring);
        ``()`` for a single experiment.
    """

    entropy: int
    trials: int
    instance: object
    first: int = 0
    stream: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.stream, tuple) or any(
                isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 0 for x in self.stream):
            raise ArgumentError("stream", f"expected a tuple of non-negative integers, got {self.stream!r}")

    @classmethod
    def from_seed(cls, seed, trials: int, instance, first: int = 0, stream: tuple[int, ...] = ()) -> "RewardTable":
        return cls(root_entropy(seed), int(trials), instance, int(first), tuple(int(x) for x in stream))

    def generator(self, k: int, i: int) -> np.random.Generator:
        """The PCG64 generator of the stream (trial first + k, arm i), at its start."""
        key = self.stream + (self.first + int(k), int(i))
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(self.entropy, spawn_key=key)))

    def uniforms(self, k: int, i: int, n: int) -> np.ndarray:
        """The first n uniforms of stream (k, i) (one draw)."""
        return self.generator(k, i).random(n)

    def outcomes(self, k: int, i: int, n: int) -> np.ndarray:
        """The first n outcome indices (rewards for Bernoulli arms) of arm i in trial k."""
        return self.instance.outcome(self.uniforms(k, i, n), i)


class ScalarRewards:
    """Plain per-trial accessor: ``next(i)`` is the next reward index of arm i in trial k."""

    def __init__(self, table: RewardTable, k: int, block: int = 64) -> None:
        self._table = table
        self._k = int(k)
        self._block = int(block)
        K = table.instance.K
        self._gens = [table.generator(k, i) for i in range(K)]
        self._buf = [np.empty(0, dtype=np.int16) for _ in range(K)]
        self._pos = [0] * K
        self.pulls = [0] * K

    def next(self, i: int) -> int:
        if self._pos[i] == self._buf[i].size:
            self._buf[i] = self._table.instance.outcome(self._gens[i].random(self._block), i)
            self._pos[i] = 0
        out = int(self._buf[i][self._pos[i]])
        self._pos[i] += 1
        self.pulls[i] += 1
        return out


class VectorRewards:
    """Next reward of arm ``A_k`` in every trial k, with per-(k, i) pointers.

    Buffers hold outcome indices (int8 for two outcomes, int16 otherwise) of
    shape (trials, K, block); a stream is refilled from its generator when its
    pointer reaches the end of its block.
    """

    def __init__(self, table: RewardTable, block: int = DEFAULT_BLOCK) -> None:
        if block < 1:
            raise ArgumentError("block", f"need block >= 1, got {block}")
        self.table = table
        inst = table.instance
        self.B, self.K, self.block = table.trials, inst.K, int(block)
        self._gens = [[table.generator(k, i) for i in range(self.K)] for k in range(self.B)]
        dtype = np.int8 if inst.n_outcomes <= 127 else np.int16
        self._buf = np.zeros((self.B * self.K, self.block), dtype=dtype)
        self._pos = np.zeros(self.B * self.K, dtype=np.int64)  # next unread position in the buffer
        self._fill = np.zeros(self.B * self.K, dtype=np.int64)  # valid length of the buffer
        self.pulls = np.zeros((self.B, self.K), dtype=np.int64)
        self.refills = 0
        self._rowK = np.arange(self.B, dtype=np.int64) * self.K

    def buffers(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(buffer, position, filled) of the streams, flat index k * K + i, for compiled readers.

        A reader takes the next reward with :func:`pop_buffered` (with :attr:`pulls`); at the end
        of a buffer it calls :meth:`refill` and reads again.
        """
        return self._buf, self._pos, self._fill

    def refill(self, flat) -> None:
        """Draw the next block of the streams ``flat`` (k * K + i) whose buffers are used up.

        :attr:`refills` counts the calls (a counter for tests and benchmarks; no effect on a reward).
        """
        flat = np.atleast_1d(np.asarray(flat, dtype=np.int64))
        if np.any(self._pos[flat] < self._fill[flat]):
            raise ArgumentError("flat", "a stream still has unread rewards")
        self.refills += 1
        self._refill(flat)

    def _refill(self, flat: np.ndarray) -> None:
        inst = self.table.instance
        for f in np.unique(flat).tolist():
            k, i = divmod(f, self.K)
            self._buf[f] = inst.outcome(self._gens[k][i].random(self.block), i)
            self._pos[f] = 0
            self._fill[f] = self.block

    def next(self, arms: np.ndarray) -> np.ndarray:
        """Outcome indices of the next pull of arm ``arms[k]`` in each trial k (shape (trials,))."""
        flat = self._rowK + arms
        pos = self._pos[flat]
        empty = pos >= self._fill[flat]
        if empty.any():
            self._refill(flat[empty])
            pos = self._pos[flat]
        out = self._buf[flat, pos]
        self._pos[flat] = pos + 1
        self.pulls.ravel()[flat] += 1
        return out

    def take(self, n) -> np.ndarray:
        """Consume the next ``n[i]`` rewards of every arm i in every trial; return per-outcome counts.

        Parameters
        ----------
        n : array_like of int, shape (K,) or (trials, K)

        Returns
        -------
        numpy.ndarray, shape (trials, K, n_outcomes), int64
        """
        inst = self.table.instance
        n = np.broadcast_to(np.asarray(n, dtype=np.int64), (self.B, self.K))
        m = inst.n_outcomes
        hist = np.zeros((self.B * self.K, m), dtype=np.int64)
        nf = n.ravel()
        for f in np.flatnonzero(nf > 0).tolist():
            need = int(nf[f])
            avail = int(self._fill[f] - self._pos[f])
            use = min(avail, need)
            parts = []
            if use:
                parts.append(self._buf[f, self._pos[f]:self._pos[f] + use])
                self._pos[f] += use
            if need > use:
                k, i = divmod(f, self.K)
                parts.append(inst.outcome(self._gens[k][i].random(need - use), i))
            hist[f] = np.bincount(np.concatenate(parts).astype(np.int64), minlength=m)
        self.pulls += n
        return hist.reshape(self.B, self.K, m)


def pop_buffered(buf, pos, fill, pulls, k, i):
    """The next outcome index of arm i in trial k from the buffers of :meth:`VectorRewards.buffers`.

    Returns -1, reading nothing, when the stream's buffer is used up (the caller refills the
    stream k * K + i with :meth:`VectorRewards.refill` and reads again); otherwise advances the
    stream's position and counts the pull in ``pulls`` (shape (trials, K)).  Plain Python,
    compiled by numba in CE-UCB-M's loop (:mod:`rsb_sim.policies._ce_loop`); reading a stream
    this way gives its rewards in the order of :meth:`RewardTable.outcomes` (tested).
    """
    f = k * pulls.shape[1] + i
    j = pos[f]
    if j >= fill[f]:
        return -1
    pos[f] = j + 1
    pulls[k, i] += 1
    return buf[f, j]
