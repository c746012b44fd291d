import numpy as np

from transformer_figures import table_html
from transformer_math import decoder_preset

model = decoder_preset.decoder_preset()  # ブロック 2 つ、因果マスク、出力層は W_E と共有
per_block = {name: np.size(getattr(model.blocks[0], name)) for name in ("W_Q", "W_K", "W_V", "W_O", "W1", "W2")}
block_params = sum(np.size(w) for w in vars(model.blocks[0]).values())  # 行列 6 つ + バイアス 2 つ + γ, β 2 組
trained = np.size(model.W_E) + model.n_blocks * block_params  # W_P は式で決まり、学習しない
rows = [
    ["語彙", f"{model.vocab_size} 語 (ノートの 16 語 + <bos> + <eos>)"],
    ["d_model, h, d_k, d_ff", f"{model.d_model}, {model.n_heads}, {model.d_k}, {model.d_ff}"],
    ["ブロック", f"{model.n_blocks} 個 (どちらも §2〜§7 と同じ Post-LN、因果マスクつき)"],
    ["読める位置の数", f"{model.n_positions} (W_P の行の数)"],
    ["1 ブロックの重み", f"{block_params:,} 個 (W_Q, W_K, W_V, W_O, W1, W2 で {sum(per_block.values()):,})"],
    ["学習した重みの合計", f"{trained:,} 個 (W_E {np.size(model.W_E)} 個 + ブロック {model.n_blocks} 個)"],
]

print(table_html(["項目", "デコーダのプリセット"], rows))
