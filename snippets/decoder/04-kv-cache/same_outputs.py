import numpy as np

from transformer_figures import table_html
from transformer_math import decoder_model, decoder_preset, generation

# キャッシュは src/transformer_math/generation.py のこのメソッドが 1 トークンずつ埋める:
r'''  # markdown-exec: hide
--8<-- "src/transformer_math/generation.py:append"
'''  # markdown-exec: hide  # fmt: skip

model = decoder_preset.decoder_preset()
tokens = list(model.ids("<bos> これ は"))
cache = generation.KVCache(model)
for token in tokens[:-1]:
    cache.append(token)  # プロンプトの語で K と V をためる
rows = []
while tokens[-1] != model.eos:
    cached = cache.append(tokens[-1]).logits  # 新しい 1 トークンだけを 2 ブロックに通す
    full = decoder_model.forward(model, np.array(tokens)).logits[-1]  # 全部を計算し直した最後の行
    word = int(np.argmax(cached))  # 貪欲法
    assert word == int(np.argmax(full))
    same = "1e-12 未満" if np.abs(cached - full).max() < 1e-12 else "1e-12 以上"  # 差は足す順の丸めだけ
    rows.append([f"{len(tokens)}", f"{cache.K[0].shape}", model.vocab[word], same])
    tokens.append(word)

print(table_html(["読んだ長さ", "ブロック 1 の K の形 (h, 長さ, d_k)", "選んだ語", "logits の差の最大"], rows))
