"""Arm laws beyond Bernoulli: finite, empirical and continuous (scipy.stats), and their values.

The modules (``docs/arms.md`` is the user's page):

* :mod:`.names` -- the vocabulary of ``--arms`` (scipy's continuous laws and their parameters); light;
* :mod:`.spec` -- ``"SPEC;SPEC;..."`` read into :class:`~.spec.ArmSpec` (the one expression
  parser for every number); light, so a command line can refuse bad input before importing SciPy;
* :mod:`.law` -- the laws (``kind``, ``support``, ``mean``, ``cdf``, ``sf``, ``ppf``, ``draw``, atoms
  and masses) and the rule that turns a uniform of the reward table into a reward;
* :mod:`.empirical` -- a column of a CSV file;
* :mod:`.digest` -- the SHA-256 of the files an ``--arms`` text reads (for the keys of stored results); light;
* :mod:`.build` -- specifications -> laws (:func:`parse_arms`), with SciPy's checks and the
  bounded, non-negative support of ``sec:setting``;
* :mod:`.quadrature` -- adaptive Gauss–Kronrod with nodes and weights;
* :mod:`.values` -- U_h of a law, V(alpha) of a mixture (``eq:V``), W1; exact for discrete laws;
* :mod:`.rule` -- V(alpha) as a finite sum over quadrature nodes (for the oracle's solvers).

alpha* and W for these laws are in :mod:`rsb_theory.oracle` (:func:`~rsb_theory.oracle.optimal_mixture_laws`,
:func:`~rsb_theory.oracle.W_laws`).

Importing this package imports nothing heavy; the names below are loaded from their
modules on first use (``from rsb_theory.laws import parse_arms``).
"""

from __future__ import annotations

import importlib

#: name -> the module of this package that defines it (loaded on first access).
_EXPORTS = {
    "ArmSpec": "spec", "LawError": "spec", "parse_specs": "spec",
    "Law": "law", "FiniteLaw": "law", "BernoulliLaw": "law", "EmpiricalLaw": "law", "ContinuousLaw": "law",
    "empirical_law": "law", "KINDS": "law",
    "parse_arms": "build", "build_laws": "build", "continuous_law": "build", "finite_law": "build",
    "bernoulli_law": "build", "finite_laws": "build", "bernoulli_laws": "build",
    "value": "values", "arm_values": "values", "mixture_value": "values", "mixture_integral": "values",
    "wasserstein1": "values", "union_support": "values", "all_discrete": "values",
    "step_form": "rule", "file_digests": "digest",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
