from transformer_figures import figure_html
from transformer_figures.chapter_figs import ln_stack_figure
from transformer_pages.chapter import add_norm

# 2 つの配線は src/transformer_math/stack.py のこの関数の if の 2 つの枝だけが違う:
r'''  # markdown-exec: hide
--8<-- "src/transformer_math/stack.py:forward_stack"
'''  # markdown-exec: hide  # fmt: skip

ln = add_norm.ln()  # 同じ乱数の重み・同じ入力で、LayerNorm の位置だけを変えた N 層 (シード 4 つ)
rms_pre, update_pre = ln.activation_rms["pre"], ln.relative_update["pre"]
assert abs(ln.activation_rms["post"] - 1).max() < 1e-3  # Post-LN の流れは毎回正規化される

print(
    figure_html(
        ln_stack_figure(ln),
        alt=f"{ln.n_layers} ブロックの Post-LN と Pre-LN の比較（3 つのグラフ）。"
        "残差ストリームの RMS は Post-LN で常に 1、"
        f"Pre-LN で {rms_pre[0]:.2f} から {rms_pre[-1]:.2f} へ増える。1 ブロックでの相対変化は Pre-LN で "
        f"{update_pre[0]:.2f} から {update_pre[-1]:.2f} へ減る。W2 の勾配の大きさを層の平均で割った比は、"
        "Pre-LN では下の層ほど大きく、Post-LN では層による差が小さいが乱数によるばらつきが大きい。",
    )
)
