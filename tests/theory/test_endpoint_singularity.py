"""An integrable singularity of h at u = 1 on continuous arms: few nodes, and the value of an independent route.

h = u**0.3 * (1-u)**0.2 on beta arms: h(S_alpha(x)) has a root of F_alpha(x) = 1 - S_alpha(x) at the lower end
of the support.  With 1 - S_alpha computed as 1 minus a float near 1 the integrand was noise there (beta(5, 2)
at x = 1e-3: one digit), the adaptive rule never met its tolerance and grew to 274 680 nodes, and
``rsb optimize`` allocated 16 GiB; 1 - S_alpha from the CDFs (``rsb_theory.laws.values.complement``) needs a
few hundred.  The independent route is mpmath's tanh-sinh quadrature of the same integral with mpmath's own
regularised incomplete beta function at 20 digits.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from rsb_theory.distortions import resolve
from rsb_theory.laws import parse_arms
from rsb_theory.laws.rule import step_form
from rsb_theory.laws.values import mixture_integral

H = "u**0.3*(1-u)**0.2"
ARMS = "beta(2,5);beta(5,2);beta(2,2)"
PARAMS = ((2, 5), (5, 2), (2, 2))


def _reference(alpha) -> float:
    """int_0^1 h(S_alpha(x)) dx by mpmath (tanh-sinh, 20 digits), S_i and F_i from mpmath's betainc."""
    with mpmath.workdps(20):
        def f(x):
            F = sum(w * mpmath.betainc(a, b, 0, x, regularized=True) for w, (a, b) in zip(alpha, PARAMS) if w)
            return (1 - F) ** mpmath.mpf("0.3") * F ** mpmath.mpf("0.2")

        return float(mpmath.quad(f, [0, 0.5, 1]))


@pytest.mark.parametrize("alpha", [(0, 1, 0), (0.3933, 0.6067, 0.0), (0.2, 0.3, 0.5)])
def test_two_routes_agree_at_the_singularity(alpha):
    d = resolve(H)
    laws = parse_arms(ARMS, "--arms")
    got = mixture_integral(d, laws, np.array(alpha, dtype=float))
    assert got.converged
    assert got.value == pytest.approx(_reference(alpha), abs=1e-10)


def test_the_rule_needs_few_nodes():
    """A count: the rule of the oracle's solvers meets its tolerance with under 2 000 nodes (it had 274 680)."""
    rule = step_form(resolve(H), parse_arms(ARMS, "--arms"))
    assert rule.converged and rule.nodes.size < 2000


def test_the_rules_nodes_are_in_the_memory_estimate():
    """CVXPY's program has one step per node of the rule: counted before it is built, with the library default too."""
    from rsb_theory import workload
    from rsb_theory.oracle import optimal_mixture_laws

    d, laws = resolve("gini"), parse_arms("beta(2,5);beta(5,2)", "--arms")
    tight = workload.BASE_BYTES + 1024  # the interpreter, and less than the 2 kB per node of two arms
    with pytest.raises(RuntimeError, match=r"the quadrature rule has \d+ nodes"):
        optimal_mixture_laws(d, laws, "cvxpy", max_memory=tight)
    searched = optimal_mixture_laws(d, laws, "auto", max_memory=tight)
    assert searched.method == "search"
    assert searched.value == pytest.approx(optimal_mixture_laws(d, laws, "auto").value, abs=1e-9)
