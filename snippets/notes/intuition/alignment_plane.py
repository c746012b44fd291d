import numpy as np

from transformer_figures import figure_html
from transformer_figures.intuition_figs import plane_figure
from transformer_math import SENTENCES, preset_trace

trace = preset_trace(1)  # 文1「これ は 美しい 花 です」
words = list(SENTENCES[0].words)
head, plane = 0, [0, 1]  # ヘッド 0 のクエリとキーは列 k = 0, 1 にしか値がない
assert (trace.Q[:, head, 2:] == 0).all() and (trace.K[:, head, 2:] == 0).all()  # 平面に描いても何も落ちない

Q, K = trace.Q[:, head][:, plane], trace.K[:, head][:, plane]  # (T, 2) ずつ
scores = Q @ K.T / np.sqrt(trace.Q.shape[-1])  # (T, T) = 内積 / √d_k
assert np.allclose(scores, trace.scores[head])

queries = {2: Q[2], 3: Q[3]}  # 「美しい」と「花」のクエリ
print(
    figure_html(
        plane_figure(queries, K, {i: scores[i] for i in queries}, words),
        alt="ヘッド 0 のクエリとキーを、値のある 2 つの列 k = 0, 1 の平面に矢印で描いた 2 枚の図。"
        "キーはすべて斜め 45 度の線の上にあり、「花」のキーがいちばん長い。"
        f"左: クエリ「美しい」はキーの向きに近く、「花」への score は {scores[2, 3]:+.2f}。"
        f"右: クエリ「花」はキーの向きとほぼ直角で、score はどれも小さい (最大 {abs(scores[3]).max():.2f})。",
    )
)
