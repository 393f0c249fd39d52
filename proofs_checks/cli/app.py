"""``main``: parse the command line, then import and run the one handler it names.

A handler module of :mod:`proofs_checks.cli` exposes

* ``validate(args) -> request`` -- reads every flag with :mod:`proofs_checks.cli.values`
  and checks it, importing nothing heavy, so bad input is refused at once;
* ``execute(request) -> str`` -- imports the libraries it needs and does the work;
* ``LIBRARY_FLAGS`` (optional) -- parameter names of the libraries that are not
  ``--name`` on this command (``{"h": "--dr"}``), for :func:`~proofs_checks.cli.errors.usage_error`.

Bad input: one line ``rsb <command>: error: argument '<flag>': ...`` on stderr,
exit status 2, nothing on stdout.  Every line on stderr shows the control characters of what it
echoes (an arm spec, a file name, a lock holder's command) escaped (``\\e``, ``\\n``, ``\\xNN``), so the
one-line promise holds whatever the input (``docs/safety.md``, "Input").

An h that asks SymPy for what it cannot do (``NotImplementedError`` or ``PoleError`` raised
inside SymPy: no closed form, no expansion) is refused the same way, naming the flag of h.

What stops a run after its input was accepted is one line on stderr too, never a
traceback, with an exit status a batch script can act on (``docs/longruns.md``):

* SIGINT / SIGTERM (:mod:`rsb_sim.interrupt`): what was kept and that the same
  command resumes; 130 / 143 (128 + the signal);
* a write the system refused (full disk, permission, read-only; :class:`rsb_sim.files.WriteError`)
  or a file that could not be read: the path and the cause; 74 (``EX_IOERR``);
* a stored file that fails its check after the run had checked it (changed under it):
  the file and the reason; 74 (the next run sets it aside and recomputes it);
* the output directory held by another run (:class:`rsb_sim.dirlock.DirectoryBusy`):
  the directory and the holder; 75 (``EX_TEMPFAIL``: try again later);
* a worker process that died under the run, or Dask workers that died too often
  (:class:`rsb_sim.workers.WorkerLost`): what happened, what was kept; 75.
"""

from __future__ import annotations

import importlib
import sys
from concurrent.futures import BrokenExecutor

from rsb_sim.dirlock import DirectoryBusy
from rsb_sim.files import CorruptFile
from rsb_sim.interrupt import Interrupted, stop_on_signals
from rsb_theory.safe_files import printable

from .errors import UsageError, stopped, usage_error
from .parser import build_parser

#: Exit statuses of a run stopped after its input was accepted (sysexits.h).
EX_IOERR = 74
EX_TEMPFAIL = 75


def _sympy_cannot(exc: BaseException) -> bool:
    """True for SymPy's own "cannot" errors (``NotImplementedError``, ``PoleError``) raised inside SymPy.

    They come from what a user's h asks of SymPy (the registry's h are tested); anything else is
    a defect of rsb and keeps its traceback.
    """
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    inside = tb is not None and tb.tb_frame.f_globals.get("__name__", "").startswith("sympy.")
    return inside and (isinstance(exc, NotImplementedError) or type(exc).__name__ == "PoleError")


def _error(line: str) -> None:
    """One line on stderr: control characters of echoed input (escape codes, newlines) shown escaped."""
    print(printable(line, None), file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``rsb`` console script; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    except UsageError as exc:
        _error(f"{exc.prog}: error: {exc}")
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    prog = f"rsb {args.command}"
    handler = importlib.import_module(f"{__package__}.{args.module}")
    try:
        with stop_on_signals():
            request = handler.validate(args)
            text = handler.execute(request)
    except ValueError as exc:  # UsageError, and the few library errors that escape validation
        _error(f"{prog}: error: {usage_error(exc, getattr(handler, 'LIBRARY_FLAGS', None), prog)}")
        return 2
    except Interrupted as exc:
        _error(f"{prog}: {stopped(exc)}")
        return exc.status
    except DirectoryBusy as exc:
        _error(f"{prog}: error: {exc}")
        return EX_TEMPFAIL
    except BrokenExecutor as exc:  # rsb_sim.workers.WorkerLost (imported here it would load the pools' module)
        _error(f"{prog}: error: {stopped(exc)}")
        return EX_TEMPFAIL
    except (OSError, CorruptFile) as exc:  # rsb_sim.files.WriteError, a file that cannot be read or fails its check
        _error(f"{prog}: error: {stopped(exc)}")
        return EX_IOERR
    except Exception as exc:
        if not _sympy_cannot(exc):
            raise
        # SymPy cannot do what this h asks (no closed form, no expansion): a refusal of the h typed, not a crash
        reason = " ".join(str(exc).split())[:160] or type(exc).__name__
        flag = (getattr(handler, "LIBRARY_FLAGS", None) or {}).get("h", "--dr")
        _error(f"{prog}: error: argument '{flag}': SymPy cannot analyse this h ({type(exc).__name__}: {reason})")
        return 2
    print(text)
    return 0
