"""The oracle mixture of ``eq:optimal alpha`` and the constant W of ``theorem:W``.

For finite-support arms on a common sorted support x_1 <= ... <= x_m, the
step identity of :mod:`rsb_theory.riskmetric` (``eq:wang_def`` with 0 inserted
as a massless atom) gives

    V(alpha) = U_h(sum_i alpha_i F_i) = sum_j w_j h(S_j(alpha)) - h(1) * L_-,

where w_j = x_{j+1} - x_j >= 0 are the step widths, S_j(alpha) =
sum_i alpha_i S_ij is the survival probability of the mixture on step j
(affine in alpha, in [0, 1] on the simplex) and L_- is the length of the
negative part [min(x_1, 0), 0] (a constant: it does not depend on alpha).
For concave h this is a concave function of alpha: each h(S_j(.)) is a
concave function of an affine map and the w_j are >= 0.  (``lemma:risk-concave``
states this; its printed proof only shows V(alpha) >= sum_i alpha_i U_h(F_i),
the Jensen inequality at the vertices, and integrates over [0, oo) only.
The same pointwise argument applied to two mixtures gives concavity, and the
h(1) term of a signed support is constant.)  So ``eq:optimal alpha`` is a
convex program: :func:`to_cvxpy` turns the SymPy h into a DCP-concave CVXPY
expression and Clarabel solves it.

Three routes (:func:`optimal_mixture`):

``closed_form``
    Two-point arms (Bernoulli on {0, 1}, or any common {a, b}): V(alpha) =
    const + (b - a) h(<alpha, p>), so the optimum is any maximiser q* of h on
    [min p, max p] (:func:`rsb_theory.holder.optimal_means`, exact), reached
    by one arm if some p_i = q*, else by mixing the arms of smallest and
    largest mean.  Exact, any h.
``cvxpy``
    The convex program above, for h that :func:`to_cvxpy` translates (DCP
    concavity is a certificate of concavity).  Global optimum up to solver
    tolerance.
``search``
    Any h, meant for non-concave h.  Vertices, every edge (at most 60, a
    201-point grid + bounded Brent refinement around the best cell), a
    simplex grid of step 1/120 (K = 3) or 2 x 2000 Dirichlet(1), Dirichlet(0.3)
    samples (K > 3, seeded), then SLSQP polish of the 8 best distinct points.
    **Not a certificate** by itself: a lower bound on the optimum.

For concave h every route also reports ``gap``, an upper bound on
V(alpha*) - V(alpha) from the supergradient inequality
(:func:`optimality_gap`): with it a ``search`` result on a concave h that
DCP cannot express (sin(pi u)) is certified too, and the solver tolerance of
``cvxpy`` is measured rather than assumed.

The value reported is always V(alpha) recomputed by
:func:`rsb_theory.riskmetric.mixture_value` at the returned alpha.

W of ``eq:W`` (:func:`W_finite`, :func:`W_bernoulli`) is exact: half the
largest pairwise 1-Wasserstein distance between arms (proof in
:func:`W_finite`), well below the bound sqrt(2 pi) of ``theorem:W`` on
bounded instances.

The package: :mod:`.dcp` (the SymPy -> CVXPY translator) and :mod:`.sign`
(exact, work-bounded signs on [0, 1]); :mod:`.instance` (validation, the steps
of V); the routes :mod:`.closed_form` (also alpha* for Bernoulli arms, the one
place), :mod:`.convex` and :mod:`.search`; :mod:`.certificate` (the
supergradient bound); :mod:`.mixture` (:func:`optimal_mixture`, the choice of
route); :mod:`.w_constant` (W); :mod:`.laws` (:func:`optimal_mixture_laws`: the
same for any arm laws of :mod:`rsb_theory.laws` -- continuous, empirical,
finite, Bernoulli -- with the ``vertex`` route for convex h and a quadrature
rule for the convex program, certified on the exact V).
"""

from __future__ import annotations

from .certificate import KINK_SNAP, optimality_gap
from .closed_form import alpha_star_bernoulli
from .convex import CLARABEL_OPTIONS
from .dcp import CHECK_POINTS, CHECK_TOL, NotDCPError, to_cvxpy
from .instance import bernoulli_arms
from .laws import LAW_METHODS, optimal_mixture_laws, optimality_gap_laws
from .mixture import optimal_mixture, optimal_mixture_bernoulli
from .result import METHODS, Oracle
from .w_constant import W_bernoulli, W_finite, W_laws

__all__ = [
    "NotDCPError",
    "Oracle",
    "METHODS",
    "to_cvxpy",
    "optimality_gap",
    "optimal_mixture",
    "optimal_mixture_bernoulli",
    "alpha_star_bernoulli",
    "bernoulli_arms",
    "W_bernoulli",
    "W_finite",
    "W_laws",
    "LAW_METHODS",
    "optimal_mixture_laws",
    "optimality_gap_laws",
    "CHECK_POINTS",
    "CHECK_TOL",
    "CLARABEL_OPTIONS",
    "KINK_SNAP",
]
