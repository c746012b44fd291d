"""How a figure redraws itself for a phone's column (used by :func:`transformer_figures.html.figure_html`).

The generic phone drawing (narrower, same height, no text under the minimum size) suits curves and grids. A
figure whose labels take the width the data needs (long bar names beside horizontal bars, a legend over the
curves) registers its own phone layout with :func:`set_phone_layout`: a function that rearranges the same
artists and data for the narrow column and returns the factor for the figure's height.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure

PhoneLayout = Callable[[Figure], float]

_layouts: weakref.WeakKeyDictionary[Figure, PhoneLayout] = weakref.WeakKeyDictionary()


def set_phone_layout(fig: Figure, layout: PhoneLayout) -> Figure:
    """Register ``layout(fig) -> height factor``, run on ``fig`` before its phone drawing; returns ``fig``."""
    if not callable(layout):
        raise TypeError(f"layout must be a function of the figure returning a height factor, got {layout!r}")
    _layouts[fig] = layout
    return fig


def phone_layout(fig: Figure) -> PhoneLayout | None:
    """The phone layout registered for ``fig``, or None."""
    return _layouts.get(fig)


def labels_above_bars(ax: Axes, labels: Sequence[str], positions: Sequence[float], fontsize: float) -> None:
    """Horizontal bars' names moved from the y axis onto a line of their own above each bar.

    Beside the bars, long names take half a phone's width from the bars; above them, the bars start at the
    left edge and keep the full width. ``positions`` are the bars' y values (bar height ≤ 0.5 leaves room).
    """
    if len(labels) != len(positions):
        raise ValueError(f"labels and positions must pair up, got {len(labels)} labels and {len(positions)} bars")
    ax.set_yticks([])
    transform = ax.get_yaxis_transform()  # x in axes fraction, y in data: the line starts at the axes' left edge
    for label, y in zip(labels, positions, strict=True):
        ax.text(0.0, y + 0.3, label, transform=transform, ha="left", va="bottom", fontsize=fontsize)
    low, high = min(positions), max(positions)
    ax.set_ylim(low - 0.45, high + 0.95)  # room for the top bar's name
