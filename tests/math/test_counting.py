"""Parameter and multiply counts against totals published for the reference checkpoints."""

from __future__ import annotations

import dataclasses

import pytest

from transformer_math import configs, counting


def test_bert_totals_equal_the_reference_checkpoints():
    base, large = counting.bert_params(configs.BERT_BASE), counting.bert_params(configs.BERT_LARGE)
    assert base.total == 109_482_240
    assert large.total == 335_141_888
    # the parts, by hand for base: (30522 + 512 + 2)·768 + 2·768; 768² + 768
    assert base["embeddings"] == (30522 + 512 + 2) * 768 + 2 * 768
    assert base["pooler"] == 768 * 768 + 768
    assert base["layers"] == 12 * (4 * (768 * 768 + 768) + 2 * (768 * 3072) + 3072 + 768 + 4 * 768)


def test_bert_without_pooler_drops_one_dense_layer():
    no_pooler = dataclasses.replace(configs.BERT_BASE, pooler=False)
    assert counting.bert_params(no_pooler).total == 109_482_240 - (768 * 768 + 768)


@pytest.mark.parametrize(
    ("config", "total"),
    [
        # totals of the released checkpoints (tied output layer counted once)
        (configs.GPT1, 116_534_784),
        (configs.GPT2_SMALL, 124_439_808),
        (configs.GPT2_MEDIUM, 354_823_168),
        (configs.GPT2_LARGE, 774_030_080),
        (configs.GPT2_XL, 1_557_611_200),
    ],
    ids=lambda v: getattr(v, "name", v),
)
def test_gpt_totals(config, total):
    assert counting.gpt_params(config).total == total


def test_gpt3_is_about_175_billion():
    total = counting.gpt_params(configs.GPT3_175B).total
    assert abs(total - 175e9) / 175e9 < 0.01
    assert total == 96 * (12 * 12288**2 + 13 * 12288) + (50257 + 2048) * 12288 + 2 * 12288


def test_untied_output_layer_adds_vocab_times_d_model():
    untied = dataclasses.replace(configs.GPT2_SMALL, tied_embeddings=False)
    assert counting.gpt_params(untied).total == 124_439_808 + 50257 * 768


def test_block_of_512_2048_has_3_145_728_weights():
    assert counting.block_params(512, 2048, bias=False, layer_norm=False) == 4 * 512**2 + 2 * 512 * 2048 == 3_145_728
    assert counting.block_params(512, 2048) == 3_145_728 + 4 * 512 + 2048 + 512 + 4 * 512
    assert counting.attention_params(512, 8) == counting.attention_params(512, 1) == 4 * (512 * 512 + 512)
    assert counting.attention_params(512, 8, d_k=32, bias=False) == 4 * 512 * 256
    assert counting.ffn_params(512, 2048, bias=False) == 2 * 512 * 2048
    assert counting.encoder_stack_params(512, 2048, 6) == 6 * counting.block_params(512, 2048)


def test_original_transformer_counts_the_shared_embedding_once():
    count = counting.transformer_params(configs.TRANSFORMER_BASE)
    assert count["embeddings"] == 37000 * 512
    assert count["decoder"] == 6 * (2 * 4 * (512 * 512 + 512) + 2 * 512 * 2048 + 2048 + 512 + 3 * 2 * 512)
    # Table 3 of the paper gives 65 × 10⁶ for base and 213 × 10⁶ for big: the same order, a few % apart
    assert abs(count.total - 65e6) / 65e6 < 0.05
    assert abs(counting.transformer_params(configs.TRANSFORMER_BIG).total - 213e6) / 213e6 < 0.05


def test_perceptron_against_block_rough_and_exact():
    assert counting.perceptron_params() == 512**4 == 68_719_476_736 == 64 * 2**30
    assert counting.perceptron_params(bias=True) == 512**4 + 512**2
    # the notes' estimate: block ≈ 2 Mi, so 64 Gi / 2 Mi = 32·1024
    assert counting.ROUGH_PERCEPTRON_ESTIMATE / counting.ROUGH_BLOCK_ESTIMATE == counting.ROUGH_RATIO == 32_768
    # exact: the block has 3 Mi weights, so the ratio is 64 Gi / 3 Mi = 65536 / 3
    assert counting.perceptron_to_block_ratio() == pytest.approx(65536 / 3, rel=1e-15)


def test_attention_multiplies_self_against_cross_with_one_query():
    n, d = 100, 64
    self_attn = counting.attention_multiplies(n, n, d)
    cross_one = counting.attention_multiplies(1, n, d)
    assert self_attn["q_projection"] == n * d * d and cross_one["q_projection"] == d * d
    assert self_attn["k_projection"] == cross_one["k_projection"] == n * d * d
    assert self_attn["scores"] == self_attn["weighted_sum"] == n * n * d
    assert cross_one["scores"] == n * d
    assert counting.projection_multiplies(3, 8, 2) == 48


