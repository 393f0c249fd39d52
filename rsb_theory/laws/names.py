"""The vocabulary of ``--arms`` (light: no NumPy, no SciPy).

:data:`CONTINUOUS` maps every continuous distribution of ``scipy.stats`` to the
names of its shape parameters, in scipy's order; ``loc`` and ``scale`` follow
them, as in scipy (``beta(a, b, loc, scale)``).  A law name from the user is
looked up here before anything touches ``scipy.stats``: no attribute of a module
is ever fetched by a name that is not in this table.  The table is the one of
the installed SciPy (``tests/theory/test_laws_spec.py`` compares them); a law
SciPy adds later is refused until it is added here.

Whether a law has bounded, non-negative support depends on its parameters
(``genpareto(c)`` is bounded for c < 0), so that is checked when the law is
built (:mod:`rsb_theory.laws.build`), not here.
"""

from __future__ import annotations

from typing import Mapping

__all__ = ["CONTINUOUS", "SPECIAL", "BOUNDED_EXAMPLES", "parameter_names"]

#: Law names rsb defines itself (``bernoulli(p)``, ``finite(x:p, ...)``, ``empirical(FILE:COLUMN)``).
SPECIAL: tuple[str, ...] = ("bernoulli", "finite", "empirical")

#: Examples shown when a law is unknown or has unbounded support.
BOUNDED_EXAMPLES: tuple[str, ...] = ("beta(2, 5)", "uniform(0.3, 0.1)", "truncnorm(-2, 2, 0.5, 0.1)",
                                     "triang(0.5, 0, 1)")

#: scipy.stats continuous distributions -> their shape parameters (scipy's order).
CONTINUOUS: Mapping[str, tuple[str, ...]] = {
    "alpha": ('a',), "anglit": (), "arcsine": (), "argus": ('chi',), "beta": ('a', 'b'),
    "betaprime": ('a', 'b'), "bradford": ('c',), "burr": ('c', 'd'), "burr12": ('c', 'd'), "cauchy": (),
    "chi": ('df',), "chi2": ('df',), "cosine": (), "crystalball": ('beta', 'm'), "dgamma": ('a',),
    "dpareto_lognorm": ('u', 's', 'a', 'b'), "dweibull": ('c',), "erlang": ('a',), "expon": (),
    "exponnorm": ('K',), "exponpow": ('b',), "exponweib": ('a', 'c'), "f": ('dfn', 'dfd'),
    "fatiguelife": ('c',), "fisk": ('c',), "foldcauchy": ('c',), "foldnorm": ('c',), "gamma": ('a',),
    "gausshyper": ('a', 'b', 'c', 'z'), "genexpon": ('a', 'b', 'c'), "genextreme": ('c',),
    "gengamma": ('a', 'c'), "genhalflogistic": ('c',), "genhyperbolic": ('p', 'a', 'b'),
    "geninvgauss": ('p', 'b'), "genlogistic": ('c',), "gennorm": ('beta',), "genpareto": ('c',), "gibrat": (),
    "gompertz": ('c',), "gumbel_l": (), "gumbel_r": (), "halfcauchy": (), "halfgennorm": ('beta',),
    "halflogistic": (), "halfnorm": (), "hypsecant": (), "invgamma": ('a',), "invgauss": ('mu',),
    "invweibull": ('c',), "irwinhall": ('n',), "jf_skew_t": ('a', 'b'), "johnsonsb": ('a', 'b'),
    "johnsonsu": ('a', 'b'), "kappa3": ('a',), "kappa4": ('h', 'k'), "ksone": ('n',), "kstwo": ('n',),
    "kstwobign": (), "landau": (), "laplace": (), "laplace_asymmetric": ('kappa',), "levy": (), "levy_l": (),
    "levy_stable": ('alpha', 'beta'), "loggamma": ('c',), "logistic": (), "loglaplace": ('c',),
    "lognorm": ('s',), "loguniform": ('a', 'b'), "lomax": ('c',), "maxwell": (), "mielke": ('k', 's'),
    "moyal": (), "nakagami": ('nu',), "ncf": ('dfn', 'dfd', 'nc'), "nct": ('df', 'nc'), "ncx2": ('df', 'nc'),
    "norm": (), "norminvgauss": ('a', 'b'), "pareto": ('b',), "pearson3": ('skew',), "powerlaw": ('a',),
    "powerlognorm": ('c', 's'), "powernorm": ('c',), "rayleigh": (), "rdist": ('c',), "recipinvgauss": ('mu',),
    "reciprocal": ('a', 'b'), "rel_breitwigner": ('rho',), "rice": ('b',), "semicircular": (),
    "skewcauchy": ('a',), "skewnorm": ('a',), "studentized_range": ('k', 'df'), "t": ('df',),
    "trapezoid": ('c', 'd'), "triang": ('c',), "truncexpon": ('b',), "truncnorm": ('a', 'b'),
    "truncpareto": ('b', 'c'), "truncweibull_min": ('c', 'a', 'b'), "tukeylambda": ('lam',), "uniform": (),
    "vonmises": ('kappa',), "vonmises_line": ('kappa',), "wald": (), "weibull_max": ('c',),
    "weibull_min": ('c',), "wrapcauchy": ('c',),
}


def parameter_names(name: str) -> tuple[str, ...]:
    """Every positional parameter of the continuous law ``name``: its shapes, then ``loc``, ``scale``."""
    return (*CONTINUOUS[name], "loc", "scale")
