import numpy as np

from transformer_figures import figure_tabs
from transformer_figures.notes_ffn_figs import ffn_h_figure
from transformer_math import SENTENCES, ops, preset, preset_trace, preset_weights

W = preset_weights()
panels, alts = {}, {}
for s in SENTENCES:
    ln1_out = preset_trace(s.number).ln1_out  # (T, d_model)
    ffn_pre = ln1_out @ W.W1 + W.b1  # (T, d_model) @ (d_model, d_ff) → (T, d_ff) = (5, 32)
    ffn_h = ops.gelu(ffn_pre)  # 要素ごと
    assert np.allclose(ffn_h, preset_trace(s.number).ffn_h)
    n_fire = int((ffn_h > preset.FIRING_THRESHOLD).sum())
    panels[f"文{s.number}"] = (ffn_h, s.words)
    alts[f"文{s.number}"] = (
        f"文{s.number}「{s.text}」の ffn_h を、トークン 5 行 × 検出器 h0〜h15 の 16 列で示したヒートマップ。"
        f"0.5 を超えたマス ({n_fire} 個) を枠で囲む。"
    )

print(figure_tabs(ffn_h_figure, panels, alts, name="notes06-ffn-h"))
