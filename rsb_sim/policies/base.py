"""What a policy is: one object that declares itself and runs (light: importable without NumPy).

Every module ``rsb_sim/policies/<name>.py`` (no leading underscore) exports one instance ``POLICY`` of a
subclass of :class:`Policy`; :mod:`rsb_sim.policies.catalog` finds them.  The class attributes are the
*declaration*, read by the option checks, the command line's help, ``rsb bench``, the workload estimate, the
engine's summary and the bound labels without running anything; the methods run it, and import NumPy and the
heavy modules inside their bodies, so that reading a declaration stays light (``rsb --help`` imports no NumPy).

Three forms:

* :class:`Policy` -- the general form: :meth:`~Policy.prepare` (the constants fixed before the first pull,
  a :class:`rsb_sim.setup.Setup`), :meth:`~Policy.simulate` (vectorised across trials) and
  :meth:`~Policy.reference_trial` (the plain per-trial loop the engine is tested against: identical actions
  on the same reward table).
* :class:`rsb_sim.policies._index.IndexPolicy` -- pull the arm of largest index (lowest arm within
  :data:`rsb_sim.policies._solitary.INDEX_TOL`) after a round robin of ``explore`` pulls per arm (default 1).
  A subclass gives :meth:`~IndexPolicy.vector_index` (all trials at once) and
  :meth:`~IndexPolicy.reference_index` (one trial, plain loops); the time loops are
  :func:`rsb_sim.policies._solitary.run` and :func:`rsb_sim.reference_index.reference_trial`, one each for
  every index policy.
* :class:`rsb_sim.policies.user.IndexRule` and :class:`~rsb_sim.policies.user.TargetRule` -- a user's own policy (``docs/api.md``, "Your own policy"):
  subclass one in a notebook, give a ``name`` and ``index(stats, t)`` (the scores of the arms) or
  ``target(stats, t)`` (a mixture alpha, tracked by ``eq:UCB_sampling_rule``), and pass an instance
  wherever an algorithm's name goes (:func:`proofs_checks.api.simulate`, :func:`proofs_checks.api.compare`,
  :func:`rsb_sim.engine.run`).  It runs in the plain (not compiled) engine, on the same reward table and with
  the same statistics as the built-ins.
"""

from __future__ import annotations

#: The kinds of policy (:attr:`Policy.family`), in the order the catalog lists them.
FAMILIES = ("paper", "baseline", "competitor", "user")

#: The per-trial state of a policy's loop, for the memory estimate (:data:`rsb_theory.workload.TRIAL_BYTES`):
#: ``ucb`` for the loops that keep counts, estimates and radii at every step, ``other`` for the rest.
STATES = ("ucb", "other")

#: Grid kinds (:class:`rsb_theory.grids.Grid`): None for a policy that searches no grid.
GRIDS = ("etc", "ucb", None)

#: Every option a policy may read (names of :class:`rsb_sim.config.SimConfig` fields).
OPTIONS = ("eps", "rho", "radius_scale", "explore", "threads", "quantize")


