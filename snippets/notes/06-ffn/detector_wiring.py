import numpy as np

from transformer_figures.notes_ffn_figs import table_html
from transformer_math import build_preset, preset

W = build_preset()
rows = []
for k in range(preset.N_SINGLE_DETECTORS + len(preset.AND_DETECTOR_FEATURES)):  # 使われている h0…h15
    inputs = " + ".join(f"{W.W1[d, k]:.1f}·d{d} {preset.DIM_NAMES[d]}" for d in np.flatnonzero(W.W1[:, k]))
    outputs = " + ".join(f"{W.W2[k, d]:.1f}→d{d} {preset.DIM_NAMES[d]}" for d in np.flatnonzero(W.W2[k, :]))
    rows.append([preset.NEURON_NAMES[k], inputs, f"{W.b1[k]:+.1f}".replace("-", "−"), outputs])
unused = W.W1.shape[1] - len(rows)
assert not W.W1[:, len(rows) :].any() and not W.W2[len(rows) :].any() and not W.b1[len(rows) :].any()
print(
    table_html(
        ["ユニット", "入力 (W1 の列)", "b1", "書き戻し (W2 の行)"],
        rows,
        caption=f"残り {unused} ユニット (h{len(rows)}…h{W.W1.shape[1] - 1}) は W1・b1・W2 がすべて 0",
    )
)
