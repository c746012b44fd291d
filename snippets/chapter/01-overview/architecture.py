from transformer_figures import figure_html
from transformer_figures.chapter_figs import architecture_figure, architecture_phone_figure
from transformer_math.configs import TRANSFORMER_BASE as cfg  # 原論文 base モデルの設定

d_k = cfg.d_model // cfg.n_heads  # 1 ヘッドの幅: 512 / 8 = 64
assert d_k == cfg.d_k == cfg.d_v and cfg.d_ff == 4 * cfg.d_model  # 図に書く大きさは設定どうしで辻褄が合う

print(
    figure_html(
        architecture_figure(cfg),
        alt=f"Transformer の全体図。エンコーダ（Self-Attention と FFN を {cfg.n_layers} 層）と"
        f"デコーダ（Masked Self-Attention、Source-Target Attention、FFN を {cfg.n_layers} 層）。"
        "エンコーダの出力がデコーダの各層の Source-Target Attention に K と V として入り、最後に線形層と softmax。",
        phone=architecture_phone_figure(cfg),  # on a phone: the two stacks one above the other
    )
)
