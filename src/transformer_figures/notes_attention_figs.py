"""Figures of the notes §0–§4: W_E, W_P (heat table and waves), X = W_E + W_P, Q/K/V with the bonds, concat and Y.

Every function takes only what selects the figure (a sentence number) and returns a matplotlib Figure; the
snippets wrap it with :func:`transformer_figures.figure_html` and, for the eight sentences, ``tabs_html``.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from transformer_math import analysis_attention, ops, preset, preset_trace
from transformer_math.preset import BONDS, D_K, D_MODEL, DIM_NAMES, N_HEADS, VOCAB, T

from .heat_table import ColourScale, HeatFigure, heat_figure, heat_table
from .plots import format_number
from .style import ACCENT, new_figure

DIM_LABELS = tuple(f"d{d} {name}" for d, name in enumerate(DIM_NAMES))
BOND_COLOUR = ACCENT[1]


def _plain_words(sentence_number: int) -> tuple[str, ...]:
    return preset.sentence(sentence_number).words


def _words(sentence_number: int) -> list[str]:
    return [f"T{t} {w}" for t, w in enumerate(_plain_words(sentence_number))]


# ---------------------------------------------------------------------------------------------- §1
def embedding_figure() -> HeatFigure:
    """W_E (16 words × 16 named dimensions), the non-zero entries printed."""
    W_E = preset.build_embedding()
    table = heat_table(W_E, [f"{i} {w}" for i, w in enumerate(VOCAB)], DIM_LABELS, fmt="{:.1f}", cmap="Blues",
                       vmin=0.0, vmax=3.0, corner="token id と単語 ＼ 次元 d", vertical_columns=True, hidden_zeros=True,
                       divider_before=(8, 12))  # category | feature | identity trace  # fmt: skip
    return heat_figure(table, legend_fmt="{:.1f}")


def positional_heatmap_figure() -> HeatFigure:
    """W_P (T × d_model): sin in even, cos in odd dimensions."""
    W_P = ops.positional_encoding(T, D_MODEL)
    cols = [f"d{d} {'cos' if d % 2 else 'sin'}" for d in range(D_MODEL)]
    table = heat_table(W_P, [f"t={t}" for t in range(T)], cols, fmt="{:+.2f}", center=0.0, corner="位置 t ＼ 次元 d",
                       vertical_columns=True)  # fmt: skip
    return heat_figure(table, legend_fmt="{:+.1f}")


def positional_waves_figure() -> Figure:
    """One panel per dimension pair: the continuous sin/cos of t, the T sampled positions marked, the period."""
    periods = analysis_attention.pe_periods()
    omegas = ops.pe_angular_frequencies(D_MODEL)
    fig, axes = new_figure(9.0, 5.2, nrows=2, ncols=4, sharex=True, sharey=True)
    t_line = np.linspace(0.0, T - 1, 200)
    t_dots = np.arange(T)
    for i, ax in enumerate(axes.flat):
        ax.plot(t_line, np.sin(omegas[i] * t_line), color=ACCENT[0], linewidth=1.6, label="sin (偶数次元)")
        ax.plot(t_line, np.cos(omegas[i] * t_line), color=ACCENT[1], linewidth=1.6, linestyle="--",
                label="cos (奇数次元)")  # fmt: skip
        ax.plot(t_dots, np.sin(omegas[i] * t_dots), "o", color=ACCENT[0], markersize=4.5)
        ax.plot(t_dots, np.cos(omegas[i] * t_dots), "s", color=ACCENT[1], markersize=4.5)
        ax.set_title(f"d{2 * i}, d{2 * i + 1}  周期 {periods[i]:,.1f}", fontsize=9.5)
        ax.set_ylim(-1.15, 1.15)
        ax.set_xticks(t_dots)
        ax.axhline(0.0, color="#888888", linewidth=0.6)
        ax.grid(True)
    for ax in axes[1]:
        ax.set_xlabel("位置 t")
    axes[0, 0].legend(loc="lower left", fontsize=8)
    return fig


def positional_periods_figure() -> Figure:
    """The period of each pair on a log axis, against the sentence length T = 5."""
    periods = analysis_attention.pe_periods()
    fig, ax = new_figure(7.0, 3.0)
    labels = [f"d{2 * i},d{2 * i + 1}" for i in range(len(periods))]
    ax.bar(labels, periods, color=ACCENT[0])
    ax.set_yscale("log")
    ax.axhline(T, color=ACCENT[1], linewidth=1.5, linestyle="--", label=f"文の長さ T = {T}")
    ax.legend(loc="upper left", fontsize=9)  # a label on the line itself sat on the first bar
    for x, p in enumerate(periods):
        ax.text(x, p * 1.15, f"{p:,.0f}" if p >= 10 else f"{p:.2f}", ha="center", fontsize=8)
    ax.set_ylabel("周期 (位置の数, 対数軸)")
    ax.set_ylim(1, periods[-1] * 4)
    return fig


def x_decomposition_figure(sentence_number: int) -> HeatFigure:
    """W_E[tokens] + W_P = X for one sentence, three heat tables on one colour scale."""
    words = _words(sentence_number)
    trace = preset_trace(sentence_number)
    scale = ColourScale.for_values(trace.X, center=0.0)
    titles = ("W_E[tokens] (単語の意味)", "+ W_P (位置)", "= X (ブロックへの入力)")
    short = [f"d{d}" for d in range(D_MODEL)]  # the dimensions are named once, on the first table
    tables = [
        heat_table(matrix, words, DIM_LABELS if k == 0 else short, scale=scale, title=title,
                   vertical_columns=k == 0, hidden_zeros=True)
        for k, (matrix, title) in enumerate(zip((trace.X_tok, trace.X_pos, trace.X), titles, strict=True))
    ]
    return heat_figure(*tables)


# ---------------------------------------------------------------------------------------------- §2
def _bond_columns(head: int) -> list[int]:
    return [b.column - head * D_K for b in BONDS if b.head == head]


def qkv_figure(sentence_number: int) -> HeatFigure:
    """Q, K, V (T × d_k) per head; the bond columns framed. V = X because W_V = I."""
    words = _words(sentence_number)
    trace = preset_trace(sentence_number)
    span = float(max(np.abs(trace.Q).max(), np.abs(trace.K).max(), np.abs(trace.V).max()))  # one scale for all
    scale = ColourScale.for_values(None, vmin=-span, vmax=span, center=0.0)
    tables = [
        heat_table(tensor[:, head, :], words, [f"g{head * D_K + k}" for k in range(D_K)], scale=scale,
                   title=f"{name}  ヘッド {head}", hidden_zeros=True,
                   framed_columns=_bond_columns(head) if name != "V" else ())
        for name, tensor in (("Q", trace.Q), ("K", trace.K), ("V", trace.V))
        for head in range(N_HEADS)
    ]
    return heat_figure(*tables, columns=N_HEADS)


def bond_split_figure(sentence_number: int) -> HeatFigure:
    """Each bond's query and key column per token, split into the W_E part and the W_P part, and their sum.

    One table per bond (rows: tokens; columns: the query column's two parts and total, then the key
    column's), all on one colour scale; a rule separates the query side from the key side.
    """
    words = _words(sentence_number)
    splits = [[analysis_attention.bond_split(sentence_number, i, side) for side in ("query", "key")]
              for i in range(len(BONDS))]  # fmt: skip
    span = max(float(np.abs(np.stack([x.tok, x.pos, x.total])).max()) for pair in splits for x in pair)
    scale = ColourScale.for_values(None, vmin=-span, vmax=span, center=0.0)
    tables = []
    for b, (query, key) in zip(BONDS, splits, strict=True):
        columns = ["Q: W_E", "Q: W_P", f"Q = X[:, d{query.dim}]", "K: W_E", "K: W_P", f"K = X[:, d{key.dim}]"]
        matrix = np.stack([query.tok, query.pos, query.total, key.tok, key.pos, key.total], axis=1)
        tables.append(heat_table(matrix, words, columns, scale=scale, title=f"{b.name}  (列 g{b.column})",
                                 vertical_columns=True, divider_before=(3,)))  # fmt: skip
    return heat_figure(*tables, columns=len(BONDS))


# ---------------------------------------------------------------------------------------------- §4
def concat_figure(sentence_number: int) -> HeatFigure:
    """out per head (T × d_k) → concat (T × d_model) → Y = concat · W_O, the head boundary marked."""
    words = _words(sentence_number)
    trace = preset_trace(sentence_number)
    scale = ColourScale.for_values(trace.Y, center=0.0)
    tables = [
        heat_table(matrix, words, cols, scale=scale, title=title, vertical_columns=True, divider_before=(D_K,))
        for matrix, title, cols in (
            (trace.concat, "concat (ヘッド 0 | ヘッド 1)", [f"g{d}" for d in range(D_MODEL)]),
            (trace.Y, "Y = concat · W_O", DIM_LABELS),
        )
    ]
    return heat_figure(*tables)


def y_sources_figure(sentence_number: int, t: int) -> HeatFigure:
    """Where Y[t, d] comes from: the term attn[head, t, j]·V[j, head, k] of each key token j, and their sum."""
    terms = np.array([analysis_attention.y_sources(sentence_number, t, d) for d in range(D_MODEL)]).T  # (j, d)
    words = _words(sentence_number)
    matrix = np.vstack([terms, terms.sum(axis=0)])
    rows = [f"← {w}" for w in words] + [f"= Y[{words[t]}, d]"]
    table = heat_table(matrix, rows, DIM_LABELS, center=0.0, title=f"{words[t]} の Y をキーのトークンごとの項に分ける",
                       corner="キー j ＼ 次元 d", vertical_columns=True, divider_before=(D_K,),
                       rule_before_rows=(T,))  # fmt: skip
    return heat_figure(table)


# ---------------------------------------------------------------------------------------------- §3 extension
def attention_relations_figure(sentence_number: int) -> HeatFigure:
    """scores (top) and attn (bottom) per head; each intended relation's cell framed (solid), a lost row's
    actual winner framed dashed."""
    words = _words(sentence_number)
    keys = [w.split(" ")[1] for w in words]
    trace = preset_trace(sentence_number)
    verdicts = analysis_attention.relation_verdicts(sentence_number)
    score_scale = ColourScale.for_values(trace.scores, center=0.0)  # one colour scale for both heads' scores
    weight_scale = ColourScale.for_values(None, vmin=0.0, vmax=1.0)
    tables = []
    for name, tensor, scale, fmt in (("scores", trace.scores, score_scale, "{:+.2f}"),
                                     ("attn", trace.attn, weight_scale, "{:.3f}")):  # fmt: skip
        for head in range(N_HEADS):
            mine = [v for v in verdicts if v.head == head]
            tables.append(heat_table(
                tensor[head], words, keys, fmt=fmt, scale=scale, title=f"{name}  ヘッド {head}",
                corner="クエリ i ＼ キー j", framed_cells=[(v.query_pos, v.key_pos) for v in mine],
                dashed_cells=[(v.query_pos, v.winner_pos) for v in mine if not v.wins],
            ))  # fmt: skip
    return HeatFigure(tuple(tables), ((score_scale, "{:+.2f}"), (weight_scale, "{:.1f}")), columns=N_HEADS)


def table_html(headers: list[str], rows: list[list[str]], caption: str | None = None) -> str:
    """A plain HTML table (Material styles it like a Markdown table). Cells are escaped."""
    import html

    if any(len(r) != len(headers) for r in rows):
        raise ValueError(f"every row must have {len(headers)} cells like headers, got {[len(r) for r in rows]}")
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)

    def cell(c: str) -> str:
        # a relation "美しい → 花" broken after the arrow reads as two cells; keep it on one line
        style = ' style="white-space: nowrap"' if "→" in c else ""
        return f"<td{style}>{html.escape(c)}</td>"

    body = "".join("<tr>" + "".join(cell(c) for c in r) + "</tr>" for r in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return (
        # the same wrappers Material puts around a Markdown table: a wide table scrolls instead of overflowing
        '<div class="md-typeset__scrollwrap"><div class="md-typeset__table">'
        f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div></div>"
    )


def verdict_table_html(sentence_number: int) -> str:
    """One row per intended relation: head, weight, runner-up, margin, verdict, the same pair in the other head."""
    rows = []
    for v in analysis_attention.relation_verdicts(sentence_number):
        rows.append([
            f"{v.query} → {v.key}", str(v.head), format_number(v.weight, "{:.3f}"),
            f"{v.runner_up} ({format_number(v.runner_up_weight, '{:.3f}')})", format_number(v.margin, "{:+.3f}"),
            f"×{v.weight_ratio:.1f}", "勝ち" if v.wins else f"負け (勝者 {v.winner})",
            format_number(v.other_head_weight, "{:.3f}"),
        ])  # fmt: skip
    # short cells (head as a bare number): with 8 columns Material's padding already fills the 720 px column
    headers = ["関係", "ヘッド", "重み", "次点 (重み)", "差", "次点の何倍", "判定", "他ヘッドの重み"]
    return table_html(headers, rows)
