"""rsb_theory.rates.chains: the theorems' constants assembled from their proofs' steps."""

import sympy as sp

from rsb_theory.rates import chains
from rsb_theory.rates.symbols import B, K, L, T, W, eps, q, rho


def test_ucb_leading_coefficients():
    for qv in (1, sp.Rational(1, 2), sp.Rational(1, 4)):
        rs = chains.ucb_discrete_chain("proof:UCB upper bound")
        ce = chains.ucb_discrete_chain("Appendix:CE-UCB-M_algorithm")
        assert sp.simplify(chains.leading_coefficient(rs.total.subs(q, qv), rs.unit.subs(q, qv)) - K * L) == 0
        assert sp.simplify(chains.leading_coefficient(ce.total.subs(q, qv), ce.unit.subs(q, qv)) - 2 * K * L) == 0


def test_ucb_chain_terms_are_the_steps():
    rs = chains.ucb_discrete_chain("proof:UCB upper bound")
    # eq:A21 equals L K (64/sqrt(rho eps))^q T^(1 - q/2) S^q / T, the B_3 of eq:theorem_lastline's display
    b3 = L * K * (64 / sp.sqrt(rho * eps)) ** q * T ** (1 - q / 2) * chains.S ** q / T
    ratio = sp.powsimp(sp.expand_power_base(rs.terms["B_21"] / b3, force=True), force=True)
    assert sp.simplify(ratio) == 1
    try:
        chains.ucb_discrete_chain("proof:ETC upper bound")
    except ValueError as err:
        assert "argument 'proof'" in str(err)
    else:  # pragma: no cover
        raise AssertionError("no error")


def test_etc_miss_probability():
    E = eps ** (1 - K)
    assert sp.simplify(chains.etc_miss_probability(True) - chains.delta * (chains.G + 1) / (E + 1)) == 0
    assert sp.simplify(chains.etc_miss_probability(False) * chains.delta - (chains.G + 1) / (E + 1)) == 0
    total = chains.etc_discrete_chain(True).total
    assert total.has(B) and total.has(W) and total.has(T)


def test_leading_coefficient_refuses_a_faster_term():
    try:
        chains.leading_coefficient(T * L, chains.rate_unit(64).subs(q, 1))
    except ValueError as err:
        assert "grows faster" in str(err)
    else:  # pragma: no cover
        raise AssertionError("no error")
