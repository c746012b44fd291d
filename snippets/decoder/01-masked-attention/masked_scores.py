import numpy as np

from transformer_figures import figure_html
from transformer_figures.decoder_figs import masked_attention_figure
from transformer_math import decoder_preset, ops

trace = decoder_preset.decoder_trace(1)  # <bos> これ は 美しい 花 です を読む
model = decoder_preset.decoder_preset()
block, a = trace.blocks[0], 1  # ブロック 1、ヘッド a = 1
q, k = block.Q[:, a, :], block.K[:, a, :]  # (T, d_k)
scores = q @ k.T / np.sqrt(model.d_k)  # (T, T)
T = len(trace.tokens)
M = np.where(np.arange(T)[None, :] > np.arange(T)[:, None], -np.inf, 0.0)  # j > i の所だけ −∞
attn = ops.softmax(scores + M)  # 行ごとの softmax: e^(−∞) = 0
assert np.allclose(attn, block.attn[a], rtol=0, atol=1e-15)

print(
    figure_html(
        masked_attention_figure(scores, attn, model.words(trace.tokens), "ブロック 1・ヘッド 1"),
        alt=f"文1 をデコーダが読むときのブロック 1・ヘッド 1 の scores と attn。"
        f"対角より上の {int(np.isinf(M).sum())} 個の要素は −∞ になり、attn では 0。"
        f"行 0 の <bos> は自分だけに重み 1、行 3 の 美しい は これ に {attn[3, 1]:.3f}。",
    )
)
