from transformer_figures import markdown_table
from transformer_math import configs

# GPT 系の設定に記録された LayerNorm の位置（原論文と BERT は Post-LN）
rows = [["Transformer（原論文）", "Post-LN", "なし"]]
rows += [
    [cfg.name, "Pre-LN" if cfg.pre_ln else "Post-LN", "あり" if cfg.final_layer_norm else "なし"]
    for cfg in configs.GPT_MODELS
]
assert all(cfg.pre_ln == cfg.final_layer_norm for cfg in configs.GPT_MODELS)  # Pre-LN なら最後にも 1 つ

print(markdown_table(["モデル", "LayerNorm の位置", "最後のブロックの後の LayerNorm"], rows))
