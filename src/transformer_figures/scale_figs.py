"""Drawing helpers of the chapter's second half (training, why self-attention, BERT/GPT) and of the scale notes.

Each helper takes what a snippet computed (curves, counts, ParamCounts) and returns a matplotlib Figure in the
house style; it computes nothing the page is about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from .phone import labels_above_bars, set_phone_layout
from .style import ACCENT, INK, new_figure

TEXT = {
    "rise": "$\\mathrm{step}\\cdot T_w^{-3/2}$ の枝（増加）",
    "decay": "$\\mathrm{step}^{-1/2}$ の枝（減衰）",
    "rate_min": "学習率 η（小さい方）",
    "peak": "ピーク: step {step:,}\nη = {rate:.2e}",
    "training_step": "学習ステップ step",
    "learning_rate": "学習率 η",
    "smoothed": "平滑化（ε = {epsilon:g}）",
    "target_probability": "目標の確率",
    "zoomed": "縦軸を拡大",
    "cheaper": "n = d = {n}\nここより左では\nSelf-Attention の方が安い",
    "length_d": "系列長 n（d = {d}）",
    "multiplications": "1 層の掛け算の回数",
    "length": "系列長 n",
    "path_layers": "最初と最後の位置を結ぶ層数",
    "length_sizes": "系列長 n（d_model = {d_model}, d_ff = {d_ff}）",
    "block_share": "ブロックの掛け算に占める割合",
    "parameters_log": "パラメータ数（対数目盛）",
    "embeddings": "埋め込み（語・位置・セグメント）",
    "layers": "Transformer の層",
    "rest": "その他（プーラー・最後の LN）",
    "parameter_share": "パラメータに占める割合",
    "x_title": "ブロックの入力 X（正規化なし）",
    "ln1_title": "LayerNorm の後 ln1_out",
    "dot": "内積",
    "dot_scaled": "内積 / d_model",
    "cos": "cos（向きだけの近さ）",
}
"""The reader-facing words of the scale pages' figures (titles, axes, legends)."""


def noam_schedule(step: np.ndarray, lr: np.ndarray, rise: np.ndarray, decay: np.ndarray, peak: tuple[int, float]):
    """The learning rate ``lr`` over ``step``, the two branches ``rise`` and ``decay`` drawn thin, the peak marked."""
    peak_step, peak_lr = peak
    steps = int(step[-1])
    if steps <= peak_step:
        raise ValueError(f"step must run past the peak step {peak_step} so the decay shows, got steps up to {steps}")
    fig, ax = new_figure(6.8, 3.6)
    ax.plot(step, rise, color=ACCENT[0], lw=1.0, ls=":", label=TEXT["rise"])
    ax.plot(step, decay, color=ACCENT[1], lw=1.0, ls="--", label=TEXT["decay"])
    ax.plot(step, lr, color=ACCENT[2], lw=2.4, label=TEXT["rate_min"])
    ax.plot([peak_step], [peak_lr], "o", color=INK, ms=6)
    ax.annotate(
        TEXT["peak"].format(step=peak_step, rate=peak_lr).replace("-", "−"),
        (peak_step, peak_lr),
        xytext=(peak_step + 0.12 * steps, peak_lr * 1.02),
        arrowprops={"arrowstyle": "->", "color": INK, "lw": 0.8},
        va="center",
    )
    ax.set_xlim(0, steps)
    ax.set_ylim(0, peak_lr * 1.35)
    ax.set_xlabel(TEXT["training_step"])
    ax.set_ylabel(TEXT["learning_rate"])
    ax.ticklabel_format(axis="y", style="sci", scilimits=(0, 0))
    ax.grid(True)
    ax.legend(loc="upper right", fontsize=9)

    def phone(fig: Figure) -> float:
        # the legend over the curves would cover the peak's note in the narrow drawing: under the axes instead;
        # three step ticks (0, 20,000, 40,000) leave room for each label
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=1, fontsize=9.5)
        ax.set_xticks(np.linspace(0, steps, 3))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:,.0f}"))
        return 1.35

    return set_phone_layout(fig, phone)


