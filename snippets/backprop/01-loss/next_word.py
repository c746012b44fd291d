from transformer_figures import table_html
from transformer_math import preset_trace
from transformer_math.preset import N_HEADS, SENTENCES

trace = preset_trace(1)  # 文1、何も隠さない (次の語を当てるなら、語はすべて見えている)
words = SENTENCES[0].words
rows = []
for t in range(len(words) - 1):
    # Y[t] = Σ_j attn[a, t, j] V[j] (ヘッド a) の中で、答えになる語 t+1 の値 V[t+1] にかかる重み
    weights = [f"{trace.attn[a, t, t + 1]:.3f}" for a in range(N_HEADS)]
    rows.append([f"T{t} {words[t]}", f"T{t + 1} {words[t + 1]}", *weights])

print(table_html(["位置 t", "当てる語 (t+1)", "ヘッド 0 の attn[t, t+1]", "ヘッド 1 の attn[t, t+1]"], rows))
