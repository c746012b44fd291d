from transformer_figures import table_html
from transformer_math import backward as bw
from transformer_math import preset_weights
from transformer_math.preset import SENTENCES

W = preset_weights()
rows = []
for s in SENTENCES:  # 8 文 × 5 位置 = 40 例: どの語を隠しても同じ損失の式
    cells = []
    for p, word in enumerate(s.words):
        L = bw.masked_word_loss(W, s.token_ids, p).loss  # 語 p を隠したときの損失
        cells.append(f"{word} {L:.2f}")
    rows.append([f"文{s.number}", *cells])

print(
    table_html(
        ["文", "T0 を隠す", "T1", "T2", "T3", "T4"], rows, caption="プリセットの損失 L (語と、その語を隠したときの L)"
    )
)
