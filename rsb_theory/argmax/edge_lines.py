"""Exact discrete argmax of the CE-UCB-M objective with a linear bonus, by hull-edge lines (compiled).

For Bernoulli arms and q = 1 the objective of ``eq:UCB_alpha2`` is

    f(a) = h(<a, p>) + <a, c>,        c = L * radius,

a function of the two linear forms x = <a, p> and y = <a, c>.  For concave h
the exact maximiser over a grid of ``rsb_theory.grids`` is found without
touching most grid points:

1. *Identity.*  For any two arms i != j with p_i != p_j let l(x) = alpha + beta x
   be the line through (p_i, c_i) and (p_j, c_j) and d_k = l(p_k) - c_k.  Since
   sum_k a_k = 1,  y = l(x) - sum_k a_k d_k,  so

       f(a) = phi(x) - delta(a),   phi(x) = h(x) + alpha + beta x (concave),
       delta(a) = sum_{k not in {i, j}} a_k d_k.

   If (i, j) is an edge of the upper hull of the points (p_k, c_k), every
   d_k >= 0.
2. *Lines.*  Every grid point lies on exactly one line "the counts of the arms
   k not in {i, j} are w_k, n_i + n_j = m - sum w", and delta is constant on it:
   delta_w = delta_0 + eps sum_k w_k d_k.  Its x is that of line 0 (w = 0)
   at the shifted position t + tau_w, tau_w = eps sum_k w_k (p_k - p_j) / s,
   s = eps (p_i - p_j).  So every value is g(t + tau_w) - (delta_w - delta_0)
   with one concave function g(t) = phi(x_0(t)) - delta_0 of the line-0
   position t, real, over [tA, tB] (the positions whose x lies in
   [min p, max p], the x-range of every grid point).
3. *Bounds of g.*  Line 0 is sampled at its discrete peak (found by bisection
   on the sign of consecutive differences) and two points on each side (one
   when K = 2: line 0 is then the whole grid and no inner bound is needed).
   Secants of consecutive samples bound g on each piece [t, t+1] of that
   window, and the end secants bound g on [tA, first sample] and [last
   sample, tB] (a concave function lies below its secants outside their
   interval).  These bounds hold whatever the bisection found.
4. *Pruning.*  With M_lo the best value found so far, a point of line w can
   reach M_lo - tol only if g(t + tau_w) >= theta_w = M_lo - tol +
   (delta_w - delta_0).  A line whose theta_w exceeds every bound is skipped,
   and since d_k >= 0 so is every line with larger w (a walk over w, the last
   off-edge arm in a tight inner loop, the others in an odometer that carries
   when pruned).  On the other lines only the t with t + tau_w in the union of
   the pieces whose bound reaches theta_w are evaluated.  After
   :data:`REFINE_AFTER` lines (few lines pruned: equal bonuses, where
   f = h(x) + const), the bracket is narrowed once by bisection on g itself
   between a point where g < theta and the best point found (concavity: g is
   below theta beyond such a point); it holds for all later lines, whose
   thresholds only grow.  The rest of line 0 is treated as a line last.
5. *Decision.*  The rule of ARCHITECTURE.md: M = the best value (every point
   that could be within tol of it has been evaluated), keep the previous point
   if v(prev) >= M - tol, else the first point in lexicographic order of
   (n_1, ..., n_{K-1}) with v >= M - tol.

Which hull edge is used only changes the work, never the decision: the one
next to the hull vertex with the largest h(p_k) + c_k (the maximum of
h + upper hull lies on an edge next to it) on whose side h + l increases.
Rounding: every bound carries a guard of 1e-11 relative to the magnitudes
involved (d_k computed slightly below 0 count as 0 with their size added to
the guard; positions get a slack of 1e-7); guards only widen the set of
evaluated points.  When no edge applies (all p_k equal up to 1e-9) or more
than :data:`CAND_CAP` points tie within tol, the trial is decided by plain
enumeration of the grid in the same compiled code.  Values are computed as in
:func:`rsb_theory.argmax.values` (x and y summed over arms in order, the last
coordinate 1 - sum of the others, clipped at 0); decisions agree with the
NumPy routes and the reference loop within the tie tolerance (tests).

The kernel is compiled with numba: ``h`` is compiled from its SymPy expression
with ``lambdify(modules="math")`` as a C callback (:func:`compiled_h`), so the
kernel has one signature for every h and is compiled once per installation
(about 20 s); both are kept in numba's on-disk cache and loaded from it by
every later process (:func:`njit_cached`, :func:`compiled_h`).
:func:`available` says whether this works for a distortion, and callers fall
back to :func:`rsb_theory.argmax.argmax` otherwise.  The search allocates
nothing and is compiled without numba's reference-counted runtime
(:func:`njit_cached`).  The peak search on line 0 starts at the previous
choice's line-0 position (:func:`_line0_peak`; when that choice lies on line 0
its value is that sample), and the refinement of step 4 may bisect towards that
position when the previous choice holds the maximum.  The hull vertex is only
looked for when the hull has more than one edge.  CE-UCB-M's compiled time loop
(:mod:`rsb_sim.policies._ce_loop`) calls the search of one trial,
:func:`compiled_search`, with the work arrays of :func:`scratch`.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import math
import sys
from pathlib import Path

import numpy as np

from ..distortions import U, Distortion
from ..grids import Grid
from ..objectives import check_phat
from .rule import TIE_TOL, check_previous
from ..errors import ArgumentError

#: Points within tol of the running maximum kept per trial; more ties -> enumeration of the grid.
CAND_CAP = 64

#: Pairs with |p_i - p_j| below this are not used as edges.
P_SEP = 1e-9

#: After this many lines of one trial, the bracket of line-0 positions is narrowed by bisection
#: (REFINE_ITERS halvings on each side); pays off when few lines are pruned (equal bonuses).
REFINE_AFTER = 8
REFINE_ITERS = 8

# Per-process memo of compiled kernels (never switches: it only holds what was compiled); a compiled h is
# kept on the distortion's profile (rsb_theory.profile.of).
_COMPILED: dict = {}


def _numba():
    """numba, imported on first use (it takes about a second), or None when it is not installed."""
    try:
        import numba
    except ImportError:  # pragma: no cover - numba is a dependency; kept for partial installs
        return None
    return numba


# ---------------------------------------------------------------------------
# numba's on-disk cache, stamped with every source compiled into a function
# ---------------------------------------------------------------------------


def source_stamp(*sources) -> str:
    """SHA-256 (hex) of the contents of ``sources`` (files or modules), in order."""
    digest = hashlib.sha256()
    for s in sources:
        data = Path(getattr(s, "__file__", s)).read_bytes()
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def _stamped_cache_class():
    """numba's per-function disk cache (``numba.core.caching.FunctionCache``) with the freshness
    stamp, the file that places it and its file name given by the caller."""
    from numba.core import caching

    class Locator:
        """numba's own locator (``NUMBA_CACHE_DIR``, else ``__pycache__`` beside the file, else the
        user-wide cache directory), with another freshness stamp."""

        def __init__(self, inner, stamp: str) -> None:
            self._inner, self._stamp = inner, stamp

        def __getattr__(self, name):  # get_cache_path, ensure_cache_path, get_disambiguator, _py_file
            return getattr(self._inner, name)

        def get_source_stamp(self) -> str:
            return self._stamp

    class Impl(caching.CompileResultCacheImpl):
        def __init__(self, py_func, stamp: str, anchor: str, name: str) -> None:  # noqa: D401 - numba's API
            self._lineno = py_func.__code__.co_firstlineno
            for cls in self._locator_classes:
                inner = cls.from_function(py_func, anchor)
                if inner is not None:
                    break
            else:
                raise RuntimeError(f"no writable numba cache directory for {anchor}")
            self._locator = Locator(inner, stamp)
            self._filename_base = self.get_filename_base(name, getattr(sys, "abiflags", ""))

    class Cache(caching.FunctionCache):
        def __init__(self, py_func, stamp: str, anchor: str, name: str) -> None:
            self._impl_class = lambda f: Impl(f, stamp, anchor, name)
            super().__init__(py_func)

    return Cache


def _stamped_cache(py_func, stamp: str, anchor: str, name: str):
    """The cache of :func:`_stamped_cache_class`, or None when numba's internals do not allow it (then
    the function is compiled in every process: slower, never stale)."""
    try:
        return _stamped_cache_class()(py_func, stamp, anchor, name)
    except (ImportError, AttributeError, TypeError, RuntimeError, OSError):  # pragma: no cover - other numba
        return None


def njit_cached(fn, sources=(), inline: str = "never", nrt: bool = True, nogil: bool = False):
    """``numba.njit`` of ``fn``, cached on disk under a stamp of every source compiled into it.

    numba's own cache (``njit(cache=True)``) stamps the machine code of a function with a
    hash of the file that defines it (and keys it by the function's bytecode).  Code of
    *other* files compiled into it — a jitted callee of another module, inlined or linked,
    such as :func:`_decide_one` in CE-UCB-M's loop of ``rsb_sim/policies/_ce_loop.py`` —
    is in neither, so after a change of the callee's file numba would keep loading the
    caller with the old callee.  Here the stamp is the SHA-256 of the contents of ``fn``'s
    file and of every file in ``sources`` (:func:`source_stamp`): a change to any of them
    makes the stored index stale, numba treats a stale index as empty, compiles again and
    overwrites it (no old files pile up).  The cache lives where numba puts it
    (``NUMBA_CACHE_DIR``, else ``__pycache__`` beside ``fn``'s file, else the user-wide cache
    directory); numba keys each entry by numba version, Python version, CPU and signature.
    A second process with the same sources loads the compiled function instead of
    compiling it (tested: ``tests/sim/test_compile_cache.py``).

    Parameters
    ----------
    fn : function
        Plain Python, compilable by numba.
    sources : sequence of modules or paths
        Every other file whose code is compiled into ``fn`` (callees, inlined helpers);
        numeric constants read as globals are part of the files too.
    inline : {"never", "always"}
        numba's ``inline`` option.
    nrt : bool
        False: compile without numba's reference-counted runtime (for code that allocates
        nothing; it removes the atomic reference counting of every array handed around),
        when this numba has the option.
    nogil : bool
        Release the GIL while the function runs (CE-UCB-M's loop runs on several threads).
    """
    numba = _numba()
    from numba.core import options

    opts = {"inline": inline, "nogil": nogil}
    if not nrt and hasattr(options.DefaultOptions, "_nrt"):
        opts["_nrt"] = False
    dispatcher = numba.njit(**opts)(fn)
    own = inspect.getfile(fn)
    files = [own] + [str(getattr(s, "__file__", s)) for s in sources]
    cache = _stamped_cache(fn, source_stamp(*dict.fromkeys(files)), own, f"{Path(own).stem}.{fn.__qualname__}")
    if cache is not None:
        dispatcher._cache = cache  # what njit(cache=True) sets (Dispatcher.enable_caching), with our stamp
    return dispatcher


def compiled_h(d: Distortion):
    """h compiled by numba as a C callback ``float64(float64)`` (cached on disk), or None when that fails.

    A C callback (rather than a jitted function) gives the kernel one fixed signature, so the
    kernel is compiled once and cached for every h.  The callback is compiled from the source
    that ``sympy.lambdify(u, h, modules="math")`` generates; its on-disk cache is stamped with
    the SHA-256 of that source and of the names it reads, so a second process loads it
    (about 0.5 s of compilation per distortion saved) and another h never finds it.  The
    result is checked against ``d.numeric`` at nine points; None if they differ.
    """
    from ..distortions import Distortion
    from ..profile import of

    if not isinstance(d, Distortion):  # a function with .expr and .numeric (h' of a policy): compiled, not memoised
        return _compile_h(d)
    return of(d).memo("compiled_h", lambda: _compile_h(d))


def _compile_h(d: Distortion):
    """:func:`compiled_h` without the profile's memo."""
    numba = _numba()
    if numba is None:
        return None
    import sympy as sp

    try:
        raw = sp.lambdify(U, d.expr, modules="math")
        fn = _cfunc(raw)
        probe = np.linspace(0.0, 1.0, 9)
        got = np.array([fn.ctypes(float(u)) for u in probe])
        want = d.numeric(probe)
        if not np.allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=False):
            fn = None
    except Exception:  # noqa: BLE001 - any compile or evaluation failure means: not available
        fn = None
    return fn


