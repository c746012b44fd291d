"""docs/chapter/07-training.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

from transformer_math import preset, schedules
from transformer_math.configs import TRANSFORMER_BIG as BIG

from .. import which
from .training import FIRST_STEP_AT_PEAK, PEAK_LR, WARMUP_DEMO_GRADIENTS

LR_STEP = 8000
"""The schedule question: the learning rate at step 8000 (after the warm-up of 4000)."""
LR_UNIT = 1e-4
"""…given in units of 10⁻⁴."""


def lr_in_units() -> float:
    return float(schedules.noam_lr(LR_STEP)) / LR_UNIT


def smoothed_other() -> float:
    """The target of one wrong word with ε_ls = 0.1 over the preset's 16 words: ε/K."""
    return float(schedules.label_smoothing_target(0, preset.VOCAB_SIZE)[1])


def big_dropout_scale() -> float:
    """What the kept entries are multiplied by at P_drop = 0.3 (big model): 1 / (1 − P)."""
    return 1.0 / (1.0 - BIG.dropout)


def first_step_size() -> str:
    """Adam's first step for a gradient of 10⁻³ (ε negligible): η itself, whatever the gradient's size."""
    g = WARMUP_DEMO_GRADIENTS[1]
    step = float(FIRST_STEP_AT_PEAK[1])
    return which({"eta": PEAK_LR, "eta_g": PEAK_LR * g, "eta_g2": PEAK_LR * g * g}, step, rel_tol=1e-3)


LABELS = {
    "LR_STEP": "学習率の問題のステップ",
    "LR_UNIT": "学習率を測る単位 10⁻⁴",
    "lr_in_units()": "step 8000 の学習率 (10⁻⁴ 単位)",
    "smoothed_other()": "ラベル平滑化での正解でない 1 語の目標 (16 語)",
    "big_dropout_scale()": "big モデルのドロップアウトで残った要素に掛ける倍率",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
