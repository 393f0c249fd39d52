"""M-CVTS (Baudry, Moreau and Kaufmann, AISTATS 2021, "Optimal Thompson Sampling strategies for support-aware
CVaR bandits", arXiv 2012.05754), the CVaR Thompson sampler for arms of a known finite support.

For multinomial arms on the known levels x_1 < ... < x_m (every arm's support among them): the posterior of arm i
is Dirichlet(1 + c_i1, ..., 1 + c_im), a uniform prior on the simplex of the known support updated by the counts
c_ij of each level.  Before each pull (after ``explore`` rounds of round robin, default 1) one law is drawn per
arm and the arm whose sampled law has the largest CVaR is pulled (lowest arm within
:data:`rsb_sim.policies._solitary.INDEX_TOL` on ties); the criterion of the sampled law is U_h (``eq:wang_def``),
x_1 + sum_j (x_{j+1} - x_j) h(S_j).  The Dirichlet is drawn as independent Gamma(1 + c_ij, 1) variates divided by
their sum.  On Bernoulli arms it is Beta(1 + F_i, 1 + S_i) on the two levels.

Defined for CVaR (the paper's lower tail, ``cvar_lower``, and rsb's upper-tail ``cvar``) and for arms of a known
finite support (Bernoulli and finite-support arms): its declaration refuses other distortions and other arms
naming ``algo`` (B-CVTS, ``--algo b-cvts``, is the variant for bounded arms of unknown support).

Randomness: the sampler of arm i in trial k is :func:`rsb_sim.policies.b_cvts.sampler` (the first child spawned
from that arm's reward stream); at each step, arm by arm, level by level in increasing order, one Gamma variate.
The engine runs the compiled loop of :mod:`rsb_sim.policies._ts_loop` (mode 0); the plain reference loop draws the
same variates with NumPy.
"""

from __future__ import annotations

from ._index import IndexPolicy


class MCVTS(IndexPolicy):
    name = "m-cvts"
    title = "M-CVTS"
    family = "competitor"
    rank = 6
    summary = "Baudry et al. 2021, CVaR Thompson sampling for known finite supports"
    reads = frozenset({"explore"})
    distortions = ("cvar", "cvar_lower")
    distortions_words = "CVaR"
    arms = ("bernoulli", "finite")
    arms_words = "arms of a known finite support (Bernoulli or finite-support arms)"
    arms_why = "its Dirichlet prior lives on the known support; b-cvts is the variant for other bounded arms"
    example_dr = "cvar_lower"
    compiled = True

    def step_work(self, K: int, levels: int = 2) -> int:
        """A Dirichlet draw on every level of every arm, and its value."""
        from rsb_theory.workload import sampled_step_work

        return sampled_step_work(K, levels)

    def simulate(self, setup, d, instance, table, record_actions: bool = False, progress=None):
        from ._ts_loop import run

        m = len(instance.support)
        return run(setup, d, instance, table, ext=list(instance.support), prior=[1.0] * m, sample=True, mode=0,
                   record_actions=record_actions, progress=progress)

    def reference_state(self, setup, table, k):
        """The K sampler streams of trial k."""
        from .b_cvts import sampler

        return [sampler(table, k, i) for i in range(setup.K)]

    def reference_index(self, setup, d, instance, hists, n, state):
        """For each arm in order, U_h of the law with Dirichlet(1 + c_1, ..., 1 + c_m) weights drawn with NumPy."""
        from ._ts_loop import reference_values, reference_weights

        ext = [float(v) for v in instance.support]
        weights = reference_weights(hists, [1.0] * len(ext), state)
        return reference_values(d, ext, weights, 0, [sum(h) for h in hists], n)


POLICY = MCVTS()
