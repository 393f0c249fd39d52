"""One check module per claim or group of claims of the paper.

Each public module exports ``CLAIMS``, a mapping from ledger id to
:class:`proofs_checks.claims.Claim`; :mod:`proofs_checks.registry` finds them.
Helpers shared by several modules start with an underscore (``_holder``).
"""
