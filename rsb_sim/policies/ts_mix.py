"""TS-Mix: Thompson sampling for the mixture objective V(alpha) = U_h(sum_i alpha_i F_i) (``eq:V``) -- rsb's
construction, not in the paper.

The posterior of each arm (after ``explore`` rounds of round robin, default 1):

* Bernoulli arms: Beta(1 + S_i, 1 + F_i) on the mean (S_i ones, F_i zeros), drawn as Gamma(1 + F_i),
  Gamma(1 + S_i) variates of the two levels divided by their sum;
* other arms (finite support, continuous, empirical): Dirichlet over the observed levels with one extra atom at
  the known upper bound b of the support, Dirichlet(c_1, ..., c_m, 1) -- the posterior of Riou and Honda (2020)
  that B-CVTS (Baudry et al. 2021) samples, drawn the same way (:mod:`rsb_sim.policies.b_cvts`).

Before each pull one model F~ is sampled (one law per arm), and then, by the variant:

* ``track`` (the default): alpha~ = argmax_alpha V(alpha; F~), the mixture of largest value on the sampled model
  (the first point of largest value on the simplex grid of step 1/N, :func:`rsb_sim.policies._ts_loop.simplex_grid`,
  N = 200 for K = 2), and the arm of the tracking rule ``eq:UCB_sampling_rule`` (:func:`rsb_sim.rules.track`):
  the largest deficit (t - 1) alpha~_i - tau_i;
* ``fw`` (:data:`FRANK_WOLFE`, through the API): a Frank-Wolfe step on the sampled objective, the arm of the
  largest partial derivative of V(.; F~) at the current proportions p = tau / (t - 1),
  sum_j (x_{j+1} - x_j) h'(S~_p(x_j)) S~_i(x_j) (for Bernoulli arms h'(<p, p~>) p~_i), as UCB-FW's index
  (:mod:`rsb_sim.policies.ucb_fw`) with the sampled model in place of the estimate plus bonus.

Why ``track`` is the default: on the instances where the learner was proposed (Gini, T = 10^4, 100 trials, same
seeds; ``docs/simulation.md``, "TS-Mix") the two variants are indistinguishable (mixture instance Bern(0.4),
Bern(0.9): 4.2e-5 and 4.0e-5, each +- 1.2e-5; solitary instance Bern(0.2), Bern(0.45): 1.1e-4 both), and tracking
needs only h, so it applies to every h rsb accepts; the Frank-Wolfe step needs h', which a kink such as CVaR's has
no closed form of (the ``fw`` variant refuses those h naming ``dr``).  The Frank-Wolfe variant is cheaper per step
(no search over the simplex).

Literature: posterior sampling for a concave function of the *proportions* of pulls is, as far as rsb's searches
(of documentation and stored web pages) found, not published in this form.  The closest works: Berthet and Perchet
(NeurIPS 2017, arXiv 1702.06917, "Fast rates for bandit optimization with upper-confidence Frank-Wolfe": the
Frank-Wolfe step on the proportions, with an upper confidence bonus where this samples); Agrawal and Devanur (EC
2014, arXiv 1402.5758, "Bandits with concave rewards and convex knapsacks": a concave function of the average reward
vector, UCB rules and their Frank-Wolfe connection); Wang, Tzeng and Proutiere (NeurIPS 2021, "Fast pure exploration
via Frank-Wolfe": one Frank-Wolfe step per round on the estimated allocation problem); Garivier and Kaufmann (2016,
the tracking of a plug-in optimal allocation); and Riou and Honda (2020) and Baudry et al. (2021, B-CVTS/M-CVTS: the
Dirichlet posterior with the atom at b, for one arm's risk measure).  So: rsb's construction.

Randomness: the sampler of arm i in trial k is :func:`rsb_sim.policies.b_cvts.sampler` (the first child
spawned from that arm's reward stream, ``SeedSequence(entropy, spawn_key=stream + (first + k, i, 0))``); at each
step, arm by arm, level by level in increasing order (levels of zero shape skipped), one Gamma variate.  The engine
runs one trial at a time in the compiled loop of :mod:`rsb_sim.policies._ts_loop`; the plain reference loop
(:meth:`TSMix.reference_choice`) draws the same variates with NumPy and takes identical actions.
"""

from __future__ import annotations

from ._index import IndexPolicy
from rsb_theory.errors import ArgumentError

