"""The content of the files an ``--arms`` text reads (``empirical(FILE:COLUMN)``), as SHA-256 digests (light).

A stored result is found by the digest of its specification (:func:`rsb_sim.store.key_of`).
The text ``empirical(r.csv:ret)`` names a file, not its content: an edited ``r.csv`` must
not find the result of the old one.  :func:`file_digests` gives, for every file the text
names, the SHA-256 of its bytes, and the key covers them.

Only the bytes are read (no CSV parsing, no NumPy); the spec text is read by the one
parser of ``--arms`` (:func:`rsb_theory.laws.spec.parse_specs`).
"""

from __future__ import annotations

import hashlib

from ..safe_files import LINKS_WITHIN, MAX_DATA, UnsafeFile, open_read
from .spec import LawError, parse_specs

__all__ = ["file_digests"]

#: Bytes read at a time (a large CSV file is never held whole).
BLOCK = 1 << 20


def _sha256(path: str, flag: str, where: str) -> str:
    h = hashlib.sha256()
    try:
        with open_read(path, MAX_DATA, LINKS_WITHIN) as fh:  # the reader's own checks (rsb_theory.safe_files)
            for block in iter(lambda: fh.read(BLOCK), b""):
                h.update(block)
    except FileNotFoundError:
        raise LawError(flag, f"{where}: no such file {path!r}") from None
    except UnsafeFile as exc:
        raise LawError(flag, f"{where}: {path!r} {exc.predicate()}") from None
    except IsADirectoryError:
        raise LawError(flag, f"{where}: {path!r} is a directory, not a CSV file") from None
    except OSError as exc:
        raise LawError(flag, f"{where}: cannot read {path!r}: {exc.strerror or exc}") from None
    return h.hexdigest()


def file_digests(text: str, flag: str = "--arms") -> dict[str, str]:
    """``{FILE: sha256 of its bytes}`` for every ``empirical(FILE:COLUMN)`` of ``text``, in order of first use.

    Parameters
    ----------
    text : str
        An ``--arms`` text (``"beta(2,5); empirical(r.csv:ret)"``).
    flag : str
        Named in errors.

    Returns
    -------
    dict
        Empty when no arm reads a file.  A file used by several arms appears once.

    Raises
    ------
    LawError
        A bad specification, or a file that cannot be read (one line naming the arm).
    """
    out: dict[str, str] = {}
    for spec in parse_specs(text, flag, min_arms=1):
        if spec.name == "empirical" and spec.path not in out:
            out[spec.path] = _sha256(spec.path, flag, f"arm {spec.index} ({spec.text})")
    return out
