import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import row_terms_figure
from transformer_figures.notes_attention_figs import DIM_LABELS
from transformer_math import backward as bw
from transformer_math import preset_weights
from transformer_math.preset import VOCAB, WORD_ID

W = preset_weights()
g = bw.preset_gradients(1, 3)  # 文1、花 (p = 3) を隠した例
p, d_z = 3, g.d_logits  # ∂L/∂z, (vocab,)

d_ln2_out_p = d_z @ W.W_E  # (d_model,) ∂L/∂ln2_out[p] = Σ_v ∂L/∂z_v · W_E[v]
assert np.allclose(d_ln2_out_p, g.d_ln2_out[p]) and not g.d_ln2_out[[0, 1, 2, 4]].any()  # ほかの行は 0
d_W_E_output = np.outer(d_z, g.loss.trace.ln2_out[p])  # (vocab, d_model) 出力側から W_E への勾配
assert np.allclose(d_W_E_output, g.d_W_E_output)

# 和を語ごとに分ける: 正解 花 の項、いちばん賭けた です の項、残り 14 語の項
hana, desu = WORD_ID["花"], WORD_ID["です"]
others = [v for v in range(len(VOCAB)) if v not in (hana, desu)]
parts = {
    "∂L/∂z_花 · W_E[花]": d_z[hana] * W.W_E[hana],
    "∂L/∂z_です · W_E[です]": d_z[desu] * W.W_E[desu],
    "残り 14 語の項": d_z[others] @ W.W_E[others],
    "∂L/∂ln2_out[3]": d_ln2_out_p,
}
print(
    figure_html(
        row_terms_figure(parts, DIM_LABELS, "∂L/∂ln2_out[3] を語ごとの項に分ける (いちばん下が和)"),
        alt="∂L/∂ln2_out[3] と、それを作る語ごとの項。"
        f"「花」の項は d0 (名詞) で {parts['∂L/∂z_花 · W_E[花]'][0]:+.2f}、"
        f"「です」の項は d7 (「です」の次元) で {parts['∂L/∂z_です · W_E[です]'][7]:+.2f}。",
    )
)
