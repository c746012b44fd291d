import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import vocab_vectors_figure
from transformer_math import backward as bw
from transformer_math import preset

g = bw.preset_gradients(1, 3)  # 文1 で「花」を隠した例の順伝播と逆伝播
probs, target = g.loss.probs, g.loss.target  # (vocab,), 花 の id

d_z = probs - np.eye(len(probs))[target]  # ∂L/∂z = softmax(z) − onehot(正解)
assert np.allclose(d_z, g.d_logits)  # backward.cross_entropy_backward と同じ

print(
    figure_html(
        vocab_vectors_figure({"softmax(z)": probs, "∂L/∂z": d_z}, target, signed=("∂L/∂z",)),
        alt=f"softmax(z) と ∂L/∂z = softmax(z) − onehot。正解の「花」の成分は {d_z[target]:.5f}、"
        f"ほかはすべて正で最大は {preset.VOCAB[int(np.argmax(d_z))]} の {d_z.max():.3f}。和は 0。",
    )
)
