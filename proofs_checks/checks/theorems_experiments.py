"""The four regret theorems evaluated at the experiments of ``sec: experiments`` (Gini, p = (0.4, 0.9)).

For ``theorem: ETC upper bound`` and ``theorem:UCB upper bound`` the printed bounds
(:func:`rsb_theory.rates.etc_bound_eps`, :func:`rsb_theory.rates.ucb_bound_eps`) are evaluated with the
constants derived for the instance (never typed in): B = max of h on [0, 1] (U_h <= B), L and q from
:func:`rsb_theory.holder.holder`, W from :func:`rsb_theory.oracle.W_bernoulli`, rho = 0.1, the
experiments' eps = sqrt(K log T / T), Delta(eps) and Delta_min(eps) by exact enumeration of the grid
(:func:`rsb_theory.discretization.discrete_optimum`), N(eps) and T(eps) from rsb_theory.rates.  Beside: the
side conditions (T > N(eps); T > max(e^K, T(eps))), the trivial bound V* - min_alpha V(alpha), a small
simulation at the paper's constants (rsb_sim), and the smallest T from which the bound (with the experiments'
eps and Delta(eps) <= L (K W)^r (eps/2)^r of ``lemma:Delta_error``) is below the trivial bound.

For the eps-independent ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M`` (O(.) statements) the hidden constant
cannot be evaluated; the check reports the hypotheses (beta exists; r <= beta + q/2) and evaluates the
eps-dependent bound at the theorems' eps choice with Theta(.) = 1.

A bound is *informative* at a horizon when its side condition holds and it is below the trivial bound; a claim
whose bound is informative at none of its horizons is ``vacuous``.  The claim's data is the setting (figure,
horizon, eps rule); an altered claim moves the horizon (and fixes eps where the experiments' rule never lets the
bound apply) to where the bound is informative.  The simulation (a spot check that the bound is above the regret)
runs only up to :data:`SIM_T_MAX` steps, a work budget.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from dataclasses import dataclass

from rsb_theory.expressions import evaluate
from rsb_sim.policies import catalog

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num
from rsb_theory.errors import ArgumentError

#: The tuned parts: a paper policy's rate with eps tuned to T, by its label (the policy's ``corollary``).
TUNED = {p.corollary: p for p in catalog.policies() if p.corollary is not None}
#: A part (a grid kind for the eps-dependent theorems, a label of :data:`TUNED` for the tuned rates) -> its entry.
IDS = {
    "etc": "theorem: ETC upper bound#experiments",
    "ucb": "theorem:UCB upper bound#experiments",
    **{label: f"{label}#experiments" for label in TUNED},
}
PARTS = tuple(IDS)


def grid_of(kind: str) -> str:
    """The grid kind ("etc"/"ucb") of a part: its own name, or the grid of the tuned policy's algorithm."""
    return TUNED[kind].grid if kind in TUNED else kind
RHO = 0.1
#: The eps rule of the eps-independent theorems (their own choice, Theta(.) = 1).
THEOREM_EPS = "theorem"
#: Largest horizon simulated (trials x steps is the work).
SIM_T_MAX = 100_000
#: Largest horizon tried when looking for one where a bound is informative (a work budget), and the smallest eps
#: (below it the gaps Delta_min(eps) ~ eps^2 drown in floating-point rounding of h).
T_SEARCH_MAX = 2.0**200
EPS_MIN = 1e-5
#: A fixed eps for altered claims of the eps-dependent bounds (the experiments' rule never lets them apply).
FIXED_EPS = "1/10"


@dataclass(frozen=True)
class Setting:
    """Where a theorem is evaluated: the figure whose instance is used, the horizon, the eps rule."""

    figure: str
    T: int
    eps: str
    theta: float = 1.0  # the constant of eps = Theta(...) of the eps-independent theorems