def label_smoothing_figure(onehot: np.ndarray, smooth: np.ndarray, vocab: Sequence[str], epsilon: float) -> Figure:
    """One-hot target against the smoothed target over a small vocabulary: full scale on top, and below the
    same bars with the vertical axis zoomed so that the ε/K given to every other word is visible."""
    k = len(vocab)
    label = int(np.argmax(onehot))
    x = np.arange(k)
    fig, (top, zoom) = new_figure(7.2, 4.6, nrows=2, sharex=True, height_ratios=(2, 1))
    for ax in (top, zoom):
        ax.bar(x - 0.2, onehot, width=0.4, color=ACCENT[0], label="one-hot（ε = 0）")
        ax.bar(x + 0.2, smooth, width=0.4, color=ACCENT[1], label=TEXT["smoothed"].format(epsilon=epsilon))
        ax.grid(True, axis="y")
    top.set_ylim(0, 1.12)
    top.set_ylabel(TEXT["target_probability"])
    top.legend(loc="upper right", fontsize=9)
    other = float(smooth[(label + 1) % k])
    zoom.set_ylim(0, 2.5 * other)
    zoom.set_ylabel(TEXT["zoomed"])
    zoom.axhline(other, color=INK, lw=0.8, ls="--")
    zoom.text(k - 0.5, other * 1.12, f"ε/K = {other:.5f}", ha="right", va="bottom", fontsize=9)
    zoom.set_xticks(x, vocab, fontsize=9, rotation=45)
    return fig


def cost_vs_n(n: np.ndarray, rows: Mapping[str, Sequence[int]], cross: tuple[int, int], d: int) -> Figure:
    """Multiplies per layer against sequence length n (log–log), one curve per layer kind of Table 1;
    ``cross`` = (n, multiplies) where self-attention meets the recurrent layer."""
    styles = ["-", "--", "-.", ":"]
    fig, ax = new_figure(6.8, 4.2)
    for (label, values), color, ls in zip(rows.items(), ACCENT, styles, strict=True):
        ax.plot(n, values, color=color, ls=ls, lw=2.0, label=label)
    cross_n, cross_value = cross
    ax.axvline(cross_n, color=INK, lw=0.8, alpha=0.6)
    ax.axvspan(n[0], cross_n, color=ACCENT[0], alpha=0.08, lw=0)
    ax.annotate(
        TEXT["cheaper"].format(n=cross_n),
        (cross_n, cross_value),
        xytext=(0.04, 0.96),
        textcoords="axes fraction",
        va="top",
        fontsize=9,
        arrowprops={"arrowstyle": "->", "color": INK, "lw": 0.8},
    )
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(TEXT["length_d"].format(d=d))
    ax.set_ylabel(TEXT["multiplications"])
    ax.grid(True, which="major")
    ax.legend(loc="lower right", fontsize=8.5)
    return fig


def path_length_vs_n(n: np.ndarray, curves: Mapping[str, Sequence[int]]) -> Figure:
    """Layers needed before the first and the last of n positions interact, one step curve per layer kind."""
    fig, ax = new_figure(6.8, 3.8)
    styles = ("-", "--", "-.", ":")
    for (label, layers), color, ls in zip(curves.items(), ACCENT, styles, strict=False):
        ax.step(n, layers, where="post", color=color, lw=2.0, ls=ls, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel(TEXT["length"])
    ax.set_ylabel(TEXT["path_layers"])
    ax.grid(True)
    ax.legend(loc="upper left", fontsize=8.5)
    return fig


def block_cost_breakdown(n: np.ndarray, parts: Mapping[str, Sequence[int]], d_model: int, d_ff: int) -> Figure:
    """Share of each component (``parts``: label → multiplies per n) in one block's multiplies, stacked."""
    values = np.array(list(parts.values()), dtype=float)
    shares = values / values.sum(axis=0)
    fig, ax = new_figure(6.8, 3.8)
    ax.stackplot(n, shares, labels=list(parts), colors=[ACCENT[0], ACCENT[1], ACCENT[3], ACCENT[2]], alpha=0.85)
    ax.set_xscale("log", base=2)
    ax.set_xlim(n[0], n[-1])
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:.0%}"))
    ax.set_xlabel(TEXT["length_sizes"].format(d_model=d_model, d_ff=d_ff))
    ax.set_ylabel(TEXT["block_share"])
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9, reverse=True)
    return fig


