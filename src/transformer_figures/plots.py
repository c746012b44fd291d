"""Plot helpers in the house style, shared by every figure module: number formatting, the colour scale of
heatmaps and heat tables, the checks on a labelled matrix, and the annotated matplotlib heatmap."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class ColourScale:
    """A colour map over [vmin, vmax]; with ``center`` a diverging map symmetric about it (as in ``heatmap``)."""

    cmap: str
    vmin: float
    vmax: float
    center: float | None = None

    @classmethod
    def for_values(
        cls, values, *, cmap: str | None = None, vmin: float | None = None, vmax: float | None = None,
        center: float | None = None,
    ) -> ColourScale:  # fmt: skip
        array = _finite_values(values, "values") if vmin is None or vmax is None else None
        lo = float(array.min()) if vmin is None else float(vmin)
        hi = float(array.max()) if vmax is None else float(vmax)
        if center is None and cmap is None and lo < 0:
            center = 0.0  # signed values: the diverging scale unless a colour map was chosen
        if center is not None:
            span = max(abs(lo - center), abs(hi - center), 1e-12)
            return cls(cmap or DIVERGING_CMAP, center - span, center + span, float(center))
        return cls(cmap or SEQUENTIAL_CMAP, lo, hi if hi > lo else lo + 1e-12, None)

    @property
    def kind(self) -> str:
        """"diverging" (signed values, centred) or "sequential" (weights, magnitudes): what its colours mean."""
        return "sequential" if self.center is None else "diverging"

    def check_signs(self, values, where: str) -> ColourScale:
        """This scale, if it may colour ``values``: a value below 0 is signed, and signed values take the diverging
        scale (the site's one meaning of red and blue); the sequential scale is for weights and magnitudes."""
        if self.center is None and np.asarray(values, dtype=float).min() < 0:
            raise ValueError(
                f"{where}: a signed value ({float(np.min(values)):.3g}) on the sequential scale; signed values take "
                "the diverging scale (center=0.0)"
            )
        return self

    def rgba(self, values) -> np.ndarray:
        """RGBA in [0, 1], shape (…, 4), of each value; values outside [vmin, vmax] take the end colours."""
        scaled = (np.asarray(values, dtype=float) - self.vmin) / (self.vmax - self.vmin)
        return colormaps[self.cmap](np.clip(scaled, 0.0, 1.0))

    def norm(self) -> Normalize:
        """The same scale as a matplotlib norm (for :func:`heatmap`)."""
        if self.center is not None:
            return TwoSlopeNorm(vcenter=self.center, vmin=self.vmin, vmax=self.vmax)
        return Normalize(vmin=self.vmin, vmax=self.vmax)


def checked_matrix(matrix, row_labels: Sequence[str], col_labels: Sequence[str]) -> np.ndarray:
    """``matrix`` as a finite 2-D float array whose shape the labels match, or a ValueError saying what is wrong."""
    values = np.asarray(matrix, dtype=float)
    if values.ndim != 2:
        raise ValueError(f"matrix must be 2-D (rows, cols), got shape {values.shape}")
    _finite_values(values, "matrix")
    if len(row_labels) != values.shape[0] or len(col_labels) != values.shape[1]:
        raise ValueError(
            f"row_labels/col_labels must match matrix shape {values.shape}, "
            f"got {len(row_labels)} row labels and {len(col_labels)} column labels"
        )
    return values


def _finite_values(given, name: str) -> np.ndarray:
    values = np.asarray(given, dtype=float)
    if values.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {values.shape}")
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} must be finite, got {int(np.sum(~np.isfinite(values)))} non-finite entries")
    return values


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
    values = checked_matrix(matrix, row_labels, col_labels)
    n_rows, n_cols = values.shape
    scale = ColourScale.for_values(values, cmap=cmap, vmin=vmin, vmax=vmax, center=center)
    scale.check_signs(values, f"heatmap {title or ''}".strip())
    colour_map, norm = colormaps[scale.cmap], scale.norm()
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
