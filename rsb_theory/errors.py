"""The one error type of a bad argument: :class:`ArgumentError` carries the argument's name and what is wrong.

Every bad value that reaches the Python API or the command line ends in an ``ArgumentError`` (or a subclass:
an expression outside the grammar, a bad distortion, a bad arm specification, ...), so that a caller reads the
argument's name from ``.name`` instead of parsing the message; the command line maps that name to its flag
(:func:`proofs_checks.cli.errors.usage_error`). ``str()`` is ``argument '<name>': <message>``, the one line a
user sees. Errors of files stay ``OSError`` (:class:`rsb_theory.safe_files.UnsafeFile`).

Standard library only, imported by nothing: the lowest module of the lowest layer.
"""

from __future__ import annotations

__all__ = ["ArgumentError", "ArgumentTypeError"]


class ArgumentError(ValueError):
    """A bad value of one argument.

    Parameters
    ----------
    name : str
        The argument's name in the API (``"T"``, ``"radius_scale"``, ``"h"``), or a flag when the value came
        from one (``"--arms"``).
    message : str
        What is wrong with it, without the name.

    Attributes
    ----------
    name, message : str
        As given; ``str(error)`` is ``argument '<name>': <message>``.
    """

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"argument '{name}': {message}")
        self.name = name
        self.message = message

    def __reduce__(self):
        # Pickled across worker processes: rebuilt from (name, message), not from the joined text.
        return (type(self), (self.name, self.message))


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong Python type (also a ``TypeError``, for callers that catch that)."""