def parameters_rough_vs_exact(rows: Sequence[tuple[str, int, int, bool]]) -> Figure:
    """Horizontal log bars, one per (label, count, group, rough): group 0 = the block, 1 = the perceptron; the
    notes' rough counts are drawn pale beside the exact ones."""
    fig, ax = new_figure(7.0, 3.0)
    y = np.arange(len(rows))[::-1]
    for yi, (_label, value, group, rough) in zip(y, rows, strict=True):
        ax.barh(yi, value, color=ACCENT[group], alpha=0.45 if rough else 1.0, height=0.6)
        ax.text(value * 1.4, yi, f"{value:,}", va="center", fontsize=9)
    ax.set_yticks(y, [row[0] for row in rows], fontsize=9)
    ax.set_xscale("log")
    ax.set_xlim(1e5, 1e13)
    ax.set_xlabel(TEXT["parameters_log"])
    ax.grid(True, axis="x")

    def phone(fig: Figure) -> float:
        # names on a line above each bar; one more decade on the right keeps the longest count inside
        for bar in ax.patches:
            bar.set_height(0.45)
            bar.set_y(bar.get_y() + 0.075)
        labels_above_bars(ax, [row[0] for row in rows], list(y), fontsize=9.5)
        ax.set_xlim(1e5, 1e14)
        return 1.6

    return set_phone_layout(fig, phone)


def parameter_shares(models) -> Figure:
    """Horizontal bars (fractions): embeddings, Transformer layers and the rest, for each ParamCount."""
    if not models:
        raise ValueError("models must hold at least one ParamCount (transformer_math.counting), got none")
    names = [m.name for m in models]
    emb = np.array([m["embeddings"] / m.total for m in models])
    layers = np.array([m["layers"] / m.total for m in models])
    rest = 1.0 - emb - layers
    y = np.arange(len(models))[::-1]
    fig, ax = new_figure(6.8, 0.42 * len(models) + 1.0)
    ax.barh(y, emb, color=ACCENT[1], label=TEXT["embeddings"])
    ax.barh(y, layers, left=emb, color=ACCENT[0], label=TEXT["layers"])
    ax.barh(y, rest, left=emb + layers, color=ACCENT[2], label=TEXT["rest"])
    for yi, share in zip(y, emb, strict=True):
        ax.text(share + 0.01, yi, f"{share:.1%}", va="center", fontsize=8.5, color="white")
    ax.set_yticks(y, names, fontsize=9)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:.0%}"))
    ax.set_xlabel(TEXT["parameter_share"])
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.28), ncol=3, fontsize=8.5)

    def phone(fig: Figure) -> float:
        # model names above their bars (the bars keep the full width); the legend one entry a line
        for bar in ax.patches:
            bar.set_height(0.5)
            bar.set_y(bar.get_y() + 0.15)
        labels_above_bars(ax, names, list(y), fontsize=9.5)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.11), ncol=1, fontsize=9.5)
        return 1.9

    return set_phone_layout(fig, phone)


def dot_vs_cos(pairs: Mapping[str, tuple[np.ndarray, np.ndarray]]) -> Figure:
    """Dot product against cosine for every token pair; ``pairs[stage] = (dots, coss)`` for "X" and "ln1_out":
    before LayerNorm the norms scatter the points, after it (dot / d_model) they sit on y = x."""
    fig, axes = new_figure(7.2, 3.4, ncols=2)
    titles = {"X": TEXT["x_title"], "ln1_out": TEXT["ln1_title"]}
    ylabels = {"X": TEXT["dot"], "ln1_out": TEXT["dot_scaled"]}
    for ax, stage, color in zip(axes, ("X", "ln1_out"), (ACCENT[1], ACCENT[0]), strict=True):
        dots, coss = pairs[stage]
        ax.scatter(coss, dots, s=14, color=color, alpha=0.8, linewidths=0)
        if stage == "ln1_out":
            lo, hi = float(coss.min()), float(coss.max())
            ax.plot([lo, hi], [lo, hi], color=INK, lw=0.8, ls="--", label="y = cos")
            ax.legend(loc="upper left", fontsize=9)
        ax.set_title(titles[stage], fontsize=10)
        ax.set_xlabel(TEXT["cos"])
        ax.set_ylabel(ylabels[stage])
        ax.grid(True)
    return fig
