from transformer_figures import table_html
from transformer_math import preset
from transformer_pages.notes import ffn

rows = []
for k in range(preset.N_SINGLE_DETECTORS + len(preset.AND_DETECTOR_FEATURES)):
    fired = ffn.firing_count(k)  # 8 文 × 5 トークン = 40 か所のうち何か所で発火したか
    if fired == 0:
        rows.append([preset.NEURON_NAMES[k], "0", "–", "–", "–"])
        continue
    share = f"{ffn.unit_mean_pos_share(k):+.2f}".replace("-", "−")  # W_P の取り分 pos / (|tok| + |pos|) の平均
    rows.append(
        [preset.NEURON_NAMES[k], str(fired), str(ffn.needs_position_count(k)), str(ffn.position_driven_count(k)), share]
    )

print(table_html(["検出器", "発火数", "W_P なしでは発火しない", "うち「位置」判定", "W_P の取り分 (平均)"], rows))
