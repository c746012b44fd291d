from transformer_figures import figure_html, show_tabs
from transformer_figures.notes_attention_figs import y_sources_figure
from transformer_math import SENTENCES, analysis_attention

tabs = {}
for sentence in SENTENCES:
    t = sentence.position(sentence.relations[0].query)  # 各文の 1 つ目の関係のクエリ
    # Y[t, d] = Σ_j attn[head, t, j] · V[j, head, k]  (d = head·d_k + k): 足す前の各項を並べる
    parts = [analysis_attention.y_sources(sentence.number, t, d) for d in range(16)]
    tabs[f"文{sentence.number}"] = figure_html(
        y_sources_figure(sentence.number, t),
        alt=f"文{sentence.number}「{sentence.text}」の {sentence.words[t]} の Y を次元ごとに、どのキーのトークンから"
        f"集めたかの項に分けた色付きの表。d0 名詞 では {sum(parts[0]):.2f} のうち "
        f"{sentence.relations[0].key} からが {parts[0][sentence.position(sentence.relations[0].key)]:.2f}。",
    )
show_tabs(tabs, name="notes04-y-sources")
