from transformer_figures import figure_html
from transformer_figures.intuition_figs import lookup_figure
from transformer_math import SENTENCES, preset_trace

trace = preset_trace(1)  # 文1「これ は 美しい 花 です」
words = list(SENTENCES[0].words)
head, i = 0, 2  # ヘッド 0、クエリ「美しい」(位置 2)

weights = trace.attn[head, i]  # (T,) どのキーをどれだけ見るか (和は 1)
V = trace.V[:, head]  # (T, d_k) 各キーが渡すバリュー
out = weights @ V  # (d_k,) バリューの重み付き平均
assert abs(weights.sum() - 1) < 1e-12 and abs(out - trace.head_out[i, head]).max() < 1e-12

print(
    figure_html(
        lookup_figure(V, weights, out, words, chosen=int(weights.argmax())),
        alt="文1 のヘッド 0 で、クエリ「美しい」が 5 つのキーに置く重みの表と、"
        "各キーのバリュー (列) とその重み付き平均 (出力の列) の表。"
        f"「花」の重みが {weights[3]:.2f} と大きく、出力は「花」のバリューに近い。",
    )
)
