"""Values of the command line's flags, read with the one safe parser and checked where they are read.

Every number, count and expression a user types goes through
:mod:`rsb_theory.expressions` (a grammar check of Python's ``ast`` tree, then a
math-only evaluation: nothing is ever passed to ``eval`` or ``sympify``).  A
count may be an expression in the names the flag documents (``--explore T/10``,
``--T 3*10^5``).  Each reader raises :class:`~proofs_checks.cli.errors.UsageError`
whose message names the flag; arms are numbered 1..K in every message.

This module imports nothing heavy (no NumPy, no SymPy), so bad input is refused
before the libraries are loaded.
"""

from __future__ import annotations

import math
import os
from typing import Mapping

from rsb_theory import expressions as ex
from rsb_theory.laws.spec import MAX_REWARD, reward_too_large

from .errors import UsageError, did_you_mean, fail
from .names import DISTORTIONS, EXTENSIONS

#: A row of ``--probs`` whose masses sum to 1 within this much *per mass* is accepted and divided by
#: its sum: masses printed to 6 decimals are off by at most half a unit of the 6th decimal each.
PROBS_ROUNDING = 5e-7


def _usage(exc: ex.ExpressionError) -> UsageError:
    return UsageError(exc.name, exc.message)


def count(text, flag: str, minimum: int = 1, values: Mapping[str, float] | None = None,
          rounding: str = "exact") -> int:
    """A count (``"1000"``, ``"1e3"``, ``"3*10^5"``, ``"T/10"`` with ``values={"T": ...}``) >= ``minimum``.

    A plain decimal integer is read exactly (a seed above 2^53 keeps its digits);
    anything else goes through :func:`rsb_theory.expressions.parse_count`.
    """
    # ASCII digits only: str.isdigit accepts superscripts ('²') and other scripts' digits, which int() refuses
    if isinstance(text, str) and text.strip().isascii() and text.strip().isdigit() and len(text.strip()) <= 18:
        n = int(text.strip())
        if n < minimum:
            raise fail(flag, f"need an integer >= {minimum}, got {text!r}")
        return n
    try:
        return ex.parse_count(text, flag, values, minimum=minimum, rounding=rounding)
    except ex.ExpressionError as exc:
        if not values and "unknown name" in str(exc):  # "--trials ten": say what a count looks like
            raise fail(flag, f"need an integer >= {minimum} (e.g. 1000, 1e3 or 3*10^5), got {text!r}") from None
        raise _usage(exc) from None


