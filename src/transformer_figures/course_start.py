"""The start of the course on the home page: one button per reading track, with its length.

HTML, not an image, like the block map: each button is a link to the track's first page, its text stays text at
the reader's font size, and the row of buttons wraps into a grid on a phone (CSS in
``docs/assets/stylesheets/site.css``, ``.course-start``). The tracks, their first pages and their reading times
are the pages layer's (``transformer_pages.course``); this module only draws.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

TEXT = {
    "title": "読み始める",
    "minutes": "約 {minutes} 分",
}
"""The reader-facing words of the start buttons."""


@dataclass(frozen=True)
class StartButton:
    track: str  # the track's key
    name: str  # the track's short name, shown on the button
    href: str  # its first page, relative to the page that shows the buttons
    minutes: int  # the reading time of the whole track


def start_html(buttons: Sequence[StartButton]) -> str:
    """``<nav>`` of the start buttons, the first (the main track) drawn as the primary one."""
    if not buttons:
        raise ValueError("the course's start needs at least one track's button, got none")
    keys = [b.track for b in buttons]
    if len(set(keys)) != len(keys):
        raise ValueError(f"the start buttons repeat a track: {keys}")
    items = []
    for index, b in enumerate(buttons):
        if b.minutes < 1:
            raise ValueError(f"track {b.track!r}: a reading time of {b.minutes} minutes; a track takes at least 1")
        kind = "md-button md-button--primary" if index == 0 else "md-button"
        minutes = html.escape(TEXT["minutes"].format(minutes=b.minutes))
        items.append(
            f'<li><a class="{kind} course-start__button" href="{html.escape(b.href)}"'
            f' data-track="{html.escape(b.track)}"><span class="course-start__name">{html.escape(b.name)}</span>'
            f'<span class="course-start__time">{minutes}</span></a></li>'
        )
    return (
        f'<nav class="course-start" aria-label="{html.escape(TEXT["title"])}">'
        f'<p class="course-start__title">{html.escape(TEXT["title"])}</p>'
        f'<ol class="course-start__buttons">{"".join(items)}</ol></nav>'
    )
