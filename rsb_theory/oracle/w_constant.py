"""W of ``eq:W`` (section ``sec:setting``), exactly: half the largest pairwise W1 distance between arms."""

from __future__ import annotations

import numpy as np

from ..laws.values import all_discrete, union_support, wasserstein1
from ..riskmetric import wasserstein1_finite
from .instance import as_means, check_instance
from ..errors import ArgumentError

__all__ = ["W_bernoulli", "W_finite", "W_laws"]


def W_bernoulli(p) -> float:
    """W of ``eq:W`` (section ``sec:setting``) for Bernoulli arms: (max p - min p) / 2.

    This is the one implementation (``rsb_theory.discretization.W_bernoulli``
    is this function); it equals :func:`W_finite` on the support {0, 1}.

    Proof.  For Bernoulli laws sum_i d_i F_i(x) = -<d, p> on [0, 1) and 0
    elsewhere when sum_i d_i = 0, so ||sum_i (alpha_i - beta_i) F_i||_W =
    |<d, p>| with d = alpha - beta (``lemma:lipschitz-wasserstein``: W1 is
    the integral of |F_a - F_b|).  Let c = (max p + min p)/2; since
    sum d = 0, <d, p> = <d, p - c 1>, and |p_i - c| <= (max p - min p)/2 gives
    |<d, p>| <= ||d||_1 (max p - min p)/2.  Equality holds at alpha = e_i,
    beta = e_j with p_i = max p, p_j = min p (||d||_1 = 2, <d, p> = max p -
    min p).  Hence W = (max p - min p)/2 (0 when all means tie: W is then a
    max of zeros).

    Raises
    ------
    ValueError
        ``p`` not a 1-d array of K >= 2 means in [0, 1].
    """
    p = as_means(p)
    return float(p.max() - p.min()) / 2.0


def W_finite(support, arm_probs) -> float:
    """W of ``eq:W`` for finite-support arms: max_{i<j} W1(F_i, F_j) / 2, exactly.

    Proof.  Write d = alpha - beta and N(d) = ||sum_i d_i F_i||_W =
    int |sum_i d_i F_i(x)| dx, a seminorm (convex and positively homogeneous)
    in d.  The ratio N(d)/||d||_1 is invariant under d -> t d (t > 0), and
    every d != 0 with sum d = 0 is a positive multiple of some d in
    D = {sum d = 0, ||d||_1 = 2}; conversely each d in D is alpha - beta with
    alpha = d+, beta = d- (both of mass 1, so in the simplex).  Hence
    W = max_{d in D} N(d) / 2.  Every d with sum d = 0 and ||d||_1 <= 2 is a
    convex combination of the points e_i - e_j (i != j): with t = |d+|_1 =
    |d-|_1 <= 1, d = sum_{i,j} (d+_i d-_j / t)(e_i - e_j) has weights summing
    to t, and the remaining 1 - t goes half to e_1 - e_2 and half to e_2 - e_1.
    A convex function on a polytope is maximised at an extreme point, so
    max_D N <= max_{i != j} N(e_i - e_j) = max_{i<j} W1(F_i, F_j), and
    e_i - e_j lies in D, so equality holds.  (The argument needs only finite
    first moments; finite support makes W1 exact via
    :func:`rsb_theory.riskmetric.wasserstein1_finite`.)

    Raises
    ------
    ValueError
        Bad ``support`` or ``arm_probs`` (shape, K < 2, entries, row sums).
    """
    xs, arms = check_instance(support, arm_probs)
    i, j = np.triu_indices(arms.shape[0], k=1)
    return float(np.max(wasserstein1_finite(xs, arms[i], arms[j]))) / 2.0


def W_laws(laws) -> float:
    """W of ``eq:W`` for any arm laws of :mod:`rsb_theory.laws`: max_{i<j} W1(F_i, F_j) / 2.

    The proof of :func:`W_finite` needs only finite first moments (bounded
    supports here).  Discrete arms: :func:`W_finite` on the union of their atoms
    (exact).  Otherwise W1 = int |F_i - F_j| dx by adaptive quadrature
    (:func:`rsb_theory.laws.values.wasserstein1`).

    Raises
    ------
    ValueError
        Fewer than two laws.
    """
    laws = tuple(laws)
    if len(laws) < 2:
        raise ArgumentError("laws", f"need K >= 2 arms, got K = {len(laws)}")
    if all_discrete(laws):
        return W_finite(*union_support(laws))
    return max(wasserstein1(laws[i], laws[j]) for i in range(len(laws)) for j in range(i + 1, len(laws))) / 2.0
