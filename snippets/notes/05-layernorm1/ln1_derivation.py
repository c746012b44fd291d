from transformer_figures.notes_ffn_figs import derivation_html
from transformer_math import SENTENCES, derivations, preset_trace

trace = preset_trace(1)  # 文1「これ は 美しい 花 です」
der = derivations.derive_ln1(trace, t=3, d=0)  # 花 (T3) の名詞次元 d0 を、μ・σ²・√(σ²+ε) から計算し直す
assert abs(der.value - trace.ln1_out[3, 0]) < 1e-12  # 導出の値と順伝播の値は同じ

print(derivation_html(der, [f"T{t} {w}" for t, w in enumerate(SENTENCES[0].words)]))