def _cfunc(raw):
    """``numba.cfunc("float64(float64)")(raw)``, with the on-disk cache of :func:`compiled_h`."""
    from numba.core import sigutils
    from numba.core.ccallback import CFunc

    sig = sigutils.normalize_signature("float64(float64)")
    try:
        text = inspect.getsource(raw)
    except (OSError, TypeError):  # pragma: no cover - lambdify registers its source with linecache
        text = None
    cache = None
    if text is not None:
        names = sorted(raw.__code__.co_names)
        seen = repr([(n, repr(raw.__globals__.get(n))) for n in names])
        stamp = hashlib.sha256((text + "\0" + seen).encode()).hexdigest()
        # numba rebuilds a cached function's environment from its module, by name; lambdify's
        # functions have none.  The compiled callback reads no global at run time (nopython
        # code resolves them when it is compiled), so this module stands in for it.
        raw.__module__ = __name__
        cache = _stamped_cache(raw, stamp, __file__, f"{Path(__file__).stem}.h_{stamp[:20]}")
    fn = CFunc(raw, sig, locals={}, options={})
    if cache is not None:
        fn._cache = cache  # what cfunc(cache=True) sets (CFunc.enable_caching), with our stamp
    try:
        fn.compile()
    except Exception:  # noqa: BLE001 - an unreadable cache entry: compile without the cache
        if cache is None:
            raise
        fn = CFunc(raw, sig, locals={}, options={})
        fn.compile()
    return fn


