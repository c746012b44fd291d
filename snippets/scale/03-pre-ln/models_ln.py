from transformer_figures import markdown_table
from transformer_math import configs

# GPT 系の設定に記録された LayerNorm の位置と数（原論文と BERT は Post-LN）
rows = [["Transformer（原論文）", "Post-LN", "なし", "—"]]
for cfg in configs.GPT_MODELS:
    n_layer_norms = 2 * cfg.n_layers + int(cfg.final_layer_norm)  # 各ブロックに 2 つ + 最後に 1 つ
    where = "Pre-LN" if cfg.pre_ln else "Post-LN"
    rows.append([cfg.name, where, "あり" if cfg.final_layer_norm else "なし", str(n_layer_norms)])
assert all(cfg.pre_ln == cfg.final_layer_norm for cfg in configs.GPT_MODELS)  # Pre-LN なら最後にも 1 つ

print(markdown_table(["モデル", "LayerNorm の位置", "最後のブロックの後の LayerNorm", "LayerNorm の数"], rows, "lllr"))
