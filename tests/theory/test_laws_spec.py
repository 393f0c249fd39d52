"""``--arms`` read into laws: the grammar, the scipy vocabulary, every error as one line naming the arm."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

from rsb_theory.laws import (BernoulliLaw, ContinuousLaw, EmpiricalLaw, FiniteLaw, LawError, parse_arms)
from rsb_theory.laws.build import bernoulli_laws, continuous_law, finite_law, finite_laws
from rsb_theory.laws.names import CONTINUOUS, SPECIAL, parameter_names


def test_the_vocabulary_is_scipys():
    """Every continuous law of the installed SciPy, with its shape parameters in scipy's order."""
    scipy_laws = {n: getattr(stats, n) for n in dir(stats) if isinstance(getattr(stats, n), stats.rv_continuous)}
    assert set(CONTINUOUS) == set(scipy_laws)
    for name, dist in scipy_laws.items():
        shapes = tuple(s.strip() for s in dist.shapes.split(",")) if dist.shapes else ()
        assert CONTINUOUS[name] == shapes, name
    assert not set(SPECIAL) & set(CONTINUOUS)


def test_the_issue_examples():
    laws = parse_arms("beta(2,5); uniform(0.3,0.1); truncnorm(-2,2,0.1,0.05); triang(0.5,0,1); bernoulli(0.4); "
                      "finite(0:0.2, 0.5:0.3, 1:0.5)")
    kinds = [law.kind for law in laws]
    assert kinds == ["continuous"] * 4 + ["bernoulli", "finite"]
    assert laws[1].support == pytest.approx((0.3, 0.4))  # uniform(loc, scale) is uniform on [loc, loc + scale]
    assert laws[2].support == pytest.approx((0.0, 0.2))  # truncnorm(a, b, loc, scale): [loc + a scale, loc + b scale]
    assert laws[0].mean == pytest.approx(2 / 7)
    assert laws[3].kinks == (0.5,)
    assert isinstance(laws[4], BernoulliLaw) and laws[4].p == 0.4 and laws[4].atoms == (0.0, 1.0)
    assert isinstance(laws[5], FiniteLaw) and laws[5].masses == (0.2, 0.3, 0.5)


def test_numbers_are_expressions_of_the_one_parser():
    laws = parse_arms("beta(1 + 1, 10/2); bernoulli(1/3); finite(0:1/3, sqrt(4)/4:2/3); uniform(0, 2^-1)")
    assert laws[0].args == (2.0, 5.0)
    assert laws[1].p == pytest.approx(1 / 3)
    assert laws[2].atoms == (0.0, 0.5)
    assert laws[3].support == pytest.approx((0.0, 0.5))


def test_finite_atoms_are_sorted_with_their_masses():
    (law, _) = parse_arms("finite(1:0.5, 0:0.2, 0.5:0.3); bernoulli(0.5)")
    assert law.atoms == (0.0, 0.5, 1.0) and law.masses == (0.2, 0.3, 0.5)


