"""Drawing helpers of the notes §0–§4: W_E, W_P (heat table and waves), X = W_E + W_P, Q/K/V with the bonds, the
scores and attn of each head, concat and Y, and the verdict tables.

Every helper takes the arrays a snippet computed (and the sentence's words for the labels) and returns a
matplotlib Figure or a HeatFigure; it computes nothing the page is about.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from transformer_math.preset import BONDS, D_K, D_MODEL, DIM_NAMES, N_HEADS, VOCAB, T

from .heat_table import ColourScale, HeatFigure, heat_figure, heat_table
from .html import figure_html, tabs_html
from .plots import format_number
from .style import ACCENT, new_figure
from .tables import table_html

TEXT = {
    "word_dimension": "token id と単語 ＼ 次元 d",
    "position_dimension": "位置 t ＼ 次元 d",
    "sin": "sin (偶数次元)",
    "cos": "cos (奇数次元)",
    "pair_period": "d{even}, d{odd}  周期 {period:,.1f}",
    "position": "位置 t",
    "sentence_length": "文の長さ T = {T}",
    "period_axis": "周期 (位置の数, 対数軸)",
    "x_parts": ("W_E[tokens] (単語の意味)", "+ W_P (位置)", "= X (ブロックへの入力)"),
    "name_head": "{name}  ヘッド {head}",
    "bond_column": "{name}  (列 g{column})",
    "concat": "concat (ヘッド 0 | ヘッド 1)",
    "y_terms": "{word} の Y をキーのトークンごとの項に分ける",
    "key_dimension": "キー j ＼ 次元 d",
    "head_name": "ヘッド {head} の {name}",
    "query_key": "クエリ i ＼ キー j",
    "won": "勝ち",
    "lost": "負け (勝者 {winner})",
    "lost_short": "負け ({winner})",
    "verdict_headers": ("関係", "ヘッド", "重み", "次点 (重み)", "差", "次点の何倍", "判定", "他ヘッドの重み"),
    "sentence": "文{number}",
    "summary_headers": ("文", "関係", "ヘッド", "重み", "次点", "差", "判定"),
}
"""The reader-facing words of the notes' attention figures and tables (titles, axes, legends, headers)."""

DIM_LABELS = tuple(f"d{d} {name}" for d, name in enumerate(DIM_NAMES))
BOND_COLOUR = ACCENT[1]


def token_labels(words: Sequence[str]) -> list[str]:
    """Row labels "T0 これ", "T1 は", … of one sentence."""
    return [f"T{t} {w}" for t, w in enumerate(words)]


# ---------------------------------------------------------------------------------------------- §1
def embedding_figure(W_E: np.ndarray) -> HeatFigure:
    """W_E (16 words × 16 named dimensions), the non-zero entries printed."""
    # A value added into the signed X = W_E[tokens] + W_P, not a weight: the diverging scale centred at 0, as
    # §2 and the X decomposition colour the same rows (white = 0, so its zeros stay the background; red = +).
    table = heat_table(W_E, [f"{i} {w}" for i, w in enumerate(VOCAB)], DIM_LABELS, fmt="{:.1f}", center=0.0,
                       corner=TEXT["word_dimension"], vertical_columns=True, hidden_zeros=True,
                       divider_before=(8, 12))  # category | feature | identity trace  # fmt: skip
    return heat_figure(table, legend_fmt="{:.1f}")


def positional_heatmap_figure(W_P: np.ndarray) -> HeatFigure:
    """W_P (T × d_model): sin in even, cos in odd dimensions."""
    cols = [f"d{d} {'cos' if d % 2 else 'sin'}" for d in range(D_MODEL)]
    table = heat_table(W_P, [f"t={t}" for t in range(T)], cols, fmt="{:+.2f}", center=0.0,
                       corner=TEXT["position_dimension"], vertical_columns=True)  # fmt: skip
    return heat_figure(table, legend_fmt="{:+.1f}")