def available(d: Distortion) -> bool:
    """True when the compiled path applies to ``d``: numba present, h concave and compilable."""
    return d.shape.is_concave and compiled_h(d) is not None


def _require(d: Distortion) -> None:
    if not available(d):
        raise ArgumentError("d", "the compiled line search needs a concave h that numba can compile; "
                         f"{d.describe()} is not")


def decide(d: Distortion, grid: Grid, phat: np.ndarray, c: np.ndarray, previous: np.ndarray | None = None,
           tol: float = TIE_TOL) -> tuple[np.ndarray, np.ndarray]:
    """Exact decisions of ``argmax h(<a, phat>) + <a, c>`` over ``grid`` for a batch of trials.

    Parameters
    ----------
    d : Distortion
        Concave h (:func:`available`).
    grid : Grid
    phat : numpy.ndarray, shape (B, K)
        Means in [0, 1].
    c : numpy.ndarray, shape (B, K)
        Linear bonus per arm (L * radius for ``eq:UCB_alpha2`` with q = 1); finite.
    previous : numpy.ndarray, shape (B, K-1), optional
        Previous choice (integer coordinates), rows of -1 for none.
    tol : float

    Returns
    -------
    counts : numpy.ndarray, shape (B, K-1), int64
        The decisions.
    evaluated : numpy.ndarray, shape (B,), int64
        Objective evaluations per trial (grid size for trials decided by enumeration,
        negated so that callers can count them).
    """
    _require(d)
    from types import SimpleNamespace

    phat = np.ascontiguousarray(check_phat(phat))
    c = np.ascontiguousarray(c, dtype=float)
    if phat.shape[1] != grid.K or c.shape != phat.shape:
        raise ArgumentError("phat", f"expected shapes (B, {grid.K}) for phat and c, got {phat.shape}, {c.shape}")
    if not np.all(np.isfinite(c)):
        raise ArgumentError("c", "the bonus must be finite")
    B, K = phat.shape
    # the same checks as rsb_theory.argmax.argmax (shape, grid point or all -1)
    prev = check_previous(SimpleNamespace(B=B, K=K), grid, previous)
    prev = np.full((B, K - 1), -1, dtype=np.int64) if prev is None else np.ascontiguousarray(prev)
    out = np.empty((B, K - 1), dtype=np.int64)
    evaluated = np.empty(B, dtype=np.int64)
    _kernel()(compiled_h(d), phat, c, prev, int(grid.budget), float(grid.eps), float(grid.offset), float(tol),
              CAND_CAP, out, evaluated)
    return out, evaluated


