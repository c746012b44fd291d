import numpy as np

from transformer_figures import figure_html
from transformer_figures.decoder_figs import multiplies_figure
from transformer_math import configs, decoder_preset, generation

panels = {}
for title, sizes, longest in (
    ("このデコーダ", generation.Sizes.of(decoder_preset.decoder_preset()), 12),
    ("GPT-2 small の大きさ", generation.Sizes.of(configs.GPT2_SMALL), 1024),
):
    lengths = np.unique(np.geomspace(1, longest, 24).astype(int))
    # 1 ブロック: Q, K, V の射影 3·n·d·d、scores と重み付き和 2·h·n·L·d_k、W_O n·d·d、FFN 2·n·d·d_ff
    # (n は計算する行の数: キャッシュありなら 1、なしなら L)。出力層は n·d·語彙
    cached = np.array([generation.step_multiplies(sizes, int(L), cache=True) for L in lengths])
    recomputed = np.array([generation.step_multiplies(sizes, int(L), cache=False) for L in lengths])
    assert np.array_equal(recomputed, lengths * cached)  # 行ごとの計算は同じなので、ちょうど L 倍
    panels[title] = (lengths, cached, recomputed)

print(
    figure_html(
        multiplies_figure(panels, "それまでの長さ L (トークン数)"),
        alt="生成の 1 ステップの積和を、それまでの長さ L に対して描いた両対数のグラフ 2 枚。"
        "どちらのモデルでも、キャッシュなしはキャッシュありのちょうど L 倍で、L が 2 倍になるごとに差が 2 倍に開く。",
    )
)
