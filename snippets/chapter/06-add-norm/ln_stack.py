from transformer_figures import show
from transformer_figures.chapter_figs import ln_stack_figure
from transformer_math import experiments

ln = experiments.LN  # 同じ乱数の重み・同じ入力で、LayerNorm の位置だけを変えた N 層
show(
    ln_stack_figure(),
    alt=f"{ln.n_layers} ブロックの Post-LN と Pre-LN の比較（3 つのグラフ）。残差ストリームの RMS は Post-LN で常に 1、"
    f"Pre-LN で {ln.activation_rms['pre'][0]:.2f} から {ln.activation_rms['pre'][-1]:.2f} へ増える。"
    f"1 ブロックでの相対変化は Pre-LN で {ln.relative_update['pre'][0]:.2f} から "
    f"{ln.relative_update['pre'][-1]:.2f} へ減る。"
    "W2 の勾配の大きさを層の平均で割った比は、Pre-LN では下の層ほど大きく、"
    "Post-LN では層による差が小さいが乱数によるばらつきが大きい。",
)
