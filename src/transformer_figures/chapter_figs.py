"""Drawing helpers of the textbook chapter pages (Overview … Add & Norm).

Each helper takes what a snippet computed (arrays, a config, a result of :mod:`transformer_math.attention` or
:mod:`transformer_math.stack`) and draws it; it computes nothing the page is about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from transformer_math import ops
from transformer_math.configs import TransformerConfig
from transformer_math.stack import WIRINGS, LNComparison

from .heat_table import ColourScale, HeatFigure, heat_figure, heat_table
from .style import ACCENT, INK, new_figure
from .tables import table_html

TEXT = {
    "post_ln": "Post-LN（原論文）",
    "encoders": "エンコーダ × N = {n}",
    "decoders": "デコーダ × N = {n}",
    "embedding": "埋め込み × √d_model\n+ 位置エンコーディング",
    "source_input": "入力（原文）",
    "output_layer": "線形層（埋め込みと共有）\n→ softmax",
    "next_word": "次の語の確率",
    "target_input": "出力側（ここまでの訳）",
    "encoder_output": "エンコーダの出力\n→ K, V",
    "encoder_output_line": "エンコーダの出力 → K, V",
    "mask_before": "softmax の前にマスク（正しい）",
    "zero_after": "softmax の後で 0 にする（誤り）",
    "query_key": "クエリ i ＼ キー j",
    "row_sum": "和 {sum:.2f}",
    "padding_masked": "パディングマスクあり",
    "no_mask": "マスクなし",
    "x_dec": "X_dec（デコーダ側の入力）",
    "x_enc": "X_enc（エンコーダの最終出力）",
    "q": "Q = X_dec W^Q（ヘッドごと）",
    "out": "出力（W^O の後）",
    "shape_headers": ("配列", "実際に計算した形", "記号で"),
    "cost_headers": (
        "n", "ヘッド数 × 次元", "射影 (W^Q, W^K, W^V, W^O)", "QKᵀ と AV", "積和の合計", "softmax に入る要素",
    ),
    "head": "ヘッド {head}",
    "wavelength": "波長 2π/ω_i",
    "pair_index": "次元の組の番号 i（d_model = {d_model}）",
    "wavelength_axis": "波長（位置の数）",
    "offset": "オフセット k",
    "minimum": "最小 {value:.3f}",
    "values": "値",
    "slopes": "傾き（勾配として逆伝播する量）",
    "input": "入力 x",
    "ln_titles": ("残差ストリームの RMS", "1 ブロックでの相対変化", "‖∂loss/∂W2‖（層平均で割る）"),
    "block_axis": "ブロック（1 が入力側）",
}
"""The reader-facing words of the chapter's figures and tables (titles, axes, legends, headers)."""

POST, PRE = ACCENT[0], ACCENT[1]
WIRING_LABEL = {"post": TEXT["post_ln"], "pre": "Pre-LN"}
WIRING_COLOUR = {"post": POST, "pre": PRE}


def _shape(shape: tuple[int, ...]) -> str:
    return " × ".join(str(s) for s in shape)


# ------------------------------------------------------------------------------------------- overview


def _box(ax, x: float, y: float, w: float, h: float, text: str, colour: str, size: float = 9.0) -> None:
    ax.add_patch(
        FancyBboxPatch(
            (x, y), w, h, boxstyle="round,pad=0.02,rounding_size=0.08", facecolor=colour, alpha=0.22,
            edgecolor=colour, linewidth=1.2,
        )
    )  # fmt: skip
    ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=size)


def _arrow(ax, start: tuple[float, float], end: tuple[float, float], **kw) -> None:
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=10, linewidth=1.0, color="#123456", **kw))


