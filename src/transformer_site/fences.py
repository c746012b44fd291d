"""Fenced code blocks of a Markdown page, found once for every consumer (the build hooks, the notebook export).

A fence opens with three or more backticks or tildes and closes with a line of the same character, at least as
long. An *executed* fence carries ``exec="on"`` (markdown-exec); its body usually includes a snippet file
with a ``--8<-- "snippets/…py"`` line (pymdownx.snippets).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OPENING = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<lang>[\w-]*)(?P<attrs>[^\n]*)$")
_EXECUTED = re.compile(r"""\bexec=["']?(on|true|1)\b""")
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
        return bool(_EXECUTED.search(self.attrs))

    @property
    def block_id(self) -> str | None:
        found = _ID.search(self.attrs)
        return found.group(1) if found else None

    @property
    def includes(self) -> tuple[str, ...]:
        """The snippet files the body includes, in order."""
        return tuple(m["path"] for text in self.body for m in [INCLUDE.match(text)] if m)


def find_fences(lines: list[str]) -> list[Fence]:
    """Every fenced block in ``lines``, in page order (a fence inside another is part of its body)."""
    fences: list[Fence] = []
    i = 0
    while i < len(lines):
        opening = _OPENING.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        end = i + 1
        while end < len(lines) and not _closes(lines[end], fence):
            end += 1
        body = tuple(text[len(indent) :] if text.startswith(indent) else text.lstrip() for text in lines[i + 1 : end])
        fences.append(Fence(i, end, opening["lang"], opening["attrs"], body))
        i = end + 1
    return fences


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(fence) and set(stripped) == {fence[0]}
