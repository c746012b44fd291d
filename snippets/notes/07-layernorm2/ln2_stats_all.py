from transformer_figures import show
from transformer_figures.notes_ffn_figs import ln_stats_figure
from transformer_math import analysis_ffn

lo, hi = analysis_ffn.stat_range("ln2", "mean_in")
show(
    ln_stats_figure("ln2"),
    alt=f"8 文 × 5 トークンの μ_t と σ_t を LayerNorm 2 の前後で比べた散布図。"
    f"前の μ は {lo:.2f}〜{hi:.2f} と 0 に近い。",
)
