"""Table 1 in powers of varpi(T) = sqrt(log T / T): formatting, parsing and comparing printed cells.

In varpi notation ``varpi(T)^e = T^(-e/2) (log T)^(e/2)`` and
``varpi(T^gamma)^e = gamma^(e/2) T^(-gamma e/2) (log T)^(e/2)``, so the
exponents (a, b) of T and log T determine both the exponent e and the argument
(``T`` or ``T^gamma``).  Printed cells are parsed by the project's one safe
parser (:func:`rsb_theory.expressions.to_sympy`, with juxtaposition read as a
product, as the paper writes ``varpi^(2 kappa)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from ..expressions import to_sympy
from .bounds import etc_bound_eps
from .exponents import etc_rate, gamma_E, kappa, log_derivative, same, ucb_rate, ucb_side_condition
from .symbols import T, beta, ell, gamma_sym, kappa_sym, q, r

__all__ = ["varpi", "varpi_form", "VarpiIdentity", "etc_varpi_identity", "TableRates", "table_rates",
           "format_varpi", "parse_varpi", "RateComparison", "same_rate", "compare_cell"]

# Aliases for functions whose parameters shadow the symbol names.
_Q, _R, _BETA = q, r, beta
_ARGUMENTS = ("T", "T^gamma")


def varpi(x: sp.Expr) -> sp.Expr:
    """varpi(x) = sqrt(log x / x) (caption of ``table:table_regrets``).

    Returns
    -------
    sympy.Expr
    """
    x = sp.sympify(x)
    return sp.sqrt(sp.log(x) / x)


def varpi_form(rate: sp.Expr, gamma_value: sp.Expr = gamma_sym) -> tuple[sp.Expr, str]:
    """Write a rate ~ T^a (log T)^b as varpi(T)^e or varpi(T^gamma)^e.

    The notation of ``table:table_regrets`` and
    ``table:literature_comparison``.

    varpi(T)^e requires e = -2a = 2b; varpi(T^gamma)^e requires
    e = -2a/gamma = 2b.

    Parameters
    ----------
    rate : sympy.Expr
    gamma_value : sympy.Expr, optional
        The value of gamma in the argument T^gamma.

    Returns
    -------
    (sympy.Expr, str)
        Exponent and argument (``"T"`` or ``"T^gamma"``).

    Raises
    ------
    ValueError
        If the rate is of neither form.
    """
    a = log_derivative(rate, T)
    b = log_derivative(rate, ell)
    if same(-2 * a, 2 * b):
        return sp.simplify(2 * b), "T"
    if same(-2 * a / gamma_value, 2 * b):
        return sp.simplify(2 * b), "T^gamma"
    raise ValueError(f"rate T^({a}) (log T)^({b}) is not a power of varpi(T) or varpi(T^gamma)")


@dataclass(frozen=True)
class VarpiIdentity:
    """[log T / T^gamma]^p = (varpi(T^gamma)^2 / gamma)^p, p = q r / (2 beta).

    Attributes
    ----------
    lhs, rhs : sympy.Expr
    base_difference : sympy.Expr
        Simplified log T/T^gamma - varpi(T^gamma)^2/gamma (zero).
    holds : bool
    varpi_exponent : sympy.Expr
        2 p = q r / beta.
    """

    lhs: sp.Expr
    rhs: sp.Expr
    base_difference: sp.Expr
    holds: bool
    varpi_exponent: sp.Expr


def etc_varpi_identity(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> VarpiIdentity:
    """Rewrite the rate of ``theorem:RS-ETC-M`` in varpi(T^gamma).

    Returns
    -------
    VarpiIdentity
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    p = q * r / (2 * beta)
    g = gamma_sym
    base_l = sp.log(T) / T**g
    base_r = varpi(T**g) ** 2 / g
    diff = sp.simplify(sp.expand_log(base_l - base_r, force=True))
    return VarpiIdentity(
        lhs=base_l**p,
        rhs=base_r**p,
        base_difference=diff,
        holds=diff == 0,
        varpi_exponent=sp.simplify(2 * p),
    )


@dataclass(frozen=True)
class TableRates:
    """One row of ``table:table_regrets`` re-derived, in powers of varpi.

    Attributes
    ----------
    ucb_exponent : sympy.Expr
        e with R^U = O(varpi(T)^e) (``corollary:RS-UCB-M``): 2 r kappa.
    etc_exponent : sympy.Expr
        e with R^E = O(varpi(arg)^e).
    etc_argument : str
        ``"T"`` (solitary optimum) or ``"T^gamma"`` (mixture).
    ucb_condition : sympy.Basic
        r <= beta + q/2, under which ``ucb_exponent`` is valid.
    """

    ucb_exponent: sp.Expr
    etc_exponent: sp.Expr
    etc_argument: str
    ucb_condition: sp.Basic = sp.true


