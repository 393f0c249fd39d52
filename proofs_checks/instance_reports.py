"""The dictionaries behind ``rsb derive`` and ``rsb optimize`` (JSON keys: the ARCHITECTURE.md contract), below the
command line: its handlers and :mod:`proofs_checks.api` both build them here.

* :func:`derive_report` -- the Bernoulli closed form, q and L_H of ``assumption:Holder``, and with an instance r,
  L_MH, alpha*, beta and the rate exponents of ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M``; for laws on [0, b]
  (:func:`laws_constants`) the constants the paper's bounds read (``docs/arms.md``).
* :func:`optimize_report`, :func:`optimize_laws_report` -- alpha* of ``eq:optimal alpha`` from the oracle, its
  value, W, the exact maximisers of h; with ``eps`` the discrete optimum a* of ``eq:discrete optimal mixture``,
  Delta(eps) and Delta_min(eps) of ``eq:discrete_gap``.

Arms come parsed (means, or laws from :func:`rsb_theory.laws.parse_arms`); errors are ``ValueError`` naming the
argument, which the command line maps to its flag.
"""

from __future__ import annotations

from rsb_theory.errors import ArgumentError


def laws_constants(d, laws, max_memory: int | None = None) -> dict:
    """r, L_MH, W, alpha* and values of an instance of any laws (module docstring)."""
    from rsb_theory.laws import arm_values
    from rsb_theory.oracle import W_laws, optimal_mixture_laws
    from rsb_theory.profile import of

    prof = of(d)
    fam = prof.holder()
    b = max(law.support[1] for law in laws)
    L_H = prof.w1_constant(b)
    o = optimal_mixture_laws(d, laws) if max_memory is None else optimal_mixture_laws(d, laws, max_memory=max_memory)
    solo = arm_values(d, laws)
    return {
        "arms": [law.describe() for law in laws], "kinds": [law.kind for law in laws], "b": b,
        "L_H_instance": L_H,
        "r": str(fam.q), "L_MH": L_H, "L_MH_method": "r = q, L_MH = L_H b^(1-q)",
        "r_evidence": ("r = q is always a valid mixture Hölder exponent (appendix, paragraph 'Hölder exponents'): "
                       "U_h(F*) - U_h(G) <= L_H b^(1-q) W1(F*, G)^q for laws on [0, b]; a sharper r is derived for "
                       "Bernoulli arms only (--p)"),
        "W": W_laws(laws),
        "alpha_star": list(o.alpha), "value": o.value, "oracle_method": o.method, "certified": o.certified,
        "arm_values": solo.tolist(), "solitary": bool(max(o.alpha) >= 1.0 - 1e-9),
    }


def _num(x) -> float | str:
    """A SymPy number of the library as JSON: a float, ``"oo"``, or its text when it is symbolic."""
    import sympy as sp

    if not isinstance(x, sp.Basic):
        return float(x)
    if x == sp.oo:
        return "oo"
    return float(x) if x.is_number else str(x)


def _optimum_set(d, ip) -> dict:
    """``optimal_set`` in words when alpha* is one of several optimal mixtures (:func:`rsb_theory.profile.optimal_set`)."""
    from rsb_theory.profile import optimal_set

    text = optimal_set(d, ip.p, ip.mixture.p_star)
    return {"alpha_star_unique": text is None, **({"optimal_set": text} if text else {})}


def _beta(ip) -> dict:
    """``beta``: lemma:beta_lemma_monotone's value, else the numeric one when the local slopes agree; ``beta_method``."""
    if ip.beta_analytic.applies:
        return {"beta": str(ip.beta_analytic.beta), "beta_method": "lemma:beta_lemma_monotone"}
    value = None if ip.beta_numeric is None else ip.beta_numeric.reading()[0]
    if value is None:
        return {"beta": None, "beta_method": None}
    return {"beta": f"{value:.3f}", "beta_method": "numeric (local slopes of Delta_min(eps) agree)"}


