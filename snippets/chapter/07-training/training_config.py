from transformer_figures import markdown_table
from transformer_math import configs

base, big = configs.TRANSFORMER_BASE, configs.TRANSFORMER_BIG
fields = [
    ("Adam β1", "adam_beta1", "1 次モーメント（勾配の移動平均）の減衰率"),
    ("Adam β2", "adam_beta2", "2 次モーメント（勾配の 2 乗の移動平均）の減衰率"),
    ("Adam ε", "adam_eps", "分母が 0 に近いときの保険"),
    ("ウォームアップ T_w", "warmup_steps", "学習率を上げ続けるステップ数"),
    ("ドロップアウト P_drop", "dropout", "サブ層の出力と、埋め込み＋位置の和に適用"),
    ("ラベル平滑化 ε_ls", "label_smoothing", "正解の確率の一部を全語彙に配る"),
]
# 学習の設定は configs の値をそのまま表にする（ページに手で書き写さない）; β の平均する長さは 1/(1 − β) ステップ
horizon = {name: 1 / (1 - getattr(base, name)) for name in ("adam_beta1", "adam_beta2")}
assert round(horizon["adam_beta1"]) == 10 and round(horizon["adam_beta2"]) == 50
rows = [[label, f"{getattr(base, field):g}", f"{getattr(big, field):g}", role] for label, field, role in fields]

print(markdown_table(["設定", "base", "big", "役割"], rows))