def positional_waves_figure(omegas: np.ndarray, periods: np.ndarray) -> Figure:
    """One panel per dimension pair i: sin/cos(ω_i t) as curves, the T sampled positions marked, the period."""
    fig, axes = new_figure(9.0, 5.2, nrows=2, ncols=4, sharex=True, sharey=True)
    t_line = np.linspace(0.0, T - 1, 200)
    t_dots = np.arange(T)
    for i, ax in enumerate(axes.flat):
        ax.plot(t_line, np.sin(omegas[i] * t_line), color=ACCENT[0], linewidth=1.6, label=TEXT["sin"])
        ax.plot(t_line, np.cos(omegas[i] * t_line), color=ACCENT[1], linewidth=1.6, linestyle="--",
                label=TEXT["cos"])  # fmt: skip
        ax.plot(t_dots, np.sin(omegas[i] * t_dots), "o", color=ACCENT[0], markersize=4.5)
        ax.plot(t_dots, np.cos(omegas[i] * t_dots), "s", color=ACCENT[1], markersize=4.5)
        ax.set_title(TEXT["pair_period"].format(even=2 * i, odd=2 * i + 1, period=periods[i]), fontsize=9.5)
        ax.set_ylim(-1.15, 1.15)
        ax.set_xticks(t_dots)
        ax.axhline(0.0, color="#888888", linewidth=0.6)
        ax.grid(True)
    for ax in axes[1]:
        ax.set_xlabel(TEXT["position"])
    axes[0, 0].legend(loc="lower left", fontsize=8)
    return fig


def positional_periods_figure(periods: np.ndarray) -> Figure:
    """The period of each pair on a log axis, against the sentence length T = 5."""
    fig, ax = new_figure(7.0, 3.0)
    labels = [f"d{2 * i},d{2 * i + 1}" for i in range(len(periods))]
    ax.bar(labels, periods, color=ACCENT[0])
    ax.set_yscale("log")
    ax.axhline(T, color=ACCENT[1], linewidth=1.5, linestyle="--", label=TEXT["sentence_length"].format(T=T))
    ax.legend(loc="upper left", fontsize=9)  # a label on the line itself sat on the first bar
    for x, p in enumerate(periods):
        ax.text(x, p * 1.15, f"{p:,.0f}" if p >= 10 else f"{p:.2f}", ha="center", fontsize=8)
    ax.set_ylabel(TEXT["period_axis"])
    ax.set_ylim(1, periods[-1] * 4)
    return fig


def x_decomposition_figure(X_tok: np.ndarray, X_pos: np.ndarray, X: np.ndarray, words: Sequence[str]) -> HeatFigure:
    """W_E[tokens] + W_P = X for one sentence, three heat tables on one colour scale."""
    words = token_labels(words)
    scale = ColourScale.for_values(X, center=0.0)
    titles = TEXT["x_parts"]
    short = [f"d{d}" for d in range(D_MODEL)]  # the dimensions are named once, on the first table
    tables = [
        heat_table(
            matrix,
            words,
            DIM_LABELS if k == 0 else short,
            scale=scale,
            title=title,
            vertical_columns=k == 0,
            hidden_zeros=True,
        )
        for k, (matrix, title) in enumerate(zip((X_tok, X_pos, X), titles, strict=True))
    ]
    return heat_figure(*tables)


# ---------------------------------------------------------------------------------------------- §2
def _bond_columns(head: int) -> list[int]:
    return [b.column - head * D_K for b in BONDS if b.head == head]


