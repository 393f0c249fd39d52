"""rsb from Python: one plain function per task, the command line's twin (``docs/api.md``).

=====================  =========================================  ==========================
task                   entry point                                command line
=====================  =========================================  ==========================
a distortion h         :func:`distortion`                         ``--h``/``--dr`` + ``--param``
its profile            :func:`profile` -> :class:`Report`         ``rsb derive``
alpha* and a*          :func:`optimum` -> :class:`Report`         ``rsb optimize``
one algorithm          :func:`simulate` -> ``SimResult``          ``rsb simulate``
several algorithms     :func:`compare` -> :class:`Comparison`     ``rsb compare``
the ledger             :func:`ledger` -> list of ``CheckResult``  ``rsb verify``
what matters           :func:`findings` -> :class:`Findings`      ``rsb verify --findings``
=====================  =========================================  ==========================

Arms are given once, the same way to every function: ``p`` (Bernoulli means), ``support`` and
``probs`` (finite laws on a common support), or ``arms`` (the ``--arms`` text of ``docs/arms.md``,
or laws already built by :func:`rsb_theory.laws.parse_arms`).  A distortion is a name, an
expression in ``u`` (through the one parser, :mod:`rsb_theory.expressions`) or a
:class:`~rsb_theory.distortions.Distortion` from :func:`distortion`.

This module sits at the top layer (``proofs_checks``) because the ledger lives there and a
notebook wants one import; it holds no mathematics: each function calls the library function the
command line calls (the same dictionaries, so ``.to_json()`` here and ``--format json`` there are
one serialisation).  The lower layers stay usable directly (``rsb_theory``, ``rsb_sim``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from rsb_sim import jsontext
from rsb_theory.errors import ArgumentError

__all__ = ["distortion", "profile", "optimum", "simulate", "compare", "ledger", "findings", "Report", "Comparison",
           "Findings"]


def distortion(h, **params):
    """A distortion function h from a name or an expression, with its parameters.

    The one constructor: :func:`rsb_theory.distortions.get` (a name) and
    :func:`~rsb_theory.distortions.from_string` (an expression) are what it calls.

    Parameters
    ----------
    h : str or Distortion
        A row of ``table:table_regrets`` (``"gini"``, ``"cvar"``, ...), an extension
        (``"cvar_lower"``), ``"dual(NAME)"``, or an expression in ``u`` (``"u**s*(1-u)"``).
        A Distortion is returned as it is.
    **params
        Parameter values (numbers or strings such as ``"1/2"``); a parameter that h does not use
        is an error, as on the command line.

    Returns
    -------
    rsb_theory.distortions.Distortion

    Examples
    --------
    >>> distortion("u**s*(1-u)", s=0.3).expr
    u**0.3*(1 - u)
    """
    from rsb_theory.distortions import Distortion, resolve

    if isinstance(h, Distortion):
        if params:
            raise ArgumentError("params", "h is already a Distortion with its parameters fixed")
        return h
    if not isinstance(h, str):
        raise ArgumentError("h", "need a name or an expression in u (text), or a Distortion, got "
                         f"{type(h).__name__} {str(h)[:60]!r}")
    try:
        return resolve(h, **params)
    except ArgumentError as exc:  # the library names the command line's flag: here the keyword is the argument
        if not exc.name.startswith("--param"):
            raise
        raise ArgumentError(exc.name[len("--param"):].strip() or "params", exc.message) from None


@dataclass(frozen=True)
class Report:
    """A report of ``rsb derive`` or ``rsb optimize`` as an object.

    Attributes
    ----------
    distortion : Distortion
    data : dict
        The command's ``--format json`` dictionary (keys: docs/quickstart.md); also read as
        ``report["alpha_star"]`` or ``report.alpha_star``.
    """

    distortion: object
    data: dict = field(repr=False)

    def __getitem__(self, key: str):
        return self.data[key]

    def __getattr__(self, key: str):
        try:
            return self.__dict__["data"][key]
        except KeyError:
            raise AttributeError(key) from None

    def keys(self):
        return self.data.keys()

    def to_dict(self) -> dict:
        """The JSON-ready dictionary (a copy)."""
        return json.loads(self.to_json())

    def to_json(self) -> str:
        """The command's ``--format json`` text."""
        return jsontext.dumps(self.data, indent=2)


