"""The one validator of argument values, shared by the command line and the Python API.

The command line reads text (``--T 1e5``), the API receives Python values (``T=np.int64(100)``,
``p=[0.4, 0.9]``); both end here, so that a bad value is the same :class:`ArgumentError` (a ``ValueError``)
naming the argument (``.name``; ``str()`` is ``argument 'T': ...``) whichever way it came, never a
``TypeError`` from deep inside NumPy or an ``OverflowError`` (``docs/safety.md``, "Input"):

* :func:`count`: an integer (``int``, a NumPy integer, an integer-valued float, or text read by
  :func:`rsb_theory.expressions.parse_count`) in ``[minimum, MAX_COUNT]``; a bool is not a count.
* :func:`number`: a finite real number (``int``, ``float``, NumPy scalars, or text read by
  :func:`rsb_theory.expressions.parse_number`) in a range; not a bool, not a complex number.
* :func:`probabilities`: a flat sequence of at least two numbers in [0, 1] (Bernoulli means); not a
  single number, not a matrix, not bools (``[True, False]`` is not ``(1.0, 0.0)``).
* :func:`names`: a name or a sequence of names; a comma-separated string is split at the commas
  (``"rs-ucb-m,ce-ucb-m"``), never into characters.
* :func:`closest`: the "did you mean" of an unknown name.

Light: standard library only (NumPy values are recognised by their type's module, not imported).
"""

from __future__ import annotations

import difflib
import math
import numbers
from typing import Iterable, Sequence

from . import expressions as ex
from .errors import ArgumentError

__all__ = ["count", "number", "probabilities", "names", "closest", "is_bool", "ArgumentError"]


def _fail(name: str, message: str) -> ValueError:
    return ex.ExpressionError(name, message)


def is_bool(value) -> bool:
    """True for ``bool`` and NumPy's ``bool_`` (never a number here)."""
    return isinstance(value, bool) or type(value).__name__ in ("bool_", "bool") and type(value).__module__ == "numpy"


def _scalar(value):
    """A NumPy scalar (or 0-d array) as the Python number it stands for; anything else as it is."""
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
        return value.item()
    return value


def count(value, name: str, minimum: int = 1, rounding: str = "exact") -> int:
    """An integer >= ``minimum`` (at most :data:`rsb_theory.expressions.MAX_COUNT`); ValueError naming ``name``."""
    if is_bool(value):
        raise _fail(name, f"need an integer >= {minimum}, got the truth value {value!r}")
    value = _scalar(value)
    if isinstance(value, str):
        return ex.parse_count(value, name, minimum=minimum, rounding=rounding)
    if isinstance(value, numbers.Integral):
        return ex.parse_count(int(value), name, minimum=minimum)
    if isinstance(value, numbers.Real):
        v = float(value)
        if not math.isfinite(v) or v != math.floor(v):
            raise _fail(name, f"need an integer >= {minimum}, got {value!r}")
        if abs(v) > ex.MAX_COUNT:
            raise _fail(name, f"{value!r} is larger than {ex.MAX_COUNT}")
        return ex.parse_count(int(v), name, minimum=minimum)
    raise _fail(name, f"need an integer >= {minimum}, got {type(value).__name__} {_short(value)}")


def number(value, name: str, *, low: float | None = None, high: float | None = None, low_open: bool = False,
           high_open: bool = False) -> float:
    """A finite real number in the range given; ValueError naming ``name``."""
    if is_bool(value):
        raise _fail(name, f"need a number, got the truth value {value!r}")
    value = _scalar(value)
    if isinstance(value, str):
        return ex.parse_number(value, name, low=low, high=high, low_open=low_open, high_open=high_open)
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        raise _fail(name, f"need a real number, got the complex number {value!r}")
    if not isinstance(value, numbers.Real):
        raise _fail(name, f"need a number, got {type(value).__name__} {_short(value)}")
    try:
        v = float(value)
    except OverflowError:
        raise _fail(name, f"{_short(value)} is beyond the range of floating-point numbers") from None
    if not math.isfinite(v):
        raise _fail(name, f"need a finite number, got {v!r}")
    return ex.parse_number(repr(v), name, low=low, high=high, low_open=low_open, high_open=high_open)


def probabilities(value, name: str = "p", minimum: int = 2) -> tuple[float, ...]:
    """At least ``minimum`` numbers in [0, 1], as a flat sequence (Bernoulli means); ValueError naming ``name``."""
    if isinstance(value, str):
        raise _fail(name, f"need a sequence of numbers in [0, 1] (e.g. [0.4, 0.9]), got the text {_short(value)}")
    shape = getattr(value, "shape", None)
    if shape is not None and len(shape) != 1:
        raise _fail(name, f"need a flat sequence of numbers in [0, 1], got an array of shape {tuple(shape)}")
    if not isinstance(value, Iterable) or isinstance(value, (dict, set, frozenset)):
        raise _fail(name, f"need a sequence of at least {minimum} numbers in [0, 1] (e.g. [0.4, 0.9]), got "
                          f"{type(value).__name__} {_short(value)}")
    items = list(value)
    if len(items) < minimum:
        raise _fail(name, f"need at least {minimum} numbers in [0, 1], got {_short(items)}")
    out = []
    for i, x in enumerate(items, 1):
        if not isinstance(x, str) and (hasattr(x, "__len__") or getattr(x, "shape", ()) not in ((), None)):
            raise _fail(name, f"item {i} is not a number (a nested sequence); need a flat sequence")
        try:
            out.append(number(x, name, low=0, high=1))
        except ArgumentError as exc:
            raise _fail(name, f"item {i}: {exc.message}") from None
    return tuple(out)


def names(value, name: str) -> tuple[str, ...]:
    """A name, a comma-separated string of names, or a sequence of names; ValueError naming ``name``."""
    if isinstance(value, str):
        items = [s.strip() for s in value.split(",")]
    elif isinstance(value, Iterable):
        items = list(value)
    else:
        raise _fail(name, f"need a name or a sequence of names, got {type(value).__name__} {_short(value)}")
    for x in items:
        if not isinstance(x, str) or not x.strip():
            raise _fail(name, f"need names (text), got {_short(x)}")
    return tuple(x.strip() for x in items)


def closest(word: str, known: Sequence[str]) -> str | None:
    """The known name closest to ``word`` (case and ``_``/``-`` aside), or None: a "did you mean"."""
    norm = {k.lower().replace("_", "-"): k for k in known}
    w = str(word).lower().replace("_", "-")
    if w in norm:
        return norm[w]
    hit = difflib.get_close_matches(w, list(norm), n=1, cutoff=0.6)
    return norm[hit[0]] if hit else None


def _short(value, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
