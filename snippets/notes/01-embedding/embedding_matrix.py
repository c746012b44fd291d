from transformer_figures import figure_html
from transformer_figures.notes_attention_figs import embedding_figure
from transformer_math import preset

# W_E は規則から組み立てる (下は src/transformer_math/preset.py のその関数):
r'''  # markdown-exec: hide
--8<-- "src/transformer_math/preset.py:build_embedding"
'''  # markdown-exec: hide  # fmt: skip

W_E = preset.build_embedding()  # (vocabSize, d_model) = (16, 16)
row = W_E[preset.WORD_ID["花"]]
assert row[0] == 3.0 and row[8] == 1.0 and row[12 + 4 % 4] == 0.3  # 名詞, 美しさ, 識別0

print(
    figure_html(
        embedding_figure(W_E),
        alt="W_E のヒートマップ。16 単語 × 16 次元。各行は品詞カテゴリの次元 (d0〜d7) に 3.0、"
        "意味の特徴 (d8 美しさ〜d11 人気度) に 1.0、識別の痕跡 (d12〜d15) に 0.3 を持ち、ほかは 0。",
    )
)
