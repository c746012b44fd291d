"""Drawing helpers of the notes §5–§9: LayerNorm before/after, GELU vs ReLU, ffn_h with the detector names,
where each firing detector's input comes from (W_E or W_P), ln2_out, the block's shape flow, and a cell's
derivation as display math.

Every helper takes what a snippet computed (arrays, LayerNormStats, attributions, a Derivation) and the
sentence's words for the labels; it computes nothing the page is about.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from transformer_math import ops, preset
from transformer_math.derivations import Derivation
from transformer_math.layernorm import LayerNormStats
from transformer_math.preset import D_MODEL, DIM_NAMES, FIRING_THRESHOLD, NEURON_NAMES

from .heat_table import ColourScale, HeatFigure, heat_figure, heat_table
from .notes_attention_figs import DIM_LABELS, token_labels
from .plots import format_number, unsigned_zero
from .style import ACCENT, new_figure

TEXT = {
    "ffn_out": "ffn_out (FFN の書き戻し)",
    "ln2_out": "ln2_out = LayerNorm(residual2) (ブロックの出力)",
    "mean": "トークンごとの平均 μ",
    "std": "トークンごとの標準偏差 σ",
    "before_ln": "LN の前",
    "after_ln": "LN の後",
    "sentence": "文{number}",
    "gelu": "GELU(x) (tanh 近似)",
    "threshold": "GELU(x) = 0.5 となる x = {x:.3f}\n(これを超えると「発火」)",
    "minimum": "最小値 {y} (x = {x})",
    "gelu_input": "ffn_pre (GELU への入力 x)",
    "output": "出力",
    "attribution_columns": (
        "ffn_pre", "W_P なしの ffn_pre", "W_E 自分", "W_E 注意経由", "W_P 自分", "W_P 注意経由", "b1", "ffn_h",
        "W_P なしの ffn_h",
    ),
    "detector_verdict": "検出器 · 判定",
    "position_mean": "W_P の位置平均",
    "residual_x": "残差 X",
    "residual_ln1": "残差 ln1_out",
    "shapes": "形 (実際の配列から)",
}
"""The reader-facing words of the notes' FFN and LayerNorm figures (titles, axes, legends, columns)."""

N_USED_UNITS = preset.N_SINGLE_DETECTORS + len(preset.AND_DETECTOR_FEATURES)  # h16 … h31 are unused


def _m(value: float, fmt: str = "{:+.2f}") -> str:
    return unsigned_zero(format_number(value, fmt))


# ---------------------------------------------------------------------------------------------- §5, §7
def _before_after(panels: list[tuple[str, np.ndarray]], stats: LayerNormStats, words: Sequence[str]) -> HeatFigure:
    """One heat table per stage (each on its own scale); the last two, LayerNorm's input and output, carry
    each token's μ and σ after its row."""
    words = token_labels(words)
    notes = {
        len(panels) - 2: [f"μ={_m(m)} σ={s:.2f}" for m, s in zip(stats.mean_in, stats.std_in, strict=True)],
        len(panels) - 1: [f"μ={_m(m)} σ={s:.2f}" for m, s in zip(stats.mean_out, stats.std_out, strict=True)],
    }
    short = [f"d{d}" for d in range(D_MODEL)]  # the dimensions are named once, on the first table
    tables = [
        heat_table(
            matrix,
            words,
            DIM_LABELS if i == 0 else short,
            center=0.0,
            title=title,
            vertical_columns=i == 0,
            row_notes=notes.get(i, ()),
        )
        for i, (title, matrix) in enumerate(panels)
    ]
    return heat_figure(*tables)


def ln1_before_after_figure(
    residual1: np.ndarray, ln1_out: np.ndarray, stats: LayerNormStats, words: Sequence[str]
) -> HeatFigure:
    """residual1 = X + Y and ln1_out = LN(residual1), each token's μ and σ beside its row."""
    panels = [("residual1 = X + Y", residual1), ("ln1_out = LayerNorm(residual1)", ln1_out)]
    return _before_after(panels, stats, words)