@lru_cache(maxsize=None)
def instance_constants(p: tuple[float, ...]) -> dict:
    """Constants of Gini deviation on Bernoulli means ``p``: B, L, q, W, r, V*, the trivial bound V* - min V."""
    from rsb_theory.oracle import W_bernoulli
    from rsb_theory.distortions import get
    from rsb_theory.profile import of
    from rsb_theory.bernoulli_profile import instance_profile

    d = get("gini")
    arr = np.array(p)
    hr = of(d).holder()
    top = of(d).maximisers()[0]
    B = float(d.numeric(np.array([float(top)]))[0])
    ip = instance_profile(d, arr)
    vstar = ip.value
    trivial = vstar - float(min(d.numeric(np.array([arr.min(), arr.max()]))))
    return {"d": d, "p": arr, "K": len(p), "B": B, "L": float(hr.L_H), "q": float(hr.q),
            "W": float(W_bernoulli(arr)), "r": float(ip.mixture.r), "vstar": vstar, "trivial": trivial, "ip": ip}


def constants() -> dict:
    """Instance constants of fig:T_experiment (Gini, p = (0.4, 0.9), K = 2, T = 1e5)."""
    exp = next(e for e in paper_claims.EXPERIMENTS if e.figure == "fig:T_experiment")
    return instance_constants(tuple(exp.p)) | {"T": exp.T[0]}


def informative_at(kind: str, p: tuple[float, ...], T: int, eps: float) -> bool:
    """Whether the eps-dependent bound of ``kind`` ("etc"/"ucb") applies (side condition) and is below the trivial
    bound at horizon T, for Gini on ``p``."""
    c = instance_constants(tuple(p))
    b = etc_bound(T, c, eps) if kind == "etc" else ucb_bound(T, c, eps)
    return bool(b["side"] and b["bound"] < c["trivial"])


def eps_exp(T: float, K: int) -> float:
    return math.sqrt(K * math.log(T) / T)


@lru_cache(maxsize=None)
def _formula(name: str):
    """A formula of ``rsb_theory.rates`` as an mpmath function of (T, K, L, W, q, r, B, rho, eps, Delta_min).

    ``etc``/``ucb``: the discrete-regret term of ``theorem: ETC upper bound`` / ``theorem:UCB upper bound``;
    ``N``: N(eps) of ``eq:number of samples main paper``; ``delta``: the bound of ``lemma:Delta_error``.  The
    formulas live in rates (one place); here they are only evaluated.
    """
    import sympy as sp

    from rsb_theory import rates

    expr = {"etc": lambda: rates.etc_bound_eps().discrete_regret, "ucb": lambda: rates.ucb_bound_eps().discrete_regret,
            "N": rates.N_eps, "delta": rates.delta_error_bound}[name]()
    syms = (rates.T, rates.K, rates.L, rates.W, rates.q, rates.r, rates.B, rates.rho, rates.eps, rates.Delta_min)
    return sp.lambdify(syms, expr, "mpmath")


def _value(name: str, T: float, c: dict, eps: float, Delta_min: float = 1.0) -> float:
    import mpmath

    with mpmath.workdps(30):
        return float(_formula(name)(mpmath.mpf(T), c["K"], c["L"], c["W"], c["q"], c["r"], c["B"], RHO,
                                    mpmath.mpf(eps), mpmath.mpf(Delta_min)))


def etc_bound(T: int, c: dict, eps: float | None = None, exact_delta: bool = True) -> dict:
    """theorem: ETC upper bound at horizon T (eps default: the experiments')."""
    from rsb_theory.discretization import discrete_optimum

    eps = eps_exp(T, c["K"]) if eps is None else eps
    opt = discrete_optimum(c["d"], c["p"], eps, "etc")
    if 0 < opt.Delta_min < math.inf:
        N, disc = _value("N", T, c, eps, opt.Delta_min), _value("etc", T, c, eps, opt.Delta_min)
    else:  # every grid point ties (N = 0) or a tie hides the gap (N = oo)
        N, disc = (0.0, 0.0) if opt.Delta_min == math.inf else (math.inf, math.inf)
    delta = opt.Delta if exact_delta else _value("delta", T, c, eps)
    return {"T": T, "eps": eps, "N": N, "Delta_min": opt.Delta_min, "Delta": delta, "bound": disc + delta,
            "side": T > N}


