from transformer_figures import table_html
from transformer_math import decoder_preset, generation

model = decoder_preset.decoder_preset()
rows = []
for seed in range(6):
    out = generation.generate(model, ["<bos>"], seed=seed)  # τ = 1、絞りこみなし。u は seed から決まる
    u = "、".join(f"{step.choice.u:.4f}" for step in out.steps)
    p = "、".join(f"{step.choice.final[step.word]:.4f}" for step in out.steps)  # 選ばれた語の確率
    rows.append([str(seed), model.text(out.generated), u, p])

print(table_html(["seed", "生成した語", "各ステップの u", "選ばれた語の確率"], rows))
