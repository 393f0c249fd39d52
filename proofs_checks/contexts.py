"""The context of each proof, as data: the setting it works in and the quantities it fixes (issue 25).

A step of a proof is judged where the proof uses it: inside the paper's setting (``sec:setting``: rewards in
Omega subset of R_+, laws with finite first moment, U_h <= B) and with the quantities the proof has fixed
(``N = N(eps)`` of RS-ETC-M, the radius of ``eq:UCB_confidence_sets``, the algorithm's grid, ``T > T(eps)``, the
h of a lemma about one distortion).  A failure found only where such a quantity is replaced by another is a
note beside the entry's status, never its status (``docs/theory.md``, "Statement and proof").

The registry (:mod:`proofs_checks.registry`) attaches :data:`CONTEXTS` ``[R]`` to every claim on the proof axis
of result ``R`` (its steps ``R#step:...``, its chained constants ``R#chain``, and the entries of the displays of
its proof); a check reads a fixed quantity with :meth:`proofs_checks.claims.Claim.fixed`, and the mutant that
drops the context (:meth:`proofs_checks.claims.Claim.without_context`) must change the status of every step
whose verdict depends on it (``rsb verify --mutants``).
"""

from __future__ import annotations

from dataclasses import dataclass

#: The paper's setting (``sec:setting``), shared by every proof.
SETTING = ("K arms with laws F_i on Omega subset of R_+ (sec:setting), finite first moment, 1-sub-Gaussian; "
           "U_h <= B; h: [0, 1] -> [0, 1]")


@dataclass(frozen=True)
class Context:
    """What a proof works with.

    Attributes
    ----------
    result : str
        The label of the lemma or theorem whose proof this is.
    setting : str
        The setting in words, with labels.
    fixes : tuple of (str, str)
        The quantities the proof fixes: a short key a check reads (``"N"``, ``"radius"``, ``"grid"``, ``"T"``,
        ``"h"``, ``"laws"``) and its value in words, with the label that defines it.
    """

    result: str
    setting: str
    fixes: tuple[tuple[str, str], ...]

    def value(self, key: str) -> str | None:
        """The fixed value of ``key`` (None when the proof does not fix it)."""
        return dict(self.fixes).get(key)

    def describe(self) -> str:
        """One line for evidence: the fixed quantities."""
        return "; ".join(f"{k} = {v}" for k, v in self.fixes)


_ETC_FIXES = (
    ("N", "N(eps) of eq:number of samples main paper (each arm explored ceil(N(eps)/K) times, "
          "algorithm:RS-ETC-M-Alg); N(eps) >= 256 e K (2KL/Delta_min)^(2/q) (32/sqrt e)^2 > 2.6e5 K"),
    ("grid", "the ETC grid eq:etc_discrete_set (footnote: the last coordinate takes up the deficit)"),
    ("T", "T > N(eps) (theorem: ETC upper bound)"),
    ("q, L", "a Hölder exponent and constant of U_h on the convex hull Xi of the arms' laws (assumption:Holder)"),
)
_UCB_FIXES = (
    ("radius", "the confidence radius of eq:UCB_confidence_sets"),
    ("grid", "the mid-point grid of section RS_UCB_M"),
    ("n0", "forced exploration ceil(rho T eps/4) pulls per arm, rho in (0, 1)"),
    ("T", "T > max(e^K, T(eps)) (theorem:UCB upper bound), T(eps) from Delta_min(eps) > 0"),
    ("q, L", "a Hölder exponent and constant of U_h on the convex hull Xi of the arms' laws (assumption:Holder)"),
)

#: One context per proof, keyed by the result's label.
CONTEXTS: dict[str, Context] = {c.result: c for c in (
    Context("example utility", SETTING + "; K = 2 Bernoulli arms Bern(p), Bern(1 - p)",
            (("h", "Gini deviation h(u) = u(1 - u) (strictly concave)"), ("laws", "Bern(p), Bern(1 - p), p in [0, 1]"))),
    Context("theorem: ETC upper bound", SETTING, _ETC_FIXES),
    Context("theorem:RS-ETC-M", SETTING + "; beta exists", _ETC_FIXES + (
        ("eps", "Theta((K^(2+2/q) T^-gamma log T)^(q/(2 beta))), gamma = 2 beta/(2 beta + r)"),)),
    Context("theorem:UCB upper bound", SETTING, _UCB_FIXES),
    # the two lemmas on the tracking rule are proved inside the proof of theorem:UCB upper bound and fix what it fixes
    Context("lemma:oversampling", SETTING + "; the complement of E_3 (a fixed target a* in OPT from T_0(eps) on)",
            _UCB_FIXES),
    Context("lemma:undersampling", SETTING + "; the complement of E_3 (a fixed target a* in OPT from T_0(eps) on)",
            _UCB_FIXES),
    Context("corollary:RS-UCB-M", SETTING + "; beta exists, r <= beta + q/2", _UCB_FIXES + (
        ("eps", "Theta((K^(2/q) log T/T)^kappa), kappa = (2 beta/q + 2)^-1"),)),
    Context("theorem:W", "1-sub-Gaussian laws read as P(|X| > u) <= 2 exp(-u^2/2), the reading the proof uses "
            "(eq:W_5)", (("sub-Gaussian", "P(|X| > u) <= 2 exp(-u^2/2)"),)),
    Context("lemma:beta_lemma_monotone", SETTING + "; h concave and strictly increasing, Bernoulli arms",
            (("grid", "the mid-point grid of section RS_UCB_M"),
             ("means", "p(1) < ... < p(K), the arms ordered by their means, the largest unique"))),
    Context("lemma:Dual_Power", SETTING + "; Bernoulli laws", (("s", "s >= 2, the lemma's hypothesis"),)),
    Context("lemma:Delta_error", SETTING,
            (("grid", "the grid of the algorithm the lemma is applied to: the ETC grid eq:etc_discrete_set for "
                      "RS-ETC-M, the mid-point grid of section RS_UCB_M for RS-UCB-M and CE-UCB-M"),)),
)}


def context_of(result: str) -> Context | None:
    """The context of ``result``'s proof (None: no context recorded; the step is judged as printed)."""
    return CONTEXTS.get(result)
