"""Figures of the chapter's second half (training, why self-attention, BERT/GPT) and of the scale notes.

Each function computes with :mod:`transformer_math` and returns a matplotlib Figure in the house style; a
snippet passes it to :func:`transformer_figures.show` with alt text.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from transformer_math import comparisons, counting, schedules

from .style import ACCENT, INK, new_figure


def noam_schedule(d_model: int = schedules.D_MODEL, warmup: int = schedules.WARMUP_STEPS, steps: int = 40_000):
    """The Noam learning rate over ``steps``, with the peak marked and the two branches drawn thin."""
    if steps <= warmup:
        raise ValueError(f"steps must exceed warmup = {warmup} so the decay shows, got {steps}")
    step = np.arange(1, steps + 1)
    lr = schedules.noam_lr(step, d_model, warmup)
    rise = d_model**-0.5 * step * float(warmup) ** -1.5
    decay = d_model**-0.5 * step**-0.5
    peak_step = schedules.noam_peak_step(warmup)
    peak_lr = schedules.noam_peak_lr(d_model, warmup)

    fig, ax = new_figure(6.8, 3.6)
    ax.plot(step, rise, color=ACCENT[0], lw=1.0, ls=":", label=r"$\mathrm{step}\cdot T_w^{-3/2}$ の枝（増加）")
    ax.plot(step, decay, color=ACCENT[1], lw=1.0, ls="--", label=r"$\mathrm{step}^{-1/2}$ の枝（減衰）")
    ax.plot(step, lr, color=ACCENT[2], lw=2.4, label="学習率 η（小さい方）")
    ax.plot([peak_step], [peak_lr], "o", color=INK, ms=6)
    ax.annotate(
        f"ピーク: step {peak_step:,}\nη = {peak_lr:.2e}".replace("-", "−"),
        (peak_step, peak_lr),
        xytext=(peak_step + 0.12 * steps, peak_lr * 1.02),
        arrowprops={"arrowstyle": "->", "color": INK, "lw": 0.8},
        va="center",
    )
    ax.set_xlim(0, steps)
    ax.set_ylim(0, peak_lr * 1.35)
    ax.set_xlabel("学習ステップ step")
    ax.set_ylabel("学習率 η")
    ax.ticklabel_format(axis="y", style="sci", scilimits=(0, 0))
    ax.grid(True)
    ax.legend(loc="upper right", fontsize=9)
    return fig


def label_smoothing_target(label: int, vocab: list[str], epsilon: float = schedules.LABEL_SMOOTHING) -> Figure:
    """One-hot target against the smoothed target over a small vocabulary: full scale on top, and below the
    same bars with the vertical axis zoomed so that the ε/K given to every other word is visible."""
    k = len(vocab)
    onehot = schedules.label_smoothing_target(label, k, 0.0)
    smooth = schedules.label_smoothing_target(label, k, epsilon)
    x = np.arange(k)
    fig, (top, zoom) = new_figure(7.2, 4.6, nrows=2, sharex=True, height_ratios=(2, 1))
    for ax in (top, zoom):
        ax.bar(x - 0.2, onehot, width=0.4, color=ACCENT[0], label="one-hot（ε = 0）")
        ax.bar(x + 0.2, smooth, width=0.4, color=ACCENT[1], label=f"平滑化（ε = {epsilon:g}）")
        ax.grid(True, axis="y")
    top.set_ylim(0, 1.12)
    top.set_ylabel("目標の確率")
    top.legend(loc="upper right", fontsize=9)
    other = float(smooth[(label + 1) % k])
    zoom.set_ylim(0, 2.5 * other)
    zoom.set_ylabel("縦軸を拡大")
    zoom.axhline(other, color=INK, lw=0.8, ls="--")
    zoom.text(k - 0.5, other * 1.12, f"ε/K = {other:.5f}", ha="right", va="bottom", fontsize=9)
    zoom.set_xticks(x, vocab, fontsize=9, rotation=45)
    return fig


def cost_vs_n(d: int = 512, k: int = 3, r: int = 32, n_max: int = 4096) -> Figure:
    """Multiplies per layer against sequence length n (log–log) for the four layer kinds of Table 1."""
    n = np.unique(np.geomspace(8, n_max, 200).astype(int))
    rows = {
        "Self-Attention  n²·d": [counting.self_attention_multiplies(int(v), d) for v in n],
        "Recurrent  n·d²": [counting.recurrent_multiplies(int(v), d) for v in n],
        f"Convolution (k = {k})  k·n·d²": [counting.convolutional_multiplies(int(v), d, k) for v in n],
        f"制限付き Self-Attention (r = {r})  r·n·d": [
            counting.restricted_attention_multiplies(int(v), d, r) for v in n
        ],
    }
    styles = ["-", "--", "-.", ":"]
    fig, ax = new_figure(6.8, 4.2)
    for (label, values), color, ls in zip(rows.items(), ACCENT, styles, strict=True):
        ax.plot(n, values, color=color, ls=ls, lw=2.0, label=label)
    cross = comparisons.crossover_n(d)
    ax.axvline(cross, color=INK, lw=0.8, alpha=0.6)
    ax.axvspan(n[0], cross, color=ACCENT[0], alpha=0.08, lw=0)
    ax.annotate(
        f"n = d = {cross}\nここより左では\nSelf-Attention の方が安い",
        (cross, counting.recurrent_multiplies(cross, d)),
        xytext=(0.04, 0.96),
        textcoords="axes fraction",
        va="top",
        fontsize=9,
        arrowprops={"arrowstyle": "->", "color": INK, "lw": 0.8},
    )
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(f"系列長 n（d = {d}）")
    ax.set_ylabel("1 層の掛け算の回数")
    ax.grid(True, which="major")
    ax.legend(loc="lower right", fontsize=8.5)
    return fig


def path_length_vs_n(k: int = 3, r: int = 33, n_max: int = 1024) -> Figure:
    """Layers needed before the first and the last of n positions interact, per layer kind."""
    n = np.unique(np.geomspace(2, n_max, 60).astype(int))
    attention = np.ones_like(n)
    recurrent = [counting.layer_complexity("recurrent").max_path_length(int(v)) for v in n]
    conv = [counting.layer_complexity("convolutional").max_path_length(int(v), k=k) for v in n]
    window = [comparisons.window_reach_layers(int(v), r) for v in n]
    fig, ax = new_figure(6.8, 3.8)
    ax.step(n, attention, where="post", color=ACCENT[0], lw=2.0, label="Self-Attention: 1")
    ax.step(n, recurrent, where="post", color=ACCENT[1], lw=2.0, ls="--", label="Recurrent: n")
    conv_label = f"膨張 Conv (k = {k}): " + r"$\lceil \log_k n \rceil$"
    ax.step(n, conv, where="post", color=ACCENT[2], lw=2.0, ls="-.", label=conv_label)
    ax.step(n, window, where="post", color=ACCENT[3], lw=2.0, ls=":", label=f"制限付き (r = {r}): 窓を伝播")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel("系列長 n")
    ax.set_ylabel("最初と最後の位置を結ぶ層数")
    ax.grid(True)
    ax.legend(loc="upper left", fontsize=8.5)
    return fig


def block_cost_breakdown(d_model: int = 512, d_ff: int = 2048, n_max: int = 4096) -> Figure:
    """Share of each component in one encoder block's multiplies, against n (stacked, fractions)."""
    n = np.unique(np.geomspace(16, n_max, 120).astype(int))
    parts: dict[str, list[int]] = {
        "Q, K, V の射影": [],
        "スコア $QK^T$ と重み付き和 $AV$": [],
        "出力の射影 $W_O$": [],
        "FFN": [],
    }
    for v in n:
        m = counting.attention_multiplies(int(v), int(v), d_model)
        parts["Q, K, V の射影"].append(m["q_projection"] + m["k_projection"] + m["v_projection"])
        parts["スコア $QK^T$ と重み付き和 $AV$"].append(m["scores"] + m["weighted_sum"])
        parts["出力の射影 $W_O$"].append(m["o_projection"])
        parts["FFN"].append(counting.ffn_multiplies(int(v), d_model, d_ff))
    values = np.array(list(parts.values()), dtype=float)
    shares = values / values.sum(axis=0)
    fig, ax = new_figure(6.8, 3.8)
    ax.stackplot(n, shares, labels=list(parts), colors=[ACCENT[0], ACCENT[1], ACCENT[3], ACCENT[2]], alpha=0.85)
    ax.set_xscale("log", base=2)
    ax.set_xlim(n[0], n[-1])
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:.0%}"))
    ax.set_xlabel(f"系列長 n（d_model = {d_model}, d_ff = {d_ff}）")
    ax.set_ylabel("ブロックの掛け算に占める割合")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9, reverse=True)
    return fig


