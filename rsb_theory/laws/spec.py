"""Reading ``--arms "SPEC;SPEC;..."`` into arm specifications (light: no NumPy, no SciPy).

Grammar (whitespace is free; arms are separated by ``;`` outside parentheses)::

    bernoulli(p)                       Bern(p), p in [0, 1]
    finite(x1:p1, x2:p2, ...)          atoms x_j >= 0 (distinct) with masses p_j summing to 1
    empirical(FILE:COLUMN)             the empirical law of a column of a CSV file
    NAME(v1, v2, ...)                  scipy.stats.NAME with its parameters in scipy's order:
                                       shapes, then loc, then scale (``uniform(0.3, 0.1)`` is
                                       uniform on [0.3, 0.4])

Every number (p, atoms, masses, scipy parameters) is an expression read by the
one parser, :mod:`rsb_theory.expressions` (``1/3``, ``0.5*0.2``, ``sqrt(2)/4``);
nothing is evaluated.  ``FILE`` is everything before the *last* colon and
``COLUMN`` a header name or a 1-based index (:mod:`rsb_theory.laws.empirical`).

This module only reads the text: it checks names, counts and the ranges it can
check without SciPy (p and masses in [0, 1], atoms >= 0, masses summing to 1),
so a command line can refuse most bad input before importing anything heavy.
:func:`rsb_theory.laws.build.build_laws` turns the specifications into laws
(SciPy's own parameter checks, bounded non-negative support, the CSV file).

Every error is a :class:`LawError` whose message starts with
``argument '<flag>': arm <i>`` (arms numbered 1..K).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .. import expressions
from .names import BOUNDED_EXAMPLES, CONTINUOUS, SPECIAL, parameter_names

__all__ = ["ArmSpec", "LawError", "parse_specs", "split_top", "PROB_TOL", "MAX_TEXT", "MAX_ARMS", "MAX_REWARD",
           "reward_too_large"]

#: How far from 1 the masses of ``finite(...)`` may sum (as for ``--support/--probs``).
PROB_TOL = 1e-9
#: Longest ``--arms`` text read (characters).
MAX_TEXT = 100_000
#: Most arms in one ``--arms``.
MAX_ARMS = 1000
#: Largest reward an arm may give (an atom, a CSV cell, the top of a support).  The oracle's solvers and the
#: sums of a run lose their precision far above it (an empirical cell 1e300 failed inside CVXPY
#: and was blamed on --method); U_h is positively homogeneous (U_h(cX) = c U_h(X)), so rescaling the rewards
#: loses nothing.
MAX_REWARD = 1e12


def reward_too_large(value: float) -> str:
    """The words of a refused reward above :data:`MAX_REWARD`."""
    return (f"{value:.6g} is above {MAX_REWARD:g}, the largest reward rsb computes with; rescale the rewards "
            f"(U_h(cX) = c U_h(X): nothing is lost)")


class LawError(expressions.ExpressionError):
    """A bad arm specification: an ``ArgumentError`` naming the flag, its message starting with ``arm <i>``."""


@dataclass(frozen=True)
class ArmSpec:
    """One arm of ``--arms`` as written, with its numbers evaluated.

    Attributes
    ----------
    index : int
        The arm's number, 1..K.
    text : str
        The specification as written (stripped).
    name : str
        ``"bernoulli"``, ``"finite"``, ``"empirical"`` or a key of
        :data:`rsb_theory.laws.names.CONTINUOUS`.
    args : tuple of float
        ``(p,)`` for ``bernoulli``; the scipy parameters for a continuous law.
    atoms, masses : tuple of float
        ``finite``: in the order written.
    path, column : str
        ``empirical``: the file and the column (name or 1-based index, as written).
    """

    index: int
    text: str
    name: str
    args: tuple[float, ...] = ()
    atoms: tuple[float, ...] = ()
    masses: tuple[float, ...] = ()
    path: str = ""
    column: str = ""

    @property
    def kind(self) -> str:
        """``bernoulli``, ``finite``, ``empirical`` or ``continuous``."""
        return self.name if self.name in SPECIAL else "continuous"


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside parentheses (``"a(1,2),b"`` -> ``["a(1,2)", "b"]``)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _balanced(text: str) -> bool:
    """Parentheses close in order and the first one opened closes last."""
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth < 0 or (depth == 0 and ch == ")" and i != len(text) - 1):
            return False
    return depth == 0


def _fail(flag: str, message: str) -> LawError:
    return LawError(flag, message)


def _known() -> str:
    return (f"{', '.join(SPECIAL)}, or a scipy.stats continuous law with bounded non-negative support "
            f"such as {', '.join(BOUNDED_EXAMPLES)}")


def _number(text: str, flag: str, where: str, what: str, **bounds) -> float:
    """An expression of the one parser; errors say which arm and which parameter."""
    try:
        return expressions.parse_number(text, flag, **bounds)
    except expressions.ExpressionError as exc:
        raise _fail(flag, f"{where}: {what}: {exc.message}") from None


def _parse_one(index: int, text: str, flag: str) -> ArmSpec:
    src = text.strip()
    where = f"arm {index}"
    if not src:
        raise _fail(flag, f"{where} is empty (arms are separated by ';')")
    where = f"arm {index} ({src})"
    open_at = src.find("(")
    if open_at < 0 or not src.endswith(")"):
        raise _fail(flag, f"{where}: expected NAME(PARAMETERS), e.g. {BOUNDED_EXAMPLES[0]}")
    name = src[:open_at].strip()
    body = src[open_at + 1:-1]
    if not _balanced(src):
        raise _fail(flag, f"{where}: unbalanced parentheses")
    if name not in SPECIAL and name not in CONTINUOUS:
        close = difflib.get_close_matches(name, [*SPECIAL, *CONTINUOUS], n=3)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        raise _fail(flag, f"{where}: unknown law {name!r}{hint} Known: {_known()}")
    if name == "empirical":
        return _empirical(index, src, body, flag, where)
    items = [t.strip() for t in split_top(body, ",")]
    if items == [""]:
        items = []
    if name == "bernoulli":
        if len(items) != 1:
            raise _fail(flag, f"{where}: bernoulli takes one parameter p, got {len(items)}")
        p = _number(items[0], flag, where, "parameter p", low=0.0, high=1.0)
        return ArmSpec(index, src, name, args=(p,))
    if name == "finite":
        return _finite(index, src, items, flag, where)
    names = parameter_names(name)
    shapes = len(names) - 2
    if not shapes <= len(items) <= len(names):
        need = f"{shapes} to {len(names)}" if shapes < len(names) else str(shapes)
        raise _fail(flag, f"{where}: {name} takes {need} parameters ({', '.join(names)}), got {len(items)}")
    args = tuple(_number(t, flag, where, f"parameter {names[j]}") for j, t in enumerate(items))
    return ArmSpec(index, src, name, args=args)


def _finite(index: int, src: str, items: list[str], flag: str, where: str) -> ArmSpec:
    if not items:
        raise _fail(flag, f"{where}: finite needs at least one atom, written x:p (e.g. finite(0:0.2, 1:0.8))")
    atoms, masses = [], []
    for j, item in enumerate(items, start=1):
        pair = split_top(item, ":")
        if len(pair) != 2:
            raise _fail(flag, f"{where}: atom {j} {item!r} is not of the form x:p")
        atoms.append(_number(pair[0], flag, where, f"atom {j}", low=0.0))
        masses.append(_number(pair[1], flag, where, f"mass of atom {j}", low=0.0, high=1.0))
    seen = {}
    for j, x in enumerate(atoms, start=1):
        if x in seen:
            raise _fail(flag, f"{where}: atoms {seen[x]} and {j} are both {x:g}")
        seen[x] = j
    total = sum(masses)
    if abs(total - 1.0) > PROB_TOL:
        raise _fail(flag, f"{where}: the masses sum to {total:.12g}, not 1 (tolerance {PROB_TOL:g})")
    return ArmSpec(index, src, "finite", atoms=tuple(atoms), masses=tuple(masses))


def _empirical(index: int, src: str, body: str, flag: str, where: str) -> ArmSpec:
    path, sep, column = body.strip().rpartition(":")
    if not sep or not path.strip() or not column.strip():
        raise _fail(flag, f"{where}: expected empirical(FILE:COLUMN), COLUMN a header name or a 1-based index")
    return ArmSpec(index, src, "empirical", path=path.strip(), column=column.strip())


def parse_specs(text, flag: str = "--arms", min_arms: int = 2) -> tuple[ArmSpec, ...]:
    """The arm specifications of ``text`` (``"SPEC;SPEC;..."``), read but not built.

    Parameters
    ----------
    text : str
    flag : str
        Named in every error (``--arms``).
    min_arms : int
        Fewest arms accepted (2 for a bandit instance).

    Raises
    ------
    LawError
        One line naming the flag, the arm (1..K) and the parameter.
    """
    if not isinstance(text, str):
        raise _fail(flag, f"expected a string of arm specifications, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise _fail(flag, f"longer than {MAX_TEXT} characters")
    parts = split_top(text, ";")
    if len(parts) > 1 and not parts[-1].strip():
        parts = parts[:-1]  # a trailing ';' is harmless
    if len(parts) > MAX_ARMS:
        raise _fail(flag, f"more than {MAX_ARMS} arms")
    specs = tuple(_parse_one(i, part, flag) for i, part in enumerate(parts, start=1))
    if len(specs) < min_arms:
        raise _fail(flag, f"need at least {min_arms} arms separated by ';', got {len(specs)}")
    return specs