def ucb_bound(T: int, c: dict, eps: float | None = None, exact_delta: bool = True) -> dict:
    """theorem:UCB upper bound at horizon T (eps default: the experiments')."""
    from rsb_theory.discretization import discrete_optimum
    from rsb_theory.rates import T_of_eps

    K, L, q = c["K"], c["L"], c["q"]
    eps = eps_exp(T, K) if eps is None else eps
    opt = discrete_optimum(c["d"], c["p"], eps, "ucb")
    disc = _value("ucb", T, c, eps)
    delta = opt.Delta if exact_delta else _value("delta", T, c, eps)
    Teps = (T_of_eps(eps, RHO, opt.Delta_min, K, L, q).T_eps if 0 < opt.Delta_min < math.inf
            else (math.inf if opt.Delta_min <= 0 else 0.0))
    return {"T": T, "eps": eps, "T_eps": Teps, "Delta_min": opt.Delta_min, "Delta": delta, "bound": disc + delta,
            "side": T > max(math.exp(K), Teps)}


def smallest_nontrivial(kind: str, c: dict, T_max: float = 1e40) -> int | None:
    """Smallest T with bound(T) < trivial, eps = sqrt(K log T/T), Delta by lemma:Delta_error (closed form)."""
    from rsb_theory.rates import smallest_nontrivial_T

    def f(T: float) -> float:
        eps = eps_exp(T, c["K"])
        if kind == "ucb":
            return _value("ucb", T, c, eps) + _value("delta", T, c, eps)
        # ETC: Delta_min(eps) >= its lower envelope is unknown in closed form; use the exact value at eps(T) only
        # for moderate T (the grid has ~1/eps points)
        return etc_bound(int(T), c, eps, exact_delta=False)["bound"]

    return smallest_nontrivial_T(f, c["trivial"], T_max, T_min=16, points_per_doubling=2)


