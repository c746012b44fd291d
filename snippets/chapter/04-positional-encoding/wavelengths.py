from transformer_figures import show
from transformer_figures.chapter_figs import wavelength_figure
from transformer_math import ops
from transformer_math.configs import TRANSFORMER_BASE as cfg

lam = ops.pe_wavelengths(cfg.d_model)  # 2π / ω_i、i = 0 … d_model/2 − 1
show(
    wavelength_figure(cfg.d_model),
    alt=f"位置エンコーディングの波長を次元の組 i に対して対数目盛りで描いた直線。i = 0 で {lam[0]:.3f}、"
    f"最後の i = {len(lam) - 1} で {lam[-1]:,.0f}。破線は 2π と 2π·10000。",
)
