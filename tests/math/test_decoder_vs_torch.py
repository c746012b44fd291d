"""The independent reference for the decoder: PyTorch in float64, ≤ 1e-12, value by value.

The decoder forward (every intermediate of every block, the tied logits, the probabilities), the loss with
teacher forcing, generation with the cache and without, cross-attention, and every gradient of the decoder
against torch.autograd. The PyTorch side is written here from the formulas, with PyTorch's own operations
(``F.embedding``, ``F.scaled_dot_product_attention`` with ``is_causal=True``, ``F.layer_norm``,
``F.gelu(approximate="tanh")``, ``F.cross_entropy``, ``torch.topk``); it shares nothing with transformer_math
but the weights, the token ids and the uniform numbers of the draws. Skipped only where torch is absent; with
REQUIRE_TORCH=1 (CI) a missing torch stops the session instead (tests/conftest.py).
"""

from __future__ import annotations

import functools
import math
from dataclasses import fields

import numpy as np
import pytest
from torch_reference import F, torch

from transformer_math import cross_attention as xa
from transformer_math import decoder_backward as dbw
from transformer_math import decoder_model as dec
from transformer_math import decoder_preset as dp
from transformer_math import generation as gen
from transformer_math import preset

pytestmark = pytest.mark.torch

TOLERANCE = 1e-12
BLOCK_FIELDS = [f.name for f in fields(dec.DecoderBlockTrace)]


def tensor(a: np.ndarray, grad: bool = False) -> torch.Tensor:
    return torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=grad)


class TorchDecoder:
    """The decoder written with PyTorch from the formulas; ``kept`` holds every intermediate by name."""

    def __init__(self, model: dec.Decoder, grad: bool = False) -> None:
        self.h, self.eps = model.n_heads, model.eps
        self.W_E = tensor(model.W_E, grad)
        self.W_P = tensor(model.W_P)
        self.blocks = [{name: tensor(getattr(b, name), grad) for name in dec.BLOCK_WEIGHT_NAMES} for b in model.blocks]

    def forward(self, ids: np.ndarray, keep_grads: bool = False) -> dict:
        kept: dict = {"blocks": []}

        def keep(store: dict, name: str, value: torch.Tensor) -> torch.Tensor:
            if keep_grads and value.requires_grad:
                value.retain_grad()
            store[name] = value
            return value

        def branch(value: torch.Tensor) -> torch.Tensor:  # a fresh node: its gradient is one path's share
            return value * 1.0

        W_E_in = keep(kept, "W_E_input", branch(self.W_E))
        W_E_out = keep(kept, "W_E_output", branch(self.W_E))
        tokens = torch.tensor(np.asarray(ids, dtype=np.int64))
        T = tokens.shape[0]
        X = F.embedding(tokens, W_E_in) + self.W_P[:T]
        for W in self.blocks:
            b: dict = {}
            kept["blocks"].append(b)
            X = keep(b, "X", X)
            d = X.shape[-1]
            d_k = W["W_Q"].shape[1] // self.h

            def heads(a: torch.Tensor, d_k=d_k) -> torch.Tensor:  # (T, h·d_k) → (T, h, d_k)
                return a.reshape(T, self.h, d_k)

            Q = keep(b, "Q", heads(X @ W["W_Q"]))
            K = keep(b, "K", heads(X @ W["W_K"]))
            V = keep(b, "V", heads(X @ W["W_V"]))
            q, k, v = (a.transpose(0, 1) for a in (Q, K, V))  # (h, T, d_k)
            scores = keep(b, "scores", q @ k.transpose(-1, -2) / math.sqrt(d_k))
            future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
            attn = keep(b, "attn", torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1))
            b["sdpa"] = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(0, 1)  # (T, h, d_k)
            head_out = keep(b, "head_out", (attn @ v).transpose(0, 1))
            concat = keep(b, "concat", head_out.reshape(T, -1))
            Y = keep(b, "Y", concat @ W["W_O"])
            residual1 = keep(b, "residual1", X + Y)
            ln1_out = keep(b, "ln1_out", F.layer_norm(residual1, (d,), W["ln1_gamma"], W["ln1_beta"], self.eps))
            ffn_pre = keep(b, "ffn_pre", F.linear(ln1_out, W["W1"].T, W["b1"]))
            ffn_h = keep(b, "ffn_h", F.gelu(ffn_pre, approximate="tanh"))
            ffn_out = keep(b, "ffn_out", F.linear(ffn_h, W["W2"].T, W["b2"]))
            residual2 = keep(b, "residual2", ln1_out + ffn_out)
            X = keep(b, "ln2_out", F.layer_norm(residual2, (d,), W["ln2_gamma"], W["ln2_beta"], self.eps))
        kept["logits"] = keep(kept, "logits", X @ W_E_out.T)
        kept["probs"] = torch.softmax(kept["logits"], dim=-1)
        return kept


