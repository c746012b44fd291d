from transformer_figures import table_html
from transformer_math import counting
from transformer_math.configs import TRANSFORMER_BASE as cfg

count = counting.transformer_params(cfg)  # 形から数えた正確な値（バイアスと LayerNorm を含む）
unshared = cfg.vocab_size * cfg.d_model * 3  # 共有しなければ埋め込み 2 つ + 出力層 1 つ
names = {
    "embeddings": "埋め込み（3 か所で共有）",
    "encoder": f"エンコーダ {cfg.n_layers} 層",
    "decoder": f"デコーダ {cfg.n_layers} 層",
}
rows = [[names[name], f"{n:,}"] for name, n in count.parts]
rows += [
    ["合計", f"{count.total:,}"],
    ["（参考）埋め込みを共有しない場合の合計", f"{count.total - count['embeddings'] + unshared:,}"],
]

print(table_html(["部分", "パラメータ数"], rows, caption=f"{cfg.name} のパラメータ数"))
