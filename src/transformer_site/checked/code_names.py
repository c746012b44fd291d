"""Code names in lesson text: a lesson speaks of the Transformer, never of the code or the build that makes the site.

A *code name* is a module, file, function, test or tool name: inline code (```F.layer_norm```), a dotted name
(``transformer_pages.notes.ffn``, ``counting.block_params``), a path or file (``tests/math/``, ``kernel.js``), a
call (``train()``), a ``snake_case`` identifier that is no symbol of the notes (``derive_ln1``; the notes' own
``ln1_out``, ``ffn_h``, ``W_Q``, ``d_model`` … are symbols, ``NOTES_SYMBOLS``), or a word of the toolchain
(``mkdocs``, ``pytest``, ``lint``, ``snippet``, 検査つき数値 …, ``TOOL_WORDS``).

Lesson pages are every page but the reference pages, the API pages (``docs/reference/``) and the appendix
(``docs/appendix/``): ``is_lesson_page``. What a reader of a lesson page sees, and where it is read:

- the page's prose, tables, headings, admonitions, tabs, link texts, the words of checked claims, and the
  question texts, options, hints and worked solutions of its ``!!! exercise`` blocks (``in_page``; the
  ``answer:`` line, an option's key and a topic's key are the author's code, not read);
- the tooltip label of each checked number and claim (``transformer_site.labels``; ``in_page`` too);
- what its executed blocks print: captions, alt texts, titles, table cells, the text of SVG figures
  (``in_output``, given the HTML a block printed; ``python -m transformer_site.checked lint --code-names
  --figures`` runs the blocks).

Code blocks and source tabs keep their code: fenced code, math, HTML tags' names, link targets and comments are
not read. ``ENFORCED`` says whether ``lint`` fails on a name (when False, ``lint --code-names`` lists them and
exits 0).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import PurePosixPath
from typing import ClassVar

from transformer_site.page import Page
from transformer_site.page.fences import INCLUDE, fence_spans
from transformer_site.page.tokens import LineIndex, find_checked_numbers, scan

ENFORCED = True  # `lint` fails on a code name in a lesson page (False: `lint --code-names` only lists them)

NON_LESSON_DIRS = ("reference", "appendix")  # docs/reference/ (reference and API pages), docs/appendix/

# Symbols of the notes that are written like identifiers: the arrays of the block (the names the notes and the
# code share, transformer_site.labels.TRACE_FIELDS), the weights and the sizes.
NOTES_SYMBOLS = frozenset(
    {
        "X_tok", "X_pos", "Q_full", "K_full", "V_full", "head_out", "ln1_out", "ln2_out", "ffn_pre", "ffn_h",
        "ffn_out", "W_E", "W_P", "W_Q", "W_K", "W_V", "W_O", "d_model", "d_k", "d_v", "d_q", "d_ff",
        "d_head", "n_heads", "d_scores", "d_attn", "d_X", "d_Y", "d_ln1_out", "d_ffn_h", "d_ffn_pre",
        "d_ffn_out", "d_residual1", "d_residual2", "d_ln2_out", "d_logits", "d_W1", "d_W2", "d_W_Q", "d_W_K",
        "d_W_V", "d_W_O", "d_W_E", "d_b1", "d_b2", "vocab_size", "epsilon_ls",
    }
)  # fmt: skip

# Words of the toolchain and of the site's machinery (matched as whole words, case-insensitive for ASCII).
TOOL_WORDS = (
    "mkdocs", "pytest", "ruff", "lint", "snippets", "snippet", "スニペット", "markdown-exec", "playwright",
    "mkdocstrings", "検査つき数値", "検査付き数値", "検査つきの主張", "検査付きの主張", "src",
)  # fmt: skip

_A = r"A-Za-z0-9_"  # an ASCII identifier's characters: Japanese letters around a name do not extend it
_CODE_EXTENSIONS = r"py|md|js|mjs|ts|css|ya?ml|toml|json|ipynb|sh|html|svg|txt|cfg|ini|lock"
_PATTERNS = (
    ("path", rf"(?<![{_A}/.\\])(?:[\w.\-]+/)+[\w.\-]*(?:\.(?:{_CODE_EXTENSIONS}))?(?![{_A}/])"),
    ("file", rf"(?<![{_A}/.\-\\])[\w\-]+\.(?:{_CODE_EXTENSIONS})(?![{_A}.])"),
    ("call", rf"(?<![{_A}.\\])[A-Za-z_][{_A}]*(?:\.[A-Za-z_][{_A}]*)*\(\)"),
    ("dotted", rf"(?<![{_A}.\\])[A-Za-z_][{_A}]*(?:\.[A-Za-z_][{_A}]*)+(?![{_A}])"),
    ("identifier", rf"(?<![{_A}.\\])[A-Za-z][A-Za-z0-9]*_[{_A}]+(?![{_A}.])"),
)
_NAME = re.compile("|".join(f"(?P<{kind}>{pattern})" for kind, pattern in _PATTERNS))
_TOOL = re.compile(
    "|".join(rf"(?<![{_A}\-/.]){re.escape(w)}(?![{_A}\-/])" if w.isascii() else re.escape(w) for w in TOOL_WORDS),
    re.IGNORECASE,
)
_ABBREVIATIONS = frozenset({"e.g", "i.e", "et.al", "cf", "vs"})
# A path needs a code extension or a folder of the project; "d0/d1" or "sin/cos" are not paths.
_PROJECT_FOLDERS = ("src/", "tests/", "snippets/", "docs/", "scripts/", "benchmarks/", "hooks/", "overrides/", ".ci/")
_KINDS = {
    "inline code": "inline code",
    "path": "a file or folder",
    "file": "a file",
    "call": "a function call",
    "dotted": "a dotted name",
    "identifier": "an identifier",
    "tool": "a tool's name",
}


@dataclass(frozen=True)
class CodeName:
    """A code name a reader would see: ``where`` says which kind of text it stands in (prose, tooltip label …)."""

    path: str
    line: int
    name: str
    kind: str
    where: str

    @property
    def message(self) -> str:
        return (
            f"code name {self.name!r} ({_KINDS[self.kind]}) in {self.where}: a lesson speaks of the Transformer, "
            "not of the code or the build; say it in words (code belongs in a code block)"
        )

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def is_lesson_page(path: str) -> bool:
    """Every page under ``docs/`` but the reference and API pages and the appendix."""
    parts = PurePosixPath(path.replace("\\", "/")).parts
    inside = parts[parts.index("docs") + 1 :] if "docs" in parts else parts
    return not (inside and inside[0] in NON_LESSON_DIRS)


def names_in(text: str) -> Iterator[tuple[int, str, str]]:
    """``(offset, name, kind)`` of every code name in a piece of reader-visible text (no inline code here)."""
    for m in _NAME.finditer(text):
        kind = m.lastgroup
        name = m[0]
        if kind == "path" and not (name.startswith(_PROJECT_FOLDERS) or re.search(rf"\.(?:{_CODE_EXTENSIONS})$", name)):
            continue
        if kind == "dotted" and (name.lower() in _ABBREVIATIONS or max(map(len, name.split("."))) < 3):
            continue
        if kind == "identifier" and is_symbol(name):
            continue
        yield m.start(), name, kind
    for m in _TOOL.finditer(text):
        yield m.start(), m[0], "tool"


def is_symbol(name: str) -> bool:
    """A symbol of the notes, with a subscript or as a gradient: ``ln1_out``, ``W_1``, ``X_dec``, ``P_drop``,
    ``head_h``, ``log_k``, ``ln1_out_j``, ``d_concat`` (∂L/∂concat), ``d_X_skip``."""
    name = name.rstrip("_")
    if name.startswith("d_") and len(name) > 2:  # a gradient: d_ + an array's symbol
        name = name[2:]
        if "_" not in name:
            return True
    if name in NOTES_SYMBOLS:
        return True
    base, _, subscript = name.rpartition("_")
    return (
        (len(base) == 1 and len(subscript) <= 5)
        or (base in NOTES_SYMBOLS and len(subscript) <= 5)
        or (base.isalpha() and len(base) <= 4 and len(subscript) == 1)
    )


# ------------------------------------------------------------------------------------------------ a page's text

_ANSWER_LINE = re.compile(r"^[ \t]*answer:.*$", re.MULTILINE)  # an exercise's answer: the author's expression
_OPTION_KEY = re.compile(r"^([ \t]*option[ \t]+)(\S+?)(?=:)", re.MULTILINE)  # an option's key: an id, not text
# a bank's topic key, as declared (``topic KEY: name``) and as a question names it (``topic: KEY``): an id too
_TOPIC_KEY = re.compile(r"^([ \t]*topic(?:[ \t]+|:[ \t]*))([\w-]+)(?=:|[ \t]*$)", re.MULTILINE)
_ALT_ATTRIBUTE = re.compile(r"""\b(?:alt|title|aria-label)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def in_page(text: str, path: str, labels: bool = True) -> list[CodeName]:
    """Code names in a page's reader-visible text and, with ``labels``, in its tooltip labels (empty for a page
    that is no lesson). Lines are the file's."""
    if not is_lesson_page(path):
        return []
    lines = LineIndex(text)
    found = []
    text = _blank(text, _ANSWER_LINE, whole=True)
    text = _blank(text, _OPTION_KEY, group=2)
    text = _blank(text, _TOPIC_KEY, group=2)
    fences = fence_spans(text)
    for region in scan(text):
        chunk = text[region.start : region.end]
        if region.kind == "text":
            found += _found(names_in(chunk), region.start, lines, path, "prose")
        elif region.kind == "code" and not any(a <= region.start < b for a, b in fences):
            found.append(CodeName(path, lines.line(region.start), chunk, "inline code", "prose"))
        elif region.kind == "tag":
            for m in _ALT_ATTRIBUTE.finditer(chunk):
                value = m[1] if m[1] is not None else m[2]
                found += _found(names_in(html.unescape(value)), region.start, lines, path, "an alt text or title")
    for token in find_checked_numbers(text, path):
        if token.problem:
            continue
        if token.kind == "claim":
            found += _found(names_in(token.literal), token.literal_start, lines, path, "a checked claim's words")
        if labels and token.kind in ("number", "claim"):
            found += [
                CodeName(path, token.line, name, kind, "a tooltip label")
                for _, name, kind in names_in(_label(token.expression, token.kind == "claim"))
            ]
    return sorted(found, key=lambda c: c.line)