def compiled_search():
    """The compiled search of one trial (a numba dispatcher, for compiled callers).

    ``_decide_one(h, p, c, prev, out, m, eps, offset, tol, cap, scratch) -> evaluations``
    writes the decision of ``argmax h(<a, p>) + <a, c>`` over the grid of budget m, step eps
    and offset (:class:`rsb_theory.grids.Grid`) into ``out`` (K-1 integer coordinates), with
    ``prev`` the previous choice (a first entry of -1: none), the tie tolerance ``tol``, the
    candidate cap :data:`CAND_CAP` and the work arrays of :func:`scratch`; it returns the
    number of evaluations, negated when the grid was enumerated.  h is :func:`compiled_h`.
    """
    _kernel()
    return _COMPILED["_decide_one"]


def scratch(K: int, m: int) -> tuple:
    """Work arrays of :func:`compiled_search` for K arms and grid budget m (one set per thread)."""
    _kernel()
    return _COMPILED["_scratch"](int(K), int(m), CAND_CAP)


#: Helpers inlined into :func:`_decide_one` by numba.
_INLINE = ("_choose", "_hull_edges", "_forms", "_hy", "_value", "_offer", "_sample", "_head_sums", "_line0_point", "_lex_less", "_compact",
           "_bracket", "_g", "_scan_line", "_line0_peak", "_pieces", "_x_at_line0")

#: The functions that allocate arrays; they need numba's reference-counted runtime (NRT).  The
#: search itself allocates nothing and is compiled without it, which removes the atomic reference
#: counting of every array it hands around (measured on decisions captured from CE-UCB-M runs,
#: K = 2 and 4: 1.5-1.8x faster per decision; same decisions).
_ALLOCATING = ("_scratch", "_decide_all")


def _kernel():
    """The compiled kernel (compiled on first use, then loaded from the on-disk cache).

    The functions below call each other by their global names, so each name is rebound to
    its numba dispatcher before anything is compiled.
    """
    if not _COMPILED:
        g = globals()
        for name in ("_choose", "_hull_edges", "_forms", "_hy", "_value", "_lex_less", "_compact", "_offer", "_line0_point", "_sample",
                     "_line0_peak", "_head_sums", "_x_at_line0", "_pieces", "_bracket", "_g", "_refine_end",
                     "_refine", "_scan_line", "_grid_pass", "_enumerate", "_next_point", "_scratch", "_decide_one",
                     "_decide_all"):
            inline = "always" if name in _INLINE else "never"
            _COMPILED[name] = g[name] = njit_cached(g[name], inline=inline, nrt=name in _ALLOCATING)
    return _COMPILED["_decide_all"]


# ---------------------------------------------------------------------------
# Compiled code (plain Python below, compiled by numba.njit; readable as Python)
# ---------------------------------------------------------------------------


def _forms(n, K, eps, off, p, c, clamp):
    """(x, y) = (<a, p>, <a, c>) at explicit coordinates n (K-1,), summed over arms in order; the
    last coordinate is 1 - sum of the others, clipped at 0 when ``clamp`` (as points_of does)."""
    s = 0.0
    x = 0.0
    y = 0.0
    for k in range(K - 1):
        a = eps * (n[k] + off)
        s += a
        x += a * p[k]
        y += a * c[k]
    last = 1.0 - s
    if clamp and last < 0.0:
        last = 0.0
    return x + last * p[K - 1], y + last * c[K - 1]


def _hy(h, x, y):
    """h(clip(x, 0, 1)) + y."""
    if x < 0.0:
        x = 0.0
    elif x > 1.0:
        x = 1.0
    return h(x) + y


def _value(h, n, K, eps, off, p, c):
    """f at explicit coordinates n (K-1,), as rsb_theory.argmax.values computes it."""
    x, y = _forms(n, K, eps, off, p, c, True)
    return _hy(h, x, y)


def _lex_less(a, b, n):
    for k in range(n):
        if a[k] != b[k]:
            return a[k] < b[k]
    return False


def _scratch(K, m, cap):
    """Work arrays of :func:`_decide_one` (allocated once per batch)."""
    K1 = K - 1
    return (np.zeros(K1, dtype=np.int64), np.zeros(K1), np.empty(cap), np.empty((cap, K1), dtype=np.int64),
            np.empty(m + 1), np.zeros(m + 1, dtype=np.bool_), np.empty(8), np.empty(8), np.empty(8), np.empty(K),
            np.zeros(K, dtype=np.int64), np.empty(K, dtype=np.int64), np.empty((K * K, 2), dtype=np.int64))


def _decide_all(h, P, C, PREV, m, eps, off, tol, cap, out, evaluated):
    B, K = P.shape
    sc = _scratch(K, m, cap)
    for b in range(B):
        evaluated[b] = _decide_one(h, P[b], C[b], PREV[b], out[b], m, eps, off, tol, cap, sc)


