"""Hostile round 4: scripted attempts on every subcommand, flag and API entry point of rsb.

Run from the repository root with the project's interpreter::

    python docs/audits/hostile-round4/driver.py [--only CLASS] [--limit N] [--out results.jsonl]

Each attempt runs as its own process with a hard limit of 3 GB address space and a timeout
(120 s at most).  Most attempts are forked from this process after it has imported the command
line (``proofs_checks.cli.app.main`` is called in the child, exactly as ``rsb`` calls it, with its
own stdout/stderr files), which saves the 2-3 s of imports per attempt on the shared machine; the
attempts about signals, files and start-up run the real command as a subprocess
(``python -m proofs_checks.cli``).  Each records: command, exit status, wall time, peak RSS (from
``wait4``), the first line of stdout and of stderr, and a verdict ``ok`` or ``defect`` with the
reason.

Verdict rules (the project's, ``docs/safety.md``):

* a traceback anywhere, an exit status other than 0/2 for bad input, more than one line on stderr
  with status 2, a line that does not name an argument, a timeout, a non-strict JSON on stdout
  (``NaN``, ``Infinity``), ``nan``/``inf`` printed where a number was asked, a file left in the
  output directory after a refusal, or a peak RSS above the stated budget: ``defect``;
* attempts marked ``refuse`` must exit 2 (accepting them is a defect); attempts marked ``any``
  may run (exit 0) or be refused (exit 2).
* signals: exit 130/143 within 5 s of the signal, one line, no process of the group left, no
  temporary file in the output directory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SCRATCH = "/tmp/hr4"
PY = sys.executable
AS_LIMIT = 3 * 1024**3
MAX_TIMEOUT = 120

# ---------------------------------------------------------------------------------------------- running


def _limits():
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))


def _fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path, exist_ok=True)


def run_forked(argv=None, code=None, timeout=60, cwd=SCRATCH):
    """Fork; the child runs ``main(argv)`` (or ``code``) with its own stdout/stderr; returns the record."""
    out_path, err_path = os.path.join(SCRATCH, ".stdout"), os.path.join(SCRATCH, ".stderr")
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.setpgid(0, 0)
            os.chdir(cwd)
            _limits()
            fo = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            fe = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(fo, 1)
            os.dup2(fe, 2)
            for s in (signal.SIGINT, signal.SIGTERM):
                signal.signal(s, signal.SIG_DFL)
            if argv is not None:
                from proofs_checks.cli.app import main

                rc = main(list(argv))
            else:
                ns = {}
                exec(code, ns)  # the driver's own attempt code, never user text
                rc = 0
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # noqa: BLE001 -- what Python would print
            import traceback

            traceback.print_exc()
            rc = 1
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(rc if isinstance(rc, int) else 1)
    timed_out = False
    while True:
        wpid, status, ru = os.wait4(pid, os.WNOHANG)
        if wpid:
            break
        if time.monotonic() - t0 > timeout:
            timed_out = True
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            wpid, status, ru = os.wait4(pid, 0)
            break
        time.sleep(0.01)
    wall = time.monotonic() - t0
    try:  # workers of the attempt left behind
        os.killpg(pid, signal.SIGKILL)
        leftover = True
    except (ProcessLookupError, PermissionError):
        leftover = False
    rc = os.waitstatus_to_exitcode(status)
    with open(out_path, errors="replace") as f:
        out = f.read()
    with open(err_path, errors="replace") as f:
        err = f.read()
    return dict(rc=rc, wall=round(wall, 2), rss_mb=round(ru.ru_maxrss / 1024), out=out, err=err,
                timed_out=timed_out, leftover=leftover)


def run_sub(argv, timeout=60, cwd=SCRATCH, env=None):
    """The real command as a subprocess (start-up, files, links)."""
    t0 = time.monotonic()
    p = subprocess.Popen([PY, "-m", "proofs_checks.cli", *argv], cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_limits,
                         env=dict(os.environ, PYTHONPATH=ROOT, **(env or {})))
    timed_out = False
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
    wall = time.monotonic() - t0
    try:
        os.killpg(p.pid, signal.SIGKILL)
        leftover = True
    except (ProcessLookupError, PermissionError):
        leftover = False
    return dict(rc=p.returncode, wall=round(wall, 2), rss_mb=None, out=out.decode(errors="replace"),
                err=err.decode(errors="replace"), timed_out=timed_out, leftover=leftover)


def _group_alive(pgid):
    r = subprocess.run(["ps", "-o", "pid=,stat=,args=", "-g", str(pgid)], capture_output=True, text=True)
    return [ln for ln in r.stdout.splitlines() if ln.strip() and " Z" not in ln]


def run_signal(argv, sig, delay, cwd=SCRATCH, out_dir=None, timeout=120):
    """Start the real command, send ``sig`` after ``delay`` s, measure the time to exit, orphans, temp files."""
    p = subprocess.Popen([PY, "-m", "proofs_checks.cli", *argv], cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_limits,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    t0 = time.monotonic()
    finished_first = False
    try:
        p.wait(timeout=delay)
        finished_first = True
    except subprocess.TimeoutExpired:
        p.send_signal(sig)
    ts = time.monotonic()
    timed_out = False
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        out, err = b"", b""
    stop = time.monotonic() - ts
    time.sleep(0.3)
    orphans = _group_alive(p.pid)
    if timed_out or orphans:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if timed_out:
            out, err = p.communicate()
    temps = []
    for d in [x for x in (out_dir, cwd) if x and os.path.isdir(x) and x != SCRATCH]:  # not the other attempts' dirs
        for base, dirs, files in os.walk(d):
            temps += [os.path.join(base, f) for f in files if re.match(r"(tmp|\.tmp|.*\.tmp$|.*\.part$)", f)]
    return dict(rc=p.returncode, wall=round(time.monotonic() - t0, 2), stop=round(stop, 2), rss_mb=None,
                out=out.decode(errors="replace"), err=err.decode(errors="replace"), timed_out=timed_out,
                leftover=bool(orphans), orphans=orphans, temps=temps, finished_first=finished_first,
                signalled_at=round(delay, 2))


# ---------------------------------------------------------------------------------------------- verdicts

TRACE = ("Traceback (most recent call last)", "Error:\n", "Exception ignored")


def _first(s):
    for ln in s.splitlines():
        if ln.strip():
            return ln[:300]
    return ""


def _strict_json(text):
    def bad(c):
        raise ValueError(f"non-strict JSON constant {c}")

    json.loads(text, parse_constant=bad)


def verdict(a, r):
    """``(verdict, reason)`` of attempt ``a`` with result ``r``."""
    err, out, rc = r["err"], r["out"], r["rc"]
    lines = [ln for ln in err.splitlines() if ln.strip()]
    if r.get("timed_out"):
        return "defect", f"timeout after {a.get('timeout', 60)} s"
    if any(t in err for t in TRACE[:1]) or "Traceback" in out:
        return "defect", "traceback"
    if a["kind"] == "signal":
        if r.get("finished_first"):
            return ("ok", "finished before the signal") if rc in (0, 2) else ("defect", f"exit {rc} before signal")
        want = 128 + a["sig"]
        if rc not in (want, -a["sig"]):
            return "defect", f"exit {rc}, expected {want}"
        if rc == -a["sig"] and r.get("signalled_at", 9) > 1.5:
            return "defect", "killed by the default handler after start-up"
        if r["stop"] > 5:
            return "defect", f"stopped {r['stop']} s after the signal"
        if r.get("orphans"):
            return "defect", f"orphans: {r['orphans'][:2]}"
        if r.get("temps"):
            return "defect", f"temporary files left: {r['temps'][:3]}"
        if len(lines) > 1 and rc == want:
            return "defect", f"{len(lines)} lines on stderr"
        return "ok", f"stopped in {r['stop']} s"
    if a["kind"] == "api":
        m = re.search(r"^RESULT (\S+) (.*)$", out, re.M)
        if m is None:
            if rc != 0:
                return "defect", f"no result, exit {rc}: {_first(err)}"
            return "defect", "no result"
        kind, text = m.group(1), m.group(2)
        if kind == "ok":
            if a["expect"] == "refuse":
                return "defect", f"accepted: {text[:120]}"
            if re.search(r"\b(nan|inf)\b", text, re.I) and not a.get("nan_ok"):
                return "defect", f"non-finite in result: {text[:120]}"
            return "ok", "accepted"
        if kind == "ValueError":
            want = a.get("names")
            if not re.search(r"argument '[^']+'", text) and want is not None:
                return "defect", f"ValueError not naming an argument: {text[:150]}"
            if want and f"argument '{want}'" not in text:
                return "defect", f"names the wrong argument (want {want}): {text[:150]}"
            return "ok", "refused"
        return "defect", f"{kind}: {text[:150]}"
    # command line
    if r.get("rss_mb") and a.get("budget_mb") and r["rss_mb"] > a["budget_mb"]:
        return "defect", f"peak RSS {r['rss_mb']} MB above the budget {a['budget_mb']} MB"
    if rc == 2:
        if len(lines) != 1:
            return "defect", f"{len(lines)} lines on stderr"
        if not re.search(r"argument '[^']+'|error: argument", lines[0]) and not a.get("any_line"):
            return "defect", "refusal does not name an argument"
        if out.strip():
            return "defect", "stdout not empty on refusal"
        if a.get("fresh_out") and os.path.exists(a["fresh_out"]):
            return "defect", f"refusal left {a['fresh_out']} behind"
        if a.get("names") and a["names"] not in lines[0]:
            return "defect", f"refusal names another flag (want {a['names']}): {lines[0][:160]}"
        return "ok", "refused"
    if rc == 0:
        if a["expect"] == "refuse":
            return "defect", "accepted"
        if "json" in a.get("argv", []) and out.strip():
            try:
                _strict_json(out)
            except ValueError as exc:
                return "defect", f"stdout not strict JSON: {exc}"
        if a.get("no_nan") and re.search(r"\b(nan|inf)\b", out, re.I):
            return "defect", "nan/inf printed"
        return "ok", "ran"
    if rc in (74, 75) and a.get("io_ok") and len(lines) == 1:
        return "ok", f"exit {rc} one line"
    return "defect", f"exit {rc}: {_first(err)}"


# ---------------------------------------------------------------------------------------------- attempts

FLOATS = ["5e-324", "1e-320", "2.2e-308", "1e308", "1e309", "inf", "-inf", "nan", "-0.0", "0", "-1",
          "1e154", "1e300", "1/0", "2^1024"]
INTS = ["0", "-1", str(2**63), str(2**63 - 1), str(2**62 + 1), "1e18", "1e3", "\u0661\u0660\u0660", "\uff11\uff10\uff10",
        "\u00b2", "10^400", "0x10", "1_000", "True", "", " 7", "3.5", "nan", "inf", "1e-3"]

BASE = {
    "simulate": ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "200",
                 "--trials", "2", "--quiet"],
    "simulate-etc": ["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "200",
                     "--trials", "2", "--quiet"],
    "optimize": ["optimize", "--dr", "gini", "--p", "0.4,0.9"],
    "derive": ["derive", "--h", "gini"],
    "slopes": ["slopes", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-etc-m", "--Ts", "100,200", "--trials", "2",
               "--bootstrap", "10", "--no-cache", "--quiet"],
    "compare": ["compare", "--algos", "rs-etc-m,uniform", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100,200",
                "--trials", "2", "--quiet"],
    "plot": ["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-etc-m", "--Ts", "100,200",
             "--trials", "2", "--quiet"],
    "reproduce": ["reproduce", "regret-vs-T", "--trials", "2", "--quiet"],
}
OUT_CMDS = ("compare", "plot", "reproduce")


def with_flag(cmd, flag, value, out=None):
    argv = list(BASE[cmd])
    if flag in argv:
        i = argv.index(flag)
        argv[i + 1] = value
    else:
        argv += [flag, value]
    if cmd in OUT_CMDS or out:
        argv += ["--out", out or f"{SCRATCH}/o"]
    return argv


def A(cls, name, argv=None, expect="any", kind="cli", **kw):
    return dict(cls=cls, name=name, argv=argv, expect=expect, kind=kind, **kw)


def numeric_attempts():
    att = []
    float_flags = [("simulate", "--eps"), ("simulate", "--rho"), ("simulate", "--radius-scale"),
                   ("simulate", "--wait"), ("simulate", "--max-memory"), ("simulate", "--max-work"),
                   ("optimize", "--eps"), ("slopes", "--tol"), ("slopes", "--eps"), ("slopes", "--rho"),
                   ("compare", "--radius-scale"), ("plot", "--rho"), ("plot", "--radius-scale"),
                   ("simulate", "--p"), ("optimize", "--p"), ("compare", "--tune-grid")]
    for cmd, flag in float_flags:
        for v in FLOATS:
            argv = with_flag(cmd, flag, v)
            if flag == "--p":
                argv = with_flag(cmd, flag, f"0.4,{v}")
            if flag == "--tune-grid":
                argv += ["--tune"]
            if flag == "--eps" and cmd == "simulate":
                pass
            if flag == "--wait":
                argv += ["--out", f"{SCRATCH}/o"]
            att.append(A("numbers", f"{cmd} {flag} {v}", argv, no_nan=True, timeout=90))
    int_flags = [("simulate", "--T"), ("simulate", "--trials"), ("simulate", "--seed"), ("simulate", "--explore"),
                 ("simulate", "--chunk"), ("simulate", "--threads"), ("simulate", "--record"),
                 ("slopes", "--bootstrap"), ("slopes", "--Ts"), ("slopes", "--jobs"), ("slopes", "--trials"),
                 ("compare", "--trials"), ("compare", "--jobs"), ("compare", "--tune-trials"),
                 ("plot", "--Ts"), ("plot", "--chunk"), ("reproduce", "--trials"), ("reproduce", "--seed"),
                 ("reproduce", "--jobs"), ("verify", "--jobs"), ("report", "--jobs"),
                 ("simulate", "--quantize")]
    for cmd, flag in int_flags:
        for v in INTS:
            if cmd == "verify":
                argv = ["verify", "--id", "lemma:PHT", "--jobs", v]
            elif cmd == "report":
                argv = ["report", "--out", f"{SCRATCH}/o", "--jobs", v]
            else:
                argv = with_flag(cmd, flag, v)
                if flag == "--chunk" and cmd == "simulate":
                    argv += ["--out", f"{SCRATCH}/o"]
                if flag == "--tune-trials":
                    argv += ["--tune"]
                if flag == "--quantize":
                    argv = ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--arms", "beta(2,5);beta(5,2)",
                            "--T", "100", "--trials", "1", "--quiet", "--quantize", v]
            fresh = f"{SCRATCH}/o" if "--out" in argv else None
            att.append(A("numbers", f"{cmd} {flag} {v!r}", argv, timeout=90, fresh_out=fresh))
    return att


HOSTILE_H = [
    "u/0", "u*log(0)", "u**(0**-1)", "0**-1*u", "oo*u", "zoo*u", "nan*u", "u+nan", "u*exp(1/(u-u))",
    "sin(1e9*u)", "u + sin(1e9*u)/1e9", "u**(10**100)", "u**(1e-300)", "u**(-1)", "u**1e308",
    "u**(1/10**300)", "((((((((((u))))))))))" * 1, "(" * 500 + "u" + ")" * 500, "+".join(["u"] * 5000),
    "u" + "*1" * 20000, "𝑢", "u\u200b", "ｕ", "u\u0301", "__import__('os').system('id')", "u; import os",
    "lambda: u", "u.__class__", "eval('u')", "exec", "u if u else u", "[u]", "{u}", "u@u", "u**u**u**u**u",
    "exp(exp(exp(exp(u))))", "exp(1000*u)/exp(1000)", "log(u)", "log(1-u)", "1/u", "u/(1-u)", "sqrt(u)**-1",
    "Heaviside(u-1/2)", "Piecewise((u,u<1/2),(1,True))", "Max(u, 1/2)", "min(u, 1/2)", "floor(10*u)/10",
    "u*(1+1e-300)", "u*1e308*1e308", "u + 1e-320", "2**(2**(2**10))*u", "factorial(10**6)*u", "gamma(u)",
    "besselj(0,u)", "Integral(u,u)", "Symbol('x')", "x", "u*x", "I*u", "E**(I*pi*u)", "u**(1+I)",
    "\x1b[31mu", "u\n", "u\x00", "", " ", "u**2**64", "tan(pi*u/2)", "cot(u)", "u*log(u)", "u**0.5*(1-u)**-0.5",
    "dual(dual(dual(dual(gini))))", "dual(" * 100 + "gini" + ")" * 100, "gini(", "gini)", "GINI", "gіni",
]


def expression_attempts():
    att = []
    for h in HOSTILE_H:
        att.append(A("expressions", f"derive --h {h[:40]!r}", ["derive", "--h", h, "--p", "0.4,0.9"], timeout=60))
    for h in HOSTILE_H[::2]:
        att.append(A("expressions", f"optimize --dr {h[:40]!r}", ["optimize", "--dr", h, "--p", "0.4,0.9"],
                     timeout=60))
    for h in HOSTILE_H[1::2]:
        att.append(A("expressions", f"simulate --dr {h[:40]!r}", with_flag("simulate", "--dr", h), timeout=60))
    for h in HOSTILE_H[::5]:
        att.append(A("expressions", f"plot --dr {h[:40]!r}", with_flag("plot", "--dr", h), timeout=60,
                     fresh_out=f"{SCRATCH}/o"))
        att.append(A("expressions", f"slopes --dr {h[:40]!r}", with_flag("slopes", "--dr", h), timeout=60))
        att.append(A("expressions", f"compare --dr {h[:40]!r}", with_flag("compare", "--dr", h), timeout=60,
                     fresh_out=f"{SCRATCH}/o"))
    params = ["s=0", "s=-1", "s=1/0", "s=nan", "s=inf", "s=1e308", "s=5e-324", "s=log(0)", "s=zoo", "s=10**100",
              "s=__import__('os')", "s=1e-300", "x=1", "s", "=1", "s=1=2", "s=0.5\x1b[0m", "s=sin(1e9)"]
    for pv in params:
        att.append(A("expressions", f"derive pht --param {pv!r}", ["derive", "--h", "pht", "--param", pv, "--p",
                                                                   "0.4,0.9"], timeout=60))
        att.append(A("expressions", f"simulate dual_power --param {pv!r}",
                     with_flag("simulate", "--dr", "dual_power") + ["--param", pv], timeout=60))
    epss = ["1/0", "log(0)", "0**-1", "oo", "zoo", "nan", "sin(1e9*T)", "1/(T-T)", "T**-1000", "T**1000",
            "sqrt(K*log(T)/T)*1e-300", "K**K**K**K", "(" * 300 + "T" + ")" * 300, "T" + "+T" * 5000, "u",
            "__import__('os')", "exp(exp(T))", "1/T**(10**9)", "\u0661/\u0662", "ｓｑｒｔ(T)"]
    for e in epss:
        att.append(A("expressions", f"simulate --eps {e[:30]!r}", with_flag("simulate", "--eps", e), timeout=60))
        att.append(A("expressions", f"simulate-etc --explore {e[:30]!r}", with_flag("simulate-etc", "--explore", e),
                     timeout=60))
        att.append(A("expressions", f"slopes --eps {e[:30]!r}", with_flag("slopes", "--eps", e), timeout=60))
        att.append(A("expressions", f"simulate --record {e[:30]!r}", with_flag("simulate", "--record", e), timeout=60))
    arms = ["beta(2,5);beta(1/0,2)", "beta(nan,2);beta(2,5)", "beta(inf,1);beta(2,5)", "uniform(0,1e308);beta(2,5)",
            "uniform(0,5e-324);beta(2,5)", "finite(0:1/0);finite(1:1)", "finite(1e308:1);finite(0:1)",
            "finite(0:0.5,1:0.5000001);finite(1:1)", "bernoulli(zoo);bernoulli(0.5)", "truncnorm(-1e308,1e308,0.5,0.1);beta(2,5)",
            "beta(2,5)" + ";beta(2,5)" * 2000, "beta(2,5);" + "beta(" * 200 + "2,5" + ")" * 200,
            "os.system('id');beta(2,5)", "__import__('os');beta(2,5)", "beta(2,5);norm(0,1)",
            "beta(2,5);cauchy(0,1)", "beta(2,5);irwinhall(10**9)", "beta(1e-300,1e-300);beta(2,5)",
            "beta(2,5);beta(2,5,loc=1)", "ｂｅｔａ(2,5);beta(2,5)", "beta(2,5);;beta(2,5)", ";", "beta(2,5)",
            "finite();finite(1:1)", "finite(" + ",".join(f"{i/100000}:{1/100000}" for i in range(100000)) + ");finite(1:1)",
            "bernoulli(0.5);bernoulli(0.5)"]
    for s in arms:
        att.append(A("expressions", f"optimize --arms {s[:40]!r}", ["optimize", "--dr", "gini", "--arms", s], timeout=90))
        att.append(A("expressions", f"derive --arms {s[:40]!r}", ["derive", "--h", "gini", "--arms", s], timeout=90))
        att.append(A("expressions", f"simulate ce --arms {s[:40]!r}",
                     ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--arms", s, "--T", "100", "--trials", "1",
                      "--quiet"], timeout=90))
    sup = [("0,1", "0.5,0.5;1/0,1"), ("0,1e308", "0.5,0.5;0,1"), ("0,nan", "0.5,0.5;0,1"), ("1,0", "0.5,0.5;0,1"),
           ("0,1", "0.5,0.5"), ("0,1", "-0.5,1.5;0,1"), ("0," * 5000 + "1", "1;1"), ("", ""), ("0,1", "0.5,0.5;;0,1")]
    for s, pr in sup:
        att.append(A("expressions", f"simulate --support {s[:20]!r} --probs {pr[:20]!r}",
                     ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--support", s, "--probs", pr, "--T", "100",
                      "--trials", "1", "--quiet"], timeout=60))
        att.append(A("expressions", f"optimize --support {s[:20]!r} --probs {pr[:20]!r}",
                     ["optimize", "--dr", "gini", "--support", s, "--probs", pr], timeout=60))
    misc = [["verify", "--id", "\x1b[2J"], ["verify", "--status", "verified,bogus"], ["verify", "--proof", "x" * 10000],
            ["verify", "--proof", "../../etc/passwd"], ["compare", "--algos", "rs-etc-m,rs-etc-m", "--dr", "gini",
                                                         "--p", "0.4,0.9", "--out", f"{SCRATCH}/o"],
            ["compare", "--algos", "rs-etc-m,uniform", "--dr", "gini", "--p", "0.4,0.9", "--out", f"{SCRATCH}/o",
             "--label", "\x1b]0;pwn\x07" + "x" * 100000],
            ["compare", "--algos", "rs-etc-m,uniform", "--dr", "gini", "--p", "0.4,0.9", "--out", f"{SCRATCH}/o",
             "--tune", "--tune-instances", "0.4,1/0"],
            ["slopes", "--scheduler", "tcp://127.0.0.1:1"], ["slopes", "--scheduler", "file:///etc/passwd"],
            ["slopes", "--algo", "rs-etc-m," * 100], ["slopes", "--p", "0.4,0.9;" * 200],
            ["simulate", "--algo", "ucb1", "--dr", "gini", "--p", "0.4,0.9", "--T", "10", "--trials", "1", "--eps", "0.1"]]
    for m in misc:
        att.append(A("expressions", "misc " + " ".join(m)[:60], m, timeout=60))
    return att


API_CASES = [
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=10**30)", "T"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,trials=0)", "trials"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,trials=2**63)", "trials"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,eps=float('nan'))", "eps"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,eps=5e-324)", "eps"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,eps=1e-320)", "eps"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,rho=float('inf'))", "rho"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,rho=1e308)", None),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,rho=-0.0)", "rho"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,radius_scale=1e308)", None),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,radius_scale=float('nan'))", "radius_scale"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,radius_scale=-1)", "radius_scale"),
    ("simulate('gini','rs-etc-m',[0.4,0.9],T=100,explore=-1)", "explore"),
    ("simulate('gini','rs-etc-m',[0.4,0.9],T=100,explore=2**63)", "explore"),
    ("simulate('gini','rs-etc-m',[0.4,0.9],T=100,explore=1.5)", "explore"),
    ("simulate('gini','rs-etc-m',[0.4,0.9],T=100,explore='1/0')", "explore"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,threads=0)", "threads"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,threads=10**6)", None),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,seed=-1)", "seed"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,seed=2**64)", "seed"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,seed='1e3')", None),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,record=[0])", "record"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,record=[10**30])", "record"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,record=[-5])", "record"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,record='1/0')", "record"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,record=[float('nan')])", "record"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,record=list(range(1,101))*1000)", None),
    ("simulate('gini','rs-ucb-m',[0.4,float('nan')],T=100)", "p"),
    ("simulate('gini','rs-ucb-m',[0.4,5e-324],T=100)", None),
    ("simulate('gini','rs-ucb-m',[0.4,-0.0],T=100)", None),
    ("simulate('u/0','rs-ucb-m',[0.4,0.9],T=100)", "h"),
    ("simulate('sin(1e9*u)','rs-ucb-m',[0.4,0.9],T=100)", "h"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,max_memory=-1)", "max_memory"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,max_memory=float('nan'))", "max_memory"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,max_memory='1e3G')", None),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,max_work=float('inf'))", "max_work"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,max_work=0)", "max_work"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=10**9,trials=10**6)", "max_work"),
    ("simulate('gini','rs-ucb-m',support=[0,1],probs=[[0.5,0.5],[float('nan'),1]],T=100)", "probs"),
    ("simulate('gini','rs-ucb-m',support=[0,float('inf')],probs=[[0.5,0.5],[0,1]],T=100)", "support"),
    ("simulate('gini','ce-ucb-m',arms='beta(2,5);beta(nan,1)',T=100)", "arms"),
    ("simulate('gini','ce-ucb-m',arms=['beta(2,5)',None],T=100)", "arms"),
    ("simulate('gini','ce-ucb-m',arms='beta(2,5);beta(5,2)',T=100,quantize=0)", "quantize"),
    ("simulate('gini','ce-ucb-m',arms='beta(2,5);beta(5,2)',T=100,quantize=2**62)", None),
    ("simulate('gini',None,[0.4,0.9],T=100)", "algo"),
    ("simulate('gini',3,[0.4,0.9],T=100)", "algo"),
    ("simulate(None,'rs-ucb-m',[0.4,0.9],T=100)", "h"),
    ("simulate(b'gini','rs-ucb-m',[0.4,0.9],T=100)", "h"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T='1e3')", None),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T='\u0661\u0660\u0660')", "T"),
    ("simulate('gini','rs-ucb-m',[0.4,0.9],T=100,params={'s':1})", "params"),
    ("simulate('pht','rs-ucb-m',[0.4,0.9],T=100,params={'s':float('nan')})", "s"),
    ("simulate('pht','rs-ucb-m',[0.4,0.9],T=100,params={'s':'1/0'})", "s"),
    ("simulate('pht','rs-ucb-m',[0.4,0.9],T=100,params={'s':5e-324})", None),
    ("simulate('pht','rs-ucb-m',[0.4,0.9],T=100,params=[('s',0.5)])", None),
    ("compare('gini',['rs-etc-m','uniform'],[0.4,0.9],Ts=[0,100])", "Ts"),
    ("compare('gini',['rs-etc-m','uniform'],[0.4,0.9],Ts=[200,100])", "Ts"),
    ("compare('gini',['rs-etc-m','uniform'],[0.4,0.9],Ts=[10**30])", "Ts"),
    ("compare('gini',['rs-etc-m','uniform'],[0.4,0.9],Ts=[100],trials=10**18)", None),
    ("compare('gini',['rs-etc-m','uniform'],[0.4,0.9],Ts=[100],trials=float('nan'))", "trials"),
    ("compare('gini',['rs-etc-m','uniform'],[0.4,0.9],Ts=100)", None),
    ("compare('gini',['rs-etc-m','uniform'],[0.4,0.9],Ts='100,200')", None),
    ("compare('gini',[],[0.4,0.9],Ts=[100])", "algos"),
    ("compare('gini',['rs-etc-m','rs-etc-m'],[0.4,0.9],Ts=[100])", "algos"),
    ("compare('gini','rs-etc-m,uniform',[0.4,0.9],T=100,Ts=[100])", None),
    ("compare('gini',['rs-etc-m','uniform'],[0.4,0.9],Ts=[100],radius_scale=float('inf'))", "radius_scale"),
    ("compare('gini',['rs-etc-m','uniform'],[0.4,0.9],Ts=[100],max_memory=0)", "max_memory"),
    ("compare('gini',['rs-etc-m','uniform'],[0.4,0.9],Ts=[100],record=[1/0 if False else 0])", "record"),
    ("optimum('gini',[0.4,0.9],eps=5e-324)", "eps"),
    ("optimum('gini',[0.4,0.9],eps=1e-320)", "eps"),
    ("optimum('gini',[0.4,0.9],eps=float('nan'))", "eps"),
    ("optimum('gini',[0.4,0.9],eps=-0.0)", "eps"),
    ("optimum('gini',[0.4,0.9],eps=1e308)", "eps"),
    ("optimum('gini',[0.4,0.9],eps=1e-300)", "eps"),
    ("optimum('gini',[0.4,0.9],eps='1/0')", "eps"),
    ("optimum('gini',[0.4,0.9],eps=0.1,grid='bogus')", "grid"),
    ("optimum('gini',[0.4,0.9],method='bogus')", "method"),
    ("optimum('gini',[0.4,0.9],method=None)", "method"),
    ("optimum('gini',[0.4,0.9]*100000)", None),
    ("optimum('gini',[0.4,0.9],eps=0.001)", None),
    ("optimum('gini',[0.4,0.9,0.5,0.6,0.7,0.1],eps=0.01)", None),
    ("optimum('u/0',[0.4,0.9])", "h"),
    ("optimum('log(u)',[0.4,0.9])", "h"),
    ("optimum('gini',arms='beta(2,5);beta(1e-300,1e-300)')", None),
    ("optimum('gini',arms='uniform(0,1e308);beta(2,5)')", "arms"),
    ("optimum('gini',arms='finite(0:1/0);finite(1:1)')", "arms"),
    ("optimum('gini',arms=[object(),object()])", "arms"),
    ("optimum('gini',support=[0,1],probs=[[0.5,0.5],[0.5,0.5]],method='cvxpy')", None),
    ("optimum('gini',support=[0,1])", "probs"),
    ("optimum('gini',[[0.4,0.9],[0.1,0.2]])", "p"),
    ("optimum('gini',{0.4,0.9})", None),
    ("optimum('gini',iter([0.4,0.9]))", None),
    ("optimum('gini','0.4,0.9')", None),
    ("optimum('gini',[0.4,'0.9'])", None),
    ("optimum('gini',[0.4,1+0j])", "p"),
    ("profile('gini',[0.4,0.9],params={'s':1})", "params"),
    ("profile('u**(10**8)',[0.4,0.9])", "h"),
    ("profile('u*log(0)')", "h"),
    ("profile('0**-1*u')", "h"),
    ("profile('oo*u')", "h"),
    ("profile('zoo*u')", "h"),
    ("profile('nan*u')", "h"),
    ("profile('sin(1e9*u)')", "h"),
    ("profile('__import__(\"os\")')", "h"),
    ("profile('gini',[0.4,0.9],arms='beta(2,5);beta(5,2)')", "arms"),
    ("profile(distortion('pht',s=float('inf')))", "s"),
    ("profile(distortion('pht',s=-1))", "s"),
    ("profile(distortion('pht',s='u'))", "s"),
    ("distortion('pht',S=0.5)", None),
    ("distortion('pht',s=0.5,t=1)", None),
    ("distortion('')", "h"),
    ("distortion('x'*100000)", "h"),
    ("distortion('(' * 1000 + 'u' + ')' * 1000)", None),
    ("ledger(status='bogus')", "status"),
    ("ledger(id=5)", "id"),
    ("ledger(proof='nonexistent')", "proof"),
    ("ledger(jobs=0)", "jobs"),
    ("ledger(jobs=10**9, id='lemma:PHT')", "jobs"),
    ("ledger(jobs=-1)", "jobs"),
    ("findings(entries=5)", "entries"),
    ("findings(jobs=0)", "jobs"),
]


def api_attempts():
    att = []
    for call, names in API_CASES:
        code = (
            "import math\n"
            "from proofs_checks.api import *\n"
            "try:\n"
            f"    r = {call}\n"
            "    s = repr(getattr(r, 'mean_regret', None) if hasattr(r, 'mean_regret') else r)[:300]\n"
            "    print('RESULT ok', s.replace(chr(10), ' '))\n"
            "except ValueError as e:\n"
            "    print('RESULT ValueError', str(e).replace(chr(10), ' ')[:400])\n"
            "except Exception as e:\n"
            "    print('RESULT', type(e).__name__, str(e).replace(chr(10), ' ')[:300])\n"
        )
        att.append(A("api", call[:90], kind="api", code=code, names=names, expect="refuse" if names else "any",
                     timeout=90))
    return att


def _mkfifo(p):
    if not os.path.exists(p):
        os.mkfifo(p)


def file_attempts():
    d = f"{SCRATCH}/files"
    att = []
    # setups are executed in the driver before the attempt
    cases = [
        ("csv directory", "mkdir -p {d}/dir.csv", "empirical({d}/dir.csv:x)"),
        ("csv fifo", "mkfifo {d}/fifo.csv", "empirical({d}/fifo.csv:x)"),
        ("csv /dev/zero", "", "empirical(/dev/zero:x)"),
        ("csv /dev/stdin", "", "empirical(/dev/stdin:x)"),
        ("csv /proc/self/environ", "", "empirical(/proc/self/environ:x)"),
        ("csv link out", "printf 'x\\n0.1\\n0.2\\n' > {d}/../secret.csv; ln -sf ../secret.csv {d}/out.csv",
         "empirical({d}/out.csv:x)"),
        ("csv link chain", "printf 'x\\n0.1\\n0.2\\n' > {d}/real.csv; ln -sf real.csv {d}/l1.csv; ln -sf l1.csv {d}/l2.csv",
         "empirical({d}/l2.csv:x)"),
        ("csv dangling", "ln -sf nowhere.csv {d}/dang.csv", "empirical({d}/dang.csv:x)"),
        ("csv link loop", "ln -sf loop2.csv {d}/loop1.csv; ln -sf loop1.csv {d}/loop2.csv", "empirical({d}/loop1.csv:x)"),
        ("csv sparse 2G", "truncate -s 2G {d}/sparse.csv", "empirical({d}/sparse.csv:x)"),
        ("csv sparse 1000M header", "printf 'x\\n' > {d}/sp2.csv; truncate -s 1000M {d}/sp2.csv",
         "empirical({d}/sp2.csv:x)"),
        ("csv binary", "head -c 4096 /dev/urandom > {d}/bin.csv", "empirical({d}/bin.csv:x)"),
        ("csv npz as csv", "printf 'PK\\x03\\x04' > {d}/z.csv", "empirical({d}/z.csv:x)"),
        ("csv json", "echo '{{\"x\": [0.1, 0.2]}}' > {d}/j.csv", "empirical({d}/j.csv:x)"),
        ("csv empty", ": > {d}/empty.csv", "empirical({d}/empty.csv:x)"),
        ("csv header only", "printf 'x\\n' > {d}/hdr.csv", "empirical({d}/hdr.csv:x)"),
        ("csv missing column", "printf 'y\\n0.1\\n' > {d}/nocol.csv", "empirical({d}/nocol.csv:x)"),
        ("csv nan cell", "printf 'x\\n0.1\\nnan\\n' > {d}/nan.csv", "empirical({d}/nan.csv:x)"),
        ("csv inf cell", "printf 'x\\n0.1\\ninf\\n' > {d}/inf.csv", "empirical({d}/inf.csv:x)"),
        ("csv negative", "printf 'x\\n0.1\\n-5\\n' > {d}/neg.csv", "empirical({d}/neg.csv:x)"),
        ("csv 1e300", "printf 'x\\n0.1\\n1e300\\n' > {d}/big.csv", "empirical({d}/big.csv:x)"),
        ("csv 5e-324", "printf 'x\\n0\\n5e-324\\n' > {d}/sub.csv", "empirical({d}/sub.csv:x)"),
        ("csv text cell", "printf 'x\\n0.1\\nabc\\n' > {d}/txt.csv", "empirical({d}/txt.csv:x)"),
        ("csv formula cell", "printf 'x\\n0.1\\n=1+1\\n' > {d}/frm.csv", "empirical({d}/frm.csv:x)"),
        ("csv expr cell", "printf 'x\\n0.1\\n__import__(\"os\")\\n' > {d}/expr.csv", "empirical({d}/expr.csv:x)"),
        ("csv ragged", "printf 'x,y\\n0.1\\n0.2,0.3,0.4\\n' > {d}/rag.csv", "empirical({d}/rag.csv:x)"),
        ("csv dup columns", "printf 'x,x\\n0.1,0.2\\n0.3,0.4\\n' > {d}/dup.csv", "empirical({d}/dup.csv:x)"),
        ("csv bom utf16", "printf '\\xff\\xfex\\x00\\n\\x00' > {d}/u16.csv", "empirical({d}/u16.csv:x)"),
        ("csv nul", "printf 'x\\n0.1\\x00\\n0.2\\n' > {d}/nul.csv", "empirical({d}/nul.csv:x)"),
        ("csv long line", "python3 -c \"print('x'); print('0.'+'1'*10000000)\" > {d}/long.csv", "empirical({d}/long.csv:x)"),
        ("csv many columns", "python3 -c \"print(','.join('c%d'%i for i in range(100000))); print(','.join('0.1' for i in range(100000)))\" > {d}/wide.csv",
         "empirical({d}/wide.csv:c5)"),
        ("csv no perms", "printf 'x\\n0.1\\n' > {d}/noperm.csv; chmod 000 {d}/noperm.csv", "empirical({d}/noperm.csv:x)"),
        ("csv path traversal", "", "empirical(../../../../etc/passwd:root)"),
        ("csv colon in name", "printf 'x\\n0.1\\n0.5\\n' > '{d}/a:b.csv'", "empirical({d}/a:b.csv:x)"),
        ("csv newline in name", "printf 'x\\n0.1\\n0.5\\n' > '{d}/a\nb.csv'", "empirical({d}/a\nb.csv:x)"),
        ("csv escape in name", "", "empirical({d}/\x1b[2Jx.csv:x)"),
        ("csv huge name", "", "empirical({d}/" + "a" * 5000 + ".csv:x)"),
        ("csv one row", "printf 'x\\n0.5\\n' > {d}/one.csv", "empirical({d}/one.csv:x)"),
        ("csv same values", "printf 'x\\n0.5\\n0.5\\n' > {d}/same.csv", "empirical({d}/same.csv:x)"),
        ("csv semicolon", "printf 'x;y\\n0.5;0.1\\n' > {d}/semi.csv", "empirical({d}/semi.csv:x)"),
        ("csv quoted", "printf '\"x\"\\n\"0.5\"\\n\"0.2\"\\n' > {d}/quo.csv", "empirical({d}/quo.csv:x)"),
    ]
    for name, setup, spec in cases:
        s = setup.format(d=d)
        sp = spec.format(d=d) if "{d}" in spec else spec
        for cmd in (["optimize", "--dr", "gini", "--arms", f"{sp};beta(2,5)"],
                    ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--arms", f"beta(2,5);{sp}", "--T", "50",
                     "--trials", "1", "--quiet"],
                    ["derive", "--h", "gini", "--arms", f"{sp};beta(2,5)"]):
            att.append(A("files", f"{name}: {cmd[0]}", cmd, setup=s, timeout=90, kind="cli"))
    # stored results and the lock under an output directory
    o = f"{SCRATCH}/fo"
    sim = ["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "100", "--trials", "2",
           "--quiet", "--out", o]
    plants = [
        ("lock symlink to victim", "mkdir -p {o}; echo victim > {s}/victim; ln -sf {s}/victim {o}/.rsb.lock"),
        ("lock fifo", "mkdir -p {o}; mkfifo {o}/.rsb.lock"),
        ("lock dir", "mkdir -p {o}/.rsb.lock"),
        ("lock hard link", "mkdir -p {o}; echo victim > {s}/victim2; ln -f {s}/victim2 {o}/.rsb.lock"),
        ("runs symlink", "mkdir -p {o} {s}/elsewhere; ln -sf {s}/elsewhere {o}/runs"),
        ("runs file", "mkdir -p {o}; echo x > {o}/runs"),
        ("simulate.json symlink", "mkdir -p {o}; echo victim > {s}/victim3; ln -sf {s}/victim3 {o}/simulate.json"),
        ("simulate.csv fifo", "mkdir -p {o}; mkfifo {o}/simulate.csv"),
        ("corrupt symlink", "mkdir -p {o} {s}/elsewhere2; ln -sf {s}/elsewhere2 {o}/corrupt"),
        ("garbage lock", "mkdir -p {o}; head -c 100000 /dev/urandom > {o}/.rsb.lock"),
        ("lock json huge pid", "mkdir -p {o}; echo '{{\"pid\": 99999999999999999999, \"host\": \"x\"}}' > {o}/.rsb.lock"),
        ("lock json escape", "mkdir -p {o}; printf '{{\"pid\": 1, \"cmd\": \"\\\\u001b[2J\"}}' > {o}/.rsb.lock"),
    ]
    for name, setup in plants:
        att.append(A("files", f"out plant: {name}", sim, setup=f"rm -rf {o}; " + setup.format(o=o, s=SCRATCH),
                     timeout=90, io_ok=True, kind="cli", post=f"victims:{SCRATCH}"))
    # stored runs damaged: run once, then damage every stored file
    for dmg in ("truncate -s 10 {f}", "truncate -s 5G {f}", "rm {f}; ln -s /etc/passwd {f}", "rm {f}; mkfifo {f}",
                "rm {f}; mkdir {f}", "chmod 000 {f}", "printf 'NaN' > {f}"):
        att.append(A("files", f"stored runs damaged: {dmg.split('{')[0].strip()}", sim, timeout=90, io_ok=True,
                     setup=f"rm -rf {o}; {PY} -m proofs_checks.cli {' '.join(sim)} >/dev/null 2>&1; "
                           f"for f in $(find {o}/runs -maxdepth 1 -name '*.json' -o -maxdepth 1 -name '*.npz'); do "
                           + dmg.format(f="$f") + "; done", kind="cli"))
    # report with planted figures
    for name, setup in [("figure symlink", "mkdir -p {o}; ln -sf /etc/passwd {o}/x.png"),
                        ("figure sparse", "mkdir -p {o}; truncate -s 3G {o}/x.png"),
                        ("caption csv link", "mkdir -p {o}; cp /dev/null {o}/x.png; ln -sf /etc/passwd {o}/x.csv"),
                        ("index.html symlink", "mkdir -p {o}; echo v > {s}/victim4; ln -sf {s}/victim4 {o}/index.html")]:
        att.append(A("files", f"report: {name}", ["report", "--out", o], setup=f"rm -rf {o}; " + setup.format(o=o, s=SCRATCH),
                     timeout=120, kind="cli", post=f"victims:{SCRATCH}"))
    return att


def outdir_attempts():
    att = []
    o = f"{SCRATCH}/od"
    setups = [
        ("symlink to dir", "mkdir -p {s}/real; rm -rf {o}; ln -s {s}/real {o}", o, "any"),
        ("dangling symlink", "rm -rf {o}; ln -s {s}/nowhere {o}", o, "refuse"),
        ("below dangling", "rm -rf {o}; ln -s {s}/nowhere {o}", o + "/sub", "refuse"),
        ("existing file", "rm -rf {o}; echo x > {o}", o, "refuse"),
        ("below file", "rm -rf {o}; echo x > {o}", o + "/sub", "refuse"),
        ("read-only dir", "rm -rf {o}; mkdir {o}; chmod 500 {o}", o, "refuse"),
        ("read-only parent", "rm -rf {o}; mkdir {o}; chmod 500 {o}", o + "/sub", "refuse"),
        ("long name 255", "rm -rf {o}; mkdir {o}", o + "/" + "n" * 255, "refuse"),
        ("long name 250", "rm -rf {o}; mkdir {o}", o + "/" + "n" * 250, "refuse"),
        ("long path", "rm -rf {o}; mkdir {o}", o + ("/" + "d" * 200) * 25, "refuse"),
        ("etc", "", "/etc", "refuse"),
        ("tmp/../etc", "", "/tmp/../etc", "refuse"),
        ("proc self", "", "/proc/self/cwd", "refuse"),
        ("dev null", "", "/dev/null", "refuse"),
        ("root", "", "/", "refuse"),
        ("tmp", "", "/tmp", "refuse"),
        ("home", "", os.path.expanduser("~"), "any"),
        ("nonexistent top", "", "/nonexistent_hr4/x", "refuse"),
        ("fifo", "rm -rf {o}; mkfifo {o}", o, "refuse"),
        ("empty string", "", "", "refuse"),
        ("newline name", "rm -rf {o}; mkdir {o}", o + "/a\nb", "any"),
        ("escape name", "rm -rf {o}; mkdir {o}", o + "/\x1b[2J", "any"),
        ("dash name", "rm -rf {o}; mkdir {o}", "-o", "any"),
        ("runs is symlink", "rm -rf {o}; mkdir -p {o} {s}/v5; ln -s {s}/v5 {o}/runs", o, "refuse"),
        ("runs/chunks symlink", "rm -rf {o}; mkdir -p {o}/runs {s}/v6; ln -s {s}/v6 {o}/runs/chunks", o, "refuse"),
    ]
    cmds = {
        "simulate": ["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "100", "--trials", "2",
                     "--quiet", "--out"],
        "compare": BASE["compare"] + ["--out"],
        "plot": BASE["plot"] + ["--out"],
        "slopes": BASE["slopes"][:-2] + ["--quiet", "--out"],
        "report": ["report", "--out"],
        "reproduce": ["reproduce", "mixture-vs-solitary", "--trials", "2", "--quiet", "--out"],
    }
    for name, setup, out, expect in setups:
        for cname, pre in cmds.items():
            if cname in ("report", "reproduce") and name not in (
                    "dangling symlink", "existing file", "read-only dir", "long name 255", "etc", "fifo", "runs is symlink",
                    "symlink to dir", "long path", "tmp"):
                continue
            att.append(A("outdirs", f"{cname} --out {name}", pre + [out], expect=expect,
                         setup=setup.format(o=o, s=SCRATCH), timeout=120, any_line=False, io_ok=False))
    return att


def signal_attempts(rng):
    att = []
    o = f"{SCRATCH}/so"
    long_cmds = {
        "simulate": ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1e8", "--trials", "4",
                     "--quiet"],
        "simulate-out": ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1e6", "--trials",
                         "200", "--chunk", "5", "--quiet", "--out", o],
        "slopes": ["slopes", "--dr", "gini", "--p", "0.4,0.9", "--trials", "50", "--quiet", "--out", o, "--jobs", "2"],
        "reproduce": ["reproduce", "regret-vs-T", "--trials", "20", "--quiet", "--out", o, "--jobs", "2"],
        "compare": ["compare", "--algos", "rs-etc-m,ucb-fw,ts-mix", "--dr", "gini", "--p", "0.4,0.9", "--Ts",
                    "10000,30000", "--trials", "50", "--quiet", "--out", o, "--jobs", "2"],
        "plot": ["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-ucb-m", "--trials", "50", "--quiet",
                 "--out", o],
        "verify-fresh": ["verify", "--id", "theorem:RS-ETC-M", "--fresh"],
        "derive": ["derive", "--h", "u**(12345/99991)*(1-u)**(1/3)", "--p", "0.4,0.9"],
        "optimize": ["optimize", "--dr", "gini", "--arms", "irwinhall(1000000);beta(2,5)"],
        "optimize-eps": ["optimize", "--dr", "gini", "--p", "0.4,0.9,0.5,0.6", "--eps", "0.01", "--max-work", "1e12"],
    }
    for name, argv in long_cmds.items():
        for sig in (signal.SIGINT, signal.SIGTERM):
            for _ in range(2):
                delay = round(rng.uniform(0.1, 10), 2)
                att.append(A("signals", f"{name} {signal.Signals(sig).name} at {delay} s", argv, kind="signal", sig=sig,
                             delay=delay, out_dir=o, setup=f"rm -rf {o}", timeout=120))
    return att


def memory_attempts():
    att = []
    o = f"{SCRATCH}/mo"
    cases = [
        ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1000", "--trials", "1e6", "--quiet"],
        ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "10", "--trials", "1e7", "--quiet",
         "--max-work", "1e15"],
        ["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4,0.9", "--T", "2", "--trials", "3e7", "--quiet",
         "--max-work", "1e15"],
        ["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4,0.9", "--T", "1e9", "--trials", "1", "--quiet",
         "--record", "1", "--max-work", "1e15"],
        ["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4,0.9", "--T", "1e5", "--trials", "1", "--quiet",
         "--record", ",".join(str(i) for i in range(1, 100001))],
        ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--p", ",".join(["0.5"] * 1000), "--T", "1000", "--trials",
         "1", "--quiet"],
        ["simulate", "--algo", "uniform", "--dr", "gini", "--p", ",".join(["0.5"] * 100000), "--T", "1000", "--trials",
         "1", "--quiet"],
        ["simulate", "--algo", "ucb1", "--dr", "gini", "--p", ",".join(["0.5"] * 100000), "--T", "100000", "--trials",
         "100", "--quiet"],
        ["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "100", "--trials", "1e8",
         "--chunk", "1", "--quiet", "--out", o],
        ["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "100", "--trials", "1e6",
         "--chunk", "1e6", "--quiet", "--out", o, "--max-work", "1e15"],
        ["slopes", "--dr", "gini", "--p", "0.4,0.9", "--algo", "uniform", "--Ts", "100", "--trials", "2",
         "--bootstrap", "1e9", "--no-cache", "--quiet"],
        ["slopes", "--dr", "gini", "--p", "0.4,0.9", "--algo", "uniform", "--Ts", "100,200", "--trials", "1e5",
         "--bootstrap", "1e4", "--no-cache", "--quiet", "--max-work", "1e15"],
        ["slopes", "--dr", "gini", "--p", "0.4,0.9", "--algo", "uniform", "--Ts", ",".join(str(100 + i) for i in range(5000)),
         "--trials", "1", "--bootstrap", "10", "--no-cache", "--quiet"],
        ["slopes", "--dr", "gini", "--p", "0.4,0.9", "--algo", "uniform", "--Ts", "100,200", "--trials", "2",
         "--jobs", "1e18", "--no-cache", "--quiet"],
        ["slopes", "--dr", "gini", "--p", "0.4,0.9", "--algo", "uniform", "--Ts", "100,200", "--trials", "2",
         "--jobs", "256", "--no-cache", "--quiet"],
        ["compare", "--algos", "uniform,ucb1", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100", "--trials", "1e18",
         "--quiet", "--out", o],
        ["compare", "--algos", "uniform,ucb1", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100", "--trials", "1e7",
         "--quiet", "--out", o, "--max-work", "1e15"],
        ["compare", "--algos", "uniform,ucb1", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100", "--trials", "20",
         "--tune", "--tune-grid", ",".join(["1"] * 100000), "--quiet", "--out", o],
        ["compare", "--algos", "uniform,ucb1", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100", "--trials", "20",
         "--tune", "--tune-trials", "1e9", "--quiet", "--out", o],
        ["compare", "--algos", "uniform,ucb1", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100", "--trials", "2",
         "--tune", "--tune-instances", ";".join(["0.4,0.9"] * 10000), "--quiet", "--out", o],
        ["compare", "--algos", "uniform,ucb1", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100", "--trials", "2",
         "--jobs", "1e18", "--quiet", "--out", o],
        ["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "uniform", "--Ts", "100", "--trials", "1e8",
         "--quiet", "--out", o],
        ["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-etc-m", "--Ts", "1e12", "--trials", "1",
         "--quiet", "--out", o],
        ["reproduce", "all", "--trials", "1e9", "--quiet", "--out", o],
        ["reproduce", "regret-vs-K", "--trials", "1e6", "--quiet", "--out", o, "--max-memory", "1G"],
        ["reproduce", "vs-rho", "--trials", "1", "--chunk", "1e18", "--quiet", "--out", o],
        ["reproduce", "vs-gap", "--trials", "2", "--jobs", "1e6", "--quiet", "--out", o],
        ["optimize", "--dr", "gini", "--p", "0.4,0.9,0.5,0.6,0.7", "--eps", "1e-3", "--max-work", "1e30"],
        ["optimize", "--dr", "gini", "--p", "0.4,0.9", "--eps", "1e-9", "--max-work", "1e30"],
        ["optimize", "--dr", "gini", "--p", ",".join(["0.5"] * 5000), "--method", "cvxpy"],
        ["optimize", "--dr", "gini", "--p", ",".join(["0.5"] * 200000)],
        ["optimize", "--dr", "gini", "--p", "0.4,0.9", "--eps", "1e-300", "--max-memory", "1e30"],
        ["optimize", "--dr", "gini", "--support", ",".join(str(i / 300000) for i in range(300001)), "--probs",
         "1;1"],
        ["optimize", "--dr", "gini", "--arms", "finite(" + ",".join(f"{i/50000}:{1/50000}" for i in range(50000))
         + ");finite(" + ",".join(f"{(i+0.5)/50000}:{1/50000}" for i in range(50000)) + ")"],
        ["derive", "--h", "gini", "--p", ",".join(["0.5"] * 100000)],
        ["derive", "--h", "gini", "--p", "0.4,0.9", "--max-memory", "1"],
        ["derive", "--h", "gini", "--p", "0.4,0.9", "--max-memory", "1e30"],
        ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1000", "--trials", "2",
         "--max-memory", "1K", "--quiet"],
        ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1000", "--trials", "2",
         "--max-memory", "2^70", "--quiet"],
        ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1000", "--trials", "2",
         "--max-memory", "8 GiB", "--quiet"],
        ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1000", "--trials", "2",
         "--max-memory", "-4G", "--quiet"],
        ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1000", "--trials", "2",
         "--max-memory", "1e400", "--quiet"],
        ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1000", "--trials", "2",
         "--max-memory", "4Q", "--quiet"],
        ["simulate", "--algo", "m-cvts", "--dr", "gini", "--p", "0.4,0.9", "--T", "1e6", "--trials", "1000",
         "--quiet", "--max-work", "1e15"],
        ["simulate", "--algo", "ts-mix", "--dr", "gini", "--p", "0.4,0.9", "--T", "1e6", "--trials", "1000",
         "--quiet", "--max-work", "1e15"],
        ["simulate", "--algo", "plugin-track", "--dr", "gini", "--p", ",".join(["0.5"] * 300), "--T", "1e4", "--trials",
         "10", "--quiet"],
        ["simulate", "--algo", "b-cvts", "--dr", "cvar", "--param", "alpha=0.5", "--arms", "beta(2,5);beta(5,2)", "--T", "1e6",
         "--trials", "100", "--quiet", "--max-work", "1e15"],
        ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--arms", "beta(2,5);beta(5,2)", "--T", "1e6",
         "--trials", "100", "--quiet", "--max-work", "1e15"],
    ]
    for argv in cases:
        fresh = o if "--out" in argv else None
        att.append(A("memory", " ".join(a if len(a) < 40 else a[:37] + "..." for a in argv)[:160], argv, timeout=120,
                     setup=f"rm -rf {o}", budget_mb=4096 + 400, fresh_out=None, mem_out=fresh, no_nan=True))
    return att


def extra_attempts():
    """Second batch: what the first showed untested (compare needs two horizons; plot's base algorithm reads no
    radius), and the lock held by another run with a huge --wait."""
    att = []
    o = f"{SCRATCH}/xo"
    for algo in ("rs-ucb-m", "ce-ucb-m", "dr-ucb", "ucb-fw", "u-ucb"):
        for v in ("1e154", "1e300", "1e308", "2.3e-308"):
            att.append(A("numbers", f"compare {algo} --radius-scale {v}",
                         ["compare", "--algos", f"{algo},uniform", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100,200",
                          "--trials", "2", "--quiet", "--out", o, "--radius-scale", v], setup=f"rm -rf {o}",
                         timeout=120, no_nan=True))
            att.append(A("numbers", f"plot {algo} --radius-scale {v}",
                         ["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", algo, "--Ts", "100,200",
                          "--trials", "2", "--quiet", "--out", o, "--radius-scale", v], setup=f"rm -rf {o}",
                         timeout=120, no_nan=True))
            att.append(A("numbers", f"slopes {algo} --radius-scale {v}",
                         ["slopes", "--dr", "gini", "--p", "0.4,0.9", "--algo", algo, "--Ts", "100,200",
                          "--trials", "2", "--bootstrap", "10", "--no-cache", "--quiet", "--radius-scale", v],
                         timeout=120, no_nan=True))
    cmp = ["compare", "--algos", "rs-ucb-m,ucb1", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100,200", "--quiet",
           "--out", o]
    for extra in (["--trials", "1e18"], ["--trials", "1e7"], ["--trials", "2", "--jobs", "1e18"],
                  ["--trials", "2", "--jobs", "300"], ["--trials", "2", "--chunk", "1e18"],
                  ["--trials", "1e7", "--chunk", "1"], ["--trials", "2", "--tune", "--tune-trials", "1e18"],
                  ["--trials", "2", "--tune", "--tune-trials", "1e9"],
                  ["--trials", "2", "--tune", "--tune-grid", ",".join(str(1 + i) for i in range(20000))],
                  ["--trials", "2", "--tune", "--tune-instances", ";".join(["0.4,0.9"] * 5000)],
                  ["--trials", "2", "--tune", "--tune-instances", ",".join(["0.5"] * 150)],
                  ["--trials", "2", "--Ts", ",".join(str(100 + i) for i in range(3000))],
                  ["--trials", "2", "--Ts", "100,1e12"], ["--trials", "2", "--Ts", "100,4611686018427387905"],
                  ["--trials", "2", "--seed", "4611686018427387905"], ["--trials", "2", "--seed", "9007199254740993"]):
        argv = list(cmp)
        if "--Ts" in extra:
            argv[argv.index("--Ts") + 1] = extra[extra.index("--Ts") + 1]
            extra = [x for i, x in enumerate(extra) if x != "--Ts" and (i == 0 or extra[i - 1] != "--Ts")]
        att.append(A("memory", "compare " + " ".join(x[:30] for x in extra), argv + extra, setup=f"rm -rf {o}",
                     timeout=120, budget_mb=4096 + 400, mem_out=o))
    return att


# ---------------------------------------------------------------------------------------------- main


def _victims_intact():
    bad = []
    for v in ("victim", "victim2", "victim3", "victim4"):
        p = os.path.join(SCRATCH, v)
        if os.path.exists(p):
            with open(p) as f:
                if f.read().strip() not in ("victim", "v"):
                    bad.append(p)
    for d in ("elsewhere", "elsewhere2", "v5", "v6", "real"):
        p = os.path.join(SCRATCH, d)
        if d != "real" and os.path.isdir(p) and os.listdir(p):
            bad.append(p)
    return bad


def run_attempt(a):
    if a.get("setup"):
        subprocess.run(["bash", "-c", a["setup"]], cwd=SCRATCH, capture_output=True)
    if a.get("fresh_out"):
        shutil.rmtree(a["fresh_out"], ignore_errors=True)
    timeout = min(a.get("timeout", 60), MAX_TIMEOUT)
    if a["kind"] == "signal":
        os.makedirs(f"{SCRATCH}/sigcwd", exist_ok=True)
        r = run_signal(a["argv"], a["sig"], a["delay"], cwd=f"{SCRATCH}/sigcwd", out_dir=a.get("out_dir"))
    elif a["kind"] == "api":
        r = run_forked(code=a["code"], timeout=timeout)
    elif a.get("sub"):
        r = run_sub(a["argv"], timeout=timeout)
    else:
        r = run_forked(argv=a["argv"], timeout=timeout)
    v, why = verdict(a, r)
    if v == "ok" and a.get("post", "").startswith("victims:"):
        bad = _victims_intact()
        if bad:
            v, why = "defect", f"victim changed: {bad}"
    if v == "ok" and r.get("leftover") and a["kind"] != "signal":
        v, why = "defect", "processes left in the attempt's group"
    if v == "ok" and a.get("mem_out") and r["rc"] == 2 and os.path.exists(a["mem_out"]):
        v, why = "defect", f"refusal left {a['mem_out']} behind"
    return r, v, why


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--match", default=None)
    ap.add_argument("--exclude", default=None, help="leave out attempts whose name matches (slow accepted runs)")
    ap.add_argument("--skip", type=int, default=0, help="resume: leave out the first SKIP attempts")
    ap.add_argument("--batch", choices=("first", "extra", "all"), default="all",
                    help="first: the first batch; extra: the second (extra_attempts)")
    ap.add_argument("--out", default=os.path.join(HERE, "results.jsonl"))
    args = ap.parse_args()
    os.makedirs(SCRATCH, exist_ok=True)
    os.makedirs(f"{SCRATCH}/files", exist_ok=True)
    sys.path.insert(0, ROOT)
    os.chdir(ROOT)
    # preload what the children need (forked after this)
    import numpy  # noqa: F401
    import sympy  # noqa: F401

    import proofs_checks.api  # noqa: F401
    from proofs_checks.cli import app  # noqa: F401

    rng = random.Random(4)
    attempts = (numeric_attempts() + expression_attempts() + api_attempts() + file_attempts() + outdir_attempts()
                + memory_attempts() + signal_attempts(rng))
    attempts = {"first": attempts, "extra": extra_attempts(), "all": attempts + extra_attempts()}[args.batch]
    if args.only:
        attempts = [a for a in attempts if a["cls"] in args.only.split(",")]
    if args.match:
        attempts = [a for a in attempts if re.search(args.match, a["name"])]
    if args.exclude:
        attempts = [a for a in attempts if not re.search(args.exclude, a["name"])]
    attempts = attempts[args.skip:]
    if args.limit:
        attempts = attempts[: args.limit]
    print(f"{len(attempts)} attempts", file=sys.stderr)
    with open(args.out, "a") as fh:
        for i, a in enumerate(attempts):
            r, v, why = run_attempt(a)
            rec = dict(cls=a["cls"], name=a["name"], kind=a["kind"],
                       command=(a["argv"] if a["kind"] != "api" else a["name"]), rc=r["rc"], wall=r["wall"],
                       stop=r.get("stop"), rss_mb=r.get("rss_mb"), stdout=_first(r["out"]), stderr=_first(r["err"]),
                       stderr_lines=len([x for x in r["err"].splitlines() if x.strip()]), verdict=v, why=why)
            if v == "defect":
                rec["stderr_tail"] = r["err"][-1500:]
            fh.write(json.dumps(rec, ensure_ascii=True) + "\n")
            fh.flush()
            print(f"[{i+1}/{len(attempts)}] {v:6} {r['rc']!s:>4} {r['wall']:6.1f}s {a['cls']:11} {a['name'][:70]} -- {why[:80]}",
                  file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