def ln2_before_after_figure(
    ffn_out: np.ndarray, residual2: np.ndarray, ln2_out: np.ndarray, stats: LayerNormStats, words: Sequence[str]
) -> HeatFigure:
    """ffn_out, residual2 = ln1_out + ffn_out and ln2_out = LN(residual2), with μ and σ per token."""
    panels = [(TEXT["ffn_out"], ffn_out), ("residual2 = ln1_out + ffn_out", residual2),
              (TEXT["ln2_out"], ln2_out)]  # fmt: skip
    return _before_after(panels, stats, words)


def ln_stats_figure(stats: Sequence[LayerNormStats]) -> Figure:
    """μ_t and σ_t of every token, before and after one LayerNorm; ``stats`` has one entry per sentence."""
    fig, axes = new_figure(9.0, 3.4, ncols=2, sharey=False)
    x = np.arange(len(stats) * preset.T)
    numbers = range(1, len(stats) + 1)
    for ax, before, after, title in (
        (axes[0], "mean_in", "mean_out", TEXT["mean"]),
        (axes[1], "std_in", "std_out", TEXT["std"]),
    ):
        ax.plot(x, np.concatenate([getattr(s, before) for s in stats]), "o", color=ACCENT[0], label=TEXT["before_ln"])
        ax.plot(x, np.concatenate([getattr(s, after) for s in stats]), "s", color=ACCENT[1], label=TEXT["after_ln"])
        for b in range(1, len(stats)):
            ax.axvline(b * preset.T - 0.5, color="#888888", linewidth=0.5)
        sentences = [TEXT["sentence"].format(number=n) for n in numbers]
        ax.set_xticks([(n - 1) * preset.T + 2 for n in numbers], labels=sentences)
        ax.set_title(title)
        ax.grid(True, axis="y")
    # above the panels: inside the μ panel of LayerNorm 2 the legend covered data points
    fig.legend(*axes[0].get_legend_handles_labels(), ncols=2, fontsize=9, loc="outside upper center")
    return fig


# ---------------------------------------------------------------------------------------------- §6
def gelu_relu_figure(
    x: np.ndarray, gelu: np.ndarray, relu: np.ndarray, x_star: float, minimum: tuple[float, float]
) -> Figure:
    """GELU (tanh form) against ReLU over ``x``, the firing threshold GELU(x_star) = 0.5 and GELU's minimum."""
    fig, ax = new_figure(7.2, 4.0)
    ax.plot(x, relu, color=ACCENT[0], linewidth=1.8, linestyle="--", label="ReLU(x) = max(0, x)")
    ax.plot(x, gelu, color=ACCENT[1], linewidth=2.2, label=TEXT["gelu"])
    ax.axhline(FIRING_THRESHOLD, color="#888888", linewidth=0.9, linestyle=":")
    ax.plot([x_star], [FIRING_THRESHOLD], "o", color=ACCENT[2], markersize=7)
    # lower right, under the curves: the one free corner whatever the figure's width (desktop or phone)
    ax.annotate(TEXT["threshold"].format(x=x_star), (x_star, 0.5), (0.98, 0.04),
                textcoords="axes fraction", ha="right", va="bottom", fontsize=9,
                arrowprops={"arrowstyle": "->", "color": "#888888"})  # fmt: skip
    x_min, y_min = minimum
    ax.plot([x_min], [y_min], "v", color=ACCENT[3], markersize=7)
    ax.annotate(TEXT["minimum"].format(y=_m(y_min, "{:+.3f}"), x=_m(x_min, "{:+.3f}")), (x_min, y_min), (-2.9, 0.9),
                fontsize=9, arrowprops={"arrowstyle": "->", "color": "#888888"})  # fmt: skip
    ax.axhline(0.0, color="#888888", linewidth=0.6)
    ax.axvline(0.0, color="#888888", linewidth=0.6)
    ax.set_xlabel(TEXT["gelu_input"])
    ax.set_ylabel(TEXT["output"])
    ax.set_ylim(-0.5, 3.1)
    ax.grid(True)
    ax.legend(loc="upper left", fontsize=9)
    return fig


