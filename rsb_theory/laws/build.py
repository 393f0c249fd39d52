"""Arm specifications -> laws: ``parse_arms("beta(2,5);uniform(0.3,0.1)")``.

:func:`parse_arms` reads the text (:func:`rsb_theory.laws.spec.parse_specs`,
light) and builds each law here: a ``scipy.stats`` law is fetched only by a
name of :data:`rsb_theory.laws.names.CONTINUOUS`, frozen with the parameters,
and refused when SciPy refuses the parameters (named: ``scale``, or the shapes
whose change alone would make them valid) or when its support is unbounded or
reaches below 0 (rewards live in a bounded subset of [0, oo): ``sec:setting``;
the message suggests ``truncnorm`` or a clip).  ``empirical(FILE:COLUMN)``
reads the column (:mod:`rsb_theory.laws.empirical`).  Every error is one line
``argument '--arms': arm <i> (<spec>): ...``.
"""

from __future__ import annotations

import warnings

import numpy as np

from .empirical import read_column
from .law import BernoulliLaw, ContinuousLaw, FiniteLaw, empirical_law
from .names import CONTINUOUS, parameter_names
from .spec import MAX_REWARD, PROB_TOL, ArmSpec, LawError, parse_specs, reward_too_large

__all__ = ["parse_arms", "build_laws", "build_law", "continuous_law", "finite_law", "bernoulli_law",
           "finite_laws", "bernoulli_laws", "MAX_KINKS"]

#: Most interior kinks of a law's CDF passed to the quadrature (irwinhall(n) has n - 1).
MAX_KINKS = 1000

#: Largest shape parameter of the laws whose SciPy code holds arrays of that many numbers (irwinhall(n): n + 1
#: float64 per array), checked before SciPy sees it: ``irwinhall(10**9)`` asked for 7.45 GiB (a MemoryError
#: traceback), ``irwinhall(10**7)`` ran for more than 10 minutes; ``irwinhall(10**6)`` runs (minutes, 8 MB arrays).
ARRAY_SHAPES = {"irwinhall": 10**6}

#: Values tried for one shape parameter at a time to find which one SciPy refuses.
_PROBES = (-2.0, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)


def _fail(flag: str, where: str, message: str) -> LawError:
    return LawError(flag, f"{where}: {message}")


