from transformer_figures import show
from transformer_figures.chapter_figs import architecture_figure
from transformer_math.configs import TRANSFORMER_BASE as cfg  # 原論文 base モデルの設定

show(
    architecture_figure(cfg),
    alt=f"Transformer の全体図。左がエンコーダ（Self-Attention と FFN を {cfg.n_layers} 層）、"
    f"右がデコーダ（Masked Self-Attention、Source-Target Attention、FFN を {cfg.n_layers} 層）。"
    "エンコーダの出力がデコーダの各層の Source-Target Attention に K と V として入り、最後に線形層と softmax。",
)