def ffn_h_figure(ffn_h: np.ndarray, words: Sequence[str]) -> HeatFigure:
    """ffn_h (T × the 16 used units) with the detector names; cells above the firing threshold framed."""
    h = ffn_h[:, :N_USED_UNITS]
    firing = zip(*np.nonzero(h > FIRING_THRESHOLD), strict=True)
    # GELU dips below 0 (to about −0.17): signed values, so the diverging scale, one range for every sentence
    scale = ColourScale.for_values(None, vmin=float(h.min()), vmax=max(2.1, float(h.max())), center=0.0)
    table = heat_table(h, token_labels(words), list(NEURON_NAMES[:N_USED_UNITS]), scale=scale, vertical_columns=True,
                       framed_cells=firing)  # fmt: skip
    return heat_figure(table)


ATTRIBUTION_COLUMNS = TEXT["attribution_columns"]


def detector_attribution_figure(rows) -> HeatFigure:
    """One row per firing detector (``rows``: DetectorAttributions of one sentence), its verdict in the row label:
    ffn_pre and ffn_pre in the forward without W_P (route 2) first, then route 1's four parts and the bias (they
    sum to ffn_pre), then ffn_h with and without W_P. A detector that no longer fires without W_P is framed dashed."""
    if not rows:
        raise ValueError("no detector fires in this sentence: nothing to draw")
    matrix = np.array([[a.ffn_pre, a.pre_without_position, a.own_tok, a.attn_tok, a.own_pos, a.attn_pos, a.bias,
                        a.ffn_h, a.h_without_position] for a in rows])  # fmt: skip
    labels = [f"T{a.t} {a.word} · {NEURON_NAMES[a.k]} · {a.verdict}" for a in rows]
    table = heat_table(
        matrix,
        labels,
        ATTRIBUTION_COLUMNS,
        center=0.0,
        corner=TEXT["detector_verdict"],
        vertical_columns=True,
        divider_before=(2, 7),
        dashed_cells=[(i, 1) for i, a in enumerate(rows) if a.needs_position],
    )
    return heat_figure(table)


def pe_column_mean_figure(means: np.ndarray) -> Figure:
    """What W_P adds to every token alike: its mean over the T positions, per dimension (cos columns ≈ 1)."""
    fig, ax = new_figure(9.0, 3.2)
    colours = [ACCENT[1] if d in (9, 11) else ACCENT[0] for d in range(D_MODEL)]
    ax.bar(np.arange(D_MODEL), means, color=colours)
    for d, v in enumerate(means):
        ax.text(d, v + 0.03 if v >= 0 else v - 0.1, f"{v:.2f}".replace("-", "−"), ha="center", fontsize=7.5)
    ax.set_xticks(np.arange(D_MODEL), labels=DIM_LABELS, rotation=90, fontsize=8)
    ax.axhline(0.0, color="#888888", linewidth=0.6)
    ax.set_ylabel(TEXT["position_mean"])
    ax.set_ylim(-0.3, 1.25)
    ax.grid(True, axis="y")
    return fig


