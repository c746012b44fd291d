"""HTML that a snippet prints (markdown-exec with ``html="on"`` passes it through untouched)."""

from __future__ import annotations

import html
import itertools
import math
import re
from collections.abc import Callable

from matplotlib import pyplot as plt
from matplotlib.figure import Figure
from matplotlib.gridspec import GridSpec
from matplotlib.text import Annotation, Text

from .heat_table import HeatFigure
from .phone import phone_layout
from .svg import to_svg

_tab_sets = itertools.count(1)

PHONE_WIDTH_IN = 3.4
"""Width of a figure's phone drawing: 326 CSS px, inside the 358 px column of a 390 px phone and the ~328 px
of a tab or an admonition there, so it is shown at its own size (not scaled down)."""

PHONE_MIN_TEXT_PT = 9.5
"""Smallest text of a phone drawing: 9.5 pt = 12.7 CSS px at its own size, 11 px still in the lab page's
narrower notebook output (286 px)."""


def figure_html(fig: Figure | HeatFigure, alt: str, caption: str | None = None, phone: bool | Figure = True) -> str:
    """``<figure>`` holding ``fig`` as inline SVG (or heat tables), described by ``alt`` for screen readers.

    The SVG gets ``role="img"``, an ``aria-label`` and a ``<title>`` (a tooltip too); the optional caption is
    visible text under the figure. The figure is closed afterwards, so snippets do not leak memory.

    ``phone=False``: no second drawing for a phone's column. For a diagram whose boxes are placed by hand (its
    text would overflow the boxes in a narrower drawing), a phone shows the desktop drawing at its own size,
    scrolling sideways inside the figure with a scroll cue (site.css, ``tf-figure-wide``). Better, such a diagram
    passes its own phone drawing as ``phone`` (a Figure at most :data:`PHONE_WIDTH_IN` wide: the same content
    rearranged for the column, e.g. two halves stacked), which a phone shows instead.
    """
    alt = (alt or "").strip()
    if not alt:
        raise ValueError("alt must describe the figure for readers who cannot see it; got an empty string")
    if isinstance(fig, HeatFigure):
        return fig.to_html(alt, caption)
    what = f"figure {alt[:40]!r}"
    own_phone = phone if isinstance(phone, Figure) else None
    try:
        if own_phone is not None and own_phone.get_figwidth() > PHONE_WIDTH_IN + 1e-9:
            raise ValueError(f"{what}: the phone drawing is {own_phone.get_figwidth():.2f} in wide; a phone's "
                             f"column takes {PHONE_WIDTH_IN} in")  # fmt: skip
        engine = fig.get_layout_engine()  # to_svg drops it once the layout is settled; the phone drawing reuses it
        svg = to_svg(fig, what=what)
        if own_phone is not None:
            phone = to_svg(own_phone, what=f"{what} (phone)")
        else:
            phone = _phone_svg(fig, engine, what) if phone else None
        wide = not phone and fig.get_figwidth() > PHONE_WIDTH_IN
    finally:
        plt.close(fig)
        if own_phone is not None:
            plt.close(own_phone)
    # Out of the search index: otherwise every heatmap's cell values become "text" a query can hit.
    # The phone drawing comes first: site.css shows it, and hides the desktop one after it, on narrow screens.
    parts = [f'<figure class="tf-figure{" tf-figure-wide" if wide else ""}" data-search-exclude>']
    if phone is not None:
        parts.append(_labelled(phone.replace('class="tf-figure"', 'class="tf-figure tf-figure-phone"', 1), alt))
    parts.append(_labelled(svg, alt))
    if caption:
        parts.append(f"<figcaption>{html.escape(caption)}</figcaption>")
    parts.append("</figure>")
    return "\n".join(parts)


def _labelled(svg: str, alt: str) -> str:
    """``svg`` with ``role="img"``, an ``aria-label`` and a ``<title>`` from ``alt``."""
    label = html.escape(alt, quote=True)
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)
    svg = re.sub(r"(<svg [^>]*>)", lambda m: f"{m.group(1)}\n <title>{html.escape(alt)}</title>", svg, count=1)
    return svg.rstrip()