def architecture_figure(cfg: TransformerConfig) -> Figure:
    """The encoder and decoder stacks with their sublayers; sizes written from ``cfg``."""
    fig, ax = new_figure(7.4, 6.0)
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 11.2)
    ax.axis("off")
    enc, dec, emb = ACCENT[0], ACCENT[2], ACCENT[3]
    ffn_text = f"FFN {cfg.d_model}→{cfg.d_ff}→{cfg.d_model}\n+ Add & Norm"
    # encoder (left): two sublayers, each followed by Add & Norm
    ax.add_patch(FancyBboxPatch((0.4, 3.3), 3.8, 3.9, boxstyle="round,pad=0.05", fill=False, edgecolor=enc, lw=1.4))
    ax.text(0.45, 7.45, TEXT["encoders"].format(n=cfg.n_layers), color=enc, fontsize=10, ha="left")
    _box(ax, 0.8, 3.6, 3.0, 1.2, "Multi-Head\nSelf-Attention\n+ Add & Norm", enc, size=8.5)
    _box(ax, 0.8, 5.7, 3.0, 1.2, ffn_text, enc, size=8.5)
    _arrow(ax, (2.3, 4.8), (2.3, 5.7))
    _box(ax, 0.8, 1.7, 3.0, 0.9, TEXT["embedding"], emb, size=8.5)
    _arrow(ax, (2.3, 2.6), (2.3, 3.6))
    ax.text(2.3, 1.2, TEXT["source_input"], ha="center", fontsize=9)
    # decoder (right): three sublayers
    ax.add_patch(FancyBboxPatch((5.6, 2.1), 4.0, 6.3, boxstyle="round,pad=0.05", fill=False, edgecolor=dec, lw=1.4))
    ax.text(5.65, 8.65, TEXT["decoders"].format(n=cfg.n_layers), color=dec, fontsize=10, ha="left")
    _box(ax, 6.1, 2.4, 3.0, 1.2, "Masked Multi-Head\nSelf-Attention\n+ Add & Norm", dec, size=8.5)
    _box(ax, 6.1, 4.5, 3.0, 1.2, "Source-Target\nAttention\n+ Add & Norm", dec, size=8.5)
    _box(ax, 6.1, 6.6, 3.0, 1.2, ffn_text, dec, size=8.5)
    _arrow(ax, (7.6, 3.6), (7.6, 4.5))
    _arrow(ax, (7.6, 5.7), (7.6, 6.6))
    _box(ax, 6.1, 0.6, 3.0, 0.9, TEXT["embedding"], emb, size=8.5)
    _arrow(ax, (7.6, 1.5), (7.6, 2.4))
    _box(ax, 6.1, 9.2, 3.0, 0.9, TEXT["output_layer"], ACCENT[1], size=8.5)
    _arrow(ax, (7.6, 7.8), (7.6, 9.2))
    ax.text(7.6, 10.5, TEXT["next_word"], ha="center", fontsize=9)
    ax.text(7.6, 0.1, TEXT["target_input"], ha="center", fontsize=9)
    # the encoder's final output becomes K and V of every decoder layer's cross-attention
    _arrow(ax, (4.25, 6.3), (6.1, 5.1), connectionstyle="arc3,rad=-0.2")
    ax.text(4.9, 6.75, TEXT["encoder_output"], fontsize=8.5, ha="center")
    ax.text(
        2.3,
        9.6,
        f"d_model = {cfg.d_model}, h = {cfg.n_heads}\nd_k = d_v = {cfg.d_k}, d_ff = {cfg.d_ff}",
        ha="center",
        fontsize=9,
    )
    return fig


def architecture_phone_figure(cfg: TransformerConfig) -> Figure:
    """The same two stacks for a phone's column, one above the other: the encoder below, the decoder above it, the
    encoder's output led up the right edge into every decoder layer's Source-Target Attention."""
    fig, ax = new_figure(3.4, 10.4)
    ax.set_xlim(0, 5.2)
    ax.set_ylim(0, 15.8)
    ax.axis("off")
    enc, dec, emb = ACCENT[0], ACCENT[2], ACCENT[3]
    size, x, w, mid = 9.5, 1.0, 3.2, 2.6  # every text at the phone's smallest size; boxes centred on x = mid
    ffn_text = f"FFN {cfg.d_model}→{cfg.d_ff}→{cfg.d_model}\n+ Add & Norm"
    # encoder (below): the source sentence enters at the bottom
    ax.text(mid, 0.25, TEXT["source_input"], ha="center", fontsize=size)
    _box(ax, x, 0.75, w, 0.85, TEXT["embedding"], emb, size=size)
    _arrow(ax, (mid, 1.6), (mid, 2.2))
    ax.add_patch(FancyBboxPatch((0.8, 2.0), 3.6, 3.0, boxstyle="round,pad=0.05", fill=False, edgecolor=enc, lw=1.4))
    ax.text(0.8, 5.2, TEXT["encoders"].format(n=cfg.n_layers), color=enc, fontsize=size, ha="left")
    _box(ax, x, 2.2, w, 1.1, "Multi-Head\nSelf-Attention\n+ Add & Norm", enc, size=size)
    _arrow(ax, (mid, 3.3), (mid, 3.7))
    _box(ax, x, 3.7, w, 1.1, ffn_text, enc, size=size)
    # decoder (above): the words produced so far enter between the two stacks
    ax.text(mid, 5.95, TEXT["target_input"], ha="center", fontsize=size)
    _box(ax, x, 6.45, w, 0.85, TEXT["embedding"], emb, size=size)
    _arrow(ax, (mid, 7.3), (mid, 7.9))
    ax.add_patch(FancyBboxPatch((0.8, 7.7), 3.6, 4.6, boxstyle="round,pad=0.05", fill=False, edgecolor=dec, lw=1.4))
    ax.text(0.8, 12.5, TEXT["decoders"].format(n=cfg.n_layers), color=dec, fontsize=size, ha="left")
    _box(ax, x, 7.9, w, 1.1, "Masked Multi-Head\nSelf-Attention\n+ Add & Norm", dec, size=size)
    _arrow(ax, (mid, 9.0), (mid, 9.5))
    _box(ax, x, 9.5, w, 1.1, "Source-Target\nAttention\n+ Add & Norm", dec, size=size)
    _arrow(ax, (mid, 10.6), (mid, 11.1))
    _box(ax, x, 11.1, w, 1.1, ffn_text, dec, size=size)
    _arrow(ax, (mid, 12.2), (mid, 13.0))
    _box(ax, x, 13.0, w, 0.85, TEXT["output_layer"], ACCENT[1], size=size)
    ax.text(mid, 14.2, TEXT["next_word"], ha="center", fontsize=size)
    # the encoder's final output becomes K and V of every decoder layer's cross-attention
    route = 4.75
    ax.plot([x + w, route, route], [4.25, 4.25, 10.05], color=INK, lw=1.0)
    _arrow(ax, (route, 10.05), (x + w, 10.05))
    ax.text(route + 0.12, 7.1, TEXT["encoder_output_line"], rotation=90, ha="left", va="center", fontsize=size)
    ax.text(mid, 14.6, f"d_model = {cfg.d_model}, h = {cfg.n_heads}\nd_k = d_v = {cfg.d_k}, d_ff = {cfg.d_ff}",
            ha="center", va="bottom", fontsize=size)  # fmt: skip
    return fig


