import numpy as np

from transformer_math import comparisons, masking, preset

# preset の 8 文を 250 回つなげた 10,000 トークンに、BERT と同じ 15 % / 80-10-10 の加工をシード固定でかける
result = comparisons.mlm_simulation()
words = [*preset.VOCAB, "[MASK]"]
n = result.input_ids.size
c = result.counts

rates = {
    "予測対象に選ばれた（÷ 全トークン）": (c["selected"] / n, masking.MLM_SELECT_RATE, c["selected"]),
    "→ [MASK] に置換（÷ 選ばれた数）": (c["masked"] / c["selected"], masking.MLM_MASK_RATE, c["masked"]),
    "→ ランダムな語に置換（÷ 選ばれた数）": (c["random"] / c["selected"], masking.MLM_RANDOM_RATE, c["random"]),
    "→ そのまま（÷ 選ばれた数）": (c["unchanged"] / c["selected"], masking.MLM_KEEP_RATE, c["unchanged"]),
}
print("| | 回数 | 割合 | 規定の割合 |")
print("|---|---:|---:|---:|")
print(f"| 全トークン | {n:,} | | |")
for label, (share, rule, count) in rates.items():
    print(f"| {label} | {count:,} | {share:.1%} | {rule:.0%} |")
print()

# 選ばれた位置を含む最初の 6 文: 元の文と、モデルが実際に見る文
kind = {masking.MASKED: "[MASK]", masking.RANDOM: "ランダム", masking.UNCHANGED: "そのまま"}
print("| 文の位置 | 元の文 | モデルが見る文 | 加工 |")
print("|---:|---|---|---|")
shown = 0
for start in range(0, n, 5):
    action = result.action[start : start + 5]
    if not np.any(action):
        continue
    original = " ".join(words[i] for i in comparisons.mlm_corpus()[start : start + 5])
    seen = " ".join(
        f"**{words[i]}**" if a else words[i] for i, a in zip(result.input_ids[start : start + 5], action, strict=True)
    )
    print(f"| {start // 5 + 1} | {original} | {seen} | {', '.join(kind[a] for a in action if a)} |")
    shown += 1
    if shown == 6:
        break
