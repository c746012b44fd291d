from transformer_figures import figure_html
from transformer_figures.decoder_figs import distributions_figure
from transformer_math import decoder_model, decoder_preset, ops

model = decoder_preset.decoder_preset()
z = decoder_model.forward(model, model.ids("<bos>")).logits[-1]  # (vocab,) <bos> の次の logit
rows = {f"τ = {tau}": ops.softmax(z / tau) for tau in (0.5, 1.0, 2.0)}  # softmax(z / τ)

print(
    figure_html(
        distributions_figure(rows, model.vocab, "<bos> の次の語の確率を温度 τ で変える"),
        alt="<bos> の次の語の確率を τ = 0.5, 1, 2 で比べたもの。私 は "
        + "、".join(f"{label} で {p[2]:.3f}" for label, p in rows.items())
        + "。τ が大きいほど平らになり、τ = 2 では 花 などの裾の語にも確率が出る。",
    )
)
