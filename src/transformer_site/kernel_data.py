"""A model value as data for the browser's kernel (docs/assets/javascripts/kernel.js): weights, vocabulary, knobs
and the constants of the formulas, all read from the model (the encoder preset by default), so the kernel
retypes none of them.

The page embeds this as text in a ``<template class="tm-kernel-data">`` (see :mod:`transformer_site.panels`);
the tests load the same dict into Node (tests/kernel/).
"""

from __future__ import annotations

import sys
from dataclasses import fields
from functools import lru_cache

import numpy as np

from transformer_math import ENCODER, Encoder, ops, relations
from transformer_math.block import BlockWeights
from transformer_math.model import Knob


def weights_data(weights: BlockWeights) -> dict[str, list]:
    """Every array of ``weights`` as nested lists of floats (JSON keeps float64 exactly: repr round-trips)."""
    return {f.name: np.asarray(getattr(weights, f.name), dtype=np.float64).tolist() for f in fields(weights)
            if isinstance(getattr(weights, f.name), np.ndarray)}  # fmt: skip


@lru_cache(maxsize=1)
def python_whitespace() -> str:
    """Every character ``str.isspace()`` accepts: the tokenizer splits and strips on exactly these."""
    return "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())


def knob_data(knob: Knob) -> dict:
    return {"name": knob.name, "default": knob.default, "entries": [[f, list(i)] for f, i in knob.entries]}


@lru_cache(maxsize=4)
def kernel_data(model: Encoder = ENCODER) -> dict:
    """Everything the kernel computes ``model`` with: a JSON-able dict (the page embeds it, the tests load it)."""
    weights = model.weights
    return {
        "vocab": list(model.vocab),
        "T": model.T,
        "whitespace": python_whitespace(),
        "weights": weights_data(weights),
        "n_heads": weights.n_heads,
        "eps": weights.eps,
        "knobs": [knob_data(k) for k in model.knobs],
        "constants": {"gelu_cubic": ops.GELU_CUBIC_COEFF, "pe_base": ops.PE_BASE},
        "categories": list(model.categories),
        "bonds": [{"query_dim": b.query_dim, "key_dim": b.key_dim, "head": b.head} for b in model.bonds],
        "firing_threshold": model.firing_threshold,
        "tie_tolerance": relations.TIE_TOLERANCE,
    }