def parameters_rough_vs_exact(n_tokens: int = 512, d_model: int = 512, d_ff: int = 2048) -> Figure:
    """Horizontal log bars: the notes' rough counts beside the exact ones, block and perceptron."""
    rows = [
        ("ブロック（ノートの概算 2Mi）", counting.ROUGH_BLOCK_ESTIMATE, ACCENT[0], 0.45),
        (
            "ブロック（重みのみ・厳密）",
            counting.block_params(d_model, d_ff, bias=False, layer_norm=False),
            ACCENT[0],
            1,
        ),
        ("ブロック（バイアス・LN 込み）", counting.block_params(d_model, d_ff), ACCENT[0], 1),
        ("パーセプトロン（ノートの概算 64Gi）", counting.ROUGH_PERCEPTRON_ESTIMATE, ACCENT[1], 0.45),
        ("パーセプトロン（$512^4$・厳密）", counting.perceptron_params(n_tokens, d_model), ACCENT[1], 1),
    ]
    fig, ax = new_figure(7.0, 3.0)
    y = np.arange(len(rows))[::-1]
    for yi, (_label, value, color, alpha) in zip(y, rows, strict=True):
        ax.barh(yi, value, color=color, alpha=alpha, height=0.6)
        ax.text(value * 1.4, yi, f"{value:,}", va="center", fontsize=9)
    ax.set_yticks(y, [row[0] for row in rows], fontsize=9)
    ax.set_xscale("log")
    ax.set_xlim(1e5, 1e13)
    ax.set_xlabel("パラメータ数（対数目盛）")
    ax.grid(True, axis="x")
    return fig


