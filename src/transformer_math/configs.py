"""Configurations of published Transformer models, as frozen dataclasses.

Every value is the one the cited paper (or its reference implementation) states; the counting module
turns these into exact parameter counts, so a page can quote "BERT-base has 109,482,240 parameters"
as a checked number instead of typing it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TransformerConfig:
    """The encoder–decoder Transformer of Vaswani et al. 2017, "Attention Is All You Need".

    Sizes from §3 and Table 3; training from §5.3 (Adam, warmup) and §5.4 (dropout, label smoothing).
    The source and target share one BPE vocabulary of about 37000 tokens (§5.1, English–German), and
    the two embedding layers and the pre-softmax projection share one weight matrix (§3.4).
    """

    name: str
    d_model: int
    n_heads: int
    d_k: int
    d_v: int
    d_ff: int
    n_layers: int  # N: identical layers in the encoder, and again in the decoder
    vocab_size: int
    shared_embeddings: bool
    dropout: float
    label_smoothing: float
    adam_beta1: float
    adam_beta2: float
    adam_eps: float
    warmup_steps: int
    train_steps: int  # §5.2: base models 100,000 steps (about 12 hours on 8 P100 GPUs), big models 300,000

    def __post_init__(self) -> None:
        if self.n_heads * self.d_k != self.d_model or self.n_heads * self.d_v != self.d_model:
            raise ValueError(
                f"{self.name}: n_heads·d_k and n_heads·d_v must equal d_model = {self.d_model}, "
                f"got {self.n_heads}·{self.d_k} and {self.n_heads}·{self.d_v}"
            )

    @property
    def N(self) -> int:
        """The paper's symbol for the number of layers."""
        return self.n_layers

    @property
    def h(self) -> int:
        """The paper's symbol for the number of heads."""
        return self.n_heads


TRANSFORMER_BASE = TransformerConfig(
    name="Transformer (base)",
    d_model=512,
    n_heads=8,
    d_k=64,
    d_v=64,
    d_ff=2048,
    n_layers=6,
    vocab_size=37000,
    shared_embeddings=True,
    dropout=0.1,
    label_smoothing=0.1,
    adam_beta1=0.9,
    adam_beta2=0.98,
    adam_eps=1e-9,
    warmup_steps=4000,
    train_steps=100_000,
)
"""The base model: Vaswani et al. 2017, §3.1–3.3 and Table 3 (row "base"), §5.3–5.4."""

TRANSFORMER_BIG = TransformerConfig(
    name="Transformer (big)",
    d_model=1024,
    n_heads=16,
    d_k=64,
    d_v=64,
    d_ff=4096,
    n_layers=6,
    vocab_size=37000,
    shared_embeddings=True,
    dropout=0.3,
    label_smoothing=0.1,
    adam_beta1=0.9,
    adam_beta2=0.98,
    adam_eps=1e-9,
    warmup_steps=4000,
    train_steps=300_000,
)
"""The big model: Vaswani et al. 2017, Table 3 (row "big"; P_drop = 0.3 for English–German)."""

ORIGINAL_TRANSFORMER = TRANSFORMER_BASE


@dataclass(frozen=True)
class BertConfig:
    """BERT (Devlin et al. 2019), an encoder-only Transformer with token + position + segment embeddings.

    L layers, hidden size H, A heads, feed-forward size 4H (§3 "Model Architecture"). Vocabulary and
    embedding sizes are those of the released uncased checkpoints' ``bert_config.json``
    (google-research/bert): 30522 WordPiece tokens, 512 positions, 2 segment (token type) ids,
    LayerNorm ε 1e-12, and a pooler (one H×H dense layer with tanh on [CLS]).
    """

    name: str
    num_layers: int  # L
    hidden_size: int  # H
    num_heads: int  # A
    intermediate_size: int  # 4H
    vocab_size: int = 30522
    max_position_embeddings: int = 512
    type_vocab_size: int = 2
    layer_norm_eps: float = 1e-12
    pooler: bool = True

    def __post_init__(self) -> None:
        if self.hidden_size % self.num_heads:
            raise ValueError(f"{self.name}: hidden_size {self.hidden_size} is not divisible by {self.num_heads} heads")

    @property
    def L(self) -> int:
        return self.num_layers

    @property
    def H(self) -> int:
        return self.hidden_size

    @property
    def A(self) -> int:
        return self.num_heads


