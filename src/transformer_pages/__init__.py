"""The pages layer: the values that exist for one page of the site, one module per page, mirroring ``docs/``.

Naming rule: ``docs/<section>/<NN>-<name>.md`` → ``transformer_pages/<section>/<name>.py``, the number dropped
and hyphens turned into underscores (``docs/notes/03-attention.md`` → ``transformer_pages.notes.attention``,
``docs/chapter/02-attention-kinds.md`` → ``transformer_pages.chapter.attention_kinds``); a section made of an
``index.md`` alone is one module named after the section (``docs/tryit/index.md`` → ``transformer_pages.tryit``).

A page module holds what its prose, figures and questions cite and nothing a second page could not find in
``transformer_math``: the preset's instance of a concept (``notes.attention.verdict(1, 0)``), the sizes and
seeds of a chapter's experiment (``chapter.attention_kinds.mask()``), and a short name for every expression the
page would otherwise write out at length or twice. Prose cites them as ``notes.attention.verdict(1, 0).weight``
(``transformer_site.citable`` binds ``notes``, ``chapter`` and ``scale``).

Layers: site → pages → figures → math. A page module imports ``transformer_math`` (and, where a value is a
drawing's label, ``transformer_figures``); expensive values are ``functools.cache`` functions, computed on first
use, cheap ones plain module constants.
"""

from collections.abc import Mapping


def which(options: Mapping[str, object], value: object) -> str:
    """The one key of ``options`` whose value equals ``value``: how a page's questions compute the right option.

    ``options`` maps each option's key (as the page writes it: ``option hTT: …``) to what the option claims,
    for instance a shape; ``value`` is what ``src`` computes. No key, or more than one, is an error: a question
    whose right option is not exactly one of its options cannot be asked.
    """
    found = [key for key, claim in options.items() if _equal(claim, value)]
    if len(found) != 1:
        raise ValueError(f"{value!r} matches {len(found)} of the options {dict(options)!r}; exactly one must")
    return found[0]


def _equal(claim: object, value: object) -> bool:
    if isinstance(claim, tuple) or isinstance(value, tuple):
        return tuple(claim) == tuple(value)
    return claim == value
