"""Drawing helpers of the backward pages and the training lab (docs/backprop/): the loss over the vocabulary,
rows of a gradient split into its terms, the softmax Jacobian, the size of the gradient stage by stage, the √d_k
sweep, the training curve and the learned attention beside the preset's.

Every helper takes what a snippet (or the lab notebook) computed and returns a HeatFigure or a matplotlib
Figure; it computes nothing the page is about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure

from transformer_math.preset import N_HEADS, VOCAB

from .heat_table import ColourScale, HeatFigure, heat_figure, heat_table
from .notes_attention_figs import token_labels
from .style import ACCENT, INK, SEQUENTIAL_CMAP, new_figure


def _signed_scale(*arrays: np.ndarray) -> ColourScale:
    """One diverging scale centred on 0 for all ``arrays`` (the site's meaning of blue/red: signed values)."""
    return ColourScale.for_values(np.concatenate([np.ravel(a) for a in arrays]), center=0.0)


# ---------------------------------------------------------------------------------------------- the loss
def vocab_vectors_figure(rows: Mapping[str, np.ndarray], target: int, signed: Sequence[str] = ()) -> HeatFigure:
    """One 1 × vocab heat table per entry of ``rows`` (label → (vocab,)), the hidden word's column framed.

    Rows named in ``signed`` get a diverging scale about 0; the others (probabilities) the weight scale 0 … 1.
    """
    words = [f"{i} {w}" for i, w in enumerate(VOCAB)]
    tables = []
    for label, values in rows.items():
        values = np.asarray(values, dtype=float)[None, :]
        if label in signed:
            scale, fmt = ColourScale.for_values(values, center=0.0), "{:+.2f}"
        else:
            scale, fmt = ColourScale.for_values(None, vmin=0.0, vmax=1.0), "{:.3f}"
        tables.append(heat_table(values, [label], words, fmt=fmt, scale=scale, vertical_columns=True,
                                 framed_columns=[target]))  # fmt: skip
    return heat_figure(*tables)


# ---------------------------------------------------------------------------------------------- a row, split
def row_terms_figure(
    rows: Mapping[str, np.ndarray], col_labels: Sequence[str], title: str, sum_rows: int = 1, fmt: str = "{:+.3f}"
) -> HeatFigure:
    """Rows of one gradient (label → (n,)), its parts above and their sum(s) last, below a rule; one shared
    diverging scale, so a part and the sum compare by colour too. ``sum_rows``: how many rows at the end are sums."""
    labels = list(rows)
    matrix = np.array([np.asarray(rows[k], dtype=float) for k in labels])
    table = heat_table(matrix, labels, list(col_labels), fmt=fmt, center=0.0, title=title, vertical_columns=True,
                       rule_before_rows=[len(labels) - sum_rows] if sum_rows else ())  # fmt: skip
    return heat_figure(table, legend_fmt="{:+.2f}")


def paired_rows_figure(
    first: Mapping[str, np.ndarray], second: Mapping[str, np.ndarray], col_labels: Sequence[str],
    titles: tuple[str, str], fmt: str = "{:+.3f}",
) -> HeatFigure:  # fmt: skip
    """Two row tables (label → (n,)) over the same columns, each on its own diverging scale (e.g. the forward
    values and their slope above, the gradients before and after below)."""
    tables = []
    for rows, title in ((first, titles[0]), (second, titles[1])):
        labels = list(rows)
        matrix = np.array([np.asarray(rows[k], dtype=float) for k in labels])
        tables.append(heat_table(matrix, labels, list(col_labels), fmt=fmt, center=0.0, title=title,
                                 vertical_columns=True))  # fmt: skip
    return heat_figure(*tables, legend_fmt="{:+.2f}")


# ---------------------------------------------------------------------------------------------- attention
def jacobian_figure(attn_row: np.ndarray, jacobian: np.ndarray, words: Sequence[str], head: int) -> HeatFigure:
    """The attention row A (1 × T, weights 0 … 1) above its Jacobian ∂A_i/∂S_j = A_i(δ_ij − A_j) (T × T, signed)."""
    keys = list(words)
    weights = heat_table(np.asarray(attn_row)[None, :], ["A"], keys, fmt="{:.3f}",
                         scale=ColourScale.for_values(None, vmin=0.0, vmax=1.0),
                         title=f"ヘッド {head} の隠した行 A", corner="")  # fmt: skip
    span = 0.25  # |A_i(δ_ij − A_j)| ≤ 1/4 for any row: one fixed scale, so two heads compare by colour
    J = heat_table(jacobian, [f"A_{w}" for w in keys], [f"S_{w}" for w in keys], fmt="{:+.3f}",
                   scale=ColourScale.for_values(None, vmin=-span, vmax=span, center=0.0),
                   title="ヤコビアン ∂A_i/∂S_j", corner="i ＼ j",
                   framed_cells=[(i, i) for i in range(len(keys))])  # fmt: skip
    return HeatFigure((weights, J), ((weights.scale, "{:.1f}"), (J.scale, "{:+.2f}")))


def attention_rows_figure(rows: Mapping[str, np.ndarray], words: Sequence[str], title: str) -> HeatFigure:
    """Per-head rows over the T keys (label → (T,)), one shared diverging scale (∂L/∂attn and ∂L/∂scores)."""
    return row_terms_figure(rows, list(words), title, sum_rows=0)


def position_rows_figure(rows: Mapping[str, np.ndarray], words: Sequence[str], title: str) -> HeatFigure:
    """‖row t‖ of several gradients (label → (T,)) by position: where the gradient sits (0 = none)."""
    matrix = np.array([np.asarray(v, dtype=float) for v in rows.values()])
    table = heat_table(matrix, list(rows), token_labels(words), fmt="{:.3f}", cmap=SEQUENTIAL_CMAP, vmin=0.0,
                       vmax=max(float(matrix.max()), 1e-12), title=title, vertical_columns=True)  # fmt: skip
    return heat_figure(table, legend_fmt="{:.1f}")


# ---------------------------------------------------------------------------------------------- sizes
def gradient_norms_figure(stages: Sequence[str], example: Sequence[float], others: np.ndarray, example_label: str):
    """‖∂L/∂·‖ at each stage, top (next to the loss) to bottom (X): the example as a line with markers, every
    other example as a faint dot, so the reader sees whether the example is typical."""
    n = len(stages)
    y = np.arange(n)[::-1]
    fig, ax = new_figure(6.0, 0.34 * n + 1.4)
    for row in others:
        ax.plot(row, y, "o", color=ACCENT[0], alpha=0.18, ms=3.5, lw=0)
    ax.plot(example, y, "-o", color=ACCENT[1], lw=1.8, ms=5, label=example_label)
    ax.plot([], [], "o", color=ACCENT[0], alpha=0.5, ms=4, label=f"{len(others)} 例すべて")
    ax.set_yticks(y, [f"∂L/∂{s.removeprefix('d_')}" for s in stages], fontsize=9.5)
    ax.set_xscale("log")
    ax.set_xlabel("‖∂L/∂·‖ (フロベニウスノルム、対数目盛)")
    ax.grid(True, axis="x", which="major")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=9)  # above the axes: no dot hidden
    return fig


