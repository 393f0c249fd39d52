"""``proofs_checks.api.optimum(eps=...)`` goes through the shared validator and ``rsb optimize``'s estimates.

``eps=5e-324`` raised ``OverflowError: cannot convert float infinity to integer``, ``eps=1e-300``
``OverflowError: Python int too large to convert to C long`` and ``eps="1/0"`` a ``ValueError`` naming nothing,
where the command line names ``--eps`` (``docs/safety.md``, "Input").
"""

from __future__ import annotations

import pytest

from proofs_checks import api


@pytest.mark.parametrize("eps", [5e-324, 1e-320, 1e-300, "1/0", float("nan"), float("inf"), 0.0, -0.0, 2, True])
def test_bad_eps_names_eps(eps):
    with pytest.raises(ValueError, match="argument 'eps'"):
        api.optimum("gini", [0.4, 0.9], eps=eps)


def test_eps_as_text_or_number_gives_the_same_optimum():
    assert api.optimum("gini", [0.4, 0.9], eps="1/10").to_dict() == api.optimum("gini", [0.4, 0.9], eps=0.1).to_dict()
