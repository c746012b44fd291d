from transformer_math import configs, counting

# 設定（L, H, A と語彙・位置・セグメントの数）から部品ごとに数える。列 = モデル
models = configs.BERT_MODELS
counts = [counting.bert_params(cfg) for cfg in models]
print("| | " + " | ".join(cfg.name for cfg in models) + " |")
print("|---|" + "---:|" * len(models))
print("| 層 L / 隠れ層 H / ヘッド A | " + " | ".join(f"{c.L} / {c.H:,} / {c.A}" for c in models) + " |")
for part, label in (
    ("embeddings", "埋め込み（語・位置・セグメント・LN）"),
    ("layers", "エンコーダ層"),
    ("pooler", "プーラー"),
):
    print(f"| {label} | " + " | ".join(f"{p[part]:,}" for p in counts) + " |")
print("| **合計** | " + " | ".join(f"**{p.total:,}**" for p in counts) + " |")