BERT_BASE = BertConfig("BERT-base", num_layers=12, hidden_size=768, num_heads=12, intermediate_size=3072)
"""Devlin et al. 2019, §3: BERT_BASE (L=12, H=768, A=12, "Total Parameters=110M")."""

BERT_LARGE = BertConfig("BERT-large", num_layers=24, hidden_size=1024, num_heads=16, intermediate_size=4096)
"""Devlin et al. 2019, §3: BERT_LARGE (L=24, H=1024, A=16, "Total Parameters=340M")."""


@dataclass(frozen=True)
class GPTConfig:
    """A decoder-only (GPT-family) Transformer with learned positions and tied input/output embeddings.

    Each layer: masked self-attention (Q, K, V, O with biases), a 4·d_model FFN, two LayerNorms.
    ``final_layer_norm``: GPT-2 and GPT-3 move LayerNorm to the input of each sub-block and add one
    after the last block (Radford et al. 2019, §2.3); GPT-1 is Post-LN and has none.
    """

    name: str
    n_layers: int
    d_model: int
    n_heads: int
    d_ff: int
    vocab_size: int
    n_ctx: int  # context length = number of learned positions
    pre_ln: bool
    final_layer_norm: bool
    tied_embeddings: bool = True

    def __post_init__(self) -> None:
        if self.d_model % self.n_heads:
            raise ValueError(f"{self.name}: d_model {self.d_model} is not divisible by {self.n_heads} heads")

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads


GPT1 = GPTConfig(
    "GPT-1", n_layers=12, d_model=768, n_heads=12, d_ff=3072, vocab_size=40478, n_ctx=512,
    pre_ln=False, final_layer_norm=False,
)  # fmt: skip
"""Radford et al. 2018, §4.1: 12 layers, 768-dim states, 12 heads, 3072 FFN, 512-token context; BPE with
40,000 merges — 40478 tokens in the released ``openai-gpt`` vocabulary."""


def _gpt2(name: str, n_layers: int, d_model: int, n_heads: int) -> GPTConfig:
    return GPTConfig(
        name, n_layers=n_layers, d_model=d_model, n_heads=n_heads, d_ff=4 * d_model, vocab_size=50257,
        n_ctx=1024, pre_ln=True, final_layer_norm=True,
    )  # fmt: skip


GPT2_SMALL = _gpt2("GPT-2 small", 12, 768, 12)
"""Radford et al. 2019, Table 2 (12 layers, d_model 768; vocabulary 50257, context 1024, §2.3);
heads from the released ``hparams.json`` (openai/gpt-2)."""
GPT2_MEDIUM = _gpt2("GPT-2 medium", 24, 1024, 16)
"""Radford et al. 2019, Table 2 (24 layers, d_model 1024); 16 heads per the released hparams."""
GPT2_LARGE = _gpt2("GPT-2 large", 36, 1280, 20)
"""Radford et al. 2019, Table 2 (36 layers, d_model 1280); 20 heads per the released hparams."""
GPT2_XL = _gpt2("GPT-2 XL", 48, 1600, 25)
"""Radford et al. 2019, Table 2 (48 layers, d_model 1600); 25 heads per the released hparams."""

GPT3_175B = GPTConfig(
    "GPT-3 175B", n_layers=96, d_model=12288, n_heads=96, d_ff=4 * 12288, vocab_size=50257, n_ctx=2048,
    pre_ln=True, final_layer_norm=True,
)  # fmt: skip
"""Brown et al. 2020, Table 2.1 (n_layers 96, d_model 12288, n_heads 96, d_head 128) and §2.1
(GPT-2's architecture and tokenizer, d_ff = 4·d_model, context window n_ctx = 2048)."""

GPT2_FAMILY: tuple[GPTConfig, ...] = (GPT2_SMALL, GPT2_MEDIUM, GPT2_LARGE, GPT2_XL)
GPT_MODELS: tuple[GPTConfig, ...] = (GPT1, *GPT2_FAMILY, GPT3_175B)
BERT_MODELS: tuple[BertConfig, ...] = (BERT_BASE, BERT_LARGE)
