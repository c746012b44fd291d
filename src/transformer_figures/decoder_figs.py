"""Drawing helpers of the decoder track (docs/decoder/): masked scores, next-word probabilities, distributions
under temperature and truncation, the multiplications of generation, cross-attention.

Every helper takes what a snippet computed and returns a HeatFigure or a matplotlib Figure; it computes nothing
the page is about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure

from .heat_table import ColourScale, HeatFigure, heat_figure, heat_table
from .style import ACCENT, INK, new_figure

WEIGHTS = ColourScale.for_values(None, vmin=0.0, vmax=1.0)
"""Attention weights and probabilities lie in [0, 1]: one scale for all of them on these pages."""

TEXT = {
    "masked_scores": "{title}: scores (破線の枠が −∞ に)",
    "query_key_ij": "クエリ i ＼ キー j",
    "row_sum": "和 {sum:.2f}",
    "read_next": "読んだ語 ＼ 次の語",
    "recomputed": "キャッシュなし",
    "cached": "KV キャッシュあり",
    "multiplies": "1 語あたりの積和",
    "head": "ヘッド a = {a}",
    "decoder_encoder": "デコーダ ＼ エンコーダ",
    "words_line": "語の数 ({words}): どの語も 1 記号になった所",
    "vocabulary_size": "語彙の大きさ (文字 + 併合の回数)",
    "corpus_symbols": "コーパスの記号の数",
    "query_key": "クエリ ＼ キー",
}
"""The reader-facing words of the decoder track's figures (titles, corners, axes, legends, row notes)."""


def masked_attention_figure(scores: np.ndarray, attn: np.ndarray, words: Sequence[str], title: str) -> HeatFigure:
    """The scores (T, T) with the cells the mask sets to −∞ in dashed frames, beside softmax(scores + M)."""
    T = scores.shape[0]
    future = [(i, j) for i in range(T) for j in range(i + 1, T)]
    labels = list(words)
    left = heat_table(scores, labels, labels, fmt="{:+.1f}", center=0.0,
                      title=TEXT["masked_scores"].format(title=title), corner=TEXT["query_key_ij"],
                      dashed_cells=future)  # fmt: skip
    right = heat_table(attn, labels, labels, fmt="{:.3f}", scale=WEIGHTS, title=f"{title}: attn = softmax(scores + M)",
                       corner=TEXT["query_key_ij"], hidden_zeros=True,
                       row_notes=[TEXT["row_sum"].format(sum=s) for s in attn.sum(axis=-1)])  # fmt: skip
    return HeatFigure((left, right), ((left.scale, "{:+.0f}"), (WEIGHTS, "{:.1f}")), columns=2)


def probabilities_figure(
    probs: np.ndarray, row_labels: Sequence[str], vocab: Sequence[str], framed: Sequence[tuple[int, int]] = ()
) -> HeatFigure:
    """Rows of next-word probabilities (rows × vocab) on the weight scale, the cells in ``framed`` framed.

    A probability that prints as 0.00 is left blank (its colour stays), so the few words that matter stand out.
    """
    shown = np.where(np.asarray(probs) < 0.005, 0.0, probs)
    table = heat_table(shown, list(row_labels), list(vocab), fmt="{:.2f}", scale=WEIGHTS, corner=TEXT["read_next"],
                       vertical_columns=True, hidden_zeros=True, framed_cells=framed)  # fmt: skip
    return heat_figure(table, legend_fmt="{:.1f}")


def distributions_figure(rows: Mapping[str, np.ndarray], vocab: Sequence[str], title: str) -> HeatFigure:
    """One row per distribution (label → (vocab,)) on the weight scale; words a row leaves out, and words whose
    probability prints as 0.000, print nothing (their colour stays)."""
    matrix = np.array([np.asarray(r, dtype=float) for r in rows.values()])
    matrix = np.where(matrix < 0.0005, 0.0, matrix)
    table = heat_table(matrix, list(rows), list(vocab), fmt="{:.3f}", scale=WEIGHTS, title=title,
                       vertical_columns=True, hidden_zeros=True)  # fmt: skip
    return heat_figure(table, legend_fmt="{:.1f}")


def multiplies_figure(panels: Mapping[str, tuple[np.ndarray, np.ndarray, np.ndarray]], xlabel: str) -> Figure:
    """Per panel (title → (lengths, with the cache, without)): the multiply-adds of one generation step by the
    length of the sequence, both on log axes."""
    fig, axes = new_figure(6.4, 3.2 * len(panels) + 0.4, nrows=len(panels))
    axes = np.atleast_1d(axes)
    for ax, (title, (lengths, cached, recomputed)) in zip(axes, panels.items(), strict=True):
        ax.plot(lengths, recomputed, "-", color=ACCENT[1], lw=2.0, label=TEXT["recomputed"])
        ax.plot(lengths, cached, "--", color=ACCENT[0], lw=2.0, label=TEXT["cached"])
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(title, fontsize=10)
        ax.set_ylabel(TEXT["multiplies"])
        ax.grid(True, which="major")
        ax.legend(loc="upper left", fontsize=8.5)
    axes[-1].set_xlabel(xlabel)
    return fig


def cross_attention_figure(attn: np.ndarray, targets: Sequence[str], sources: Sequence[str]) -> HeatFigure:
    """The n × m weights of each head (attn (h, n, m)): decoder positions down, encoder positions across."""
    tables = [
        heat_table(attn[a], list(targets), list(sources), fmt="{:.3f}", scale=WEIGHTS, title=TEXT["head"].format(a=a),
                   corner=TEXT["decoder_encoder"],
                   row_notes=[TEXT["row_sum"].format(sum=s) for s in attn[a].sum(axis=-1)])
        for a in range(attn.shape[0])
    ]  # fmt: skip
    return heat_figure(*tables, columns=2, legend_fmt="{:.1f}")


def tokens_vs_vocabulary_figure(vocabulary: np.ndarray, tokens: np.ndarray, words: int) -> Figure:
    """BPE's trade-off: the tokens of the corpus against the vocabulary size, one point per merge."""
    fig, ax = new_figure(6.0, 3.6)
    ax.plot(vocabulary, tokens, "-o", color=ACCENT[0], lw=1.8, ms=3.5)
    ax.axhline(words, color=INK, lw=0.9, ls="--", label=TEXT["words_line"].format(words=words))
    ax.set_xlabel(TEXT["vocabulary_size"])
    ax.set_ylabel(TEXT["corpus_symbols"])
    ax.grid(True)
    ax.legend(loc="upper right", fontsize=9)
    return fig


def scores_pair_figure(panels: Mapping[str, np.ndarray], rows: Sequence[str], cols: Sequence[str]) -> HeatFigure:
    """Score matrices (title → (n, m)) side by side, each on its own diverging scale about 0."""
    tables = [
        heat_table(values, list(rows), list(cols), fmt="{:+.3f}", center=0.0, title=title, corner=TEXT["query_key"])
        for title, values in panels.items()
    ]
    return heat_figure(*tables, columns=2, legend_fmt="{:+.1f}")