def number(text, flag: str, values: Mapping[str, float] | None = None, **bounds) -> float:
    """A finite number (an expression in the names of ``values``), range-checked by ``bounds``.

    ``bounds`` are those of :func:`rsb_theory.expressions.parse_number` (``low``,
    ``high``, ``low_open``, ``high_open``).
    """
    try:
        return ex.parse_number(text, flag, values, **bounds)
    except ex.ExpressionError as exc:
        if not values and "unknown name" in str(exc):  # "--rho high": say what a number looks like
            raise fail(flag, f"not a number (e.g. 0.1, 1e-2 or 1/10): {text!r}") from None
        raise _usage(exc) from None


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at the ``sep`` characters outside parentheses, items stripped, empty items dropped.

    ``"gini,min(2*u,1)"`` -> ``["gini", "min(2*u,1)"]``.
    """
    out, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [item.strip() for item in out if item.strip()]


def numbers(text, flag: str) -> tuple[float, ...]:
    """Comma-separated numbers (each a constant expression such as ``1/3``)."""
    if text is None or not str(text).strip():
        raise fail(flag, "expected comma-separated numbers")
    return tuple(number(item, flag) for item in split_top(str(text), ","))


def counts(text, flag: str, minimum: int = 1) -> tuple[int, ...]:
    """Comma-separated counts (``--Ts 1000,2000,4000`` or ``--Ts 10^3,10^4``)."""
    if text is None or not str(text).strip():
        raise fail(flag, "expected comma-separated integers")
    return tuple(count(item, flag, minimum) for item in split_top(str(text), ","))


def horizons(text, flag: str = "--Ts") -> tuple[int, ...]:
    """At least two distinct increasing horizons >= 2."""
    Ts = counts(text, flag, 2)
    if len(Ts) < 2 or list(Ts) != sorted(set(Ts)):
        raise fail(flag, f"need at least two distinct increasing horizons >= 2, comma-separated "
                         f"(e.g. {flag} 1000,2000,4000), got {text!r}")
    return Ts


def means(text, flag: str = "--p") -> tuple[float, ...]:
    """At least two Bernoulli means in [0, 1], comma-separated (arms numbered 1..K in errors)."""
    if text is None or not str(text).strip():
        raise fail(flag, f"required: Bernoulli means, comma-separated (e.g. {flag} 0.4,0.9)")
    vals = numbers(text, flag)
    if len(vals) < 2:
        raise fail(flag, f"need at least two arms, comma-separated (e.g. {flag} 0.4,0.9), got {text!r}")
    for i, v in enumerate(vals, start=1):
        if not 0.0 <= v <= 1.0:
            raise fail(flag, f"the mean of arm {i} is {v:g}, not in [0, 1]")
    return vals


def arms(text, flag: str = "--arms") -> str:
    """``--arms "SPEC;SPEC;..."`` read by the one parser (:func:`rsb_theory.laws.spec.parse_specs`, light).

    Names, counts, the numbers of every specification and what can be checked without SciPy or the
    files are checked here; the laws are built (SciPy's checks, bounded non-negative support, the CSV
    columns) by :func:`arm_laws` when the command runs.  Errors name the arm (1..K) and the parameter.
    """
    from rsb_theory.laws.spec import parse_specs

    try:
        parse_specs(text, flag)
    except ex.ExpressionError as exc:
        raise _usage(exc) from None
    return str(text)


def arm_count(text) -> int:
    """The number of arms K of an ``--arms`` text already read by :func:`arms` (for the work estimate)."""
    from rsb_theory.laws.spec import split_top

    return len([a for a in split_top(str(text), ";") if a.strip()])


def arm_laws(text, flag: str = "--arms") -> tuple:
    """The laws of ``--arms`` (imports SciPy; reads the CSV files); errors: one line naming the arm."""
    from rsb_theory.laws import parse_arms

    try:
        return parse_arms(text, flag)
    except ex.ExpressionError as exc:
        raise _usage(exc) from None


def means_or_arms(args, required: bool = True) -> tuple[tuple[float, ...] | None, str | None]:
    """``(p, None)`` from ``--p`` or ``(None, text)`` from ``--arms``; not both; one of them when ``required``."""
    p_text, arms_text = getattr(args, "p", None), getattr(args, "arms", None)
    if p_text is not None and arms_text is not None:
        raise fail("--arms", "give either --p (Bernoulli means) or --arms (laws), not both")
    if arms_text is not None:
        return None, arms(arms_text, "--arms")
    if p_text is None:
        if not required:
            return None, None
        raise fail("--p", "required: Bernoulli means, comma-separated (e.g. --p 0.4,0.9), or --arms with laws "
                          "(e.g. --arms \"beta(2,5);uniform(0.3,0.1)\")")
    return means(p_text, "--p"), None


def instances(text, flag: str = "--p") -> list[tuple[float, ...]]:
    """Several Bernoulli instances separated by ';', each as in :func:`means`."""
    chunks = split_top(str(text or ""), ";")
    if not chunks:
        raise fail(flag, f"required: Bernoulli means, comma-separated, instances separated by ';' "
                         f"(e.g. {flag} \"0.4,0.9;0.1,0.3\")")
    out = []
    for j, chunk in enumerate(chunks, start=1):
        try:
            out.append(means(chunk, flag))
        except UsageError as exc:
            if len(chunks) == 1:
                raise
            raise fail(flag, f"instance {j}: {exc.message}") from None
    return out


def finite_arms(support_text, probs_text) -> tuple[tuple[float, ...], tuple[tuple[float, ...], ...], list[str]]:
    """``--support`` and ``--probs``: the common support and one law per arm, with the notes to print.

    ``--probs`` holds one row per arm, arms separated by ';' and masses by ','
    (``--support 0,0.5,1 --probs "0.2,0.3,0.5;0.6,0.2,0.2"``).  A row whose masses
    sum to 1 within :data:`PROBS_ROUNDING` per mass is divided by its sum (a note
    says so); any other row is refused, naming the arm (1..K) and its sum.
    """
    if support_text is None or probs_text is None:
        # the error names the flag that was given (a flag the user did not write would puzzle them) and the missing one
        given, missing = ("--probs", "--support") if support_text is None else ("--support", "--probs")
        raise fail(given, f"needs {missing} beside it: finite-support arms need both --support and --probs "
                          "(e.g. --support 0,0.5,1 --probs \"0.2,0.3,0.5;0.6,0.2,0.2\")")
    support = numbers(support_text, "--support")
    if len(support) < 2:
        raise fail("--support", f"need at least two support points, got {support_text!r}")
    if support[0] < 0:
        raise fail("--support", f"points must lie in [0, b] (rewards are non-negative), got {support[0]:g}")
    if any(b <= a for a, b in zip(support, support[1:])):
        raise fail("--support", f"points must be strictly increasing, got {support_text!r}")
    if support[-1] > MAX_REWARD:
        raise fail("--support", f"the point {reward_too_large(support[-1])}")
    rows = split_top(str(probs_text), ";")
    if len(rows) < 2:
        raise fail("--probs", f"need at least two arms, one law per arm separated by ';', got {probs_text!r}")
    probs, notes = [], []
    m = len(support)
    for i, row in enumerate(rows, start=1):
        masses = numbers(row, "--probs")
        if len(masses) != m:
            raise fail("--probs", f"arm {i} has {len(masses)} masses, but --support has {m} points")
        bad = [x for x in masses if not 0.0 <= x <= 1.0]
        if bad:
            raise fail("--probs", f"arm {i} has the mass {bad[0]:g}, not in [0, 1]")
        total = math.fsum(masses)
        if total != 1.0:
            if abs(total - 1.0) > PROBS_ROUNDING * m:
                raise fail("--probs", f"the masses of arm {i} sum to {total:.10g}, not 1 (a row within "
                                      f"{PROBS_ROUNDING:g} per mass of 1 is renormalised)")
            masses = tuple(x / total for x in masses)
            notes.append(f"argument '--probs': the masses of arm {i} sum to {total:.10g}; divided by the sum")
        probs.append(masses)
    return support, tuple(probs), notes


def params(items, flag: str = "--param") -> dict[str, str]:
    """``--param k=v`` items (repeatable); each value is a constant expression (``s=1/2``)."""
    out: dict[str, str] = {}
    for item in items or []:
        if "=" not in item:
            raise fail(flag, f"expected NAME=VALUE (e.g. {flag} s=0.5), got {item!r}")
        k, v = (x.strip() for x in item.split("=", 1))
        if not k.isidentifier():
            raise fail(flag, f"bad parameter name {k!r} in {item!r}")
        if k in out:
            raise fail(f"{flag} {k}", "given twice")
        try:
            ex.check(v, f"{flag} {k}")
        except ex.ExpressionError as exc:
            raise _usage(exc) from None
        out[k] = v
    return out


def distortion(text, flag: str, param_names=()) -> str:
    """A registry name (:data:`~proofs_checks.cli.names.DISTORTIONS`) or an expression in ``u`` (grammar-checked).

    The expression may use the names of ``--param``; whether it *is* a
    distortion function (h(0) = 0, h bounded) is decided later, by
    :func:`rsb_theory.distortions.resolve`.
    """
    if text is None or not str(text).strip():
        raise fail(flag, f"required: one of {', '.join(DISTORTIONS + EXTENSIONS)}, dual(NAME), or an expression in u")
    text = str(text)
    if text in DISTORTIONS or text in EXTENSIONS:
        return text
    name = text.strip()
    if name.startswith("dual(") and name.endswith(")") and split_top(name[5:-1], ",") == [name[5:-1].strip()]:
        distortion(name[5:-1], flag, param_names)  # h*(u) = h(1) - h(1 - u) of a name or an expression
        return text
    if name.isidentifier() and name not in {"u", *param_names}:
        known = DISTORTIONS + EXTENSIONS
        if name.lower() in known:  # names are case-insensitive (Gini, CVaR); expressions are not
            return name.lower()
        raise fail(flag, f"{name!r} is neither a registered distortion{did_you_mean(name, known)} "
                         f"({', '.join(known)}, or dual(NAME)) nor an expression in u")
    try:
        ex.check(text, flag, ("u", *param_names))
    except ex.ExpressionError as exc:
        raise _usage(exc) from None
    return text


def choices(text, flag: str, known: tuple[str, ...], what: str) -> tuple[str, ...]:
    """A comma-separated list of names from ``known`` (``--algo rs-ucb-m,rs-etc-m``)."""
    items = split_top(str(text or ""), ",")
    if not items:
        raise fail(flag, f"expected one or more {what}s, comma-separated, from: {', '.join(known)}")
    for item in items:
        if item not in known:
            raise fail(flag, f"unknown {what} {item!r}; write one or more of: {', '.join(known)} (comma-separated)")
    return tuple(items)


#: Most local worker processes of a sweep (each is a process with its own interpreter and memory).
MAX_JOBS = 256


#: The address schemes of a Dask scheduler (distributed's comm backends); anything else (``file://``) is refused here,
#: not by Dask after the work has started.
_SCHEDULER_SCHEMES = ("tcp", "tls", "ucx", "ws", "wss")


def sweep_options(args, default_jobs: int | None = None, *, used: bool = True) -> dict:
    """Keyword arguments of :func:`rsb_sim.sweep.sweep` from ``--jobs``, ``--scheduler``, ``--chunk`` and ``--wait``.

    ``--scheduler`` selects the Dask executor (``--jobs`` is then refused);
    otherwise ``--jobs`` worker processes (default ``default_jobs``, or the number
    of CPUs), in this process when it is 1.  ``--wait``: seconds to wait for another
    run holding the output directory.  ``used=False`` (``rsb slopes --no-cache``: no
    sweep runs) refuses the four flags.
    """
    if not used:
        for name in ("jobs", "scheduler", "chunk", "wait"):
            if getattr(args, name) is not None:
                raise fail(f"--{name}", "has no effect with --no-cache (the runs are simulated in this process)")
        return {}
    jobs = None if args.jobs is None else count(args.jobs, "--jobs", 1)
    if jobs is not None and jobs > MAX_JOBS:
        raise fail("--jobs", f"{jobs} worker processes, more than {MAX_JOBS}; use at most the number of CPUs "
                             f"({os.cpu_count() or 1} here)")
    opts: dict = {}
    if args.chunk is not None:
        opts["chunk"] = count(args.chunk, "--chunk", 1)
    if args.wait is not None:
        opts["wait"] = number(args.wait, "--wait", low=0)
    if args.scheduler is not None:
        if jobs is not None:
            raise fail("--jobs", "not with --scheduler (the cluster decides the workers)")
        addr = str(args.scheduler).strip()
        scheme = addr.split("://", 1)[0].lower() if "://" in addr else "tcp"
        if not addr or any(c.isspace() for c in addr) or scheme not in _SCHEDULER_SCHEMES:
            raise fail("--scheduler", f"expected an address such as tcp://HOST:8786 (schemes: "
                                      f"{', '.join(_SCHEDULER_SCHEMES)}), got {args.scheduler!r}")
        return {"executor": "dask", "scheduler": addr, **opts}
    if jobs is None:
        jobs = default_jobs if default_jobs is not None else (os.cpu_count() or 1)
    return {"executor": "processes" if jobs > 1 else "local", "jobs": jobs, **opts}
