import numpy as np

from transformer_figures import figure_html
from transformer_figures.notes_attention_figs import head_tables
from transformer_math import SENTENCES, preset_trace

words, trace = list(SENTENCES[0].words), preset_trace(1)  # 文1「これ は 美しい 花 です」

# (T, h, d_k) → (h, T, d_k): ヘッドごとに独立に scores = Q·Kᵀ / √d_k を計算する
Q, K = np.swapaxes(trace.Q, 0, 1), np.swapaxes(trace.K, 0, 1)
d_k = Q.shape[-1]
scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d_k)  # (h, T, d_k) @ (h, d_k, T) → (h, T, T)
assert np.allclose(scores, trace.scores)  # ブロック全体の順伝播と同じ値
h, i, j = np.unravel_index(np.argmax(scores), scores.shape)

print(
    figure_html(
        head_tables(scores, words, "scores", "{:+.2f}", "{:+.1f}", center=0.0),
        alt=f"文1 の scores を 2 つのヘッドについて 5×5 の色付きの表にした図。行がクエリ、列がキー。"
        f"最大はヘッド {h} の {words[i]}→{words[j]} で {scores[h, i, j]:+.2f}。",
    )
)
