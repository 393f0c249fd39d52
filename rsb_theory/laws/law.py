"""Arm laws: Bernoulli, finite support, empirical (a finite law of samples) and continuous (scipy.stats).

Every law F on [0, oo) (``sec:setting``: Omega in R_+) exposes

* ``kind`` -- ``"bernoulli"``, ``"finite"``, ``"empirical"`` or ``"continuous"``;
* ``support`` -- (lo, hi), finite, 0 <= lo <= hi;
* ``mean``, ``cdf(x)`` = F(x) = P(X <= x), ``sf(x)`` = S(x) = P(X > x) (right-continuous);
* ``ppf(u)`` -- the generalised inverse F^{-1}(u) = inf{x : F(x) >= u}, vectorised;
* ``draw(u)`` -- the reward a uniform u of the reward table gives (below);
* for discrete laws (``discrete`` is True): ``atoms`` (increasing) and ``masses``.

How a uniform becomes a reward (``draw``)
-----------------------------------------
The reward table of :mod:`rsb_sim.rewards` fixes one uniform U in [0, 1) per
pull; the rule that turns it into a reward is part of the table's contract
("the table of every single experiment since the first release"):

* finite and empirical laws: the atom x_j with j = min{j : U < F(x_j)}, i.e.
  x = inf{x : F(x) > U}, the *right-continuous* inverse of F, with
  F(x_j) = masses[0] + ... + masses[j] accumulated left to right and the last
  set to 1 (:meth:`FiniteLaw.outcome`; ``rsb_sim.instances.FiniteSupportInstance.outcome``
  bit for bit).  It differs from ``ppf`` only at the m - 1 uniforms U = F(x_j),
  j < m, where it takes the next atom; both map a uniform U onto the law F.
* Bernoulli laws: 1{U < p} (``rsb_sim.instances.BernoulliInstance.outcome``
  bit for bit), which is x = inf{x : S(x) <= U}, the inverse of the *survival*
  function: the mirror image U -> 1 - U of the rule above.  It is kept because
  every Bernoulli experiment since the first release was drawn that way; a
  Bernoulli arm written as ``finite(0:1-p, 1:p)`` is drawn by the finite rule.
* continuous laws: ``ppf(U)`` (scipy's inverse CDF; F is continuous, so the
  two inverses agree except where F is flat, a set of probability 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from ..errors import ArgumentError

__all__ = ["Law", "FiniteLaw", "BernoulliLaw", "EmpiricalLaw", "ContinuousLaw", "KINDS", "empirical_law"]

#: The kinds of law.
KINDS = ("bernoulli", "finite", "empirical", "continuous")


class Law:
    """Interface shared by every law (see the module docstring)."""

    kind: str = ""
    discrete: bool = False

    @property
    def support(self) -> tuple[float, float]:  # pragma: no cover - every law overrides it
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover
        raise NotImplementedError


def _as_uniforms(u) -> np.ndarray:
    u = np.asarray(u, dtype=float)
    if np.any(~np.isfinite(u)) or np.any(u < 0) or np.any(u > 1):
        raise ArgumentError("u", "uniforms must lie in [0, 1]")
    return u


@dataclass(frozen=True, eq=True)
class FiniteLaw(Law):
    """A law with finitely many atoms x_1 < ... < x_m (>= 0) and masses p_j (>= 0, summing to 1).

    Build it with :func:`rsb_theory.laws.build.finite_law` (validated); the
    constructor expects sorted, validated tuples.
    """

    atoms: tuple[float, ...]
    masses: tuple[float, ...]
    discrete = True

    @property
    def kind(self) -> str:
        return "finite"

    @property
    def support(self) -> tuple[float, float]:
        return float(self.atoms[0]), float(self.atoms[-1])

    @property
    def mean(self) -> float:
        return float(np.dot(self.atoms, self.masses))

    def cumulative(self) -> np.ndarray:
        """F(x_j), accumulated left to right with the last set to 1 (the rule of :meth:`outcome`)."""
        c = np.cumsum(np.asarray(self.masses, dtype=float))
        c[-1] = 1.0
        return c

    def tails(self) -> np.ndarray:
        """S(x_j) = sum_{k > j} p_k (reverse cumulative sums, as :mod:`rsb_theory.riskmetric` forms them), j = 1..m."""
        p = np.asarray(self.masses, dtype=float)
        tail = np.cumsum(p[::-1])[::-1]
        return np.clip(np.append(tail[1:], 0.0), 0.0, 1.0)

    def cdf(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        k = np.searchsorted(np.asarray(self.atoms), x, side="right")
        return np.where(k > 0, self.cumulative()[np.maximum(k - 1, 0)], 0.0)

    def sf(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        k = np.searchsorted(np.asarray(self.atoms), x, side="right")
        return np.where(k > 0, self.tails()[np.maximum(k - 1, 0)], 1.0)

    def ppf(self, u) -> np.ndarray:
        """inf{x : F(x) >= u} (u = 0 gives the first atom)."""
        u = _as_uniforms(u)
        j = np.searchsorted(self.cumulative(), u, side="left")
        return np.asarray(self.atoms)[np.minimum(j, len(self.atoms) - 1)]

    def outcome(self, u) -> np.ndarray:
        """Index of the atom drawn by the uniform(s) u: min{j : u < F(x_j)} (module docstring)."""
        u = np.asarray(u, dtype=float)
        j = np.searchsorted(self.cumulative(), u, side="right")  # = #{j : F(x_j) <= u}
        return np.minimum(j, len(self.atoms) - 1)

    def draw(self, u) -> np.ndarray:
        """The reward of the uniform(s) u (module docstring)."""
        return np.asarray(self.atoms)[self.outcome(u)]

    def describe(self) -> str:
        return "finite(" + ", ".join(f"{x:g}:{p:g}" for x, p in zip(self.atoms, self.masses)) + ")"


@dataclass(frozen=True, eq=True)
class BernoulliLaw(FiniteLaw):
    """Bern(p): atoms (0, 1), masses (1 - p, p); drawn as 1{U < p} (module docstring)."""

    p: float = 0.5

    @property
    def kind(self) -> str:
        return "bernoulli"

    @property
    def mean(self) -> float:
        return float(self.p)

    def outcome(self, u) -> np.ndarray:
        """1{u < p}: the rule of ``rsb_sim.instances.BernoulliInstance`` (module docstring)."""
        return (np.asarray(u) < self.p).astype(np.int8)

    def describe(self) -> str:
        return f"bernoulli({self.p:g})"


@dataclass(frozen=True, eq=True)
class EmpiricalLaw(FiniteLaw):
    """The empirical law of n samples (``eq:empirical_CDF``): atoms the distinct values, masses count/n.

    ``source`` says where the samples came from (``returns.csv:r``), ``n`` how many there were.
    """

    n: int = 0
    source: str = ""

    @property
    def kind(self) -> str:
        return "empirical"

    def describe(self) -> str:
        return f"empirical({self.source})" if self.source else f"empirical({self.n} samples)"


def empirical_law(samples, source: str = "") -> EmpiricalLaw:
    """The empirical law of ``samples`` (1-d, finite, >= 0); atoms sorted, masses count/n.

    Raises
    ------
    ValueError
        ``argument 'samples'``: empty, not finite or negative.
    """
    xs = np.asarray(samples, dtype=float).ravel()
    if xs.size == 0:
        raise ArgumentError("samples", "no samples")
    if not np.all(np.isfinite(xs)):
        raise ArgumentError("samples", "samples must be finite")
    if xs.min() < 0:
        raise ArgumentError("samples", f"rewards must be non-negative (sec:setting), got {xs.min():g}")
    atoms, counts = np.unique(xs, return_counts=True)
    masses = counts / xs.size
    return EmpiricalLaw(tuple(float(v) for v in atoms), tuple(float(v) for v in masses), n=int(xs.size),
                        source=source)


@dataclass(frozen=True, eq=True)
class ContinuousLaw(Law):
    """A frozen ``scipy.stats`` continuous law with bounded support in [0, oo).

    Build it with :func:`rsb_theory.laws.build.continuous_law` (which checks the
    name against :data:`rsb_theory.laws.names.CONTINUOUS`, the parameters and the
    support).  Equality and hashing use (name, args) only.
    """

    name: str
    args: tuple[float, ...]
    frozen: object = field(compare=False, repr=False)
    kinks: tuple[float, ...] = field(default=(), compare=False)

    @property
    def kind(self) -> str:
        return "continuous"

    @property
    def support(self) -> tuple[float, float]:
        lo, hi = self.frozen.support()
        return float(lo), float(hi)

    @property
    def mean(self) -> float:
        return float(self.frozen.mean())

    def cdf(self, x) -> np.ndarray:
        """F(x): SciPy's cdf, exactly 0 up to the lower end of the support and 1 from the upper end on."""
        return self._ends(x, np.asarray(self.frozen.cdf(x), dtype=float), 0.0, 1.0)

    def sf(self, x) -> np.ndarray:
        """S(x): SciPy's sf (not 1 - cdf), exactly 1 up to the lower end of the support and 0 from the upper end on.

        SciPy leaves rounding residues at the ends (1e-17 at the upper end of a truncnorm); a
        distortion with an infinite slope at 0 would weigh them, so the ends are set exactly.
        """
        return self._ends(x, np.asarray(self.frozen.sf(x), dtype=float), 1.0, 0.0)

    def _ends(self, x, y: np.ndarray, below: float, above: float) -> np.ndarray:
        lo, hi = self.support
        x = np.asarray(x, dtype=float)
        return np.where(x <= lo, below, np.where(x >= hi, above, np.clip(y, 0.0, 1.0)))

    def ppf(self, u) -> np.ndarray:
        return np.asarray(self.frozen.ppf(_as_uniforms(u)), dtype=float)

    def draw(self, u) -> np.ndarray:
        """ppf(u) (module docstring)."""
        return self.ppf(u)

    def describe(self) -> str:
        return f"{self.name}(" + ", ".join(f"{v:g}" for v in self.args) + ")"