def _decide_one(h, p, c, prev, out, m, eps, off, tol, cap, sc):
    """The decision of one trial into ``out`` (K-1 coordinates); returns the number of evaluations
    (negated when the grid was enumerated)."""
    n, nf, cand_v, cand_n, samples, have, piece_a, piece_b, piece_u, d, w, others, hull = sc
    K = p.shape[0]
    K1 = K - 1
    count = 0
    M = -np.inf  # running maximum
    nc = 0  # candidates within tol of M
    overflow = False
    have_prev = prev[0] >= 0
    vprev = -np.inf
    if have_prev:
        for k in range(K1):
            n[k] = prev[k]
        vprev = _value(h, n, K, eps, off, p, c)
        count += 1
        M = vprev
    cmax = 0.0
    pmin = p[0]
    pmax = p[0]
    for k in range(K):
        cmax = max(cmax, abs(c[k]))
        pmin = min(pmin, p[k])
        pmax = max(pmax, p[k])
    # ---- edges of the upper hull of the points (p_k, c_k)
    nh = _hull_edges(p, c, cmax, hull)
    if nh == 0:
        overflow = True  # all means equal (or no usable edge): enumerate
    else:
        # the maximum of G = h + upper hull lies on an edge next to the best hull vertex; of those
        # edges take the one on whose side G increases (a heuristic: any hull edge gives exact results)
        best_e = 0  # the only edge (K = 2, or all other points below it)
        if nh > 1:
            for k in range(K):  # d holds h(p_k) + c_k until the edge is chosen
                d[k] = h(min(max(p[k], 0.0), 1.0)) + c[k]
            gbest = -np.inf
            vb = -1
            for e in range(nh):
                for side in range(2):
                    k = hull[e, side]
                    if d[k] > gbest:
                        gbest = d[k]
                        vb = k
            best_g = -np.inf
            for e in range(nh):
                i = hull[e, 0]
                j = hull[e, 1]
                if i != vb and j != vb:
                    continue
                o = j if i == vb else i
                beta = (c[i] - c[j]) / (p[i] - p[j])
                alpha = c[i] - beta * p[i]
                x = p[vb] + 1e-3 * (p[o] - p[vb])
                g = h(min(max(x, 0.0), 1.0)) + alpha + beta * x
                if g > best_g:
                    best_g = g
                    best_e = e
        i = hull[best_e, 0]
        j = hull[best_e, 1]
        beta = (c[i] - c[j]) / (p[i] - p[j])
        alpha = c[i] - beta * p[i]
        scale = 1.0 + abs(alpha) + abs(beta) + cmax
        dneg = 0.0
        for k in range(K):
            if k == i or k == j:
                d[k] = 0.0
                continue
            dk = alpha + beta * p[k] - c[k]
            if dk < 0.0:
                dneg = max(dneg, -dk)
                dk = 0.0
            d[k] = dk
        # ---- line 0 (n_i = t, n_j = m - t, the other arms at 0): its peak by bisection, then a window
        for t in range(m + 1):
            have[t] = False
        start = -1  # the previous choice's line-0 position t + tau_w (fewer evaluations when it is near the peak)
        prev_pos = np.nan
        if have_prev and m > 0:
            pos = 0.0
            rest = m
            on_line0 = True
            for k in range(K):
                nk = prev[k] if k < K1 else rest
                rest -= nk
                if k == i:
                    pos += nk
                elif k != j:
                    pos += nk * (p[k] - p[j]) / (p[i] - p[j])
                    on_line0 = on_line0 and nk == 0
            start = min(max(int(math.floor(pos + 0.5)), 0), m - 1)
            prev_pos = pos
            if on_line0:  # the previous choice is the point pos of line 0: its value is that sample
                samples[int(pos)] = vprev  # (the same coordinates, so the same arithmetic as _sample)
                have[int(pos)] = True
        lo, M, nc, ne, ok = _line0_peak(h, n, i, j, start, K, m, eps, off, p, c, samples, have, cand_v, cand_n, M,
                                        nc, cap, tol)
        count += ne
        overflow = overflow or not ok
        # the window around the peak: two samples on each side (the inner-piece bounds of _pieces for
        # the other lines); with no other lines (K = 2) one on each side bounds the rest of line 0
        wd = 2 if K > 2 else 1
        ka = max(0, lo - wd)
        kb = min(m, lo + wd)
        M, nc, ne, ok = _sample(h, n, i, j, ka, kb, K, m, eps, off, p, c, samples, have, cand_v, cand_n, M, nc, cap,
                                tol)
        count += ne
        overflow = overflow or not ok
        s = eps * (p[i] - p[j])
        x00 = _x_at_line0(n, i, j, K, m, eps, off, p)
        tA = (pmin - x00) / s
        tB = (pmax - x00) / s
        if tA > tB:
            tA, tB = tB, tA
        tA = min(tA, 0.0)
        tB = max(tB, float(m))
        vmax_abs = 0.0
        for t in range(ka, kb + 1):
            vmax_abs = max(vmax_abs, abs(samples[t]))
        guard = 1e-11 * (1.0 + vmax_abs + scale) * (1.0 + max(1.0, tB - kb, ka - tA)) + 2.0 * dneg
        npc = _pieces(samples, ka, kb, tA, tB, piece_a, piece_b, piece_u)
        top = -np.inf
        for q in range(npc):
            top = max(top, piece_u[q])
        top += guard
        # ---- the other lines: off-edge counts w, depth first, last coordinate fastest, carry when pruned
        no = 0
        for k in range(K):
            w[k] = 0
            if k != i and k != j:
                others[no] = k
                no += 1
        # per unit of w_k: delta grows by eps d_k, the line-0 position by eps (p_k - p_j) / s
        kstar = ka
        for t in range(ka, kb + 1):
            if samples[t] > samples[kstar]:
                kstar = t
        # a line-0 position where g >= M (the refinement bisects towards it): the best sample, or the
        # previous choice's position when it holds the maximum (g(t + tau_w) >= its value, delta_w >= delta_0)
        best_pos = np.nan
        if samples[kstar] >= M:
            best_pos = float(kstar)
        elif have_prev and vprev >= M:
            best_pos = prev_pos
        visits = 0
        refined = False
        ref_lo = -np.inf
        ref_hi = np.inf
        for k in range(K1):
            n[k] = 0
            nf[k] = 0.0
        # outer odometer over the off-edge arms others[0 .. no-2] (last fastest, carry when pruned),
        # inner loop over the last one, others[no-1], whose lines are visited in a tight loop
        nhead = no - 1
        first = True
        # positions tau of the lines are at most about m / |s| * (max p - min p) in size
        slack = 1e-7 * (1.0 + (m + 1) * (pmax - pmin) * eps / abs(s) + m)
        while not overflow and no > 0:
            if not first:
                lvl = nhead - 1
                while lvl >= 0:
                    k = others[lvl]
                    w[k] += 1
                    tot_o, delta_o, tau_o = _head_sums(w, others, nhead, d, p, j, eps, s)
                    if tot_o <= m and M - tol + delta_o <= top:
                        break
                    w[k] = 0
                    lvl -= 1
                if lvl < 0:
                    break
            first = False
            tot_o, delta_o, tau_o = _head_sums(w, others, nhead, d, p, j, eps, s)
            for q in range(nhead):
                if others[q] < K1:
                    n[others[q]] = w[others[q]]
            kl = others[no - 1]
            ud = eps * d[kl]
            ut = eps * (p[kl] - p[j]) / s
            wl = 1 if tot_o == 0 else 0
            while True:
                tot = tot_o + wl
                if tot > m:
                    break
                delta = delta_o + wl * ud
                if M - tol + delta > top:
                    break  # d >= 0: larger wl only raises delta
                tau = tau_o + wl * ut
                visits += 1
                if visits == REFINE_AFTER:
                    # many lines: narrow the bracket of theta = M - tol - guard (delta = 0) once; it holds
                    # every later line, whose theta is larger.  g(best_pos) >= M (a point of line w at
                    # line-0 position t + tau has value g(t + tau) - (delta_w - delta_0) <= g(t + tau)).
                    theta0 = M - tol - guard
                    lo0, hi0 = _bracket(theta0, npc, piece_a, piece_b, piece_u)
                    if lo0 <= best_pos <= hi0:
                        ref_lo, ref_hi, ne = _refine(h, nf, i, j, K, m, eps, off, p, c, lo0, hi0, best_pos,
                                                     theta0, REFINE_ITERS)
                        count += ne
                        refined = True
                if refined:
                    lo_t = ref_lo
                    hi_t = ref_hi
                else:
                    lo_t, hi_t = _bracket(M - tol - guard + delta, npc, piece_a, piece_b, piece_u)
                R = m - tot
                if lo_t <= hi_t:
                    tb = int(math.floor(hi_t - tau + slack))
                    ta = int(math.ceil(lo_t - tau - slack))
                    if tb > R:
                        tb = R
                    if ta < 0:
                        ta = 0
                    if ta <= tb:
                        if kl < K1:
                            n[kl] = wl
                        M, nc, ok, ne, pos = _scan_line(h, n, i, j, R, tau, lo_t, hi_t, -1, -1, slack, K, eps, off,
                                                        p, c, cand_v, cand_n, M, nc, cap, tol)
                        count += ne
                        if pos == pos:
                            best_pos = pos
                        if not ok:
                            overflow = True
                            break
                wl += 1
            if kl < K1:
                n[kl] = 0
            if nhead == 0:
                break
        # ---- the rest of line 0 (outside the sampled window)
        if not overflow:
            for k in range(K1):
                n[k] = 0
            lo_t, hi_t = _bracket(M - tol - guard, npc, piece_a, piece_b, piece_u)
            M, nc, ok, ne, pos = _scan_line(h, n, i, j, m, 0.0, lo_t, hi_t, ka, kb, 1e-7, K, eps, off, p, c,
                                            cand_v, cand_n, M, nc, cap, tol)
            count += ne
            overflow = not ok
    if overflow:
        return -_enumerate(h, K, m, eps, off, p, c, tol, n, have_prev, prev, out)
    _choose(have_prev, vprev, prev, M, nc, cand_v, cand_n, K1, tol, out)
    return count


