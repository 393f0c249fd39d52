"""The catalog of policies: every ``rsb_sim/policies/<name>.py`` found, its ``POLICY`` read (light: no NumPy).

A policy module (a name without a leading underscore, other than ``base`` and ``catalog``) exports one
``POLICY``, an instance of :class:`rsb_sim.policies.base.Policy` whose declaration is read here without
running anything (the modules import NumPy inside their methods only).  Adding a policy is adding its module
(and its test): the option checks (:mod:`rsb_sim.options`), the command line's help and choices, ``rsb
bench``, the workload estimate, the engine's summary and the bound labels read this catalog.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from .base import Policy
from rsb_theory.errors import ArgumentError

#: Modules of this package that are not policies.
_NOT_POLICIES = frozenset({"base", "catalog", "user"})

_CACHE: dict = {}


def _load() -> dict:
    """name -> POLICY of every policy module, in catalog order (family, then rank, then name)."""
    if "all" not in _CACHE:
        from .base import FAMILIES

        found = []
        for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
            if info.name.startswith("_") or info.name in _NOT_POLICIES:
                continue
            policy = importlib.import_module(f"{__package__}.{info.name}").POLICY
            if not isinstance(policy, Policy):
                raise TypeError(f"{__package__}.{info.name}.POLICY is not a Policy")
            found.append(policy)
        found.sort(key=lambda p: (FAMILIES.index(p.family), p.rank, p.name))
        names = [p.name for p in found]
        if len(set(names)) != len(names):
            raise ValueError(f"two policies share a name: {names}")
        _CACHE["all"] = {p.name: p for p in found}
    return _CACHE["all"]


def policies() -> tuple:
    """Every built-in policy, in catalog order."""
    return tuple(_load().values())


def names(family: str | None = None) -> tuple[str, ...]:
    """The names of the built-in policies (of one ``family``), in catalog order."""
    return tuple(p.name for p in policies() if family is None or p.family == family)


def get(algo) -> Policy:
    """The policy of a name, or ``algo`` itself when it is a :class:`Policy` (a user's own).

    ValueError naming ``algo`` for an unknown name.
    """
    if isinstance(algo, Policy):
        if not algo.name or not isinstance(algo.name, str):
            raise ArgumentError("algo", "a policy needs a name (the class attribute 'name'), got "
                             f"{algo.name!r}")
        return algo
    table = _load()
    if not isinstance(algo, str) or algo not in table:
        raise ArgumentError("algo", f"unknown algorithm {algo!r}; known: {', '.join(table)}")
    return table[algo]
