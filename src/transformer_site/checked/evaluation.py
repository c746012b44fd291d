"""Evaluate a checked number's expression (or a checked claim's condition) against ``transformer_site.citable.NAMES``
so that it cannot change state.

An expression is *read*, never run as a program. Four things make sure of that, none of them a list of
forbidden methods:

1. **Its form**: names from NAMES, attributes and keywords (no ``_private`` or ``__dunder__`` ones),
   indexing and slices, calls, constants, tuples/lists and arithmetic — nothing that assigns, defines or
   loops (``:=``, ``lambda``, comprehensions, f-strings, ``*``/``**`` arguments are rejected before anything
   runs). A claim's condition may also compare (``<``, ``==``, ``in``, chained) and combine with ``and``, ``or``,
   ``not``; a number's expression may not (a comparison is a claim, not a number). It may be at most
   ``MAX_LENGTH`` characters, nested at most ``MAX_DEPTH`` deep, and arithmetic on
   huge operands (``9**9**9``, ``"x" * 10**9``) is refused before it is computed, so pathological input is a
   clear error, never a hang or a crash.
2. **Read-only values**: every value the expression touches — a name, an attribute, an item, the result of a
   call — is handed to it read-only: arrays as read-only views (so ``.fill()``, ``.sort()``, ``np.copyto``
   into them fail with numpy's own error), lists as tuples, dicts and sets as read-only mappings and
   frozensets. A module is reachable only if it is itself a citable name (``ops.np`` is refused: numpy is not
   citable, and through it everything would be).
3. **Its effects**: it runs under ``transformer_site.execution.isolation.Guard``: no file written, no process started,
   a time limit.
4. **The state after it**: the guard compares everything executed code may read (module constants, the
   cached traces, the weights, the citable names, …) with what it was, reports any
   difference as this expression's error and puts the state back, so no other page is blamed for it.
"""

from __future__ import annotations

import ast
import builtins
import math
import sys
import types
from collections.abc import Mapping
from functools import cache

import numpy as np

from transformer_site import LIBRARY_PACKAGES
from transformer_site.execution import isolation
from transformer_site.execution.isolation import StateBaseline

MAX_LENGTH = 400  # characters; the longest on the site is about 150 (name a longer one in the page's module)
MAX_DEPTH = 30  # nesting of the expression tree
MAX_BITS = 4096  # of an integer power's result
MAX_REPEAT = 100_000  # elements of a repeated sequence ("ab" * n, (1,) * n)
TIME_LIMIT = 10.0  # seconds for one expression

_ALLOWED = (
    ast.Expression, ast.Name, ast.Load, ast.Attribute, ast.Subscript, ast.Slice, ast.Call, ast.keyword,
    ast.Constant, ast.Tuple, ast.List, ast.BinOp, ast.UnaryOp,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult, ast.USub, ast.UAdd,
)  # fmt: skip

_CLAIM_ONLY = (
    ast.Compare, ast.BoolOp, ast.And, ast.Or, ast.Not,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
)  # fmt: skip

_FORBIDDEN_NAMES = {
    ast.NamedExpr: "an assignment (:=)",
    ast.Lambda: "a lambda",
    ast.ListComp: "a comprehension",
    ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension",
    ast.GeneratorExp: "a generator expression",
    ast.JoinedStr: "an f-string",
    ast.Compare: "a comparison (write it as a checked claim: {{ words if condition }})",
    ast.BoolOp: "and/or (write it as a checked claim: {{ words if condition }})",
    ast.Not: "not (write it as a checked claim: {{ words if condition }})",
    ast.Is: "'is' (compare values with ==)",
    ast.IsNot: "'is not' (compare values with !=)",
    ast.IfExp: "a conditional expression",
    ast.Starred: "a starred argument",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.Dict: "a dict display",
    ast.Set: "a set display",
}


class ExpressionError(ValueError):
    """The expression is not allowed, does not evaluate, changes state, or names something not citable."""


def _citable_names() -> Mapping[str, object]:
    from transformer_site.citable import NAMES  # imported late: it computes the eight traces

    return NAMES


def _reject(expression: str, what: str) -> ExpressionError:
    return ExpressionError(
        f"{what} is not allowed in a checked number: {expression} "
        "(allowed: names, attributes, indexing, calls, constants, arithmetic)"
    )


# ------------------------------------------------------------------------------------------ read-only values


_modules_at_last_check = [-1]  # len(sys.modules) after the last checked number was evaluated
_module_ids_memo: list = []  # [names, len(names), len(sys.modules), ids]: the last answer, and what it was for


