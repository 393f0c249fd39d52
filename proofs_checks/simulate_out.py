"""``rsb simulate --out DIR``: one run kept on disk the way ``rsb reproduce`` keeps its runs.

The run is a one-spec sweep (:func:`rsb_sim.sweep.sweep`) into ``DIR/runs``: chunks of
trials are stored as they finish (an interrupted run resumes, every file is checked when
read, ``DIR`` is held by one run at a time), and the merged result is the one big run, bit
for bit.  Then, each written atomically (:mod:`proofs_checks.outputs`):

* ``DIR/simulate.json`` -- the run's summary, as ``rsb simulate --format json`` prints it
  (with ``chunks``: how many stored chunks it was merged from);
* ``DIR/simulate.csv`` -- one row per trial (:data:`TRIAL_COLUMNS`): ``trial`` is the
  trial's index k in the reward table (``SimConfig.first_trial`` + row, the k of the seed
  contract: rerun one trial with ``first_trial=k``), its final ``regret``
  (``eq:regret``) and ``pulls_1`` .. ``pulls_K`` (arms numbered from 1); ``#`` header
  lines hold the summary without its per-trial lists;
* with ``--record``: ``DIR/trajectory.csv`` (:data:`TRAJECTORY_COLUMNS`: the mean regret at each
  recorded step t and its 95 % interval, :mod:`rsb_sim.trajectory`) and its figure
  ``DIR/trajectory.png``/``.pdf``.
"""

from __future__ import annotations

from rsb_sim import jsontext

from rsb_theory.safe_files import own_dir

from .outputs import check_out, csv_text, write_text

#: Leading columns of ``DIR/simulate.csv`` (then ``pulls_1`` .. ``pulls_K``).
TRIAL_COLUMNS: tuple[str, ...] = ("trial", "regret")
#: Columns of ``DIR/trajectory.csv`` (the keys of a trajectory point).
TRAJECTORY_COLUMNS: tuple[str, ...] = ("t", "mean_regret", "ci_low", "ci_high")
#: File names in ``DIR``.
SUMMARY_NAME, TRIALS_NAME = "simulate.json", "simulate.csv"


def spec_of(algo: str, dr: str, params: dict, p, support, probs, config: dict, record=None, arms=None) -> dict:
    """The sweep spec of one ``rsb simulate`` run (Bernoulli ``p``, finite ``support``/``probs``, or ``arms``).

    ``record``: the steps of a trajectory (``--record``), or None.  ``arms``: the text of ``--arms``
    (laws of any kind, :mod:`rsb_sim.arm_laws`), or None.
    """
    spec = {"algo": algo, "dr": dr, "params": dict(params), "config": dict(config)}
    if record is not None:
        spec["record"] = [int(t) for t in record]
    if arms is not None:
        spec["arms"] = str(arms)
    elif p is not None:
        spec["p"] = [float(x) for x in p]
    else:
        spec["support"] = [float(x) for x in support]
        spec["probs"] = [[float(x) for x in row] for row in probs]
    return spec


def simulate_to(spec: dict, out, progress=None, **sweep_opts) -> dict:
    """Run ``spec`` through a sweep into ``out/runs``; write ``out/simulate.json`` and ``.csv``; return the summary.

    ``sweep_opts`` go to :func:`rsb_sim.sweep.sweep` (chunk, wait, notify, executor, ...).
    The returned summary has ``files``: the two paths.
    """
    from rsb_sim import store
    from rsb_sim.dirlock import hold
    from rsb_sim.interrupt import kept
    from rsb_sim.sweep import sweep

    out = check_out(out)
    with hold(out, sweep_opts.get("wait", 0.0), sweep_opts.get("notify")):
        (key,) = sweep([spec], own_dir(out, "runs"), progress=progress, **sweep_opts)
        with kept(f"the whole run in {out / 'runs'}"):
            return _write(out, *store.load(out / "runs", key))


def _write(out, summary: dict, arrays: dict) -> dict:
    """``out/simulate.json`` and ``out/simulate.csv``; the summary with ``files``."""
    paths = {"summary": out / SUMMARY_NAME, "trials": out / TRIALS_NAME}
    write_text(paths["summary"], jsontext.dumps(summary, indent=1) + "\n")
    write_text(paths["trials"], trials_csv(summary, arrays))
    if "trajectory" in summary:
        from .figures import trajectory_figure
        from .outputs import save_figure

        header = {k: v for k, v in summary.items() if k not in ("regrets", "trajectory", "trajectory_regrets")}
        paths.update({f"trajectory_{ext}": out / f"trajectory.{ext}" for ext in ("csv", "png", "pdf")})
        write_text(paths["trajectory_csv"], csv_text(summary["trajectory"], TRAJECTORY_COLUMNS, header, indent=None))
        title = f"{summary['algo']}, {summary['distortion']}, T = {summary['T']}, {summary['trials']} trials"
        save_figure(trajectory_figure([summary], title), paths["trajectory_png"], paths["trajectory_pdf"])
    return {**summary, "files": {k: str(v) for k, v in paths.items()}}


def trials_csv(summary: dict, arrays: dict) -> str:
    """The per-trial CSV (:data:`TRIAL_COLUMNS`, then pulls per arm 1..K) with the summary in ``#`` lines."""
    regrets, counts = arrays["regrets"], arrays["counts"]
    K = counts.shape[1]
    first = int(summary["config"].get("first_trial", 0))
    columns = TRIAL_COLUMNS + tuple(f"pulls_{i + 1}" for i in range(K))
    rows = [{"trial": first + j, "regret": float(regrets[j]), **{f"pulls_{i + 1}": int(counts[j, i]) for i in range(K)}}
            for j in range(regrets.size)]
    header = {k: v for k, v in summary.items() if k not in ("regrets", "trajectory_regrets")}
    return csv_text(rows, columns, header, indent=None)


__all__ = ["SUMMARY_NAME", "TRAJECTORY_COLUMNS", "TRIALS_NAME", "TRIAL_COLUMNS", "simulate_to", "spec_of", "trials_csv"]
