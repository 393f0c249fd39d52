"""The five experiments of ``sec: experiments`` and ``Appendix: Additional Experiments`` as data.

Each :class:`Experiment` describes one figure of the paper (``fig:T_experiment``,
``fig:K_experiment``, ``fig:regret_uniform``, ``fig:ucb_eta``,
``fig:ucb_zeta``): the instances, horizons, algorithms, and two *variants* of
the constants, and turns them into :mod:`rsb_sim.sweep` specs
(:meth:`Experiment.runs`).

Variants (both are always run and plotted side by side):

* ``paper`` -- the constants as printed: confidence radius of
  ``eq:UCB_confidence_sets`` unscaled (``radius_scale = 1``), RS-UCB-M's forced
  exploration as the figure's own text prints it (``T/10`` or ``T/20`` pulls
  per arm in ``sec: experiments``; ``rho = 0.1`` via ceil(rho T eps / 4) of
  ``algorithm:B-UCB-M`` in the appendix), RS-ETC-M's exploration N(eps) of
  ``eq:number of samples main paper``.  At these horizons both algorithms are
  degenerate: the radius is >= 1 for every tau <= T, so RS-UCB-M keeps its
  first mixture, and N(eps) ~ 1e16 >> T, so RS-ETC-M never commits (it is
  round-robin, i.e. uniform sampling).
* ``rsb`` -- our documented choice that makes both informative: the radius
  multiplied by :data:`RSB_RADIUS_SCALE` = 0.01 (no longer covered by
  ``lemma: concentration``), RS-UCB-M's exploration as printed for the figure
  (the main text's T/10 or T/20 per arm where the figure has one, else rho),
  and RS-ETC-M's ceil(N(eps)/K) pulls per arm replaced by the *same per-arm
  exploration* as RS-UCB-M (T/10 or T/20 pulls per arm,
  ``SimConfig.explore``), so that the two algorithms spend the same budget on
  exploration.

Choices the paper does not make (documented in ``docs/reproduction.md``):
the horizons of ``fig:T_experiment`` / ``fig:regret_uniform`` (the paper's
figure files are empty), the ``fig:K_experiment`` instances ("uniform gaps
between the arm means": p_i = 0.3 + 0.6 i/(K-1), *not* symmetric around 1/2,
where uniform sampling would be optimal for Gini), the p2 values of
``fig:ucb_eta``, the K = 3 instance and the rho values of ``fig:ucb_zeta``.
The distortion is Gini (``gini``, h(u) = u(1-u)) with Bernoulli arms
throughout, eps = sqrt(K log T / T) (``sec: experiments``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from rsb_sim.options import READS
from rsb_sim.policies import catalog
from rsb_theory.errors import ArgumentError

#: Factor on the confidence radius in the ``rsb`` variant.
RSB_RADIUS_SCALE = 0.01
#: Default number of trials (``sec: experiments``: "averaged over 10^3 trials").
DEFAULT_TRIALS = 1000
#: Default root seed of every experiment.
DEFAULT_SEED = 0
#: Horizons of ``fig:T_experiment`` and ``fig:regret_uniform`` (not stated in the paper).
T_GRID: tuple[int, ...] = (10_000, 20_000, 50_000, 100_000, 200_000)


def uniform_gap_instance(K: int, low: float = 0.3, high: float = 0.9) -> tuple[float, ...]:
    """p_i = low + (high - low) i / (K - 1), i = 0..K-1 (uniform gaps; not symmetric around 1/2).

    Parameters
    ----------
    K : int
        Number of arms, >= 2.
    low, high : float
        Smallest and largest mean.

    Returns
    -------
    tuple of float
    """
    if not isinstance(K, int) or K < 2:
        raise ArgumentError("K", f"need an integer >= 2, got {K!r}")
    return tuple(round(low + (high - low) * i / (K - 1), 12) for i in range(K))


@dataclass(frozen=True)
class Variant:
    """A choice of the constants the paper fixes.

    Attributes
    ----------
    name : str
        ``"paper"`` or ``"rsb"``.
    radius_scale : float
        Factor on the radius of ``eq:UCB_confidence_sets``.
    ucb_explore_frac : float or None
        RS-UCB-M / CE-UCB-M forced pulls per arm as a fraction of T (ceil), or
        None for ceil(rho T eps / 4) (``algorithm:B-UCB-M``).
    etc_explore_frac : float or None
        RS-ETC-M pulls per arm as a fraction of T (ceil; replaces ceil(N(eps)/K)),
        or None for N(eps) of ``eq:number of samples main paper``.
    description : str
    """

    name: str
    radius_scale: float
    ucb_explore_frac: float | None
    etc_explore_frac: float | None
    description: str

    def config(self, algo: str, T: int, rho: float, trials: int, seed: int) -> dict:
        """SimConfig fields of one run (eps: None = sqrt(K log T / T); ``explore``: pulls per arm)."""
        explore = None
        grid = catalog.get(algo).grid  # the UCBs' forced exploration, or the ETC's
        if grid == "ucb" and self.ucb_explore_frac is not None:
            explore = int(math.ceil(self.ucb_explore_frac * T - 1e-9))
        if grid == "etc" and self.etc_explore_frac is not None:
            explore = int(math.ceil(self.etc_explore_frac * T - 1e-9))
        radius = self.radius_scale if "radius_scale" in READS[algo] else 1.0  # the policies that read it
        return {"T": int(T), "trials": int(trials), "seed": int(seed), "eps": None, "rho": float(rho),
                "radius_scale": float(radius), "explore": explore}


def _variants(ucb_frac: float | None, printed: str, rsb_ucb_frac: float | None = None) -> tuple[Variant, ...]:
    rsb_ucb = ucb_frac if rsb_ucb_frac is None else rsb_ucb_frac
    paper = Variant("paper", 1.0, ucb_frac, None,
                    f"paper's constants: radius 16(sqrt(2e log T)+32)/sqrt(tau) unscaled; RS-UCB-M exploration "
                    f"{printed}; RS-ETC-M exploration N(eps) of eq:number of samples main paper")
    etc = rsb_ucb
    how = (f"ceil({rsb_ucb:g} T) pulls per arm" if rsb_ucb is not None else "ceil(rho T eps/4) pulls per arm")
    rsb = Variant("rsb", RSB_RADIUS_SCALE, rsb_ucb, etc,
                  f"rsb choice: radius x {RSB_RADIUS_SCALE:g}; RS-UCB-M exploration {how}; RS-ETC-M N(eps) replaced "
                  + (f"by the same ceil({etc:g} T) pulls per arm" if etc is not None else "-- (not run)"))
    return paper, rsb


@dataclass(frozen=True)
class Point:
    """One x value of a figure: an instance, a horizon and rho.

    Attributes
    ----------
    x : float
        Abscissa (T, K, p1 - p2 or rho).
    p : tuple of float
        Bernoulli means.
    T : int
    rho : float
    series : str
        Curve label within a variant (e.g. ``"p1=0.55"``); ``""`` for one curve per algorithm.
    """

    x: float
    p: tuple
    T: int
    rho: float = 0.1
    series: str = ""


@dataclass(frozen=True)
class Run:
    """One simulation of an experiment: (variant, algo, point) and its sweep spec."""

    variant: str
    algo: str
    point: Point
    spec: dict


@dataclass(frozen=True)
class Experiment:
    """One figure of the paper as data.

    Attributes
    ----------
    name : str
        Command-line name (``regret-vs-T`` ...).
    figure : str
        LaTeX label of the paper's figure.
    title : str
    x_name, x_label : str
        Column name and axis label of the abscissa.
    log_x, log_y : bool
        Axis scales of the plot.
    points : tuple of Point
    algos : tuple of str
    variants : tuple of Variant
    paper_setup : str
        The paper's description of the figure (quoted/paraphrased with labels).
    choices : str
        What the paper does not state and we chose.
    trials : int
        Default trials.
    seed : int
        Root seed (the same seed at every point: common random numbers).
    panels : str
        ``"variant"``: one panel per variant (the paper's figures); ``"series"``: one panel per
        series of points (the instances of ``mixture-vs-solitary``), every algorithm in each.
    """

    name: str
    figure: str
    title: str
    x_name: str
    x_label: str
    log_x: bool
    log_y: bool
    points: tuple
    algos: tuple
    variants: tuple
    paper_setup: str
    choices: str
    trials: int = DEFAULT_TRIALS
    seed: int = DEFAULT_SEED
    dr: str = "gini"
    params: dict = field(default_factory=dict)
    panels: str = "variant"

    def runs(self, trials: int | None = None, seed: int | None = None) -> list[Run]:
        """Every (variant, algo, point) with its :mod:`rsb_sim.sweep` spec.

        Parameters
        ----------
        trials : int, optional
            Overrides :attr:`trials` (>= 1).
        seed : int, optional
            Overrides :attr:`seed`.

        Returns
        -------
        list of Run
        """
        trials = self.trials if trials is None else trials
        seed = self.seed if seed is None else seed
        if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
            raise ArgumentError("trials", f"need an integer >= 1, got {trials!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ArgumentError("seed", f"need an integer >= 0, got {seed!r}")
        out = []
        for v in self.variants:
            for algo in self.algos:
                for pt in self.points:
                    cfg = v.config(algo, pt.T, pt.rho, trials, seed)
                    spec = {"algo": algo, "dr": self.dr, "params": dict(self.params), "p": list(pt.p),
                            "config": cfg}
                    out.append(Run(v.name, algo, pt, spec))
        return out

    def describe(self) -> dict:
        """JSON-ready description (written into the CSV header and the sidecar JSON)."""
        return {
            "name": self.name, "figure": self.figure, "title": self.title, "dr": self.dr, "params": self.params,
            "x": self.x_name, "algos": list(self.algos),
            "points": [{"x": p.x, "p": list(p.p), "T": p.T, "rho": p.rho, "series": p.series} for p in self.points],
            "variants": [{"name": v.name, "radius_scale": v.radius_scale, "ucb_explore_frac": v.ucb_explore_frac,
                          "etc_explore_frac": v.etc_explore_frac, "description": v.description}
                         for v in self.variants],
            "eps": "sqrt(K log T / T)", "paper_setup": self.paper_setup, "choices": self.choices,
            "panels": self.panels,
        }


def _regret_vs_T() -> Experiment:
    p = (0.4, 0.9)
    return Experiment(
        name="regret-vs-T", figure="fig:T_experiment", title="Regret versus horizon T (Gini, Bern(0.4), Bern(0.9))",
        x_name="T", x_label="horizon T", log_x=True, log_y=True,
        points=tuple(Point(T, p, T) for T in T_GRID), algos=("rs-ucb-m", "rs-etc-m"),
        variants=_variants(0.1, "T/10 pulls per arm (sec: experiments)"),
        paper_setup=("sec: experiments, 'Regret versus horizon': K = 2, nu = (Bern(0.4), Bern(0.9)), alpha* = "
                     "(0.8, 0.2), eps = sqrt(K log T / T), RS-UCB-M explores each arm T/10 times; RS-UCB-M and "
                     "RS-ETC-M, mean (dashed) and range (shaded) over 10^3 trials; the paper reports that RS-UCB-M "
                     "uniformly outperforms RS-ETC-M."),
        choices=(f"horizons T in {list(T_GRID)} (not stated; the figure file is empty in the source); the band is "
                 "the 5%-95% range of the final regret over trials."))


def _regret_vs_K() -> Experiment:
    T = 300_000
    Ks = (2, 3, 4, 5, 6)
    return Experiment(
        name="regret-vs-K", figure="fig:K_experiment", title=f"Regret versus number of arms K (Gini, T = {T:.0e})",
        x_name="K", x_label="number of arms K", log_x=False, log_y=True,
        points=tuple(Point(K, uniform_gap_instance(K), T) for K in Ks), algos=("rs-ucb-m", "rs-etc-m"),
        variants=_variants(0.05, "T/20 pulls per arm (sec: experiments)"),
        paper_setup=("sec: experiments, 'Regret versus number of arms': K in {2,...,6}, instances 'with uniform gaps "
                     "between the arm means' (not given), eps = sqrt(K log T / T), T = 3x10^5, RS-UCB-M explores "
                     "every arm T/20 times; the paper reports that RS-UCB-M outperforms RS-ETC-M, the more so as K "
                     "grows."),
        choices=("instances p_i = 0.3 + 0.6 i/(K-1), i = 0..K-1 (uniform gaps, not symmetric around 1/2: for Gini "
                 "a symmetric instance makes uniform sampling optimal, since its mean is 1/2)."))


def _vs_uniform() -> Experiment:
    p = (0.4, 0.9)
    return Experiment(
        name="vs-uniform", figure="fig:regret_uniform",
        title="RS-UCB-M, RS-ETC-M and uniform sampling (Gini, Bern(0.4), Bern(0.9))",
        x_name="T", x_label="horizon T", log_x=True, log_y=True,
        points=tuple(Point(T, p, T, 0.1) for T in T_GRID), algos=("rs-ucb-m", "rs-etc-m", "uniform"),
        variants=_variants(None, "ceil(rho T eps/4) with rho = 0.1 (Appendix: Additional Experiments)",
                           rsb_ucb_frac=0.1),
        paper_setup=("Appendix: Additional Experiments, 'Regret versus horizon' (fig:regret_uniform): K = 2, "
                     "rho = 0.1, Bern(0.4), Bern(0.9); the paper reports that uniform sampling is not "
                     "regret-efficient and that RS-UCB-M outperforms it."),
        choices=(f"horizons T in {list(T_GRID)} (not stated). The rsb variant uses the main text's T/10 pulls per "
                 "arm for this instance (sec: experiments), so its runs coincide with regret-vs-T's rsb runs."))


def _vs_gap() -> Experiment:
    T = 100_000
    gaps = (0.1, 0.2, 0.3, 0.4, 0.5)
    pts = tuple(Point(g, (p1, round(p1 - g, 12)), T, 0.1, f"p1={p1:g}") for p1 in (0.55, 0.59) for g in gaps)
    return Experiment(
        name="vs-gap", figure="fig:ucb_eta", title=f"RS-UCB-M regret versus the gap p1 - p2 (Gini, K = 2, T = {T:.0e})",
        x_name="gap", x_label="p1 - p2", log_x=False, log_y=True, points=pts, algos=("rs-ucb-m",),
        variants=_variants(None, "ceil(rho T eps/4) with rho = 0.1 (Appendix: Additional Experiments)"),
        paper_setup=("Appendix: Additional Experiments, 'Regret versus gaps' (fig:ucb_eta): K = 2, p1 = 0.55 "
                     "(and 0.59), p2 varied (values not given), rho = 0.1, T = 10^5; the paper reports that the "
                     "regret of RS-UCB-M increases with the difference of the means."),
        choices=(f"p2 = p1 - gap with gap in {list(gaps)} (p2 < 1/2 < p1, so the Gini optimum is a mixture); both "
                 "variants keep the printed rho = 0.1 for the exploration."))


def _vs_rho() -> Experiment:
    T = 75_000
    rhos = (0.1, 0.3, 0.5, 0.7, 0.9)
    p = uniform_gap_instance(3)
    return Experiment(
        name="vs-rho", figure="fig:ucb_zeta", title=f"RS-UCB-M regret versus the exploration rate rho (Gini, K = 3, "
                                                    f"T = {T:.1e})",
        x_name="rho", x_label="exploration coefficient rho", log_x=False, log_y=True,
        points=tuple(Point(r, p, T, r) for r in rhos), algos=("rs-ucb-m",),
        variants=_variants(None, "ceil(rho T eps/4) (algorithm:B-UCB-M) with rho on the x axis"),
        paper_setup=("Appendix: Additional Experiments, 'Regret versus exploration coefficient' (fig:ucb_zeta): "
                     "K = 3 (instance not given), T = 7.5x10^4, increasing rho; the paper reports that the regret "
                     "increases with rho."),
        choices=(f"instance p = {list(p)} (the K = 3 instance of regret-vs-K), rho in {list(rhos)}; exploration "
                 "ceil(rho T eps/4) per arm in both variants."))


def all_experiments() -> tuple[Experiment, ...]:
    """The five experiments in the order of ``rsb reproduce all``."""
    return (_regret_vs_T(), _regret_vs_K(), _vs_uniform(), _vs_gap(), _vs_rho())


#: Horizons of ``mixture-vs-solitary``.
SOLITARY_T_GRID: tuple[int, ...] = (1_000, 3_000, 10_000, 30_000, 100_000)
#: Its two instances (Gini): alpha* = (0.8, 0.2), and arm 2 alone (h(0.45) is the best value on [0.2, 0.45]).
MIXTURE_OPTIMAL = (0.4, 0.9)
SOLITARY = (0.2, 0.45)


def _mixture_vs_solitary() -> Experiment:
    rsb = _variants(None, "ceil(rho T eps/4) with rho = 0.1 (algorithm:B-UCB-M)")[1]
    series = {MIXTURE_OPTIMAL: "mixture-optimal: Bern(0.4), Bern(0.9)",
              SOLITARY: "solitary: Bern(0.2), Bern(0.45)"}
    return Experiment(
        name="mixture-vs-solitary", figure="eq:optimal alpha",
        title="Mixture algorithms and solitary baselines (Gini)",
        x_name="T", x_label="horizon T", log_x=True, log_y=True,
        points=tuple(Point(T, p, T, 0.1, label) for p, label in series.items() for T in SOLITARY_T_GRID),
        algos=("rs-ucb-m", "ce-ucb-m") + catalog.names("baseline"), variants=(rsb,),
        paper_setup=("Not a figure of the paper. sec:setting and eq:optimal alpha: the optimal policy may be a "
                     "mixture of arms, which a solitary algorithm (one that converges to one arm) cannot attain: its "
                     "regret (eq:regret) tends to V(alpha*) - U_h(F_i) of its arm, at least "
                     "V(alpha*) - max_i U_h(F_i). Baselines: UCB1 (risk-neutral, on means) and DR-UCB (U_h of the "
                     "arm's empirical law plus L_H r_i^q, r_i the radius of eq:UCB_confidence_sets)."),
        choices=(f"Gini; a mixture-optimal instance {list(MIXTURE_OPTIMAL)} (alpha* = (0.8, 0.2), V* = 0.25, "
                 f"U_h of the arms 0.24 and 0.09: DR-UCB's floor 0.01, UCB1's 0.16) and a solitary one "
                 f"{list(SOLITARY)} (V* = U_h(F_2) = 0.2475); horizons {list(SOLITARY_T_GRID)}; only the rsb "
                 f"radius (x {RSB_RADIUS_SCALE:g} for RS-UCB-M, CE-UCB-M and DR-UCB: with the paper's radius every "
                 "UCB here is data-free); the UCB-Ms explore ceil(rho T eps/4) pulls per arm with rho = 0.1 "
                 "(algorithm:B-UCB-M), the baselines one pull per arm. RS-ETC-M is not run: with N(eps) it never "
                 "commits, and an exploration of a fixed fraction of T per arm (the rsb variant of the paper's "
                 "figures) keeps a constant regret on the solitary instance."),
        panels="series")


def extra_experiments() -> tuple[Experiment, ...]:
    """Experiments beyond the paper's figures (not run by ``rsb reproduce all``)."""
    return (_mixture_vs_solitary(),)


#: Names of the paper's experiments (``rsb reproduce all`` runs them in this order).
NAMES: tuple[str, ...] = ("regret-vs-T", "regret-vs-K", "vs-uniform", "vs-gap", "vs-rho")
#: Names of :func:`extra_experiments`.
EXTRA_NAMES: tuple[str, ...] = ("mixture-vs-solitary",)
#: Every name ``rsb reproduce`` accepts besides ``all``.
COMMAND_NAMES: tuple[str, ...] = NAMES + EXTRA_NAMES


def get_experiment(name: str) -> Experiment:
    """The experiment called ``name`` (ValueError naming ``experiment`` otherwise)."""
    for e in all_experiments() + extra_experiments():
        if e.name == name:
            return e
    raise ArgumentError("experiment", f"unknown experiment {name!r}; known: {', '.join(COMMAND_NAMES)}, all")
