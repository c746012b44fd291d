"""docs/chapter/10-review.md, the exam page: the values of its question bank and the answers src computes.

One section per point of the chapter's review list; a question already asked on a chapter page is asked here
again in other numbers, so the bank tests the point, not the memory of one answer.
"""

from __future__ import annotations

import math

import numpy as np

from transformer_math import (
    adam,
    attention,
    bpe,
    counting,
    masking,
    ops,
    preset,
    preset_weights,
    regularization,
    schedules,
)
from transformer_math.block import forward
from transformer_math.configs import BERT_BASE, GPT2_SMALL
from transformer_math.configs import TRANSFORMER_BASE as BASE
from transformer_math.configs import TRANSFORMER_BIG as BIG

from .. import which
from ..decoder.tokenization_questions import FIGURE_1
from .add_norm_questions import ln_placement_formula
from .attention_kinds import CROSS_M, CROSS_N, cross, mask, scaling
from .ffn import position_wise_gap
from .positional_encoding import rotation_error
from .positional_encoding_questions import slip_wavelength
from .training_questions import LR_UNIT

# ------------------------------------------------------------------------------------------------- √d_k


def score_std_theory() -> float:
    """q · k of d_k independent unit-variance components has variance d_k: its standard deviation √d_k."""
    return math.sqrt(BASE.d_k)


ONE_HEAD_D_K = BASE.d_model
"""One head over the whole d_model: the divisor becomes √512."""


def one_head_divisor() -> float:
    return math.sqrt(ONE_HEAD_D_K)


def unscaled_effect() -> str:
    """What leaving out ÷√d_k does at d_k = 64, read off the measured rows: the largest weight grows."""
    stats = scaling()[BASE.d_k]
    return which(
        {
            "saturate": bool(stats.max_weight_unscaled > stats.max_weight_scaled),
            "flatten": bool(stats.max_weight_unscaled < stats.max_weight_scaled),
        },
        True,
    )


# ----------------------------------------------------------------------------------- the three attentions


def cross_sources() -> str:
    """Where Source-Target attention takes its queries and its keys/values: the rows of Q and K tell."""
    shapes = cross().shapes
    q_from = "dec" if shapes["Q"][1] == shapes["X_dec"][0] else "enc"
    kv_from = "enc" if shapes["K"][1] == shapes["X_enc"][0] == shapes["V"][1] else "dec"
    return which(
        {"q_dec": ("dec", "enc"), "q_enc": ("enc", "dec"), "all_dec": ("dec", "dec"), "all_enc": ("enc", "enc")},
        (q_from, kv_from),
    )


def cross_out_shape() -> str:
    d = BASE.d_model
    return which(
        {"n_d": (CROSS_N, d), "m_d": (CROSS_M, d), "n_m": (CROSS_N, CROSS_M), "m_n": (CROSS_M, CROSS_N)},
        cross().shapes["out"],
    )


def non_square_kind() -> str:
    """The kind whose score matrix can be n × m with n ≠ m: run each with the lengths it allows."""
    n = CROSS_N
    square = {
        "self": attention.run_attention(n, n, BASE.d_model, BASE.n_heads, 0, execute=False).shapes["scores"],
        "masked": attention.run_attention(n, n, BASE.d_model, BASE.n_heads, 0, execute=False).shapes["scores"],
        "cross": cross().shapes["scores"],
    }
    return which({key: shape[1] != shape[2] for key, shape in square.items()}, True)


# --------------------------------------------------------------------------------------------- the mask

ROW_WEIGHTS = ops.softmax(mask().scores[0])
"""Row これ of sentence 1, head 0, without any mask: the weights the question gives."""


def zeroed_row_sum() -> float:
    """Zero the future columns of that row after the softmax: what is left of its sum."""
    return float(mask().zeroed_after[0].sum())


MASKED_ROW = 2
"""Row 美しい (i = 2): with the causal mask it sees positions 0, 1, 2."""