def _citable_module_ids(names: Mapping[str, object]) -> frozenset[int]:
    """The modules an expression may reach: each module that is a citable name, and the page modules inside a
    citable section package (``notes`` → ``notes.attention``).

    Remembered for the same namespace while no module is imported or dropped: walking ``sys.modules`` (thousands
    of modules once torch is loaded) for each of the site's checked numbers cost seconds of every build."""
    memo = _module_ids_memo
    if memo and memo[0] is names and memo[1] == len(names) and memo[2] == len(sys.modules):
        return memo[3]
    memo[:] = [names, len(names), len(sys.modules), _module_ids(names)]
    return memo[3]


def _module_ids(names: Mapping[str, object]) -> frozenset[int]:
    modules = [v for v in names.values() if isinstance(v, types.ModuleType)]
    inside = [
        module
        for package in modules
        if hasattr(package, "__path__")
        for name, module in list(sys.modules.items())
        if module is not None and name.startswith(package.__name__ + ".")
    ]
    return frozenset(id(m) for m in (*modules, *inside))


class _Reader:
    """What the compiled expression calls for every name, attribute, item, call and operator: values read-only."""

    def __init__(self, expression: str, modules: frozenset[int]):
        self.expression = expression
        self.modules = modules  # ids of the modules that are citable names

    def value(self, value):
        if isinstance(value, np.ndarray):
            if value.flags.writeable:
                value = value.view()
                value.flags.writeable = False
            return value
        if isinstance(value, list):
            return tuple(value)
        if isinstance(value, dict):
            return types.MappingProxyType(value)
        if isinstance(value, set):
            return frozenset(value)
        if isinstance(value, types.ModuleType) and id(value) not in self.modules:
            raise ExpressionError(
                f"{self.expression.strip()} reaches the module {value.__name__}, which is not a citable name "
                "(see docs/reference/citable.md)"
            )
        return value

    def attr(self, obj, name: str):
        return self.value(getattr(obj, name))

    def item(self, obj, key):
        return self.value(obj[key])

    def call(self, function, args, kwargs):
        return self.value(function(*args, **kwargs))

    def power(self, base, exponent):
        if isinstance(base, int) and isinstance(exponent, int) and exponent > 0 and abs(base) > 1:
            if exponent * math.log2(abs(base)) > MAX_BITS:
                raise ExpressionError(f"{self.expression.strip()}: {base} ** {exponent} is too large to compute")
        return base**exponent

    def times(self, a, b):
        for sequence, count in ((a, b), (b, a)):
            if isinstance(sequence, (str, bytes, tuple, list)) and isinstance(count, int):
                if len(sequence) * count > MAX_REPEAT:
                    raise ExpressionError(f"{self.expression.strip()}: repeats a sequence {count} times")
        return a * b


class _ToReader(ast.NodeTransformer):
    """Rewrite ``a.b``, ``a[k]``, ``f(x)``, names and ``**``/``*`` into calls of the ``_Reader``'s methods."""

    def _read(self, method: str, *args: ast.expr) -> ast.Call:
        func = ast.Attribute(ast.Name("_reader", ast.Load()), method, ast.Load())
        return ast.Call(func, list(args), [])

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self._read("value", node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        return self._read("attr", self.visit(node.value), ast.Constant(node.attr))

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        return self._read("item", self.visit(node.value), self.visit(node.slice))

    def visit_Call(self, node: ast.Call) -> ast.AST:
        args = ast.Tuple([self.visit(a) for a in node.args], ast.Load())
        keywords = [ast.keyword(k.arg, self.visit(k.value)) for k in node.keywords]
        kwargs = ast.Call(ast.Name("_dict", ast.Load()), [], keywords)
        return self._read("call", self.visit(node.func), args, kwargs)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        left, right = self.visit(node.left), self.visit(node.right)
        if isinstance(node.op, ast.Pow):
            return self._read("power", left, right)
        if isinstance(node.op, ast.Mult):
            return self._read("times", left, right)
        return ast.BinOp(left, node.op, right)


def _depth(node: ast.AST) -> int:
    deepest, todo = 0, [(node, 1)]
    while todo:
        current, level = todo.pop()
        deepest = max(deepest, level)
        todo.extend((child, level + 1) for child in ast.iter_child_nodes(current))
    return deepest


@cache
def compile_expression(expression: str, claim: bool = False):
    """Parse and vet ``expression`` (a claim's condition when ``claim``); returns a code object. Cached: pages cite
    the same cells often."""
    text = expression.strip()
    if len(text) > MAX_LENGTH:
        raise ExpressionError(
            f"the expression is {len(text)} characters long (at most {MAX_LENGTH}): give the value a name in "
            f"the page's module and cite that ({text[:40]}…)"
        )
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"cannot parse expression {expression!r}: {exc.msg}") from None
    except (RecursionError, MemoryError, ValueError) as exc:
        raise ExpressionError(f"cannot parse expression {text[:40]!r}…: {type(exc).__name__}") from None
    if _depth(tree) > MAX_DEPTH:
        raise ExpressionError(f"the expression is nested more than {MAX_DEPTH} deep: {text[:40]}…")
    allowed = _ALLOWED + _CLAIM_ONLY if claim else _ALLOWED
    for node in ast.walk(tree):
        if not isinstance(node, allowed):
            what = _FORBIDDEN_NAMES.get(type(node), f"a {type(node).__name__} node")
            raise _reject(expression, what)
        if isinstance(node, (ast.Name, ast.Attribute, ast.keyword)):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else node.arg
            if name is None:
                raise _reject(expression, "a ** argument")
            if name.startswith("_"):
                raise _reject(expression, f"the private name {name!r}")
    rewritten = ast.fix_missing_locations(_ToReader().visit(tree))
    try:
        return compile(rewritten, "<checked number>", "eval")
    except (RecursionError, MemoryError) as exc:
        raise ExpressionError(f"cannot compile expression {text[:40]!r}…: {type(exc).__name__}") from None


