import numpy as np

from transformer_figures import table_html
from transformer_math import decoder_model, decoder_preset

model = decoder_preset.decoder_preset()
ids = decoder_preset.sentence_ids(1)  # <bos> これ は 美しい 花 です <eos>
one_pass = decoder_model.forward(model, ids[:-1])  # 6 トークンを一度に読む (因果マスクつき)
rows = []
total_pass = total_steps = 0.0
for t in range(len(ids) - 1):
    L_pass = -np.log(one_pass.probs[t, ids[t + 1]])  # 行 t の損失
    alone = decoder_model.forward(model, ids[: t + 1])  # 位置 0 … t だけを読ませ直す
    L_step = -np.log(alone.probs[-1, ids[t + 1]])  # その最後の行の損失
    total_pass, total_steps = total_pass + L_pass, total_steps + L_step
    read = " ".join(model.words(ids[: t + 1]))
    rows.append([f"{t}", read, model.vocab[ids[t + 1]], f"{L_pass:.4f}", f"{L_step:.4f}"])
rows.append(["和", "", "", f"{total_pass:.4f}", f"{total_steps:.4f}"])

print(table_html(["t", "読んだ語", "当てる語", "1 回の計算の行 t", "位置 t までを読み直す"], rows))