class Policy:
    """A policy: its declaration (class attributes) and how it runs (methods).

    Attributes
    ----------
    name : str
        The ``--algo`` name.
    title : str
        The name printed in figures and tables.
    family : str
        ``paper`` (the paper's algorithms and uniform sampling, ``sec: experiments``), ``baseline`` (solitary,
        not in the paper), ``competitor`` (from the literature, not in the paper) or ``user`` (:data:`FAMILIES`).
    rank : int
        Its place in the catalog (the order of ``--algo``'s choices).
    summary : str
        One line for the command line's help.
    reads : frozenset of str
        The options it reads (:data:`OPTIONS`); any other option given for it is an error naming the option.
    distortions : tuple of str or None
        The distortion families (``Distortion.key``) it is defined for; None: every h.
    distortions_words : str
        Those families in words, for the "does not apply" message.
    arms : tuple of str or None
        The arm kinds (``instance.kind``) it is implemented for; None: every kind.
    arms_words, arms_why : str
        Those kinds in words, and why, for the "does not apply" message.
    state : str
        Its per-trial state for the memory estimate (:data:`STATES`).
    grid : str or None
        The grid it searches (:data:`GRIDS`).
    theorem : str or None
        The paper's label of its regret bound (``theorem: ETC upper bound``, ``theorem:UCB upper bound``);
        None: no bound of the paper applies.
    proof : str or None
        The paper's label of the proof of that bound for this policy (``proof:ETC upper bound``,
        ``proof:UCB upper bound``, ``Appendix:CE-UCB-M_algorithm``): the checks of a proof's chain pick the
        route by it, not by the policy's name.
    corollary : str or None
        The paper's label of its rate with eps tuned to T (``theorem:RS-ETC-M``, ``corollary:RS-UCB-M``); None:
        the paper states none.
    constants : tuple of (str, str)
        The constants of its :class:`~rsb_sim.setup.Setup` it uses, each with its meaning (``radius_c``,
        ``L_bonus``, ``q``, ``L``, ``u_star`` and the names of ``Setup.constants``).
    reads_rewards : bool
        False when its schedule is fixed (no reward decides a pull).
    exploration_only : bool
        Only its exploration's rewards decide anything (the ``trial`` route of continuous arms then draws only
        those, :func:`rsb_sim.arm_laws.trial_draws`).
    compiled : bool
        It may run a loop compiled by numba (``SimConfig.compiled``); a user's policy is plain Python.
    example_dr : str
        A distortion it is defined for, for ``rsb bench``'s rows.
    color : str
        Its colour in figures (a Matplotlib name; empty: the next of the cycle).
    reads_h : bool
        Its decisions depend on h (False: risk-neutral or a fixed schedule; the command line then skips h's
        Hölder analysis before a kept run).
    """

    name: str = ""
    title: str = ""
    family: str = "user"
    rank: int = 1000
    summary: str = ""
    reads: frozenset = frozenset({"explore"})
    distortions: tuple | None = None
    distortions_words: str = ""
    arms: tuple | None = None
    arms_words: str = ""
    arms_why: str = ""
    state: str = "other"
    grid: str | None = None
    theorem: str | None = None
    proof: str | None = None
    corollary: str | None = None
    constants: tuple = ()
    reads_rewards: bool = True
    exploration_only: bool = False
    compiled: bool = False
    example_dr: str = "gini"
    reads_h: bool = True
    color: str = ""

    def __setattr__(self, key, value):
        raise AttributeError(f"a policy is frozen: {type(self).__name__}.{key} cannot be set")

    def __repr__(self) -> str:
        return f"<policy {self.name}>"

    # -- the declaration, read without running anything ---------------------------------------------------------
    def step_work(self, K: int, levels: int = 2) -> int:
        """Its evaluations per step of one trial, for the work estimate (:func:`rsb_theory.workload.simulate_work`):
        K (one index per arm) unless the policy says otherwise (a search over a simplex grid at every step, a law
        sampled on every level of every arm); ``levels``: the outcomes per arm (2: Bernoulli)."""
        return K

    def refusal(self, family: str) -> str | None:
        """The one-line reason (the message of an ``ArgumentError`` of ``algo``) when the policy is not defined for the distortion family
        ``family`` (``Distortion.key``); None when it applies."""
        if self.distortions is None or family in self.distortions:
            return None
        return (f"{self.name} is defined for {self.distortions_words} only "
                f"({' or '.join(self.distortions)}), not for {family}; choose another --algo or --dr")

    @property
    def arms_refusal(self) -> str:
        """The one-line reason (the message of an ``ArgumentError`` of ``algo``) for arms of a kind outside :attr:`arms`."""
        why = f" ({self.arms_why})" if self.arms_why else ""
        return f"{self.name} is implemented for {self.arms_words or ' or '.join(self.arms)} only{why}"

    def uses(self, constant: str) -> bool:
        """It uses the constant ``constant`` of its set-up (its ``constants`` declaration)."""
        return any(name == constant for name, _ in self.constants)

    @property
    def bound_free(self) -> bool:
        """No bound of the paper applies (not one of the paper's algorithms)."""
        return self.family != "paper"

    def threads_used(self, setup, d, instance, trials: int) -> int:
        """The threads a run uses (``rsb bench`` reports it): 1 unless the policy runs a threaded compiled loop."""
        return 1

    # -- running it ---------------------------------------------------------------------------------------------
    def prepare(self, cfg, instance, d, eps):
        """The :class:`rsb_sim.setup.Setup` of a run (``eps``: the grid's level as recorded, or None).

        ValueError naming the argument when the policy does not apply to ``instance`` or ``d``.
        """
        raise NotImplementedError

    def simulate(self, setup, d, instance, table, record_actions: bool = False, progress=None):
        """A :class:`rsb_sim.policies.PolicyRun` for every trial of ``table`` (vectorised across trials)."""
        raise NotImplementedError

    def reference_trial(self, setup, d, instance, table, k: int, decisions: list | None = None):
        """Actions A_1..A_T (0-based) of trial k, by plain loops (the independent route); shape (T,), int64."""
        raise NotImplementedError