def numpy(value: torch.Tensor) -> np.ndarray:
    return value.detach().numpy()


def block_differences(ours: dec.DecoderTrace, theirs: dict) -> dict[str, float]:
    diffs = {}
    for b, (block, ref) in enumerate(zip(ours.blocks, theirs["blocks"], strict=True)):
        for name in BLOCK_FIELDS:
            mine, other = getattr(block, name), numpy(ref[name])
            assert mine.shape == other.shape, (b, name)
            diffs[f"blocks[{b}].{name}"] = float(np.max(np.abs(mine - other)))
        diffs[f"blocks[{b}].sdpa"] = float(np.max(np.abs(block.head_out - numpy(ref["sdpa"]))))
    for name in ("logits", "probs"):
        diffs[name] = float(np.max(np.abs(getattr(ours, name) - numpy(theirs[name]))))
    return diffs


# The cases by name: collecting the tests names them only, and the decoder is trained when a test runs (every
# collection of the suite, the fast tier's too, reads this file).
RANDOM_SEEDS = (0, 1, 2)
CASE_NAMES = [f"s{s.number}" for s in preset.SENTENCES] + ["preset, every position"]
CASE_NAMES += [f"random {seed}" for seed in RANDOM_SEEDS]


@functools.cache
def cases() -> dict[str, tuple[dec.Decoder, np.ndarray]]:
    model = dp.decoder_preset()
    out = {f"s{s.number}": (model, dp.sentence_ids(s.number)[:-1]) for s in preset.SENTENCES}
    out["preset, every position"] = (model, np.array([16, 2, 2, 14, 12, 3, 3, 3, 5, 17, 0, 1]))
    for seed in RANDOM_SEEDS:
        m = dp.random_decoder(seed)
        out[f"random {seed}"] = (m, np.random.default_rng(seed).integers(0, m.vocab_size, size=8))
    assert list(out) == CASE_NAMES, "CASE_NAMES must name the cases, in order"
    return out


@pytest.mark.parametrize("name", CASE_NAMES)
def test_every_intermediate_equals_pytorch_and_sdpa_with_is_causal(name):
    model, ids = cases()[name]
    diffs = block_differences(dec.forward(model, ids), TorchDecoder(model).forward(ids))
    assert len(diffs) == model.n_blocks * (len(BLOCK_FIELDS) + 1) + 2  # every intermediate compared
    too_far = {k: v for k, v in diffs.items() if not v <= TOLERANCE}
    assert not too_far, f"{name}: {too_far}"


def test_the_comparison_catches_a_wrong_mask():
    """Without the causal mask, attention and every later value differ by far more than the tolerance."""
    model = dp.decoder_preset()
    ids = dp.sentence_ids(1)[:-1]
    theirs = TorchDecoder(model).forward(ids)
    ours = dec.forward(model, ids)
    unmasked = dec.ops.softmax(ours.blocks[0].scores)
    assert np.max(np.abs(unmasked - numpy(theirs["blocks"][0]["attn"]))) > 1e-3


@pytest.mark.parametrize("name", CASE_NAMES)
def test_the_loss_with_teacher_forcing_equals_pytorch(name):
    model, ids = cases()[name]
    ours = dec.sequence_loss(model, ids)
    logits = TorchDecoder(model).forward(ids[:-1])["logits"]
    theirs = F.cross_entropy(logits, torch.tensor(ids[1:]), reduction="none")
    assert np.max(np.abs(ours.step_losses - numpy(theirs))) <= TOLERANCE
    assert abs(ours.loss - float(theirs.sum())) <= TOLERANCE


