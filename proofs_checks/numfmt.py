"""Numbers as the ledger prints them: exact where they are exact, and never at the resolution of rounding noise.

The same input gives the same ledger on any machine.  A floating-point value differs between machines
in its last bits (another order of summation in a BLAS or in numpy's vector loops, another library version), so
evidence prints

* exact numbers (integers, fractions, SymPy rationals and surds) exactly;
* a measured float with at most :data:`MAX_DIGITS` significant digits — far above the ~16 digits where machines
  differ;
* a residual — a difference of two routes, the excess of one side of an inequality over the other, a gap
  that is zero up to rounding — through :func:`resid`: below :data:`NOISE` in magnitude it prints as
  :data:`ROUNDING`, never as the noise itself.  A value that is genuinely small (a probability bound of
  1e-163) is not a residual and prints as it is.

Every check formats its numbers through :func:`num` and :func:`resid` (``proofs_checks/checks/_steps.py``'s
``fmt`` is :func:`num`); ``tests/checks/test_ledger.py`` keeps format specifications out of the checks' sources.
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral, Real
from rsb_theory.errors import ArgumentError, ArgumentTypeError

#: Below this magnitude a float is rounding noise (the quantities the checks compare are of order 1 to 1e6, so
#: their rounding errors are below 1e-12 by orders of magnitude, and every tolerance of a decision is above it).
NOISE = 1e-12
#: What a float below :data:`NOISE` prints as.
ROUNDING = "0 within rounding (< 1e-12)"
#: The most significant digits a float is printed with.
MAX_DIGITS = 6


def num(x, digits: int = 4, style: str = "g", *, floor: float = 0.0) -> str:
    """``x`` as evidence text.

    Parameters
    ----------
    x : int, float, fractions.Fraction, numpy scalar or sympy number
    digits : int
        Significant digits (``style="g"``, at most :data:`MAX_DIGITS`) or decimals (``style="f"``, at most
        :data:`MAX_DIGITS`) of a float; exact numbers are printed exactly.
    style : {"g", "f"}
    floor : float
        A float of smaller magnitude prints as :data:`ROUNDING` (0, the default: any magnitude prints;
        :func:`resid` uses :data:`NOISE`).

    Returns
    -------
    str
    """
    if style not in ("g", "f"):
        raise ArgumentError("style", f"{style!r} is not 'g' or 'f'")
    if not 0 <= digits <= MAX_DIGITS:
        raise ArgumentError("digits", f"{digits} is not in [0, {MAX_DIGITS}] (more digits print rounding noise)")
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, (Integral, Fraction)):
        return str(x)
    exact = _exact_sympy(x)
    if exact is not None:
        return exact
    v = float(x) if isinstance(x, Real) or hasattr(x, "__float__") else None
    if v is None:
        raise ArgumentTypeError("x", f"{type(x).__name__} is not a number")
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "oo" if v > 0 else "-oo"
    if abs(v) < floor:
        return ROUNDING
    return f"{v:.{digits}f}" if style == "f" else f"{v:.{max(digits, 1)}g}"


def resid(x, digits: int = 2) -> str:
    """A residual (a difference that is zero up to rounding when the claim is exact) as evidence text:
    :data:`ROUNDING` below :data:`NOISE`, else ``digits`` significant digits (:func:`num`)."""
    return num(x, digits, floor=NOISE)


def _exact_sympy(x) -> str | None:
    """The text of an exact SymPy number (None for anything else); SymPy is imported only if x is one."""
    mod = type(x).__module__
    if not mod.startswith("sympy"):
        return None
    import sympy  # only reached for a SymPy object, so SymPy is already imported

    if getattr(x, "is_number", False) and not x.atoms(sympy.Float):
        return str(x)
    return None
