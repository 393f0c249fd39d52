"""The comparative sentences of sec:analysis and of the Discussion after eq:UCB_alpha2, judged on rsb's rates."""

import pytest

from proofs_checks import paper_claims
from proofs_checks.checks import analysis_comparisons as ac
from proofs_checks.registry import claims, evaluate


@pytest.mark.parametrize("ident, status, phrase", [
    ("eq:UCB_alpha2#discussion.instance_parameters", "verified", "RS-ETC-M: Delta_min, RS-UCB-M: none"),
    ("eq:UCB_alpha2#discussion.neither_dominates", "verified", "RS-UCB-M better on some row: True"),
    ("eq:UCB_alpha2#discussion.solitary", "verified", "pht: RS-ETC-M"),
    ("eq:UCB_alpha2#discussion.mixture_depends", "verified", "RS-UCB-M for gini"),
    ("sec:analysis#text.instance_parameters", "verified", "faster discrete regret: RS-ETC-M"),
    ("sec:analysis#text.weaker_discrete", "verified", "faster discrete regret: RS-ETC-M"),
    ("sec:analysis#text.gini_orderwise", "refuted", "beta in no value"),
])
def test_comparisons_and_their_mutants(ident, status, phrase):
    res = evaluate(claims()[ident], mutants=True)
    assert res.status == status, res.evidence
    assert phrase in res.derived + res.evidence
    assert res.mutant_caught


def test_every_comparison_is_registered_once():
    ids = [c.id for c in paper_claims.COMPARISONS]
    assert len(ids) == len(set(ids)) and set(ids) == set(ac.CLAIMS)
    assert all(i.startswith(("sec:analysis#text.", "eq:UCB_alpha2#discussion.")) for i in ids)


def test_solitary_rows_compare_the_table_cells():
    """Route 1: the winner from table_rates' varpi exponents; route 2: the T-decays of the two cells read directly
    (varpi(T)^e = (log T/T)^(e/2))."""
    from proofs_checks import derived
    from rsb_theory import rates

    for key in ac._rows(True):
        e, u, _ = ac.row_winners(key)
        prof = derived.profile(key)
        tr = rates.table_rates(prof.q, prof.r, prof.beta.value, True)
        assert (e == ac.ALL_BETA) == (tr.etc_exponent / 2 > tr.ucb_exponent / 2)
