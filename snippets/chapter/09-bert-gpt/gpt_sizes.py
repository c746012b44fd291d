from transformer_figures import markdown_table
from transformer_math import configs, counting

rows = []
for cfg in configs.GPT_MODELS:
    p = counting.gpt_params(cfg)  # 出力層は埋め込み W_e を転置して再利用するので 0 個
    share = p["embeddings"] / p.total  # 埋め込みの割合: 小さいモデルほど大きい
    rows.append([cfg.name, str(cfg.n_layers), f"{cfg.d_model:,}", str(cfg.n_heads), f"{p.total:,}", f"{share:.1%}"])

print(markdown_table(["", "層", "d_model", "ヘッド", "合計", "埋め込みの割合"], rows, "lrrrrr"))
