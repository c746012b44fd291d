"""BERT's masked-language-model corruption (Devlin et al. 2019, §3.1 "Task #1: Masked LM").

15 % of the positions are selected for prediction; of those, 80 % become [MASK], 10 % a random
token and 10 % stay unchanged, so the model cannot rely on [MASK] (which never occurs when fine-tuning)
to know where to predict. As in the reference ``create_pretraining_data.py`` (google-research/bert),
the number selected is round(15 % of the candidates), at least 1, and special tokens are never selected.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

MLM_SELECT_RATE = 0.15
MLM_MASK_RATE = 0.8
MLM_RANDOM_RATE = 0.1
MLM_KEEP_RATE = 0.1
IGNORE_LABEL = -100  # label of positions not selected: no loss there (PyTorch's ignore_index default)

# What happened to each position.
NOT_SELECTED, MASKED, RANDOM, UNCHANGED = 0, 1, 2, 3


@dataclass(frozen=True)
class MLMResult:
    """The corrupted input, the labels the loss uses, and what happened at each position."""

    input_ids: np.ndarray  # (n,) the ids the model sees
    labels: np.ndarray  # (n,) the original id where selected, IGNORE_LABEL elsewhere
    action: np.ndarray  # (n,) NOT_SELECTED / MASKED / RANDOM / UNCHANGED

    @property
    def selected(self) -> np.ndarray:
        return self.action != NOT_SELECTED

    @property
    def n_selected(self) -> int:
        return int(np.count_nonzero(self.selected))

    @property
    def n_masked(self) -> int:
        return int(np.count_nonzero(self.action == MASKED))

    @property
    def n_random(self) -> int:
        return int(np.count_nonzero(self.action == RANDOM))

    @property
    def n_unchanged(self) -> int:
        return int(np.count_nonzero(self.action == UNCHANGED))

    @property
    def counts(self) -> dict[str, int]:
        return {
            "selected": self.n_selected,
            "masked": self.n_masked,
            "random": self.n_random,
            "unchanged": self.n_unchanged,
        }


def mlm_mask(
    token_ids: Iterable[int] | np.ndarray,
    *,
    mask_id: int,
    vocab_size: int,
    rng: np.random.Generator | int,
    special_ids: Iterable[int] = (),
    select_rate: float = MLM_SELECT_RATE,
) -> MLMResult:
    """Corrupt ``token_ids`` (n,) for masked-LM training; reproducible for a given seed or Generator.

    Random replacements are drawn uniformly from the non-special ids (they may equal the original, as
    in the reference code). ``rng``: a ``numpy.random.Generator`` or an integer seed.
    """
    ids = np.asarray(token_ids)
    if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"token_ids must be a 1-D sequence of integer ids, got shape {ids.shape}, dtype {ids.dtype}")
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, (int, np.integer)) or vocab_size < 2:
        raise ValueError(f"vocab_size must be an integer ≥ 2, got {vocab_size!r}")
    if ids.size and (ids.min() < 0 or ids.max() >= vocab_size):
        raise ValueError(f"token_ids must lie in 0 … {vocab_size - 1}, got values {ids.min()} … {ids.max()}")
    if not 0 <= mask_id < vocab_size:
        raise ValueError(f"mask_id must lie in 0 … {vocab_size - 1}, got {mask_id!r}")
    if not 0.0 < select_rate <= 1.0:
        raise ValueError(f"select_rate must be in (0, 1], got {select_rate!r}")
    special = np.array(sorted(set(special_ids) | {mask_id}), dtype=np.int64)
    replacements = np.setdiff1d(np.arange(vocab_size), special)
    if replacements.size == 0:
        raise ValueError("every id is special, so there is no token to draw a random replacement from")
    generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)

    candidates = np.flatnonzero(~np.isin(ids, special))
    action = np.full(ids.shape, NOT_SELECTED)
    masked_ids = ids.astype(np.int64)
    if candidates.size:
        n_select = max(1, round(candidates.size * select_rate))
        chosen = np.sort(generator.permutation(candidates)[:n_select])
        u = generator.random(n_select)  # one draw per selected position decides 80/10/10
        kind = np.where(u < MLM_MASK_RATE, MASKED, np.where(u < MLM_MASK_RATE + MLM_RANDOM_RATE, RANDOM, UNCHANGED))
        action[chosen] = kind
        masked_ids[chosen[kind == MASKED]] = mask_id
        random_positions = chosen[kind == RANDOM]
        masked_ids[random_positions] = generator.choice(replacements, size=random_positions.size)
    labels = np.where(action != NOT_SELECTED, ids, IGNORE_LABEL).astype(np.int64)
    return MLMResult(input_ids=masked_ids, labels=labels, action=action)
