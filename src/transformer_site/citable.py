"""The one namespace that prose may cite in checked numbers ``{{ literal = expression }}``.

Every name below is documented on the site's reference page. Expressions are evaluated against
``NAMES`` only; add a name here (not elsewhere) when a page needs a new kind of value.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from types import MappingProxyType

from transformer_math import SENTENCES, build_preset, ops, preset, preset_trace
from transformer_pages import tryit


def _math_modules() -> dict[str, object]:
    """Every module of transformer_math, citable by its own name (counting, configs, analysis_ffn, …)."""
    import transformer_math

    return {
        info.name: importlib.import_module(f"transformer_math.{info.name}")
        for info in pkgutil.iter_modules(transformer_math.__path__)
    }


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
    names.update(_math_modules())
    names["panels"] = tryit  # the try-it page's panels, also cited by the chapters that include them
    return names


NAMES = MappingProxyType(_build_names())
