"""The algorithms, the paper's default eps, which options each algorithm reads, and the one check that refuses the others.

:func:`rsb_sim.setup.prepare` reads

* ``eps`` -- the discretisation level of the grid (RS-ETC-M, RS-UCB-M, CE-UCB-M);
* ``rho`` -- only through the forced exploration ceil(rho T eps / 4) per arm of
  ``algorithm:B-UCB-M`` (RS-UCB-M, CE-UCB-M), so not when ``explore`` replaces it;
  the eps-dependent bound of ``theorem:UCB upper bound`` also contains rho;
* ``radius_scale`` -- the factor on the radius of ``eq:UCB_confidence_sets`` (the UCBs);
* ``explore`` -- forced-exploration pulls *per arm* for every algorithm that explores:
  it replaces ceil(N(eps)/K) of ``eq:number of samples main paper`` for RS-ETC-M and
  ceil(rho T eps / 4) for RS-UCB-M and CE-UCB-M;
* ``threads`` -- the threads of CE-UCB-M's compiled time loop;
* ``quantize`` -- rewards of ``--arms`` rounded to M levels in CE-UCB-M's estimates
  (:mod:`rsb_sim.arm_laws`; declared in the result, never chosen silently).

Each policy declares the options it reads (``reads`` of its ``POLICY``, :mod:`rsb_sim.policies.base`); the
names and tables here are read off the catalog (:mod:`rsb_sim.policies.catalog`).  The solitary baselines
(``BASELINES``) and the competitors from the literature (``COMPETITORS``; ``docs/simulation.md``,
"Competitors"), not in the paper, read ``explore`` (round-robin pulls per arm, default 1) and, where they
have a bonus, ``radius_scale``.  A policy defined for some distortions only (its ``distortions``) is refused
on any other by :func:`check_distortion`, naming ``algo``.

An option given for an algorithm that does
not read it is an error naming the option (it would otherwise be silently ignored,
and printed in plot titles as if it had an effect).

Importable without NumPy: the command line checks its flags before it imports
anything heavy.
"""

from __future__ import annotations

from typing import Iterable

from .policies import catalog
from rsb_theory.errors import ArgumentError

#: The algorithms of the paper's experiments (``sec: experiments``): the three mixture algorithms and uniform sampling.
PAPER_ALGORITHMS: tuple[str, ...] = catalog.names("paper")
#: Solitary baselines (not in the paper): each converges to one arm, so on a mixture-optimal instance their regret
#: stays at least V(alpha*) - max_i U_h(F_i) (``eq:regret``); no bound of the paper applies to them.
BASELINES: tuple[str, ...] = catalog.names("baseline")
#: Competitors from the literature (not in the paper; ``docs/simulation.md``, "Competitors").
COMPETITORS: tuple[str, ...] = catalog.names("competitor")
#: The algorithms that are not the paper's: no bound of the paper applies to them.
NOT_PAPER: tuple[str, ...] = BASELINES + COMPETITORS
#: The algorithms of :mod:`rsb_sim` (one policy module each in :mod:`rsb_sim.policies`, read by the catalog).
ALGORITHMS: tuple[str, ...] = catalog.names()

#: Algorithms defined for some distortion families only, and the families (``rsb_theory.distortions`` keys) they
#: accept (each policy's declaration ``distortions``).
CVAR_ONLY: dict[str, tuple[str, ...]] = {p.name: p.distortions for p in catalog.policies()
                                          if p.distortions is not None}

#: The default discretisation level of ``sec: experiments``, eps = sqrt(K log T / T), as an expression
#: in T and K read by :mod:`rsb_theory.expressions` (:meth:`rsb_sim.config.SimConfig.eps_for` evaluates
#: it; ``rsb slopes`` reads the same text symbolically for the rate of the bound).
EXPERIMENTS_EPS = "sqrt(K*log(T)/T)"

#: The options each algorithm reads (names of :class:`rsb_sim.config.SimConfig` fields; each policy's ``reads``).
READS: dict[str, frozenset[str]] = {p.name: frozenset(p.reads) for p in catalog.policies()}

#: What each option does, for the error message.
ROLE: dict[str, str] = {
    "eps": "the discretisation level of the grid",
    "rho": "the rate of the forced exploration ceil(rho T eps / 4) of the UCBs",
    "radius_scale": "the factor on the confidence radius of the UCBs (and on the bonus of the index policies that have one)",
    "explore": "the forced-exploration pulls per arm",
    "threads": "the threads of CE-UCB-M's compiled loop",
    "quantize": "the quantisation of rewards to M levels in the estimates of the UCB-type algorithms (--arms)",
}


def unused(algo: str, given: Iterable[str], *, bound: bool = False) -> list[str]:
    """The options in ``given`` that ``algo`` does not read, in the order given.

    Parameters
    ----------
    algo : str
        One of :data:`ALGORITHMS`.
    given : iterable of str
        Option names the caller set (SimConfig field names).
    bound : bool
        The caller also evaluates the eps-dependent bound of ``theorem:UCB upper
        bound``, which contains rho: rho is then used by the UCBs even when
        ``explore`` replaces the forced exploration.
    """
    given = list(given)
    reads = catalog.get(algo).reads
    out = [name for name in given if name not in reads]
    if "rho" in reads and "rho" in given and "explore" in given and not bound:
        out.append("rho")
    return out


def check_applies(algo: str, given: Iterable[str], *, bound: bool = False) -> None:
    """ValueError naming the first option of ``given`` that ``algo`` does not read (see :func:`unused`)."""
    given = list(given)
    bad = unused(algo, given, bound=bound)
    if not bad:
        return
    name = bad[0]
    policy = catalog.get(algo)
    algo = policy.name
    if name in policy.reads:  # rho beside explore
        raise ArgumentError(name, f"has no effect when an exploration count is given ({algo} then "
                         f"explores that many pulls per arm instead of ceil(rho T eps / 4)); leave one of them out")
    raise ArgumentError(name, f"{algo} does not use {ROLE.get(name, name)}; leave it out")


def check_distortion(algo, family: str) -> None:
    """ValueError naming ``algo`` when the policy is not defined for the distortion family ``family`` (the key of
    the distortion, ``Distortion.key``): the one "does not apply" check of an algorithm against the distortion,
    the policy's own :meth:`~rsb_sim.policies.base.Policy.refusal`."""
    reason = catalog.get(algo).refusal(family)
    if reason is not None:
        raise ArgumentError("algo", reason)