def _arms(p=None, support=None, probs=None, arms=None, *, required: bool = True):
    """``(means, laws)``: Bernoulli means, or the laws of ``support``/``probs`` or ``arms`` (one of them)."""
    given = [name for name, v in (("p", p), ("support", support), ("arms", arms)) if v is not None]
    if probs is not None and support is None:
        raise ArgumentError("probs", "needs support beside it: finite laws need both support and probs")
    if len(given) > 1:
        raise ArgumentError(given[1], f"give one of p, support/probs or arms, not {' and '.join(given)}")
    if p is not None:
        from rsb_theory import arguments

        return arguments.probabilities(p, "p"), None
    if support is not None:
        from rsb_theory.laws.build import finite_laws

        if probs is None:
            raise ArgumentError("support", "needs probs beside it: finite laws need both support and probs")
        return None, finite_laws(support, probs, flag="probs")
    if arms is not None:
        if isinstance(arms, str):
            from rsb_theory.laws import parse_arms

            return None, parse_arms(arms, "arms")
        from rsb_theory.laws.law import Law

        arms = tuple(arms) if isinstance(arms, (list, tuple)) else arms
        if not isinstance(arms, tuple) or not arms or not all(isinstance(a, (Law, str)) for a in arms):
            raise ArgumentError("arms", "need a string 'SPEC;SPEC;...' or a sequence of laws or specs, got "
                             f"{type(arms).__name__ if not isinstance(arms, tuple) else [type(a).__name__ for a in arms]}")
        if all(isinstance(a, str) for a in arms):  # specs: read as the command line reads 'SPEC;SPEC'
            from rsb_theory.laws import parse_arms

            return None, parse_arms(";".join(arms), "arms")
        if any(isinstance(a, str) for a in arms):
            raise ArgumentError("arms", "give either specs (text) or laws, not both in one sequence")
        return None, arms
    if required:
        raise ArgumentError("p", "give the arms: p (Bernoulli means), support and probs, or arms")
    return None, None


def profile(h, p=None, *, support=None, probs=None, arms=None, params=None) -> Report:
    """Everything ``rsb derive`` derives about h, and with arms about the instance.

    Parameters
    ----------
    h : str or Distortion
    p, support, probs, arms
        The arms (module docstring); none: the family view only.
    params : dict, optional
        Parameters of h when it is a string.

    Returns
    -------
    Report
        The keys of ``rsb derive --format json``: ``q``, ``L_H`` (``assumption:Holder``); with arms
        ``r``, ``L_MH`` (``assumption:Holder_opt``), ``alpha_star``, ``value``, ``beta`` (``eq:discrete_gap``)
        and the rate exponents of ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M``.
    """
    from .instance_reports import derive_report

    d = distortion(h, **_params(params))
    means, laws = _arms(p, support, probs, arms, required=False)
    return Report(d, derive_report(d, {}, means if laws is None else laws))


def optimum(h, p=None, *, support=None, probs=None, arms=None, eps=None, grid: str = "ucb", method: str = "auto",
            params=None) -> Report:
    """alpha* of ``eq:optimal alpha`` and, with ``eps``, the discrete optimum a* (``rsb optimize``).

    Parameters
    ----------
    h : str or Distortion
    p, support, probs, arms
        The arms (module docstring), of any laws.
    eps : float, optional
        The discretisation level: adds ``a_star``, ``Delta`` and ``Delta_min`` of ``eq:discrete_gap``
        (and ``n_optimal``, with a note when the optimum is a set).
    grid : {"ucb", "etc"}
    method : {"auto", "cvxpy", "closed_form", "search", "vertex"}
    params : dict, optional

    Returns
    -------
    Report
        The keys of ``rsb optimize --format json``.
    """
    from .instance_reports import optimize_laws_report, optimize_report

    d = distortion(h, **_params(params))
    means, laws = _arms(p, support, probs, arms)
    if eps is not None:
        eps = _optimum_eps(eps, len(means) if laws is None else len(laws), grid)
    if laws is None:
        return Report(d, optimize_report(d, {}, means, eps, grid, method))
    return Report(d, optimize_laws_report(d, {}, laws, eps, grid, method))


