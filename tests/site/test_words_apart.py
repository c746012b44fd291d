"""Words apart from logic: every Japanese string in ``src/`` sits where an edition in another language would
replace it (a word table or a catalogue module), never inside a computation.

A Japanese string literal is in its place when it is

- inside a module-level assignment to a word table: a name containing ``TEXT``, ``LABELS`` or ``WORDS``
  (``TEXT``, ``LABELS``, ``MATH_LABELS``);
- documentation: a docstring, or a string standing alone as a statement (an attribute's docstring);
- the model's data: every space-separated piece that holds Japanese is a word of the preset's vocabulary or one
  character of such a word (the symbols BPE starts from): 「私」, 「これ は 美しい 花 です」, 「で」;
- a set of characters, written in the source as code points (``"\\u30a1-\\u30fa"``): it names no word;
- in a module of :data:`CATALOGUES` or a constant of :data:`DATA`, each listed with the reason it is not prose
  welded into logic.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

from transformer_math import preset

SRC = Path(__file__).resolve().parents[2] / "src"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # hiragana, katakana, the common ideographs
WORD_TABLE = re.compile(r"[A-Z0-9_]*(?:TEXT|LABELS|WORDS)[A-Z0-9_]*")

CATALOGUES = {
    "transformer_math/preset.py": "the preset is the model's data: its vocabulary, sentences and dimension names",
    "transformer_pages/reference/glossary.py": "the glossary's terms, forms and definitions: a catalogue of words",
    "transformer_pages/course.py": "the course's stages, tracks and what each assumes: a catalogue of names",
    "transformer_site/labels.py": "the tooltips' words for every citable name and how they compose: a catalogue",
}
"""Modules that are catalogues of words as a whole (relative to ``src/``): an edition adds its own."""

DATA = {
    ("transformer_pages/decoder/tokenization.py", "UNSEEN"): "words the page's tokenizer splits: its input data",
    ("transformer_figures/style.py", "FONT_FALLBACKS"): "font family names, one as a system may register it",
}
"""Module-level constants (module, name) whose Japanese is data, not words a reader reads as prose."""


def _vocabulary() -> frozenset[str]:
    return frozenset(preset.VOCAB) | {ch for word in preset.VOCAB for ch in word}


def _assigned_names(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    else:
        return []
    names = []
    for target in targets:
        elements = target.elts if isinstance(target, ast.Tuple) else [target]
        names += [e.id for e in elements if isinstance(e, ast.Name)]
    return names


def _nodes_under(node: ast.AST) -> set[int]:
    return {id(n) for n in ast.walk(node)}


def _is_model_data(text: str, vocabulary: frozenset[str]) -> bool:
    return all(piece in vocabulary for piece in text.split() if JAPANESE.search(piece))


def stray_words(source: str, module: str, vocabulary: frozenset[str]) -> list[tuple[int, str]]:
    """(line, string) of each Japanese string literal of ``source`` (the module ``module``, relative to ``src/``)
    that is not in its place (see the module's docstring)."""
    tree = ast.parse(source)
    placed: set[int] = set()
    for node in tree.body:
        names = _assigned_names(node)
        if any(WORD_TABLE.fullmatch(name) or (module, name) in DATA for name in names):
            placed |= _nodes_under(node)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for statement in body:
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    placed.add(id(statement.value))  # a docstring, or an attribute's
    within: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for part in node.values:
                within[id(part)] = node  # an f-string's pieces: their own positions are the f-string's
    stray = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and JAPANESE.search(node.value)):
            continue
        if id(node) in placed or _is_model_data(node.value, vocabulary):
            continue
        written = ast.get_source_segment(source, within.get(id(node), node)) or ""
        if not JAPANESE.search(written):
            continue  # characters spelled as code points: a set of characters, no word
        stray.append((node.lineno, node.value))
    return stray


def _module(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def scan(root: Path) -> list[str]:
    """``file:line: 'string'`` for every Japanese string out of its place under ``root`` (a copy of ``src/``)."""
    vocabulary = _vocabulary()
    found = []
    for path in sorted(root.rglob("*.py")):
        module = _module(path, root)
        if module in CATALOGUES:
            continue
        for line, text in stray_words(path.read_text(encoding="utf-8"), module, vocabulary):
            found.append(f"{path.relative_to(root.parent)}:{line}: {text!r}")
    return found


def test_every_japanese_string_of_src_sits_in_a_word_table_or_a_catalogue():
    stray = scan(SRC)
    assert not stray, (
        "Japanese strings outside a word table (TEXT, LABELS, *_WORDS), a docstring or a catalogue module; "
        "move each into its module's table:\n" + "\n".join(stray)
    )


@pytest.mark.parametrize("module", sorted(CATALOGUES))
def test_each_catalogue_exists_and_says_it_is_one(module):
    doc = ast.get_docstring(ast.parse((SRC / module).read_text(encoding="utf-8"))) or ""
    assert "catalogue" in doc, f"src/{module}: its docstring says it is a catalogue of words ({CATALOGUES[module]})"


@pytest.mark.parametrize(("module", "name"), sorted(DATA))
def test_each_data_constant_exists_and_holds_japanese(module, name):
    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    (node,) = [n for n in tree.body if name in _assigned_names(n)]
    assert any(isinstance(n, ast.Constant) and JAPANESE.search(str(n.value)) for n in ast.walk(node)), (
        f"src/{module}: {name} holds no Japanese: drop it from DATA"
    )


@pytest.fixture
def copy_of_src(tmp_path: Path) -> Path:
    root = tmp_path / "src"
    shutil.copytree(SRC, root, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    return root


def test_a_word_planted_in_a_computation_is_found_with_its_line(copy_of_src):
    target = copy_of_src / "transformer_site" / "exercises" / "html.py"
    lines = target.read_text(encoding="utf-8").split("\n")
    lines.append('\n\ndef _title() -> str:\n    return "確認問題"\n')
    target.write_text("\n".join(lines), encoding="utf-8")
    line = len(lines) + 3
    assert scan(copy_of_src) == [f"src/transformer_site/exercises/html.py:{line}: '確認問題'"]


@pytest.mark.parametrize(
    ("source", "stray"),
    [
        ('TEXT = {"check": "確かめる"}\n', []),
        ('MATH_LABELS = {"D_K": "1 ヘッドの次元"}\n', []),
        ('def f():\n    """確かめる。"""\n', []),
        ('X = 1\n"""文1 の値。"""\n', []),
        ('SENTENCE = "これ は 美しい 花 です"\n', []),
        ('PAIR = ("で", "す")\n', []),
        ('KATAKANA = "\\u30a1-\\u30fa"\n', []),
        ('BUTTON = "確かめる"\n', [(1, "確かめる")]),
        ('SENTENCE = "これ は 綺麗 です"\n', [(1, "これ は 綺麗 です")]),
        ('def f(n):\n    return f"問 {n}"\n', [(2, "問 ")]),
        ('KINDS = {"number": "計算"}\n', [(1, "計算")]),
    ],
)
def test_each_rule_lets_its_strings_through_and_no_other(source, stray):
    assert stray_words(source, "transformer_site/example.py", _vocabulary()) == stray
