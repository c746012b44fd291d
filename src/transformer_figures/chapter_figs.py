"""Figures of the textbook chapter pages (Overview … Add & Norm), drawn from :mod:`transformer_math.experiments`."""

from __future__ import annotations

import html

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from transformer_math import experiments, ops
from transformer_math.configs import TRANSFORMER_BASE, TransformerConfig

from .heat_table import ColourScale, HeatFigure, heat_figure, heat_table
from .style import ACCENT, new_figure

POST, PRE = ACCENT[0], ACCENT[1]
WIRING_LABEL = {"post": "Post-LN（原論文）", "pre": "Pre-LN"}
WIRING_COLOUR = {"post": POST, "pre": PRE}


def table_html(headers: list[str], rows: list[list[str]], caption: str | None = None) -> str:
    """A plain HTML table (Material styles it); cells are escaped."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


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


def architecture_figure(cfg: TransformerConfig = TRANSFORMER_BASE) -> Figure:
    """The encoder and decoder stacks with their sublayers; sizes written from ``cfg``."""
    fig, ax = new_figure(7.4, 6.0)
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 11.2)
    ax.axis("off")
    enc, dec, emb = ACCENT[0], ACCENT[2], ACCENT[3]
    ffn_text = f"FFN {cfg.d_model}→{cfg.d_ff}→{cfg.d_model}\n+ Add & Norm"
    # encoder (left): two sublayers, each followed by Add & Norm
    ax.add_patch(FancyBboxPatch((0.4, 3.3), 3.8, 3.9, boxstyle="round,pad=0.05", fill=False, edgecolor=enc, lw=1.4))
    ax.text(0.45, 7.45, f"エンコーダ × N = {cfg.n_layers}", color=enc, fontsize=10, ha="left")
    _box(ax, 0.8, 3.6, 3.0, 1.2, "Multi-Head\nSelf-Attention\n+ Add & Norm", enc, size=8.5)
    _box(ax, 0.8, 5.7, 3.0, 1.2, ffn_text, enc, size=8.5)
    _arrow(ax, (2.3, 4.8), (2.3, 5.7))
    _box(ax, 0.8, 1.7, 3.0, 0.9, "埋め込み × √d_model\n+ 位置エンコーディング", emb, size=8.5)
    _arrow(ax, (2.3, 2.6), (2.3, 3.6))
    ax.text(2.3, 1.2, "入力（原文）", ha="center", fontsize=9)
    # decoder (right): three sublayers
    ax.add_patch(FancyBboxPatch((5.6, 2.1), 4.0, 6.3, boxstyle="round,pad=0.05", fill=False, edgecolor=dec, lw=1.4))
    ax.text(5.65, 8.65, f"デコーダ × N = {cfg.n_layers}", color=dec, fontsize=10, ha="left")
    _box(ax, 6.1, 2.4, 3.0, 1.2, "Masked Multi-Head\nSelf-Attention\n+ Add & Norm", dec, size=8.5)
    _box(ax, 6.1, 4.5, 3.0, 1.2, "Source-Target\nAttention\n+ Add & Norm", dec, size=8.5)
    _box(ax, 6.1, 6.6, 3.0, 1.2, ffn_text, dec, size=8.5)
    _arrow(ax, (7.6, 3.6), (7.6, 4.5))
    _arrow(ax, (7.6, 5.7), (7.6, 6.6))
    _box(ax, 6.1, 0.6, 3.0, 0.9, "埋め込み × √d_model\n+ 位置エンコーディング", emb, size=8.5)
    _arrow(ax, (7.6, 1.5), (7.6, 2.4))
    _box(ax, 6.1, 9.2, 3.0, 0.9, "線形層（埋め込みと共有）\n→ softmax", ACCENT[1], size=8.5)
    _arrow(ax, (7.6, 7.8), (7.6, 9.2))
    ax.text(7.6, 10.5, "次の語の確率", ha="center", fontsize=9)
    ax.text(7.6, 0.1, "出力側（ここまでの訳）", ha="center", fontsize=9)
    # the encoder's final output becomes K and V of every decoder layer's cross-attention
    _arrow(ax, (4.25, 6.3), (6.1, 5.1), connectionstyle="arc3,rad=-0.2")
    ax.text(4.9, 6.75, "エンコーダの出力\n→ K, V", fontsize=8, ha="center")
    ax.text(
        2.3,
        9.6,
        f"d_model = {cfg.d_model}, h = {cfg.n_heads}\nd_k = d_v = {cfg.d_k}, d_ff = {cfg.d_ff}",
        ha="center",
        fontsize=9,
    )
    return fig


# ------------------------------------------------------------------------------------------- masks


WEIGHT_SCALE = ColourScale.for_values(None, vmin=0.0, vmax=1.0)
"""Attention weights lie in [0, 1]: one colour scale for every weight table of the chapter."""


def mask_placement_figure() -> HeatFigure:
    """The correct masked weights next to softmax-then-zero, with each row's sum on the right."""
    m = experiments.MASK
    words = list(experiments.MASK_WORDS)
    panels = (
        ("softmax の前にマスク（正しい）", m.masked_before, m.row_sums_before),
        ("softmax の後で 0 にする（誤り）", m.zeroed_after, m.row_sums_zeroed),
    )
    tables = [
        heat_table(weights, words, words, scale=WEIGHT_SCALE, title=title, corner="クエリ i ＼ キー j",
                   row_notes=[f"和 {s:.2f}" for s in sums])
        for title, weights, sums in panels
    ]
    return heat_figure(*tables, columns=2, legend_fmt="{:.1f}")