def _label(expression: str, claim: bool) -> str:
    from transformer_site.labels import label

    return label(expression, claim=claim) or ""  # a number without a label fails its own test (tests/docs)


def _blank(text: str, pattern: re.Pattern, whole: bool = False, group: int = 0) -> str:
    """``text`` with what ``pattern`` matched (or its ``group``) replaced by spaces: offsets and lines stay."""

    def spaces(m: re.Match) -> str:
        if whole:
            return " " * len(m[0])
        start, end = m.start(group) - m.start(), m.end(group) - m.start()
        return m[0][:start] + " " * (end - start) + m[0][end:]

    return pattern.sub(spaces, text)


def _found(names, offset: int, lines: LineIndex, path: str, where: str) -> list[CodeName]:
    return [CodeName(path, lines.line(offset + at), name, kind, where) for at, name, kind in names]


# ------------------------------------------------------------------------------------- what a block printed


class _VisibleText(HTMLParser):
    """The text a reader sees in a block's HTML: text nodes and alt-like attributes; not code, math (KaTeX reads
    ``arithmatex`` spans), styles, scripts or the data a ``<template>`` carries for the page's scripts."""

    _HIDDEN = frozenset({"code", "pre", "style", "script", "template"})
    _VOID = frozenset({"br", "img", "input", "meta", "link", "hr", "col", "source", "wbr", "area", "base", "embed"})
    _ATTRIBUTES: ClassVar[dict[str, str]] = {"alt": "an alt text", "aria-label": "an alt text", "title": "a title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[tuple[str, str]] = []  # (where, text)
        self._stack: list[tuple[str, bool]] = []  # (tag, hidden)

    def handle_starttag(self, tag, attrs):
        self._attributes(attrs)
        if tag not in self._VOID:
            hidden = tag in self._HIDDEN or "arithmatex" in (dict(attrs).get("class") or "")
            self._stack.append((tag, hidden))

    def handle_startendtag(self, tag, attrs):
        self._attributes(attrs)

    def _attributes(self, attrs) -> None:
        if not any(hidden for _, hidden in self._stack):
            self.parts += [(self._ATTRIBUTES[n], v) for n, v in attrs if n in self._ATTRIBUTES and v]

    def handle_endtag(self, tag):
        if any(t == tag for t, _ in self._stack):
            while self._stack and self._stack.pop()[0] != tag:
                pass

    def handle_data(self, data):
        if not data.strip() or any(hidden for _, hidden in self._stack):
            return
        tags = {t for t, _ in self._stack}
        captions = (("figcaption", "a caption"), ("caption", "a caption"), ("title", "a title"))
        where = next(
            (w for tag, w in captions if tag in tags),
            "a figure's or table's text" if {"svg", "table"} & tags else "a block's output",
        )
        self.parts.append((where, _TEX.sub(" ", data)))


_TEX = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]|(?<!\\)\$[^$]+\$", re.DOTALL)  # math left in a text node


