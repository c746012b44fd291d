"""docs/chapter/02-attention-kinds.md: self-, masked and cross-attention — the chapter's instances.

The causal mask is shown on sentence 1's head-0 scores of the preset; padding, the √d_k scaling and the
cross-attention shapes use seeded random inputs, so every number is reproducible.
"""

from __future__ import annotations

from functools import cache

from transformer_math import attention, backward, preset, preset_trace
from transformer_math.attention import AttentionRun, MaskComparison, PaddingDemo, ScalingStats
from transformer_math.configs import TRANSFORMER_BASE as BASE

SEED = 0
"""Seed of every random draw on this page."""

MASK_SENTENCE = 1
"""The causal mask is shown on this sentence's head-0 scores."""
MASK_WORDS: tuple[str, ...] = preset.sentence(MASK_SENTENCE).words


@cache
def mask() -> MaskComparison:
    """Sentence 1's head-0 scores (5, 5) masked before the softmax, zeroed after it, and with −1e9 for −∞."""
    return attention.compare_mask_placement(preset_trace(MASK_SENTENCE).scores[0])


PADDING_T, PADDING_VALID, PADDING_D_K = 6, 4, 8
"""The padding example: T positions of which the first PADDING_VALID are real tokens, vectors of PADDING_D_K."""
N_PADDING = PADDING_T - PADDING_VALID


@cache
def padding() -> PaddingDemo:
    return attention.padding_demo(PADDING_T, PADDING_VALID, PADDING_D_K, SEED)


SCALING_KEYS, SCALING_TRIALS = 8, 2000
"""Keys per query and queries drawn when the √d_k scaling is measured."""
SCALING_D_K = (1, 8, BASE.d_k)


@cache
def scaling() -> dict[int, ScalingStats]:
    """d_k → spread of the scores and size of the largest weight, with and without ÷ √d_k."""
    return {d_k: attention.scaling_stats(d_k, SCALING_KEYS, SCALING_TRIALS, SEED) for d_k in SCALING_D_K}


CROSS_N, CROSS_M = 3, 5
"""Decoder positions (queries) and encoder positions (keys, values) of the cross-attention example."""


@cache
def cross() -> AttentionRun:
    """Cross-attention with random weights: 3 decoder positions look at 5 encoder positions (d_model 512, h 8)."""
    return attention.run_attention(CROSS_N, CROSS_M, BASE.d_model, BASE.n_heads, SEED)


def padding_weight_unmasked(query: int) -> float:
    """Without the mask, the total weight that real query ``query`` gives to the padding keys."""
    return float(padding().weight_on_padding_unmasked[query])


def gradient_sweep() -> backward.SqrtDkSweep:
    """The softmax's Jacobian and the gradient reaching the scores, d_k = 1 … 512, with and without ÷ √d_k."""
    return backward.sqrt_dk_sweep()


def gradient(d_k: int, scaled: bool) -> backward.SoftmaxGradientSize:
    """One point of :func:`gradient_sweep`."""
    return gradient_sweep().at(d_k, scaled)


def gradient_range(name: str, scaled: bool) -> tuple[float, float]:
    """(min, max) of one measure of :func:`gradient_sweep` over every swept d_k."""
    column = gradient_sweep().column(name, scaled)
    return float(column.min()), float(column.max())


def gradient_ratio(name: str, d_k: int) -> float:
    """The unscaled value of a measure over the scaled one at ``d_k``: how much is left without the division."""
    return getattr(gradient(d_k, False), name) / getattr(gradient(d_k, True), name)


LABELS = {
    "CROSS_N": "Source-Target の例のデコーダ側の位置の数 n",
    "CROSS_M": "Source-Target の例のエンコーダ側の位置の数 m",
    "MASK_SENTENCE": "マスクの比較に使う例文の番号",
    "PADDING_T": "パディングの例の位置の数",
    "PADDING_VALID": "パディングの例の本物のトークンの数",
    "N_PADDING": "パディングの位置の数",
    "SCALING_KEYS": "√d_k の測定で 1 クエリあたりに引くキーの数",
    "SCALING_TRIALS": "√d_k の測定の試行回数",
    "cross()": "Source-Target Attention の例 (乱数の重み)",
    "cross().attn": "Source-Target の例の注意の重み [ヘッド, デコーダ, エンコーダ]",
    "cross().shapes": "Source-Target の例の配列の形",
    "mask()": "文1・ヘッド0 のマスクの比較",
    "mask().future_weight": "マスクなしの softmax が未来の列に置く重み [行]",
    "mask().large_negative_gap": "−∞ と大きな負の数での重みの差の最大",
    "mask().masked_before": "softmax の前にマスクした重み",
    "mask().row_sums_before": "softmax の前にマスクしたときの行の和",
    "mask().row_sums_zeroed": "softmax の後で 0 にしたときの行の和 [行]",
    "mask().scores": "文1・ヘッド0 の scores",
    "padding()": "パディングマスクの例",
    "padding().out_change_masked": "パディングの値を変えたときの出力の変化 (マスクあり)",
    "padding().out_change_unmasked": "パディングの値を変えたときの出力の変化 (マスクなし)",
    "padding().weight_on_padding": "マスクありでパディングの列に置かれた重みの最大",
    "padding_weight_unmasked()": "マスクなしで {i0} 行目がパディングに置く重みの合計",
    "scaling()": "√d_k の測定",
    "scaling()[]": "d_k = {0} での √d_k の測定",
    "scaling()[].score_std_unscaled": "d_k = {0} での q·k の標準偏差 (割らない)",
    "scaling()[].score_std_scaled": "d_k = {0} での q·k/√d_k の標準偏差",
    "scaling()[].max_weight_unscaled": "d_k = {0} で割らないときの各行の最大の重みの平均",
    "scaling()[].max_weight_scaled": "d_k = {0} で √d_k で割ったときの各行の最大の重みの平均",
    "gradient()": "d_k = {0}・√d_k で割る {1} の softmax の勾配の測定",
    "gradient().jacobian_norm": "d_k = {0}・√d_k で割る {1} のヤコビアンの ‖J‖₂ (行の平均)",
    "gradient().d_scores_rms": "d_k = {0}・√d_k で割る {1} のスコアに届く勾配の RMS",
    "gradient().saturated_fraction": "d_k = {0}・√d_k で割る {1} の飽和した行の割合",
    "gradient_range()": "√d_k で割る {1}・全 d_k での「{0}」の (最小, 最大)",
    "gradient_ratio()": "d_k = {1} の「{0}」の割らないとき ÷ 割ったとき",
    "mask().renormalise_gap": "後から 0 にして割り直した重みと、softmax の前にマスクした重みの差の最大",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