# ---------------------------------------------------------------------------------------------- §8
def block_flow_figure(stages: Sequence[tuple[str, str, tuple[int, ...]]]) -> Figure:
    """The block top to bottom: each stage (formula, note, shape) in a box, residual paths on the side.

    The residual arrows run from the stage of X (index 1) and of ln1_out (index 5) to the LayerNorms after them.
    """
    fig, ax = new_figure(8.6, 8.4)
    ax.set_xlim(0, 10)
    ax.set_ylim(-0.5, len(stages) * 1.0)
    ax.axis("off")
    ys = [len(stages) - 1 - i + 0.1 for i in range(len(stages))]
    for (text, note, shape), y in zip(stages, ys, strict=True):
        box = FancyBboxPatch((1.2, y - 0.3), 5.6, 0.6, boxstyle="round,pad=0.02,rounding_size=0.12",
                             facecolor="none", edgecolor=ACCENT[0], linewidth=1.4)  # fmt: skip
        ax.add_patch(box)
        ax.text(4.0, y, text, ha="center", va="center", fontsize=9.5)
        ax.text(7.05, y + 0.08, "(" + ", ".join(str(s) for s in shape) + ")", ha="left", va="center", fontsize=10,
                color=ACCENT[1])  # fmt: skip
        ax.text(7.05, y - 0.2, note, ha="left", va="center", fontsize=8.5)
    _flow_arrows(ax, ys, down_x=4.0, half=0.3, left=1.2, rad=0.45, size=8.5, scale=12, width=1.6)
    ax.text(7.05, len(stages) - 0.35, TEXT["shapes"], fontsize=8.5, ha="left")
    return fig


def block_flow_phone_figure(stages: Sequence[tuple[str, str, tuple[int, ...]]]) -> Figure:
    """The same flow for a phone's column: each stage's formula in a box the column's width, its shape and note on
    the line under it, the residual paths as arcs on the left."""
    step = 1.2  # one stage: its box and the line under it
    fig, ax = new_figure(3.4, 0.71 * (len(stages) * step + 0.4))
    ax.set_xlim(0, 5.2)
    ax.set_ylim(-0.55, len(stages) * step - 0.15)
    ax.axis("off")
    ys = [(len(stages) - 1 - i) * step + 0.35 for i in range(len(stages))]
    for (text, note, shape), y in zip(stages, ys, strict=True):
        ax.add_patch(FancyBboxPatch((0.7, y - 0.25), 4.45, 0.5, boxstyle="round,pad=0.02,rounding_size=0.1",
                                    facecolor="none", edgecolor=ACCENT[0], linewidth=1.2))  # fmt: skip
        ax.text(2.925, y, text, ha="center", va="center", fontsize=9.5)
        ax.text(0.75, y - 0.5, "(" + ", ".join(str(s) for s in shape) + ")", ha="left", va="center",
                fontsize=9.5, color=ACCENT[1])  # fmt: skip
        ax.text(1.95, y - 0.5, note, ha="left", va="center", fontsize=9.5)
    _flow_arrows(ax, ys, down_x=4.6, half=0.25, left=0.7, rad=0.12, size=9.5, scale=10, width=1.4)
    return fig


def _flow_arrows(ax, ys, *, down_x, half, left, rad, size, scale, width) -> None:
    """The block flow's arrows: stage to stage at ``down_x`` (boxes ``half`` high above and below their y), and
    the two residual paths as arcs from the boxes' left edge, from X (stage 1) and ln1_out (stage 5) to the
    LayerNorms after them, named along the left edge."""
    for y0, y1 in itertools.pairwise(ys):
        ax.add_patch(FancyArrowPatch((down_x, y0 - half), (down_x, y1 + half), arrowstyle="-|>", mutation_scale=scale,
                                     color="#888888"))  # fmt: skip
    for src, dst, label in ((1, 5, TEXT["residual_x"]), (5, 8, TEXT["residual_ln1"])):
        arc = FancyArrowPatch((left, ys[src]), (left, ys[dst]), connectionstyle=f"arc3,rad={rad}", arrowstyle="-|>",
                              mutation_scale=scale, color=ACCENT[2], linewidth=width)  # fmt: skip
        ax.add_patch(arc)
        ax.text(0.02, (ys[src] + ys[dst]) / 2, label, ha="left", va="center", fontsize=size, color=ACCENT[2],
                rotation=90)  # fmt: skip


# ---------------------------------------------------------------------------------------------- math
def _tex_number(value: float, decimals: int = 4) -> str:
    return f"{value:.{decimals}f}"