def masked_row_scores() -> np.ndarray:
    return mask().scores[MASKED_ROW, : MASKED_ROW + 1]


def masked_self_weight() -> float:
    return float(mask().masked_before[MASKED_ROW, MASKED_ROW])


def masked_self_weight_from_shown() -> float:
    e = np.exp(np.round(masked_row_scores(), 3))
    return float(e[-1] / e.sum())


# -------------------------------------------------------------------------------------------- MHA shapes

HEADS_N = 10


def heads_q_shape() -> str:
    run = attention.run_attention(HEADS_N, HEADS_N, BASE.d_model, BASE.n_heads, 0, execute=False)
    h, d_k = BASE.n_heads, BASE.d_k
    return which(
        {"h_n_dk": (h, HEADS_N, d_k), "n_d": (HEADS_N, BASE.d_model), "h_n_n": (h, HEADS_N, HEADS_N),
         "n_dk": (HEADS_N, d_k)},
        run.shapes["Q"],
    )  # fmt: skip


def big_d_k() -> int:
    return BIG.d_model // BIG.n_heads


def base_attention_weights() -> int:
    return counting.attention_params(BASE.d_model, BASE.n_heads, bias=False)


# ---------------------------------------------------------------------------------- positional encoding

SLIP_PAIR, SLIP_D_MODEL = 16, 128


def slip() -> str:
    return slip_wavelength(SLIP_PAIR, SLIP_D_MODEL)


def pe_at_one() -> float:
    """PE(pos = 1, 2i = 0) = sin(1)."""
    return float(ops.positional_encoding(2, BASE.d_model)[1, 0])


def pe_norm() -> float:
    """‖PE(pos)‖ for d_model = 512: √(d_model / 2), whatever the position."""
    return float(np.linalg.norm(ops.positional_encoding(1, BASE.d_model)[0]))


SWAP_SENTENCE, SWAP = 3, (2, 1, 0, 3, 4)
"""私 は 猫 が 好き with its first and third words swapped: 猫 は 私 が 好き."""


def swap_outputs(positions: bool) -> tuple[np.ndarray, np.ndarray]:
    """ln2_out of the swapped sentence, and the original's ln2_out with its rows swapped the same way."""
    tokens = preset.sentence(SWAP_SENTENCE).token_ids
    order = np.array(SWAP)
    out = forward(preset_weights(), tokens, positions=positions).ln2_out  # (T, d_model)
    swapped = forward(preset_weights(), tokens[order], positions=positions).ln2_out
    return swapped, out[order]


def swapped_without_position() -> str:
    """Without positional encoding, what swapping two words does to the block's output: its rows swap, no more."""
    swapped, rows_swapped = swap_outputs(positions=False)
    original = forward(preset_weights(), preset.sentence(SWAP_SENTENCE).token_ids, positions=False).ln2_out
    follows = bool(np.allclose(swapped, rows_swapped, rtol=0, atol=1e-12))
    same = bool(np.allclose(swapped, original, rtol=0, atol=1e-12))
    return which({"rows_swap": follows, "same": same, "changed": not (follows or same)}, True)


def swap_change_with_position() -> float:
    """With positional encoding: the largest change of a word's output when the two words swap places."""
    swapped, rows_swapped = swap_outputs(positions=True)
    return float(np.abs(swapped - rows_swapped).max())


def pair_advantage() -> str:
    """What pairing sin with cos buys, as measured: the shift by k is one rotation, the same at every position."""
    pe = ops.positional_encoding(1000, BASE.d_model)
    norms = np.linalg.norm(pe, axis=1)
    return which(
        {
            "rotation": bool(rotation_error() < 1e-12),
            "unbounded": bool(np.abs(pe).max() > 1),
            "longer": bool(norms[-1] > norms[0] + 1e-9),
        },
        True,
    )


# ---------------------------------------------------------------------------------------- position-wise FFN


def ffn_weights() -> int:
    return counting.ffn_params(BASE.d_model, BASE.d_ff, bias=False)


