"""Strict JSON text: what every ``--format json`` output and every JSON file of rsb goes through.

JSON has no NaN and no infinity; Python's :mod:`json` writes them as the bare words ``NaN`` and ``Infinity``,
which strict parsers (``jq``, browsers' ``JSON.parse``, most languages' libraries) reject.  :func:`dumps` writes
``null`` instead and, for a value of a mapping, the reason in words beside it under ``<key>_reason`` (unless the
producer gave one).  :func:`exact` is for the texts that are read back or hashed (stored ledgers, result keys,
digests): it writes the value as it is and refuses a non-finite number (``ValueError``) rather than replace it.
NumPy scalars and arrays (``np.int64(100)``, ``np.float64``, ``np.bool_``) are written as the Python numbers and
lists they stand for.  Every ``json.dumps`` of rsb is in this module (a test scans the sources).  Standard library
only (the command line imports it before NumPy; NumPy values are recognised without importing it).
"""

from __future__ import annotations

import json
import math
from typing import Any

#: The words beside a ``null`` that stands for a value that is not a finite number.
REASONS = {"nan": "not a number: the quantity is undefined for this input (see the evidence beside it)",
           "inf": "infinite", "-inf": "minus infinity"}


def _plain(x: Any) -> Any:
    """A NumPy scalar or array as the Python value it stands for (``item()``, ``tolist()``); anything else as it is."""
    mod = type(x).__module__
    if mod == "numpy" and hasattr(x, "tolist"):
        return x.tolist()
    return x


def _default(default):
    """``json``'s ``default`` hook: NumPy values first, then the caller's hook (or the usual TypeError)."""
    def hook(x):
        plain = _plain(x)
        if plain is not x:
            return plain
        if default is None:
            raise TypeError(f"Object of type {type(x).__name__} is not JSON serializable")
        return default(x)
    return hook


def _kind(x: Any) -> str | None:
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    return None


def finite(obj: Any) -> Any:
    """``obj`` with every non-finite float replaced by ``None`` and, in a mapping, ``<key>_reason`` added."""
    obj = _plain(obj)
    if isinstance(obj, float) and type(obj) is not float:  # a float subclass (np.float64) as a float
        obj = float(obj)
    if isinstance(obj, dict):
        out: dict = {}
        for k, v in obj.items():
            kind = _kind(v)
            out[k] = None if kind else finite(v)
            if kind and f"{k}_reason" not in obj:
                out[f"{k}_reason"] = REASONS[kind]
        return out
    if isinstance(obj, (list, tuple)):
        return [None if _kind(_plain(v)) else finite(v) for v in obj]
    return None if _kind(obj) else obj


def dumps(obj: Any, *, indent: int | None = 2, default=None, ensure_ascii: bool = True,
          sort_keys: bool = False, separators: tuple[str, str] | None = None) -> str:
    """``json.dumps`` of :func:`finite` ``(obj)``, refusing NaN and infinity (``allow_nan=False``)."""
    return json.dumps(finite(obj), indent=indent, default=_default(default), ensure_ascii=ensure_ascii,
                      sort_keys=sort_keys, separators=separators, allow_nan=False)


def exact(obj: Any, *, indent: int | None = None, default=None, ensure_ascii: bool = True,
          sort_keys: bool = False, separators: tuple[str, str] | None = None) -> str:
    """``json.dumps`` of ``obj`` as it is, for text that is read back or hashed; ``ValueError`` for a non-finite
    number (never the bare ``NaN`` of Python's :mod:`json`)."""
    return json.dumps(obj, indent=indent, default=_default(default), ensure_ascii=ensure_ascii, sort_keys=sort_keys,
                      separators=separators, allow_nan=False)
