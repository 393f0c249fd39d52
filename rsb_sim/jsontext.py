"""Strict JSON text: what every ``--format json`` output and every JSON file of rsb goes through.

JSON has no NaN and no infinity; Python's :mod:`json` writes them as the bare words ``NaN`` and ``Infinity``,
which strict parsers (``jq``, browsers' ``JSON.parse``, most languages' libraries) reject.  :func:`dumps` writes
``null`` instead and, for a value of a mapping, the reason in words beside it under ``<key>_reason`` (unless the
producer gave one).  Standard library only (the command line imports it before NumPy).
"""

from __future__ import annotations

import json
import math
from typing import Any

#: The words beside a ``null`` that stands for a value that is not a finite number.
REASONS = {"nan": "not a number: the quantity is undefined for this input (see the evidence beside it)",
           "inf": "infinite", "-inf": "minus infinity"}


def _kind(x: Any) -> str | None:
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    return None


def finite(obj: Any) -> Any:
    """``obj`` with every non-finite float replaced by ``None`` and, in a mapping, ``<key>_reason`` added."""
    if isinstance(obj, dict):
        out: dict = {}
        for k, v in obj.items():
            kind = _kind(v)
            out[k] = None if kind else finite(v)
            if kind and f"{k}_reason" not in obj:
                out[f"{k}_reason"] = REASONS[kind]
        return out
    if isinstance(obj, (list, tuple)):
        return [None if _kind(v) else finite(v) for v in obj]
    return None if _kind(obj) else obj


def dumps(obj: Any, *, indent: int | None = 2, default=None, ensure_ascii: bool = True,
          sort_keys: bool = False) -> str:
    """``json.dumps`` of :func:`finite` ``(obj)``, refusing NaN and infinity (``allow_nan=False``)."""
    return json.dumps(finite(obj), indent=indent, default=default, ensure_ascii=ensure_ascii,
                      sort_keys=sort_keys, allow_nan=False)
