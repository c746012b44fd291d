"""Drawing helpers of the intuition page (before §0): the soft lookup, the dot product as arrows in a plane,
softmax on one row, what the residual adds, the block as one picture.

Each helper takes what a snippet computed (a row of weights, the plane's queries and keys, the block's arrays
for one sentence) and draws it; it computes nothing the page is about. Every drawing is phone-first: narrow
enough for a phone's column as it is, or made of panels that restack into one column there.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.gridspec import GridSpec

from .heat_table import ColourScale, HeatFigure, heat_figure, heat_table
from .html import PHONE_WIDTH_IN
from .phone import set_phone_layout
from .plots import format_number
from .style import ACCENT, DIVERGING_CMAP, INK, new_figure

QUERY_COLOUR, KEY_COLOUR = ACCENT[1], ACCENT[0]
POSITIVE, NEGATIVE = "#d6604d", "#4393c3"  # the diverging scale's red and blue: signed values, as everywhere

WEIGHTS = ColourScale.for_values(None, vmin=0.0, vmax=1.0)
"""Weights lie in [0, 1]: the sequential scale, as in every weight table of the site."""

TEXT = {
    "dims": "d{k}",
    "weight": "重み",
    "weights_title": "① 重み (足して 1)",
    "output": "出力",
    "corner": "次元 ＼ キー",
    "lookup_title": "② 各キーのバリューと、重み付き平均 (出力)",
    "query": "クエリ「{word}」",
    "plane_x": "列 k = 0",
    "plane_y": "列 k = 1",
    "score": "{word} {score}",
    "joined": "・",
    "scores_box": "score",
    "scores": "① scores",
    "exp": "② exp(scores)",
    "weights": "③ 重み = ② ÷ ② の和",
    "sum": "和 {total}",
    "residual_x": "X (入力)",
    "residual_y": "Y (注意の出力)",
    "residual_sum": "X + Y (残差接続)",
    "residual_dims": ("d0 名詞", "d1 形容詞", "d2 指示", "d3 述語"),
    "value": "値",
    "block_titles": {
        "X": "X: 語の埋め込み + 位置",
        "Y": "Y: 注意で集めたもの",
        "ln1_out": "LN(X + Y): 足して正規化",
        "ffn_out": "FFN の出力",
        "ln2_out": "LN(ln1_out + FFN): 出力",
    },
}
"""The reader-facing words of the intuition page's figures (titles, axes, legends; the title of each step of the
block picture)."""


def lookup_figure(values: np.ndarray, weights: np.ndarray, output: np.ndarray, words: Sequence[str],
                  chosen: int) -> HeatFigure:  # fmt: skip
    """The weights over the keys (T,) on top; under them each key's value (T, d_k) as a column, and the weighted
    average as the last column. Columns, not rows: six columns fit a phone's width, where eight did not."""
    t, d = values.shape
    if weights.shape != (t,) or output.shape != (d,):
        raise ValueError(f"weights must be ({t},) and output ({d},), got {weights.shape} and {output.shape}")
    columns = [*words, TEXT["output"]]
    weight_row = heat_table(
        weights[None, :], [TEXT["weight"]], list(words), fmt="{:.2f}", scale=WEIGHTS, title=TEXT["weights_title"],
        framed_cells=[(0, chosen)],
    )  # fmt: skip
    matrix = np.column_stack([values.T, output])  # (d_k, T + 1)
    span = float(np.abs(matrix).max())
    scale = ColourScale.for_values(None, vmin=-span, vmax=span, center=0.0)
    value_table = heat_table(
        matrix, [TEXT["dims"].format(k=k) for k in range(d)], columns, fmt="{:.1f}", scale=scale,
        title=TEXT["lookup_title"], corner=TEXT["corner"], divider_before=[t], framed_columns=[chosen],
    )  # fmt: skip
    return heat_figure(weight_row, value_table, legend_fmt="{:.1f}")


def _label_at(ax, tip: np.ndarray, direction: np.ndarray, side: float, text: str) -> None:
    """``text`` beside the tip of a key, a few points off the keys' line (to one side or the other)."""
    normal = np.array([-direction[1], direction[0]]) * side
    ax.annotate(text, tip, xytext=tuple(13.0 * normal), textcoords="offset points", fontsize=9, color=KEY_COLOUR,
                ha="left" if normal[0] > 0.2 else "right" if normal[0] < -0.2 else "center",
                va="bottom" if normal[1] > 0.2 else "top" if normal[1] < -0.2 else "center")  # fmt: skip


