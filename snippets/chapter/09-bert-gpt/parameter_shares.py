from transformer_figures import show
from transformer_figures.scale_figs import parameter_shares
from transformer_math import configs, counting

models = [counting.bert_params(cfg) for cfg in configs.BERT_MODELS]
models += [counting.gpt_params(cfg) for cfg in configs.GPT_MODELS]
show(
    parameter_shares(models),
    alt="BERT と GPT 系のパラメータを埋め込みと Transformer 層に分けた割合の横棒グラフ。"
    f"埋め込みの割合は {models[0].name} で {models[0]['embeddings'] / models[0].total:.0%}、"
    f"{models[-1].name} で {models[-1]['embeddings'] / models[-1].total:.1%}。",
)