def derive_report(h, params: dict[str, str], p, max_memory: int | None = None) -> dict:
    """The dictionary behind ``rsb derive`` (JSON keys are stable); ``h`` a name or expression, or a Distortion.

    ``p``: Bernoulli means, or a tuple of laws (:func:`rsb_theory.laws.parse_arms`).
    ``max_memory``: the limit of the oracle's CVXPY program on arm laws (``--max-memory``).
    """
    from rsb_theory import rates
    from rsb_theory.distortions import resolve
    from rsb_theory.bernoulli_profile import instance_profile
    from rsb_theory.profile import of
    from rsb_theory.riskmetric import bernoulli_closed_form

    d = h if not isinstance(h, str) else resolve(h, **params)  # a Distortion of proofs_checks.api as it is
    fam = of(d).holder((0, 1))
    out = {
        "h": str(d.expr),
        "name": d.key,
        "params": {k: str(v) for k, v in d.params},
        "validation": {"h0": d.validation.method_h0, "range": d.validation.method_range},
        "monotone": d.shape.monotone,
        "curvature": d.shape.curvature,
        "bernoulli_closed_form": str(bernoulli_closed_form(d)),
        "q": str(fam.q),
        "L_H": _num(fam.L_exact) if fam.L_exact is not None else fam.L_H,
        "L_H_method": fam.L_method,
        "holder_evidence": fam.evidence(),
    }
    if p is None:
        return out
    if not all(isinstance(x, (int, float)) for x in p):  # laws (``--arms``, parsed by the command line; the API's)
        out.update(laws_constants(d, tuple(p), max_memory))
        return out
    ip = instance_profile(d, list(p))
    mix = ip.mixture
    tr = ip.rates
    out.update({
        "p": list(ip.p),
        "q_instance": str(ip.holder_instance.q),
        "L_H_instance": ip.holder_instance.L_H,
        "r": str(mix.r),
        "L_MH": mix.L_MH,
        "L_MH_method": mix.L_method,
        "r_evidence": mix.evidence(),
        "p_star": _num(mix.p_star),
        "solitary": mix.solitary,
        "alpha_star": list(ip.alpha_star),
        **_optimum_set(d, ip),
        "value": ip.value,
        **_beta(ip),
        "beta_analytic": ip.beta_analytic.reason,
        "beta_estimate": None if ip.beta_numeric is None else {
            "fit": ip.beta_numeric.beta_fit, "slope_min": ip.beta_numeric.slope_min,
            "slope_max": ip.beta_numeric.slope_max, "converged": ip.beta_numeric.converged,
            "n_ties": ip.beta_numeric.n_ties, "reading": ip.beta_numeric.reading()[1],
            "evidence": ip.beta_numeric.evidence(),
        },
        "theorem:RS-ETC-M": {"exponent": str(tr.etc_exponent), "argument": tr.etc_argument,
                             "rate": rates.format_varpi(tr.etc_exponent, tr.etc_argument)},
        "corollary:RS-UCB-M": {"exponent": str(tr.ucb_exponent), "rate": rates.format_varpi(tr.ucb_exponent),
                               "condition": str(tr.ucb_condition)},
    })
    return out


