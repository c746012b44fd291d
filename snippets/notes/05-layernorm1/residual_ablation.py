from transformer_figures import table_html, tabs_html
from transformer_math import SENTENCES, ops, preset, preset_trace
from transformer_pages.notes import layernorm1

tables = {}
for s in SENTENCES:
    trace = preset_trace(s.number)
    with_res = ops.layer_norm(trace.X + trace.Y)  # 残差あり: LN(X + Y), (T, d_model)
    without = ops.layer_norm(trace.Y)  # 残差なし: LN(Y) だけ
    rows = []
    for t, word in enumerate(s.words):
        c = preset.LEXICON[word][0]  # その単語自身の品詞次元
        assert abs(with_res[t, c] - layernorm1.own_category_value(trace, t)) < 1e-12
        rows.append([f"T{t} {word}", f"d{c} {preset.DIM_NAMES[c]}", f"{with_res[t, c]:+.3f}", f"{without[t, c]:+.3f}"])
    tables[f"文{s.number}"] = [[c.replace("-", "−") for c in r] for r in rows]

headers = ["トークン", "自分の品詞次元", "残差あり LN(X+Y)", "残差なし LN(Y)"]
print(tabs_html({label: table_html(headers, rows) for label, rows in tables.items()}, name="notes05-residual"))
