"""The decoder: the causal mask, the loss with teacher forcing, its gradients, the preset's training and generation."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from transformer_math import decoder_backward as dbw
from transformer_math import decoder_model as dec
from transformer_math import decoder_preset as dp
from transformer_math import generation as gen
from transformer_math import ops, preset


@pytest.fixture(scope="module")
def model() -> dec.Decoder:
    return dp.decoder_preset()


# ---------------------------------------------------------------------------------------- the forward pass


def test_the_mask_hides_the_future_and_every_row_sums_to_one(model):
    trace = dp.decoder_trace(1)
    for block in trace.blocks:
        T = block.attn.shape[-1]
        assert np.all(block.attn[:, np.triu_indices(T, 1)[0], np.triu_indices(T, 1)[1]] == 0.0)
        np.testing.assert_allclose(block.attn.sum(axis=-1), 1.0, atol=1e-15)
        assert np.all(np.isneginf(block.masked_scores[:, 0, 1:]))
    np.testing.assert_allclose(trace.probs.sum(axis=-1), 1.0, atol=1e-14)
    np.testing.assert_allclose(trace.logits, trace.blocks[-1].ln2_out @ model.W_E.T, atol=0)


def test_block_one_output_is_block_two_input():
    trace = dp.decoder_trace(3)
    np.testing.assert_array_equal(trace.blocks[1].X, trace.blocks[0].ln2_out)
    np.testing.assert_array_equal(trace.X, trace.X_tok + trace.X_pos)


def test_a_prefix_gives_the_same_rows_as_the_longer_input():
    m = dp.random_decoder(0)
    tokens = np.array([7, 1, 4, 4, 2, 0, 6])
    full = dec.forward(m, tokens)
    for t in range(1, len(tokens)):
        part = dec.forward(m, tokens[:t])
        np.testing.assert_allclose(part.logits, full.logits[:t], rtol=0, atol=1e-12)


def test_a_batch_equals_its_rows_one_by_one():
    m = dp.random_decoder(1)
    batch = np.array([[7, 1, 2, 3], [7, 4, 4, 0], [7, 6, 5, 1]])
    together = dec.forward(m, batch)
    for b, row in enumerate(batch):
        alone = dec.forward(m, row)
        np.testing.assert_allclose(together.logits[b], alone.logits, rtol=0, atol=1e-12)
        np.testing.assert_allclose(together.blocks[1].attn[b], alone.blocks[1].attn, rtol=0, atol=1e-14)


def test_teacher_forcing_in_one_pass_equals_the_sum_of_the_steps(model):
    for s in preset.SENTENCES:
        ids = dp.sentence_ids(s.number)
        one_pass = dec.sequence_loss(model, ids)
        steps = dec.step_by_step_losses(model, ids)
        np.testing.assert_allclose(one_pass.step_losses, steps, rtol=0, atol=1e-12)
        assert abs(one_pass.loss - steps.sum()) <= 1e-12


def test_bad_tokens_are_errors_naming_them(model):
    with pytest.raises(ValueError, match=r"tokens\[0\] = 18 is outside the vocabulary 0 … 17"):
        dec.forward(model, [18])
    with pytest.raises(ValueError, match="more than the model's 12 positions"):
        dec.forward(model, [16] * 13)
    with pytest.raises(ValueError, match="non-empty"):
        dec.forward(model, [])
    with pytest.raises(ValueError, match="integer ids"):
        dec.forward(model, [1.0, 2.0])
    with pytest.raises(ValueError, match="unknown word '犬' at position 1"):
        model.ids("<bos> 犬")


def test_a_misshaped_or_broken_model_is_an_error(model):
    with pytest.raises(ValueError, match=r"blocks\[1\]\.W_O must have shape \(16, 16\)"):
        replace(model, blocks=(model.blocks[0], replace(model.blocks[1], W_O=np.zeros((16, 15)))))
    with pytest.raises(ValueError, match="W_E must be finite"):
        replace(model, W_E=np.full(model.W_E.shape, np.nan))
    with pytest.raises(ValueError, match="<bos>"):
        replace(model, vocab=(*model.vocab[:-2], "a", "b"))


# ---------------------------------------------------------------------------------------- the gradients


def test_every_weight_gradient_equals_central_differences():
    """A cheap independent check (the PyTorch test is the exact one): 4 entries of every weight."""
    m = dp.random_decoder(2, d_model=6, h=2, d_ff=8, n_blocks=2, words=4)
    tokens = np.array([[4, 0, 2, 1, 5], [4, 3, 3, 0, 5]])
    grads = dbw.backward(m, tokens).weight_gradients()
    arrays = m.arrays()
    rng = np.random.default_rng(0)
    for name, grad in grads.items():
        for _ in range(4):
            index = tuple(int(rng.integers(0, s)) for s in grad.shape)

            def loss(delta: float, name=name, index=index) -> float:
                changed = {k: v.copy() for k, v in arrays.items()}
                changed[name][index] += delta
                return dec.sequence_loss(dp.with_arrays(m, changed), tokens).loss

            numeric = (loss(1e-6) - loss(-1e-6)) / 2e-6
            assert abs(numeric - grad[index]) < 1e-6 * max(1.0, abs(numeric)), (name, index)


def test_masked_scores_get_no_gradient():
    g = dbw.backward(dp.random_decoder(3), np.array([7, 1, 2, 3, 4]))
    for block in g.blocks:
        upper = np.triu(np.ones(block.d_scores.shape[-2:], dtype=bool), 1)
        assert np.all(block.d_scores[..., upper] == 0.0)
        np.testing.assert_allclose(block.d_scores.sum(axis=-1), 0.0, atol=1e-12)


# ---------------------------------------------------------------------------------------- the preset


def test_greedy_decoding_completes_every_sentence_then_eos(model):
    for s in preset.SENTENCES:
        ids = dp.sentence_ids(s.number)
        prompt = ids[: 1 + dp.PROMPT_WORDS]
        for cache in (True, False):
            out = gen.greedy(model, prompt, cache=cache)
            assert model.words(out.tokens) == (dec.BOS, *s.words, dec.EOS), s.number
            assert out.stopped == "eos"


def test_value_and_output_projections_are_not_identities(model):
    for block in model.blocks:
        for W in (block.W_V, block.W_O):
            assert np.max(np.abs(W - np.eye(model.d_model))) > 0.5


def test_training_is_deterministic_and_its_start_is_the_full_runs_start():
    a, b = dp.train_decoder(steps=3), dp.train_decoder(steps=3)
    np.testing.assert_array_equal(a.losses, b.losses)
    for name, value in a.trained.arrays().items():
        np.testing.assert_array_equal(value, b.trained.arrays()[name])
    np.testing.assert_array_equal(a.losses, dp.training_run().losses[:4])


def test_the_loss_falls_to_the_entropy_of_the_sentence_starts():
    run = dp.training_run()
    assert run.losses[0] > 4 and run.final_loss < 0.36
    # the first word is one of 5 with frequencies 3, 2, 1, 1, 1 out of 8, the third after 私 は one of 3, after
    # これ は one of 2: no model does better than this entropy, averaged over the 48 positions
    floor = (-sum(c / 8 * np.log(c / 8) for c in (3, 2, 1, 1, 1)) * 8 + 3 * np.log(3) + 2 * np.log(2)) / 48
    assert floor < run.final_loss < floor + 0.01
    assert run.lr.shape == (dp.STEPS,) and int(np.argmax(run.lr)) + 1 == dp.WARMUP


def test_the_preset_is_read_only(model):
    for name, value in model.arrays().items():
        assert not value.flags.writeable, name


# ---------------------------------------------------------------------------------------- generation


def test_mulberry32_gives_the_numbers_of_its_javascript_form():
    # printed by the 32-bit JavaScript generator (Math.imul, >>>) for seeds 0 and 2³² − 1
    first = [0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]
    assert list(itertools.islice(gen.uniforms(0), 3)) == first
    assert list(itertools.islice(gen.uniforms(2**32 - 1), 2)) == [0.8964226141106337, 0.189478256739676]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"prompt": []}, "prompt must hold at least one word"),
        ({"prompt": "<bos> 犬"}, "prompt: unknown word '犬' at position 1"),
        ({"prompt": ["<bos>"] * 13}, "prompt holds 13 words, more than the model's 12 positions"),
        ({"temperature": 0}, "temperature must be a finite number > 0"),
        ({"temperature": -1.0}, "temperature"),
        ({"temperature": float("nan")}, "temperature"),
        ({"top_p": 0.0}, r"top_p must be a number in \(0, 1\]"),
        ({"top_p": 1.5}, "top_p"),
        ({"top_k": 0}, "top_k must be an integer ≥ 1"),
        ({"top_k": 2.5}, "top_k"),
        ({"steps": 0}, "steps must be an integer ≥ 1"),
        ({"seed": -1}, "seed must be an integer"),
        ({"cache": "yes"}, "cache must be True or False"),
    ],
)
def test_bad_input_to_generate_is_an_error_naming_the_argument(model, kwargs, message):
    args = {"prompt": "<bos> これ は", **kwargs}
    prompt = args.pop("prompt")
    with pytest.raises(ValueError, match=message):
        gen.generate(model, prompt, **args)


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "prompt must hold at least one word"), (" \u3000\t", "prompt must hold at least one word"),
     ("これ 犬", "prompt: unknown word '犬' at position 2"), (" ".join(["猫"] * 12), "prompt holds 13 words")],
)  # fmt: skip
def test_a_prompt_typed_as_text_is_bos_and_its_words_or_an_error_naming_it(model, text, message):
    assert gen.prompt_ids(model, "\u3000これ は\t美しい ").tolist() == model.ids("<bos> これ は 美しい").tolist()
    with pytest.raises(ValueError, match=message):
        gen.prompt_ids(model, text)


def test_top_k_and_top_p_keep_what_they_say():
    p = np.array([0.05, 0.4, 0.3, 0.2, 0.05])
    np.testing.assert_allclose(gen.top_k_filter(p, 2), [0, 0.4 / 0.7, 0.3 / 0.7, 0, 0])
    assert np.count_nonzero(gen.top_k_filter(p, 3)) == 3 and np.array_equal(gen.top_k_filter(p, 9), p)
    np.testing.assert_allclose(gen.top_p_filter(p, 0.7), [0, 0.4 / 0.7, 0.3 / 0.7, 0, 0])  # 0.4 + 0.3 reaches 0.7
    assert np.count_nonzero(gen.top_p_filter(p, 0.71)) == 3
    assert np.count_nonzero(gen.top_p_filter(p, 0.01)) == 1  # the most probable word is always kept
    tie = np.array([0.25, 0.25, 0.25, 0.25])
    np.testing.assert_array_equal(gen.top_k_filter(tie, 1), [1.0, 0, 0, 0])  # ties go to the smaller id


def test_draw_follows_the_cumulative_distribution():
    p = np.array([0.0, 0.5, 0.0, 0.25, 0.25])
    assert [gen.draw(p, u) for u in (0.0, 0.49, 0.5, 0.74, 0.75, 0.999999)] == [1, 1, 3, 3, 4, 4]
    assert gen.draw(np.array([0.5, 0.5 - 1e-17, 0.0]), 0.9999999999999999) == 1  # never a word of p = 0


def test_temperature_keeps_the_order_and_greedy_ignores_the_seed(model):
    z = dec.forward(model, model.ids("<bos> 私 は")).logits[-1]
    order = gen.order_by_probability(ops.softmax(z))
    for tau in (0.3, 1.0, 3.0):
        choice = gen.choose(z, gen.Settings(temperature=tau), 0.5)
        np.testing.assert_array_equal(gen.order_by_probability(choice.tempered), order)
    assert len({tuple(gen.generate(model, "<bos> 私 は", top_k=1, seed=s).tokens) for s in range(5)}) == 1


def test_a_seed_gives_the_same_draws_and_another_seed_other_words(model):
    a = gen.generate(model, ["<bos>"], seed=11, temperature=1.5)
    b = gen.generate(model, ["<bos>"], seed=11, temperature=1.5)
    np.testing.assert_array_equal(a.tokens, b.tokens)
    outputs = {tuple(gen.generate(model, ["<bos>"], seed=s).tokens) for s in range(8)}
    assert len(outputs) > 1


def test_generation_stops_at_the_last_position_and_after_steps(model):
    full = gen.generate(model, "<bos> 私 私 を", top_k=1)
    assert full.stopped in ("positions", "eos") and len(full.tokens) <= model.n_positions
    short = gen.generate(model, "<bos> 私", top_k=1, steps=2)
    assert short.stopped == "steps" and len(short.generated) == 2


def test_the_cache_gives_the_same_words_and_distributions_as_recomputing(model):
    for prompt, kwargs in itertools.product(("<bos>", "<bos> 私 私 を", "<bos> これ は 美しい"), (
        {"top_k": 1}, {"seed": 3}, {"seed": 5, "temperature": 2.0, "top_p": 0.9},
    )):  # fmt: skip
        a = gen.generate(model, prompt, cache=True, **kwargs)
        b = gen.generate(model, prompt, cache=False, **kwargs)
        np.testing.assert_array_equal(a.tokens, b.tokens)
        for sa, sb in zip(a.steps, b.steps, strict=True):
            np.testing.assert_allclose(sa.choice.logits, sb.choice.logits, rtol=0, atol=1e-12)
            for x, y in zip(sa.attn, sb.attn, strict=True):
                np.testing.assert_allclose(x, y, rtol=0, atol=1e-12)


def test_a_full_cache_is_an_error(model):
    cache = gen.KVCache(model)
    for _ in range(model.n_positions):
        cache.append(model.bos)
    with pytest.raises(ValueError, match="the cache is full"):
        cache.append(model.bos)


# ---------------------------------------------------------------------------------------- counting multiplications


class Counted(np.ndarray):
    """An array whose matrix products add their multiply-adds to ``Counted.total`` (read off the operands)."""

    total = 0

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = [np.asarray(x) if isinstance(x, Counted) else x for x in inputs]
        if ufunc is np.matmul and method == "__call__":
            a, b = (x if x.ndim > 1 else (x[None, :] if i == 0 else x[:, None]) for i, x in enumerate(plain[:2]))
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            Counted.total += int(np.prod(batch, dtype=np.int64)) * a.shape[-2] * a.shape[-1] * b.shape[-1]
        result = getattr(ufunc, method)(*plain, **kwargs)
        return result.view(Counted) if isinstance(result, np.ndarray) else result  # products of products count too


def counted(model: dec.Decoder) -> dec.Decoder:
    return dp.with_arrays(model, {name: value.view(Counted) for name, value in model.arrays().items()})


@pytest.fixture
def counting(monkeypatch):
    """softmax converts its input to a plain array; its output must stay counted for attn · V to count."""
    plain = ops.softmax
    monkeypatch.setattr(ops, "softmax", lambda z, axis=-1: plain(z, axis).view(Counted))


def test_the_counted_multiplications_are_those_the_code_runs(model, counting):
    m = counted(model)
    for length in (1, 4, 9):
        tokens = np.arange(length) % model.vocab_size
        Counted.total = 0
        dec.forward(m, tokens)
        assert Counted.total == gen.step_multiplies(model, length, cache=False)
        cache = gen.KVCache(m)
        for t in tokens[:-1]:
            cache.append(int(t))
        Counted.total = 0
        cache.append(int(tokens[-1]))
        assert Counted.total == gen.step_multiplies(model, length, cache=True)


def test_a_whole_generation_costs_what_generation_multiplies_says(model, counting):
    m = counted(model)
    for cache in (True, False):
        Counted.total = 0
        out = gen.generate(m, "<bos> 私 私 を", top_k=1, cache=cache)
        assert Counted.total == gen.generation_multiplies(model, len(out.prompt), len(out.generated), cache)
    assert gen.generation_multiplies(model, 4, 8, True) < gen.generation_multiplies(model, 4, 8, False)


# ---------------------------------------------------------------------------------------- the model value


def test_the_decoder_is_a_model_value_like_the_encoder(model):
    from transformer_math import ENCODER, Model

    assert isinstance(model, Model) and model.name == dp.NAME
    assert (model.d_model, model.h, model.d_k, model.d_ff) == (ENCODER.d_model, ENCODER.h, ENCODER.d_k, ENCODER.d_ff)
    assert model.vocab[: ENCODER.vocab_size] == ENCODER.vocab and model.vocab[-2:] == (dec.BOS, dec.EOS)
    assert len(model.sentences) == len(ENCODER.sentences) and model.T == ENCODER.T + 2
    assert model.sentence(3).words == (dec.BOS, *ENCODER.sentence(3).words, dec.EOS)
    trace = model.trace(2)  # the whole sentence, <eos> included, cached on the value
    assert trace is model.trace(2) and np.array_equal(trace.logits[:-1], dp.decoder_trace(2).logits)


def test_a_decoder_is_built_and_trained_on_another_encoders_words_and_sentences():
    from second_model import SECOND

    run = dp.train_decoder(steps=2, encoder=SECOND)
    m = run.trained
    assert m.vocab == (*SECOND.vocab, dec.BOS, dec.EOS) and m.T == SECOND.T + 2
    assert run.losses.shape == (3,) and np.all(np.isfinite(run.losses))
    assert gen.greedy(m, [dec.BOS, SECOND.vocab[0]], steps=2).generated.shape == (2,)
