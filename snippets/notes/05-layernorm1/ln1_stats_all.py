from transformer_figures import figure_html
from transformer_figures.notes_ffn_figs import ln_stats_figure
from transformer_math import SENTENCES, layernorm, preset_trace

# 8 文それぞれ: residual1 → ln1_out のトークンごとの μ_t と σ_t
stats = [layernorm.ln1_stats(preset_trace(s.number)) for s in SENTENCES]
lo, hi = layernorm.stat_range(stats, "mean_in")

print(
    figure_html(
        ln_stats_figure(stats),
        alt=f"8 文 × 5 トークンすべての μ_t と σ_t を LayerNorm 1 の前後で比べた散布図。前の μ は {lo:.2f}〜{hi:.2f}、"
        "後は μ = 0、σ はほぼ 1 にそろう。",
    )
)
