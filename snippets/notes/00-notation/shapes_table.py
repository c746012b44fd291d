from transformer_figures.notes_attention_figs import table_html
from transformer_math import preset_trace

trace = preset_trace(1)  # 文1「これ は 美しい 花 です」

# ブロックの各段の配列と、その shape。行ベクトル並び: 1 行 = 1 トークン
stages = [
    ("tokens", "token id の列"),
    ("X", "埋め込み W_E[tokens] + 位置 W_P"),
    ("Q", "クエリ (トークン, ヘッド, k)"),
    ("K", "キー"),
    ("V", "バリュー"),
    ("scores", "Q·Kᵀ / √d_k (ヘッド, クエリ i, キー j)"),
    ("attn", "scores の各行に softmax"),
    ("concat", "ヘッドの出力を横に連結"),
    ("Y", "concat · W_O"),
    ("ln1_out", "LayerNorm(X + Y)"),
    ("ffn_h", "GELU(ln1_out · W1 + b1)"),
    ("ln2_out", "ブロックの出力"),
]
rows = [[name, " × ".join(str(n) for n in getattr(trace, name).shape), meaning] for name, meaning in stages]
print(table_html(["配列", "shape", "中身"], rows))
