"""The objectives of the algorithms' grid searches: one small class per objective.

Every class holds the estimates of a batch of B trials and K arms and owns

* its **validation** (a ``build`` class method; messages name the argument);
* its **evaluation** -- the one NumPy evaluation of the objective.  Values are
  computed by *accumulators*: the linear statistics of the objective are summed
  over the arms in the order 1, 2, ..., K (``push``), then the objective is
  closed over the sums (``value``).  :meth:`Objective.values_at` takes grid
  coordinates (the last arm takes the deficit 1 - sum of the others, clamped
  at 0: the footnote to ``eq:etc_discrete_set``), :meth:`Objective.at_points`
  explicit mixtures; both add the arms in the same order, so two routes that
  see the same weights see bit-identical values;
* the **bound pieces** the branch and bound of :mod:`rsb_theory.argmax` needs:
  suffix statistics of the arms, the continuous relaxation of a prefix
  (:meth:`Objective.bound`), the certificate that no grid value can exceed
  (max h for ETC and RS-UCB), and for CE-UCB the Lagrangian bound
  (:class:`LagrangianBound`).

The objectives (``phat`` the estimated means, shape (B, K)):

* :class:`ETCObjective` -- ``eq:ETC_alpha`` for Bernoulli arms:
  V(a) = U_h(sum_i a_i Bern(phat_i)) = h(<a, phat>) (``eq:h_1_p``);
* :class:`RSUCBObjective` -- ``eq:UCB_alpha`` over the balls of
  ``eq:UCB_confidence_sets``, concave h: g(a) = max of h over
  [<a, lo>, <a, hi>], lo/hi = clip(phat -/+ radius, 0, 1) (the proof is in
  the docstring of :mod:`rsb_theory.argmax`);
* :class:`CEUCBObjective` -- ``eq:UCB_alpha2``: h(<a, phat>) + L sum_i (a_i r_i)^q;
* :class:`FiniteETCObjective`, :class:`FiniteCEUCBObjective` -- the same two on
  empirical laws over a common support, by the step identity of
  :mod:`rsb_theory.riskmetric`: U_h(sum_i a_i F_i) = sum_j w_j (h(S_j(a)) -
  [x_{j+1} <= 0] h(1)), S_j(a) = sum_i a_i S_ij affine in a.

The mean <a, phat> is clipped to [0, 1] before h is applied (a sum of weights
that rounds above 1 would otherwise evaluate h at 1 + 1 ulp), as the compiled
copy in :mod:`rsb_theory.argmax.edge_lines` does.

The package: :mod:`.validation` (checks of the estimates, radii and
constants), :mod:`.base` (:class:`Objective`, the bound constants, the
bonus), :mod:`.bernoulli` and :mod:`.finite` (the classes and their
constructors), :mod:`.lagrangian` (the Lagrangian bound of CE-UCB).

Floating point.  The bounds widen every interval of means by :data:`MARGIN`
and the branch and bound compares them with a guard :data:`GUARD` relative to
the size of the objective (:func:`guard`), so pruning never removes a point an
enumeration could select.
"""

from .base import GUARD, MARGIN, Objective, Suffix, guard
from .bernoulli import (CEUCBObjective, ETCObjective, RSUCBObjective, ce_ucb_objective, etc_objective,
                        rs_ucb_objective)
from .finite import FiniteCEUCBObjective, FiniteETCObjective, ce_ucb_objective_finite, etc_objective_finite
from .lagrangian import LagrangianBound
from .validation import check_bonus, check_distortion, check_phat, check_radius

__all__ = [
    "MARGIN",
    "GUARD",
    "guard",
    "Objective",
    "Suffix",
    "ETCObjective",
    "RSUCBObjective",
    "CEUCBObjective",
    "FiniteETCObjective",
    "FiniteCEUCBObjective",
    "LagrangianBound",
    "etc_objective",
    "rs_ucb_objective",
    "ce_ucb_objective",
    "etc_objective_finite",
    "ce_ucb_objective_finite",
    "check_distortion",
    "check_phat",
    "check_radius",
    "check_bonus",
]
