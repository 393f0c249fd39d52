"""B-CVTS (Baudry, Gautron, Kaufmann and Maillard, ICML 2021, arXiv 2012.05754), a CVaR Thompson sampler.

"Optimal Thompson Sampling strategies for support-aware CVaR bandits", B-CVTS for rewards bounded by a
known b: before each pull (after ``explore`` rounds of round robin, default 1), for every arm i draw
weights w ~ Dirichlet(1, ..., 1) over the arm's n_i observations and one extra atom at the upper bound
b of the support, and pull the arm whose weighted law has the largest CVaR (lowest arm within
:data:`rsb_sim.policies._solitary.INDEX_TOL` on ties).  The weights of equal observations add up, and a
Dirichlet aggregates: the weights of the levels x_1 < ... < x_m with counts c_j are
Dirichlet(c_1, ..., c_m, 1) (the last for b), drawn here as independent Gamma(c_j, 1) variates
divided by their sum -- the same law as the paper's per-observation draw, with one draw per level
instead of one per observation.  The criterion of the sampled law is U_h (``eq:wang_def``),
x_1 + sum_j (x_{j+1} - x_j) h(S_j) on the levels and b.

Randomness (``docs/architecture.md``, "Seeds from one root"): the sampler of arm i in trial k is the
PCG64 stream of ``SeedSequence(entropy, spawn_key=stream + (first + k, i, 0))`` -- the first child
spawned from that arm's reward stream, so one root seeds rewards and samples alike and no two
collide.  At each step, arm by arm in order 0..K-1, the Gamma variates are drawn level by level in
increasing order (levels with c_j = 0 skipped), then the atom at b.  The engine runs one trial at a
time in a loop compiled by numba, with numba's ``numpy.random.Generator`` on those streams (its
Gamma sampler is NumPy's, bit for bit: tested); the plain reference loop
(:meth:`BCVTS.reference_index`, in :func:`rsb_sim.reference_index.reference_trial`) draws the same variates with NumPy and takes identical actions.

Defined for CVaR (the paper's lower tail, ``cvar_lower``; the atom at b is optimistic for any
increasing h, and rsb also accepts the upper-tail ``cvar``): its declaration (``distortions``) refuses the others naming ``algo``.
The engine runs the compiled loop of :mod:`rsb_sim.policies._ts_loop` (mode 0, sampling) on the levels and b, with the
prior weight 1 on b only: its Gamma(c_j) draws, levels with no reward skipped, then Gamma(1) for b, are this
policy's draws in the same order.
"""

from __future__ import annotations

from ._index import IndexPolicy


def sampler(table, k: int, i: int):
    """The sampler stream of arm i in local trial k of ``table`` (module docstring)."""
    from ._ts_loop import sampler

    return sampler(table, k, i)


class BCVTS(IndexPolicy):
    name = "b-cvts"
    title = "B-CVTS"
    family = "competitor"
    rank = 4
    summary = "Baudry et al. 2021, CVaR Thompson sampling"
    reads = frozenset({"explore"})
    distortions = ("cvar", "cvar_lower")
    distortions_words = "CVaR"
    example_dr = "cvar_lower"
    compiled = True

    def step_work(self, K: int, levels: int = 2) -> int:
        """A Dirichlet draw on every level of every arm, and its value."""
        from rsb_theory.workload import sampled_step_work

        return sampled_step_work(K, levels)

    def simulate(self, setup, d, instance, table, record_actions: bool = False, progress=None):
        from ._ts_loop import run

        m = len(instance.support)
        return run(setup, d, instance, table, ext=list(instance.support) + [float(instance.width)],
                   prior=[0.0] * m + [1.0], sample=True, mode=0, record_actions=record_actions, progress=progress)

    def reference_state(self, setup, table, k):
        """The K sampler streams of trial k."""
        return [sampler(table, k, i) for i in range(setup.K)]

    def reference_index(self, setup, d, instance, hists, n, state):
        """For each arm in order, U_h of the law with Dirichlet(c_1, ..., c_m, 1) weights on the levels and b,
        drawn as Gamma variates with NumPy from the arm's stream (levels with no reward skipped)."""
        import numpy as np

        from rsb_theory.riskmetric import finite_support

        x = [float(v) for v in instance.support] + [float(instance.width)]
        out = []
        for hist, gen in zip(hists, state):
            weights = [float(gen.standard_gamma(float(c))) if c > 0 else 0.0 for c in hist]
            weights.append(float(gen.standard_gamma(1.0)))
            total = sum(weights)
            out.append(float(finite_support(d.numeric, x, np.array(weights) / total)))
        return out


POLICY = BCVTS()
