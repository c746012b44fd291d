from transformer_figures import table_html
from transformer_math import decoder_preset, generation, preset

model = decoder_preset.decoder_preset()
rows = []
for s in preset.SENTENCES:
    ids = decoder_preset.sentence_ids(s.number)
    prompt = ids[:4]  # <bos> と最初の 3 語
    out = generation.greedy(model, prompt)  # 毎回いちばん確率の高い語を選び、<eos> で止める
    done = list(out.tokens) == list(ids)
    rows.append([f"文{s.number}", model.text(prompt), model.text(out.generated), "文のとおり" if done else "違う"])

print(table_html(["文", "プロンプト", "貪欲法で続けた語", "結果"], rows))