def _choose(have_prev, vprev, prev, M, nc, cand_v, cand_n, K1, tol, out):
    """The rule of ARCHITECTURE.md into out: the previous choice while v(prev) >= M - tol, else the first
    candidate in lexicographic order with v >= M - tol (every point within tol of M is a candidate)."""
    if have_prev and vprev >= M - tol:
        for k in range(K1):
            out[k] = prev[k]
        return 0
    pick = -1
    for q in range(nc):
        if cand_v[q] >= M - tol:
            if pick < 0 or _lex_less(cand_n[q], cand_n[pick], K1):
                pick = q
    for k in range(K1):
        out[k] = cand_n[pick, k]
    return 0


def _hull_edges(p, c, cmax, hull):
    """The pairs (i, j), i < j, with p_i != p_j whose line lies above every point (p_k, c_k) (up to a
    rounding tolerance): the edges of the upper hull (collinear points give every pair), into hull.
    Returns their number."""
    K = p.shape[0]
    nh = 0
    for i in range(K):
        for j in range(i + 1, K):
            if abs(p[i] - p[j]) < P_SEP:
                continue
            beta = (c[i] - c[j]) / (p[i] - p[j])
            alpha = c[i] - beta * p[i]
            dtol = 1e-13 * (1.0 + abs(alpha) + abs(beta) + cmax)
            ok = True
            for k in range(K):
                if k != i and k != j and alpha + beta * p[k] - c[k] < -dtol:
                    ok = False
                    break
            if ok:
                hull[nh, 0] = i
                hull[nh, 1] = j
                nh += 1
    return nh


def _offer(v, n, K1, cand_v, cand_n, M, nc, cap, tol):
    """Record a value: the running maximum M and the nc candidates within tol of it.

    Returns (M, nc, ok); ok is False when more than ``cap`` candidates tie.
    """
    if v < M - tol:
        return M, nc, True
    if v > M:
        M = v
        nc = _compact(cand_v, cand_n, nc, v - tol, K1)
    if nc >= cap:
        return M, nc, False
    cand_v[nc] = v
    for k in range(K1):
        cand_n[nc, k] = n[k]
    return M, nc + 1, True


