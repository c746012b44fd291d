from transformer_figures import figure_html
from transformer_figures.notes_ffn_figs import ln_stats_figure
from transformer_math import SENTENCES, layernorm, preset_trace

# 8 文それぞれ: residual2 → ln2_out のトークンごとの μ_t と σ_t
stats = [layernorm.ln2_stats(preset_trace(s.number)) for s in SENTENCES]
lo, hi = layernorm.stat_range(stats, "mean_in")

print(
    figure_html(
        ln_stats_figure(stats),
        alt=f"8 文 × 5 トークンの μ_t と σ_t を LayerNorm 2 の前後で比べた散布図。"
        f"前の μ は {lo:.2f}〜{hi:.2f} と 0 に近い。",
    )
)
