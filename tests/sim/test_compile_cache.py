"""numba's compilation of CE-UCB-M is cached across processes, and the cache follows every compiled source.

* a second process loads the compiled loop, the search and the h callback from the on-disk
  cache: no compilation at all (numba's ``numba:compile`` events, the dispatchers'
  ``stats.cache_hits``/``cache_misses``, the callback's ``cache_hits``);
* the stamp of a cached function covers the files of its callees: changing a callee in another
  file recompiles the caller (numba's own stamp covers only the caller's file);
* every compiled callee of the loop is in its list of sources.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numba

from rsb_sim.policies import _ce_loop
from rsb_theory.argmax import edge_lines, x_window

#: A concave h with q = 1 used by no other test, so that its callback is cached by this test.
H = "(3*u - u**3)/2"

_SCRIPT = textwrap.dedent('''
    import json
    from numba.core import event
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run
    from rsb_sim.instances import BernoulliInstance
    from rsb_sim.policies import _ce_loop
    from rsb_theory.argmax import edge_lines, x_window
    from rsb_theory.distortions import from_string

    d = from_string(%r)
    with event.install_recorder("numba:compile") as rec:
        r = run(SimConfig(T=200, trials=2, seed=0, eps=0.1, radius_scale=0.01, threads=1),
                BernoulliInstance((0.4, 0.9, 0.6)), d, "ce-ucb-m")
    loop = _ce_loop.compiled_loop()
    print(json.dumps({
        "compiled": [e.data["dispatcher"].py_func.__qualname__ for _, e in rec.buffer if e.is_start],
        "h_cache_hits": edge_lines.compiled_h(d).cache_hits,
        "loop_hits": sum(loop.stats.cache_hits.values()), "loop_misses": sum(loop.stats.cache_misses.values()),
        "lines": r.stats.get("lines", 0), "regrets": r.regrets.tolist()}))
''') % H


def _fresh_process(script: str, cwd=None, env=None) -> dict:
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=cwd, env=env,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_second_process_loads_everything_from_the_cache():
    first = _fresh_process(_SCRIPT)  # compiles what is not cached yet (everything, on a fresh clone)
    second = _fresh_process(_SCRIPT)
    assert first["lines"] > 0 and second["lines"] > 0  # the compiled loop ran
    assert second["compiled"] == []  # no dispatcher compiled: the loop (with the search in it) was loaded
    assert second["loop_hits"] == 1 and second["loop_misses"] == 0
    assert second["h_cache_hits"] == 1  # the C callback of h too
    assert second["regrets"] == first["regrets"]


_CALLEE = "def f(x):\n    return x + {}\n"
_CALLER = textwrap.dedent('''
    import callee
    from rsb_theory.argmax.edge_lines import njit_cached

    _f = callee.f


    def g(x):
        return 10 * _f(x)


    def compiled():
        global _f
        _f = njit_cached(callee.f, inline="{inline}")
        return njit_cached(g, sources=(callee,))
''')
_RUN = ("import json, caller\ng = caller.compiled()\nv = g(1)\n"
        "print(json.dumps({'value': int(v), 'hits': sum(g.stats.cache_hits.values())}))")


def test_a_change_in_a_callee_file_recompiles_the_caller(tmp_path):
    """The caller's cache is stamped with the callee's file: after the callee changes, the caller is
    recompiled (numba's own cache would load the caller with the old callee compiled in)."""
    # no .pyc: the callee is rewritten within the same second with the same size
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path)] + sys.path), PYTHONDONTWRITEBYTECODE="1")
    for inline in ("always", "never"):
        (tmp_path / "caller.py").write_text(_CALLER.format(inline=inline))
        (tmp_path / "callee.py").write_text(_CALLEE.format(1))
        assert _fresh_process(_RUN, tmp_path, env)["value"] == 20
        assert _fresh_process(_RUN, tmp_path, env) == {"value": 20, "hits": 1}  # loaded from the cache
        (tmp_path / "callee.py").write_text(_CALLEE.format(2))
        assert _fresh_process(_RUN, tmp_path, env) == {"value": 30, "hits": 0}  # recompiled, not stale


def test_every_compiled_callee_of_the_rs_loop_is_in_its_sources():
    from rsb_sim.policies import _rs_loop

    _rs_loop.compiled_loop()
    files = {os.path.realpath(m.__file__) for m in _rs_loop.SOURCES} | {os.path.realpath(_rs_loop.__file__)}
    callees = [v for v in vars(_rs_loop).values() if isinstance(v, numba.core.registry.CPUDispatcher)]
    # the exact search, the mixture, the reward reader, the tracking rule and the radius (a formula beyond the
    # bounded radius table)
    assert len(callees) == 5
    for v in callees:
        assert os.path.realpath(v.py_func.__code__.co_filename) in files, v


def test_every_compiled_callee_of_the_loop_is_in_its_sources():
    _ce_loop.compiled_loop()  # binds the callees' names to their dispatchers
    files = {os.path.realpath(m.__file__) for m in _ce_loop.SOURCES} | {os.path.realpath(_ce_loop.__file__)}
    callees = [v for v in vars(_ce_loop).values() if isinstance(v, numba.core.registry.CPUDispatcher)]
    # the line search, the window route, the mixture, the reward reader, the radius and the tracking rule
    assert len(callees) == 6
    for v in callees:
        assert os.path.realpath(v.py_func.__code__.co_filename) in files, v
    # the line search calls only functions of its own file, whose cache is stamped with it; the window
    # route calls functions of its own file and of the line search's, and its cache is stamped with both
    for name, v in vars(edge_lines).items():
        if isinstance(v, numba.core.registry.CPUDispatcher):
            assert os.path.realpath(v.py_func.__code__.co_filename) == os.path.realpath(edge_lines.__file__), name
    both = {os.path.realpath(edge_lines.__file__), os.path.realpath(x_window.__file__)}
    for name, v in vars(x_window).items():
        if isinstance(v, numba.core.registry.CPUDispatcher):
            assert os.path.realpath(v.py_func.__code__.co_filename) in both, name


def test_source_stamp_changes_with_every_file(tmp_path):
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("x = 1\n")
    b.write_text("y = 2\n")
    s = edge_lines.source_stamp(a, b)
    assert s == edge_lines.source_stamp(str(a), str(b)) and len(s) == 64
    b.write_text("y = 3\n")
    assert edge_lines.source_stamp(a, b) != s
    assert edge_lines.source_stamp(b, a) != edge_lines.source_stamp(a, b)
