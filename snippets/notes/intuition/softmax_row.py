import numpy as np

from transformer_figures import figure_html
from transformer_figures.intuition_figs import softmax_figure
from transformer_math import SENTENCES, preset_trace

trace = preset_trace(1)  # 文1「これ は 美しい 花 です」
words = list(SENTENCES[0].words)
scores = trace.scores[0, 2]  # (T,) ヘッド 0、クエリ「美しい」の行

numerators = np.exp(scores)  # ① → ②: 指数をとると、どれも正になり、差が比になる
weights = numerators / numerators.sum()  # ② → ③: 和で割ると、和が 1 の重みになる
assert np.allclose(weights, trace.attn[0, 2])

print(
    figure_html(
        softmax_figure(scores, numerators, weights, words),
        alt="クエリ「美しい」の行で、scores を softmax で重みに変える 3 段階の棒グラフ。"
        f"① scores は「花」が {scores[3]:+.2f} で最大、「です」は {scores[4]:+.2f} と負。"
        f"② exp をとるとすべて正になり、「花」が {numerators[3]:.1f}。"
        f"③ 和で割ると「花」の重みが {weights[3]:.2f}、ほかは小さい。",
    )
)
