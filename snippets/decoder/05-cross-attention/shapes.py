from transformer_figures import table_html
from transformer_math import cross_attention, decoder_model, decoder_preset, preset

memory = preset.preset_trace(1).ln2_out  # (m, d_model): エンコーダのプリセットが 文1 を読んだ出力
model = decoder_preset.decoder_preset()
X_dec = decoder_model.forward(model, model.ids("<bos> これ は")).blocks[0].ln1_out  # (n, d_model)
W = cross_attention.random_weights(model.d_model, model.n_heads, seed=7)  # 学習していない重み
trace = cross_attention.cross_attention(X_dec, memory, W)  # Q は X_dec から、K と V は memory から
assert (trace.attn == cross_attention.worked_example().trace.attn).all()  # 下の図と同じ計算
rows = [
    ["X_dec (デコーダ側)", "n × d_model", str(trace.X_dec.shape)],
    ["memory (エンコーダの出力)", "m × d_model", str(trace.memory.shape)],
    ["Q = X_dec W_Q", "n × h × d_k", str(trace.Q.shape)],
    ["K = memory W_K", "m × h × d_k", str(trace.K.shape)],
    ["V = memory W_V", "m × h × d_k", str(trace.V.shape)],
    ["scores, attn", "h × n × m", str(trace.attn.shape)],
    ["Y = Concat(attn V) W_O", "n × d_model", str(trace.Y.shape)],
]

print(table_html(["配列", "記号で", "この例で"], rows))
