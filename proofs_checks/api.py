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

__all__ = ["distortion", "profile", "optimum", "simulate", "compare", "ledger", "Report", "Comparison"]


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
            raise ValueError("argument 'params': h is already a Distortion with its parameters fixed")
        return h
    if not isinstance(h, str):
        raise ValueError(f"argument 'h': need a name or an expression in u (text), or a Distortion, got "
                         f"{type(h).__name__} {str(h)[:60]!r}")
    return resolve(h, **params)


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
        raise ValueError("argument 'probs': needs support beside it: finite laws need both support and probs")
    if len(given) > 1:
        raise ValueError(f"argument '{given[1]}': give one of p, support/probs or arms, not {' and '.join(given)}")
    if p is not None:
        from rsb_theory import arguments

        return arguments.probabilities(p, "p"), None
    if support is not None:
        from rsb_theory.laws.build import finite_laws

        if probs is None:
            raise ValueError("argument 'support': needs probs beside it: finite laws need both support and probs")
        return None, finite_laws(support, probs, flag="probs")
    if arms is not None:
        if isinstance(arms, str):
            from rsb_theory.laws import parse_arms

            return None, parse_arms(arms, "arms")
        return None, tuple(arms)
    if required:
        raise ValueError("argument 'p': give the arms: p (Bernoulli means), support and probs, or arms")
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
    from .cli.derive import derive_report

    d = distortion(h, **(params or {}))
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
    from .cli.optimize import optimize_laws_report, optimize_report

    d = distortion(h, **(params or {}))
    means, laws = _arms(p, support, probs, arms)
    if laws is None:
        return Report(d, optimize_report(d, {}, means, eps, grid, method))
    return Report(d, optimize_laws_report(d, {}, laws, eps, grid, method))


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
    algo : str
        ``rs-etc-m``, ``rs-ucb-m``, ``ce-ucb-m``, ``uniform``, ``ucb1`` or ``dr-ucb``
        (:data:`rsb_sim.options.ALGORITHMS`).
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
    d = distortion(h, **(params or {}))
    means, laws = _arms(p, support, probs, arms)
    sim_options.check_applies(algo, [k for k, v in options.items() if v is not None])
    K = len(means) if means is not None else len(laws)
    _budget(algo, K, T, trials, options.get("eps") if "eps" in sim_options.READS[algo] else None, record,
            max_work, max_memory)
    cfg = SimConfig(T=T, trials=trials, seed=seed, **{k: v for k, v in options.items() if v is not None})
    return run(cfg, _instance(algo, T, means, laws, options.get("quantize"), support, probs), d, algo, record=record)


#: Options of :func:`simulate` that are counts (the others are numbers).
_COUNT_OPTIONS = ("explore", "quantize", "threads")


def _algo(algo) -> str:
    """An algorithm's name (case aside), ValueError naming ``algo`` with a "did you mean" otherwise."""
    from rsb_sim import options as sim_options
    from rsb_theory import arguments

    if not isinstance(algo, str):
        raise ValueError(f"argument 'algo': need an algorithm's name (text), got {type(algo).__name__}")
    if algo.lower() in sim_options.ALGORITHMS:
        return algo.lower()
    near = arguments.closest(algo, sim_options.ALGORITHMS)
    hint = f" (did you mean {near}?)" if near else ""
    raise ValueError(f"argument 'algo': unknown algorithm {algo!r}{hint}; known: {', '.join(sim_options.ALGORITHMS)}")