def _tips_together(keys: np.ndarray, near: float = 0.35) -> list[list[int]]:
    """The keys grouped by where their arrows end: tips closer than ``near`` share one label."""
    groups: list[list[int]] = []
    for j in np.argsort(np.linalg.norm(keys, axis=1)):
        if groups and np.linalg.norm(keys[j] - keys[groups[-1][-1]]) < near:
            groups[-1].append(int(j))
        else:
            groups.append([int(j)])
    return groups


def plane_figure(queries: dict[int, np.ndarray], keys: np.ndarray, scores: dict[int, np.ndarray],
                 words: Sequence[str]) -> Figure:  # fmt: skip
    """One panel per query (position → its (x, y)): the query arrow, every key arrow (T, 2) with its score.

    A zero key is a dot at the origin; keys whose tips nearly meet share one label (their scores are listed beside
    the panel).
    """
    fig, axes = new_figure(6.2, 3.0, ncols=len(queries))
    axes = np.atleast_1d(axes)
    points = np.vstack([keys, *queries.values(), np.zeros(2)])
    low, high = points.min(axis=0) - 0.9, points.max(axis=0) + np.array([0.5, 0.9])
    longest = keys[int(np.argmax(np.linalg.norm(keys, axis=1)))]
    line = longest / np.linalg.norm(longest)
    for ax, (position, q) in zip(axes, queries.items(), strict=True):
        ax.axhline(0, color=INK, lw=0.5, alpha=0.4)
        ax.axvline(0, color=INK, lw=0.5, alpha=0.4)
        direction = q / np.linalg.norm(q)
        reach = float(np.abs(np.concatenate([low, high])).max()) * 1.5
        ax.plot([-reach * direction[0], reach * direction[0]], [-reach * direction[1], reach * direction[1]],
                color=QUERY_COLOUR, lw=0.8, ls=":")  # fmt: skip
        lines = [
            TEXT["score"].format(word=words[j], score=format_number(scores[position][j], "{:+.2f}"))
            for j in range(len(keys))
        ]
        for group in _tips_together(keys):
            tip, name = keys[group[0]], TEXT["joined"].join(words[j] for j in group)
            if np.allclose(tip, 0.0):
                ax.plot([0], [0], "o", color=KEY_COLOUR, ms=4)
                _label_at(ax, tip, np.array([1.0, 0.0]), -1.0, name)  # below the origin
                continue
            for j in group:
                ax.annotate("", keys[j], (0, 0), arrowprops={"arrowstyle": "-|>", "color": KEY_COLOUR, "lw": 1.4})
            _label_at(ax, tip, line, 1.0, name)  # on the side away from the first query (below the line)
        ax.text(1.04, 1.0, "\n".join([TEXT["scores_box"], *lines]), transform=ax.transAxes, ha="left", va="top",
                fontsize=9, color=KEY_COLOUR, linespacing=1.3)  # fmt: skip
        ax.annotate("", q, (0, 0), arrowprops={"arrowstyle": "-|>", "color": QUERY_COLOUR, "lw": 2.4})
        ax.set_title(TEXT["query"].format(word=words[position]), color=QUERY_COLOUR, fontsize=10)
        ax.set_xlim(low[0], high[0])
        ax.set_ylim(low[1], high[1])
        ax.set_aspect("equal")
        ax.set_xlabel(TEXT["plane_x"])
        ax.set_ylabel(TEXT["plane_y"])
        ax.grid(True)
    return set_phone_layout(fig, _panels_one_under_another)


def _panels_one_under_another(fig: Figure) -> float:
    """The phone layout of the plane: the square panels one under another, each at the left of its row with the
    scores beside it (a taller row would make the square wider than the column leaves beside the scores)."""
    grid = GridSpec(len(fig.axes), 1, figure=fig)
    for index, ax in enumerate(fig.axes):
        ax.set_subplotspec(grid[index, 0])
        ax.set_anchor("W")
    return 0.82 * len(fig.axes)


def _bars(ax, labels: Sequence[str], values: np.ndarray, fmt: str, colours: Sequence) -> None:
    """Vertical bars with their values printed; a negative bar's value sits above the zero line (below the bar
    it would meet the words under the axis)."""
    x = np.arange(len(values))
    ax.bar(x, values, color=list(colours), width=0.62)
    ax.axhline(0, color=INK, lw=0.6)
    ax.set_xticks(x, labels=list(labels))
    ax.tick_params(axis="x", length=0)
    top = float(values.max())
    for i, v in enumerate(values):
        ax.text(i, max(v, 0.0) + 0.03 * top, format_number(v, fmt), ha="center", va="bottom", fontsize=9)
    low = min(0.0, float(values.min()))
    ax.set_ylim(low * 1.15, top * 1.22)
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)


