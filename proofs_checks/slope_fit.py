"""Least-squares slope of log(mean regret) against log T, with a seeded percentile bootstrap.

The measured side of ``rsb slopes`` (:mod:`proofs_checks.slopes`): for final regrets
at horizons T_1 < ... < T_n the slope of log(mean) against log T, and of
log(mean / (log T)^y) for the bound's log power y.  Each slope is the exponent of T
in the regret (negative: decaying), the convention of every exponent rsb prints.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from rsb_theory.errors import ArgumentError


@dataclass(frozen=True)
class SlopeFit:
    """Least-squares slope of log(mean) vs log T with a bootstrap CI (see :func:`fit_slope`)."""

    slope: float | None
    ci_low: float | None
    ci_high: float | None
    slope_log_corrected: float | None
    ci_low_log_corrected: float | None
    ci_high_log_corrected: float | None
    used_T: tuple
    excluded_T: tuple
    bootstrap_dropped: int


def _ls_slopes(x: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Least-squares slopes of each row of Y against x (Y shape (B, n))."""
    xc = x - x.mean()
    return (Y - Y.mean(axis=-1, keepdims=True)) @ xc / float(xc @ xc)


def fit_slope(Ts, regrets, n_boot: int = 1000, seed: int = 0, log_power: float = 0.0,
              level: float = 0.95) -> SlopeFit:
    """Slope of log(mean regret) against log T, and of log(mean regret / (log T)^log_power).

    Parameters
    ----------
    Ts : sequence of int
    regrets : sequence of 1-d arrays
        Final regrets per trial at each horizon.
    n_boot : int
        Bootstrap replicates (trials resampled with replacement, independently at each T).
    seed : int
        Seed of the bootstrap generator.
    log_power : float
        y of the bound's (log T)^y factor.
    level : float
        Two-sided level of the percentile interval.

    Returns
    -------
    SlopeFit
        ``slope`` etc. are None when fewer than two horizons have a positive mean regret.
    """
    Ts = [int(t) for t in Ts]
    if len(Ts) != len(regrets):
        raise ArgumentError("regrets", "need one array per horizon")
    means = np.array([float(np.mean(r)) for r in regrets])
    keep = [i for i, m in enumerate(means) if m > 0 and math.isfinite(m)]
    excluded = tuple(Ts[i] for i in range(len(Ts)) if i not in keep)
    if len(keep) < 2:
        return SlopeFit(None, None, None, None, None, None, tuple(Ts[i] for i in keep), excluded, 0)
    x = np.log(np.array([Ts[i] for i in keep], dtype=float))
    corr = log_power * np.log(x)  # log((log T)^y)
    y = np.log(means[keep])
    rng = np.random.default_rng(seed)
    boot = np.empty((n_boot, len(keep)))
    for j, i in enumerate(keep):
        r = np.asarray(regrets[i], dtype=float)
        idx = rng.integers(0, r.size, size=(n_boot, r.size))
        boot[:, j] = r[idx].mean(axis=1)
    ok = np.all(boot > 0, axis=1)
    lb = np.log(boot[ok])
    a = (1 - level) / 2
    s = float(_ls_slopes(x, y[None, :])[0])
    sc = float(_ls_slopes(x, (y - corr)[None, :])[0])
    bs = _ls_slopes(x, lb)
    bc = _ls_slopes(x, lb - corr[None, :])
    q = lambda v, w: float(np.quantile(v, w)) if v.size else None  # noqa: E731
    return SlopeFit(s, q(bs, a), q(bs, 1 - a), sc, q(bc, a), q(bc, 1 - a), tuple(Ts[i] for i in keep), excluded,
                    int((~ok).sum()))