@lru_cache(maxsize=1)
def simulated(T: int = 100_000):
    """Empirical regret at T = 1e5 at the paper's constants (few trials: both policies are data-free there), by the
    grid kind of the tuned policy (the UCB one with the experiments' T/10 forced pulls per arm)."""
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run
    from rsb_sim.instances import BernoulliInstance

    c = constants()
    inst = BernoulliInstance(tuple(c["p"]))
    out = {}
    for policy in TUNED.values():
        extra = {"explore": T // 10} if policy.grid == "ucb" else {}
        res = run(SimConfig(T=T, trials=4, seed=11, **extra), inst, c["d"], policy.name)
        out[policy.grid] = (res.mean_regret, res.warnings)
    return out


def _eps_of(kind: str, setting: Setting, c: dict) -> float:
    """eps of a setting: its rule evaluated at (T, K), or the theorems' own choice (Theta(.) = 1)."""
    T, K = setting.T, c["K"]
    if setting.eps != THEOREM_EPS:
        return evaluate(setting.eps, "eps", {"T": T, "K": K})
    from rsb_theory import rates
    import sympy as sp

    q, r, beta = c["q"], c["r"], c["ip"].beta_numeric.beta_fit
    if grid_of(kind) == "ucb":
        kap = float(rates.kappa(sp.nsimplify(q), sp.nsimplify(r), sp.nsimplify(beta)))
        return min(setting.theta * (K ** (2 / q) * math.log(T) / T) ** kap, 1.0)
    g = 2 * beta / (2 * beta + r)
    return min(setting.theta * (K ** (2 + 2 / q) * T ** (-g) * math.log(T)) ** (q / (2 * beta)), 1.0)


@lru_cache(maxsize=None)
def bound_at(kind: str, setting: Setting) -> dict:
    """The eps-dependent bound of ``kind`` (etc/ucb family) at a setting, with informative = side and < trivial."""
    c = constants()
    eps = _eps_of(kind, setting, c)
    b = etc_bound(setting.T, c, eps) if grid_of(kind) == "etc" else ucb_bound(setting.T, c, eps)
    return b | {"informative": b["side"] and b["bound"] < c["trivial"]}


def _searchable(kind: str, T: float, eps_rule: str) -> bool:
    return _eps_of(kind, Setting("search", int(T), eps_rule), constants()) >= EPS_MIN


@lru_cache(maxsize=None)
def informative_horizon(kind: str, eps_rule: str, theta: float = 1.0) -> int | None:
    """The first T = 10^5 4^k at which the bound is informative with ``eps_rule`` (None within T_SEARCH_MAX)."""
    T = float(constants()["T"])
    while T <= T_SEARCH_MAX and _searchable(kind, T, eps_rule):
        if bound_at(kind, Setting("search", int(T), eps_rule, theta))["informative"]:
            return int(T)
        T *= 4
    return None


def feasible_theta(kind: str) -> float:
    """A Theta-constant for corollary:RS-UCB-M's eps that makes T > T(eps) possible.

    T(eps) ~ eps^-(2 + 2 beta/q) at a fixed horizon (rsb_theory.rates.derive_ucb_exponents: T(eps) = Theta(T) at
    the corollary's eps, so only the constant decides); twice the factor that brings T(eps) down to T at the stated
    horizon, rounded up to a power of 2.
    """
    c = constants()
    b = bound_at(kind, Setting("stated", c["T"], THEOREM_EPS))
    beta = c["ip"].beta_numeric.beta_fit
    ratio = max(b.get("T_eps", 0.0) / c["T"], 1.0)
    return float(2 ** math.ceil(math.log2(2 * ratio ** (1 / (2 + 2 * beta / c["q"])))))


def _eps_dep(claim: Claim) -> CheckResult:
    kind = "etc" if claim.id == IDS["etc"] else "ucb"
    setting: Setting = claim.printed
    c = constants()
    T = setting.T
    b = bound_at(kind, setting)
    simulated_here = T <= SIM_T_MAX
    sim = simulated(T)[kind] if simulated_here else None
    Tn = smallest_nontrivial(kind, c, 1e40 if kind == "ucb" else 1e7)
    vac = not b["informative"]
    side = (f"T > N(eps) = {num(b['N'], 3)}: {b['side']}" if kind == "etc"
            else f"T > max(e^K, T(eps) = {num(b['T_eps'], 3)}): {b['side']}")
    ev = (f"Gini, p = (0.4, 0.9), K = 2, T = {T} ({setting.figure}), eps = {setting.eps} = {num(b['eps'])}; "
          f"B = {num(c['B'], 3)}, L = {num(c['L'], 3)}, q = {num(c['q'], 6)}, W = {num(c['W'], 3)}, rho = {RHO}; Delta(eps) = "
          f"{num(b['Delta'], 3)}, Delta_min(eps) = {num(b['Delta_min'], 3)}.  Bound = {num(b['bound'])} vs trivial bound "
          f"V* - min V = {num(c['trivial'])} ({'vacuous' if vac else 'non-trivial'}); side condition {side}.  "
          + (f"Simulated regret at the paper's constants (4 trials; the policy is data-free there): "
             f"{num(sim[0])}{' -- ' + sim[1][0][:90] + '...' if sim[1] else ''}.  " if simulated_here else
             f"Not simulated (T > {SIM_T_MAX}, the simulation budget).  ")
          + "Smallest T with bound < trivial (eps = sqrt(K log T/T), Delta by lemma:Delta_error): "
          f"{Tn if Tn is not None else ('> 1e40' if kind == 'ucb' else '> 1e7 (searched)')}"
          + (".  With this eps the side condition fails for every large T: N(eps) ~ Delta_min(eps)^(-2/q) log T "
             "grows like T^(beta/q) >= T for the mixture instance." if kind == "etc" else
             ".  With eps ~ T^(-1/2) the condition T > T(eps) ~ eps^(-2 - 2 beta/q) fails for all large T when "
             "beta > 0."))
    holds = sim is None or b["bound"] >= sim[0]
    status = decide(holds=holds, vacuous=vac)
    return CheckResult(claim.id, f"The eps-dependent bound of {claim.id.split('#')[0]} at the experiments' "
                                 f"setting (holds; informative; side conditions)"
                       + ("" if (T, setting.eps) == (c["T"], _experiments_eps()) else f", at T = {T}, eps = {setting.eps}"),
                       "bound with printed constants", f"{num(b['bound'])} (trivial {num(c['trivial'])}; side "
                       f"condition {'holds' if b['side'] else 'fails'})", status, "numeric", ev)


def _experiments_eps() -> str:
    return next(e for e in paper_claims.EXPERIMENTS if e.figure == "fig:T_experiment").eps


def _eps_indep(claim: Claim) -> CheckResult:
    kind = next(k for k, i in IDS.items() if i == claim.id)
    setting: Setting = claim.printed
    c = constants()
    ip = c["ip"]
    q, r = c["q"], c["r"]
    bn = ip.beta_numeric
    beta = bn.beta_fit if bn is not None else None
    T = setting.T
    b = bound_at(kind, setting)
    if grid_of(kind) == "ucb":
        cond = f"r <= beta + q/2: {r} <= {num(beta, 3, 'f')} + {q / 2}: {r <= beta + q / 2}"
    else:
        cond = f"gamma = 2 beta/(2 beta + r) = {num(2 * beta / (2 * beta + r), 3, 'f')}"
    vac = not b["informative"]
    converged = bn is not None and bn.converged
    ev = (f"Gini, p = (0.4, 0.9): q = {num(q, 6)}, r = {num(r, 6)}; beta must exist -- numeric estimate {num(beta, 3, 'f')} "
          f"({'converged' if converged else 'NOT converged: ' + (bn.evidence() if bn else '')}"
          f"); {cond}.  The O(.) constant is not given, so the theorem cannot be evaluated as such; at T = {T} the "
          f"eps-dependent bound at the theorem's eps (Theta = {num(setting.theta, 6)}): eps = {num(b['eps'])}, bound = {num(b['bound'])} vs "
          f"trivial {num(c['trivial'])} ({'vacuous' if vac else 'non-trivial'}); side condition "
          f"{'holds' if b['side'] else 'fails'} ("
          + (f"T(eps) = {num(b['T_eps'], 3)}" if grid_of(kind) == "ucb" else f"N(eps) = {num(b['N'], 3)}") + ").  The experiments "
          "use eps = sqrt(K log T/T), not the theorem's choice.")
    status = decide(holds=converged, repair="beta exists", vacuous=vac)
    return CheckResult(claim.id, f"{claim.id.split('#')[0]} at the experiments' instance and horizon"
                       + ("" if T == c["T"] else f" T = {T}") + ("" if setting.theta == 1.0 else
                                                                f", eps = {num(setting.theta, 6)} x the theorem's"),
                       "O(.) rate", f"bound at theorem eps {num(b['bound'])} (trivial {num(c['trivial'])})", status,
                       "numeric", ev)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    """A horizon where the bound is informative (with a fixed eps where the experiments' rule never gets there)."""
    setting: Setting = claim.printed
    kind = next(k for k, i in IDS.items() if i == claim.id)
    if setting.eps != THEOREM_EPS:
        tries = [(setting.eps, 1.0), (FIXED_EPS, 1.0)]
    else:
        tries = [(THEOREM_EPS, 1.0)] if grid_of(kind) == "etc" else [(THEOREM_EPS, feasible_theta(kind))]
    for eps_rule, theta in tries:
        T = informative_horizon(kind, eps_rule, theta)
        if T is not None:
            what = f"eps = {eps_rule}" if theta == 1.0 else f"eps = {num(theta, 6)} x the theorem's"
            return [claim.reprinted(Setting("informative", T, eps_rule, theta), f"the horizon T = {T}, {what}")]
    return []


def _claims():
    c_T = next(e for e in paper_claims.EXPERIMENTS if e.figure == "fig:T_experiment")
    for part, ident in IDS.items():
        eps = c_T.eps if part not in TUNED else THEOREM_EPS
        check_fn = _eps_dep if part not in TUNED else _eps_indep
        yield Claim(ident, Setting(c_T.figure, c_T.T[0], eps), check_fn, mutants)


CLAIMS = claim_map(*_claims())


def check(part: str) -> CheckResult:
    """The ledger entry of ``part`` (one of :data:`PARTS`; kept for callers of the part-wise interface)."""
    if part not in IDS:
        raise ArgumentError("part", f"unknown part {part!r}; known: {', '.join(PARTS)}")
    return CLAIMS[IDS[part]].run()
