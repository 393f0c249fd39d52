"""A law whose SciPy code holds arrays as long as a parameter (``irwinhall(n)``) is refused above a stated size.

``rsb optimize --arms "beta(2,5);irwinhall(10**9)"`` asked NumPy for 7.45 GiB (a ``MemoryError`` traceback under a
3 GB limit, the machine's memory without it); the budget promises a refusal before allocating.
"""

from __future__ import annotations

import pytest

from rsb_theory.laws import parse_arms
from rsb_theory.laws.build import ARRAY_SHAPES


@pytest.mark.parametrize("n", ["10**9", "1e300", str(ARRAY_SHAPES["irwinhall"] + 1)])
def test_irwinhall_above_its_size_refused(n):
    with pytest.raises(ValueError, match=r"argument '--arms': arm 2 .*irwinhall\(n\) with n = .* above") as info:
        parse_arms(f"beta(2,5);irwinhall({n})", "--arms")
    assert "\n" not in str(info.value)


def test_irwinhall_within_its_size_accepted():
    laws = parse_arms("beta(2,5);irwinhall(3)", "--arms")
    assert len(laws) == 2
