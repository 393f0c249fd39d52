"""The ``rsb`` argument parser: every subcommand and its flags, nothing heavy imported.

Each subcommand names the module of :mod:`proofs_checks.cli` that handles it
(``set_defaults(module=...)``); :func:`proofs_checks.cli.app.main` imports that
module only after the command line has been parsed.  Every flag is read as text
and validated by the handler with :mod:`proofs_checks.cli.values` (the one safe
parser), so a flag's value is never converted by argparse.

argparse's own errors (a missing flag, two values where one is expected, an
unknown flag or choice) are rewritten by :class:`Parser` into one line that
names the flag and shows how to write it.
"""

from __future__ import annotations

import argparse
import re

from .errors import UsageError, did_you_mean
from rsb_sim.policies import catalog

from .names import ALGORITHMS, DISTORTIONS, EXPERIMENTS, EXTENSIONS, FORMATS, GRIDS, METHODS, PLOTS
from .values import PROBS_ROUNDING

DESCRIPTION = ("rsb: machine-checks the theory of 'Risk-sensitive Bandits: Arm Mixture Optimality and "
               "Regret-efficient Algorithms' (AISTATS 2025) and reruns its experiments.")
EPILOG = ("Numbers and counts may be written as arithmetic (3*10^5, 1/2); --explore, --eps and the counts that "
          "depend on the horizon may use T (and K). Nothing typed is ever evaluated as code. Bad input exits with "
          "status 2 and one line naming the flag.")

_ARMS_HELP = ("arm laws instead of --p: 'SPEC;SPEC;...' with SPEC a scipy.stats law with bounded non-negative "
              "support and its parameters in scipy's order (beta(2,5), uniform(0.3,0.1), truncnorm(-2,2,0.5,0.1)), "
              "bernoulli(p), finite(x1:p1,x2:p2,...) or empirical(FILE:COLUMN) (docs/arms.md)")
_ARMS_EXAMPLE = "--arms 'beta(2,5);uniform(0.3,0.1)'"

_EXPLORE_HELP = ("forced-exploration pulls per arm, for every algorithm that explores: replaces ceil(N(eps)/K) of "
                 "RS-ETC-M and ceil(rho T eps/4) of RS-UCB-M/CE-UCB-M; a count or an expression in T and K, "
                 "rounded up (e.g. T/10)")


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line naming the flag (:class:`UsageError`).

    ``examples`` maps a flag to an example of how to write it (used in the messages).
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.examples: dict[str, str] = {}

    def option(self, flag: str, example: str | None = None, **kwargs) -> argparse.Action:
        """``add_argument(flag, **kwargs)``, remembering how the flag is written."""
        if example:
            self.examples[flag] = example
        return self.add_argument(flag, **kwargs)

    def error(self, message: str):  # argparse calls this for every bad command line
        raise UsageError(*_explain(message, self), self.prog)

    def parse_args(self, args=None, namespace=None):
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            raise _unrecognised(extras, list(args) if args is not None else [], ns, self)
        return ns


def _example(parser: Parser, flag: str) -> str:
    ex = parser.examples.get(flag)
    return f" (e.g. {ex})" if ex else ""


def _explain(message: str, parser: Parser) -> tuple[str | None, str]:
    """argparse's message as the flag and ``<what> <how to write it>`` (no flag: None and the message)."""
    m = re.match(r"the following arguments are required: (.*)", message)
    if m:
        names = [n.strip() for n in m.group(1).split(",")]
        more = f"; also missing: {', '.join(names[1:])}" if len(names) > 1 else ""
        return names[0], f"required{_example(parser, names[0])}{more}"
    m = re.match(r"argument ([^:]+): invalid choice: '?(.*?)'? \(choose from (.*)\)$", message)
    if m:
        flag, value, known = m.groups()
        names = [k.strip(" '") for k in known.split(",")]
        known = ", ".join(names)
        what = "command" if flag.startswith("{") or flag == "command" else "value"
        flag = "command" if what == "command" else flag
        return flag, f"unknown {what} {value!r}{did_you_mean(value, names)}; write one of: {known}"
    m = re.match(r"argument ([^:]+): expected one argument", message)
    if m:
        flag = m.group(1).split("/")[0]
        return flag, (f"expected a value{_example(parser, flag)}; a value that starts with '-' is "
                f"written {flag}=VALUE")
    m = re.match(r"ambiguous option: (\S+) could match (.*)", message)
    if m:
        return m.group(1), f"ambiguous abbreviation; write one of: {m.group(2)}"
    m = re.match(r"argument ([^:]+): (.*)", message)
    if m:
        return m.group(1).split('/')[0], m.group(2)
    return None, message


