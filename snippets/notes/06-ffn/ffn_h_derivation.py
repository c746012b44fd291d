from transformer_figures.notes_ffn_figs import derivation_html
from transformer_math import SENTENCES, derivations, preset_trace, preset_weights

trace = preset_trace(3)  # 文3「私 は 猫 が 好き」
der = derivations.derive_ffn_h(trace, preset_weights(), t=0, k=13)  # 私 (T0) の h13 名詞∧大きさ を項から計算し直す
assert abs(der.value - trace.ffn_h[0, 13]) < 1e-12  # 導出の値と順伝播の値は同じ

print(derivation_html(der, [f"T{t} {w}" for t, w in enumerate(SENTENCES[2].words)]))