def _known_options(options) -> None:
    """ValueError naming an option that no algorithm has (a typo: ``radius_scal``), with a "did you mean"."""
    from rsb_sim import options as sim_options
    from rsb_theory import arguments

    known = sorted({k for reads in sim_options.READS.values() for k in reads} | set(_COUNT_OPTIONS))
    for name in options:
        if name not in known:
            near = arguments.closest(name, known)
            hint = f"did you mean {near}? " if near else ""
            raise ValueError(f"argument '{name}': unknown option; {hint}known: {', '.join(known)}, max_work, "
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


def _budget(algo: str, K: int, T: int, trials: int, eps, record, max_work, max_memory) -> None:
    """The command line's work and memory estimates (:mod:`rsb_theory.workload`), with its default limits:
    ValueError naming ``eps`` (a grid no budget can index), ``max_work`` or ``max_memory``."""
    from rsb_theory import arguments, workload

    if not isinstance(eps, (int, float)) or isinstance(eps, bool) or not 0 < eps <= 1:
        eps = None if eps is not None else _experiments_eps(K, T)
    work = workload.simulate_work(algo, K, T, trials, eps)
    if work.points > 2**63 - 1:
        raise ValueError(f"argument 'eps': the grid has {workload._num(work.points)} points, more than rsb can index "
                         f"(2^63); use a coarser eps")
    lim = workload.DEFAULT_MAX_WORK if max_work is None else arguments.count(max_work, "max_work", 1)
    msg = work.refusal(lim, "max_work", "a coarser eps, fewer arms or trials, or a shorter T")
    if msg:
        raise ValueError(f"argument 'max_work': {msg}")
    mem = workload.simulate_memory(algo, K, T, trials, eps, record is not None)
    lim = workload.DEFAULT_MAX_MEMORY if max_memory is None else arguments.count(max_memory, "max_memory", 1)
    msg = mem.refusal(lim, "max_memory", "fewer trials, arms or a shorter T")
    if msg:
        raise ValueError(f"argument 'max_memory': {msg}")


def _experiments_eps(K: int, T: int) -> float | None:
    import math

    return math.sqrt(K * math.log(T) / T) if T > 1 and K * math.log(T) < T else None


@dataclass(frozen=True)
class Comparison:
    """Several algorithms on the same instance and the same reward table (:func:`compare`).

    Attributes
    ----------
    results : dict of str to SimResult
        One result per algorithm, in the order given.
    """

    results: dict

    def __getitem__(self, algo: str):
        return self.results[algo]

    def summary(self) -> list[dict]:
        """One ``SimResult.summary()`` per algorithm (the ``--format json`` payload of each run)."""
        return [r.summary() for r in self.results.values()]

    def to_json(self) -> str:
        """A JSON list of the runs' summaries, in the order given."""
        return jsontext.dumps(self.summary(), indent=2)

    def to_frame(self):
        """A tidy pandas DataFrame: one row per algorithm, trial and recorded step (``SimResult.to_frame``)."""
        import pandas as pd

        return pd.concat([r.to_frame() for r in self.results.values()], ignore_index=True)

    def table(self):
        """Mean regret with its 95 % interval per algorithm and step (a DataFrame)."""
        from rsb_sim.trajectory import mean_ci

        rows = []
        for (algo, t), g in self.to_frame().groupby(["algo", "t"], sort=False):
            lo, hi = mean_ci(g["regret"].to_numpy())
            rows.append({"algo": algo, "t": t, "mean_regret": g["regret"].mean(), "ci_low": lo, "ci_high": hi})
        import pandas as pd

        return pd.DataFrame(rows)


def compare(h, algos, p=None, *, support=None, probs=None, arms=None, T: int, trials: int = 1, seed: int = 0,
            record=None, params=None, **options) -> Comparison:
    """Several algorithms on one instance, each through :func:`simulate` on the same reward table.

    The reward of the j-th pull of arm i in trial k is the same for every algorithm (one ``seed``),
    so differences between the rows are the algorithms' alone.

    Parameters
    ----------
    h : str or Distortion
    algos : sequence of str
        Algorithms of :data:`rsb_sim.options.ALGORITHMS`, each at most once.
    p, support, probs, arms, T, trials, seed, record, params
        As for :func:`simulate`.
    **options
        As for :func:`simulate`; each option goes to the algorithms that read it
        (:data:`rsb_sim.options.READS`), and one that none of them reads is an error.

    Returns
    -------
    Comparison
    """
    from rsb_sim import options as sim_options
    from rsb_theory import arguments

    algos = [_algo(a) for a in arguments.names(algos, "algos")]  # "ucb-fw,u-ucb" is two names, not characters
    if not algos or len(set(algos)) != len(algos):
        raise ValueError(f"argument 'algos': need distinct algorithms, got {algos!r}")
    _known_options({k: v for k, v in options.items() if k not in ("max_work", "max_memory")})
    given = [k for k, v in options.items() if v is not None and k not in ("max_work", "max_memory")]
    for name in given:
        if not any(name in sim_options.READS.get(a, ()) for a in algos):
            sim_options.check_applies(algos[0], [name])  # the one message naming the option
    d = distortion(h, **(params or {}))
    out = {}
    for algo in algos:
        mine = {k: options[k] for k in given if k in sim_options.READS.get(algo, ())}
        mine.update({k: options[k] for k in ("max_work", "max_memory") if options.get(k) is not None})
        out[algo] = simulate(d, algo, p, support=support, probs=probs, arms=arms, T=T, trials=trials, seed=seed,
                             record=record, **mine)
    return Comparison(out)


def _entries(ids, jobs: int = 1, mutants: bool = False):
    """The ledger entries of ``ids``: the one call of the registry (``rsb verify`` makes the same one).

    Where a stored ledger exists this is the place that reads it instead of running the checks.
    """
    from .registry import run_claims

    return run_claims(list(ids), progress=False, jobs=jobs, mutants=mutants)


def ledger(status=None, id=None, proof=None, *, mutants: bool = False, jobs: int = 1):
    """Ledger entries with the filters of ``rsb verify``.

    Parameters
    ----------
    status : str or sequence of str, optional
        ``--status``: keep entries with one of these statuses (``verified``, ``refuted``, ``loose``,
        ``conditional``, ``vacuous``, ``unchecked``).
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
    """
    from . import proof_view
    from .ledger import STATUSES, select
    from .registry import claims

    statuses = None
    if status is not None:
        statuses = (status,) if isinstance(status, str) else tuple(status)
        bad = [s for s in statuses if s not in STATUSES]
        if bad:
            raise ValueError(f"argument 'status': unknown status {bad[0]!r}; known: {', '.join(STATUSES)}")
    ids = list(claims())
    if proof is not None:
        if status is not None or id is not None or mutants:
            raise ValueError("argument 'proof': shows one proof's steps; not with status, id or mutants")
        from .paper_labels import BY_LABEL

        info = BY_LABEL.get(proof)
        if info is None or not info.is_result:
            raise ValueError(f"argument 'proof': {proof!r} is not the label of a lemma or theorem (see rsb labels)")
        return proof_view.build(proof, _entries(proof_view.ids_of(proof, ids), jobs))
    if id is not None:
        ids = [i for i in ids if i.startswith(id)]
        if not ids:
            raise ValueError(f"argument 'id': no ledger id starts with {id!r}")
    return select(_entries(ids, jobs, mutants), statuses)
