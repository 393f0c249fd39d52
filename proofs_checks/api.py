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
            raise ValueError("argument 'params': h is already a Distortion with its parameters fixed")
        return h
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
        return json.dumps(self.data, indent=2)


def _arms(p=None, support=None, probs=None, arms=None, *, required: bool = True):
    """``(means, laws)``: Bernoulli means, or the laws of ``support``/``probs`` or ``arms`` (one of them)."""
    given = [name for name, v in (("p", p), ("support", support), ("arms", arms)) if v is not None]
    if probs is not None and support is None:
        raise ValueError("argument 'support': finite laws need both support and probs")
    if len(given) > 1:
        raise ValueError(f"argument '{given[1]}': give one of p, support/probs or arms, not {' and '.join(given)}")
    if p is not None:
        means = tuple(float(x) for x in p)
        if len(means) < 2:
            raise ValueError(f"argument 'p': need K >= 2 Bernoulli means, got {list(p)!r}")
        return means, None
    if support is not None:
        from rsb_theory.laws.build import finite_laws

        if probs is None:
            raise ValueError("argument 'probs': finite laws need both support and probs")
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

    if algo not in sim_options.ALGORITHMS:
        raise ValueError(f"argument 'algo': unknown algorithm {algo!r}; known: {', '.join(sim_options.ALGORITHMS)}")
    d = distortion(h, **(params or {}))
    means, laws = _arms(p, support, probs, arms)
    sim_options.check_applies(algo, [k for k, v in options.items() if v is not None])
    cfg = SimConfig(T=T, trials=trials, seed=seed, **{k: v for k, v in options.items() if v is not None})
    return run(cfg, _instance(algo, T, means, laws, options.get("quantize"), support, probs), d, algo, record=record)


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
        return json.dumps(self.summary(), indent=2)

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

    algos = list(algos)
    if not algos or len(set(algos)) != len(algos):
        raise ValueError(f"argument 'algos': need distinct algorithms, got {algos!r}")
    given = [k for k, v in options.items() if v is not None]
    for name in given:
        if not any(name in sim_options.READS.get(a, ()) for a in algos):
            sim_options.check_applies(algos[0], [name])  # the one message naming the option
    d = distortion(h, **(params or {}))
    out = {}
    for algo in algos:
        mine = {k: options[k] for k in given if k in sim_options.READS.get(algo, ())}
        out[algo] = simulate(d, algo, p, support=support, probs=probs, arms=arms, T=T, trials=trials, seed=seed,
                             record=record, **mine)
    return Comparison(out)


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
    entries = list(entries)
    return Findings(tuple(_findings.what_matters(entries)), tuple(_findings.bottom_lines(entries)))
