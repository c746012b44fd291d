from transformer_math import configs

base, big = configs.TRANSFORMER_BASE, configs.TRANSFORMER_BIG

# 学習の設定は configs の値をそのまま表にする（ページに手で書き写さない）
rows = [
    ("Adam β1", "adam_beta1", "1 次モーメント（勾配の移動平均）の減衰率"),
    ("Adam β2", "adam_beta2", "2 次モーメント（勾配の 2 乗の移動平均）の減衰率"),
    ("Adam ε", "adam_eps", "分母が 0 に近いときの保険"),
    ("ウォームアップ T_w", "warmup_steps", "学習率を上げ続けるステップ数"),
    ("ドロップアウト P_drop", "dropout", "サブ層の出力と、埋め込み＋位置の和に適用"),
    ("ラベル平滑化 ε_ls", "label_smoothing", "正解の確率の一部を全語彙に配る"),
]
print("| 設定 | base | big | 役割 |")
print("|---|---|---|---|")
for label, field, role in rows:
    print(f"| {label} | {getattr(base, field):g} | {getattr(big, field):g} | {role} |")