def qkv_figure(Q: np.ndarray, K: np.ndarray, V: np.ndarray, words: Sequence[str]) -> HeatFigure:
    """Q, K, V (T, h, d_k) as one T × d_k table per head; the bond columns framed (not in V: V = X, W_V = I)."""
    words = token_labels(words)
    span = float(max(np.abs(Q).max(), np.abs(K).max(), np.abs(V).max()))  # one scale for all
    scale = ColourScale.for_values(None, vmin=-span, vmax=span, center=0.0)
    tables = [
        heat_table(
            tensor[:, head, :],
            words,
            [f"g{head * D_K + k}" for k in range(D_K)],
            scale=scale,
            title=TEXT["name_head"].format(name=name, head=head),
            hidden_zeros=True,
            framed_columns=_bond_columns(head) if name != "V" else (),
        )
        for name, tensor in (("Q", Q), ("K", K), ("V", V))
        for head in range(N_HEADS)
    ]
    return heat_figure(*tables, columns=N_HEADS)


def bond_split_figure(splits: Sequence[tuple[np.ndarray, np.ndarray]], words: Sequence[str]) -> HeatFigure:
    """Each bond's query and key column per token, split into the W_E part and the W_P part, and their sum.

    ``splits[b] = (query, key)``, each (T, 2): column 0 from W_E[tokens], column 1 from W_P. One table per bond
    (the query side's two parts and total, a rule, then the key side's), all on one colour scale.
    """
    words = token_labels(words)
    matrices = [np.concatenate([q, q.sum(axis=1, keepdims=True), k, k.sum(axis=1, keepdims=True)], axis=1)
                for q, k in splits]  # fmt: skip
    span = max(float(np.abs(m).max()) for m in matrices)
    scale = ColourScale.for_values(None, vmin=-span, vmax=span, center=0.0)
    tables = []
    for b, matrix in zip(BONDS, matrices, strict=True):
        columns = ["Q: W_E", "Q: W_P", f"Q = X[:, d{b.query_dim}]", "K: W_E", "K: W_P", f"K = X[:, d{b.key_dim}]"]
        title = TEXT["bond_column"].format(name=b.name, column=b.column)
        tables.append(heat_table(matrix, words, columns, scale=scale, title=title, vertical_columns=True,
                                 divider_before=(3,)))  # fmt: skip
    return heat_figure(*tables, columns=len(BONDS))


# ---------------------------------------------------------------------------------------------- §4
def concat_figure(concat: np.ndarray, Y: np.ndarray, words: Sequence[str]) -> HeatFigure:
    """concat (T × h·d_k) and Y = concat · W_O (T × d_model), the head boundary marked."""
    words = token_labels(words)
    scale = ColourScale.for_values(Y, center=0.0)
    tables = [
        heat_table(matrix, words, cols, scale=scale, title=title, vertical_columns=True, divider_before=(D_K,))
        for matrix, title, cols in (
            (concat, TEXT["concat"], [f"g{d}" for d in range(D_MODEL)]),
            (Y, "Y = concat · W_O", DIM_LABELS),
        )
    ]
    return heat_figure(*tables)


def y_sources_figure(terms: np.ndarray, words: Sequence[str], t: int) -> HeatFigure:
    """Where Y[t, d] comes from: ``terms[j, d]`` = attn[head, t, j]·V[j, head, k] of each key token j, and their sum."""
    words = token_labels(words)
    matrix = np.vstack([terms, terms.sum(axis=0)])
    rows = [f"← {w}" for w in words] + [f"= Y[{words[t]}, d]"]
    table = heat_table(matrix, rows, DIM_LABELS, center=0.0, title=TEXT["y_terms"].format(word=words[t]),
                       corner=TEXT["key_dimension"], vertical_columns=True, divider_before=(D_K,),
                       rule_before_rows=(T,))  # fmt: skip
    return heat_figure(table)


