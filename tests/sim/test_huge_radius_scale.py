"""A huge but finite ``radius_scale`` runs (every law is in every confidence set), never ``OverflowError``.

``rsb simulate --algo rs-ucb-m --radius-scale 1e154`` squared the radius constant with ``** 2``, which
raises ``OverflowError`` in Python where a product gives ``inf``; the command printed a traceback.
"""

from __future__ import annotations

import math

import pytest

from proofs_checks import api


@pytest.mark.parametrize("algo", ["rs-ucb-m", "ce-ucb-m", "dr-ucb"])
@pytest.mark.parametrize("scale", [1e154, 1e300, 1e308])
def test_huge_radius_scale_runs(algo, scale):
    res = api.simulate("gini", algo, [0.4, 0.9], T=60, trials=2, radius_scale=scale)
    assert all(math.isfinite(r) for r in res.regrets)