@cache
def referenced_names(expression: str) -> frozenset[str]:
    tree = ast.parse(expression.strip(), mode="eval")
    return frozenset(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))


def evaluate(
    expression: str,
    names: Mapping[str, object] | None = None,
    where: str = "a checked number",
    claim: bool = False,
    baseline: StateBaseline | None = None,
) -> object:
    """The value of ``expression`` over ``names`` (default: the citable namespace), read-only and isolated.

    ``where`` names the expression in messages (``docs/page.md:12``); ``claim``: it is a claim's condition;
    ``baseline``: the build's record of the state executed code may not change (shared with its executed blocks),
    or None outside a build (one record for the process).
    """
    code = compile_expression(expression, claim)
    names = _citable_names() if names is None else names
    unknown = sorted(referenced_names(expression) - set(names))
    if unknown:
        raise ExpressionError(
            f"unknown name {unknown[0]!r} in {expression.strip()} "
            f"(citable names: {', '.join(names)}; see docs/reference/citable.md)"
        )
    reader = _Reader(expression, _citable_module_ids(names))
    guard = isolation.Guard(
        f"{where}: {expression.strip()}", time_limit=TIME_LIMIT, temp_dir=False,
        baseline=baseline or _baseline_outside_a_build(),
        process_state=False,  # the random generators, os.environ, …: unreachable from a citable name
        # Between two checked numbers of a build nothing else runs that could change the library; code that
        # imported modules in between (a test, a block) may have set attributes: look before blaming this one.
        check_before=len(sys.modules) != _modules_at_last_check[0],
    )  # fmt: skip
    failure = None
    try:
        with guard:
            # Names were vetted above, so builtins are unreachable from the expression itself; they stay in
            # the globals because C code called from it (numpy's .min()) imports through __import__.
            value = eval(code, {"__builtins__": builtins, "_reader": reader, "_dict": dict}, names)
    except ExpressionError as exc:
        failure = str(exc)
    except IndexError as exc:
        failure = f"index out of range in {expression.strip()}: {exc}"
    except (Exception, isolation.BlockTimeout) as exc:
        message = str(exc)
        if isinstance(exc, ValueError) and "read-only" in message:
            message += " (a checked number may not change what it reads)"
        failure = f"{expression.strip()} raised {type(exc).__name__}: {message}"
    finally:
        guard.close()  # already closed by the with, unless the time limit struck on the way out
        _modules_at_last_check[0] = len(sys.modules)
    if guard.problems:  # what it did, whether or not it also raised: a refused write, a changed state
        raise ExpressionError(f"{expression.strip()} {'; '.join(guard.problems)} (undone)")
    if failure is not None:
        raise ExpressionError(failure)
    return value


@cache
def _baseline_outside_a_build() -> StateBaseline:
    """Outside a build (pytest, the command line) one record of the state serves every expression of the process."""
    return StateBaseline(LIBRARY_PACKAGES)
