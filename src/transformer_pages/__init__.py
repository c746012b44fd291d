"""The pages layer: the values that exist for one page of the site, one module per page, mirroring ``docs/``.

Naming rule: ``docs/<section>/<NN>-<name>.md`` → ``transformer_pages/<section>/<name>.py``, the number dropped
and hyphens turned into underscores (``docs/notes/03-attention.md`` → ``transformer_pages.notes.attention``,
``docs/chapter/02-attention-kinds.md`` → ``transformer_pages.chapter.attention_kinds``); a section made of an
``index.md`` alone is one module named after the section (``docs/tryit/index.md`` → ``transformer_pages.tryit``);
the front page ``docs/index.md`` has ``transformer_pages.course`` (the stages, tracks and reading rule it cites).

A page's 確認問題 have a sibling module, ``<name>_questions.py`` (``notes.attention_questions``): the values a
question gives and the answers ``src`` computes for it, so a page's facts and its questions stay apart.
``which`` turns what ``src`` computes into the key of a choice question's right option.

A page module holds what its prose, figures and questions cite and nothing a second page could not find in
``transformer_math``: the preset's instance of a concept (``notes.attention.verdict(1, 0)``), the sizes and
seeds of a chapter's experiment (``chapter.attention_kinds.mask()``), and a short name for every expression the
page would otherwise write out at length or twice. Prose cites them as ``notes.attention.verdict(1, 0).weight``
(``transformer_site.citable`` binds ``notes``, ``chapter`` and ``scale``).

Layers: site → pages → figures → math. A page module imports ``transformer_math`` (and, where a value is a
drawing's label, ``transformer_figures``); expensive values are ``functools.cache`` functions, computed on first
use, cheap ones plain module constants.
"""

import math
from collections.abc import Mapping
from numbers import Real


def which(options: Mapping[str, object], value: object, rel_tol: float = 1e-9) -> str:
    """The one key of ``options`` whose value equals ``value``: how a page's questions compute the right option.

    ``options`` maps each option's key (as the page writes it: ``option hTT: …``) to what the option claims,
    for instance a shape; ``value`` is what ``src`` computes. No key, or more than one, is an error: a question
    whose right option is not exactly one of its options cannot be asked.
    """
    found = [key for key, claim in options.items() if _equal(claim, value, rel_tol)]
    if len(found) != 1:
        raise ValueError(f"{value!r} matches {len(found)} of the options {dict(options)!r}; exactly one must")
    return found[0]


def _equal(claim: object, value: object, rel_tol: float) -> bool:
    """Tuples (shapes) exactly, numbers and arrays within ``rel_tol`` (two formulas for one number round
    differently)."""
    if hasattr(claim, "shape") or hasattr(value, "shape"):
        import numpy as np

        a, b = np.asarray(claim, dtype=float), np.asarray(value, dtype=float)
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=rel_tol, atol=0.0))
    if isinstance(claim, tuple) or isinstance(value, tuple):
        return isinstance(claim, tuple | list) and isinstance(value, tuple | list) and tuple(claim) == tuple(value)
    if isinstance(claim, Real) and isinstance(value, Real) and not isinstance(claim, bool):
        return math.isclose(claim, value, rel_tol=rel_tol)
    return claim == value