# ---------------------------------------------------------------------------------------- gradients

GRADIENT_FIELDS = [
    "d_ln2_out", "d_residual2", "d_ffn_h", "d_ffn_pre", "d_ln1_out", "d_residual1", "d_concat", "d_head_out",
    "d_attn", "d_scores", "d_Q", "d_K", "d_V", "d_X",
]  # fmt: skip


def test_the_gradient_fields_are_every_intermediate_and_every_weight():
    names = {f.name for f in fields(dbw.BlockGradients)}
    assert names == set(GRADIENT_FIELDS) | {f"d_{n}" for n in dec.BLOCK_WEIGHT_NAMES}


@pytest.mark.parametrize("name", CASE_NAMES)
def test_every_gradient_equals_autograd(name):
    model, ids = cases()[name]
    ours = dbw.backward(model, ids)
    ref = TorchDecoder(model, grad=True)
    kept = ref.forward(ids[:-1], keep_grads=True)
    loss = F.cross_entropy(kept["logits"], torch.tensor(ids[1:]), reduction="sum")
    loss.backward()
    diffs = {
        "loss": abs(ours.loss.loss - float(loss.detach())),
        "d_logits": np.max(np.abs(ours.d_logits - numpy(kept["logits"].grad))),
    }
    for b, (mine, theirs) in enumerate(zip(ours.blocks, kept["blocks"], strict=True)):
        for field in GRADIENT_FIELDS:
            node = theirs[field[2:]]
            diffs[f"blocks[{b}].{field}"] = np.max(np.abs(getattr(mine, field) - numpy(node.grad)))
        for weight in dec.BLOCK_WEIGHT_NAMES:
            theirs_w = numpy(ref.blocks[b][weight].grad)
            diffs[f"blocks[{b}].d_{weight}"] = np.max(np.abs(getattr(mine, f"d_{weight}") - theirs_w))
    diffs["d_W_E_input"] = np.max(np.abs(ours.d_W_E_input - numpy(kept["W_E_input"].grad)))
    diffs["d_W_E_output"] = np.max(np.abs(ours.d_W_E_output - numpy(kept["W_E_output"].grad)))
    diffs["d_W_E"] = np.max(np.abs(ours.d_W_E - numpy(ref.W_E.grad)))
    assert len(diffs) == 2 + model.n_blocks * (len(GRADIENT_FIELDS) + len(dec.BLOCK_WEIGHT_NAMES)) + 3
    too_far = {k: float(v) for k, v in diffs.items() if not v <= TOLERANCE}
    assert not too_far, f"{name}: {too_far}"


def test_a_batch_gradient_is_the_sum_of_its_sequences_gradients():
    model = dp.random_decoder(4)
    batch = np.random.default_rng(4).integers(0, model.vocab_size, size=(3, 6))
    together = dbw.backward(model, batch).weight_gradients()
    alone = [dbw.backward(model, row).weight_gradients() for row in batch]
    for name, g in together.items():
        np.testing.assert_allclose(g, sum(a[name] for a in alone), rtol=0, atol=1e-11)


# ---------------------------------------------------------------------------------------- generation


def torch_choice(logits: torch.Tensor, settings: gen.Settings, u: float) -> int:
    """Temperature, top-k, top-p and the draw, with PyTorch's sort, topk and cumsum."""
    p = torch.softmax(logits / settings.temperature, dim=-1)
    if settings.top_k is not None and settings.top_k < p.shape[0]:
        kept = torch.zeros_like(p)
        values, index = torch.topk(p, settings.top_k)
        kept[index] = values
        p = kept / kept.sum()
    if settings.top_p < 1.0:
        sorted_p, order = torch.sort(p, descending=True, stable=True)
        ahead = torch.cumsum(sorted_p, 0) - sorted_p
        kept = torch.zeros_like(p)
        kept[order[ahead < settings.top_p]] = sorted_p[ahead < settings.top_p]
        p = kept / kept.sum()
    cumulative = torch.cumsum(p, 0)
    return int(torch.nonzero((cumulative > u) & (p > 0))[0])


SETTINGS = [
    ("greedy", {"top_k": 1}),
    ("sampled", {"seed": 3}),
    ("hot, nucleus", {"seed": 5, "temperature": 1.7, "top_p": 0.8}),
    ("cold, top-3", {"seed": 9, "temperature": 0.6, "top_k": 3}),
]