def rows_at_once() -> str:
    gap = position_wise_gap()
    return which({"same": bool(gap < 1e-12), "different": bool(gap >= 1e-12)}, True)


GELU_AT = -1.0


def gelu_at() -> float:
    return float(ops.gelu(GELU_AT))


# ------------------------------------------------------------------------------------------- Add & Norm


def norm_axis() -> str:
    """Which numbers one LayerNorm averages: a token's own d_model components (not the batch's column)."""
    rng = np.random.default_rng(0)
    batch = rng.standard_normal((4, 6))  # 4 tokens (or examples) × 6 features
    out = ops.layer_norm(batch)
    rows = bool(np.allclose(out.mean(axis=1), 0))
    columns = bool(np.allclose(out.mean(axis=0), 0))
    return which({"token": (True, False), "batch": (False, True)}, (rows, columns))


TOY = np.array([0.0, 0.0, 0.0, 4.0])


def toy_last() -> float:
    return float(ops.layer_norm(TOY)[-1])


def pre_ln_formula() -> str:
    """Which offered formula ``ops.pre_ln`` computes (the same three formulas as the Add & Norm page's question)."""
    return ln_placement_formula(ops.pre_ln, seed=1)


# ---------------------------------------------------------------------------------------------- BERT

MLM_TOKENS = 1000


def expected_masked() -> float:
    return MLM_TOKENS * masking.MLM_SELECT_RATE * masking.MLM_MASK_RATE


def random_share() -> float:
    """Of all tokens, the share replaced by a random word: 15 % × 10 %."""
    return masking.MLM_SELECT_RATE * masking.MLM_RANDOM_RATE


def bert_embeddings() -> int:
    return counting.bert_params(BERT_BASE)["embeddings"]


def segment_kinds() -> int:
    """Segment (token type) ids: sentence A and sentence B of a pair, as NSP feeds them."""
    return BERT_BASE.type_vocab_size


# ----------------------------------------------------------------------------------------------- GPT

GPT_T, GPT_POSITION = 8, 5


def gpt_visible() -> str:
    visible = tuple(int(j) for j in np.flatnonzero(ops.causal_mask(GPT_T)[GPT_POSITION] == 0))
    p = GPT_POSITION
    return which(
        {"left": tuple(range(p + 1)), "all": tuple(range(GPT_T)), "right": tuple(range(p, GPT_T)), "self": (p,)},
        visible,
    )


def gpt2_positions() -> int:
    return counting.learned_position_params(GPT2_SMALL.n_ctx, GPT2_SMALL.d_model)


def gpt2_output_layer() -> int:
    """Parameters GPT-2's output layer adds on top of the embeddings: none, it reuses W_e (tied)."""
    return counting.gpt_params(GPT2_SMALL)["lm_head"]


# --------------------------------------------------------------------------------------- complexity table


def sequential_n_layer() -> str:
    return which({row.kind: row.sequential for row in counting.LAYER_COMPLEXITY}, "O(n)")


def n2d_layer() -> str:
    return which({row.kind: row.complexity for row in counting.LAYER_COMPLEXITY}, r"O(n^2 \cdot d)")


CROSSOVER_D = 1024


def crossover() -> int:
    return counting.crossover_n(CROSSOVER_D)


RNN_N, RNN_D = 100, 512


def recurrent_cost() -> int:
    return counting.recurrent_multiplies(RNN_N, RNN_D)


RESTRICTED_N, RESTRICTED_R = 1024, 32


def restricted_path() -> int:
    return counting.layer_complexity("restricted").max_path_length(RESTRICTED_N, r=RESTRICTED_R)


# ------------------------------------------------------------------------------------------------ Adam

ADAM_STEP = 10
"""The bias-correction question: the step whose m̂ the reader computes."""


def beta2_horizon() -> float:
    """About how many recent steps v_t averages with β2 = 0.98: 1/(1 − β2)."""
    return adam.averaging_horizon(BASE.adam_beta2)


