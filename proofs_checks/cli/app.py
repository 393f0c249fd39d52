"""``main``: parse the command line, then import and run the one handler it names.

A handler module of :mod:`proofs_checks.cli` exposes

* ``validate(args) -> request`` -- reads every flag with :mod:`proofs_checks.cli.values`
  and checks it, importing nothing heavy, so bad input is refused at once;
* ``execute(request) -> str`` -- imports the libraries it needs and does the work;
* ``LIBRARY_FLAGS`` (optional) -- parameter names of the libraries that are not
  ``--name`` on this command (``{"h": "--dr"}``), for :func:`~proofs_checks.cli.errors.usage_error`.

Bad input: one line ``rsb <command>: error: argument '<flag>': ...`` on stderr,
exit status 2, nothing on stdout.
"""

from __future__ import annotations

import importlib
import sys

from .errors import UsageError, usage_error
from .parser import build_parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``rsb`` console script; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    except UsageError as exc:
        print(f"{exc.prog}: error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    prog = f"rsb {args.command}"
    handler = importlib.import_module(f"{__package__}.{args.module}")
    try:
        request = handler.validate(args)
        text = handler.execute(request)
    except ValueError as exc:  # UsageError, and the few library errors that escape validation
        print(f"{prog}: error: {usage_error(exc, getattr(handler, 'LIBRARY_FLAGS', None), prog)}", file=sys.stderr)
        return 2
    print(text)
    return 0
