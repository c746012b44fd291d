"""docs/chapter/07-training.md: the Noam schedule, why Adam needs warmup, dropout and label smoothing, computed."""

from __future__ import annotations

from functools import cache
from types import MappingProxyType

import numpy as np

from transformer_math import adam, ops, preset, schedules
from transformer_math.configs import TRANSFORMER_BASE as BASE
from transformer_math.configs import TRANSFORMER_BIG as BIG

from ..notes import references

ADAM_PAPER_BETA2 = references.reference("kingma2015").figures["Algorithm 1"][1]
"""The β2 that Adam's own paper suggests as a default (§10's entry kingma2015)."""

PEAK_LR = schedules.noam_peak_lr()
PEAK_OVER_FIRST = PEAK_LR / schedules.noam_lr(1)
"""How many times larger the peak learning rate is than step 1's."""
LR_AT_END = schedules.noam_lr(BASE.train_steps)
"""η after the base model's 100,000 steps."""
PEAK_OVER_END = PEAK_LR / LR_AT_END
BIG_PEAK_LR = schedules.noam_peak_lr(BIG.d_model)
BIG_OVER_BASE_PEAK = BIG_PEAK_LR / PEAK_LR

WARMUP_DEMO_GRADIENTS = (1e-6, 1e-3, 1.0)
"""Three parameters whose first gradients differ by a factor of a million."""
GRADIENT_SPREAD = WARMUP_DEMO_GRADIENTS[2] / WARMUP_DEMO_GRADIENTS[0]


def first_adam_step(lr: float, gradients=WARMUP_DEMO_GRADIENTS) -> np.ndarray:
    """|Δθ| of the first Adam step for each gradient in ``gradients``: about ``lr`` whatever the gradient's size."""
    return np.abs(adam.adam_updates(np.asarray([gradients], dtype=np.float64), lr)[0])


FIRST_STEP_AT_PEAK = first_adam_step(PEAK_LR)
"""|Δθ| of the first step if training started at the peak learning rate."""
FIRST_STEP_WITH_WARMUP = first_adam_step(schedules.noam_lr(1))

DROPOUT_SEED = 5
"""Seed of the dropout demonstration (any fixed seed; fixed so the page's numbers stay put)."""


@cache
def dropout_demo(p: float = BASE.dropout, shape: tuple[int, int] = (512, 512), seed: int = DROPOUT_SEED):
    """Dropout on an all-ones array: the share of zeros and the mean afterwards (expected p and 1). Read-only."""
    out = ops.dropout(np.ones(shape), p, seed)
    return MappingProxyType(
        {"zero_fraction": float(np.mean(out == 0.0)), "mean": float(out.mean()), "size": int(out.size)}
    )


def dropout_zero_fraction() -> float:
    """The share of zeros in :func:`dropout_demo` (expected P_drop)."""
    return dropout_demo()["zero_fraction"]


def dropout_mean() -> float:
    """The mean of :func:`dropout_demo` (expected 1: the kept entries are scaled by 1/(1 − P_drop))."""
    return dropout_demo()["mean"]


HANA = preset.WORD_ID["花"]
PRESET_TARGET = schedules.label_smoothing_target(HANA, preset.VOCAB_SIZE)
"""The smoothed target over the preset's 16 words when the answer is 花."""
BASE_TARGET_CORRECT, BASE_TARGET_OTHER = schedules.label_smoothing_target(0, BASE.vocab_size)[:2]
"""The smoothed target's probability on the answer and on each other token, over the base model's 37,000."""
TARGET_LOG_RATIO = float(np.log(PRESET_TARGET[HANA] / PRESET_TARGET[0]))
"""log(answer / other) of the smoothed target: the logit gap at which the loss is smallest."""
TARGET_ENTROPY = schedules.entropy(PRESET_TARGET)


LABELS = {
    "ADAM_PAPER_BETA2": "Adam の提案論文の β2 の既定値",
    "PEAK_OVER_FIRST": "ピークの学習率 ÷ 最初のステップの学習率",
    "LR_AT_END": "最後のステップの学習率",
    "PEAK_OVER_END": "ピークの学習率 ÷ 最後の学習率",
    "BIG_PEAK_LR": "big モデルの学習率のピーク",
    "BIG_OVER_BASE_PEAK": "big と base のピークの比",
    "GRADIENT_SPREAD": "3 つのパラメータの勾配の大きさの比",
    "WARMUP_DEMO_GRADIENTS": "3 つのパラメータの勾配",
    "FIRST_STEP_AT_PEAK": "ピークの学習率での Adam の最初の一歩",
    "FIRST_STEP_WITH_WARMUP": "step 1 の学習率での Adam の最初の一歩",
    "dropout_demo()": "ドロップアウトの例",
    "dropout_zero_fraction()": "ドロップアウトで 0 になった要素の割合",
    "dropout_mean()": "ドロップアウトをかけた後の全要素の平均",
    "PRESET_TARGET": "語彙 16 語でのラベル平滑化の目標",
    "HANA": "「花」の id",
    "BASE_TARGET_OTHER": "原論文の語彙で正解以外の 1 語の目標",
    "BASE_TARGET_CORRECT": "原論文の語彙での正解の目標",
    "TARGET_LOG_RATIO": "目標どおりの予測での正解と他の語のロジットの差",
    "TARGET_ENTROPY": "平滑化した目標のエントロピー (nat)",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