def table_rates(q: sp.Expr, r: sp.Expr, beta: sp.Expr, solitary: bool) -> TableRates:
    """Re-derive the two regret cells of ``table:table_regrets``.

    * UCB: ``ucb_rate(q, r, beta)`` -> varpi(T)^(2 r kappa).
    * ETC, solitary optimum: the optimal vertex lies on the grid
      ``eq:etc_discrete_set``, so Delta(eps) = 0 and Delta_min does not shrink
      for a fixed eps; the regret is the discrete regret of
      ``theorem: ETC upper bound`` ~ (log T / T)^q = varpi(T)^(2q).
    * ETC, mixture: ``etc_rate(q, r, beta)`` = [log T/T^gamma]^(qr/(2 beta))
      -> varpi(T^gamma)^(q r / beta) (see :func:`etc_varpi_identity`).

    Parameters
    ----------
    q, r, beta : sympy.Expr or number
        Hölder exponents and gap exponent (``table:table_risks``); ``beta``
        may be a Symbol when unknown.
    solitary : bool
        Whether the optimal policy is a single arm.

    Returns
    -------
    TableRates
    """
    return _table_rates(*map(sp.sympify, (q, r, beta)), bool(solitary))


@lru_cache(maxsize=None)
def _table_rates(q: sp.Expr, r: sp.Expr, beta: sp.Expr, solitary: bool) -> TableRates:
    """:func:`table_rates` on sympified arguments, cached (a pure function of them; the limits are slow)."""
    ucb_e, ucb_arg = varpi_form(ucb_rate(q, r, beta))
    if ucb_arg != "T":  # pragma: no cover - (log T/T)^(r kappa) is always varpi(T)-form
        raise ArithmeticError("UCB rate is not a power of varpi(T)")
    if solitary:
        disc = etc_bound_eps().discrete_regret.subs(_Q, q)
        etc_e, etc_arg = varpi_form(disc)
    else:
        etc_e, etc_arg = varpi_form(etc_rate(q, r, beta), gamma_value=gamma_E(q, r, beta))
    return TableRates(
        ucb_exponent=sp.simplify(ucb_e),
        etc_exponent=sp.simplify(etc_e),
        etc_argument=etc_arg,
        ucb_condition=ucb_side_condition(q, r, beta),
    )


def format_varpi(exponent: sp.Expr, argument: str = "T") -> str:
    """Format varpi(argument)^exponent, e.g. ``"varpi^(1/6)"``, ``"varpi^(1/beta)(T^gamma)"``.

    Cells in the notation of ``table:table_regrets``; inverse of
    :func:`parse_varpi`.

    Parameters
    ----------
    exponent : sympy.Expr
    argument : {"T", "T^gamma"}

    Returns
    -------
    str
    """
    if argument not in _ARGUMENTS:
        raise ValueError(f"argument must be one of {_ARGUMENTS}")
    e = sp.simplify(sp.sympify(exponent))
    if e == 1:
        core = "varpi"
    elif (e.is_Integer and e > 0) or e.is_Symbol:
        core = f"varpi^{e}"
    else:
        core = f"varpi^({e})"
    return core if argument == "T" else f"{core}({argument})"


#: The names a printed exponent or argument may use, and what they stand for.
_PARSE_SYMBOLS = {
    "kappa": kappa_sym,
    "beta": beta,
    "gamma": gamma_sym,
    "q": q,
    "r": r,
    "T": T,
}


