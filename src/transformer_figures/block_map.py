"""The block map: one small diagram of the Transformer block, drawn the same way on every page.

The map is HTML, not an image: each stage is a link (to the page that computes it), its text stays text at the
reader's font size (legible at 390 px, where a drawing scaled to the column would shrink its labels), and the
row of stages wraps on a narrow screen. The current page's stage carries ``aria-current="page"`` and the
highlight; a page about the whole block marks every stage (CSS in ``docs/assets/stylesheets/site.css``,
``.block-map``).

The stages, their pages and labels are the pages layer's (``transformer_pages.course``); this module only draws.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

TEXT = {
    "title": "ブロックの地図",
    "whole": "ブロック全体",
    "this_page": "{title}: このページは {where}",
}
"""The reader-facing words of the map (its title, and what its label says of the page)."""


@dataclass(frozen=True)
class MapStage:
    key: str
    label: str
    href: str  # relative to the page that shows the map
    does: str = ""  # one line, shown by the large map
    more: tuple[tuple[str, str], ...] = ()  # further links (text, href), shown by the large map


def block_map_html(
    stages: Sequence[MapStage],
    current: str | None,
    *,
    large: bool = False,
    whole: bool = False,
    title: str = "",
    note: str = "",
) -> str:
    """``<nav>`` holding the stages in order as an ordered list of links, ``current`` highlighted.

    ``whole``: the page is about the whole block (every stage marked, none ``aria-current``). ``note``: HTML
    shown under the map (the page's reading time and its counterparts in the other tracks).
    """
    keys = [s.key for s in stages]
    if current is not None and current not in keys:
        raise ValueError(f"current stage {current!r} is not one of the map's stages {keys}")
    if len(set(keys)) != len(keys):
        raise ValueError(f"the map's stages repeat a key: {keys}")
    here = next((s.label for s in stages if s.key == current), None)
    title = title or TEXT["title"]
    where = TEXT["whole"] if whole else (here or "")
    label = TEXT["this_page"].format(title=title, where=where) if where else title
    classes = ["block-map", "block-map--large" if large else "block-map--small"]
    if whole:
        classes.append("block-map--whole")
    items = []
    for number, s in enumerate(stages, 1):
        attrs = ' aria-current="page"' if s.key == current else ""
        cls = "block-map__stage" + (" block-map__stage--here" if s.key == current or whole else "")
        inner = (f'<a class="block-map__link" href="{html.escape(s.href)}"{attrs}>'
                 f'<span class="block-map__number">{number}</span>'
                 f'<span class="block-map__label">{html.escape(s.label)}</span></a>')  # fmt: skip
        if large:
            if s.does:
                inner += f'<span class="block-map__does">{html.escape(s.does)}</span>'
            if s.more:
                links = " · ".join(f'<a href="{html.escape(h)}">{html.escape(t)}</a>' for t, h in s.more)
                inner += f'<span class="block-map__more">{links}</span>'
        items.append(f'<li class="{cls}" data-stage="{html.escape(s.key)}">{inner}</li>')
    note_html = f'<p class="block-map__note">{note}</p>' if note else ""
    return (
        f'<nav class="{" ".join(classes)}" aria-label="{html.escape(label)}">'
        f'<p class="block-map__title">{html.escape(title)}</p>'
        f'<ol class="block-map__stages">{"".join(items)}</ol>{note_html}</nav>'
    )
