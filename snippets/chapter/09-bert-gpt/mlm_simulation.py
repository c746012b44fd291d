import numpy as np

from transformer_figures import markdown_table
from transformer_math import masking, preset
from transformer_pages.chapter import bert_gpt

# preset の 8 文を 250 回つなげた 10,000 トークンに、BERT と同じ 15 % / 80-10-10 の加工をシード固定でかける
corpus = bert_gpt.mlm_corpus()  # (10000,) token id
result = masking.mlm_mask(corpus, mask_id=preset.VOCAB_SIZE, vocab_size=preset.VOCAB_SIZE + 1, rng=bert_gpt.MLM_SEED)
assert np.array_equal(result.input_ids, bert_gpt.mlm_simulation().input_ids)
n, c = corpus.size, result.counts
rates = [
    ("予測対象に選ばれた（÷ 全トークン）", c["selected"] / n, masking.MLM_SELECT_RATE, c["selected"]),
    ("→ [MASK] に置換（÷ 選ばれた数）", c["masked"] / c["selected"], masking.MLM_MASK_RATE, c["masked"]),
    ("→ ランダムな語に置換（÷ 選ばれた数）", c["random"] / c["selected"], masking.MLM_RANDOM_RATE, c["random"]),
    ("→ そのまま（÷ 選ばれた数）", c["unchanged"] / c["selected"], masking.MLM_KEEP_RATE, c["unchanged"]),
]
summary = [["全トークン", f"{n:,}", "", ""]] + [[label, f"{k:,}", f"{s:.1%}", f"{r:.0%}"] for label, s, r, k in rates]

# 選ばれた位置を含む最初の 6 文: 元の文と、モデルが実際に見る文
words, kind = (
    [*preset.VOCAB, "[MASK]"],
    {masking.MASKED: "[MASK]", masking.RANDOM: "ランダム", masking.UNCHANGED: "そのまま"},
)
examples = []
for start in range(0, n, 5):
    action, seen = result.action[start : start + 5], result.input_ids[start : start + 5]
    if np.any(action) and len(examples) < 6:
        examples.append(
            [
                str(start // 5 + 1),
                " ".join(words[i] for i in corpus[start : start + 5]),
                " ".join(f"**{words[i]}**" if a else words[i] for i, a in zip(seen, action, strict=True)),
                ", ".join(kind[a] for a in action if a),
            ]
        )

print(
    markdown_table(["", "回数", "割合", "規定の割合"], summary, "lrrr")
    + "\n\n"
    + markdown_table(["文の位置", "元の文", "モデルが見る文", "加工"], examples, "r")
)
