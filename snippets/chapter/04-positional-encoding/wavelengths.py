import numpy as np

from transformer_figures import figure_html
from transformer_figures.chapter_figs import wavelength_figure
from transformer_math import ops
from transformer_math.configs import TRANSFORMER_BASE as cfg

i = np.arange(cfg.d_model // 2)  # 組の番号 i = 0 … 255
omega = ops.PE_BASE ** (-2 * i / cfg.d_model)  # ω_i = 10000^(−2i/d_model)
lam = 2 * np.pi / omega  # 波長: 2π から 2π·10000 まで等比で伸びる
assert np.allclose(lam, ops.pe_wavelengths(cfg.d_model))

print(
    figure_html(
        wavelength_figure(lam, cfg.d_model),
        alt=f"位置エンコーディングの波長を次元の組 i に対して対数目盛りで描いた直線。i = 0 で {lam[0]:.3f}、"
        f"最後の i = {len(lam) - 1} で {lam[-1]:,.0f}。破線は 2π と 2π·10000。",
    )
)
