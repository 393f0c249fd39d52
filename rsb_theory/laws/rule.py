"""V(alpha) as a finite sum: a quadrature rule for the mixtures of given laws (for the oracle's solvers).

For laws with a continuous component, V(alpha) = int_0^b h(sum_i alpha_i S_i(x)) dx
(``eq:V``).  A quadrature rule with nodes x_k and positive weights w_k turns it
into

    V_rule(alpha) = sum_k w_k h(sum_i alpha_i S_ik),   S_ik = S_i(x_k),

the finite-step form sum_j w_j h(S_j(alpha)) that the oracle's convex program
solves for finite-support arms (S_j affine in alpha, w_j >= 0: concave in alpha
for concave h).  :func:`step_form` builds the rule by adaptive Gauss–Kronrod
quadrature (:mod:`rsb_theory.laws.quadrature`) of the *vector* of integrands
h(S_i) (each arm alone), h(S_bar) (their equal mixture) and h(S_alpha) for every
hint alpha, over the knots of the laws and the crossings of each of those
survival functions with the breakpoints of h; a panel is accepted when every
component meets the tolerance.

How accurate it is: for a smooth h the integrand h(S_alpha) is as smooth as the
S_i on every panel for *every* alpha, and the rule is accurate to about the
tolerance for every alpha.  Where h has a kink (``min``/``max``/``abs``), the
x at which S_alpha crosses it moves with alpha and lies inside a panel for an
alpha that is not a hint: there the rule errs by O(width^2) of that panel
(measured in ``tests/theory/test_laws_oracle.py``; ``docs/arms.md``).  Around
each crossing of a hint the rule therefore puts :data:`CLUSTER_KNOTS` knots on
each side at geometrically shrinking distances, so that an alpha near the hint
crosses the kink in a panel about as wide as its distance to the hint.  The
oracle never reports V_rule: it re-solves with its own solution as a hint, and
reports and certifies the exact V (:mod:`rsb_theory.oracle.laws`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..distortions import Distortion
from .quadrature import integrate
from .values import TOL, crossings, h_at_mixture, h_breakpoints, knots, survival

__all__ = ["StepForm", "step_form", "CLUSTER_KNOTS", "CLUSTER_RATIO"]

#: Knots on each side of a hint's crossing of a kink of h, at distances span * CLUSTER_RATIO**k, k = 1..CLUSTER_KNOTS.
CLUSTER_KNOTS = 16
CLUSTER_RATIO = 0.25


@dataclass(frozen=True)
class StepForm:
    """V_rule(alpha) = widths @ h(alpha @ S) (module docstring).

    Attributes
    ----------
    widths : numpy.ndarray, shape (n,)
        Positive weights of the nodes.
    S : numpy.ndarray, shape (K, n)
        S_i at the nodes.
    nodes : numpy.ndarray, shape (n,)
    error : float
        Summed error estimate of the rule on its design integrands.
    converged : bool
    designs : int
        How many integrands the rule was adapted to (K arms, their equal mixture, the hints).
    """

    widths: np.ndarray
    S: np.ndarray
    nodes: np.ndarray
    error: float
    converged: bool
    designs: int

    def value(self, d: Distortion, alpha) -> np.ndarray:
        """V_rule(alpha), vectorised over the leading axes of ``alpha``.

        Computed in blocks of mixtures of at most :data:`VALUE_CELLS` (mixture, node) cells: a search ranks
        thousands of candidates on a rule of up to 3e5 nodes, and the whole (candidates x nodes) matrix was
        16 GiB; each mixture's value is its own row, so the blocks change no value.
        """
        alpha = np.asarray(alpha, dtype=float)
        lead = alpha.shape[:-1]
        flat = alpha.reshape(-1, alpha.shape[-1])
        rows = max(1, VALUE_CELLS // max(1, self.widths.size))
        out = np.empty(flat.shape[0])
        for lo in range(0, flat.shape[0], rows):
            s = np.clip(flat[lo:lo + rows] @ self.S, 0.0, 1.0)
            out[lo:lo + rows] = d.numeric(s) @ self.widths
        return out.reshape(lead)


#: Most (mixture, node) cells :meth:`StepForm.value` holds at once (8 bytes each, a few temporaries: ~0.5 GiB).
VALUE_CELLS = 1 << 24


def step_form(d: Distortion, laws, hints=(), tol: float = TOL) -> StepForm:
    """The quadrature rule of the module docstring for ``laws`` and the mixtures ``hints``."""
    laws = tuple(laws)
    K = len(laws)
    designs = np.vstack([np.eye(K), np.full((1, K), 1.0 / K), *[np.atleast_2d(np.asarray(a, float)) for a in hints]])
    grid = knots(laws)
    levels = h_breakpoints(d)
    span = float(grid[-1] - grid[0]) if grid.size > 1 else 0.0
    pts = [grid] + [crossings(levels, laws, w, grid) for w in designs[:K + 1]]
    for w in designs[K + 1:]:
        # around a hint's crossings, knots at geometrically shrinking distances: a nearby alpha crosses
        # the kink inside a panel of width ~ its distance, where the rule errs by O(width^2)
        for x in crossings(levels, laws, w, grid):
            offsets = span * CLUSTER_RATIO ** np.arange(1, CLUSTER_KNOTS + 1)
            pts.append(np.clip(np.concatenate([[x], x - offsets, x + offsets]), grid[0], grid[-1]))
    pts = np.unique(np.concatenate(pts))

    def f(x):  # 1 - S from the CDFs where h is singular at 1 (values.h_at_mixture): a few hundred nodes, not 10^5
        return h_at_mixture(d, laws, designs, x)

    res = integrate(f, pts, tol * max(1.0, span))
    return StepForm(res.weights, survival(laws, res.nodes), res.nodes, res.error, res.converged, designs.shape[0])
