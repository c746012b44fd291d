from transformer_figures import table_html
from transformer_math import bpe, preset

words = [w for s in preset.SENTENCES for w in s.words]  # 8 文の 40 語
counts = bpe.word_counts(words)  # 語 → 出てくる回数
segmentation = {w: bpe.characters(w) for w in counts}  # 最初は 1 文字ずつ、最後に語末の印 </w>
rows = []
while True:
    pairs = bpe.pair_counts(segmentation, counts)  # 隣り合う記号の組を、語の回数の重みで数える
    if not pairs:
        break  # どの語も 1 記号になった
    best = max(pairs, key=lambda p: pairs[p])  # いちばん多い組 (同数ならコーパスで先に出た組)
    segmentation = {w: bpe.merge_symbols(s, best) for w, s in segmentation.items()}  # 全部の語でまとめる
    tokens = sum(len(s) * counts[w] for w, s in segmentation.items())
    rows.append(
        [
            str(len(rows) + 1),
            f"{best[0]} + {best[1]}",
            str(pairs[best]),
            str(tokens),
            " ".join(segmentation["美しい"]),
            " ".join(segmentation["大きい"]),
        ]
    )
assert [r[1] for r in rows] == [f"{a} + {b}" for a, b in bpe.learn(words, 100).merges]

print(table_html(["回", "まとめる組", "組の回数", "コーパスの記号の数", "「美しい」", "「大きい」"], rows))