def _subparser(top: Parser, ns) -> Parser:
    command = getattr(ns, "command", None)
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]
    return top


def _unrecognised(extras: list[str], argv: list[str], ns, top: Parser) -> UsageError:
    """The error for arguments argparse could not place: name the flag they follow."""
    sub = _subparser(top, ns)
    first = extras[0]
    if first.startswith("-"):
        flags = [o for a in sub._actions for o in a.option_strings if o.startswith("--")]
        return UsageError(first.split('=')[0], f"unknown flag of {sub.prog}"
                          f"{did_you_mean(first.split('=')[0], flags)}; see {sub.prog} --help", sub.prog)
    # the flag a stray value follows: "--p 0.4 0.9" leaves "0.9" behind "--p 0.4" (or behind "--p=0.4")
    for j, token in enumerate(argv):
        if token != first or j < 1:
            continue
        if argv[j - 1].startswith("--") and "=" in argv[j - 1]:
            flag, value = argv[j - 1].split("=", 1)
        elif j >= 2 and argv[j - 2].startswith("--") and "=" not in argv[j - 2] and not argv[j - 1].startswith("-"):
            flag, value = argv[j - 2], argv[j - 1]
        else:
            continue
        return UsageError(
            flag, f"takes one value, got {value!r} and then {first!r}; write lists with commas and "
            f"no spaces, or quote them{_example(sub, flag)}", sub.prog)
    return UsageError(None, f"argument {first!r}: unexpected; see {sub.prog} --help", sub.prog)


def _format(p: Parser) -> None:
    p.option("--format", choices=FORMATS, default="table", help="json or table (default table)")


def _scaled() -> str:
    """The policies that read ``--radius-scale`` (a multiplier of their own default exploration constant), in
    words."""
    return ", ".join(p.name for p in catalog.policies() if "radius_scale" in p.reads)


def _distortion(p: Parser, flag: str = "--dr", required: bool = True, many: bool = False) -> None:
    lst = "name(s) or expression(s) in u, comma-separated" if many else "a name or an expression in u"
    p.option(flag, "--dr gini" if flag == "--dr" else "--h 'u**0.3*(1-u)'", required=required,
             default=None if required else "gini",
             help=f"distortion h: {lst}; names: {', '.join(DISTORTIONS + EXTENSIONS)}, and dual(NAME) = h(1) - h(1-u) "
                  f"of any name or expression (docs/arms.md: which tail each weights)"
                  + ("" if required else " (default gini)"))
    p.option("--param", "--param s=0.5", action="append", metavar="NAME=VALUE",
             help="a parameter of h (repeatable), e.g. s=0.5 for pht")


def _sweep(p: Parser, default_jobs: str) -> None:
    p.option("--jobs", "--jobs 2", default=None, help=f"local worker processes (default: {default_jobs})")
    p.option("--scheduler", "--scheduler tcp://10.0.0.5:8786", default=None, metavar="ADDRESS",
             help="run on the Dask cluster of this scheduler instead of local processes; workers return results, "
                  "files are written here")
    _chunk(p)
    _wait(p)


def _chunk(p: Parser) -> None:
    p.option("--chunk", "--chunk 250", default=None,
             help="trials per stored chunk (default 1000); an interrupted run loses at most the chunks in flight; "
                  "does not change any result")


def _wait(p: Parser) -> None:
    p.option("--wait", "--wait 600", default=None, metavar="SECONDS",
             help="when another run holds the output directory, wait up to this long for it (default 0: stop at "
                  "once with exit status 75); does not change any result")


def _max_work(p: Parser) -> None:
    from .work import HELP

    p.option("--max-work", "--max-work 10^12", dest="max_work", default=None, help=HELP)
    _max_memory(p)


def _max_memory(p: Parser) -> None:
    from .work import MEMORY_HELP

    p.option("--max-memory", "--max-memory 8G", dest="max_memory", default=None, help=MEMORY_HELP)