def m_correction() -> float:
    """What step ADAM_STEP multiplies m_t by to get m̂_t: 1/(1 − β1^t)."""
    return adam.bias_correction(BASE.adam_beta1, ADAM_STEP)


EPS_GRADIENT = 1e-3
"""An ordinary gradient, to see how much ε changes a step."""


def eps_share() -> float:
    """How much ε changes the first step of a parameter whose gradient is EPS_GRADIENT (relative)."""
    g = np.array([EPS_GRADIENT])
    m, v = adam.adam_moments(np.zeros(1), np.zeros(1), g)
    with_eps = adam.adam_change(m, v, 1, 1.0)
    without = adam.adam_change(m, v, 1, 1.0, eps=0.0)
    return float(abs(with_eps[0] - without[0]) / abs(without[0]))


def eps_role() -> str:
    """What ε does, as computed: with a gradient that stays 0, the step is 0/0 without ε and 0 with it."""
    zero = np.zeros(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        without = adam.adam_change(zero, zero, 1, 1.0, eps=0.0)
    still = adam.adam_change(zero, zero, 1, 1.0)
    return which(
        {
            "stable": bool(not np.isfinite(without).all() and np.all(still == 0.0)),
            "smaller": bool(eps_share() > 1e-3),
            "moves": bool(np.all(np.abs(still) == 1.0)),
        },
        True,
    )


# ----------------------------------------------------------------------------------------------- warm-up


def peak_step() -> int:
    """The step with the largest learning rate, found by computing the schedule over its first steps."""
    steps = np.arange(1, 5 * BASE.warmup_steps + 1)
    return int(steps[np.argmax(schedules.noam_lr(steps))])


def half_peak_decay_step() -> float:
    """After the peak, the step where the learning rate has fallen to half the peak."""
    return schedules.noam_steps_at(schedules.noam_peak_lr() / 2)[1]


EARLY_STEP = 1000
"""The warm-up question: the learning rate at step 1000, in units of 10⁻⁴."""


def half_peak_rise_step() -> float:
    """During the warm-up, the step where the learning rate reaches half the peak."""
    return schedules.noam_steps_at(schedules.noam_peak_lr() / 2)[0]


def early_lr_in_units() -> float:
    return float(schedules.noam_lr(EARLY_STEP)) / LR_UNIT


# ----------------------------------------------------------------------------------------------- dropout

DROPOUT_SITE_OPTIONS = {
    "residual": ("X", "Y", "ffn_out"),
    "sublayers": ("Y", "ffn_out"),
    "normalised": ("ln1_out", "ln2_out"),
    "weights": ("attn",),
}
"""What each option of the dropout question claims, in the block's names: where dropout acts in training."""


def dropout_sites() -> str:
    """Where a training pass of the block drops entries out (the paper's residual dropout, §5.4)."""
    dropped = regularization.dropped_sites(preset_weights(), preset.sentence(1).token_ids, BASE.dropout)
    return which(DROPOUT_SITE_OPTIONS, dropped)


def base_dropout_scale() -> float:
    """What the kept entries are multiplied by at P_drop = 0.1: 1 / (1 − P)."""
    return 1.0 / (1.0 - BASE.dropout)


def expected_dropped() -> float:
    """Entries of one token's X (d_model = 512) that dropout sets to 0, on average: P_drop · d_model."""
    return BASE.dropout * BASE.d_model


# ------------------------------------------------------------------------------------------ label smoothing

SMOOTH_K = 10
"""The label-smoothing questions: a vocabulary of 10 words."""
SMOOTH_TARGET = schedules.label_smoothing_target(0, SMOOTH_K, BASE.label_smoothing)


def smoothed_correct() -> float:
    return float(SMOOTH_TARGET[0])


def smoothed_min_loss() -> float:
    """The smallest cross-entropy any prediction reaches against the smoothed target: its entropy (nats)."""
    return schedules.entropy(SMOOTH_TARGET)


def smoothed_other() -> float:
    return float(SMOOTH_TARGET[1])


def smoothed_gap() -> float:
    """log(q'_y / q'_k): the logit gap of the prediction that equals the smoothed target (the best one)."""
    return float(np.log(SMOOTH_TARGET[0] / SMOOTH_TARGET[1]))


def gap_at_best() -> str:
    """The logit gap where the loss is smallest, for the smoothed target and for the one-hot one."""
    one_hot = np.eye(SMOOTH_K)[0]
    with np.errstate(divide="ignore"):
        one_hot_gap = float(np.log(one_hot[0] / one_hot[1]))
    smoothed = smoothed_gap()
    return which(
        {
            "finite": bool(np.isfinite(smoothed) and smoothed > 0 and np.isinf(one_hot_gap)),
            "infinite": bool(np.isinf(smoothed) and np.isinf(one_hot_gap)),
            "zero": bool(smoothed == 0),
        },
        True,
    )


# ----------------------------------------------------------------------------------------------------- BPE

BPE_MERGES = 3
"""The BPE question: merges learned on the corpus of the BPE paper's code before a new word is split."""
BPE_WORD = "lowest"
"""A word the corpus does not hold; its end is the one the first merges build."""
BPE_SPLIT_OPTIONS = {
    "split": ("l", "o", "w", "est</w>"),
    "whole": ("lowest</w>",),
    "chars": ("l", "o", "w", "e", "s", "t", "</w>"),
    "low_est": ("low", "est</w>"),
}
"""What each option of the question claims: the symbols BPE_WORD is split into."""


def bpe_exam_run() -> bpe.BPERun:
    return bpe.learn([word for word, count in FIGURE_1.items() for _ in range(count)], BPE_MERGES)


def bpe_unseen_split() -> str:
    """How BPE_WORD is split by replaying the learned merges in order (BPE applied to a word it never saw)."""
    return which(BPE_SPLIT_OPTIONS, bpe_exam_run().segment(BPE_WORD))


def bpe_lo_count() -> int:
    """How often l + o stands side by side in the corpus before any merge (low and lower)."""
    run = bpe_exam_run()
    return bpe.pair_counts(run.initial, run.counts)[("l", "o")]


def bpe_merge_count() -> int:
    """How often each of the BPE_MERGES merges was found when it was chosen (the same for all of them here)."""
    counts = {step.count for step in bpe_exam_run().steps}
    if len(counts) != 1:
        raise ValueError(f"the merges were found {sorted(counts)} times: the question says they share one count")
    return counts.pop()


LABELS = {
    "score_std_theory()": "d_k = 64 の q·k の標準偏差 (理論値 √d_k)",
    "ONE_HEAD_D_K": "1 ヘッドで使うときの d_k (= d_model)",
    "one_head_divisor()": "1 ヘッドのときに scores を割る数 √d_k",
    "ROW_WEIGHTS[]": "マスクなしの文1・ヘッド0 の attn[これ→位置 {0}]",
    "zeroed_row_sum()": "softmax の後で未来を 0 にした これ の行の和",
    "masked_row_scores()[]": "文1・ヘッド0 の scores[美しい→位置 {0}]",
    "masked_self_weight()": "因果マスクありの文1・ヘッド0 の attn[美しい→美しい]",
    "masked_self_weight_from_shown()": "表示の 3 桁の scores から計算した attn[美しい→美しい]",
    "HEADS_N": "Q の shape の問題の位置の数 n",
    "big_d_k()": "big モデルの 1 ヘッドの幅 d_k",
    "base_attention_weights()": "base モデルの Multi-Head Attention の重み (バイアスなし)",
    "SLIP_PAIR": "波長の問題の組の番号 i",
    "SLIP_D_MODEL": "波長の問題の d_model",
    "pe_at_one()": "位置 1・列 0 の位置エンコーディングの値",
    "pe_norm()": "d_model = 512 の位置エンコーディング 1 本の長さ",
    "ffn_weights()": "base モデルの FFN 1 つの重み (バイアスなし)",
    "gelu_at()": "GELU(−1) の値",
    "toy_last()": "(0, 0, 0, 4) の LayerNorm の最後の成分",
    "MLM_TOKENS": "MLM の問題のコーパスのトークン数",
    "expected_masked()": "1000 トークンで [MASK] になる数の期待値",
    "random_share()": "MLM でランダムな語になるトークンの割合",
    "bert_embeddings()": "BERT-base の入力の埋め込みのパラメータ数",
    "segment_kinds()": "BERT のセグメント埋め込みの表の行数",
    "GPT_T": "GPT の問題のトークン数",
    "GPT_POSITION": "GPT の問題で出力を読む位置",
    "gpt2_positions()": "GPT-2 small の学習する位置埋め込みのパラメータ数",
    "gpt2_output_layer()": "GPT-2 small の出力層が埋め込みのほかに足すパラメータ数",
    "CROSSOVER_D": "計算量が並ぶ問題の次元 d",
    "crossover()": "d = 1024 で Self-Attention と再帰層の計算量が並ぶ n",
    "RNN_N": "再帰層の問題の系列長 n",
    "RNN_D": "再帰層の問題の次元 d",
    "recurrent_cost()": "n = 100, d = 512 の再帰層の掛け算の回数 nd²",
    "RESTRICTED_N": "制限付き Self-Attention の問題の位置の数 n",
    "RESTRICTED_R": "制限付き Self-Attention の窓の幅 r",
    "restricted_path()": "r = 32 の制限付き Self-Attention で 1024 位置に届く層の数",
    "SWAP_SENTENCE": "語を入れ替える問題の文の番号",
    "swap_change_with_position()": "位置エンコーディングありで 2 語を入れ替えたときの出力の変化の最大",
    "ADAM_STEP": "バイアス補正の問題のステップ",
    "beta2_horizon()": "β2 = 0.98 の移動平均がおよそ平均するステップ数 1/(1 − β2)",
    "m_correction()": "step 10 の m̂ を作るために m に掛ける数 1/(1 − β1^10)",
    "EPS_GRADIENT": "ε の効き方を見る勾配の大きさ",
    "eps_share()": "勾配 10⁻³ の最初の一歩を ε が変える割合",
    "peak_step()": "学習率が最大になるステップ",
    "half_peak_decay_step()": "ピークの後で学習率がピークの半分になるステップ",
    "EARLY_STEP": "ウォームアップ中の学習率の問題のステップ",
    "early_lr_in_units()": "step 1000 の学習率 (10⁻⁴ 単位)",
    "base_dropout_scale()": "base モデルのドロップアウトで残った要素に掛ける倍率",
    "expected_dropped()": "1 トークンの 512 成分のうちドロップアウトで 0 になる数の期待値",
    "SMOOTH_K": "ラベル平滑化の問題の語彙の大きさ",
    "smoothed_correct()": "語彙 10 語でのラベル平滑化の正解の目標",
    "smoothed_min_loss()": "語彙 10 語の平滑化した目標に対する損失の最小値 (nat)",
    "smoothed_other()": "語彙 10 語でのラベル平滑化の正解でない 1 語の目標",
    "smoothed_gap()": "平滑化した目標どおりの予測での、正解とほかの語のロジットの差",
    "half_peak_rise_step()": "ウォームアップ中に学習率がピークの半分になるステップ",
    "BPE_MERGES": "BPE の問題で学ぶ併合の回数",
    "bpe_unseen_split()": "3 回の併合で学んだ BPE が lowest を分ける記号",
    "bpe_lo_count()": "BPE の原論文の例のコーパスで l + o が隣り合う回数",
    "bpe_merge_count()": "BPE の原論文の例で最初の 3 回の併合の組がそれぞれ現れる回数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
