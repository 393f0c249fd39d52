"""The Lagrangian bound of CE-UCB prefixes (Bernoulli arms, concave h), used by the branch and bound."""

from __future__ import annotations

import numpy as np

from ..distortions import numeric_derivative

__all__ = ["LagrangianBound"]


class LagrangianBound:
    """Lagrangian bound for CE-UCB prefixes (``eq:UCB_alpha2``), tight near a chosen mean y0.

    For concave h and a supergradient mu of h at y0, h(y) <= h(y0) + mu (y - y0), so
    on the prefix's completions (remaining mass R spread as w over the arms J)

        UCB(a) <= h(y0) + mu (S_x - y0) + L S_b + max_{w >= 0, sum w = R} sum_j phi_j(w_j),
        phi_j(w) = mu p_j w + L (w r_j)^q.

    The last term is a separable concave maximisation: for q = 1 it is
    R max_j (mu p_j + L r_j); for q < 1 weak duality gives, for every
    lambda > max_j mu p_j,

        <= lambda R + sum_j (1 - q) A_j (q A_j / (lambda - mu p_j))^{q/(1-q)},  A_j = L r_j^q,

    and lambda is chosen by a few safeguarded Newton steps on the stationarity
    condition sum_j w_j(lambda) = R (any lambda gives a valid bound).  The branch
    and bound uses the minimum of this and the interval bound.
    """

    #: Offsets of the tangent points around y0 (q = 1: the bound is the minimum over them).
    OFFSETS = (0.0, -0.002, 0.002, -0.006, 0.006, -0.015, 0.015, -0.04, 0.04, -0.1, 0.1)

    def __init__(self, obj, y0: np.ndarray):
        """``obj``: a :class:`rsb_theory.objectives.CEUCBObjective`; ``y0``: means (B,) to be tight near."""
        self.obj = obj
        h = obj.h
        q, L = obj.q, obj.L
        self.linear = q == 1.0 or L == 0.0
        offs = np.array(self.OFFSETS if self.linear else self.OFFSETS[:1])
        y0 = np.clip(np.asarray(y0, dtype=float)[:, None] + offs[None, :], 1e-6, 1 - 1e-6)  # (B, T)
        mu = numeric_derivative(obj.d)(y0)
        h0 = h(y0)
        ys = np.linspace(0.0, 1.0, 129)
        with np.errstate(invalid="ignore"):
            tangent_ok = np.all(h(ys)[None, None, :] <= h0[..., None] + mu[..., None] * (ys - y0[..., None]) + 1e-12,
                                axis=2)
        self.valid = np.isfinite(mu) & np.isfinite(h0) & tangent_ok
        mu = np.where(self.valid, mu, 0.0)
        self.y0, self.mu, self.h0 = y0, mu, np.where(self.valid, h0, 0.0)
        self.c = mu[:, :, None] * obj.phat[:, None, :]  # (B, T, K)
        if self.linear:
            lin = self.c + (L * obj.radius[:, None, :] if q == 1.0 else 0.0)
            self.sufmax = np.maximum.accumulate(lin[:, :, ::-1], axis=2)[:, :, ::-1]
        else:
            self.A = L * np.power(obj.radius, q)

    def bound(self, acc: tuple, i_next: int, trial: np.ndarray) -> np.ndarray:
        obj = self.obj
        shape = np.broadcast(acc[0], trial).shape
        tr = np.broadcast_to(trial, shape).ravel()
        sa, sx, sb = (np.broadcast_to(a, shape).ravel() for a in acc)
        R = np.maximum(1.0 - sa, 0.0)
        base = self.h0[tr] + self.mu[tr] * (sx[:, None] - self.y0[tr]) + (obj.L * sb)[:, None]  # (n, T)
        if self.linear:
            val = base + R[:, None] * self.sufmax[tr, :, i_next]
        else:
            val = base + self._separable(R, tr, i_next)[:, None]
        val = np.where(self.valid[tr], val, np.inf).min(axis=1)
        return val.reshape(shape)

    def _separable(self, R: np.ndarray, tr: np.ndarray, i_next: int) -> np.ndarray:
        q = self.obj.q
        e, s = 1.0 / (1.0 - q), q / (1.0 - q)
        c = self.c[tr, 0, i_next:]
        A = self.A[tr, i_next:]
        qA = q * A
        cmax = c.max(axis=1)
        pos = R > 0
        Rs = np.where(pos, R, 1.0)
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            lam = cmax + np.power(np.power(qA, e).sum(axis=1) / Rs, 1.0 / e)
            best = np.full(R.shape, np.inf)
            for _ in range(6):
                gap = np.maximum(lam[:, None] - c, 1e-300)
                w = np.power(qA / gap, e)
                D = lam * Rs + ((1.0 - q) * A * np.power(qA / gap, s)).sum(axis=1)
                best = np.minimum(best, np.where(np.isfinite(D), D, np.inf))
                F = w.sum(axis=1) - Rs
                dF = -(e * w / gap).sum(axis=1)
                step = np.where(dF < 0, F / dF, 0.0)
                new = lam - step
                lam = np.where(np.isfinite(new), np.maximum(new, 0.5 * (lam + cmax)), lam)
        return np.where(pos, best, 0.0)