# ------------------------------------------------------------------------------------------- masks


WEIGHT_SCALE = ColourScale.for_values(None, vmin=0.0, vmax=1.0)
"""Attention weights lie in [0, 1]: one colour scale for every weight table of the chapter."""


def mask_placement_figure(masked_before: np.ndarray, zeroed_after: np.ndarray, words: Sequence[str]) -> HeatFigure:
    """The correct masked weights next to softmax-then-zero (each (T, T)), with each row's sum on the right."""
    panels = ((TEXT["mask_before"], masked_before), (TEXT["zero_after"], zeroed_after))
    tables = [
        heat_table(weights, words, words, scale=WEIGHT_SCALE, title=title, corner=TEXT["query_key"],
                   row_notes=[TEXT["row_sum"].format(sum=s) for s in weights.sum(axis=-1)])
        for title, weights in panels
    ]  # fmt: skip
    return heat_figure(*tables, columns=2, legend_fmt="{:.1f}")


def padding_figure(weights: np.ndarray, weights_unmasked: np.ndarray, valid: np.ndarray) -> HeatFigure:
    """Attention weights (T, T) over real tokens and padding, with and without the padding mask."""
    labels = [f"t{t}" if v else f"pad{t}" for t, v in enumerate(valid)]
    tables = [
        heat_table(w, labels, labels, scale=WEIGHT_SCALE, title=title, corner=TEXT["query_key"])
        for title, w in ((TEXT["padding_masked"], weights), (TEXT["no_mask"], weights_unmasked))
    ]
    return heat_figure(*tables, columns=2, legend_fmt="{:.1f}")


SHAPE_ROWS = (
    ("X_dec", TEXT["x_dec"], "n × d_model"),
    ("X_enc", TEXT["x_enc"], "m × d_model"),
    ("Q", TEXT["q"], "h × n × d_k"),
    ("K", "K = X_enc W^K", "h × m × d_k"),
    ("V", "V = X_enc W^V", "h × m × d_v"),
    ("scores", "scores = Q Kᵀ / √d_k", "h × n × m"),
    ("concat", "Concat(head_1 … head_h)", "n × h·d_v"),
    ("out", TEXT["out"], "n × d_model"),
)


def cross_shapes_table(shapes: Mapping[str, tuple[int, ...]]) -> str:
    """The shapes a cross-attention really produced, beside their symbols."""
    return table_html(
        TEXT["shape_headers"], [[label, _shape(shapes[key]), sym] for key, label, sym in SHAPE_ROWS]
    )


def head_cost_table(rows: Sequence[Sequence[str]]) -> str:
    """One row per (n, heads): the multiply-adds of the projections, of QKᵀ and AV, the total, the softmax size."""
    headers = TEXT["cost_headers"]
    return table_html(headers, rows)


def cross_heads_figure(attn: np.ndarray) -> HeatFigure:
    """The n × m weights of every head (attn: (h, n, m)) in the cross-attention example."""
    h, n, m = attn.shape
    rows = [f"dec{i}" for i in range(n)]
    keys = [f"enc{j}" for j in range(m)]
    tables = [
        heat_table(attn[head], rows, keys, scale=WEIGHT_SCALE, title=TEXT["head"].format(head=head))
        for head in range(h)
    ]
    return heat_figure(*tables, columns=2, legend_fmt="{:.1f}")