def optimize_laws_report(dr: str, params: dict[str, str], arms, eps: float | None, grid: str,
                         method: str = "auto", max_memory: int | None = None) -> dict:
    """The dictionary behind ``rsb optimize --arms`` (the keys of :func:`optimize_report`, ``arm_values``
    and ``arms`` in place of ``p``); ``arms`` a tuple of laws (:func:`rsb_theory.laws.parse_arms`)."""
    from rsb_theory.distortions import resolve
    from rsb_theory.laws import arm_values
    from rsb_theory.laws.discrete import discrete_optimum_laws
    from rsb_theory.oracle import NotDCPError, W_laws, optimal_mixture_laws

    laws = tuple(arms)
    d = dr if not isinstance(dr, str) else resolve(dr, **params)
    dr = dr if isinstance(dr, str) else d.describe()
    try:
        oracle = optimal_mixture_laws(d, laws, method) if max_memory is None else \
            optimal_mixture_laws(d, laws, method, max_memory=max_memory)
    except NotDCPError as exc:
        raise ArgumentError(exc.name, f"{exc.message} (--method cvxpy needs a DCP-concave h; use --method auto or "
                                      f"search)") from None
    except RuntimeError as exc:
        raise ArgumentError("method", f"{method} failed: {exc}") from None
    solo = arm_values(d, laws)
    out = {
        "dr": dr, "h": str(d.expr), "params": {k: str(v) for k, v in d.params},
        "arms": [law.describe() for law in laws], "kinds": [law.kind for law in laws],
        "alpha_star": list(oracle.alpha), "value": oracle.value, "arm_values": solo.tolist(),
        "best_arm": int(solo.argmax()) + 1, "mixture_gain": oracle.value - float(solo.max()),
        "method": oracle.method, "certified": oracle.certified, "gap": oracle.gap, "evidence": oracle.evidence,
        "W": W_laws(laws),
    }
    if eps is None:
        return out
    return _with_discrete(out, discrete_optimum_laws(d, laws, eps, grid, v_star=oracle.value), eps, grid)


def optimize_report(dr: str, params: dict[str, str], p, eps: float | None, grid: str, method: str = "auto") -> dict:
    """The dictionary behind ``rsb optimize`` (keys: the ARCHITECTURE.md contract)."""
    import numpy as np

    from rsb_theory.discretization import discrete_optimum
    from rsb_theory.oracle import W_bernoulli
    from rsb_theory.distortions import resolve
    from rsb_theory.profile import of
    from rsb_theory.oracle import NotDCPError, optimal_mixture_bernoulli

    d = dr if not isinstance(dr, str) else resolve(dr, **params)  # a Distortion of proofs_checks.api as it is
    dr = dr if isinstance(dr, str) else d.describe()
    arr = np.asarray(p, dtype=float)
    tops = of(d).maximisers((float(arr.min()), float(arr.max())))
    try:
        oracle = optimal_mixture_bernoulli(d, arr, method)
    except NotDCPError as exc:
        raise ArgumentError(exc.name, f"{exc.message} (--method cvxpy needs a DCP-concave h; use --method auto or "
                                      f"search)") from None
    except RuntimeError as exc:  # the solver failed: not a usage error, but say which option led there
        raise ArgumentError("method", f"{method} failed: {exc}") from None
    out = {
        "dr": dr, "h": str(d.expr), "params": {k: str(v) for k, v in d.params}, "p": list(p),
        "alpha_star": list(oracle.alpha), "value": oracle.value, "method": oracle.method,
        "certified": oracle.certified, "gap": oracle.gap, "evidence": oracle.evidence,
        "optimal_means": [str(t) for t in tops], "W": W_bernoulli(arr),
    }
    if eps is None:
        return out
    return _with_discrete(out, discrete_optimum(d, arr, eps, grid), eps, grid)


def _with_discrete(out: dict, opt, eps: float, grid: str) -> dict:
    """``out`` with the discrete optimum a*, Delta(eps), Delta_min(eps) and the ties of ``opt``."""
    out.update({"eps": eps, "grid": grid, "a_star": opt.a_star.tolist(), "Delta": opt.Delta,
                "Delta_min": opt.Delta_min, "n_optimal": opt.n_optimal, "grid_size": opt.grid_size})
    if opt.n_optimal > 1:
        out["note"] = (f"{opt.n_optimal} grid points are optimal: the literal a != a* reading of eq:discrete_gap "
                       f"gives 0; Delta_min is the gap to the best non-optimal point")
    return out
