from transformer_figures import table_html
from transformer_math import bpe, configs, decoder_preset, preset

model = decoder_preset.decoder_preset()
bpe_vocab = bpe.learn([w for s in preset.SENTENCES for w in s.words], 100).vocabulary_size()
rows = []
for name, vocab, d in (
    ("このデコーダ (語の単位)", model.vocab_size, model.d_model),
    ("8 文の BPE の語彙で同じ d_model", bpe_vocab, model.d_model),
    ("BERT-base (WordPiece)", configs.BERT_BASE.vocab_size, configs.BERT_BASE.hidden_size),
    ("GPT-2 small (BPE)", configs.GPT2_SMALL.vocab_size, configs.GPT2_SMALL.d_model),
):
    embedding = vocab * d  # W_E: 語彙の大きさ × d_model
    untied = vocab * d + vocab  # 出力層を共有しなければ、もう 1 つの行列とバイアス
    rows.append([name, f"{vocab:,}", f"{d:,}", f"{embedding:,}", f"{untied:,}"])

print(table_html(["モデル", "語彙の大きさ", "d_model", "埋め込み W_E の重み", "共有しない出力層が足す重み"], rows))
