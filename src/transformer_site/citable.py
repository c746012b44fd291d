"""The one namespace that prose may cite in checked numbers ``{{ literal = expression }}``.

Every name below is documented on the site's reference page. Expressions are evaluated against
``NAMES`` only; add a name here (not elsewhere) when a page needs a new kind of value.
"""

from __future__ import annotations

import importlib
import math
from types import MappingProxyType

from transformer_math import SENTENCES, build_preset, ops, preset, preset_trace


def _optional_module(name: str):
    """Modules that other pieces of work add; absent ones are simply not citable yet."""
    try:
        return importlib.import_module(f"transformer_math.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"transformer_math.{name}":
            raise
        return None


def _build_names() -> dict[str, object]:
    names: dict[str, object] = {f"s{n}": preset_trace(n) for n in range(1, len(SENTENCES) + 1)}
    names.update(
        W=build_preset(),  # the preset's weights: W.W_E, W.W_Q, W.b1, …
        preset=preset,  # sizes, vocabulary, bonds, detector constants: preset.D_K, preset.BONDS …
        sentences=SENTENCES,
        ops=ops,
        sqrt=math.sqrt, exp=math.exp, log=math.log, pi=math.pi,
        abs=abs, min=min, max=max, round=round, len=len, sum=sum,
    )  # fmt: skip
    for module in ("analysis", "counting", "configs", "schedules", "masking", "experiments"):
        found = _optional_module(module)
        if found is not None:
            names[module] = found
    return names


NAMES = MappingProxyType(_build_names())
