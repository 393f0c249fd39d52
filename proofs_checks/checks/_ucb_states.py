"""States of RS-UCB-M and CE-UCB-M at one time t, for the steps of ``proof:UCB upper bound`` and
``sec:SE-UCB-M proofs`` that hold state by state (shared by the UCB proof-step checks).

A state is a Bernoulli instance p, the mid-point grid of section ``RS_UCB_M``, a confidence radius r(i) per arm
and empirical means p_hat with |p_hat(i) - p(i)| <= r(i) -- the event E_0,t of the proof.  For concave h
(all nine distortions of ``table:table_regrets``) and Bernoulli laws the optimistic value of ``eq:UCB_alpha``
is max of h over [<a, lo>, <a, hi>], lo/hi = p_hat -/+ r clipped to [0, 1] (docs/theory.md, "The Jensen
reduction"); the optimistic CDFs F~ of the proof are Bernoulli laws with means m~ in [lo, hi] attaining it for
a_t.  The states are drawn by one seeded generator per block: corners of the box |p_hat - p| <= r and uniform
interior points.  Two radius regimes: ``"any"`` (radii of the forced-exploration phase, up to 0.3) and
``"T0"`` (every radius below (Delta_min/(2 K L))^(1/q) -- what t >= T_0(eps) of ``eq:T_epsilon`` gives, the
radius at the forced-exploration count rho t eps/4 being 16 times the left side of Q; the radius equals the bound
only on a null set), scaled by ``slack``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rsb_sim.rules import TIE_TOL
from rsb_theory.grids import Grid

from . import _steps
from ..numfmt import num


@dataclass(frozen=True)
class States:
    """One block of states (S states, G grid points, K arms).

    Attributes
    ----------
    member : _steps.Member
    p : tuple of float
    eps : float
    points : numpy.ndarray, shape (G, K)
    V : numpy.ndarray, shape (G,)
        U_h(sum_i a(i) F_i) = h(<a, p>).
    opt : numpy.ndarray of bool, shape (G,)
    Delta : float
        V* - max over the points outside OPT.
    r : numpy.ndarray, shape (S, K)
    phat : numpy.ndarray, shape (S, K)
    ucb : numpy.ndarray, shape (S, G)
        The optimistic value of every grid point.
    opt_tilde : numpy.ndarray of bool, shape (S, G)
        OPT~_t: the points within TIE_TOL of the largest optimistic value.
    at : numpy.ndarray of int, shape (S,)
        a_t: a point of OPT~_t outside OPT when there is one (the proof's a_t), else the first point of OPT~_t.
    m_tilde : numpy.ndarray, shape (S, K)
        Optimistic means attaining ucb[a_t] (on the segment from lo to hi).
    """

    member: _steps.Member
    p: tuple
    eps: float
    points: np.ndarray
    V: np.ndarray
    opt: np.ndarray
    Delta: float
    r: np.ndarray
    phat: np.ndarray
    ucb: np.ndarray
    opt_tilde: np.ndarray
    at: np.ndarray
    m_tilde: np.ndarray

    @property
    def star(self) -> int:
        return int(np.flatnonzero(self.opt)[0])

    def h(self, x) -> np.ndarray:
        return np.asarray(self.member.d.numeric(np.clip(x, 0.0, 1.0)), dtype=float)

    def value_tilde(self, index) -> np.ndarray:
        """U_h(sum_i a(i) F~_i) per state, a = points[index] (an int or one per state)."""
        idx = np.broadcast_to(np.asarray(index), (self.r.shape[0],))
        return self.h(np.einsum("sk,sk->s", self.points[idx], self.m_tilde))

    def value_hat(self, index) -> np.ndarray:
        """U_h(sum_i a(i) F_hat_i) per state."""
        idx = np.broadcast_to(np.asarray(index), (self.r.shape[0],))
        return self.h(np.einsum("sk,sk->s", self.points[idx], self.phat))

    def describe(self, s: int) -> str:
        a = self.points[self.at[s]]
        return (f"{self.member.name}, p = {self.p}, mid-point grid eps = {num(self.eps, 6)}, radius r = "
                f"{np.round(self.r[s], 6).tolist()}, p_hat = {np.round(self.phat[s], 6).tolist()}, a* = "
                f"{np.round(self.points[self.star], 4).tolist()} ({int(self.opt.sum())} optimal points), a_t = "
                f"{np.round(a, 4).tolist()}, Delta_min = "
                f"{_steps.fmt(self.Delta)}")


def _block(m: _steps.Member, p: tuple, eps: float, regime: str, slack: float, seed_key: tuple) -> States | None:
    K = len(p)
    pts = Grid(K, eps, "ucb").points()
    pv = np.asarray(p)
    h = lambda x: np.asarray(m.d.numeric(np.clip(x, 0.0, 1.0)), dtype=float)  # noqa: E731
    V = h(pts @ pv)
    opt = V >= V.max() - TIE_TOL
    if opt.all():
        return None
    Delta = float(V.max() - V[~opt].max())
    rng = np.random.default_rng(np.random.SeedSequence(_steps.SEED, spawn_key=seed_key))
    n_corner = 2**K
    S = n_corner * 2 + 24
    if regime == "T0":
        # strictly inside: at r = y exactly (K = 2, h linear) |U(a*, F~) - U(a*, F)| = Delta_min/2 is reachable, but
        # only where the radius 16 S/sqrt(tau) hits y exactly, a null set (S = sqrt(2 e log T) + 32 is irrational)
        y = (Delta / (2 * K * m.L)) ** (1 / m.q) * slack * (1 - 1e-9)
        r = y * np.concatenate([np.ones((n_corner * 2, K)), rng.uniform(0.5, 1.0, (S - 2 * n_corner, K))])
    else:
        r = np.concatenate([np.full((n_corner, K), 0.05), np.full((n_corner, K), 0.3),
                            rng.uniform(0.005, 0.3, (S - 2 * n_corner, K))])
    signs = np.array([[1 if (c >> i) & 1 else -1 for i in range(K)] for c in range(n_corner)], dtype=float)
    direction = np.concatenate([signs, signs, rng.uniform(-1, 1, (S - 2 * n_corner, K))])
    phat = np.clip(pv[None, :] + direction * r, 0.0, 1.0)
    lo, hi = np.clip(phat - r, 0.0, 1.0), np.clip(phat + r, 0.0, 1.0)
    x_lo, x_hi = lo @ pts.T, hi @ pts.T
    target = np.clip(_steps.top(m.name), x_lo, x_hi)
    ucb = h(target)
    opt_t = ucb >= ucb.max(axis=1, keepdims=True) - TIE_TOL
    outside = opt_t & ~opt[None, :]
    at = np.where(outside.any(axis=1), np.argmax(outside, axis=1), np.argmax(opt_t, axis=1))
    rows = np.arange(S)
    span = x_hi[rows, at] - x_lo[rows, at]
    lam = np.where(span > 0, (target[rows, at] - x_lo[rows, at]) / np.where(span > 0, span, 1.0), 0.0)
    m_tilde = lo + lam[:, None] * (hi - lo)
    return States(m, p, eps, pts, V, opt, Delta, r, phat, ucb, opt_t, at, m_tilde)


def _instances(K: int) -> list[tuple[float, ...]]:
    fixed = {2: [(0.4, 0.9), (0.3, 0.6), (0.25, 0.75)], 3: [(0.1, 0.5, 0.9)], 4: [(0.1, 0.3, 0.6, 0.9)]}[K]
    return fixed + list(_steps.bernoulli_instances(K, 1, purpose=5))


@lru_cache(maxsize=None)
def blocks(regime: str, slack: float = 1.0) -> tuple[States, ...]:
    """Every block of states of a regime: the distortions of :func:`_steps.holder_sweep`, K = 2, 3, 4, fixed and
    seeded instances, mid-point grids eps = 1/4 and 1/6 (K = 2) or 1/4."""
    out = []
    for j, m in enumerate(_steps.holder_sweep()):
        for K in (2, 3, 4):
            for k, p in enumerate(_instances(K)):
                for e, eps in enumerate((0.25, 1 / 6) if K == 2 else (0.25,)):
                    b = _block(m, p, eps, regime, slack, (6, j, K, k, e, int(slack * 1000)))
                    if b is not None:
                        out.append(b)
    return tuple(out)


def count(regime: str, slack: float = 1.0) -> int:
    return sum(b.r.shape[0] for b in blocks(regime, slack))
