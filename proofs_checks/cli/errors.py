"""Command-line errors: one line naming the flag, exit status 2; the one line of a run that was stopped.

Every flag is validated where it is read (:mod:`proofs_checks.cli.values`), so its
error names it from the start.  A few errors can still come out of the libraries
(a distortion h that is not a distortion function, a horizon shorter than the
number of arms found by the engine, a solver that fails); they name the
*parameter* (``argument 'radius_scale': ...``, ``argument 'h': ...``), and
:func:`usage_error` is the one place that turns that name into the flag.
"""

from __future__ import annotations

import re
from typing import Mapping

from rsb_sim.files import CorruptFile, WriteError
from rsb_sim.interrupt import Interrupted

_LEADING = re.compile(r"^argument '([^']+)'")


class UsageError(ValueError):
    """Bad command-line input; the message starts with ``argument '<flag>':``.

    Attributes
    ----------
    prog : str
        The command it belongs to (``"rsb simulate"``), when known.
    """

    def __init__(self, message: str, prog: str = "rsb") -> None:
        super().__init__(message)
        self.prog = prog


def did_you_mean(word: str, known) -> str:
    """`` (did you mean X?)`` for the known name closest to ``word`` (case and ``_``/``-`` aside), or nothing."""
    import difflib

    norm = {k.lower().replace("_", "-"): k for k in known}
    w = str(word).lower().replace("_", "-")
    hit = [w] if w in norm else difflib.get_close_matches(w, list(norm), n=1, cutoff=0.6)
    return f" (did you mean {norm[hit[0]]}?)" if hit else ""


def fail(flag: str, message: str) -> UsageError:
    """``UsageError("argument '<flag>': <message>")``."""
    return UsageError(f"argument '{flag}': {message}")


def flag_of(name: str, flags: Mapping[str, str] | None = None) -> str:
    """The flag of a library parameter: ``flags[name]`` if given, else ``--name`` with dashes.

    Names that already are flags (``--dr``, ``--param s``) and positional
    arguments listed in ``flags`` are returned as mapped.
    """
    if flags and name in flags:
        return flags[name]
    if name.startswith("-"):
        return name
    return "--" + name.replace("_", "-")


def usage_error(exc: Exception, flags: Mapping[str, str] | None = None, prog: str = "rsb") -> UsageError:
    """The command-line form of a library error (the one error-to-flag mapping).

    Parameters
    ----------
    exc : Exception
        A ``ValueError`` whose message starts with ``argument '<name>':``, or any
        other message (kept as it is).
    flags : mapping, optional
        Parameter name -> flag where the default ``--name`` is wrong (``{"h": "--dr"}``).
    prog : str

    Returns
    -------
    UsageError
        One line (newlines of the library's message are joined with "; ").
    """
    if isinstance(exc, UsageError):
        return UsageError(str(exc), prog)
    message = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip()) or type(exc).__name__
    m = _LEADING.match(message)
    if m:
        message = f"argument '{flag_of(m.group(1), flags)}'" + message[m.end():]
    return UsageError(message, prog)


def stopped(exc: BaseException) -> str:
    """The one line (without ``rsb <command>:``) of a run stopped by a signal, a failed write or a bad file.

    ``exc`` is :class:`rsb_sim.interrupt.Interrupted`, :class:`rsb_sim.files.CorruptFile`,
    :class:`rsb_sim.workers.WorkerLost` or an ``OSError`` (:class:`rsb_sim.files.WriteError`
    names its path); its ``kept`` attribute, when
    set, says what stays on disk.
    """
    if isinstance(exc, CorruptFile):
        head = f"{exc}; rerunning the same command sets it aside and recomputes it"
    elif isinstance(exc, OSError) and not isinstance(exc, WriteError) and exc.filename:
        head = f"cannot use {exc.filename}: {exc.strerror or exc}"
    else:
        head = str(exc) or type(exc).__name__
    kept = getattr(exc, "kept", None)
    if kept:
        return f"{head}; kept {kept}; rerunning the same command resumes from there"
    if isinstance(exc, Interrupted):
        return f"{head}; nothing was stored; rerunning the same command starts over"
    return head