def _signed_colours(values: np.ndarray) -> list[str]:
    return [POSITIVE if v > 0 else NEGATIVE for v in values]


def softmax_figure(scores: np.ndarray, numerators: np.ndarray, weights: np.ndarray, words: Sequence[str]) -> Figure:
    """A row's scores, their exp, and the weights (exp over its sum), as three bar panels side by side; signed
    values red and blue, weights on the sequential scale (the site's two colour scales)."""
    fig, axes = new_figure(7.4, 3.0, ncols=3)
    _bars(axes[0], words, scores, "{:+.2f}", _signed_colours(scores))
    axes[0].set_title(TEXT["scores"], fontsize=10)
    _bars(axes[1], words, numerators, "{:.1f}", _signed_colours(numerators))
    axes[1].set_title(TEXT["exp"], fontsize=10)
    _bars(axes[2], words, weights, "{:.2f}", WEIGHTS.rgba(weights))
    axes[2].set_title(TEXT["weights"], fontsize=10)
    axes[1].text(0.02, 0.96, TEXT["sum"].format(total=format_number(float(numerators.sum()), "{:.1f}")),
                 transform=axes[1].transAxes, ha="left", va="top", fontsize=9)  # fmt: skip
    return fig


def residual_figure(x: np.ndarray, y: np.ndarray, total: np.ndarray) -> Figure:
    """Grouped bars over a few named dimensions: the input, what attention added, and their sum."""
    labels = TEXT["residual_dims"]
    if not (x.shape == y.shape == total.shape == (len(labels),)):
        raise ValueError(f"x, y and total must each hold {len(labels)} values, got {x.shape}, {y.shape}, {total.shape}")
    fig, ax = new_figure(PHONE_WIDTH_IN, 3.2)
    positions = np.arange(len(labels))
    width = 0.27
    for offset, values, name, colour in ((-width, x, "residual_x", ACCENT[2]), (0.0, y, "residual_y", ACCENT[3]),
                                         (width, total, "residual_sum", INK)):  # fmt: skip
        ax.bar(positions + offset, values, width=width * 0.95, color=colour, label=TEXT[name])
    ax.axhline(0, color=INK, lw=0.6)
    ax.set_xticks(positions, labels=list(labels))
    ax.tick_params(axis="x", length=0)
    ax.set_ylabel(TEXT["value"])
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.0, 1, 0.2), ncols=2, fontsize=9, mode="expand")
    ax.grid(True, axis="y")
    return fig


def block_figure(stages: Sequence[tuple[str, np.ndarray]], words: Sequence[str]) -> Figure:
    """The block's arrays for one sentence, one small heatmap (T × d_model) per step, top to bottom, one diverging
    scale for all, with an arrow between steps."""
    if not stages:
        raise ValueError("stages must hold at least one (name, array) pair, got none")
    span = float(max(np.abs(a).max() for _, a in stages))
    scale = ColourScale.for_values(None, vmin=-span, vmax=span, center=0.0)
    n = len(stages)
    fig, axes = new_figure(PHONE_WIDTH_IN, 1.32 * n + 0.5, nrows=n)
    for index, (ax, (name, array)) in enumerate(zip(np.atleast_1d(axes), stages, strict=True)):
        t, d = array.shape
        ax.pcolormesh(array, cmap=DIVERGING_CMAP, norm=scale.norm(), edgecolors="none")
        ax.set_xlim(0, d)
        ax.set_ylim(t, 0)
        ax.set_aspect("equal")
        ax.set_yticks(np.arange(t) + 0.5, labels=list(words), fontsize=9.5)
        ticks = list(range(0, d, 4))
        ax.set_xticks(np.array(ticks) + 0.5, labels=[TEXT["dims"].format(k=k) for k in ticks] if index == 0 else [])
        ax.tick_params(length=0, labelsize=9.5)
        ax.xaxis.tick_top()
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.set_title(("↓ " if index else "") + TEXT["block_titles"].get(name, name), fontsize=10, loc="left")
    colour_bar = fig.colorbar(axes[-1].collections[0], ax=list(np.atleast_1d(axes)), orientation="horizontal",
                              fraction=0.03, pad=0.02, aspect=30)  # fmt: skip
    colour_bar.ax.tick_params(labelsize=9.5)
    return fig