def sqrt_dk_figure(d_k: np.ndarray, measures: Mapping[str, tuple[np.ndarray, np.ndarray]]) -> Figure:
    """One panel per measure (label → (scaled, unscaled) over ``d_k``), d_k on a log₂ axis: ÷√d_k against raw q·k."""
    fig, axes = new_figure(6.0, 2.5 * len(measures) + 0.6, nrows=len(measures), sharex=True)
    axes = np.atleast_1d(axes)
    for ax, (label, (scaled, unscaled)) in zip(axes, measures.items(), strict=True):
        ax.plot(d_k, scaled, "-o", color=ACCENT[0], lw=1.8, ms=4, label="√d_k で割る")
        ax.plot(d_k, unscaled, "--s", color=ACCENT[1], lw=1.8, ms=4, label="割らない")
        ax.set_ylabel(label, fontsize=9.5)
        ax.set_ylim(0, max(float(np.max(scaled)), float(np.max(unscaled))) * 1.15)
        ax.grid(True)
    axes[0].legend(loc="lower left", fontsize=9)
    axes[-1].set_xscale("log", base=2)
    axes[-1].set_xticks(d_k, [str(int(d)) for d in d_k], fontsize=9)
    axes[-1].set_xlabel("d_k")
    return fig


# ---------------------------------------------------------------------------------------------- the lab
def loss_curve_figure(losses: np.ndarray, lr: np.ndarray, floor: float, label: str = "40 例の平均損失") -> Figure:
    """The mean loss before each step (log scale) with the data's floor dashed, and the Noam rate below it;
    ``label`` names the loss (the lab's 40 examples by default)."""
    steps = np.arange(len(losses))
    fig, (top, bottom) = new_figure(6.0, 4.6, nrows=2, sharex=True, height_ratios=(2, 1))
    top.plot(steps, losses, color=ACCENT[0], lw=2.0, label=label)
    top.axhline(floor, color=INK, lw=0.9, ls="--", label="このデータで到達できる最小値")
    top.set_yscale("log")
    top.set_ylabel("損失 L")
    top.grid(True, which="both")
    top.legend(loc="upper right", fontsize=9)
    bottom.plot(np.arange(1, len(lr) + 1), lr, color=ACCENT[2], lw=1.8)
    bottom.set_ylabel("学習率 η")
    bottom.set_xlabel("ステップ")
    bottom.set_ylim(0, float(np.max(lr)) * 1.2)
    bottom.grid(True)
    return fig


def attention_comparison_figure(
    learned: np.ndarray, preset_attn: np.ndarray, words: Sequence[str], intended: Sequence[tuple[int, int, int, int]]
) -> HeatFigure:
    """Learned rows (h, T, T: row i with word i hidden) beside the preset's (full sentence), weights 0 … 1.

    ``intended``: (preset head, learned head, query, key) of each relation; the intended cell is framed solid in
    the preset's head and in the learned head the verdict used.
    """
    labels = token_labels(words)
    keys = list(words)
    scale = ColourScale.for_values(None, vmin=0.0, vmax=1.0)
    tables = []
    for head in range(N_HEADS):
        tables.append(heat_table(learned[head], labels, keys, fmt="{:.2f}", scale=scale,
                                 title=f"学習後 ヘッド {head} (行 i は語 i を隠す)", corner="クエリ ＼ キー",
                                 framed_cells=[(q, k) for _, lh, q, k in intended if lh == head]))  # fmt: skip
    for head in range(N_HEADS):
        tables.append(heat_table(preset_attn[head], labels, keys, fmt="{:.2f}", scale=scale,
                                 title=f"プリセット ヘッド {head} (文全体)", corner="クエリ ＼ キー",
                                 framed_cells=[(q, k) for ph, _, q, k in intended if ph == head]))  # fmt: skip
    return heat_figure(*tables, columns=N_HEADS, legend_fmt="{:.1f}")
