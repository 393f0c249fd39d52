"""``rsb derive --h EXPR|NAME [--param k=v ...] [--p P1,P2,... | --arms SPECS]``.

With ``--arms`` (any laws, ``docs/arms.md``) the instance constants are those the paper's bounds read
for laws on [0, b]: L_H b^(1-q) (the W1-Hölder constant of U_h, Hölder and Jensen), r and L_MH of
``assumption:Holder_opt`` (r = q with L_MH = L_H b^(1-q), always valid by the remark of the
appendix's paragraph on Hölder exponents; a sharper r is derived for Bernoulli arms only, and the
report says so), W of ``eq:W``, alpha*, V(alpha*) and the solitary values.

The Bernoulli closed form, q and L_H of ``assumption:Holder``, and with an
instance r, L_MH, alpha*, beta and the rate exponents of ``theorem:RS-ETC-M``
and ``corollary:RS-UCB-M`` (JSON keys: the ARCHITECTURE.md contract).
"""

from __future__ import annotations

from rsb_sim import jsontext
from dataclasses import dataclass

from . import values, work

#: Run ``execute`` in a worker process (proofs_checks.cli.app): SciPy, CVXPY and SymPy calls do not look at signals.
IN_WORKER = True
LIBRARY_FLAGS = {"h": "--h", "expr": "--h"}


@dataclass(frozen=True)
class Request:
    h: str
    params: dict
    p: tuple | None
    format: str
    arms: str | None = None
    max_memory: int | None = None


def validate(args) -> Request:
    params = values.params(args.param)
    h = values.distortion(args.h, "--h", tuple(params))
    p, arms = values.means_or_arms(args, required=False)
    return Request(h, params, p, args.format, arms, work.memory_limit(args))


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

    ``p``: Bernoulli means, an ``--arms`` text, or a tuple of laws (:func:`rsb_theory.laws.parse_arms`).
    ``max_memory``: the limit of the oracle's CVXPY program on arm laws (``--max-memory``).
    """
    from rsb_theory import rates
    from rsb_theory.distortions import resolve
    from rsb_theory.profile import instance_profile, of
    from rsb_theory.riskmetric import bernoulli_closed_form

    if isinstance(p, str):  # --arms: the laws first, so that a bad arm is refused before any analysis of h
        from . import values as _values

        p = _values.arm_laws(p)
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
    if not all(isinstance(x, (int, float)) for x in p):  # laws built by the caller (proofs_checks.api)
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


def execute(req: Request) -> str:
    report = derive_report(req.h, req.params, req.p if req.arms is None else req.arms, req.max_memory)
    if req.format == "json":
        return jsontext.dumps(report, indent=2)
    width = max(len(k) for k in report)
    lines = []
    for k, v in report.items():
        if isinstance(v, dict):
            v = "; ".join(f"{a}={b}" for a, b in v.items())
        lines.append(f"{k:<{width}}  {v}")
    return "\n".join(lines)