def in_output(output: str, path: str, line: int) -> list[CodeName]:
    """Code names in what an executed block printed (HTML), reported at the block's fence ``path:line``."""
    if not is_lesson_page(path):
        return []
    reader = _VisibleText()
    reader.feed(output)
    reader.close()
    found = []
    seen = set()
    for where, text in reader.parts:
        for _, name, kind in names_in(text):
            if name not in seen:  # an alt text is the SVG's title too: one report per name and block
                seen.add(name)
                found.append(CodeName(path, line, name, kind, where))
    return found


# ------------------------------------------------------------------------------ running a page's blocks (lint)


def page_blocks(page: Page) -> Iterator[tuple[int, str]]:
    """``(line, code)`` of each executed block of a page, its snippet files included as the build includes them."""
    for fence in page.fences:
        if fence.executed:
            lines = []
            for body_line in fence.body:
                include = INCLUDE.match(body_line)
                lines.append(_read(include["path"]) if include else body_line)
            yield fence.line, "\n".join(lines)


def _read(path: str) -> str:
    from pathlib import Path

    return Path(path).read_text(encoding="utf-8")


def run_block(code: str, label: str) -> str:
    """What ``code`` prints, run in the project's folder as the build runs it (cached on the code and the ``src``
    it imports, in the figure cache's folder ``code-names/``, apart from the build's own outputs)."""
    import contextlib
    import io
    from pathlib import Path

    from transformer_site.execution import cache as figure_cache

    root = Path.cwd()
    folder = figure_cache.cache_dir_from_env(root)
    cache = figure_cache.FigureCache(root, folder / "code-names" if folder else None)

    def render() -> str:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"<executed block {label}>", "exec"), {"__name__": "code_names_block"})
        pyplot = __import__("sys").modules.get("matplotlib.pyplot")
        if pyplot is not None:
            pyplot.close("all")
        return printed.getvalue()

    return cache.run(code, render, label)


def in_blocks(page: Page) -> list[CodeName]:
    """Code names in what the executed blocks of a lesson page print (each block is run; see ``run_block``).
    A block that fails is the build's to report: here it is a RuntimeError naming page:line."""
    path = page.path
    if not is_lesson_page(path):
        return []
    found = []
    for line, code in page_blocks(page):
        try:
            output = run_block(code, f"{path}:{line}")
        except Exception as exc:
            raise RuntimeError(f"{path}:{line}: the executed block failed: {type(exc).__name__}: {exc}") from exc
        found += in_output(output, path, line)
    return found


def find(paths, root=None, pages: bool = True, figures: bool = False) -> list[CodeName]:
    """Code names in the lesson pages among ``paths`` (files or folders): in their text and tooltip labels
    (``pages``) and in what their blocks print (``figures``: the blocks are run)."""
    from .verify import pages as read_pages

    found = []
    for page in read_pages(paths, root):
        if pages:
            found += in_page(page.text, page.path)
        if figures:
            found += in_blocks(page)
    return found
