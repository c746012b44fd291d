from transformer_math import configs

# GPT 系の設定に記録された LayerNorm の位置（原論文と BERT は Post-LN）
print("| モデル | LayerNorm の位置 | 最後のブロックの後の LayerNorm |")
print("|---|---|---|")
print("| Transformer（原論文） | Post-LN | なし |")
for cfg in configs.GPT_MODELS:
    where = "Pre-LN" if cfg.pre_ln else "Post-LN"
    final = "あり" if cfg.final_layer_norm else "なし"
    print(f"| {cfg.name} | {where} | {final} |")
