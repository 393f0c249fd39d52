"""Counts are read exactly: a float holds 53 bits, so a count in digits must not pass through one.

``--seed 9007199254740993`` (2^53 + 1) ran seed 2^53, and ``--seed 4611686018427387903`` (2^62 - 1,
within the largest count) became 2^62; an integer beyond the floats' range (``seed=10**400`` in the
API) raised ``OverflowError`` instead of the ``ValueError`` naming the argument (``docs/safety.md``,
"Input").
"""

from __future__ import annotations

import pytest

from rsb_theory import arguments
from rsb_theory import expressions as ex


@pytest.mark.parametrize("n", [2**53 + 1, 2**62 - 1, 2**62, 10**17 + 3])
def test_count_in_digits_is_exact(n):
    assert ex.parse_count(str(n), "--seed", minimum=0) == n
    assert ex.parse_count(f" {n} ", "--seed", minimum=0) == n
    assert arguments.count(n, "seed", 0) == n
    assert arguments.count(str(n), "seed", 0) == n


def test_count_expressions_still_evaluate():
    assert ex.parse_count("1e18", "--T") == 10**18
    assert ex.parse_count("3*10^5", "--T") == 300000
    with pytest.raises(ValueError, match="argument '--T'"):
        ex.parse_count("3.5", "--T")


@pytest.mark.parametrize("n", [10**400, -(10**400), ex.MAX_COUNT + 1])
def test_count_beyond_range_names_argument(n):
    with pytest.raises(ValueError, match="argument 'seed'") as info:
        arguments.count(n, "seed", 0)
    assert len(str(info.value)) < 200
    with pytest.raises(ValueError, match="argument '--seed'"):
        ex.parse_count(str(n), "--seed", minimum=0)
