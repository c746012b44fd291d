from transformer_figures import figure_html
from transformer_figures.scale_figs import parameter_shares
from transformer_math import configs, counting

models = [counting.bert_params(cfg) for cfg in configs.BERT_MODELS]
models += [counting.gpt_params(cfg) for cfg in configs.GPT_MODELS]
shares = [m["embeddings"] / m.total for m in models]  # 埋め込み (語・位置・セグメント) の割合

print(
    figure_html(
        parameter_shares(models),
        alt="BERT と GPT 系のパラメータを埋め込みと Transformer 層に分けた割合の横棒グラフ。"
        f"埋め込みの割合は {models[0].name} で {shares[0]:.0%}、{models[-1].name} で {shares[-1]:.1%}。",
    )
)
