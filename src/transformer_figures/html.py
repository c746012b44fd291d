"""HTML that a snippet prints (markdown-exec with ``html="on"`` passes it through untouched)."""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Callable

from matplotlib import pyplot as plt
from matplotlib.figure import Figure

from .heat_table import HeatFigure
from .svg import to_svg

_tab_sets = itertools.count(1)


def figure_html(fig: Figure | HeatFigure, alt: str, caption: str | None = None) -> str:
    """``<figure>`` holding ``fig`` as inline SVG (or heat tables), described by ``alt`` for screen readers.

    The SVG gets ``role="img"``, an ``aria-label`` and a ``<title>`` (a tooltip too); the optional caption is
    visible text under the figure. The figure is closed afterwards, so snippets do not leak memory.
    """
    alt = (alt or "").strip()
    if not alt:
        raise ValueError("alt must describe the figure for readers who cannot see it; got an empty string")
    if isinstance(fig, HeatFigure):
        return fig.to_html(alt, caption)
    try:
        svg = to_svg(fig, what=f"figure {alt[:40]!r}")
    finally:
        plt.close(fig)
    label = html.escape(alt, quote=True)
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)
    svg = re.sub(r"(<svg [^>]*>)", lambda m: f"{m.group(1)}\n <title>{html.escape(alt)}</title>", svg, count=1)
    # Out of the search index: otherwise every heatmap's cell values become "text" a query can hit.
    parts = ['<figure class="tf-figure" data-search-exclude>', svg.rstrip()]
    if caption:
        parts.append(f"<figcaption>{html.escape(caption)}</figcaption>")
    parts.append("</figure>")
    return "\n".join(parts)


def show(fig: Figure | HeatFigure, alt: str, caption: str | None = None) -> None:
    """``print(figure_html(fig, alt, caption))`` for a script or a notebook cell.

    A snippet on a page writes ``print(figure_html(...))`` itself: markdown-exec captures the snippet's own
    ``print`` (it puts one into the snippet's globals), not this one, so a block that calls ``show`` prints
    nothing into the page and the build's output check fails it.
    """
    print(figure_html(fig, alt, caption))


def tabs_html(tabs: dict[str, str], name: str | None = None) -> str:
    """Material's tabbed set (``pymdownx.tabbed`` with ``alternate_style``) around ready-made HTML blocks.

    ``tabs`` maps a tab label to its HTML body (e.g. one tab per example sentence, each a
    :func:`figure_html`). ``name`` makes the radio ids unique on the page; by default a process-wide counter.
    """
    if not tabs:
        raise ValueError("tabs must hold at least one label → html entry, got an empty mapping")
    set_id = re.sub(r"[^0-9A-Za-z_-]", "_", name) if name else f"tf{next(_tab_sets)}"
    n = len(tabs)
    checked = 'checked="checked" '
    inputs = [
        f'<input {checked if i == 1 else ""}id="__tabbed_{set_id}_{i}" name="__tabbed_{set_id}" type="radio" />'
        for i in range(1, n + 1)
    ]
    labels = "".join(
        f'<label for="__tabbed_{set_id}_{i}">{html.escape(label)}</label>' for i, label in enumerate(tabs, start=1)
    )
    blocks = "\n".join(f'<div class="tabbed-block">\n{body}\n</div>' for body in tabs.values())
    return (
        f'<div class="tabbed-set tabbed-alternate" data-tabs="{set_id}:{n}">'
        + "".join(inputs)
        + f'<div class="tabbed-labels">{labels}</div>\n<div class="tabbed-content">\n{blocks}\n</div>\n</div>'
    )


def figure_tabs(
    draw: Callable[..., Figure | HeatFigure], panels: dict[str, tuple], alts: dict[str, str], name: str
) -> str:
    """One figure per tab (e.g. per example sentence): ``draw(*panels[label])`` with alt text ``alts[label]``."""
    if set(panels) != set(alts):
        raise ValueError(f"panels and alts must name the same tabs, got {sorted(panels)} and {sorted(alts)}")
    return tabs_html({label: figure_html(draw(*data), alts[label]) for label, data in panels.items()}, name)


def show_tabs(tabs: dict[str, str], name: str | None = None) -> None:
    """``print(tabs_html(tabs, name))`` for a script or a notebook cell (see :func:`show`)."""
    print(tabs_html(tabs, name))
