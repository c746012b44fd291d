import numpy as np

from transformer_figures import figure_html
from transformer_figures.decoder_figs import scores_pair_figure
from transformer_math import additive_attention, cross_attention

# 2 つの点数の式は src/transformer_math/additive_attention.py のこの 2 つの関数:
r'''  # markdown-exec: hide
--8<-- "src/transformer_math/additive_attention.py:scores"
'''  # markdown-exec: hide  # fmt: skip

example = cross_attention.worked_example()  # 前のページの例
s, h = example.trace.X_dec, example.trace.memory  # クエリ側 (3, 16)、キー側 (5, 16)
rng = np.random.default_rng(11)
W_a, U_a = rng.standard_normal((16, 8)) / 4.0, rng.standard_normal((16, 8)) / 4.0  # 学習していない重み
v_a = rng.standard_normal(8) / np.sqrt(8)
hidden = np.tanh((s @ W_a)[:, None, :] + (h @ U_a)[None, :, :])  # (3, 5, 8): 組ごとに 8 次元のベクトル
e = hidden @ v_a  # (3, 5): 加法注意の点数
q, k = s @ example.weights.W_Q[:, :8], h @ example.weights.W_K[:, :8]  # 前のページのヘッド 0
scores = q @ k.T / np.sqrt(8)  # (3, 5): 内積注意の点数。行列の積 1 回
assert np.allclose(e, additive_attention.additive_scores(s, h, W_a, U_a, v_a), rtol=0, atol=1e-15)
assert np.allclose(scores, example.trace.scores[0], rtol=0, atol=1e-14)

print(
    figure_html(
        scores_pair_figure(
            {"加法注意 e = tanh(s W_a + h U_a) v_a": e, "内積注意 q·k / √d_k": scores}, example.target, example.source
        ),
        alt=f"同じクエリ 3 個とキー 5 個に対する 2 つの点数 (3 × 5)。加法注意は途中で {hidden.shape} の配列を作る。"
        f"内積注意は前のページのヘッド 0 の scores と同じ。",
    )
)
