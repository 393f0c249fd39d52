"""One error type for bad arguments: :class:`rsb_theory.errors.ArgumentError` carries the argument's name.

The API raises it with the parameter's name (``.name``), ``str()`` is the one line a user reads
(``argument '<name>': <message>``), and the command line maps the name to its flag through the command's
table (``LIBRARY_FLAGS``), never by reading the message.
"""

from __future__ import annotations

import ast
import pathlib
import pickle
import warnings

import pytest

from rsb_theory.errors import ArgumentError, ArgumentTypeError

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("rsb_theory", "rsb_sim", "proofs_checks")


def test_str_is_the_one_line_and_name_and_message_are_kept():
    exc = ArgumentError("radius_scale", "need a number > 0, got -1")
    assert str(exc) == "argument 'radius_scale': need a number > 0, got -1"
    assert (exc.name, exc.message) == ("radius_scale", "need a number > 0, got -1")
    assert isinstance(exc, ValueError)
    assert isinstance(ArgumentTypeError("x", "a list is not a number"), TypeError)


def _subclasses():
    from proofs_checks.cli.errors import UsageError
    from rsb_sim.arm_laws import QuantizeError
    from rsb_theory.distortions import DistortionError
    from rsb_theory.expressions import ExpressionError
    from rsb_theory.holder import HolderError
    from rsb_theory.laws.spec import LawError
    from rsb_theory.oracle.dcp import NotDCPError

    return [ExpressionError, DistortionError, LawError, HolderError, NotDCPError, QuantizeError, UsageError]


def test_the_argument_error_classes_share_the_one_base_and_survive_pickling():
    for cls in [ArgumentError, ArgumentTypeError, *_subclasses()]:
        assert issubclass(cls, ArgumentError), cls
        exc = cls("h", "not a distortion function")
        back = pickle.loads(pickle.dumps(exc))  # workers send errors back to the parent process
        assert type(back) is cls and (back.name, back.message, str(back)) == ("h", exc.message, str(exc))


def _api_cases():
    from proofs_checks import api
    from rsb_sim.config import SimConfig
    from rsb_sim.instances import BernoulliInstance
    from rsb_theory.distortions import get
    from rsb_theory.grids import Grid
    from rsb_theory.holder import holder

    return {
        "T": lambda: api.simulate("gini", "uniform", [0.4, 0.9], T=True),
        "algo": lambda: api.simulate("gini", "rs-ucb", [0.4, 0.9], T=100),
        "rho": lambda: api.simulate("gini", "rs-ucb-m", [0.4, 0.9], T=100, rho=0.1j),
        "max_work": lambda: api.simulate("gini", "uniform", [0.4, 0.9], T=100, trials=10**12),
        "probs": lambda: api.optimum("gini", probs=[[0.5, 0.5], [0.2, 0.8]]),
        "h": lambda: api.distortion("u**2 + 1"),
        "status": lambda: api.ledger(status="fine"),
        "p": lambda: holder(get("gini"), (0.9, 2)),
        "p ": lambda: BernoulliInstance([0.4]),
        "eps": lambda: Grid(2, 0, "etc"),
        "trials": lambda: SimConfig(T=10, trials=0),
    }


@pytest.mark.parametrize("name", list(_api_cases()))
def test_api_entry_points_raise_an_argument_error_with_its_name(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ArgumentError) as info:
            _api_cases()[name]()
    assert info.value.name == name.strip(), str(info.value)
    assert str(info.value) == f"argument '{name.strip()}': {info.value.message}"


def test_the_command_line_maps_the_name_through_its_table_not_the_message():
    from proofs_checks.cli.errors import usage_error

    flags = {"h": "--dr", "n_boot": "--bootstrap"}
    assert str(usage_error(ArgumentError("h", "bad"), flags)) == "argument '--dr': bad"
    assert str(usage_error(ArgumentError("n_boot", "bad"), flags)) == "argument '--bootstrap': bad"
    assert str(usage_error(ArgumentError("radius_scale", "bad\nreally"), flags)) == "argument '--radius-scale': bad; really"
    # a plain ValueError is shown as it is: the words of a message are never read for a name
    assert str(usage_error(ValueError("argument 'h': bad"), flags)) == "argument 'h': bad"


def test_the_error_mapping_of_the_command_line_uses_no_regular_expression():
    tree = ast.parse((ROOT / "proofs_checks" / "cli" / "errors.py").read_text())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                for a in n.names} | {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "re" not in imported and "regex" not in imported
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
             and n.value.id == "re"]
    assert not calls


def _starts_with_argument(node) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.startswith("argument '")
    if isinstance(node, ast.JoinedStr) and node.values:
        return _starts_with_argument(node.values[0])
    return False


def test_no_bad_argument_is_raised_as_a_plain_value_or_type_error():
    """Every ``raise X("argument '...': ...")`` of the packages is an ArgumentError with the name apart."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, (ast.Raise, ast.Return)) and isinstance(getattr(node, "exc", None) or
                                                                           getattr(node, "value", None), ast.Call):
                    call = node.exc if isinstance(node, ast.Raise) else node.value
                    if call.args and _starts_with_argument(call.args[0]):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, found


@pytest.mark.parametrize("argv, flag", [
    (["optimize", "--dr", "u**2 + 1", "--p", "0.4,0.9"], "--dr"),
    (["derive", "--h", "u**2 + 1"], "--h"),
    (["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "40", "--trials", "2",
      "--rho", "-1"], "--rho"),
])
def test_a_library_refusal_names_the_flag_in_one_line(capsys, argv, flag):
    from proofs_checks.cli import main

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert f"error: argument '{flag}': " in err, err
