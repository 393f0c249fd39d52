"""The result of the oracle of ``eq:optimal alpha``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Oracle", "METHODS", "ALPHA_SNAP"]

#: Mixture weights below this are set to 0 in every numeric route's result (cvxpy, search; any arm laws),
#: before it is certified and reported: a solver's 1e-13 is its tolerance, not a weight.
ALPHA_SNAP = 1e-9

#: The routes of :func:`rsb_theory.oracle.optimal_mixture`.
METHODS = ("auto", "cvxpy", "closed_form", "search")


@dataclass(frozen=True)
class Oracle:
    """Solution of ``eq:optimal alpha``.

    Attributes
    ----------
    alpha : tuple of float
        Optimal (``closed_form``, ``cvxpy``) or best found (``search``) mixture.
    value : float
        V(alpha) of ``eq:V`` recomputed by :func:`rsb_theory.riskmetric.mixture_value`.
    method : str
        ``"closed_form"``, ``"cvxpy"`` or ``"search"``.
    evidence : str
        What the route proves (``search`` alone proves nothing: a lower bound).
    gap : float or None
        Upper bound on V(alpha*) - value from the supergradient inequality
        (:func:`optimality_gap`) when h is concave (``d.shape.is_concave``);
        ``inf`` when a one-sided derivative of h is infinite where it matters;
        None for non-concave h.  It turns a ``search`` result on a concave h
        into a certified interval [value, value + gap].
    """

    alpha: tuple[float, ...]
    value: float
    method: str
    evidence: str
    gap: float | None = None

    @property
    def certified(self) -> bool:
        """True if value is proven within 1e-6 of the optimum (exact route, or a small gap)."""
        return self.method == "closed_form" or (self.gap is not None and self.gap <= 1e-6)
