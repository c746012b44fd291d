from transformer_figures import show
from transformer_figures.notes_ffn_figs import block_flow_figure

show(
    block_flow_figure(),
    alt="1 ブロックの計算の流れ。tokens (5) → X (5, 16) → Q, K, V (5, 2, 8) → scores と attn (2, 5, 5) → Y (5, 16) → "
    "ln1_out (5, 16) → ffn_h (5, 32) → ffn_out (5, 16) → ln2_out (5, 16)。"
    "X と ln1_out から残差の矢印が LayerNorm へ伸びる。",
)
