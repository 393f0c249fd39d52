"""The Python API refuses an argument of the wrong type with a ``ValueError`` naming it, never a ``TypeError`` or
``AttributeError`` from inside (``docs/safety.md``, "Input")."""

from __future__ import annotations

import pytest

from proofs_checks import api


@pytest.mark.parametrize("call, name", [
    (lambda: api.simulate("gini", "ce-ucb-m", arms=["beta(2,5)", None], T=100), "arms"),
    (lambda: api.optimum("gini", arms=[object(), object()]), "arms"),
    (lambda: api.optimum("gini", arms=[]), "arms"),
    (lambda: api.simulate("pht", "rs-ucb-m", [0.4, 0.9], T=100, params=[("s", 0.5)]), "params"),
    (lambda: api.profile("pht", params="s=0.5"), "params"),
    (lambda: api.compare("gini", ["rs-etc-m", "uniform"], [0.4, 0.9], Ts=100), "Ts"),
    (lambda: api.ledger(id=5), "id"),
    (lambda: api.findings(entries=5), "entries"),
])
def test_wrong_type_names_argument(call, name):
    with pytest.raises(ValueError, match=f"argument '{name}'"):
        call()


def test_arms_as_a_sequence_of_specs():
    one = api.optimum("gini", arms="beta(2,5);beta(5,2)").to_dict()
    assert api.optimum("gini", arms=["beta(2,5)", "beta(5,2)"]).to_dict() == one


def test_horizons_as_text_are_split_at_commas():
    assert api.compare("gini", ["rs-etc-m", "uniform"], [0.4, 0.9], Ts="100,200", trials=2).Ts == [100, 200]


@pytest.mark.parametrize("params, name", [({"s": -1}, "s"), ({"s": float("nan")}, "s"), ({"t": 1}, "params")])
def test_parameters_of_h_named_as_keywords(params, name):
    """The library names the command line's ``--param s``; the API names the keyword it was given."""
    with pytest.raises(ValueError, match=f"^argument '{name}'") as info:
        api.distortion("pht", **params)
    assert "--param" not in str(info.value)
