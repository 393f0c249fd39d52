"""Samples of an arm from a column of a CSV file (``empirical(FILE:COLUMN)``), with the standard library's ``csv``.

The file is comma-separated, UTF-8 (a byte-order mark is skipped), with a
header row of column names.  ``COLUMN`` is a header name (surrounding spaces
ignored) or, if no header is called that, a 1-based index.  Below the header,
blank cells of the column are missing values and are skipped (columns of
different lengths are common); every other cell must be a finite number
(Python's ``float``: ``0.5``, ``1e-3``, ``-2``; never evaluated) and, since
rewards live in [0, oo) (``sec:setting``), non-negative.  Errors name the
arm, the file and the row.

The file is opened by :func:`rsb_theory.safe_files.open_read`: a regular file of at most
:data:`~rsb_theory.safe_files.MAX_DATA` bytes, a symbolic link only to a file in its own
directory; a FIFO, a device (``/dev/zero``) or a directory is refused at once, never read.
"""

from __future__ import annotations

import csv
import io
import math

from ..safe_files import LINKS_WITHIN, MAX_DATA, UnsafeFile, open_read
from .spec import MAX_REWARD, LawError, reward_too_large

__all__ = ["read_column"]


def _fail(flag: str, where: str, message: str) -> LawError:
    return LawError(flag, f"{where}: {message}")


def read_column(path: str, column: str, flag: str = "--arms", where: str = "arm 1") -> list[float]:
    """The numbers of column ``column`` of the CSV file ``path``.

    Parameters
    ----------
    path : str
    column : str
        A header name, or a 1-based index when no header has that name.
    flag, where : str
        Named in errors (``argument '--arms': arm 2 (empirical(x.csv:r)): ...``).

    Raises
    ------
    LawError
        A missing or unreadable file, no header, an unknown or ambiguous column,
        a non-numeric, non-finite or negative cell, or no values at all.
    """
    try:
        with io.TextIOWrapper(open_read(path, MAX_DATA, LINKS_WITHIN), encoding="utf-8-sig", newline="") as fh:
            rows = csv.reader(fh)
            header = next(rows, None)
            if header is None:
                raise _fail(flag, where, f"{path!r} is empty (expected a header row of column names)")
            names = [h.strip() for h in header]
            index = _column_index(names, column, flag, where, path)
            values = []
            for line, row in enumerate(rows, start=2):
                cell = row[index].strip() if index < len(row) else ""
                if not cell:
                    continue
                try:
                    v = float(cell)
                except ValueError:
                    raise _fail(flag, where, f"{path!r} row {line}, column {column!r}: {cell[:40]!r} is not a number"
                                ) from None
                if not math.isfinite(v):
                    raise _fail(flag, where, f"{path!r} row {line}, column {column!r}: {cell!r} is not finite")
                if v < 0:
                    raise _fail(flag, where, f"{path!r} row {line}, column {column!r}: {cell!r} is negative; rewards "
                                             f"must be non-negative (sec:setting): shift the column")
                if v > MAX_REWARD:
                    raise _fail(flag, where, f"{path!r} row {line}, column {column!r}: {reward_too_large(v)}")
                values.append(v)
    except FileNotFoundError:
        raise _fail(flag, where, f"no such file {path!r}") from None
    except UnsafeFile as exc:
        raise _fail(flag, where, f"{path!r} {exc.predicate()}") from None
    except IsADirectoryError:
        raise _fail(flag, where, f"{path!r} is a directory, not a CSV file") from None
    except PermissionError:
        raise _fail(flag, where, f"cannot read {path!r} (permission denied)") from None
    except UnicodeDecodeError:
        raise _fail(flag, where, f"{path!r} is not UTF-8 text") from None
    except csv.Error as exc:
        raise _fail(flag, where, f"{path!r} is not a readable CSV file: {exc}") from None
    except OSError as exc:
        raise _fail(flag, where, f"cannot read {path!r}: {exc.strerror or exc}") from None
    if not values:
        raise _fail(flag, where, f"column {column!r} of {path!r} has no values")
    return values


def _column_index(names: list[str], column: str, flag: str, where: str, path: str) -> int:
    hits = [i for i, n in enumerate(names) if n == column]
    if len(hits) > 1:
        raise _fail(flag, where, f"{path!r} has {len(hits)} columns named {column!r}; give a 1-based index")
    if hits:
        return hits[0]
    if column.isascii() and column.isdigit() and 1 <= int(column) <= len(names):  # not '²' (int() refuses it)
        return int(column) - 1
    shown = ", ".join(repr(n) for n in names[:20]) + (", ..." if len(names) > 20 else "")
    raise _fail(flag, where, f"{path!r} has no column {column!r}; columns: {shown} (or a 1-based index "
                             f"1..{len(names)})")