def padding_figure() -> HeatFigure:
    """Attention weights over real tokens and padding, with and without the padding mask."""
    p = experiments.PADDING
    labels = [f"t{t}" if v else f"pad{t}" for t, v in enumerate(p.valid)]
    tables = [
        heat_table(weights, labels, labels, scale=WEIGHT_SCALE, title=title, corner="クエリ i ＼ キー j")
        for title, weights in (("パディングマスクあり", p.weights), ("マスクなし", p.weights_unmasked))
    ]
    return heat_figure(*tables, columns=2, legend_fmt="{:.1f}")


def cross_shapes_table() -> str:
    c = experiments.CROSS
    rows = [
        ["X_dec（デコーダ側の入力）", _shape(c.shapes["X_dec"]), "n × d_model"],
        ["X_enc（エンコーダの最終出力）", _shape(c.shapes["X_enc"]), "m × d_model"],
        ["Q = X_dec W^Q（ヘッドごと）", _shape(c.shapes["Q"]), "h × n × d_k"],
        ["K = X_enc W^K", _shape(c.shapes["K"]), "h × m × d_k"],
        ["V = X_enc W^V", _shape(c.shapes["V"]), "h × m × d_v"],
        ["scores = Q Kᵀ / √d_k", _shape(c.shapes["scores"]), "h × n × m"],
        ["Concat(head_1 … head_h)", _shape(c.shapes["concat"]), "n × h·d_v"],
        ["出力（W^O の後）", _shape(c.shapes["out"]), "n × d_model"],
    ]
    return table_html(["配列", "実際に計算した形", "記号で"], rows)


# ------------------------------------------------------------------------------------------- heads


def head_cost_table() -> str:
    h = TRANSFORMER_BASE.n_heads
    rows = []
    for n in experiments.HEAD_COST_LENGTHS:
        for heads in (1, h):
            run = experiments.HEAD_COST[(n, heads)]
            proj, mix = run.projection_macs, run.mixing_macs
            d_k = run.shapes["Q"][2]
            rows.append(
                [str(n), f"{heads} × {d_k}", f"{proj:,}", f"{mix:,}", f"{run.total_macs:,}", f"{run.softmax_entries:,}"]
            )
    return table_html(
        ["n", "ヘッド数 × 次元", "射影 (W^Q, W^K, W^V, W^O)", "QKᵀ と AV", "積和の合計", "softmax に入る要素"], rows
    )


def cross_heads_figure() -> HeatFigure:
    """The n × m weights of every head in the cross-attention example: h separate distributions."""
    attn = experiments.CROSS.attn  # (h, n, m)
    h, n, m = attn.shape
    rows = [f"dec{i}" for i in range(n)]
    keys = [f"enc{j}" for j in range(m)]
    tables = [heat_table(attn[head], rows, keys, scale=WEIGHT_SCALE, title=f"ヘッド {head}") for head in range(h)]
    return heat_figure(*tables, columns=2, legend_fmt="{:.1f}")


# ------------------------------------------------------------------------------------------- positional encoding