def _sample(h, n, i, j, t0, t1, K, m, eps, off, p, c, samples, have, cand_v, cand_n, M, nc, cap, tol):
    """Evaluate line 0 at t0..t1 where not yet done (samples, have) and offer the values.

    Returns (M, nc, evaluations, ok)."""
    K1 = K - 1
    ne = 0
    ok = True
    for t in range(t0, t1 + 1):
        if not have[t]:
            _line0_point(n, i, j, t, K1, m)
            v = _value(h, n, K, eps, off, p, c)
            ne += 1
            samples[t] = v
            have[t] = True
            M, nc, good = _offer(v, n, K1, cand_v, cand_n, M, nc, cap, tol)
            ok = ok and good
    return M, nc, ne, ok


def _line0_peak(h, n, i, j, start, K, m, eps, off, p, c, samples, have, cand_v, cand_n, M, nc, cap, tol):
    """The first t of line 0 with samples[t + 1] <= samples[t] (m if none): its discrete peak when
    the samples are concave.  Bisection, after moving from ``start`` (-1: none) to bracket it: one
    step, then steps doubling.

    Only the number of evaluations depends on ``start``: the bounds of :func:`_pieces` on the
    window around the result hold wherever it is.  Returns (t, M, nc, evaluations, ok).
    """
    lo = 0
    hi = m
    count = 0
    ok = True
    phase = 2 if 0 <= start < m else 0  # 2: probe start; 1 / -1: gallop right / left; 0: bisect
    step = 1
    moves = 0
    while lo < hi:
        if phase == 2:
            u = start
        elif phase == 1:
            u = min(lo + step - 1, hi - 1)
        elif phase == -1:
            u = max(hi - step, lo)
        else:
            u = (lo + hi) // 2
        M, nc, ne, good = _sample(h, n, i, j, u, u + 1, K, m, eps, off, p, c, samples, have, cand_v, cand_n, M, nc,
                                  cap, tol)
        count += ne
        ok = ok and good
        rising = samples[u + 1] > samples[u]
        if rising:
            lo = u + 1
        else:
            hi = u
        if phase == 2:
            phase = 1 if rising else -1
        elif phase != 0:
            if rising == (phase == 1):
                moves += 1
                if moves >= 2:  # walk one step at a time first (the peak moves little between steps)
                    step *= 2
            else:
                phase = 0  # bracketed
    return lo, M, nc, count, ok


def _head_sums(w, others, nhead, d, p, j, eps, s):
    """(total count, delta_w - delta_0, position shift tau) of the off-edge counts others[:nhead]."""
    tot = 0
    delta = 0.0
    tau = 0.0
    for q in range(nhead):
        kk = others[q]
        tot += w[kk]
        delta += eps * w[kk] * d[kk]
        tau += eps * w[kk] * (p[kk] - p[j]) / s
    return tot, delta, tau


def _line0_point(n, i, j, t, K1, m):
    """Set n to the point t of line 0: n_i = t, n_j = m - t, the other explicit coordinates 0."""
    for k in range(K1):
        n[k] = 0
    if i < K1:
        n[i] = t
    if j < K1:
        n[j] = m - t


def _pieces(v, ka, kb, tA, tB, pa, pb, pu):
    """Upper bounds pu of a concave g sampled at t = ka..kb on the pieces [pa, pb].

    Pieces: [tA, ka], [k, k+1] for ka <= k < kb, [kb, tB].  On [k, k+1] g lies below the
    secant of (k-1, k) extended right and below the secant of (k+1, k+2) extended left, so
    below the larger of the samples and the minimum of the two lines, whose largest value is
    where they cross (used when the samples' slopes decrease, as they do for concave g up
    to rounding; else the lines' values at the piece's ends); beyond the window below the
    end secants (a concave function lies below its secants outside their interval).  A piece
    without a secant gets +inf.  Returns the number of pieces.
    """
    q = 0
    pa[q] = tA
    pb[q] = float(ka)
    pu[q] = max(v[ka], v[ka] + (v[ka] - v[ka + 1]) * (ka - tA)) if kb > ka else np.inf
    q += 1
    for k in range(ka, kb):
        u = np.inf
        if k - 1 >= ka:
            u = min(u, max(v[k], 2.0 * v[k] - v[k - 1]))
        if k + 2 <= kb:
            u = min(u, max(v[k + 1], 2.0 * v[k + 1] - v[k + 2]))
        if k - 1 >= ka and k + 2 <= kb:
            s1 = v[k] - v[k - 1]
            s2 = v[k + 1] - v[k]
            s3 = v[k + 2] - v[k + 1]
            if s1 >= s2 >= s3 and s1 > s3:
                # g lies below both secants on [k, k+1], so below their minimum, which peaks
                # where they cross, at t = k + (s2 - s3) / (s1 - s3) in [k, k+1]
                u = min(u, v[k] + s1 * ((s2 - s3) / (s1 - s3)))
        pa[q] = float(k)
        pb[q] = float(k + 1)
        pu[q] = max(u, v[k], v[k + 1])
        q += 1
    pa[q] = float(kb)
    pb[q] = tB
    pu[q] = max(v[kb], v[kb] + (v[kb] - v[kb - 1]) * (tB - kb)) if kb > ka else np.inf
    return q + 1


