from transformer_figures import table_html
from transformer_math import bpe, preset

words = [w for s in preset.SENTENCES for w in s.words]
by_count = bpe.learn(words, 6)  # BPE: いちばん多い組
by_likelihood = bpe.learn(words, 6, criterion="likelihood")  # WordPiece の基準: 尤度をいちばん上げる組
rows = []
for a, b in zip(by_count.steps, by_likelihood.steps, strict=True):
    # 尤度は、記号ごとの頻度だけの言語モデル: log L = Σ c(s) log(c(s) / N)
    rows.append(
        [
            str(a.number),
            f"{a.pair[0]} + {a.pair[1]} ({a.count} 回、{a.gain:+.2f})",
            f"{b.pair[0]} + {b.pair[1]} ({b.count} 回、{b.gain:+.2f})",
        ]
    )

print(table_html(["回", "BPE が選ぶ組 (回数、対数尤度の増え方)", "尤度で選ぶ組 (回数、対数尤度の増え方)"], rows))
