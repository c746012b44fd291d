"""A model value as data for the browser's kernel (docs/assets/javascripts/kernel.js): weights, vocabulary, knobs
and the constants of the formulas, all read from the model (the encoder preset by default), so the kernel
retypes none of them; and the decoder preset's weights for the kernel's decoder (``decoder_data``).

A panel embeds this as text in a ``<template class="tm-kernel-data">`` (see :mod:`transformer_site.panels`),
which the build moves to a file of its own (:mod:`transformer_site.publishing.panel_data`); the tests load the
same dict into Node (tests/kernel/).
"""

from __future__ import annotations

import sys
from dataclasses import fields
from functools import lru_cache

import numpy as np

from transformer_math import ENCODER, Encoder, ops, relations
from transformer_math.block import BlockWeights
from transformer_math.decoder_model import BLOCK_WEIGHT_NAMES, Decoder, DecoderBlock
from transformer_math.decoder_preset import decoder_preset
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


def decoder_block_data(block: DecoderBlock) -> dict[str, list]:
    """One decoder block under the kernel's names (issue 32's API: gamma1, beta1, gamma2, beta2 for LayerNorm)."""
    names = {"ln1_gamma": "gamma1", "ln1_beta": "beta1", "ln2_gamma": "gamma2", "ln2_beta": "beta2"}
    return {names.get(n, n): np.asarray(getattr(block, n), dtype=np.float64).tolist() for n in BLOCK_WEIGHT_NAMES}


@lru_cache(maxsize=4)
def decoder_data(model: Decoder | None = None) -> dict:
    """Everything the kernel's decoder computes ``model`` (the decoder preset by default) with, as JSON-able data."""
    model = decoder_preset() if model is None else model
    return {
        "vocab": list(model.vocab),
        "heads": model.n_heads,
        "eps": model.eps,
        "bos": model.bos,
        "eos": model.eos,
        "whitespace": python_whitespace(),
        "weights": {
            "W_E": model.W_E.tolist(),
            "W_P": model.W_P.tolist(),
            "blocks": [decoder_block_data(b) for b in model.blocks],
        },
        "constants": {"gelu_cubic": ops.GELU_CUBIC_COEFF},
    }