def _params(params) -> dict:
    """The parameters of h as a dict (None: none); ValueError naming ``params`` for anything but a mapping of names."""
    from collections.abc import Mapping

    if params is None:
        return {}
    if not isinstance(params, Mapping) or not all(isinstance(k, str) for k in params):
        raise ArgumentError("params", f"need a mapping of parameter names to values (e.g. {{'s': 0.5}}), got "
                         f"{type(params).__name__}")
    return dict(params)


def _optimum_eps(eps, K: int, grid) -> float:
    """eps of :func:`optimum` through the shared validator and ``rsb optimize``'s estimates with their default
    limits: ValueError naming ``eps`` (a subnormal eps overflowed in the grid's size, ``eps="1/0"`` failed as a
    float conversion)."""
    from rsb_theory import arguments, workload

    eps = arguments.number(eps, "eps", low=0, high=1, low_open=True)
    kind = grid if grid in ("etc", "ucb") else "ucb"  # an unknown grid is named by the route below
    work = workload.optimize_work(K, eps, kind)
    if work.points > 2**63 - 1:
        raise ArgumentError("eps", f"the grid has {workload._num(work.points)} points, more than rsb can index "
                         f"(2^63); use a coarser eps")
    msg = work.refusal(workload.DEFAULT_MAX_WORK, "eps", "a coarser eps or fewer arms") \
        or workload.optimize_memory(K, eps, kind).refusal(workload.DEFAULT_MAX_MEMORY, "eps", "a coarser eps")
    if msg:
        raise ArgumentError("eps", f"{msg}")
    return eps


def _instance(algo: str, T: int, means, laws, quantize, support=None, probs=None):
    """The instance ``algo`` runs on, as ``rsb simulate`` builds it from ``--p``, ``--support/--probs`` or ``--arms``."""
    from rsb_sim.arm_laws import law_instance
    from rsb_sim.instances import make_instance

    if laws is None or support is not None:
        return make_instance(means, support, probs)
    return law_instance(laws, algo, T, quantize)  # each algorithm's route from the same laws


def simulate(h, algo: str, p=None, *, support=None, probs=None, arms=None, T: int, trials: int = 1, seed: int = 0,
             record=None, params=None, **options):
    """Simulate one algorithm on one instance (``rsb simulate``): regret ``eq:regret`` per trial.

    Parameters
    ----------
    h : str or Distortion
    algo : str or policy
        One of :data:`rsb_sim.options.ALGORITHMS`:

{ALGORITHMS}

        or a policy object: a user's own subclass of :class:`rsb_sim.policies.user.IndexRule` or
        :class:`~rsb_sim.policies.user.TargetRule` (``docs/api.md``, "Your own policy").
    p, support, probs, arms
        The arms, given once whatever the algorithm (module docstring): the instance each
        algorithm runs on is built here (:func:`rsb_sim.arm_laws.law_instance`).
    T, trials, seed : int
        Horizon, trials and the root seed of the reward table.
    record : sequence of int, optional
        Steps t at which the regret is recorded (T is added last).
    params : dict, optional
    **options
        ``eps``, ``rho``, ``radius_scale``, ``explore``, ``quantize``, ``threads`` (fields of
        :class:`rsb_sim.config.SimConfig`); one the algorithm does not read is an error.

    Returns
    -------
    rsb_sim.engine.SimResult
        ``.mean_regret``, ``.regrets``, ``.trajectory``; ``.to_frame()`` (one row per trial and
        recorded step) and ``.to_json()`` (the ``--format json`` text).
    """
    from rsb_sim import options as sim_options
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run
    from rsb_theory import arguments

    algo = _algo(algo)
    max_work, max_memory = options.pop("max_work", None), options.pop("max_memory", None)
    _known_options(options)
    T = arguments.count(T, "T", 1)
    trials = arguments.count(trials, "trials", 1)
    seed = arguments.count(seed, "seed", 0)
    options = {k: _option(k, v) for k, v in options.items()}
    d = distortion(h, **_params(params))
    means, laws = _arms(p, support, probs, arms)
    sim_options.check_applies(algo, [k for k, v in options.items() if v is not None])
    K = len(means) if means is not None else len(laws)
    levels = len(support) if support is not None else int(options.get("quantize") or 2)
    _budget(algo, K, T, trials, options.get("eps") if "eps" in algo.reads else None, record, max_work, max_memory,
            levels)
    cfg = SimConfig(T=T, trials=trials, seed=seed, **{k: v for k, v in options.items() if v is not None})
    return run(cfg, _instance(algo, T, means, laws, options.get("quantize"), support, probs), d, algo, record=record)


