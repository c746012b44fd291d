"""Fenced code blocks of a Markdown page, found once for every consumer (through ``Page.fences``): the executed
blocks, the notebook export, the questions and the checked-number scanner (which must never read code as prose).

A fence opens with three or more backticks or tildes, indented by spaces or tabs (lists, admonitions, tabs)
and/or inside a blockquote (``> ```python``), and closes with a line of the same character at least as long.
A backtick fence's info string may not contain a backtick (CommonMark: ```` ```a``` ```` on one line is inline
code, not a fence). An unclosed fence runs to the end of the page. An *executed* fence carries ``exec="on"``
(markdown-exec's syntax); its body usually includes a snippet file with a ``--8<-- "snippets/…py"`` line
(pymdownx.snippets).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

_OPENING = re.compile(r"^(?P<indent>[ \t>]*)(?P<fence>`{3,}|~{3,})\s*(?P<lang>[\w-]*)(?P<attrs>[^\n]*)$")
_EXEC = re.compile(r"""\bexec=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s"']*))""")
_OFF = {"", "no", "off", "false", "0"}  # markdown-exec's own reading of a false value
_ID = re.compile(r"""\bid=["']?([^"'\s]+)""")
INCLUDE = re.compile(r"""^\s*-{1,2}8<-{1,2}\s+["']?(?P<path>[^"'\s]+)["']?\s*$""")


@dataclass(frozen=True)
class Fence:
    start: int  # 0-based index of the opening line
    end: int  # 0-based index of the closing line (len(lines) when the fence is never closed)
    lang: str
    attrs: str
    body: tuple[str, ...]  # the lines between, with the opening line's indentation removed

    @property
    def line(self) -> int:
        """1-based line of the opening fence, as an author reads it."""
        return self.start + 1

    @property
    def executed(self) -> bool:
        found = _EXEC.search(self.attrs)
        return found is not None and (found["dq"] or found["sq"] or found["bare"] or "").lower() not in _OFF

    @property
    def block_id(self) -> str | None:
        found = _ID.search(self.attrs)
        return found.group(1) if found else None

    @property
    def includes(self) -> tuple[str, ...]:
        """The snippet files the body includes, in order."""
        return tuple(m["path"] for text in self.body for m in [INCLUDE.match(text)] if m)

    def shifted(self, lines: int) -> Fence:
        """The same fence, counted in a text that has ``lines`` more lines above it."""
        return replace(self, start=self.start + lines, end=self.end + lines)


def find_fences(lines: list[str]) -> list[Fence]:
    """Every fenced block in ``lines``, in page order (a fence inside another is part of its body)."""
    fences: list[Fence] = []
    i = 0
    while i < len(lines):
        opening = _OPENING.match(lines[i].rstrip("\r"))
        if not opening or (opening["fence"][0] == "`" and "`" in opening["attrs"] + opening["lang"]):
            i += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        end = i + 1
        while end < len(lines) and not _closes(lines[end], fence):
            end += 1
        body = tuple(_dedent(text, indent) for text in lines[i + 1 : end])
        fences.append(Fence(i, end, opening["lang"], opening["attrs"], body))
        i = end + 1
    return fences


def _dedent(text: str, indent: str) -> str:
    if text.startswith(indent):
        return text[len(indent) :]
    return text.lstrip(" \t>") if ">" in indent else text.lstrip()


def _closes(line: str, fence: str) -> bool:
    stripped = line.lstrip(" \t>").rstrip()
    return stripped.startswith(fence) and set(stripped) == {fence[0]}


def line_starts(text: str) -> list[int]:
    """Offset of the first character of each line of ``text`` (lines as ``text.split("\\n")`` gives them)."""
    starts = [0]
    starts.extend(m.end() for m in re.finditer("\n", text))
    return starts


def fence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of every fenced block in ``text``, closing line included."""
    starts = line_starts(text)
    spans = []
    for fence in find_fences(text.split("\n")):
        end = starts[fence.end + 1] if fence.end + 1 < len(starts) else len(text)
        spans.append((starts[fence.start], end))
    return spans
