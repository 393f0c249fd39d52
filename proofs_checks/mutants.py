"""Altering a printed value so that its correct verdict changes (``rsb verify --mutants``).

The check modules build their mutants (:attr:`proofs_checks.claims.Claim.mutants`)
from the shapes below; which one applies follows the status of the printed
claim (:mod:`proofs_checks.verdict`):

* verified or loose -> a *stronger* value (:func:`stronger`): an exponent
  raised by 1/2, a constant or an upper bound halved; the check must now find
  it false;
* loose or refuted -> the *derived* value, which the check must accept;
* conditional -> the missing condition added (:meth:`Claim.assuming`);
* vacuous -> a horizon or setting where the bound is informative.
"""

from __future__ import annotations

import re

import sympy as sp
from rsb_theory.errors import ArgumentError

#: How much stronger a mutant's value is: exponents + STEP, constants / 2.
STEP = "1/2"


def stronger(text: str, sense: str) -> str:
    """A printed value (text in the toolkit's expression syntax) made strictly stronger.

    ``sense`` as in :func:`proofs_checks.verdict.compare`: ``"larger"`` adds
    :data:`STEP` (an exponent), ``"smaller"`` halves (a constant, an upper
    bound), ``"equal"`` adds :data:`STEP` (any other value of a defined quantity).
    """
    term = text if re.fullmatch(r"[\w.]+", text) else f"({text})"
    if sense == "smaller":
        return f"{term}/2"
    if sense in ("larger", "equal"):
        return f"{term} + {STEP}"
    raise ArgumentError("sense", f"{sense!r} is not larger, smaller or equal")


def as_text(value) -> str:
    """A derived SymPy value as printed text (``1/2``, ``s + 1``) that the expression parser reads back."""
    return str(sp.sympify(value)).replace(" ", "")
