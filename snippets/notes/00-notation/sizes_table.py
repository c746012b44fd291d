from transformer_figures import table_html
from transformer_math import preset, preset_trace, preset_weights

weights = preset_weights()  # 手で作った preset の全重み
trace = preset_trace(1)  # 文1 の順伝播 (中間値をすべて保持)

# 寸法は重みと入力の shape から読み取る: 書き写した定数ではない
T, d_model = trace.X.shape
h = weights.n_heads
d_k = weights.W_Q.shape[1] // h  # = d_model / h
d_ff = weights.W1.shape[1]
vocab_size = weights.W_E.shape[0]
assert (T, d_model, h, d_k, d_ff, vocab_size) == (
    preset.T,
    preset.D_MODEL,
    preset.N_HEADS,
    preset.D_K,
    preset.D_FF,
    preset.VOCAB_SIZE,
)
rows = [
    ["T", str(T), "入力トークン数 (固定長)", "X の行の数"],
    ["d_model", str(d_model), "埋め込み次元 (1 トークンのベクトルの長さ)", "W_E の列の数"],
    ["h", str(h), "注意機構のヘッドの数", "重みに記録したヘッドの数"],
    ["d_k", str(d_k), "1 ヘッドあたりの Q/K/V の幅 = d_model / h", "W_Q の列の数 ÷ h"],
    ["d_ff", str(d_ff), "FFN の中間層の次元", "W1 の列の数"],
    ["vocabSize", str(vocab_size), "語彙の大きさ", "W_E の行の数"],
    ["ε", f"{weights.eps:.0e}".replace("e-0", "e-"), "LayerNorm の分母に足す小さな数", "重みに記録した ε"],
]

print(table_html(["記号", "値", "意味", "どこから読むか"], rows))