def parameter_shares(models) -> Figure:
    """Horizontal bars (fractions): embeddings, Transformer layers and the rest, for each ParamCount."""
    if not models:
        raise ValueError("models must hold at least one counting.ParamCount, got none")
    names = [m.name for m in models]
    emb = np.array([m["embeddings"] / m.total for m in models])
    layers = np.array([m["layers"] / m.total for m in models])
    rest = 1.0 - emb - layers
    y = np.arange(len(models))[::-1]
    fig, ax = new_figure(6.8, 0.42 * len(models) + 1.0)
    ax.barh(y, emb, color=ACCENT[1], label="埋め込み（語・位置・セグメント）")
    ax.barh(y, layers, left=emb, color=ACCENT[0], label="Transformer の層")
    ax.barh(y, rest, left=emb + layers, color=ACCENT[2], label="その他（プーラー・最後の LN）")
    for yi, share in zip(y, emb, strict=True):
        ax.text(share + 0.01, yi, f"{share:.1%}", va="center", fontsize=8.5, color="white")
    ax.set_yticks(y, names, fontsize=9)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:.0%}"))
    ax.set_xlabel("パラメータに占める割合")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.28), ncol=3, fontsize=8.5)
    return fig


def dot_vs_cos() -> Figure:
    """Scatter of dot product against cosine for every pair of tokens in the eight preset sentences:
    before LayerNorm (X) the norms scatter the points; after it (ln1_out, dot / d_model) they sit on y = x."""
    fig, axes = new_figure(7.2, 3.4, ncols=2)
    titles = {"X": "ブロックの入力 X（正規化なし）", "ln1_out": "LayerNorm の後 ln1_out"}
    ylabels = {"X": "内積", "ln1_out": "内積 / d_model"}
    for ax, stage, color in zip(axes, ("X", "ln1_out"), (ACCENT[1], ACCENT[0]), strict=True):
        dots, coss = comparisons.preset_dot_cos(stage)
        ax.scatter(coss, dots, s=14, color=color, alpha=0.8, linewidths=0)
        if stage == "ln1_out":
            lo, hi = float(coss.min()), float(coss.max())
            ax.plot([lo, hi], [lo, hi], color=INK, lw=0.8, ls="--", label="y = cos")
            ax.legend(loc="upper left", fontsize=9)
        ax.set_title(titles[stage], fontsize=10)
        ax.set_xlabel("cos（向きだけの近さ）")
        ax.set_ylabel(ylabels[stage])
        ax.grid(True)
    return fig