def wavelength_figure(d_model: int = TRANSFORMER_BASE.d_model) -> Figure:
    lam = ops.pe_wavelengths(d_model)
    fig, ax = new_figure(6.6, 3.6)
    ax.semilogy(np.arange(len(lam)), lam, color=ACCENT[0], lw=1.8, label="波長 2π/ω_i")
    # each label sits where the curve is far from its line: 2π on the right (the curve is high there),
    # 2π·10000 on the left (the curve is low there)
    for value, text, x, ha, shift, va in (
        (2 * np.pi, "2π", len(lam) * 0.98, "right", 1.4, "bottom"),
        (2 * np.pi * ops.PE_BASE, "2π·10000", len(lam) * 0.02, "left", 0.7, "top"),
    ):
        ax.axhline(value, color=ACCENT[1], lw=0.9, ls="--")
        ax.text(x, value * shift, text, color=ACCENT[1], fontsize=9, ha=ha, va=va)
    ax.set_xlabel(f"次元の組の番号 i（d_model = {d_model}）")
    ax.set_ylabel("波長（位置の数）")
    ax.grid(True, which="major")
    return fig


def offset_dot_figure(d_model: int = TRANSFORMER_BASE.d_model, k_max: int = 200) -> Figure:
    """PE(pos)·PE(pos+k) against k, for several pos: the curves coincide."""
    fig, ax = new_figure(6.6, 3.4)
    ks = np.arange(k_max + 1)
    for idx, pos in enumerate(experiments.PE_DOT_POSITIONS):
        pe = ops.positional_encoding(pos + k_max + 1, d_model)
        dots = pe[pos + ks] @ pe[pos]
        style = {"lw": (4.0, 2.0, 1.2)[idx], "ls": ("-", "--", ":")[idx], "alpha": (0.45, 1.0, 1.0)[idx]}
        ax.plot(ks, dots, color=ACCENT[idx], label=f"pos = {pos}", **style)
    ax.set_xlabel("オフセット k")
    ax.set_ylabel("PE(pos)·PE(pos+k)")
    ax.legend()
    ax.grid(True)
    return fig


# ------------------------------------------------------------------------------------------- FFN


def relu_gelu_figure() -> Figure:
    x = np.linspace(-4, 4, 401)
    a = experiments.ACTIVATIONS
    fig, axes = new_figure(9.0, 3.6, ncols=2)
    axes[0].plot(x, ops.relu(x), color=ACCENT[0], lw=2.0, label="ReLU")
    axes[0].plot(x, ops.gelu(x), color=ACCENT[1], lw=2.0, label="GELU")
    axes[0].plot([a.gelu_argmin], [a.gelu_min], "o", color=ACCENT[1])
    axes[0].annotate(f"最小 {a.gelu_min:.3f}".replace("-", "−"), (a.gelu_argmin, a.gelu_min), xytext=(-3.8, 1.2),
                     arrowprops={"arrowstyle": "-", "color": ACCENT[1]}, fontsize=9)  # fmt: skip
    axes[0].set_title("値")
    axes[1].plot(x, (x > 0).astype(float), color=ACCENT[0], lw=2.0, label="ReLU′")
    axes[1].plot(x, experiments.gelu_derivative(x), color=ACCENT[1], lw=2.0, label="GELU′")
    axes[1].set_title("傾き（勾配として逆伝播する量）")
    for ax in axes:
        ax.axhline(0, color="#123456", lw=0.6)
        ax.set_xlabel("入力 x")
        ax.grid(True)
        ax.legend()
    return fig


# ------------------------------------------------------------------------------------------- Add & Norm


def ln_stack_figure() -> Figure:
    ln = experiments.LN
    layers = np.arange(1, ln.n_layers + 1)
    fig, axes = new_figure(8.6, 3.4, ncols=3)
    for w in experiments.WIRINGS:
        kw = {"color": WIRING_COLOUR[w], "label": WIRING_LABEL[w], "marker": "o", "lw": 1.8}
        axes[0].plot(layers, ln.activation_rms[w], **kw)
        axes[1].plot(layers, ln.relative_update[w], **kw)
        axes[2].errorbar(layers, ln.grad_norm[w], yerr=ln.grad_spread[w], capsize=3, **kw)
    titles = ("残差ストリームの RMS", "1 ブロックでの相対変化", "‖∂loss/∂W2‖（層平均で割る）")
    for ax, title in zip(axes, titles, strict=True):
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("ブロック（1 が入力側）")
        ax.set_xticks(layers)
        ax.grid(True)
        ax.set_ylim(bottom=0)
    axes[0].legend(fontsize=9)
    return fig
