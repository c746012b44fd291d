"""docs/chapter/04-positional-encoding.md, 確認問題: the values its questions give and the answers src computes."""

from __future__ import annotations

import math

from transformer_math import counting, ops
from transformer_math.configs import BERT_LARGE

from .. import which
from .positional_encoding import D_MODEL, WAVELENGTHS

WAVELENGTH_PAIR = 128
"""The wavelength question: pair i = 128 of d_model = 512 (columns 256 and 257)."""


def wavelength() -> float:
    return float(WAVELENGTHS[WAVELENGTH_PAIR])


SLIP_PAIR = 64
"""The exponent-slip question: pair i = 64 (columns 128 and 129)."""


def slip_wavelength(pair: int = SLIP_PAIR, d_model: int = D_MODEL) -> str:
    """The option that gives pair ``pair``'s wavelength as src computes it (``ops.pe_wavelengths``), against the
    exponent slips: the column 2i put in for i (exponent doubled), and the 2 forgotten (exponent halved)."""
    column = 2 * pair
    return which(
        {
            "right": 2 * math.pi * ops.PE_BASE ** (2 * pair / d_model),
            "doubled": 2 * math.pi * ops.PE_BASE ** (2 * column / d_model),
            "halved": 2 * math.pi * ops.PE_BASE ** (pair / d_model),
            "base": 2 * math.pi * ops.PE_BASE,
        },
        float(ops.pe_wavelengths(d_model)[pair]),
    )


def bert_large_positions() -> int:
    """Learned position embeddings of BERT-large: 512 positions × H = 1024."""
    return counting.learned_position_params(BERT_LARGE.max_position_embeddings, BERT_LARGE.hidden_size)


LABELS = {
    "WAVELENGTH_PAIR": "波長の問題の組の番号 i",
    "wavelength()": "d_model = 512 の組 i = 128 の波長",
    "SLIP_PAIR": "指数の取り違えの問題の組の番号 i",
    "bert_large_positions()": "BERT-large の学習する位置埋め込みのパラメータ数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