def _balanced(text: str, i: int) -> int:
    """Index just past the parenthesis group opening at text[i] == '('."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    raise ValueError(f"unbalanced parentheses in {text!r}")


def _parse(text: str) -> sp.Expr:
    """An exponent or argument of a printed cell, by the one safe parser (only the names of ``_PARSE_SYMBOLS``)."""
    return to_sympy(text, "varpi cell", _PARSE_SYMBOLS, juxtaposition=True)


def parse_varpi(text: str) -> tuple[sp.Expr, str]:
    """Parse a printed varpi cell into (exponent, argument).

    For the cells of ``table:table_regrets`` and
    ``table:literature_comparison``.

    Accepts ``"varpi"``, ``"varpi^2"``, ``"varpi^(2 kappa)"``,
    ``"varpi^(1/(2 beta))(T^gamma)"``, the output of :func:`format_varpi`,
    and light LaTeX (``\\varpi^{1/2}(T)``, ``$O(...)$`` wrappers).  Exponents
    are in the symbols ``kappa`` (:data:`kappa_sym`), ``beta``, ``q``, ``r``;
    juxtaposition is multiplication with the usual precedence, so the
    paper's ``1/2\\beta`` reads as beta/2 — write ``1/(2 beta)``.

    Parameters
    ----------
    text : str

    Returns
    -------
    (sympy.Expr, str)
        Exponent and argument ``"T"`` or ``"T^gamma"``.
    """
    t = text.strip().replace("$", "")
    t = re.sub(r"\\(varpi|kappa|beta|gamma)", r"\1", t)
    t = t.replace("{", "(").replace("}", ")").replace("\\", "")
    m = re.fullmatch(r"O\s*\((.*)\)", t)
    if m:
        t = m.group(1).strip()
    if not t.startswith("varpi"):
        raise ValueError(f"not a varpi cell: {text!r}")
    i = len("varpi")
    exponent: sp.Expr = sp.Integer(1)
    if i < len(t) and t[i] == "^":
        i += 1
        if i < len(t) and t[i] == "(":
            j = _balanced(t, i)
            exponent = _parse(t[i + 1 : j - 1])
            i = j
        else:
            m = re.match(r"[0-9.]+|[A-Za-z]+", t[i:])
            if not m:
                raise ValueError(f"missing exponent in {text!r}")
            exponent = _parse(m.group(0))
            i += m.end()
    rest = t[i:].strip()
    argument = "T"
    if rest:
        if not rest.startswith("(") or _balanced(rest, 0) != len(rest):
            raise ValueError(f"cannot parse argument {rest!r} in {text!r}")
        arg = _parse(rest[1:-1])
        if arg == T:
            argument = "T"
        elif arg == T**gamma_sym:
            argument = "T^gamma"
        else:
            raise ValueError(f"argument must be T or T^gamma, got {arg}")
    return exponent, argument


@dataclass(frozen=True)
class RateComparison:
    """Outcome of comparing a printed exponent with a derived one.

    Attributes
    ----------
    equal : bool
        Exponents equal (and arguments, when compared) after kappa -> kappa(q, beta).
    difference : sympy.Expr
        Simplified printed - derived (0 when the exponents agree).
    argument_equal : bool
        True unless :func:`compare_cell` found different arguments.

    ``bool(comparison)`` is ``equal``.
    """

    equal: bool
    difference: sp.Expr
    argument_equal: bool = True

    def __bool__(self) -> bool:
        return self.equal


def same_rate(
    printed_exponent: sp.Expr, derived_exponent: sp.Expr, q: sp.Expr, r: sp.Expr, beta: sp.Expr = beta
) -> RateComparison:
    """Decide symbolically whether a printed varpi exponent equals a derived one.

    The symbol kappa in ``printed_exponent`` is replaced by
    kappa(q, beta) = (2 beta/q + 2)^-1 (``corollary:RS-UCB-M``).

    Parameters
    ----------
    printed_exponent, derived_exponent : sympy.Expr
    q, r : sympy.Expr or number
    beta : sympy.Expr or number, optional
        Defaults to the symbol ``beta`` (unknown beta).

    Returns
    -------
    RateComparison
    """
    q_, r_, b_ = map(sp.sympify, (q, r, beta))
    subs = {kappa_sym: kappa(q_, r_, b_), _Q: q_, _R: r_, _BETA: b_}
    p = sp.sympify(printed_exponent).subs(subs)
    d = sp.sympify(derived_exponent).subs(subs)
    diff = sp.simplify(sp.together(p - d))
    return RateComparison(equal=bool(diff == 0), difference=diff)


def compare_cell(
    printed: str, derived_exponent: sp.Expr, derived_argument: str, q: sp.Expr, r: sp.Expr, beta: sp.Expr = beta
) -> RateComparison:
    """Compare a printed cell (string) with a derived (exponent, argument).

    Cells of ``table:table_regrets`` / ``table:literature_comparison``; the
    exponent is compared by :func:`same_rate`.

    Returns
    -------
    RateComparison
        ``equal`` requires both exponent and argument to agree.
    """
    e, a = parse_varpi(printed)
    cmp = same_rate(e, derived_exponent, q, r, beta)
    arg_ok = a == derived_argument
    return RateComparison(equal=cmp.equal and arg_ok, difference=cmp.difference, argument_equal=arg_ok)
