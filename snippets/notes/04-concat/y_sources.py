import numpy as np

from transformer_figures import figure_tabs
from transformer_figures.notes_attention_figs import y_sources_figure
from transformer_math import SENTENCES, preset_trace

panels, alts = {}, {}
for s in SENTENCES:
    trace = preset_trace(s.number)
    t = s.position(s.relations[0].query)  # 各文の 1 つ目の関係のクエリ
    d_k = trace.V.shape[2]
    head, k = np.divmod(np.arange(16), d_k)  # 次元 d = head·d_k + k
    # Y[t, d] = Σ_j attn[head, t, j] · V[j, head, k]: 足す前の各項を j ごとに並べる
    terms = trace.attn[head, t, :].T * trace.V[:, head, k]  # (T, d_model): 行 = キー j
    assert np.allclose(terms.sum(axis=0), trace.Y[t])
    key = s.position(s.relations[0].key)
    panels[f"文{s.number}"] = (terms, s.words, t)
    alts[f"文{s.number}"] = (
        f"文{s.number}「{s.text}」の {s.words[t]} の Y を次元ごとに、どのキーのトークンから集めたかの項に分けた"
        f"色付きの表。d0 名詞 では {terms[:, 0].sum():.2f} のうち {s.words[key]} からが {terms[key, 0]:.2f}。"
    )

print(figure_tabs(y_sources_figure, panels, alts, name="notes04-y-sources"))