def _fresh(p: Parser) -> None:
    p.option("--fresh", action="store_true",
             help="run the checks even when the stored ledger is current (it is kept in $RSB_LEDGER_DIR, default "
                  "~/.cache/rsb/ledger, keyed by the code and the installed versions; docs/architecture.md)")


def _quiet(p: Parser) -> None:
    p.option("--quiet", action="store_true", help="no progress bar")


def build_parser() -> Parser:
    """The ``rsb`` parser with every subcommand (no handler is imported)."""
    parser = Parser(prog="rsb", description=DESCRIPTION, epilog=EPILOG)
    sub = parser.add_subparsers(dest="command", required=True, metavar="command",
                                parser_class=Parser)

    v = sub.add_parser("verify", help="the claims ledger", description="The claims ledger: one entry per printed "
                       "claim of the paper with its status and evidence.")
    v.option("--format", choices=("json", "md", "table"), default="table", help="json, md or table (default table)")
    v.option("--jobs", "--jobs 2", default=None,
             help="worker processes (default: the number of CPUs, at most 4); does not change the ledger")
    v.option("--mutants", action="store_true",
             help="also run every check on altered claims (adds 'mutants' and 'mutant_caught' to each entry)")
    v.option("--status", "--status refuted,loose", default=None,
             help="show only entries with these statuses, comma-separated: verified, refuted, loose, conditional, "
                  "vacuous, gap, unchecked (the summary line still counts every entry)")
    v.option("--id", "--id lemma:RTD", default=None, metavar="PREFIX",
             help="only the entries whose id starts with PREFIX (from the stored ledger when it is current, else only "
                  "their checks run)")
    v.option("--proof", "--proof lemma:RTD", default=None, metavar="LABEL",
             help="one lemma's or theorem's statement entries and its steps in the paper's order, with the first "
                  "broken step (see rsb labels for the labels)")
    v.option("--findings", action="store_true",
             help="only what matters (one finding per cause, most consequential first, each with its entries) and "
                  "the bottom line of every lemma and theorem; with --format json an object {what_matters, "
                  "bottom_lines}")
    v.option("--recheck", action="store_true",
             help="re-check every stored certificate from its data alone (identities re-simplified, z3 queries "
                  "re-run, interval leaves re-evaluated with arb); exit status 74 naming any entry that fails")
    _fresh(v)
    v.set_defaults(module="verify")

    lb = sub.add_parser("labels", help="every label of the paper: its kind and the ledger ids that check it",
                        description="Every \\label of the paper in the paper's order, classified (claim, definition, "
                                    "algorithm, figure, table, section), with the ledger ids that check it.")
    lb.option("--format", choices=FORMATS, default="table", help="json or table (default table)")
    lb.set_defaults(module="labels")

    rp = sub.add_parser("report", help="the ledger as one self-contained HTML page (DIR/index.html)",
                        description="Writes DIR/index.html: the summary, the ledger as a table filterable by status "
                                    "and searchable, one section per proof with its steps coloured by status, every "
                                    "entry's evidence, and the figures found in DIR or docs/figures, embedded. No "
                                    "network resources.")
    rp.option("--out", "--out report", required=True, help="output directory (created if needed)")
    rp.option("--jobs", "--jobs 2", default=None,
              help="worker processes of the checks (default: the number of CPUs, at most 4)")
    _fresh(rp)
    rp.set_defaults(module="report")

    d = sub.add_parser("derive", help="q, L, r, beta and rates for a distortion h",
                       description="Closed form, q, L_H and, with --p, r, L_MH, alpha*, beta and the rate "
                                   "exponents of theorem:RS-ETC-M and corollary:RS-UCB-M.")
    _distortion(d, "--h")
    d.option("--p", "--p 0.4,0.9", default=None, help="Bernoulli means, comma-separated (e.g. 0.4,0.9)")
    d.option("--arms", _ARMS_EXAMPLE, default=None, help=_ARMS_HELP + "; gives r, L_MH, W, alpha* for them")
    _max_memory(d)
    _format(d)
    d.set_defaults(module="derive")

    o = sub.add_parser("optimize", help="optimal mixture alpha*, discrete optimum, Delta, Delta_min, W",
                       description="alpha* of eq:optimal alpha, its value and W; with --eps the discrete optimum a*, "
                                   "Delta(eps) and Delta_min(eps) on the grid (exact enumeration).")
    _distortion(o)
    o.option("--p", "--p 0.4,0.9", default=None, help="Bernoulli means, comma-separated (or --arms)")
    o.option("--arms", _ARMS_EXAMPLE, default=None, help=_ARMS_HELP)
    o.option("--support", "--support 0,0.5,1", default=None, help="finite-support arms, as for simulate (with --probs)")
    o.option("--probs", "--probs '0.2,0.3,0.5;0.6,0.2,0.2'", default=None,
             help="finite-support arms, as for simulate: one law per arm, ';' between arms, ',' between masses")
    o.option("--eps", "--eps 0.1", default=None, help="discretisation level, 0 < eps <= 1 (a number or arithmetic)")
    o.option("--grid", choices=GRIDS, default=None, help="grid of the discrete optimum (default ucb; needs --eps)")
    o.option("--method", choices=METHODS, default=None,
             help="route of the oracle: auto (default), closed_form, cvxpy or search")
    _format(o)
    _max_work(o)
    o.set_defaults(module="optimize")

    s = sub.add_parser("simulate", help="simulate a policy: regret per trial (eq:regret)",
                       description="Simulate one policy; every constant the paper fixes has the paper's formula as "
                                   "its default. A flag that the chosen algorithm does not use is an error.")
    s.option("--algo", "--algo rs-ucb-m", required=True, choices=ALGORITHMS, help=f"one of: {', '.join(ALGORITHMS)}")
    _distortion(s)
    s.option("--p", "--p 0.4,0.9", default=None, help="Bernoulli means, comma-separated")
    s.option("--arms", _ARMS_EXAMPLE, default=None, help=_ARMS_HELP)
    s.option("--quantize", "--quantize 256", default=None, metavar="M",
             help="with --arms, CE-UCB-M: round rewards to the mid-points of M equal cells in its estimates "
                  "(needed when the exact sorted merge of the samples exceeds its work budget; the W1 error "
                  "bound delta = (hi-lo)/(2M) and the value bound L b^(1-q) delta^q are reported)")
    s.option("--support", "--support 0,0.5,1", default=None,
             help="finite-support arms: common support points in [0, b], comma-separated (with --probs)")
    s.option("--probs", "--probs '0.2,0.3,0.5;0.6,0.2,0.2'", default=None,
             help=f"finite-support arms: one law per arm, ';' between arms, ',' between masses; a row within "
                  f"{PROBS_ROUNDING:g} per mass of summing to 1 is renormalised")
    s.option("--T", "--T 100000", required=True, help="horizon (a count, e.g. 100000 or 10^5)")
    s.option("--trials", "--trials 100", default="100", help="number of trials (default 100)")
    s.option("--seed", "--seed 0", default="0", help="root seed (default 0)")
    s.option("--eps", "--eps 0.05", default=None,
             help="discretisation level in (0, 1], a number or an expression in T and K "
                  "(default sqrt(K log T / T)); RS-ETC-M, RS-UCB-M, CE-UCB-M")
    s.option("--rho", "--rho 0.1", default=None,
             help="exploration rate of the UCBs, forced pulls ceil(rho T eps/4) per arm (default 0.1); not with "
                  "--explore")
    s.option("--radius-scale", "--radius-scale 0.01", dest="radius_scale", default=None,
             help="factor on the confidence radius of the UCBs and on the bonus of the index policies that have "
                  "one (default 1)")
    s.option("--explore", "--explore T/10", default=None,
             help=_EXPLORE_HELP + f"; the round-robin pulls per arm of the baselines "
                                  f"{', '.join(catalog.names('baseline'))} (default 1)")
    s.option("--threads", "--threads 2", default=None,
             help="threads of CE-UCB-M's compiled loop (default: the CPUs available; no effect on results)")
    s.option("--record", "--record 1000,10000", default=None,
             help="steps t at which to record the regret V(alpha*) - V(tau_t/t) of the same run, comma-separated "
                  "counts or expressions in T and K, rounded up (T is always added last): a 'trajectory'")
    s.option("--out", "--out run1", default=None,
             help="keep the run in this directory: finished chunks of trials in OUT/runs (an interrupted run "
                  "resumes), then OUT/simulate.json (the summary), OUT/simulate.csv (one row per trial) and, "
                  "with --record, OUT/trajectory.csv and trajectory.png/.pdf")
    _chunk(s)  # with --out
    _wait(s)  # with --out
    _format(s)
    _quiet(s)
    _max_work(s)
    s.set_defaults(module="simulate")

    b = sub.add_parser("bench", help="trial-steps per second of each policy (engine vs reference loop)")
    b.option("--quick", action="store_true", help="small sizes")
    b.option("--format", choices=FORMATS, default="table", help="json or table (default table)")
    # the competitors
    b.option("--competitors", action="store_true",
             help=f"only the competitors' rows ({', '.join(catalog.names('competitor'))})")
    b.set_defaults(module="bench")

    sl = sub.add_parser("slopes", help="regret-rate slopes beside the slope of the derived bound",
                        description="Least-squares slope of log(mean regret) against log T with a bootstrap "
                                    "interval, beside the derived slope of the theorem's bound. Every exponent "
                                    "printed is the exponent of T in the regret (negative: decaying).")
    _distortion(sl, required=False, many=True)
    sl.option("--p", "--p '0.4,0.9;0.1,0.3'", default=None,
              help="Bernoulli means; several instances separated by ';' (default 0.4,0.9)")
    sl.option("--arms", _ARMS_EXAMPLE, default=None,
              help=_ARMS_HELP + "; one instance; the derived slope then uses r = q (valid, possibly loose) and no beta")
    sl.option("--algo", "--algo rs-ucb-m,rs-etc-m", default="rs-ucb-m,rs-etc-m",
              help=f"comma-separated, from: {', '.join(ALGORITHMS)} (default rs-ucb-m,rs-etc-m)")
    sl.option("--Ts", "--Ts 1000,2000,4000", default=None,
              help="horizons, comma-separated (default 1000,2000,...,64000)")
    sl.option("--trials", "--trials 100", default="100", help="trials per horizon (default 100)")
    sl.option("--seed", "--seed 0", default="0",
              help="root seed: horizon j is stream j of it (default 0)")
    sl.option("--eps", "--eps experiments", default=None,
              help="'experiments' (sqrt(K log T/T), default), 'theorem' (eps-independent choice of "
                   "theorem:RS-ETC-M / corollary:RS-UCB-M), a number, or an expression in T and K")
    sl.option("--radius-scale", "--radius-scale 0.01", dest="radius_scale", default=None,
              help="factor on the confidence radius of the UCBs (default 1)")
    sl.option("--rho", "--rho 0.1", default=None, help="exploration rate of the UCBs (default 0.1); not with --explore")
    sl.option("--explore", "--explore T/10", default=None, help=_EXPLORE_HELP)
    sl.option("--quantize", "--quantize 64", default=None, metavar="M",
              help="with --arms, CE-UCB-M: round rewards to M levels in its estimates (as rsb simulate --quantize)")
    sl.option("--bootstrap", "--bootstrap 1000", default="1000", help="bootstrap replicates (default 1000)")
    sl.option("--tol", "--tol 0.05", default="0.05", help="slack of 'consistent' on the slope scale (default 0.05)")
    sl.option("--out", "--out .rsb_cache/slopes", default=None, help="cache directory (default .rsb_cache/slopes)")
    sl.option("--no-cache", dest="no_cache", action="store_true", help="do not read or write the cache")
    _format(sl)
    _quiet(sl)
    _max_work(sl)
    _sweep(sl, "1")
    sl.set_defaults(module="slopes")

    r = sub.add_parser("reproduce", help="the paper's experiments: figures (PNG, PDF), data (CSV), captions")
    r.option("experiment", choices=EXPERIMENTS + ("all",), help=f"one of: {', '.join(EXPERIMENTS)}, all")
    r.option("--out", "--out results", required=True,
             help="output directory (runs are cached in OUT/runs: reruns resume)")
    r.option("--trials", "--trials 20", default=None, help="trials per point (default 1000, as in the paper)")
    r.option("--seed", "--seed 0", default=None, help="root seed (default 0)")
    _format(r)
    _sweep(r, "the number of CPUs")
    _max_memory(r)
    _quiet(r)
    r.set_defaults(module="reproduce")

    c = sub.add_parser("compare", help="several algorithms on one instance over horizons: figure, tidy CSV with "
                                       "both regret metrics, paired tests (t and Wilcoxon, Holm)")
    c.option("--algos", f"--algos ce-ucb-m,{catalog.names('competitor')[0]},{catalog.names('baseline')[-1]}",
             required=True,
             help=f"comma-separated, from: {', '.join(ALGORITHMS)}")
    _distortion(c)
    c.option("--p", "--p 0.4,0.9", default=None, help="Bernoulli means, comma-separated (or --arms)")
    c.option("--arms", _ARMS_EXAMPLE, default=None, help=_ARMS_HELP)
    c.option("--Ts", "--Ts 1000,3000,10000", default=None, help="horizons, comma-separated (default 1000,3000,10000)")
    c.option("--trials", "--trials 100", default="100", help="trials per algorithm and horizon (default 100)")
    c.option("--seed", "--seed 0", default="0", help="root seed: horizon j is stream j of it (default 0)")
    c.option("--radius-scale", "--radius-scale 0.01", dest="radius_scale", default=None,
             help="a multiplier of each algorithm's own default exploration constant, given to every algorithm "
                  f"that reads it ({_scaled()}), as in rsb simulate (default 1)")
    c.option("--tune", action="store_true",
             help="choose each algorithm's multiplier of its default exploration constant on tuning seeds (a "
                  "separate stream of the seed), then report on fresh seeds beside the untuned default")
    c.option("--tune-grid", "--tune-grid 1e-3,1e-2,1e-1,1,10", dest="tune_grid", default=None,
             help="with --tune: the multipliers tried, the same for every algorithm (default 1e-3,1e-2,1e-1,1,10)")
    c.option("--tune-trials", "--tune-trials 50", dest="tune_trials", default=None,
             help="with --tune: trials per multiplier on the tuning seeds (default --trials)")
    c.option("--tune-instances", '--tune-instances "0.2,0.45;0.1,0.6"', dest="tune_instances", default=None,
             help="with --tune: other Bernoulli instances the multiplier is also chosen on (';'-separated)")
    c.option("--label", "--label 'Gini, mixture instance'", default=None,
             help="the figures' title (default: the distortion and the arms)")
    c.option("--out", "--out results/compare", required=True,
             help="output directory (runs are cached in OUT/runs: reruns resume)")
    _format(c)
    _sweep(c, "1")
    _max_work(c)
    _quiet(c)
    c.set_defaults(module="compare")

    pl = sub.add_parser("plot", help="figures: 'bounds' = the theorem's bound vs the empirical regret")
    pl.option("what", choices=PLOTS, help="bounds")
    _distortion(pl)
    pl.option("--p", "--p 0.4,0.9", default=None, help="Bernoulli means, comma-separated (or --arms)")
    pl.option("--arms", _ARMS_EXAMPLE, default=None,
              help=_ARMS_HELP + "; the bound reads the constants of the laws (r = q, L_MH, W; as rsb derive --arms)")
    pl.option("--quantize", "--quantize 64", default=None, metavar="M",
              help="with --arms, CE-UCB-M: round rewards to M levels in its estimates (as rsb simulate --quantize)")
    pl.option("--algo", "--algo rs-ucb-m", required=True, choices=ALGORITHMS, help=f"one of: {', '.join(ALGORITHMS)}")
    pl.option("--out", "--out plots", required=True, help="output directory")
    pl.option("--Ts", "--Ts 1000,3000,10000", default=None,
              help="horizons, comma-separated (default 1000,3000,10000,30000,100000)")
    pl.option("--trials", "--trials 20", default=None, help="trials per horizon (default 100)")
    pl.option("--seed", "--seed 0", default="0", help="root seed: horizon j is stream j of it (default 0)")
    pl.option("--rho", "--rho 0.1", default=None,
              help="exploration rate of the UCBs, also in their bound (default 0.1)")
    pl.option("--radius-scale", "--radius-scale 0.01", dest="radius_scale", default=None,
              help="factor on the confidence radius of the UCBs (default 1)")
    pl.option("--explore", "--explore T/10", default=None, help=_EXPLORE_HELP)
    _format(pl)
    _quiet(pl)
    _max_work(pl)
    _sweep(pl, "1")
    pl.set_defaults(module="plot")
    return parser
