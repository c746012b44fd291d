"""attention, positional, activations and stack: the chapter experiments, each checked by another route."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_math import activations, attention, counting, ops, positional, stack
from transformer_math.configs import TRANSFORMER_BASE
from transformer_pages.chapter import add_norm as ADDN
from transformer_pages.chapter import attention_kinds as KINDS
from transformer_pages.chapter import ffn as CFFN
from transformer_pages.chapter import multi_head as MH
from transformer_pages.chapter import overview as OV
from transformer_pages.chapter import positional_encoding as PE

# ------------------------------------------------------------------------------------------- masks


def test_mask_before_softmax_rows_sum_to_one_and_zeroing_after_loses_the_future_weight():
    m = KINDS.mask()
    np.testing.assert_allclose(m.row_sums_before, 1.0, atol=1e-15)
    # what zeroing drops is exactly what the unmasked softmax had put on j > i
    unmasked = ops.softmax(m.scores)
    dropped = np.array([unmasked[i, i + 1 :].sum() for i in range(len(unmasked))])
    np.testing.assert_allclose(m.row_sums_zeroed, 1.0 - dropped, atol=1e-15)
    assert m.row_sums_zeroed[:-1].max() < 1.0  # every row but the last lost something
    assert m.masked_before[np.triu_indices(len(unmasked), k=1)].max() == 0.0
    assert m.renormalise_gap < 1e-15
    assert m.large_negative_gap < 1e-15


def test_mask_uses_the_preset_scores():
    from transformer_math import preset_trace

    np.testing.assert_array_equal(KINDS.mask().scores, preset_trace(KINDS.MASK_SENTENCE).scores[0])


def test_compare_mask_placement_rejects_non_square():
    with pytest.raises(ValueError, match=r"square \(T, T\), got shape \(2, 3\)"):
        attention.compare_mask_placement(np.zeros((2, 3)))


def test_padding_mask_hides_padding_completely():
    p = KINDS.padding()
    assert p.weight_on_padding == 0.0
    np.testing.assert_allclose(p.weights.sum(axis=-1), 1.0, atol=1e-15)
    assert p.out_change_masked == 0.0
    assert p.out_change_unmasked > 0.1
    assert (p.weight_on_padding_unmasked > 0).all()


@pytest.mark.parametrize("n_valid", [0, 6, 7])
def test_padding_demo_rejects_bad_n_valid(n_valid):
    with pytest.raises(ValueError, match=f"n_valid must be in 1 … T − 1 = 5, got {n_valid}"):
        attention.padding_demo(T=6, n_valid=n_valid, d_k=8, seed=0)


# ------------------------------------------------------------------------------------------- √d_k


def test_scaling_stats_follow_sqrt_d_k():
    for d_k, s in KINDS.scaling().items():
        assert s.score_std_unscaled == pytest.approx(np.sqrt(d_k), rel=0.05)
        assert s.score_std_scaled == pytest.approx(1.0, rel=0.05)
    big = KINDS.scaling()[TRANSFORMER_BASE.d_k]
    assert big.max_weight_unscaled > 2 * big.max_weight_scaled


# ------------------------------------------------------------------------------------------- heads


@pytest.mark.parametrize(("n", "m", "h"), [(4, 4, 1), (4, 4, 8), (3, 5, 8), (7, 2, 4)])
def test_counted_macs_equal_the_closed_form_of_counting(n, m, h):
    run = attention.run_attention(n, m, 64, h, seed=0)
    assert run.total_macs == sum(counting.attention_multiplies(n, m, 64).values())
    assert run.softmax_entries == h * n * m


def test_cross_attention_shapes():
    c, d, h = KINDS.cross(), TRANSFORMER_BASE.d_model, TRANSFORMER_BASE.n_heads
    n, m = KINDS.CROSS_N, KINDS.CROSS_M
    assert c.shapes["Q"] == (h, n, d // h)
    assert c.shapes["K"] == c.shapes["V"] == (h, m, d // h)
    assert c.shapes["scores"] == (h, n, m)
    assert c.shapes["out"] == (n, d)


def test_one_head_and_h_heads_cost_the_same_multiplies():
    h = TRANSFORMER_BASE.n_heads
    for n in MH.HEAD_COST_LENGTHS:
        one, many = MH.head_cost()[(n, 1)], MH.head_cost()[(n, h)]
        assert one.macs == many.macs
        assert many.softmax_entries == h * one.softmax_entries


@pytest.mark.parametrize(("n", "m", "h"), [(4, 4, 1), (3, 5, 8), (16, 16, 4)])
def test_dry_run_counts_and_shapes_equal_the_executed_run(n, m, h):
    real, dry = (
        attention.run_attention(n, m, 64, h, seed=0),
        attention.run_attention(n, m, 64, h, seed=0, execute=False),
    )
    assert dry.macs == real.macs
    assert dry.shapes == real.shapes
    assert dry.softmax_entries == real.softmax_entries
    assert not np.any(dry.attn)  # the dry run really skipped the arithmetic


def test_head_cost_is_a_dry_run_of_the_base_sizes():
    d = TRANSFORMER_BASE.d_model
    for (n, h), run in MH.head_cost().items():
        assert run.shapes["X_dec"] == (n, d)
        assert run.shapes["Q"] == (h, n, d // h)


def test_run_attention_rejects_indivisible_heads():
    with pytest.raises(ValueError, match="h = 3 must divide d_model = 16"):
        attention.run_attention(2, 2, 16, 3, seed=0)


# ------------------------------------------------------------------------------------------- PE


def test_pe_rotation_identity_holds_numerically():
    assert PE.rotation_error() < 1e-12
    assert positional.pe_rotation_error(16, 8, (3,)) < 1e-13


def test_pe_rotation_error_detects_a_wrong_rotation(monkeypatch):
    monkeypatch.setattr(
        ops,
        "pe_rotation",
        lambda omega, k: np.array([[np.cos(omega * k), -np.sin(omega * k)], [np.sin(omega * k), np.cos(omega * k)]]),
    )
    assert positional.pe_rotation_error(16, 8, (3,)) > 0.1


@pytest.mark.parametrize("k", [0, 1, 7, 100])
def test_pe_offset_dot_depends_only_on_the_offset(k):
    dots = positional.pe_offset_dot(50, 64, k)
    np.testing.assert_allclose(dots, positional.pe_offset_dot_formula(64, k), atol=1e-12)


def test_pe_norms_are_sqrt_half_d_model():
    np.testing.assert_allclose(positional.pe_norms(300, 64), np.sqrt(32), atol=1e-12)


def test_embedding_scale():
    e = OV.embedding()
    assert e.embedding_norm == pytest.approx(1.0, rel=0.02)
    assert e.scaled_norm == pytest.approx(np.sqrt(e.d_model), rel=0.02)
    assert e.pe_norm == pytest.approx(np.sqrt(e.d_model / 2), abs=1e-12)


# ------------------------------------------------------------------------------------------- FFN


def test_ffn_is_position_wise():
    assert CFFN.position_wise_gap() < 1e-12


def test_gelu_derivative_matches_central_differences():
    x = np.linspace(-4, 4, 81)
    fd = (ops.gelu(x + 1e-6) - ops.gelu(x - 1e-6)) / 2e-6
    np.testing.assert_allclose(activations.gelu_derivative(x), fd, atol=1e-8)


def test_gelu_minimum_against_a_grid():
    a = CFFN.activations_compared()
    grid = np.linspace(-3, 0, 300_001)
    values = ops.gelu(grid)
    assert a.gelu_min == pytest.approx(values.min(), abs=1e-10)
    assert a.gelu_argmin == pytest.approx(grid[values.argmin()], abs=1e-4)
    assert a.relu_zero_fraction == pytest.approx(0.5, abs=0.01)
    assert a.gelu_zero_fraction == 0.0
    assert a.gelu_negative_fraction == a.relu_zero_fraction  # negative inputs: GELU < 0, ReLU = 0


# ------------------------------------------------------------------------------------------- Post-LN vs Pre-LN


def test_post_ln_stream_is_normalised_and_pre_ln_stream_grows():
    ln = ADDN.ln()
    np.testing.assert_allclose(ln.activation_rms["post"], 1.0, atol=1e-4)
    assert (np.diff(ln.activation_rms["pre"]) > 0).all()
    for w in stack.WIRINGS:
        assert ln.grad_norm[w].mean() == pytest.approx(1.0)  # profiles are normalised by their mean


def test_forward_stack_rejects_unknown_wiring():
    W = stack.random_stack(1, 8, 2, 16, seed=0)
    with pytest.raises(ValueError, match="wiring must be one of"):
        stack.forward_stack(np.zeros((3, 8)), W, "middle")


def test_random_stack_rejects_bad_sizes():
    with pytest.raises(ValueError, match=r"need n_layers ≥ 1 and h \| d_model, got 2, h=3, d_model=10"):
        stack.random_stack(2, 10, 3, 16, seed=0)


@pytest.mark.parametrize("wiring", stack.WIRINGS)
def test_backprop_gradients_match_central_differences(wiring):
    n_layers, d, h, d_ff, T = 4, 12, 3, 24, 5
    W = stack.random_stack(n_layers, d, h, d_ff, seed=5)
    rng = np.random.default_rng(6)
    x0, r = rng.standard_normal((T, d)), rng.standard_normal((T, d))
    ours = stack.ffn_output_gradients(x0, W, wiring, r)
    numeric = stack.numeric_ffn_output_gradients(x0, W, wiring, r)
    for a, b in zip(ours, numeric, strict=True):
        np.testing.assert_allclose(a, b, atol=1e-7)
    assert max(np.abs(b).max() for b in numeric) > 0.1  # not a comparison of zeros


@pytest.mark.parametrize("wiring", stack.WIRINGS)
@pytest.mark.torch
def test_backprop_gradients_match_torch_autograd(wiring):
    torch = pytest.importorskip("torch", reason="torch (the optional cross-check extra) is not installed")
    n_layers, d, h, d_ff, T = 3, 8, 2, 16, 4
    W = stack.random_stack(n_layers, d, h, d_ff, seed=3)
    rng = np.random.default_rng(4)
    x0, r = rng.standard_normal((T, d)), rng.standard_normal((T, d))
    ours = stack.ffn_weight_gradient_norms(x0, W, wiring, r)

    t = {k: torch.tensor(getattr(W, k), dtype=torch.float64) for k in ("W_Q", "W_K", "W_V", "W_O", "W1")}
    W2 = torch.tensor(W.W2, dtype=torch.float64, requires_grad=True)
    ln = lambda a: torch.nn.functional.layer_norm(a, (d,), eps=ops.LAYER_NORM_EPS)  # noqa: E731

    def attend(a, layer):
        q, k, v = (a @ t[n][layer] for n in ("W_Q", "W_K", "W_V"))
        split = lambda z: z.reshape(T, h, d // h).transpose(0, 1)  # noqa: E731
        out = torch.nn.functional.scaled_dot_product_attention(split(q), split(k), split(v))
        return out.transpose(0, 1).reshape(T, d) @ t["W_O"][layer]

    def ffn(a, layer):
        return torch.relu(a @ t["W1"][layer]) @ W2[layer]

    x = torch.tensor(x0, dtype=torch.float64)
    for layer in range(n_layers):
        if wiring == "post":
            x = ln(x + attend(x, layer))
            x = ln(x + ffn(x, layer))
        else:
            x = x + attend(ln(x), layer)
            x = x + ffn(ln(x), layer)
    out = x if wiring == "post" else ln(x)
    (out * torch.tensor(r, dtype=torch.float64)).sum().backward()
    theirs = W2.grad.norm(dim=(1, 2)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_relative_update_is_update_size_over_stream_size():
    ln = ADDN.ln()
    for w in stack.WIRINGS:
        # ‖b − a‖/‖a‖ = RMS(b − a)/RMS(a) for blocks after the first (the input's RMS is not stored)
        np.testing.assert_allclose(
            ln.relative_update[w][1:], ln.update_rms[w][1:] / ln.activation_rms[w][:-1], rtol=1e-12
        )
    assert ln.update_rms["pre"].max() / ln.update_rms["pre"].min() < 2
    assert ln.activation_rms["pre"][-1] / ln.activation_rms["pre"][0] > 2