# ---------------------------------------------------------------------------------------------- §3 extension
def head_tables(
    matrices: np.ndarray, words: Sequence[str], name: str, fmt: str, legend_fmt: str, **scale: float
) -> HeatFigure:
    """One T × T heat table per head of ``matrices`` (h, T, T) — scores or attn — rows = queries, columns = keys.

    Every head shares one colour scale (``scale``: ``center=0.0`` for signed values, ``vmin``/``vmax`` for weights).
    """
    shared = ColourScale.for_values(matrices if "vmin" not in scale else None, **scale)
    tables = [
        heat_table(
            m, words, words, fmt=fmt, scale=shared, title=TEXT["head_name"].format(head=head, name=name),
            corner=TEXT["query_key"],
        )
        for head, m in enumerate(matrices)
    ]
    return heat_figure(*tables, columns=len(tables), legend_fmt=legend_fmt)


def attention_relations_figure(scores: np.ndarray, attn: np.ndarray, verdicts, words: Sequence[str]) -> HeatFigure:
    """scores (top) and attn (bottom) per head; each intended relation's cell framed (solid), a lost row's actual
    winner framed dashed. ``verdicts``: the sentence's RelationVerdicts (transformer_pages.notes.attention)."""
    words = token_labels(words)
    keys = [w.split(" ")[1] for w in words]
    score_scale = ColourScale.for_values(scores, center=0.0)  # one colour scale for both heads' scores
    weight_scale = ColourScale.for_values(None, vmin=0.0, vmax=1.0)
    tables = []
    for name, tensor, scale, fmt in (
        ("scores", scores, score_scale, "{:+.2f}"),
        ("attn", attn, weight_scale, "{:.3f}"),
    ):
        for head in range(N_HEADS):
            mine = [v for v in verdicts if v.head == head]
            tables.append(heat_table(
                tensor[head], words, keys, fmt=fmt, scale=scale, title=TEXT["name_head"].format(name=name, head=head),
                corner=TEXT["query_key"], framed_cells=[(v.query_pos, v.key_pos) for v in mine],
                dashed_cells=[(v.query_pos, v.winner_pos) for v in mine if not v.wins],
            ))  # fmt: skip
    return HeatFigure(tuple(tables), ((score_scale, "{:+.2f}"), (weight_scale, "{:.1f}")), columns=N_HEADS)


def outcome(v, short: bool = False) -> str:
    """Won, or lost with the word that won the row (``short``: without naming it the winner)."""
    if v.wins:
        return TEXT["won"]
    return TEXT["lost_short" if short else "lost"].format(winner=v.winner)


def verdict_table_html(verdicts) -> str:
    """One row per relation: head, weight, runner-up, margin, ratio, outcome, the same pair in the other head."""
    rows = [
        [f"{v.query} → {v.key}", str(v.head), format_number(v.weight, "{:.3f}"),
         f"{v.runner_up} ({format_number(v.runner_up_weight, '{:.3f}')})", format_number(v.margin, "{:+.3f}"),
         f"×{v.weight_ratio:.1f}", outcome(v), format_number(v.other_head_weight, "{:.3f}")]
        for v in verdicts
    ]  # fmt: skip
    headers = TEXT["verdict_headers"]
    return table_html(headers, rows)


def verdict_summary_html(verdicts) -> str:
    """All relations in the given order: sentence, relation, head, weight, runner-up, margin, outcome."""
    rows = [
        [TEXT["sentence"].format(number=v.sentence), f"{v.query} → {v.key}", str(v.head),
         format_number(v.weight, "{:.3f}"), v.runner_up,
         format_number(v.margin, "{:+.3f}"), outcome(v, short=True)]
        for v in verdicts
    ]  # fmt: skip
    return table_html(TEXT["summary_headers"], rows)


def relations_tabs(panels: dict[str, tuple], alts: dict[str, str], name: str) -> str:
    """One tab per sentence: its scores/attn figure (``panels[label]`` = scores, attn, verdicts, words) with the
    verdict table under it."""
    return tabs_html(
        {label: figure_html(attention_relations_figure(*data), alts[label]) + "\n" + verdict_table_html(data[2])
         for label, data in panels.items()},
        name,
    )  # fmt: skip
