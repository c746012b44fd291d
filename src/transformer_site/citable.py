"""The one namespace that prose may cite in checked numbers ``{{ literal = expression }}``.

Every name below is documented on the site's reference page. Expressions are evaluated against ``NAMES`` only:

- ``s1`` … ``s8``: the cached trace of each example sentence; ``W``: the preset's weights; ``preset``,
  ``sentences``, ``ops`` and a few math functions;
- every concept module of ``transformer_math`` by its own name (``counting``, ``configs``, ``positional``, …);
- the pages layer by section: ``notes``, ``chapter`` and ``scale``, each with its page modules as attributes
  (``notes.attention.verdict(1, 0).weight``, ``chapter.attention_kinds.mask()``);
- ``torch_crosscheck``: the PyTorch cross-check's constants (``torch_crosscheck.TOLERANCE``, the bound its test uses;
  torch itself is imported only when the check runs).

Add a name here (not elsewhere) when a page needs a new kind of value.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from types import MappingProxyType, ModuleType

import transformer_math
import transformer_pages
from transformer_math import SENTENCES, ops, preset, preset_trace, preset_weights
from transformer_site import torch_crosscheck


def _submodules(package: ModuleType) -> dict[str, ModuleType]:
    """Every module or subpackage of ``package``, imported, by its own name."""
    return {
        info.name: importlib.import_module(f"{package.__name__}.{info.name}")
        for info in pkgutil.iter_modules(package.__path__)
    }


def _page_sections() -> dict[str, ModuleType]:
    """``notes``, ``chapter``, ``scale``: each section package with every page module imported into it."""
    sections = {}
    for name, module in _submodules(transformer_pages).items():
        if hasattr(module, "__path__"):
            _submodules(module)  # importing a page module makes it an attribute of its section package
        sections[name] = module
    return sections


def _build_names() -> dict[str, object]:
    names: dict[str, object] = {f"s{s.number}": preset_trace(s.number) for s in SENTENCES}
    names.update(
        W=preset_weights(),  # the preset's weights: W.W_E, W.W_Q, W.b1, …
        preset=preset,  # sizes, vocabulary, bonds, detector constants: preset.D_K, preset.BONDS …
        sentences=SENTENCES,
        ops=ops,
        sqrt=math.sqrt, exp=math.exp, log=math.log, pi=math.pi,
        abs=abs, min=min, max=max, round=round, len=len, sum=sum, all=all, any=any,
        torch_crosscheck=torch_crosscheck,
    )  # fmt: skip
    names.update(_submodules(transformer_math))
    names.update(_page_sections())
    return names


NAMES = MappingProxyType(_build_names())
