"""Exact, batched discrete argmax of the algorithms' objectives over the grids.

The objectives (Bernoulli arms, estimates ``phat`` of shape (B, K)) are the
classes of :mod:`rsb_theory.objectives`, built by

* :func:`etc_objective` -- ``eq:ETC_alpha``: V(a) = U_h(sum_i a_i Bern(phat_i))
  = h(<a, phat>) (``eq:h_1_p``: a mixture of Bernoulli laws is Bern(<a, p>));
* :func:`rs_ucb_objective` -- ``eq:UCB_alpha`` with the balls of
  ``eq:UCB_confidence_sets``: g(a) = max_{x in [<a, lo>, <a, hi>]} h(x) with
  lo = clip(phat - radius, 0, 1), hi = clip(phat + radius, 0, 1) (proof below);
* :func:`ce_ucb_objective` -- ``eq:UCB_alpha2``: h(<a, phat>) + L * sum_i (a_i radius_i)^q;
* :func:`etc_objective_finite`, :func:`ce_ucb_objective_finite` -- the same on
  empirical laws over a common support.

The package: :mod:`.lattice` (grid coordinates), :mod:`.rule` (the tie rule,
:class:`Decision`), :mod:`.enumeration` (the reference route), :mod:`.rows`,
:mod:`.lines` and :mod:`.bnb` (the branch and bound), :mod:`.certificates`
(decisions without a search: upper bound, neighbours, candidate sets) and
:mod:`.decide` (the entry points :func:`argmax`, :func:`second_best`,
:func:`values`, :func:`upper_bound`).

The RS-UCB reduction (concave h)
--------------------------------
Claim: for concave h and Bernoulli estimates, with C_i the W1 ball of radius
r_i around Bern(phat_i) among laws on [0, 1],

    max_{eta_i in C_i} U_h(sum_i a_i eta_i) = max_{x in [<a, lo>, <a, hi>]} h(x).

(<=) Let G = sum_i a_i eta_i, a law on [0, 1] with survival function S_G.
``eq:wang_def`` on [0, 1] reads U_h(G) = int_0^1 h(S_G(x)) dx, and Jensen's
inequality for the concave h and the uniform measure on [0, 1] gives
U_h(G) <= h(int_0^1 S_G(x) dx) = h(mean G).  The mean is 1-Lipschitz for W1,
so mean(eta_i) lies in [phat_i - r_i, phat_i + r_i] and in [0, 1] (eta_i lives
on [0, 1]), i.e. in [lo_i, hi_i]; hence mean G = sum_i a_i mean(eta_i) lies in
[<a, lo>, <a, hi>] and U_h(G) <= max of h over that interval.
(>=) For x = <a, m> with m_i in [lo_i, hi_i], take eta_i = Bern(m_i): the W1
distance between Bernoulli laws is |m_i - phat_i| <= r_i, so eta_i is in C_i,
and sum_i a_i Bern(m_i) = Bern(<a, m>) has U_h = h(<a, m>) = h(x).  Every x of
the interval is such a combination (the map m -> <a, m> is onto it).
For concave h the maximum of h over [u, v] is h(clip(x*, u, v)) for any
maximiser x* of h on [0, 1] (h is non-decreasing left of x* and
non-increasing right of it); this is how the value is computed.  Tests check
both directions numerically (random finite-support laws in the balls never
beat it; the Bernoulli witness attains it).

Exactness
---------
Values are computed by the objective's one evaluation (fixed order of the
floating-point operations: a_i = eps (n_i + offset), running sums over
i = 1..K-1 left to right, a_K = 1 - sum clamped at 0, then the last arm), so
the enumeration and the branch and bound see bit-identical values at every
grid point.  Concavity holds exactly only in real arithmetic; the bounds are
made safe by widening every interval of means by
:data:`rsb_theory.objectives.MARGIN` and comparing bounds with a guard
:data:`rsb_theory.objectives.GUARD` relative to the size of the objective, so
pruning never removes a point that the enumeration could select.  The
remaining difference between the two methods is at rounding level: the
branch and bound's M can differ from the enumeration's by a few ulps (several
grid points mathematically tied whose computed values differ in the last
bits), and the decisions then differ only if some grid value lies within
those ulps of the threshold M - tol, i.e. if two mathematical values differ by
tol up to ~1e-15.  The tests check bit-level agreement of the decisions on
random instances, including exact ties.

Cost.  The hard case is ETC (and CE-UCB with a tiny, nearly uniform bonus) with
the maximiser of h strictly inside [min phat, max phat]: the values <a, phat>
of ~10^7 grid points are dense around it, the bounds of most prefixes whose
reachable interval contains it equal max h, and M (the grid point closest to
the maximiser) is only certified after every such line has been evaluated (a
few 10^4 lines per trial at K = 6, T = 3e5).  The other cases need a handful to
a few hundred lines per trial; see ``benchmarks/bench_argmax.py`` and
docs/simulation.md.

Non-concave h: only ``method="enumerate"`` (``"auto"`` falls back to it,
``"bnb"`` raises ``ValueError`` naming ``d``).
"""

from __future__ import annotations

from ..objectives import (GUARD, MARGIN, CEUCBObjective, ETCObjective, FiniteCEUCBObjective, FiniteETCObjective,
                          Objective, RSUCBObjective, ce_ucb_objective, ce_ucb_objective_finite, etc_objective,
                          etc_objective_finite, rs_ucb_objective)
from .decide import METHODS, argmax, second_best, upper_bound, values
from .enumeration import ENUM_CHUNK, MAX_ENUMERATION
from .lattice import lex_blocks, points_of
from .rule import TIE_TOL, Decision

__all__ = [
    "TIE_TOL",
    "MARGIN",
    "GUARD",
    "MAX_ENUMERATION",
    "ENUM_CHUNK",
    "METHODS",
    "Objective",
    "ETCObjective",
    "RSUCBObjective",
    "CEUCBObjective",
    "FiniteETCObjective",
    "FiniteCEUCBObjective",
    "Decision",
    "etc_objective",
    "rs_ucb_objective",
    "ce_ucb_objective",
    "etc_objective_finite",
    "ce_ucb_objective_finite",
    "values",
    "points_of",
    "lex_blocks",
    "upper_bound",
    "argmax",
    "second_best",
]
