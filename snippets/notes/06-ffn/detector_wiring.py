import numpy as np

from transformer_figures import table_html
from transformer_math import preset, preset_weights

W = preset_weights()
used = preset.N_SINGLE_DETECTORS + len(preset.AND_DETECTOR_FEATURES)  # 使われている h0…h15
rows = []
for k in range(used):
    inputs = " + ".join(f"{W.W1[d, k]:.1f}·d{d} {preset.DIM_NAMES[d]}" for d in np.flatnonzero(W.W1[:, k]))  # W1 の列 k
    outputs = " + ".join(
        f"{W.W2[k, d]:.1f}→d{d} {preset.DIM_NAMES[d]}" for d in np.flatnonzero(W.W2[k, :])
    )  # W2 の行 k
    rows.append([preset.NEURON_NAMES[k], inputs, f"{W.b1[k]:+.1f}".replace("-", "−"), outputs])
assert not W.W1[:, used:].any() and not W.W2[used:].any() and not W.b1[used:].any()  # 残りは配線なし
caption = f"残り {W.W1.shape[1] - used} ユニット (h{used}…h{W.W1.shape[1] - 1}) は W1・b1・W2 がすべて 0"

print(table_html(["ユニット", "入力 (W1 の列)", "b1", "書き戻し (W2 の行)"], rows, caption=caption))
