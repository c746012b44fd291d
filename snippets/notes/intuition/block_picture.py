from transformer_figures import figure_html
from transformer_figures.intuition_figs import block_figure
from transformer_math import SENTENCES, ops, preset_trace

trace = preset_trace(1)  # 文1「これ は 美しい 花 です」
words = list(SENTENCES[0].words)

# ブロックの各段を通った後の (T, d_model) = (5, 16) の配列
ln1_out = ops.layer_norm(trace.X + trace.Y)  # 残差 + LayerNorm 1
ln2_out = ops.layer_norm(ln1_out + trace.ffn_out)  # 残差 + LayerNorm 2
assert abs(ln1_out - trace.ln1_out).max() < 1e-12 and abs(ln2_out - trace.ln2_out).max() < 1e-12

stages = [("X", trace.X), ("Y", trace.Y), ("ln1_out", ln1_out), ("ffn_out", trace.ffn_out), ("ln2_out", ln2_out)]
print(
    figure_html(
        block_figure(stages, words),
        alt="文1 の 5 語が 1 ブロックを通る様子を、上から下へ 5 枚の色の帯 (5 行 × 16 次元) で描いた図。"
        "X、注意の出力 Y、X + Y を正規化したもの、FFN の出力、それを足して正規化した出力の順。"
        "正の値は赤、負の値は青、0 は白。",
    )
)
