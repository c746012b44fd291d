from transformer_figures.notes_ffn_figs import derivation_html
from transformer_math import SENTENCES, derivations, preset_trace

trace = preset_trace(3)  # 文3「私 は 猫 が 好き」
der = derivations.derive_ln2(trace, t=2, d=9)  # 猫 (T2) の d9 大きさ: h13 の書き戻しが入る次元を項から計算し直す
assert abs(der.value - trace.ln2_out[2, 9]) < 1e-12

print(derivation_html(der, [f"T{t} {w}" for t, w in enumerate(SENTENCES[2].words)]))