def test_support_and_probs_of_today_become_finite_laws():
    laws = finite_laws([0.0, 0.5, 1.0], [[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
    assert [law.masses for law in laws] == [(0.2, 0.3, 0.5), (1.0, 0.0, 0.0)]
    assert [law.p for law in bernoulli_laws([0.3, 0.8])] == [0.3, 0.8]
    with pytest.raises(LawError, match=r"^argument '--probs': row 2 \(arm 2\): the masses sum to 0\.9"):
        finite_laws([0.0, 1.0], [[0.5, 0.5], [0.4, 0.5]])


# ---------------------------------------------------------------------------
# errors: one line, the flag, the arm numbered from 1, the parameter
# ---------------------------------------------------------------------------

BAD = [
    ("betta(2,5); beta(1,1)", r"arm 1 \(betta\(2,5\)\): unknown law 'betta'; did you mean beta\?"),
    ("beta(1,1); foo(1)", r"arm 2 \(foo\(1\)\): unknown law 'foo'"),
    ("beta(2); beta(1,1)", r"arm 1 .*beta takes 2 to 4 parameters \(a, b, loc, scale\), got 1"),
    ("beta(2,5,0,1,9); beta(1,1)", r"arm 1 .*got 5"),
    ("beta(1,1); beta(2,-1)", r"arm 2 \(beta\(2,-1\)\): scipy.stats.beta refuses parameter b = -1"),
    ("beta(1,1); beta(2,5,0,-1)", r"arm 2 .*refuses parameter scale = -1"),
    ("beta(1,1); triang(1.5)", r"arm 2 .*refuses parameter c = 1.5"),
    ("beta(1,1); beta(2,x)", r"arm 2 .*parameter b: unknown name 'x'"),
    ("beta(1,1); beta(2,1/0)", r"arm 2 .*parameter b: division by zero"),
    ("bernoulli(1.5); beta(1,1)", r"arm 1 .*parameter p: need 0 <= value <= 1"),
    ("bernoulli(0.1, 0.2); beta(1,1)", r"arm 1 .*bernoulli takes one parameter p, got 2"),
    ("norm(0.5, 0.1); beta(1,1)", r"arm 1 .*unbounded support .*truncnorm"),
    ("beta(1,1); expon()", r"arm 2 .*unbounded support \[0, inf\].*truncnorm"),
    ("beta(1,1); uniform(-0.1, 1)", r"arm 2 .*reaches below 0.*truncnorm"),
    ("beta(1,1); semicircular()", r"arm 2 .*reaches below 0"),
    ("finite(0:0.2, 1:0.7); beta(1,1)", r"arm 1 .*the masses sum to 0.9, not 1"),
    ("finite(0:0.2, 0:0.8); beta(1,1)", r"arm 1 .*atoms 1 and 2 are both 0"),
    ("finite(-1:0.2, 0:0.8); beta(1,1)", r"arm 1 .*atom 1: need 0 <= value"),
    ("finite(0:1.2, 1:-0.2); beta(1,1)", r"arm 1 .*mass of atom 1: need 0 <= value <= 1"),
    ("finite(0.5); beta(1,1)", r"arm 1 .*atom 1 '0.5' is not of the form x:p"),
    ("finite(); beta(1,1)", r"arm 1 .*finite needs at least one atom"),
    ("beta(1,1); empirical(x.csv)", r"arm 2 .*expected empirical\(FILE:COLUMN\)"),
    ("beta(1,1); beta", r"arm 2 \(beta\): expected NAME\(PARAMETERS\)"),
    ("beta(1,1);; beta(1,1)", r"arm 2 is empty"),
    ("beta(1,1); beta((1,1)", r"arm 2 .*unbalanced parentheses"),
    ("beta(2,5)", r"need at least 2 arms separated by ';', got 1"),
    ("", r"arm 1 is empty"),
]


@pytest.mark.parametrize("text, pattern", BAD, ids=[t for t, _ in BAD])
def test_bad_arms_are_one_line_naming_the_arm(text, pattern):
    with pytest.raises(LawError) as info:
        parse_arms(text)
    message = str(info.value)
    assert message.startswith("argument '--arms': ")
    assert "\n" not in message
    assert re.search(pattern, message), message


@pytest.mark.parametrize("text", [
    "beta(__import__('os').system('echo PWNED'), 1); beta(1,1)",
    "beta((1).__class__, 1); beta(1,1)",
    "beta([1][0], 1); beta(1,1)",
    "beta(lambda: 1, 1); beta(1,1)",
    "beta(9**9**9, 1); beta(1,1)",
    "bernoulli(open('x')); beta(1,1)",
    "finite(eval('1'):1); beta(1,1)",
    "__import__('os')(1); beta(1,1)",
    "rv_continuous(1); beta(1,1)",
    "_distn_names(1); beta(1,1)",
])
def test_code_is_never_run(text):
    with pytest.raises(LawError, match=r"^argument '--arms': arm 1"):
        parse_arms(text)


def test_the_flag_is_the_callers():
    with pytest.raises(LawError, match=r"^argument '--arms2': arm 1"):
        parse_arms("foo(1); beta(1,1)", flag="--arms2")


def test_reading_the_text_imports_nothing_heavy():
    code = ("import sys\nfrom rsb_theory.laws import parse_specs, LawError\n"
            "specs = parse_specs('beta(2,5); bernoulli(0.3); finite(0:0.5, 1:0.5); empirical(x.csv:r)')\n"
            "try:\n    parse_specs('norma(1); beta(1,1)')\nexcept LawError:\n    pass\n"
            "print(sorted(m for m in ('numpy', 'scipy', 'sympy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_every_listed_law_is_gated_by_the_list(monkeypatch):
    """continuous_law fetches from scipy.stats only names of the list."""
    with pytest.raises(LawError, match="unknown law 'rv_continuous'"):
        continuous_law("rv_continuous", ())
    with pytest.raises(LawError, match="unknown law '__dict__'"):
        continuous_law("__dict__", ())


@pytest.mark.parametrize("name", sorted(CONTINUOUS))
def test_every_scipy_law_builds_or_is_refused_in_one_line(name):
    """With shapes 1.5 (some laws need other values: then SciPy's refusal is named), loc 0, scale 1."""
    args = (1.5,) * len(CONTINUOUS[name])
    try:
        law = continuous_law(name, args)
    except LawError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith("argument '--arms': arm 1: ")
        assert ("unbounded support" in message or "below 0" in message or "refuses" in message), message
        return
    lo, hi = law.support
    assert 0 <= lo <= hi < np.inf
    assert parameter_names(name)[: len(args)] == CONTINUOUS[name]


# ---------------------------------------------------------------------------
# empirical(FILE:COLUMN)
# ---------------------------------------------------------------------------


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "returns.csv"
    path.write_text("date, r ,other\n2024-01-01,0.5,1\n2024-01-02,0.25,\n2024-01-03,,2\n2024-01-04,0.5,3\n",
                    encoding="utf-8")
    return path


def test_empirical_by_name_and_by_index(csv_file):
    by_name, by_index = parse_arms(f"empirical({csv_file}:r); empirical({csv_file}:2)")
    assert isinstance(by_name, EmpiricalLaw) and by_name.kind == "empirical"
    assert by_name.atoms == (0.25, 0.5) and by_name.masses == (1 / 3, 2 / 3) and by_name.n == 3
    assert by_index == by_name or (by_index.atoms, by_index.masses) == (by_name.atoms, by_name.masses)
    other = parse_arms(f"empirical({csv_file}:other); bernoulli(0.5)")[0]
    assert other.atoms == (1.0, 2.0, 3.0)  # the blank cell of row 3 is skipped


def test_a_header_name_wins_over_an_index(tmp_path):
    path = tmp_path / "odd.csv"
    path.write_text("2,x\n7,1\n", encoding="utf-8")
    (law, _) = parse_arms(f"empirical({path}:2); bernoulli(0.5)")
    assert law.atoms == (7.0,)


def test_a_byte_order_mark_is_skipped(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes("r\n0.5\n".encode("utf-8-sig"))
    assert parse_arms(f"empirical({path}:r); bernoulli(0.5)")[0].atoms == (0.5,)


@pytest.mark.parametrize("content, column, pattern", [
    (None, "r", r"no such file"),
    ("", "r", r"is empty \(expected a header row"),
    ("a,b\n1,2\n", "r", r"has no column 'r'; columns: 'a', 'b' \(or a 1-based index 1\.\.2\)"),
    ("a,b\n1,2\n", "3", r"has no column '3'"),
    ("a,a\n1,2\n", "a", r"has 2 columns named 'a'"),
    ("r\n0.5\nabc\n", "r", r"row 3, column 'r': 'abc' is not a number"),
    ("r\n0.5\nnan\n", "r", r"row 3, column 'r': 'nan' is not finite"),
    ("r\n0.5\n-0.1\n", "r", r"row 3, column 'r': '-0.1' is negative.*shift"),
    ("r\n\n \n", "r", r"column 'r' of .* has no values"),
    ("r\n", "r", r"column 'r' of .* has no values"),
])
def test_bad_files_are_one_line_naming_the_arm(tmp_path, content, column, pattern):
    path = tmp_path / "data.csv"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(LawError) as info:
        parse_arms(f"bernoulli(0.5); empirical({path}:{column})")
    message = str(info.value)
    assert message.startswith(f"argument '--arms': arm 2 (empirical({path}:{column})): ")
    assert "\n" not in message and re.search(pattern, message), message


def test_a_directory_and_binary_data_are_refused(tmp_path):
    with pytest.raises(LawError, match="is a directory"):
        parse_arms(f"bernoulli(0.5); empirical({tmp_path}:r)")
    path = tmp_path / "bin.csv"
    path.write_bytes(b"r\n\xff\xfe\n")
    with pytest.raises(LawError, match="not UTF-8"):
        parse_arms(f"bernoulli(0.5); empirical({path}:r)")


def test_a_path_with_colons_and_semicolons(tmp_path):
    folder = tmp_path / "a:b;c"
    folder.mkdir()
    path = folder / "x.csv"
    path.write_text("r\n1\n", encoding="utf-8")
    (law, _) = parse_arms(f"empirical({path}:r); bernoulli(0.5)")
    assert law.atoms == (1.0,) and law.source == f"{path}:r"


def test_finite_law_validation_names_the_arm():
    with pytest.raises(LawError, match=r"^argument '--arms': arm 3: atom -1 is negative"):
        finite_law([-1, 0], [0.5, 0.5], where="arm 3")
    assert isinstance(continuous_law("uniform", (0.2, 0.5)), ContinuousLaw)
