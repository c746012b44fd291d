"""Tables as HTML (Material styles them like Markdown tables) or as Markdown text, from rows of strings."""

from __future__ import annotations

import html
from collections.abc import Sequence


def table_html(headers: Sequence[str], rows: Sequence[Sequence[str]], caption: str | None = None) -> str:
    """A plain HTML table; cells are escaped. Material's script wraps it in its scrollable container.

    A cell holding a relation "美しい → 花" (an arrow between spaces) does not break after the arrow.
    """
    if any(len(r) != len(headers) for r in rows):
        raise ValueError(f"every row must have {len(headers)} cells like headers, got {[len(r) for r in rows]}")
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)

    def cell(c: str) -> str:
        style = ' style="white-space: nowrap"' if " → " in c else ""
        return f"<td{style}>{html.escape(c)}</td>"

    body = "".join("<tr>" + "".join(cell(c) for c in r) + "</tr>" for r in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]], align: str = "") -> str:
    """A Markdown table. ``align`` has one character per column: ``l`` (default) or ``r``; cells are not escaped
    (they may hold Markdown or math), except that ``|`` is written ``\\|``."""
    align = align.ljust(len(headers), "l")
    if len(align) != len(headers) or set(align) - {"l", "r"}:
        raise ValueError(f"align must hold one of 'l' or 'r' per column ({len(headers)}), got {align!r}")
    if any(len(r) != len(headers) for r in rows):
        raise ValueError(f"every row must have {len(headers)} cells like headers, got {[len(r) for r in rows]}")

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    rule = "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])
