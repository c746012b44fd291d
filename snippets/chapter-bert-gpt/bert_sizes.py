from transformer_math import configs, counting

# 設定（L, H, A と語彙・位置・セグメントの数）から部品ごとに数える
print("| | L | H | A | 埋め込み | エンコーダ層 | プーラー | 合計 |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for cfg in configs.BERT_MODELS:
    p = counting.bert_params(cfg)
    print(
        f"| {cfg.name} | {cfg.L} | {cfg.H} | {cfg.A} | {p['embeddings']:,} | {p['layers']:,} "
        f"| {p['pooler']:,} | **{p.total:,}** |"
    )