def test_table1_multiplies():
    n, d = 50, 512
    assert counting.self_attention_multiplies(n, d) == n * n * d
    assert counting.recurrent_multiplies(n, d) == n * d * d
    assert counting.convolutional_multiplies(n, d, 5) == 5 * n * d * d
    assert counting.restricted_attention_multiplies(n, d, 8) == 8 * n * d
    assert counting.ffn_multiplies(n, d, 2048) == 2 * n * d * 2048
    rows = {row.kind: row for row in counting.LAYER_COMPLEXITY}
    assert rows["convolutional"].multiplies(n, d, k=5) == 5 * n * d * d
    assert rows["restricted"].multiplies(n, d, r=8) == 8 * n * d


@pytest.mark.parametrize(("n", "d"), [(10, 512), (511, 512), (512, 512), (513, 512), (4096, 512)])
def test_self_attention_is_cheaper_than_recurrence_exactly_when_n_below_d(n, d):
    sa, rnn = counting.self_attention_multiplies(n, d), counting.recurrent_multiplies(n, d)
    assert (sa < rnn) == (n < d) and (sa == rnn) == (n == d)


def test_sequential_operations_and_max_path_length():
    rows = {row.kind: row for row in counting.LAYER_COMPLEXITY}
    assert [rows[k].sequential_operations(512) for k in rows] == [1, 512, 1, 1]
    assert rows["self_attention"].max_path_length(512) == 1
    assert rows["recurrent"].max_path_length(512) == 512
    assert rows["convolutional"].max_path_length(9, k=3) == 2  # 3² = 9 reached in two layers
    assert rows["convolutional"].max_path_length(10, k=3) == 3
    assert rows["restricted"].max_path_length(512, r=16) == 32
    assert rows["recurrent"].complexity == r"O(n \cdot d^2)"
    assert counting.layer_complexity("restricted").max_path == "O(n/r)"


def test_counting_errors_name_the_argument():
    with pytest.raises(ValueError, match=r"d_model must be a positive integer, got 0"):
        counting.block_params(0, 2048)
    with pytest.raises(ValueError, match=r"n_layers must be a positive integer, got -1"):
        counting.encoder_stack_params(512, 2048, -1)
    with pytest.raises(ValueError, match=r"k must be a positive integer, got 0"):
        counting.convolutional_multiplies(10, 8, 0)
    with pytest.raises(ValueError, match=r"k must be at least 2 for a dilated stack, got 1"):
        counting.layer_complexity("convolutional").max_path_length(10, k=1)
    with pytest.raises(ValueError, match=r"kind must be one of \['self_attention', .*got 'lstm'"):
        counting.layer_complexity("lstm")
    with pytest.raises(KeyError, match=r"BERT-base has no part 'decoder'"):
        counting.bert_params(configs.BERT_BASE)["decoder"]


def test_config_values_from_the_papers():
    t = configs.TRANSFORMER_BASE
    assert (t.d_model, t.h, t.d_k, t.d_v, t.d_ff, t.N, t.vocab_size) == (512, 8, 64, 64, 2048, 6, 37000)
    assert (t.dropout, t.label_smoothing, t.adam_beta1, t.adam_beta2, t.adam_eps, t.warmup_steps) == (
        0.1, 0.1, 0.9, 0.98, 1e-9, 4000,
    )  # fmt: skip
    assert (configs.BERT_LARGE.L, configs.BERT_LARGE.H, configs.BERT_LARGE.A) == (24, 1024, 16)
    assert all(b.intermediate_size == 4 * b.H for b in configs.BERT_MODELS)
    g3 = configs.GPT3_175B
    assert (g3.n_layers, g3.d_model, g3.n_heads, g3.d_head, g3.vocab_size, g3.n_ctx) == (
        96,
        12288,
        96,
        128,
        50257,
        2048,
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.d_model = 1024  # type: ignore[misc]


def test_config_errors():
    with pytest.raises(ValueError, match=r"n_heads·d_k and n_heads·d_v must equal d_model = 512, got 8·32 and 8·64"):
        dataclasses.replace(configs.TRANSFORMER_BASE, d_k=32)
    with pytest.raises(ValueError, match=r"BERT-base: hidden_size 768 is not divisible by 5 heads"):
        dataclasses.replace(configs.BERT_BASE, num_heads=5)
    with pytest.raises(ValueError, match=r"GPT-2 XL: d_model 1600 is not divisible by 3 heads"):
        dataclasses.replace(configs.GPT2_XL, n_heads=3)