# ------------------------------------------------------------------------------------------- positional encoding


def wavelength_figure(lam: np.ndarray, d_model: int) -> Figure:
    """The wavelength 2π/ω_i of each pair i on a log axis, with 2π and 2π·10000 marked."""
    fig, ax = new_figure(6.6, 3.6)
    ax.semilogy(np.arange(len(lam)), lam, color=ACCENT[0], lw=1.8, label=TEXT["wavelength"])
    # each label sits where the curve is far from its line: 2π on the right (the curve is high there),
    # 2π·10000 on the left (the curve is low there)
    for value, text, x, ha, shift, va in (
        (2 * np.pi, "2π", len(lam) * 0.98, "right", 1.4, "bottom"),
        (2 * np.pi * ops.PE_BASE, "2π·10000", len(lam) * 0.02, "left", 0.7, "top"),
    ):
        ax.axhline(value, color=ACCENT[1], lw=0.9, ls="--")
        ax.text(x, value * shift, text, color=ACCENT[1], fontsize=9, ha=ha, va=va)
    ax.set_xlabel(TEXT["pair_index"].format(d_model=d_model))
    ax.set_ylabel(TEXT["wavelength_axis"])
    ax.grid(True, which="major")
    return fig


def offset_dot_figure(ks: np.ndarray, curves: Mapping[int, np.ndarray]) -> Figure:
    """PE(pos)·PE(pos+k) against k, one curve per pos (``curves[pos]``, shape like ``ks``): the curves coincide."""
    fig, ax = new_figure(6.6, 3.4)
    for idx, (pos, dots) in enumerate(curves.items()):
        style = {"lw": (4.0, 2.0, 1.2)[idx], "ls": ("-", "--", ":")[idx], "alpha": (0.45, 1.0, 1.0)[idx]}
        ax.plot(ks, dots, color=ACCENT[idx], label=f"pos = {pos}", **style)
    ax.set_xlabel(TEXT["offset"])
    ax.set_ylabel("PE(pos)·PE(pos+k)")
    ax.legend()
    ax.grid(True)
    return fig


# ------------------------------------------------------------------------------------------- FFN


def relu_gelu_figure(
    x: np.ndarray, values: Mapping[str, np.ndarray], slopes: Mapping[str, np.ndarray], minimum: tuple[float, float]
) -> Figure:
    """ReLU and GELU (``values``) and their slopes (``slopes``) over ``x``; GELU's minimum marked."""
    x_min, y_min = minimum
    fig, axes = new_figure(9.0, 3.6, ncols=2)
    axes[0].plot(x, values["ReLU"], color=ACCENT[0], lw=2.0, label="ReLU")
    axes[0].plot(x, values["GELU"], color=ACCENT[1], lw=2.0, label="GELU")
    axes[0].plot([x_min], [y_min], "o", color=ACCENT[1])
    axes[0].annotate(TEXT["minimum"].format(value=y_min).replace("-", "−"), (x_min, y_min), xytext=(-3.8, 1.2),
                     arrowprops={"arrowstyle": "-", "color": ACCENT[1]}, fontsize=9)  # fmt: skip
    axes[0].set_title(TEXT["values"])
    axes[1].plot(x, slopes["ReLU"], color=ACCENT[0], lw=2.0, label="ReLU′")
    axes[1].plot(x, slopes["GELU"], color=ACCENT[1], lw=2.0, label="GELU′")
    axes[1].set_title(TEXT["slopes"])
    for ax in axes:
        ax.axhline(0, color="#123456", lw=0.6)
        ax.set_xlabel(TEXT["input"])
        ax.grid(True)
        ax.legend()
    return fig


# ------------------------------------------------------------------------------------------- Add & Norm


def ln_stack_figure(ln: LNComparison) -> Figure:
    """Post-LN against Pre-LN by block: the stream's RMS, the relative change per block, the W2 gradient profile."""
    layers = np.arange(1, ln.n_layers + 1)
    fig, axes = new_figure(8.6, 3.4, ncols=3)
    for w in WIRINGS:
        kw = {"color": WIRING_COLOUR[w], "label": WIRING_LABEL[w], "marker": "o", "lw": 1.8}
        axes[0].plot(layers, ln.activation_rms[w], **kw)
        axes[1].plot(layers, ln.relative_update[w], **kw)
        axes[2].errorbar(layers, ln.grad_norm[w], yerr=ln.grad_spread[w], capsize=3, **kw)
    titles = TEXT["ln_titles"]
    for ax, title in zip(axes, titles, strict=True):
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(TEXT["block_axis"])
        ax.set_xticks(layers)
        ax.grid(True)
        ax.set_ylim(bottom=0)
    axes[0].legend(fontsize=9)
    return fig