#: The variants and the mode of the compiled loop (:mod:`rsb_sim.policies._ts_loop`) each runs.
VARIANTS = {"fw": 1, "track": 2}


class TSMix(IndexPolicy):
    name = "ts-mix"
    title = "TS-Mix"
    family = "competitor"
    rank = 5
    summary = "Thompson sampling for the mixture, tracking the sampled optimum (rsb's construction)"
    reads = frozenset({"explore"})
    compiled = True
    variant = "track"

    def constants_of(self, cfg, instance, d, warnings):
        """The variant (``Setup.constants['variant']``: 1 Frank-Wolfe, 2 tracking); notes in words when h is not
        concave (the sampled optimum may then lie where tracking is not the best response, and the Frank-Wolfe step
        is a local rule).  ValueError naming ``dr`` for the Frank-Wolfe variant when h' has no compiled form."""
        if not d.shape.is_concave:
            warnings.append(f"{self.title}: h = {d.describe()} is not concave, so V(alpha) is not concave in alpha: "
                            f"the sampled model's optimum may be a vertex or not unique, and a Frank-Wolfe step is a "
                            f"local rule")
        if self.variant == "fw":
            from ._ts_loop import compiled_derivative

            if compiled_derivative(d) is None:
                raise ArgumentError("dr", f"the Frank-Wolfe variant of {self.name} needs h' in closed form, "
                                 f"and h = {d.describe()} has a kink; use the tracking variant (--algo {self.name})")
        return {"constants": {"variant": float(VARIANTS[self.variant])}}

    # -- the model: levels and prior -------------------------------------------------------------------------------
    @staticmethod
    def model(instance):
        """(ext, prior): the levels of the sampled laws and the prior pseudo-counts of each (module docstring)."""
        x = [float(v) for v in instance.support]
        if instance.kind == "bernoulli":
            return x, [1.0] * len(x)
        return x + [float(instance.width)], [0.0] * len(x) + [1.0]

    def step_work(self, K: int, levels: int = 2) -> int:
        """A law sampled on every level of every arm; the tracking variant then values every point of the simplex
        grid."""
        from rsb_theory.workload import grid_step_work, sampled_step_work

        return sampled_step_work(K, levels) + (grid_step_work(K, levels) if self.variant == "track" else K)

    def _grid(self, K):
        from ._ts_loop import simplex_grid

        return simplex_grid(K) if self.variant == "track" else None

    def simulate(self, setup, d, instance, table, record_actions: bool = False, progress=None):
        from ._ts_loop import compiled_derivative, run

        ext, prior = self.model(instance)
        hp = compiled_derivative(d) if self.variant == "fw" else None
        return run(setup, d, instance, table, ext=ext, prior=prior, sample=True, mode=VARIANTS[self.variant],
                   grid=self._grid(setup.K), hp=hp, record_actions=record_actions, progress=progress)

    def reference_state(self, setup, table, k):
        """The K sampler streams of trial k and the grid."""
        from .b_cvts import sampler

        grid = self._grid(setup.K)
        return [sampler(table, k, i) for i in range(setup.K)], (None if grid is None else grid.tolist())

    def reference_choice(self, setup, d, instance, hists, n, state):
        """One model drawn with NumPy, then the variant's scores by plain loops, lowest arm within the tolerance."""
        from rsb_theory.distortions import numeric_derivative

        from ._solitary import choose_arm
        from ._ts_loop import reference_values, reference_weights

        gens, grid = state
        ext, prior = self.model(instance)
        weights = reference_weights(hists, prior, gens)
        pulls = [sum(hist) for hist in hists]
        hp = numeric_derivative(d) if self.variant == "fw" else None
        return choose_arm(reference_values(d, ext, weights, VARIANTS[self.variant], pulls, n, grid, hp))


class TSMixFrankWolfe(TSMix):
    """The Frank-Wolfe variant (module docstring), for the Python API: ``api.simulate(..., algo=FRANK_WOLFE)``."""

    name = "ts-mix-fw"
    title = "TS-Mix (Frank-Wolfe)"
    family = "user"
    summary = "Thompson sampling for the mixture, a Frank-Wolfe step on the sampled model (rsb's construction)"
    variant = "fw"


POLICY = TSMix()

#: The Frank-Wolfe variant as a policy object (not in the catalog: one module, one ``--algo``).
FRANK_WOLFE = TSMixFrankWolfe()
