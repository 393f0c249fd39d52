"""Command-line errors: one line naming the flag, exit status 2; the one line of a run that was stopped.

Every flag is validated where it is read (:mod:`proofs_checks.cli.values`), so its
error names it from the start.  A few errors can still come out of the libraries
(a distortion h that is not a distortion function, a horizon shorter than the
number of arms found by the engine, a solver that fails); they are
:class:`rsb_theory.errors.ArgumentError` carrying the *parameter*'s name
(``radius_scale``, ``h``), and :func:`usage_error` is the one place that turns
that name into the flag, through the command's table of flags (``LIBRARY_FLAGS``),
never by reading the message.
"""

from __future__ import annotations

from typing import Mapping

from rsb_sim.files import CorruptFile, WriteError
from rsb_sim.interrupt import Interrupted
from rsb_theory.errors import ArgumentError


class UsageError(ArgumentError):
    """Bad command-line input: ``argument '<flag>': <message>``, or the message alone when no flag is known.

    Parameters
    ----------
    flag : str or None
        The flag (``"--T"``), the command (``"command"``) or None (then ``str()`` is the message alone).
    message : str
    prog : str
        The command it belongs to (``"rsb simulate"``), when known.
    """

    def __init__(self, flag: str | None, message: str, prog: str = "rsb") -> None:
        super().__init__(flag, message)
        if flag is None:
            self.args = (message,)
        self.prog = prog

    def __reduce__(self):
        return (type(self), (self.name, self.message, self.prog))


def did_you_mean(word: str, known) -> str:
    """`` (did you mean X?)`` for the known name closest to ``word`` (case and ``_``/``-`` aside), or nothing."""
    import difflib

    norm = {k.lower().replace("_", "-"): k for k in known}
    w = str(word).lower().replace("_", "-")
    hit = [w] if w in norm else difflib.get_close_matches(w, list(norm), n=1, cutoff=0.6)
    return f" (did you mean {norm[hit[0]]}?)" if hit else ""


def fail(flag: str, message: str) -> UsageError:
    """``UsageError(flag, message)``: ``argument '<flag>': <message>``."""
    return UsageError(flag, message)


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
        An :class:`~rsb_theory.errors.ArgumentError` (its ``name`` is mapped to the flag), or any other
        ``ValueError`` (its message kept as it is).
    flags : mapping, optional
        Parameter name -> flag where the default ``--name`` is wrong (``{"h": "--dr"}``).
    prog : str

    Returns
    -------
    UsageError
        One line (newlines of the library's message are joined with "; ").
    """
    if isinstance(exc, UsageError):
        return UsageError(exc.name, exc.message, prog)
    if isinstance(exc, ArgumentError):
        return UsageError(flag_of(exc.name, flags), _one_line(exc.message), prog)
    return UsageError(None, _one_line(str(exc)) or type(exc).__name__, prog)


def _one_line(text: str) -> str:
    """The lines of a library's message joined with "; "."""
    return "; ".join(line.strip() for line in str(text).splitlines() if line.strip())


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
