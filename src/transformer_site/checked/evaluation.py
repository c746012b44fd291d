"""Evaluate a checked number's expression against ``transformer_site.citable.NAMES`` and nothing else.

An expression is *read*, never run as a program: it may use names from NAMES, attributes (no
``_private`` or ``__dunder__`` ones), indexing and slices, calls, constants, tuples/lists and
arithmetic. Anything that could change state or reach outside the namespace (assignment ``:=``,
``lambda``, comprehensions, f-strings, comparisons, starred arguments, mutating methods such as
``.sort()`` or ``.fill()``) is rejected before evaluation.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping
from functools import cache

_ALLOWED = (
    ast.Expression, ast.Name, ast.Load, ast.Attribute, ast.Subscript, ast.Slice, ast.Call, ast.keyword,
    ast.Constant, ast.Tuple, ast.List, ast.BinOp, ast.UnaryOp,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult, ast.USub, ast.UAdd,
)  # fmt: skip

_FORBIDDEN_NAMES = {
    ast.NamedExpr: "an assignment (:=)",
    ast.Lambda: "a lambda",
    ast.ListComp: "a comprehension",
    ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension",
    ast.GeneratorExp: "a generator expression",
    ast.JoinedStr: "an f-string",
    ast.Compare: "a comparison",
    ast.BoolOp: "and/or",
    ast.IfExp: "a conditional expression",
    ast.Starred: "a starred argument",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.Dict: "a dict display",
    ast.Set: "a set display",
}

# Methods that change their object in place: a page must never change what another page reads.
_MUTATING_METHODS = frozenset(
    "append extend insert pop popitem remove clear update setdefault sort reverse add discard "
    "fill put resize itemset setflags partition byteswap setfield sort_values".split()
)


class ExpressionError(ValueError):
    """The expression is not allowed, does not evaluate, or names something not citable."""


def _citable_names() -> Mapping[str, object]:
    from transformer_site.citable import NAMES  # imported late: it computes the eight traces

    return NAMES


def _reject(expression: str, what: str) -> ExpressionError:
    return ExpressionError(
        f"{what} is not allowed in a checked number: {expression} "
        "(allowed: names, attributes, indexing, calls, constants, arithmetic)"
    )


@cache
def compile_expression(expression: str):
    """Parse and vet ``expression``; returns a code object. Cached: pages cite the same cells often."""
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"cannot parse expression {expression!r}: {exc.msg}") from None
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            what = _FORBIDDEN_NAMES.get(type(node), f"a {type(node).__name__} node")
            raise _reject(expression, what)
        if isinstance(node, (ast.Name, ast.Attribute, ast.keyword)):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else node.arg
            if name is None:
                raise _reject(expression, "a ** argument")
            if name.startswith("_"):
                raise _reject(expression, f"the private name {name!r}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATING_METHODS:
            raise _reject(expression, f"the mutating method .{node.func.attr}()")
    return compile(tree, "<checked number>", "eval")


@cache
def referenced_names(expression: str) -> frozenset[str]:
    tree = ast.parse(expression.strip(), mode="eval")
    return frozenset(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))


def evaluate(expression: str, names: Mapping[str, object] | None = None) -> object:
    """The value of ``expression`` over ``names`` (default: the citable namespace)."""
    code = compile_expression(expression)
    names = _citable_names() if names is None else names
    unknown = sorted(referenced_names(expression) - set(names))
    if unknown:
        raise ExpressionError(
            f"unknown name {unknown[0]!r} in {expression.strip()} "
            f"(citable names: {', '.join(names)}; see docs/reference/citable.md)"
        )
    try:
        # Names were vetted above, so builtins are unreachable from the expression itself; they stay in
        # the globals because C code called from it (numpy's .min()) imports through __import__.
        return eval(code, {"__builtins__": builtins}, names)
    except IndexError as exc:
        raise ExpressionError(f"index out of range in {expression.strip()}: {exc}") from None
    except Exception as exc:
        raise ExpressionError(f"{expression.strip()} raised {type(exc).__name__}: {exc}") from None
