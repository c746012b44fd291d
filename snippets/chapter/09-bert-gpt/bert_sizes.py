from transformer_figures import markdown_table
from transformer_math import configs, counting

# 設定（L, H, A と語彙・位置・セグメントの数）から部品ごとに数える。列 = モデル
models = configs.BERT_MODELS
counts = [counting.bert_params(cfg) for cfg in models]
H = models[0].H
embeddings = (models[0].vocab_size + models[0].max_position_embeddings + models[0].type_vocab_size) * H + 2 * H
assert embeddings == counts[0]["embeddings"]  # 語 + 位置 + セグメントの表と、LayerNorm の γ, β
parts = (("embeddings", "埋め込み（語・位置・セグメント・LN）"), ("layers", "エンコーダ層"), ("pooler", "プーラー"))
rows = [["層 L / 隠れ層 H / ヘッド A", *(f"{c.L} / {c.H:,} / {c.A}" for c in models)]]
rows += [[label, *(f"{p[part]:,}" for p in counts)] for part, label in parts]
rows += [["**合計**", *(f"**{p.total:,}**" for p in counts)]]

print(markdown_table(["", *(cfg.name for cfg in models)], rows, "l" + "r" * len(models)))