def _bracket(theta, npc, pa, pb, pu):
    """[lo, hi]: the union of the pieces whose bound reaches theta (lo > hi: none)."""
    lo = np.inf
    hi = -np.inf
    for q in range(npc):
        if pu[q] >= theta:
            lo = min(lo, pa[q])
            hi = max(hi, pb[q])
    return lo, hi


def _g(h, nf, i, j, t, K, m, eps, off, p, c):
    """g at a real position t of line 0: the objective at n_i = t, n_j = m - t (real counts),
    extended linearly beyond the simplex (no clipping of the last coordinate: positions outside
    [0, m] stand for points of other lines, whose x lies in [min p, max p])."""
    K1 = K - 1
    if i < K1:
        nf[i] = t
    if j < K1:
        nf[j] = m - t
    x, y = _forms(nf, K, eps, off, p, c, False)
    return _hy(h, x, y)


def _refine(h, nf, i, j, K, m, eps, off, p, c, lo, hi, top_t, theta, iters):
    """Narrow [lo, hi] (line-0 positions) around top_t, where g(top_t) >= theta, by bisection.

    Concavity: if g(a) < theta <= g(top_t) with a < top_t, every t < a has g(t) < g(a) < theta
    (and symmetrically on the right), so the returned interval still holds {g >= theta}.
    Returns (lo, hi, evaluations).
    """
    a, na = _refine_end(h, nf, i, j, K, m, eps, off, p, c, lo, top_t, theta, iters)
    z, nz = _refine_end(h, nf, i, j, K, m, eps, off, p, c, hi, top_t, theta, iters)
    return a, z, na + nz


def _refine_end(h, nf, i, j, K, m, eps, off, p, c, end, top_t, theta, iters):
    """One end of :func:`_refine`: a point between ``end`` and ``top_t`` (``end`` itself when
    g(end) >= theta) beyond which g < theta; returns (point, evaluations)."""
    if not (np.isfinite(end) and end != top_t):
        return end, 0
    if _g(h, nf, i, j, end, K, m, eps, off, p, c) >= theta:
        return end, 1
    b = top_t
    for _ in range(iters):
        mid = 0.5 * (end + b)
        if _g(h, nf, i, j, mid, K, m, eps, off, p, c) < theta:
            end = mid
        else:
            b = mid
    return end, 1 + iters


def _scan_line(h, n, i, j, R, tau, lo, hi, skip_a, skip_b, slack, K, eps, off, p, c, cand_v, cand_n, M, nc, cap,
               tol):
    """Evaluate the points t = 0..R of a line (n_i = t, n_j = R - t, other arms as in n) whose
    line-0 position t + tau lies in [lo, hi] (widened by ``slack``); t in [skip_a, skip_b] is skipped.

    Returns (M, nc, ok, evaluations, pos): ok is False on candidate overflow; pos is the line-0
    position t + tau of a point that raised M (nan if none did).
    """
    pos = np.nan
    if not (lo <= hi):
        return M, nc, True, 0, pos
    t_lo = max(0, int(math.ceil(lo - tau - slack)))
    t_hi = min(R, int(math.floor(hi - tau + slack)))
    K1 = K - 1
    ne = 0
    for t in range(t_lo, t_hi + 1):
        if skip_a <= t <= skip_b:
            continue
        if i < K1:
            n[i] = t
        if j < K1:
            n[j] = R - t
        v = _value(h, n, K, eps, off, p, c)
        ne += 1
        if v > M:
            pos = t + tau
        M, nc, ok = _offer(v, n, K1, cand_v, cand_n, M, nc, cap, tol)
        if not ok:
            return M, nc, False, ne, pos
    return M, nc, True, ne, pos


def _compact(cand_v, cand_n, ncand, thr, K1):
    keep = 0
    for q in range(ncand):
        if cand_v[q] >= thr:
            cand_v[keep] = cand_v[q]
            for k in range(K1):
                cand_n[keep, k] = cand_n[q, k]
            keep += 1
    return keep


def _x_at_line0(n, i, j, K, m, eps, off, p):
    """x = <a, p> at t = 0 of line 0 (n_i = 0, n_j = m, the others 0), summed as _value does."""
    for k in range(K - 1):
        n[k] = 0
    if j < K - 1:
        n[j] = m
    return _forms(n, K, eps, off, p, p, True)[0]


def _enumerate(h, K, m, eps, off, p, c, tol, n, have_prev, prev, out_row):
    """Plain enumeration in lexicographic order (two passes); returns the number of points."""
    M, total = _grid_pass(h, n, K, m, eps, off, p, c, np.inf, out_row)
    if have_prev and _value(h, prev, K, eps, off, p, c) >= M - tol:
        for k in range(K - 1):
            out_row[k] = prev[k]
        return total
    _grid_pass(h, n, K, m, eps, off, p, c, M - tol, out_row)
    return total


def _grid_pass(h, n, K, m, eps, off, p, c, thr, out_row):
    """Walk the grid in lexicographic order; stop at the first value >= thr (written to out_row).

    Returns (the largest value seen, the number of points seen).
    """
    K1 = K - 1
    M = -np.inf
    total = 0
    for k in range(K1):
        n[k] = 0
    while True:
        v = _value(h, n, K, eps, off, p, c)
        total += 1
        M = max(M, v)
        if v >= thr:
            for k in range(K1):
                out_row[k] = n[k]
            break
        if not _next_point(n, K1, m):
            break
    return M, total


def _next_point(n, K1, m):
    """Next integer vector with sum <= m in lexicographic order; False after the last."""
    tot = 0
    for k in range(K1):
        tot += n[k]
    k = K1 - 1
    while k >= 0:
        if tot < m:
            n[k] += 1
            return True
        tot -= n[k]
        n[k] = 0
        k -= 1
    return False
