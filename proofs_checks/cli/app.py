"""``main``: parse the command line, then import and run the one handler it names.

A handler module of :mod:`proofs_checks.cli` exposes

* ``validate(args) -> request`` -- reads every flag with :mod:`proofs_checks.cli.values`
  and checks it, importing nothing heavy, so bad input is refused at once;
* ``execute(request) -> str`` -- imports the libraries it needs and does the work;
* ``IN_WORKER`` (optional, True, or a function of the request) -- ``execute`` is a computation made of long
  library calls that
  do not look at signals (SciPy, CVXPY, SymPy): it runs in a forked worker process
  (:func:`rsb_sim.workers.in_worker`) while this process waits, so SIGINT/SIGTERM stop the command
  within the 5 s of ``docs/longruns.md``; it must write no file;
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

A reader that closes the pipe early (``rsb verify | head``) ends the run quietly: nothing more is written,
no traceback, exit status 141 (128 + SIGPIPE, as a program killed by the signal).
"""

from __future__ import annotations

import importlib
import os
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
#: Exit status when the reader of stdout went away (128 + SIGPIPE).
EX_PIPE = 141


def _end_now(status: int) -> None:
    """End the process at once with ``status`` after a signal, skipping the interpreter's finalisation.

    After a signal the process must end within the 5 s of ``docs/longruns.md``; the interpreter's
    final garbage collection of SymPy's and NumPy's objects took 2-3 s of that (measured: the line
    printed 0.01 s after SIGTERM, the exit 3.4 s after; more on a loaded machine).  Nothing is lost:
    every file was written atomically and closed before (``rsb_sim.files``), worker processes were
    killed (``rsb_sim.workers``), and the kernel releases the directory locks.  Only when ``rsb`` is
    the process (``main()`` without arguments), never for a caller of ``main``.
    """
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


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
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader closed the pipe (``| head``): point stdout at /dev/null so that the interpreter's final flush
        # does not fail again, and end quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EX_PIPE


def _main(argv: list[str] | None) -> int:
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
            in_worker = getattr(handler, "IN_WORKER", False)
            if callable(in_worker):
                in_worker = in_worker(request)
            if in_worker:
                from rsb_sim.workers import in_worker

                text = in_worker(handler.execute, request)
            else:
                text = handler.execute(request)
    except ValueError as exc:  # UsageError, and the few library errors that escape validation
        _error(f"{prog}: error: {usage_error(exc, getattr(handler, 'LIBRARY_FLAGS', None), prog)}")
        return 2
    except Interrupted as exc:
        _error(f"{prog}: {stopped(exc)}")
        if argv is None:  # the process ends now: skip the interpreter's final garbage collection
            sys.stderr.flush()
            _end_now(exc.status)
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
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 0