#: Options of :func:`simulate` that are counts (the others are numbers).
_COUNT_OPTIONS = ("explore", "quantize", "threads")


def _algo(algo):
    """The policy of an algorithm's name (case aside; ValueError naming ``algo`` with a "did you mean" otherwise),
    or a user's own policy object as it is (:mod:`rsb_sim.policies.user`)."""
    from rsb_sim import options as sim_options
    from rsb_theory import arguments

    if not isinstance(algo, str):
        return sim_options.catalog.get(algo)  # a Policy object, else ValueError naming algo
    if algo.lower() in sim_options.ALGORITHMS:
        return sim_options.catalog.get(algo.lower())
    near = arguments.closest(algo, sim_options.ALGORITHMS)
    hint = f" (did you mean {near}?)" if near else ""
    raise ArgumentError("algo", f"unknown algorithm {algo!r}{hint}; known: {', '.join(sim_options.ALGORITHMS)}")


def _known_options(options) -> None:
    """ValueError naming an option that no algorithm has (a typo: ``radius_scal``), with a "did you mean"."""
    from rsb_sim import options as sim_options
    from rsb_theory import arguments

    known = sorted({k for reads in sim_options.READS.values() for k in reads} | set(_COUNT_OPTIONS))
    for name in options:
        if name not in known:
            near = arguments.closest(name, known)
            hint = f"did you mean {near}? " if near else ""
            raise ArgumentError(name, f"unknown option; {hint}known: {', '.join(known)}, max_work, "
                             f"max_memory")


def _option(name: str, value):
    """An option's value through the shared validator (None: not given)."""
    from rsb_theory import arguments

    if value is None:
        return None
    if name in _COUNT_OPTIONS:
        return arguments.count(value, name, 1)
    if isinstance(value, str):
        return value  # an expression in T (eps, explore): SimConfig reads it
    return arguments.number(value, name)


def _budget(algo, K: int, T: int, trials: int, eps, record, max_work, max_memory, levels: int = 2) -> None:
    """The command line's work and memory estimates (:mod:`rsb_theory.workload`), with its default limits:
    ValueError naming ``eps`` (a grid no budget can index), ``max_work`` or ``max_memory``."""
    from rsb_theory import arguments, workload

    if not isinstance(eps, (int, float)) or isinstance(eps, bool) or not 0 < eps <= 1:
        eps = None if eps is not None else _experiments_eps(K, T)
    work = workload.simulate_work(algo.name, K, T, trials, eps, grid=algo.grid, per_step=algo.step_work(K, levels))
    if work.points > 2**63 - 1:
        raise ArgumentError("eps", f"the grid has {workload._num(work.points)} points, more than rsb can index "
                         f"(2^63); use a coarser eps")
    lim = workload.DEFAULT_MAX_WORK if max_work is None else arguments.count(max_work, "max_work", 1)
    msg = work.refusal(lim, "max_work", "a coarser eps, fewer arms or trials, or a shorter T")
    if msg:
        raise ArgumentError("max_work", msg)
    mem = workload.simulate_memory(algo.name, K, T, trials, eps, record is not None, state=algo.state,
                                   grid=algo.grid)
    lim = workload.DEFAULT_MAX_MEMORY if max_memory is None else arguments.count(max_memory, "max_memory", 1)
    msg = mem.refusal(lim, "max_memory", "fewer trials, arms or a shorter T")
    if msg:
        raise ArgumentError("max_memory", msg)


def _experiments_eps(K: int, T: int) -> float | None:
    import math

    return math.sqrt(K * math.log(T) / T) if T > 1 and K * math.log(T) < T else None


