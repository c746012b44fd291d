from transformer_figures import show
from transformer_figures.notes_ffn_figs import ln_stats_figure
from transformer_math import analysis_ffn

lo, hi = analysis_ffn.stat_range("ln1", "mean_in")
show(
    ln_stats_figure("ln1"),
    alt=f"8 文 × 5 トークンすべての μ_t と σ_t を LayerNorm 1 の前後で比べた散布図。前の μ は {lo:.2f}〜{hi:.2f}、"
    "後は μ = 0、σ はほぼ 1 にそろう。",
)
