import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import vocab_vectors_figure
from transformer_math import backward as bw
from transformer_math import ops, preset, preset_weights
from transformer_math.block import forward_from_embeddings

W = preset_weights()
tokens = preset.sentence(1).token_ids  # (T,) これ は 美しい 花 です
p = 3  # 花 を隠す

X_tok = W.W_E[tokens].copy()  # (T, d_model)
X_tok[p] = 0.0  # 隠した語の埋め込みだけを 0 に。位置 W_P[p] は残る
X_pos = ops.positional_encoding(len(tokens), W.d_model)  # (T, d_model)
trace = forward_from_embeddings(W, tokens, X_tok, X_pos)  # §1〜§8 と同じブロック

z = W.W_E @ trace.ln2_out[p]  # (vocab,) 出力層は W_E そのもの: z_v = ln2_out[p]·W_E[v]
probs = ops.softmax(z)  # (vocab,) 16 語への賭け
L = -np.log(probs[tokens[p]])  # 交差エントロピー: 正解の確率の −log
assert abs(L - bw.masked_word_loss(W, tokens, p).loss) < 1e-12  # backward.py と同じ値

print(
    figure_html(
        vocab_vectors_figure({"z": z, "softmax(z)": probs}, int(tokens[p]), signed=("z",)),
        alt=f"文1 で「花」を隠したときの 16 語の logit z と確率 softmax(z)。正解の「花」の列を枠で囲む。"
        f"「花」の確率は {probs[tokens[p]]:.5f}、最大は {preset.VOCAB[int(np.argmax(probs))]} の {probs.max():.3f}。",
    )
)
