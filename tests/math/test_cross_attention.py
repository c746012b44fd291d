"""Cross-attention (queries from one sequence, keys and values from another) against a reference written
cell by cell: the decoder's second sublayer is the only place where x_q and x_kv differ, and self-attention
tests cannot tell which side V is taken from (found by benchmarks/mutation.py)."""

from __future__ import annotations

import math

import numpy as np

from transformer_math import ops


def reference_cross_attention(x_q, x_kv, W_Q, W_K, W_V, W_O, h):
    """out[i] = Σ_head Σ_j attn[head, i, j] · (x_kv[j] @ W_V)[head block] @ W_O[head block rows], by loops."""
    n, m, width = x_q.shape[0], x_kv.shape[0], W_Q.shape[1]
    d_k = width // h
    concat = np.zeros((n, width))
    for head in range(h):
        cols = slice(head * d_k, (head + 1) * d_k)
        for i in range(n):
            q = x_q[i] @ W_Q[:, cols]
            scores = [float(q @ (x_kv[j] @ W_K[:, cols])) / math.sqrt(d_k) for j in range(m)]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            total = sum(weights)
            for j in range(m):
                concat[i, cols] += weights[j] / total * (x_kv[j] @ W_V[:, cols])
    return concat @ W_O


def test_cross_attention_takes_keys_and_values_from_the_other_sequence():
    rng = np.random.default_rng(7)
    d, h, n, m = 8, 2, 3, 5  # n ≠ m: the output has the queries' length, the weights the keys' length
    x_q, x_kv = rng.normal(size=(n, d)), rng.normal(size=(m, d))
    W_Q, W_K, W_V, W_O = (rng.normal(size=(d, d)) for _ in range(4))
    out = ops.multi_head_attention(x_q, x_kv, W_Q, W_K, W_V, W_O, h)
    assert out.shape == (n, d)
    np.testing.assert_allclose(out, reference_cross_attention(x_q, x_kv, W_Q, W_K, W_V, W_O, h), rtol=0, atol=1e-12)
