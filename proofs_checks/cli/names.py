"""The command line's vocabulary: the names a flag may take, importable without NumPy or SymPy.

``rsb --help`` lists them and an unknown name is refused before anything heavy is
imported.  Each tuple is the library's own list, read from a light module where
the library has one and otherwise copied here; ``tests/checks/test_cli.py``
asserts that every copy equals the library's.
"""

from __future__ import annotations

from ..experiments import COMMAND_NAMES as EXPERIMENTS
from rsb_sim.options import ALGORITHMS

#: The distortions of ``table:table_regrets`` (:data:`rsb_theory.distortions.REGISTRY`).
DISTORTIONS: tuple[str, ...] = ("mean", "dual_power", "quadratic", "cvar", "pht", "mean_median", "inter_es",
                                "right_tail", "gini")
#: Distortions beyond the table (:data:`rsb_theory.distortions.EXTENSIONS`); ``dual(NAME)`` of any of them too.
EXTENSIONS: tuple[str, ...] = ("cvar_lower",)
#: Grids of the discrete optimum (:data:`rsb_theory.grids.GRID_KINDS`).
GRIDS: tuple[str, ...] = ("etc", "ucb")
#: Routes of the oracle of ``eq:optimal alpha`` (:data:`rsb_theory.oracle.METHODS`).
METHODS: tuple[str, ...] = ("auto", "cvxpy", "closed_form", "search")
#: Output formats.
FORMATS: tuple[str, ...] = ("json", "table")
#: What ``rsb plot`` draws.
PLOTS: tuple[str, ...] = ("bounds",)

__all__ = ["ALGORITHMS", "DISTORTIONS", "EXTENSIONS", "EXPERIMENTS", "FORMATS", "GRIDS", "METHODS", "PLOTS"]
