"""The context of each proof: the setting it works in and the quantities it fixes.

The contexts are facts about results and live in the results' records (:mod:`proofs_checks.results`,
``Record.context``); this module only names them for the callers that read a context by its result.

A step of a proof is judged where the proof uses it: inside the paper's setting (``sec:setting``: rewards in
Omega subset of R_+, laws with finite first moment, U_h <= B) and with the quantities the proof has fixed
(``N = N(eps)`` of RS-ETC-M, the radius of ``eq:UCB_confidence_sets``, the algorithm's grid, ``T > T(eps)``, the
h of a lemma about one distortion).  A failure found only where such a quantity is replaced by another is a
note beside the entry's status, never its status (``docs/theory.md``, "Statement and proof").

The registry (:mod:`proofs_checks.registry`) attaches the context of result ``R`` to every claim of ``R``'s proof
(its steps ``R#step:...``, its chained constants ``R#chain``, and the entries of the displays of its proof); a
check reads a fixed quantity with :meth:`proofs_checks.claims.Claim.fixed`, and the mutant that drops the context
(:meth:`proofs_checks.claims.Claim.without_context`) must change the status of every step whose verdict depends
on it (``rsb verify --mutants``).
"""

from __future__ import annotations

from .results import SETTING, Context, context_of, contexts

#: One context per proof, keyed by the result's label (derived from the records).
CONTEXTS: dict[str, Context] = contexts()

__all__ = ["CONTEXTS", "SETTING", "Context", "context_of"]
