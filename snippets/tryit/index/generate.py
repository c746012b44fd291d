from transformer_math import decoder_preset, generation
from transformer_site.panels import generation_panel_html

# ブラウザは各ステップで、この関数と同じ順に語を選ぶ (確率と選んだ語が 1e-12 以内で一致する):
r'''  # markdown-exec: hide
--8<-- "src/transformer_math/generation.py:choose"
'''  # markdown-exec: hide  # fmt: skip

# パネルを開いたときの状態 (例文 1 の最初の 3 語、温度 1、種 0) をここでも生成しておく
model = decoder_preset.decoder_preset()
run = generation.generate(model, generation.prompt_ids(model, "これ は 美しい"), seed=0)
assert model.text(run.generated) == "花 です <eos>"

# デコーダの重み・例文のプロンプト・つまみの範囲を、すべてここからデータとしてページに埋め込む
print(generation_panel_html("generate"))
