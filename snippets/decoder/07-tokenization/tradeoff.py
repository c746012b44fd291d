import numpy as np

from transformer_figures import figure_html
from transformer_figures.decoder_figs import tokens_vs_vocabulary_figure
from transformer_math import bpe, preset

words = [w for s in preset.SENTENCES for w in s.words]
run = bpe.learn(words, 100)  # どの語も 1 記号になるまで
vocabulary = np.array([run.vocabulary_size(n) for n in range(len(run.steps) + 1)])  # 文字 + 併合の回数
tokens = np.array([run.initial_tokens] + [step.n_tokens for step in run.steps])  # 併合のたびに組の回数だけ減る

print(
    figure_html(
        tokens_vs_vocabulary_figure(vocabulary, tokens, len(words)),
        alt="BPE の併合を 1 回するごとの、語彙の大きさとコーパスの記号の数。"
        f"語彙は {vocabulary[0]} から {vocabulary[-1]} に増え、"
        f"記号の数は {tokens[0]} から {tokens[-1]} (語の数) に減る。",
    )
)
