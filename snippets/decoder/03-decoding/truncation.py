from transformer_figures import figure_html
from transformer_figures.decoder_figs import distributions_figure
from transformer_math import decoder_model, decoder_preset, generation, ops

model = decoder_preset.decoder_preset()
p = ops.softmax(decoder_model.forward(model, model.ids("<bos>")).logits[-1])  # τ = 1
rows = {"そのまま": p}
for k in (1, 2, 3):
    rows[f"top-k, k = {k}"] = generation.top_k_filter(p, k)  # 上位 k 語だけ残して正規化
for top_p in (0.5, 0.7, 0.9):
    rows[f"top-p, p = {top_p}"] = generation.top_p_filter(p, top_p)  # 上位から足して p に届くまで残す

print(
    figure_html(
        distributions_figure(rows, model.vocab, "<bos> の次の語: 残す語を絞ってから正規化"),
        alt="<bos> の次の語の確率と、top-k (k = 1, 2, 3) と top-p (p = 0.5, 0.7, 0.9) で絞ったあとの確率。"
        + "、".join(f"{label} は {int((q > 0).sum())} 語" for label, q in rows.items() if label != "そのまま"),
    )
)
