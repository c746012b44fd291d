"""Every snippet's source tab shows a computation and ends with exactly one drawing call.

The rule, read from each snippet's AST (the file under ``snippets/`` that an executed fence includes):

1. **One drawing call, last.** The last top-level statement is ``print(...)``; no other ``print`` call appears.
   Every call into ``transformer_figures`` (a drawing helper) sits inside that last statement.
2. **A computation before it.** At least one assignment computes: its value holds arithmetic (``+ - * / @ **``,
   a unary minus) or a call into numpy, ``transformer_math``, ``transformer_pages`` or ``transformer_site``
   other than fetching the preset (``preset_trace``, ``preset_weights``, ``build_preset``, ``sentence``).
   A snippet that only draws something already computed instead shows the lines of ``src`` that compute it: a
   string statement holding ``--8<-- "src/….py:section"`` between two lines marked ``markdown-exec: hide``
   (pymdownx.snippets puts the section's lines into the tab; markdown-exec hides the quotes, so the lines are
   shown and not run). The section must exist in that file (``# --8<-- [start:section]`` … ``[end:section]``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SNIPPETS = sorted((ROOT / "snippets").rglob("*.py"))
COMPUTING_MODULES = ("numpy", "transformer_math", "transformer_pages", "transformer_site")
FETCHES = {"preset_trace", "preset_weights", "build_preset", "sentence"}
INCLUDE = re.compile(r'^--8<-- "(?P<path>src/[^":]+\.py):(?P<section>[a-z][-_0-9a-z]*)"$')


def imported_names(tree: ast.Module) -> dict[str, str]:
    """Local name → the module it was imported from (``np`` → numpy, ``figure_html`` → transformer_figures)."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                names[alias.asname or alias.name] = node.module
    return names


def called_root(call: ast.Call) -> tuple[str | None, str | None]:
    """(the local name a call starts from, the function's own name): ``np.linalg.norm(x)`` → ("np", "norm")."""
    func, last = call.func, None
    while isinstance(func, ast.Attribute):
        last = last or func.attr
        func = func.value
    if isinstance(func, ast.Call):
        return called_root(func)[0], last
    return (func.id, last or func.id) if isinstance(func, ast.Name) else (None, last)


def origin(name: str | None, imports: dict[str, str]) -> str:
    return imports.get(name or "", "")


def computes(value: ast.AST, imports: dict[str, str]) -> bool:
    for node in ast.walk(value):
        if isinstance(node, ast.BinOp) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)):
            return True
        if isinstance(node, ast.Call):
            root, name = called_root(node)
            if origin(root, imports).startswith(COMPUTING_MODULES) and name not in FETCHES:
                return True
    return False


def shown_sections(source: str) -> list[tuple[str, str]]:
    """(src path, section) of every hidden-string include: the string's lines sit between two hidden lines."""
    found = []
    lines = source.splitlines()
    for i, line in enumerate(lines):
        match = INCLUDE.match(line)
        if match and i > 0 and "markdown-exec: hide" in lines[i - 1] and "markdown-exec: hide" in lines[i + 1]:
            found.append((match["path"], match["section"]))
    return found


def problems(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    imports = imported_names(tree)
    found = []
    last = tree.body[-1] if tree.body else None
    is_print = isinstance(last, ast.Expr) and isinstance(last.value, ast.Call) and called_root(last.value)[0] == "print"
    if not is_print:
        found.append("the last statement is not the drawing call print(...)")
    prints = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and called_root(n)[0] == "print"]
    if len(prints) != 1:
        found.append(f"{len(prints)} print calls: the drawing is one print, at the end")
    inside_last = {id(n) for n in ast.walk(last)} if last is not None else set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and id(node) not in inside_last:
            root, name = called_root(node)
            if origin(root, imports).startswith("transformer_figures"):
                found.append(f"line {node.lineno}: {name}(…) draws before the last statement")
    sections = shown_sections(source)
    for src, section in sections:
        text = (ROOT / src).read_text(encoding="utf-8")
        if f"--8<-- [start:{section}]" not in text or f"--8<-- [end:{section}]" not in text:
            found.append(f"shows {src}:{section}, but that file has no section {section!r}")
    assignments = [n for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))]
    if not sections and not any(n.value is not None and computes(n.value, imports) for n in assignments):
        found.append("no assignment computes anything (and no src section is shown): the tab holds only drawing")
    return found


@pytest.mark.parametrize("path", SNIPPETS, ids=lambda p: str(p.relative_to(ROOT / "snippets")))
def test_source_tab_computes_and_ends_with_one_drawing_call(path):
    rel = str(path.relative_to(ROOT))
    found = problems(path)
    assert not found, f"{rel}: " + "; ".join(found)


def test_the_rule_rejects_a_snippet_that_only_calls_a_builder(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from transformer_figures import figure_html\nfrom transformer_figures.x import fig\n"
        "f = fig(1)\nprint(figure_html(f, alt='図'))\n",
        encoding="utf-8",
    )
    assert any("draws before" in p for p in problems(bad)) and any("no assignment computes" in p for p in problems(bad))


def test_the_rule_accepts_a_computation_and_a_shown_section(tmp_path):
    good = tmp_path / "good.py"
    good.write_text(
        "import numpy as np\nfrom transformer_figures import figure_html\n"
        "x = np.arange(3) * 2  # (3,)\nprint(figure_html(x, alt='図'))\n",
        encoding="utf-8",
    )
    assert problems(good) == []
    shown = tmp_path / "shown.py"
    shown.write_text(
        "from transformer_figures import figure_html\nr'''  # markdown-exec: hide\n"
        '--8<-- "src/transformer_math/preset.py:build_embedding"\n'
        "'''  # markdown-exec: hide  # fmt: skip\nprint(figure_html(1, alt='図'))\n",
        encoding="utf-8",
    )
    assert problems(shown) == []
    missing = tmp_path / "missing.py"
    missing.write_text(shown.read_text().replace("build_embedding", "no_such_section"), encoding="utf-8")
    assert any("no section 'no_such_section'" in p for p in problems(missing))