def _phone_svg(fig: Figure, engine, what: str) -> str | None:
    """``fig`` drawn again for a phone's column, or None when the desktop drawing already fits it.

    Scaled into a 358 px column, a 6–9 inch figure shrinks its 11 pt labels to 6–9 px. The phone drawing is
    :data:`PHONE_WIDTH_IN` wide with the same height, no text under :data:`PHONE_MIN_TEXT_PT`, and the figure's
    layout engine run again, so labels keep their size; automatic tick locators choose fewer ticks by themselves.
    """
    width_in, height_in = fig.get_size_inches()
    if width_in <= PHONE_WIDTH_IN:
        return None
    fig.set_layout_engine(engine)
    own_layout = phone_layout(fig)  # a figure that rearranges itself for the column (phone.set_phone_layout)
    factor = own_layout(fig) if own_layout is not None else _restack_for_phone(fig)
    fig.set_size_inches(PHONE_WIDTH_IN, height_in * factor)
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            ticks = axis.get_major_ticks() + axis.get_minor_ticks()
            if any(tick.label1.get_fontsize() < PHONE_MIN_TEXT_PT for tick in ticks):
                axis.set_tick_params(which="both", labelsize=PHONE_MIN_TEXT_PT)  # ticks made later copy it
    for text in fig.findobj(Text):
        if text.get_fontsize() < PHONE_MIN_TEXT_PT:
            text.set_fontsize(PHONE_MIN_TEXT_PT)
    _legends_above(fig)
    _annotations_inside(fig)
    _tick_labels_apart(fig)
    return to_svg(fig, what=f"{what} (phone)")


def _tick_labels_apart(fig: Figure) -> None:
    """x tick labels that touch in the narrower drawing are turned upright (90°), one clear line each.

    Level labels touch when their boxes meet; slanted ones when the distance between their parallel lines
    (spacing × sin of the angle) is less than the text's height. Upright labels are left as they are.
    """
    fig.draw_without_rendering()  # lays the figure out at its phone size, so the extents below are final
    for ax in fig.axes:
        labels = [t for t in ax.xaxis.get_ticklabels() if t.get_visible() and t.get_text().strip()]
        boxes = sorted((t.get_window_extent() for t in labels), key=lambda box: box.x0)
        inside = [box for box in boxes if box.x1 > fig.bbox.x0 and box.x0 < fig.bbox.x1]
        if len(inside) < 2:
            continue
        angle = labels[0].get_rotation() % 180
        if angle == 90:
            continue
        height_px = labels[0].get_fontsize() * fig.dpi / 72
        if angle == 0:
            touch = any(right.x0 - left.x1 < 2.0 for left, right in itertools.pairwise(inside))
        else:
            spacing = min((r.x0 + r.x1 - l.x0 - l.x1) / 2 for l, r in itertools.pairwise(inside))
            touch = spacing * abs(math.sin(math.radians(angle))) < 1.1 * height_px
        if touch:
            ax.tick_params(axis="x", which="both", labelrotation=90)
            for text in ax.xaxis.get_ticklabels():
                text.set_horizontalalignment("center")


def _legends_above(fig: Figure) -> None:
    """A legend placed right of its axes takes half a phone's width from the data: put it above instead."""
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        anchor = legend.get_bbox_to_anchor().transformed(ax.transAxes.inverted())
        if anchor.x0 >= 1:
            legend.set_bbox_to_anchor((0, 1.02, 1, 0.1), transform=ax.transAxes)
            legend.set_loc("lower center")


def _annotations_inside(fig: Figure) -> None:
    """Annotation text shifted sideways to stay inside the narrower figure.

    The layout engine counts an annotation's text as part of its axes, so a label reaching past the right edge
    squeezes the plot instead; left out of the layout, the text is moved back inside the figure.
    """
    annotations = [text for ax in fig.axes for text in ax.texts if isinstance(text, Annotation)]
    if not annotations:
        return
    for annotation in annotations:
        annotation.set_in_layout(False)
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
    margin = 2.0  # pixels
    for annotation in annotations:
        box = annotation.get_window_extent()
        shift = min(0.0, fig.bbox.width - margin - box.x1) or max(0.0, margin - box.x0)
        transform = {"data": annotation.axes.transData, "axes fraction": annotation.axes.transAxes}.get(
            annotation.anncoords
        )
        if not shift or transform is None:
            continue
        x, y = transform.transform(annotation.xyann)
        annotation.xyann = tuple(transform.inverted().transform((x + shift, y)))


def _restack_for_phone(fig: Figure) -> float:
    """Panels side by side → one column (two for four or more panels); returns the factor for the height.

    Only a plain grid is restacked (one grid, each panel in one cell, nothing else placed on it, such as a
    colour bar); panels keep their reading order. Any other figure is left as it is (factor 1).
    """
    specs = [ax.get_subplotspec() for ax in fig.axes]
    if not specs or any(spec is None for spec in specs):
        return 1.0
    grid = specs[0].get_gridspec()
    rows, cols = grid.get_geometry()
    if cols < 2 or any(spec.get_gridspec() is not grid or spec.num1 != spec.num2 for spec in specs):
        return 1.0
    new_cols = 1 if len(specs) <= 3 else 2
    new_rows = -(-len(specs) // new_cols)
    new_grid = GridSpec(new_rows, new_cols, figure=fig)
    for ax, spec in sorted(zip(fig.axes, specs, strict=True), key=lambda pair: pair[1].num1):
        index = sorted(s.num1 for s in specs).index(spec.num1)
        ax.set_subplotspec(new_grid[index // new_cols, index % new_cols])
    return max(1.0, 0.8 * new_rows / rows)


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
