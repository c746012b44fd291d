"""The independent reference: the same block written with PyTorch (float64), compared with ours.

``transformer_math`` is numpy-only, so the reference lives here and imports torch lazily: the site can
quote the measured largest difference at build time, and the tests check it stays ≤ 1e-12.
The PyTorch side uses its own ops (``F.embedding``, ``F.layer_norm``, ``F.gelu(approximate="tanh")``,
``F.scaled_dot_product_attention``, ``torch.softmax``) and recomputes the positional encoding itself;
it shares nothing with transformer_math except the weights and the token ids.

A local preview (``scripts/serve.sh`` sets ``TRANSFORMER_PREVIEW=1``) may be built without torch: the appendix page
then says plainly that its measured table is missing. Every other build — the published site above all —
needs torch and fails without it (``require_torch_unless_preview``).
"""

from __future__ import annotations

import html
import importlib.util
import math
from dataclasses import fields
from functools import lru_cache

import numpy as np

from transformer_math import SENTENCES, BlockTrace, BlockWeights, forward, preset_weights

TOLERANCE = 1e-12
PREVIEW_ENV = "TRANSFORMER_PREVIEW"
INSTALL_HINT = "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"

TEXT = {
    "torch_missing": (
        "PyTorch (torch==2.13.0, CPU) が必要です: 付録の照合表はビルドのたびに実測します。"
        "公開用のビルドはこれを省略できません ({hint}、または bash scripts/test.sh が入れます)。"
        "手元のプレビューだけなら {variable}=1 で省略できます (bash scripts/serve.sh はそうします)"
    ),
    "preview_notice": (
        '<div class="admonition warning"><p class="admonition-title">このプレビューには照合の表がありません</p>'
        "<p>この環境には PyTorch が入っていないので、ここに載るはずの表 (8 文・中間結果ごとの numpy 版と "
        "PyTorch 版の最大差) を省略しました。公開されるサイトでは、ビルドのたびに実測した表が載ります。"
        "公開用のビルドは PyTorch なしでは止まるので、表のないページが公開されることはありません。</p>"
        "<p>プレビューでも表を見るには、<code>bash scripts/test.sh</code> を一度実行するか "
        "<code>.venv/bin/{hint}</code> で PyTorch の CPU 版を入れてから、もう一度 "
        "<code>bash scripts/serve.sh</code> を実行してください。</p></div>"
    ),
}
"""The words for authors and readers: why a full build needs PyTorch, and what a preview without it shows instead."""


class TorchMissingError(RuntimeError):
    """A build that is not a local preview needs the reference, and torch is not installed."""


def preview_build() -> bool:
    """Whether this build is a local preview (``TRANSFORMER_PREVIEW=1``), which may skip the cross-check."""
    from transformer_site import environment

    return bool(environment.value(PREVIEW_ENV))  # a bad value is an error naming the variable


def require_torch_unless_preview() -> bool:
    """True when torch is here; False in a local preview without it; otherwise ``TorchMissingError``."""
    if torch_available():
        return True
    if preview_build():
        return False
    raise TorchMissingError(TEXT["torch_missing"].format(hint=INSTALL_HINT, variable=PREVIEW_ENV))


def preview_notice() -> str:
    """What the appendix page shows in place of the measured table in a preview built without torch."""
    return TEXT["preview_notice"].format(hint=html.escape(INSTALL_HINT))


def torch_available() -> bool:
    """Whether the reference can run here (torch is an optional extra)."""
    try:
        return importlib.util.find_spec("torch") is not None
    except ValueError:  # sys.modules["torch"] is None: import deliberately blocked
        return False