def derivation_html(der: Derivation, words: list[str], decimals: int = 4) -> str:
    """A derivation as display math: the general formula, the substituted non-zero terms, the value.

    ``words`` label the token positions in the heading. Only ln1_out, ln2_out and ffn_h are supported here.
    """
    f = _tex_number
    lines = [rf"\[{der.formula}\]"]
    if der.stage in ("ln1_out", "ln2_out"):
        t, d = der.index
        name = "residual1" if der.stage == "ln1_out" else "residual2"
        mu, var, root = der.intermediate("mu"), der.intermediate("var"), der.intermediate("sqrt_var_eps")
        x = der.intermediate("input")
        values = [term.value for term in der.terms]
        # a signed sum (no "+ −0.475"), four entries per line so that 16 entries fit a phone's column (~360 px)
        signed = [("- " if v < 0 else "+ ") + f(abs(v), 3) for v in values]
        signed[0] = f(values[0], 3)
        chunks = [" ".join(signed[i : i + 4]) for i in range(0, len(signed), 4)]
        entries = r" \\ &\quad ".join(chunks)
        lines += [
            rf"\[\begin{{aligned}}\mu_{{{t}}} &= \tfrac{{1}}{{{D_MODEL}}}\,\big({entries}\big) \\ &= {f(mu)}"
            r"\end{aligned}\]",
            rf"\[\begin{{aligned}}\sigma_{{{t}}}^2 &= \tfrac{{1}}{{{D_MODEL}}}"
            rf"\sum_d (\mathrm{{{name}}}[{t},d] - \mu_{{{t}}})^2"
            rf" \\ &= {f(var)} \\"
            rf"\sqrt{{\sigma_{{{t}}}^2 + \varepsilon}} &= {f(root)}\end{{aligned}}\]",
            rf"\[\mathrm{{{der.stage.replace('_', chr(92) + '_')}}}[{t},{d}] = "
            rf"{f(der.intermediate('gamma'), 1)} \cdot \frac{{{f(x)} - {f(mu)}}}{{{f(root)}}} + "
            rf"{f(der.intermediate('beta'), 1)} = {f(der.value)}\]",
        ]
        heading = f"{der.stage}[{t}, {d}]（{words[t]}, d{d} {DIM_NAMES[d]}）"
    elif der.stage == "ffn_h":
        t, k = der.index
        # one product per line, so that the sum fits a phone's column
        products = r" \\ &\quad + ".join(rf"{f(term.factors[0].value)} \times {f(term.factors[1].value, 1)}"
                                         for term in der.terms)  # fmt: skip
        pre = der.intermediate("ffn_pre")
        lines += [
            rf"\[\begin{{aligned}}\mathrm{{ffn\_pre}}[{t},{k}] &= {products}"
            rf" \\ &\quad + ({f(der.intermediate('b1'), 1)}) \\"
            rf" &= {f(pre)}\end{{aligned}}\]",
            # x is the ffn_pre just computed; the cubic coefficient comes from ops, not typed here
            rf"\[\sqrt{{2/\pi}}\,(x + {ops.GELU_CUBIC_COEFF}\,x^3) = {f(der.intermediate('tanh_arg'))}"
            rf"\quad (x = {f(pre)})\]",
            rf"\[\mathrm{{ffn\_h}}[{t},{k}] = \tfrac12 \cdot {f(pre)} \cdot "
            rf"(1 + \tanh({f(der.intermediate('tanh_arg'))}))"
            rf" = {f(der.value)}\]",
        ]
        heading = f"ffn_h[{t}, {k}]（{words[t]}, {NEURON_NAMES[k]}）"
    else:
        raise ValueError(f"derivation_html supports ln1_out, ln2_out and ffn_h, got stage {der.stage!r}")
    body = "\n".join(f'<div class="arithmatex">{line}</div>' for line in lines)
    return f'<div class="tf-derivation"><p><strong>{html.escape(heading)}</strong></p>\n{body}\n</div>'
