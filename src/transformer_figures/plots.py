"""Plot helpers in the house style, shared by every figure module."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.colors import Normalize, TwoSlopeNorm

from .style import DIVERGING_CMAP, SEQUENTIAL_CMAP, text_color_for


def format_number(value: float, fmt: str) -> str:
    """``fmt`` applied, with a typographic minus (U+2212) as in the prose."""
    return fmt.format(value).replace("-", "−")


def unsigned_zero(text: str) -> str:
    """A formatted value that rounds to zero without its sign: "−0.00" and "+0.00" read as a sign the value does
    not have, and the prose's checked numbers write "0.00"."""
    if text[:1] in "+−" and not any(c in "123456789" for c in text):
        return text[1:]
    return text


def heatmap(
    ax: Axes,
    matrix,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    *,
    fmt: str = "{:.2f}",
    cmap: str | None = None,
    vmin: float | None = None,
    vmax: float | None = None,
    center: float | None = None,
    title: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    colorbar: bool = False,
    annotate: bool = True,
    annotation_size: float = 9.0,
):
    """Draw ``matrix`` (rows × cols) as vector cells with labelled rows/columns and the values printed in them.

    Rows run top to bottom like the matrix on paper. ``center`` (e.g. 0 for scores) switches to a diverging
    map centred there. Cell text is black or white by the cell's luminance, so it reads on both palettes.
    Returns the QuadMesh (for a colour bar).
    """
    values = np.asarray(matrix, dtype=float)
    if values.ndim != 2:
        raise ValueError(f"matrix must be 2-D (rows, cols), got shape {values.shape}")
    n_rows, n_cols = values.shape
    if len(row_labels) != n_rows or len(col_labels) != n_cols:
        raise ValueError(
            f"row_labels/col_labels must match matrix shape {values.shape}, "
            f"got {len(row_labels)} row labels and {len(col_labels)} column labels"
        )
    if not np.all(np.isfinite(values)):
        raise ValueError(f"matrix must be finite, got {int(np.sum(~np.isfinite(values)))} non-finite entries")
    lo = float(values.min()) if vmin is None else vmin
    hi = float(values.max()) if vmax is None else vmax
    if center is not None:
        span = max(abs(lo - center), abs(hi - center), 1e-12)
        norm = TwoSlopeNorm(vcenter=center, vmin=center - span, vmax=center + span)
        cmap = cmap or DIVERGING_CMAP
    else:
        norm = Normalize(vmin=lo, vmax=hi if hi > lo else lo + 1e-12)
        cmap = cmap or SEQUENTIAL_CMAP
    colour_map = colormaps[cmap]
    mesh = ax.pcolormesh(values, cmap=colour_map, norm=norm, edgecolors="none")
    ax.set_xlim(0, n_cols)
    ax.set_ylim(n_rows, 0)  # row 0 on top
    ax.set_aspect("equal")
    ax.set_xticks(np.arange(n_cols) + 0.5, labels=list(col_labels))
    ax.set_yticks(np.arange(n_rows) + 0.5, labels=list(row_labels))
    ax.tick_params(length=0)
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    for spine in ax.spines.values():
        spine.set_visible(False)
    if annotate:
        for i in range(n_rows):
            for j in range(n_cols):
                ax.text(
                    j + 0.5, i + 0.5, format_number(values[i, j], fmt),
                    ha="center", va="center", fontsize=annotation_size,
                    color=text_color_for(colour_map(norm(values[i, j]))),
                )  # fmt: skip
    if title:
        ax.set_title(title, pad=8)
    if xlabel:
        ax.set_xlabel(xlabel, labelpad=6)
    if ylabel:
        ax.set_ylabel(ylabel)
    if colorbar:
        ax.figure.colorbar(mesh, ax=ax, shrink=0.8)
    return mesh