def _valid(dist, args) -> bool:
    """SciPy accepts ``args`` (its ``support`` is NaN exactly where its argument check fails or scale <= 0)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # erlang warns about a non-integer shape, then accepts it
        lo, hi = dist.support(*args)
    return not (np.isnan(lo) or np.isnan(hi))


def _culprits(name: str, dist, args: tuple[float, ...]) -> list[str]:
    names = parameter_names(name)
    full = list(args) + [0.0, 1.0][len(args) - len(CONTINUOUS[name]):]
    if full[-1] <= 0:
        return ["scale"]
    shapes = len(CONTINUOUS[name])
    if shapes == 1:
        return [names[0]]
    fixable = []
    for j in range(shapes):
        for v in _PROBES:
            trial = list(full)
            trial[j] = v
            if _valid(dist, trial):
                fixable.append(names[j])
                break
    return fixable or list(names[:shapes])


def _kinks(name: str, args: tuple[float, ...], frozen) -> tuple[float, ...]:
    """Interior points where the density of the law jumps or has a kink (known for a few laws)."""
    shapes = len(CONTINUOUS[name])
    loc, scale = (list(args[shapes:]) + [0.0, 1.0][len(args) - shapes:])[:2]
    if name == "triang":
        pts = [args[0]]
    elif name == "trapezoid":
        pts = [args[0], args[1]]
    elif name == "irwinhall":
        pts = list(range(1, min(int(args[0]), MAX_KINKS + 1)))
    else:
        return ()
    lo, hi = (float(v) for v in frozen.support())
    return tuple(sorted({float(loc + scale * t) for t in pts} - {lo, hi}))


def continuous_law(name: str, args, flag: str = "--arms", where: str = "arm 1") -> ContinuousLaw:
    """A ``scipy.stats`` law by name and positional parameters (shapes, loc, scale), checked.

    Raises
    ------
    LawError
        ``name`` not in :data:`~rsb_theory.laws.names.CONTINUOUS`, a parameter count or value SciPy
        refuses (named), unbounded support or support reaching below 0.
    """
    if name not in CONTINUOUS:  # the only gate to scipy.stats: never getattr on an unlisted name
        raise _fail(flag, where, f"unknown law {name!r}")
    from scipy import stats

    dist = getattr(stats, name)
    args = tuple(float(v) for v in args)
    names = parameter_names(name)
    if not len(CONTINUOUS[name]) <= len(args) <= len(names):
        raise _fail(flag, where, f"{name} takes parameters ({', '.join(names)}), got {len(args)}")
    if name in ARRAY_SHAPES and args and not args[0] <= ARRAY_SHAPES[name]:
        raise _fail(flag, where, f"{name}({parameter_names(name)[0]}) with {parameter_names(name)[0]} = {args[0]:.15g} "
                                 f"above {ARRAY_SHAPES[name]}: scipy.stats.{name} holds arrays of that many numbers "
                                 f"(memory and time grow with it)")
    if not _valid(dist, args):
        bad = _culprits(name, dist, args)
        shown = ", ".join(f"{n} = {args[names.index(n)]:g}" if names.index(n) < len(args) else n for n in bad)
        raise _fail(flag, where, f"scipy.stats.{name} refuses parameter{'s' if len(bad) > 1 else ''} {shown} "
                                 f"(parameters: {', '.join(names)})")
    frozen = dist(*args)
    lo, hi = (float(v) for v in frozen.support())
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise _fail(flag, where, f"{name} with these parameters has unbounded support [{lo:g}, {hi:g}]; rewards "
                                 f"must lie in a bounded interval [0, b] (sec:setting): use a law with bounded "
                                 f"support, e.g. truncnorm(a, b, loc, scale) for a normal law cut to "
                                 f"[loc + a*scale, loc + b*scale], or clip the law to [0, b]")
    if lo < 0:
        raise _fail(flag, where, f"support [{lo:g}, {hi:g}] reaches below 0; rewards must be non-negative "
                                 f"(sec:setting): shift it with loc, or use truncnorm / a clip to [0, b]")
    if hi > MAX_REWARD:
        raise _fail(flag, where, f"the top of the support {reward_too_large(hi)}")
    return ContinuousLaw(name, args, frozen, _kinks(name, args, frozen))


def finite_law(atoms, masses, flag: str = "--arms", where: str = "arm 1") -> FiniteLaw:
    """A finite law from atoms (distinct, >= 0, any order) and masses (in [0, 1], summing to 1 within 1e-9)."""
    xs = np.asarray(atoms, dtype=float).ravel()
    ps = np.asarray(masses, dtype=float).ravel()
    if xs.size == 0 or xs.size != ps.size:
        raise _fail(flag, where, f"need as many masses as atoms (at least one), got {xs.size} atoms, {ps.size} masses")
    if not (np.all(np.isfinite(xs)) and np.all(np.isfinite(ps))):
        raise _fail(flag, where, "atoms and masses must be finite")
    if xs.min() < 0:
        raise _fail(flag, where, f"atom {xs.min():g} is negative; rewards must be non-negative (sec:setting)")
    if xs.max() > MAX_REWARD:
        raise _fail(flag, where, f"atom {reward_too_large(float(xs.max()))}")
    if ps.min() < 0 or ps.max() > 1:
        raise _fail(flag, where, "masses must lie in [0, 1]")
    if abs(float(ps.sum()) - 1.0) > PROB_TOL:
        raise _fail(flag, where, f"the masses sum to {float(ps.sum()):.12g}, not 1 (tolerance {PROB_TOL:g})")
    order = np.argsort(xs, kind="stable")
    xs, ps = xs[order], ps[order]
    if np.any(np.diff(xs) == 0):
        raise _fail(flag, where, "atoms must be distinct")
    return FiniteLaw(tuple(float(v) for v in xs), tuple(float(v) for v in ps))


def bernoulli_law(p, flag: str = "--arms", where: str = "arm 1") -> BernoulliLaw:
    """Bern(p), p in [0, 1]."""
    p = float(p)
    if not (0.0 <= p <= 1.0):
        raise _fail(flag, where, f"parameter p = {p:g} is outside [0, 1]")
    return BernoulliLaw((0.0, 1.0), (1.0 - p, p), p)


def finite_laws(support, probs, flag: str = "--probs") -> tuple[FiniteLaw, ...]:
    """One :class:`FiniteLaw` per row of ``probs`` on the common ``support`` (today's ``--support/--probs``)."""
    rows = np.atleast_2d(np.asarray(probs, dtype=float))
    return tuple(finite_law(support, row, flag, f"row {i} (arm {i})") for i, row in enumerate(rows, start=1))


def bernoulli_laws(p, flag: str = "--p") -> tuple[BernoulliLaw, ...]:
    """One :class:`BernoulliLaw` per mean (today's ``--p``)."""
    return tuple(bernoulli_law(v, flag, f"arm {i}") for i, v in enumerate(np.atleast_1d(p), start=1))


def build_law(spec: ArmSpec, flag: str = "--arms"):
    """The law of one parsed specification (errors name ``flag`` and the arm)."""
    where = f"arm {spec.index} ({spec.text})"
    if spec.name == "bernoulli":
        return bernoulli_law(spec.args[0], flag, where)
    if spec.name == "finite":
        return finite_law(spec.atoms, spec.masses, flag, where)
    if spec.name == "empirical":
        values = read_column(spec.path, spec.column, flag, where)
        return empirical_law(values, f"{spec.path}:{spec.column}")
    return continuous_law(spec.name, spec.args, flag, where)


def build_laws(specs, flag: str = "--arms") -> tuple:
    """:func:`build_law` of each specification, in order."""
    return tuple(build_law(s, flag) for s in specs)


def parse_arms(text, flag: str = "--arms", min_arms: int = 2) -> tuple:
    """The laws of ``--arms "SPEC;SPEC;..."`` (grammar: :mod:`rsb_theory.laws.spec`).

    Parameters
    ----------
    text : str
        ``"beta(2,5); uniform(0.3,0.1); bernoulli(0.4); finite(0:0.2, 1:0.8); empirical(r.csv:ret)"``.
    flag : str
        Named in every error.
    min_arms : int
        Fewest arms accepted.

    Returns
    -------
    tuple of laws
        :class:`~rsb_theory.laws.law.BernoulliLaw`, :class:`~rsb_theory.laws.law.FiniteLaw`,
        :class:`~rsb_theory.laws.law.EmpiricalLaw` or :class:`~rsb_theory.laws.law.ContinuousLaw`.

    Raises
    ------
    LawError
        One line ``argument '<flag>': arm <i> (<spec>): ...`` naming the parameter.
    """
    return build_laws(parse_specs(text, flag, min_arms), flag)