@pytest.mark.parametrize(("label", "kwargs"), SETTINGS, ids=[s[0] for s in SETTINGS])
@pytest.mark.parametrize("prompt", ["<bos>", "<bos> 私 私 を", "<bos> これ は 美しい", "<bos> 美しい 花 は"])
def test_generation_with_and_without_the_cache_equals_pytorch_step_by_step(prompt, label, kwargs):
    model = dp.decoder_preset()
    cached = gen.generate(model, prompt, cache=True, **kwargs)
    recomputed = gen.generate(model, prompt, cache=False, **kwargs)
    ref = TorchDecoder(model)
    settings = gen.Settings(**{k: v for k, v in kwargs.items() if k != "seed"})
    tokens = list(cached.prompt)
    for with_cache, without in zip(cached.steps, recomputed.steps, strict=True):
        theirs = ref.forward(np.array(tokens))
        for step in (with_cache, without):
            assert np.max(np.abs(step.choice.logits - numpy(theirs["logits"][-1]))) <= TOLERANCE
            for b, row in enumerate(step.attn):
                assert np.max(np.abs(row - numpy(theirs["blocks"][b]["attn"][:, -1, :]))) <= TOLERANCE
        chosen = torch_choice(theirs["logits"][-1], settings, with_cache.choice.u)
        assert chosen == with_cache.word == without.word, (label, tokens)
        tokens.append(chosen)
    assert tokens == list(cached.tokens) == list(recomputed.tokens)


def test_the_cached_keys_and_values_are_pytorchs():
    model = dp.decoder_preset()
    ids = model.ids("<bos> 私 は 本 を 読む")
    cache = gen.KVCache(model)
    for token in ids:
        cache.append(int(token))
    theirs = TorchDecoder(model).forward(ids)
    for b in range(model.n_blocks):
        assert np.max(np.abs(cache.K[b] - numpy(theirs["blocks"][b]["K"]).transpose(1, 0, 2))) <= TOLERANCE
        assert np.max(np.abs(cache.V[b] - numpy(theirs["blocks"][b]["V"]).transpose(1, 0, 2))) <= TOLERANCE


# ---------------------------------------------------------------------------------------- cross-attention


def torch_cross_attention(X_dec: np.ndarray, memory: np.ndarray, w: xa.CrossAttentionWeights) -> dict[str, np.ndarray]:
    n, m, h = X_dec.shape[0], memory.shape[0], w.n_heads
    d_k = w.W_Q.shape[1] // h
    q = (tensor(X_dec) @ tensor(w.W_Q)).reshape(n, h, d_k).transpose(0, 1)
    k = (tensor(memory) @ tensor(w.W_K)).reshape(m, h, d_k).transpose(0, 1)
    v = (tensor(memory) @ tensor(w.W_V)).reshape(m, h, d_k).transpose(0, 1)
    scores = q @ k.transpose(-1, -2) / math.sqrt(d_k)
    head_out = F.scaled_dot_product_attention(q, k, v).transpose(0, 1)  # no mask
    Y = head_out.reshape(n, h * d_k) @ tensor(w.W_O)
    attn = torch.softmax(scores, -1)
    return {"scores": numpy(scores), "attn": numpy(attn), "head_out": numpy(head_out), "Y": numpy(Y)}


@pytest.mark.parametrize("seed", [None, 0, 1])
def test_cross_attention_equals_pytorch(seed):
    if seed is None:
        example = xa.worked_example()
        X_dec, memory, weights, ours = example.trace.X_dec, example.trace.memory, example.weights, example.trace
    else:
        rng = np.random.default_rng(seed)
        X_dec, memory = rng.normal(size=(3, 12)), rng.normal(size=(7, 12))
        weights = xa.random_weights(12, 4, seed)
        ours = xa.cross_attention(X_dec, memory, weights)
    theirs = torch_cross_attention(X_dec, memory, weights)
    assert ours.attn.shape == (weights.n_heads, X_dec.shape[0], memory.shape[0])
    for name, value in theirs.items():
        assert np.max(np.abs(getattr(ours, name) - value)) <= TOLERANCE, name