def torch_forward(weights: BlockWeights, tokens: np.ndarray) -> dict[str, np.ndarray]:
    """Every intermediate of the Post-LN block, computed by PyTorch in float64, as numpy arrays."""
    import torch
    import torch.nn.functional as F

    def t(a: np.ndarray) -> torch.Tensor:
        return torch.tensor(np.asarray(a, dtype=np.float64))  # a copy: the preset's arrays are read-only

    W = {
        f.name: t(getattr(weights, f.name)) for f in fields(weights) if isinstance(getattr(weights, f.name), np.ndarray)
    }
    ids = torch.as_tensor(np.asarray(tokens, dtype=np.int64))
    T, d, h = ids.shape[0], weights.d_model, weights.n_heads
    d_k = weights.W_Q.shape[1] // h

    X_tok = F.embedding(ids, W["W_E"])
    position = torch.arange(T, dtype=torch.float64)[:, None]
    inv_freq = torch.pow(torch.tensor(10000.0, dtype=torch.float64), -torch.arange(0, d, 2, dtype=torch.float64) / d)
    X_pos = torch.stack([torch.sin(position * inv_freq), torch.cos(position * inv_freq)], dim=-1).reshape(T, d)
    X = X_tok + X_pos

    q = (X @ W["W_Q"]).view(T, h, d_k).transpose(0, 1)  # (h, T, d_k)
    k = (X @ W["W_K"]).view(T, h, d_k).transpose(0, 1)
    v = (X @ W["W_V"]).view(T, h, d_k).transpose(0, 1)
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)  # (h, T, T)
    attn = torch.softmax(scores, dim=-1)
    per_head = F.scaled_dot_product_attention(q, k, v)  # (h, T, d_k), scale 1/√d_k by default
    head_out = per_head.transpose(0, 1)  # (T, h, d_k)
    concat = head_out.reshape(T, h * d_k)
    Y = concat @ W["W_O"]

    residual1 = X + Y
    ln1_out = F.layer_norm(residual1, (d,), W["ln1_gamma"], W["ln1_beta"], weights.eps)
    ffn_pre = F.linear(ln1_out, W["W1"].T, W["b1"])
    ffn_h = F.gelu(ffn_pre, approximate="tanh")
    ffn_out = F.linear(ffn_h, W["W2"].T, W["b2"])
    residual2 = ln1_out + ffn_out
    ln2_out = F.layer_norm(residual2, (d,), W["ln2_gamma"], W["ln2_beta"], weights.eps)

    out = {
        "tokens": ids, "X_tok": X_tok, "X_pos": X_pos, "X": X,
        "Q": q.transpose(0, 1), "K": k.transpose(0, 1), "V": v.transpose(0, 1),
        "scores": scores, "attn": attn, "head_out": head_out, "concat": concat, "Y": Y,
        "residual1": residual1, "ln1_out": ln1_out, "ffn_pre": ffn_pre, "ffn_h": ffn_h, "ffn_out": ffn_out,
        "residual2": residual2, "ln2_out": ln2_out,
    }  # fmt: skip
    return {name: value.detach().numpy() for name, value in out.items()}


def differences(trace: BlockTrace, reference: dict[str, np.ndarray]) -> dict[str, float]:
    """Max |ours − reference| for every field of the trace (a missing or misshaped one raises)."""
    result = {}
    for f in fields(trace):
        ours, theirs = getattr(trace, f.name), reference[f.name]
        if ours.shape != theirs.shape:
            raise ValueError(f"{f.name}: our shape {ours.shape} differs from the reference's {theirs.shape}")
        result[f.name] = float(np.max(np.abs(ours.astype(np.float64) - theirs.astype(np.float64))))
    return result


@lru_cache(maxsize=1)
def _preset_differences() -> tuple[tuple[int, tuple[tuple[str, float], ...]], ...]:
    weights = preset_weights()
    return tuple(
        (s.number, tuple(differences(forward(weights, s.token_ids), torch_forward(weights, s.token_ids)).items()))
        for s in SENTENCES
    )


def preset_differences() -> dict[int, dict[str, float]]:
    """For sentences 1 … 8: max abs difference per intermediate between our trace and PyTorch's."""
    return {number: dict(per_name) for number, per_name in _preset_differences()}


def max_by_intermediate() -> dict[str, float]:
    """For each intermediate (in the order of the trace), the largest difference over the eight sentences."""
    per_sentence = preset_differences().values()
    return {f.name: max(d[f.name] for d in per_sentence) for f in fields(BlockTrace)}


def largest_difference() -> float:
    """The largest difference over all eight sentences and every intermediate."""
    return max(max_by_intermediate().values())