@dataclass(frozen=True)
class Comparison:
    """Several algorithms on the same instance and the same reward tables (:func:`compare`), over horizons.

    Attributes
    ----------
    results : dict of (str, int) to SimResult
        One result per (algorithm, horizon T), algorithms in the order given, horizons increasing.
    data : dict
        :meth:`summary`: the statistics of ``rsb compare`` on these runs.
    """

    results: dict
    data: dict = field(repr=False, default_factory=dict)

    @property
    def Ts(self) -> list[int]:
        """The horizons, increasing."""
        return sorted({T for _a, T in self.results})

    def __getitem__(self, key):
        """``c[algo, T]``; ``c[algo]`` when there is one horizon."""
        if isinstance(key, tuple):
            return self.results[key]
        Ts = self.Ts
        if len(Ts) != 1:
            raise KeyError(f"{key!r}: this comparison has horizons {Ts}; write c[{key!r}, T]")
        return self.results[(key, Ts[0])]

    def summary(self) -> dict:
        """The numbers of ``rsb compare --format json`` (without ``files``), computed by the same code
        (:func:`proofs_checks.compare.result`).

        Keys: ``metrics`` (``regret``: the terminal mixture regret V(alpha*) - V(tau_T/T) of ``eq:regret``;
        ``pseudo_regret``: sum_k Delta_k N_k(T), Delta_k = max_i U_h(F_i) - U_h(F_k)); ``mean`` ({metric:
        {algo: {T: {mean, ci_low, ci_high, median, zero_trials}}}}: the mean with its bootstrap percentile
        interval at ``ci_level``); ``mean_regret`` ({algo: {T: mean terminal regret}}); ``settings`` ({algo:
        {algo, setting, multiplier}}); ``multipliers`` ({algo: {T: multiplier of its default exploration
        constant, or None}}); ``tests`` (one dict per pair, T and metric: the columns of ``compare_tests.csv``,
        :data:`proofs_checks.compare.TEST_COLUMNS`); ``level``, ``ci_level``; ``alpha_star``, ``v_star``,
        ``arm_values`` (U_h(F_i)), ``arm_gaps`` (Delta_i), ``best_arm_gap`` (V(alpha*) - max_i U_h(F_i));
        ``warnings`` ({"algo T=..": the run's degenerate-constant warnings}); ``notes`` (runs whose pulls were
        the same in every trial).
        """
        return self.data

    def runs(self) -> list[dict]:
        """One ``SimResult.summary()`` per run (the ``rsb simulate --format json`` payload of each)."""
        return [r.summary() for r in self.results.values()]

    def to_json(self) -> str:
        """:meth:`summary` as strict JSON (:mod:`rsb_sim.jsontext`)."""
        from rsb_sim import jsontext

        return jsontext.dumps(self.data, indent=2)

    def to_frame(self):
        """A tidy pandas DataFrame: one row per algorithm, horizon, trial and recorded step (``SimResult.to_frame``)."""
        import pandas as pd

        return pd.concat([r.to_frame() for r in self.results.values()], ignore_index=True)

    def table(self):
        """Mean regret per algorithm, horizon and recorded step with its 95 % bootstrap percentile interval (a
        DataFrame; the interval stays inside the range of the trials' regrets, so never below 0)."""
        import numpy as np
        import pandas as pd

        from .compare import BOOT_STREAM, bootstrap_ci

        rows = []
        seed = int(next(iter(self.results.values())).config.seed or 0)
        for n, ((algo, T, t), g) in enumerate(self.to_frame().groupby(["algo", "T", "t"], sort=False)):
            x = g["regret"].to_numpy()
            lo, hi = bootstrap_ci(x, np.random.SeedSequence(seed, spawn_key=(BOOT_STREAM, 1 << 20, n)))
            rows.append({"algo": algo, "T": T, "t": t, "mean_regret": float(x.mean()), "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows)


def compare(h, algos, p=None, *, support=None, probs=None, arms=None, Ts=None, T: int | None = None,
            trials: int = 2, seed: int = 0, record=None, params=None, **options) -> Comparison:
    """Several algorithms on one instance over horizons, as ``rsb compare`` runs them (same numbers).

    Horizon j of ``Ts`` is stream (j,) of the root ``SeedSequence(seed)``, and every algorithm at that
    horizon sees the same reward table (common random numbers: trial k is paired across algorithms), so
    ``compare(h, algos, p, Ts=Ts, trials=n, seed=s, radius_scale=x)`` gives the regrets of ``rsb compare
    --algos ... --p ... --Ts ... --trials n --seed s --radius-scale x``, trial for trial.

    Parameters
    ----------
    h : str or Distortion
    algos : sequence of str or policy
        Algorithms of :data:`rsb_sim.options.ALGORITHMS` or policy objects (a user's own, as for
        :func:`simulate`), each at most once; the results are keyed by name.
    p, support, probs, arms, record, params
        As for :func:`simulate`.
    Ts : sequence of int
        The horizons (increasing).  ``T``: one horizon, the same as ``Ts=[T]``.
    trials, seed : int
        Trials per algorithm and horizon (at least 2, for the paired tests), the root seed.
    **options
        As for :func:`simulate`; each option goes to the algorithms that read it
        (:data:`rsb_sim.options.READS`), and one that none of them reads is an error.  ``radius_scale`` is a
        multiplier of each algorithm's own default exploration constant (the radius of
        ``eq:UCB_confidence_sets`` for RS-UCB-M, CE-UCB-M and DR-UCB; the printed bonus for UCB-FW, U-UCB and
        CVaR-UCB), as on the command line.

    Returns
    -------
    Comparison
        ``c[algo, T]`` (a SimResult), ``c.summary()`` (the statistics of ``rsb compare``), ``c.table()``.
    """
    from rsb_sim import options as sim_options
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run
    from rsb_theory import arguments

    from . import compare as cmp

    # "rs-ucb-m,ce-ucb-m" is two names, not characters; a user's policy object is taken as it is
    from rsb_sim.policies.base import Policy

    if isinstance(algos, str) or not isinstance(algos, (list, tuple)):
        algos = arguments.names(algos, "algos")
    policies = [a if isinstance(a, Policy) else _algo(arguments.names([a], "algos")[0]) for a in algos]
    algos = [a.name for a in policies]
    if not algos or len(set(algos)) != len(algos):
        raise ArgumentError("algos", f"need distinct algorithms, got {algos!r}")
    by_name = dict(zip(algos, policies))
    if (Ts is None) == (T is None):
        raise ArgumentError("Ts", "give the horizons Ts (or one horizon T), not both")
    if isinstance(Ts, str):  # "100,200" is two horizons, as on the command line, never its characters
        Ts = Ts.split(",")
    if Ts is not None and not isinstance(Ts, (list, tuple, range)) and type(Ts).__name__ != "ndarray":
        raise ArgumentError("Ts", f"need a sequence of horizons (or T=...), got {type(Ts).__name__} {Ts!r}"[:200])
    Ts = [arguments.count(T, "T", 1)] if Ts is None else [arguments.count(x, "Ts", 1) for x in Ts]
    if not Ts or Ts != sorted(set(Ts)):
        raise ArgumentError("Ts", f"need distinct increasing horizons, got {Ts!r}")
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 2:
        raise ArgumentError("trials", f"need an integer >= 2 (the tests pair trials), got {trials!r}")
    max_work, max_memory = options.pop("max_work", None), options.pop("max_memory", None)
    _known_options(options)
    given = [k for k, v in options.items() if v is not None]
    for name in given:
        if not any(name in by_name[a].reads for a in algos):
            sim_options.check_applies(algos[0], [name])  # the one message naming the option
    d = distortion(h, **_params(params))
    means, laws = _arms(p, support, probs, arms)
    for algo in policies:
        refusal = algo.refusal(d.key)
        if refusal is not None:
            raise ArgumentError("algo", refusal)
    K = len(means) if means is not None else len(laws)
    for algo in policies:  # the command line's estimates and default limits, before any run
        for T_j in Ts:
            _budget(algo, K, T_j, trials, options.get("eps") if "eps" in algo.reads else None, record, max_work,
                    max_memory, len(support) if support is not None else int(options.get("quantize") or 2))
    # the request rsb compare would build: the same specs, so the same streams and options for every run
    extra = {k: options[k] for k in given if k != "radius_scale"}
    req = cmp.CompareRequest(
        algos=tuple(algos), Ts=tuple(Ts), trials=int(trials), seed=int(seed),
        dr=h if isinstance(h, str) else d.describe(), params=tuple((params or {}).items()), p=means,
        support=None if support is None else tuple(support),
        probs=None if probs is None else tuple(tuple(r) for r in probs),
        arms=arms if isinstance(arms, str) else None, radius_scale=options.get("radius_scale"),
        options=tuple(extra.items()))
    out, loaded = {}, []
    for r in cmp.specs(req):
        cfg = SimConfig(**r.spec["config"])
        algo = by_name[r.algo]  # a user's policy object runs as itself, beside the built-ins on the same table
        res = run(cfg, _instance(algo, r.T, means, laws, cfg.quantize, support, probs), d, algo, record=record)
        out[(r.name, r.T)] = res
        loaded.append((r, res.summary(), {"regrets": res.regrets, "counts": res.counts}))
    return Comparison(out, cmp.result(req, cmp.analyse(req, loaded, d=d, laws=laws)))


def _algorithms_doc() -> str:
    """The algorithms of :data:`rsb_sim.options.ALGORITHMS`, for :func:`simulate`'s docstring (not typed)."""
    from rsb_sim import options as o

    groups = (("the paper's", o.PAPER_ALGORITHMS), ("solitary baselines", o.BASELINES),
              ("competitors from the literature", o.COMPETITORS))
    return "\n".join(f"        * {what}: {', '.join(f'``{a}``' for a in algos)}" for what, algos in groups)


if simulate.__doc__:  # python -OO strips docstrings
    simulate.__doc__ = simulate.__doc__.replace("{ALGORITHMS}", _algorithms_doc())


def _entries(ids, jobs: int = 1, mutants: bool = False):
    """The ledger entries of ``ids``: the one call ``rsb verify`` makes (:func:`proofs_checks.stored.load_or_compute`).

    Read from the stored ledger when it is current; otherwise the whole ledger is computed and stored when ``ids`` are
    all the claims (so the next call reads it), and only the checks of ``ids`` run when they are a subset.
    """
    from .registry import claims
    from .stored import load_or_compute

    wanted = list(ids)
    whole = wanted == list(claims())
    chosen = set(wanted)
    got = load_or_compute(mutants=mutants, jobs=jobs, subset=None if whole else (lambda all_ids: [
        i for i in all_ids if i in chosen]))
    by_id = {e.id: e for e in got.entries}
    return [by_id[i] for i in wanted]


def ledger(status=None, id=None, proof=None, *, mutants: bool = False, jobs: int = 1):
    """Ledger entries with the filters of ``rsb verify``.

    Parameters
    ----------
    status : str or sequence of str, optional
        ``--status``: keep entries with one of these statuses (``verified``, ``refuted``, ``loose``,
        ``conditional``, ``vacuous``, ``gap``, ``unchecked``).
    id : str, optional
        ``--id``: the start of a ledger id (only those checks run).
    proof : str, optional
        ``--proof``: a lemma's or theorem's label; returns its proof view instead
        (:class:`proofs_checks.proof_view.ProofView`: statement entries and steps in the paper's order).
    mutants : bool
        ``--mutants``: also run each check on altered claims.
    jobs : int
        Worker processes.

    Returns
    -------
    list of CheckResult, or ProofView with ``proof``
        Each entry has ``.to_dict()`` (the object of ``rsb verify --format json``).

    Notes
    -----
    Without ``id`` and ``proof`` the entries come from the stored ledger (``docs/architecture.md``, "The stored
    ledger") when it is current, and are computed and stored otherwise, so only the first call waits.
    """
    from . import proof_view
    from .ledger import STATUSES, select
    from .registry import claims

    statuses = None
    if status is not None:
        statuses = (status,) if isinstance(status, str) else tuple(status)
        bad = [s for s in statuses if s not in STATUSES]
        if bad:
            raise ArgumentError("status", f"unknown status {bad[0]!r}; known: {', '.join(STATUSES)}")
    ids = list(claims())
    if proof is not None:
        if status is not None or id is not None or mutants:
            raise ArgumentError("proof", "shows one proof's steps; not with status, id or mutants")
        from .paper_labels import BY_LABEL

        info = BY_LABEL.get(proof)
        if info is None or not info.is_result:
            raise ArgumentError("proof", f"{proof!r} is not the label of a lemma or theorem (see rsb labels)")
        return proof_view.build(proof, _entries(proof_view.ids_of(proof, ids), jobs))
    if id is not None:
        if not isinstance(id, str):
            raise ArgumentError("id", f"need a prefix of ledger ids (text), got {type(id).__name__}")
        ids = [i for i in ids if i.startswith(id)]
        if not ids:
            raise ArgumentError("id", f"no ledger id starts with {id!r}")
    return select(_entries(ids, jobs, mutants), statuses)


@dataclass(frozen=True)
class Findings:
    """What matters (``rsb verify --findings``): one finding per cause, ranked, and the bottom line of every lemma and
    theorem (:mod:`proofs_checks.findings`).

    Attributes
    ----------
    what_matters : tuple of proofs_checks.findings.Finding
        Most consequential first; each has ``.title``, ``.conclusion``, ``.rank``, ``.ids`` and ``.members``.
    bottom_lines : tuple of proofs_checks.findings.BottomLine
        In the paper's order; each has ``.label``, ``.statement``, ``.proof`` and ``.sentence``.
    """

    what_matters: tuple
    bottom_lines: tuple

    def __iter__(self):
        return iter(self.what_matters)

    def __len__(self) -> int:
        return len(self.what_matters)

    def __getitem__(self, k):
        return self.what_matters[k]

    def to_dict(self) -> dict:
        """``{"what_matters": [...], "bottom_lines": [...]}``: the object of ``rsb verify --findings --format json``."""
        return {"what_matters": [f.to_dict() for f in self.what_matters],
                "bottom_lines": [b.to_dict() for b in self.bottom_lines]}

    def to_json(self) -> str:
        """The text of ``rsb verify --findings --format json``."""
        from rsb_sim import jsontext

        return jsontext.dumps(self.to_dict(), ensure_ascii=False)

    def to_frame(self):
        """A tidy pandas DataFrame: one row per member of each finding (rank, cause, title, id, status, impact, node
        and the member's sentence), most consequential finding first."""
        import pandas as pd

        rows = [{"position": k, "rank": f.rank, "category": f.category, "cause": f.key, "title": f.title,
                 "id": m.id, "status": m.status, "impact": m.impact, "node": m.node, "sentence": m.line}
                for k, f in enumerate(self.what_matters, 1) for m in f.members]
        columns = ["position", "rank", "category", "cause", "title", "id", "status", "impact", "node", "sentence"]
        return pd.DataFrame(rows, columns=columns)


def findings(entries=None, *, jobs: int = 1) -> Findings:
    """What matters: the findings grouped by cause and ranked, and the bottom lines (``rsb verify --findings``; the
    same objects, ``.to_json()`` is its ``--format json`` text).

    Parameters
    ----------
    entries : sequence of CheckResult, optional
        The entries to summarise (e.g. ``ledger(id="table:")``); default the whole ledger, as the command line.
    jobs : int
        Worker processes when the ledger must be computed (it is read from the store when current, and stored
        after it is computed).

    Returns
    -------
    Findings

    Examples
    --------
    >>> found = findings()                                 # doctest: +SKIP
    >>> [(f.rank, f.title, len(f.ids)) for f in found][:2]  # doctest: +SKIP
    """
    from . import findings as _findings
    from .registry import claims

    if entries is None:
        entries = _entries(list(claims()), jobs)
    from .ledger import CheckResult

    if not isinstance(entries, (list, tuple)) or not all(isinstance(e, CheckResult) for e in entries):
        raise ArgumentError("entries", "need the entries of a ledger (api.ledger(...) or a list of CheckResult)")
    entries = list(entries)
    return Findings(tuple(_findings.what_matters(entries)), tuple(_findings.bottom_lines(entries)))
