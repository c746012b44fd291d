from transformer_math import configs, counting

print("| | 層 | d_model | ヘッド | 合計 | 埋め込みの割合 |")
print("|---|---:|---:|---:|---:|---:|")
for cfg in configs.GPT_MODELS:
    p = counting.gpt_params(cfg)  # 出力層は埋め込み W_e を転置して再利用するので 0 個
    share = p["embeddings"] / p.total
    print(f"| {cfg.name} | {cfg.n_layers} | {cfg.d_model:,} | {cfg.n_heads} | {p.total:,} | {share:.1%} |")
