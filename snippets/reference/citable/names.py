# What prose may cite: every name of transformer_site.citable.NAMES, listed at build time (never stale).
import dataclasses
import inspect
import re
import types

import numpy as np

from transformer_site.citable import NAMES

JA = {
    "W": "プリセットの重み (W.W_E, W.W_Q, W.b1, …)",
    "preset": "プリセットの定数: 次元 (preset.D_K)、語彙、bond、検出器の定数",
    "sentences": "8 つの例文 (sentences[0].words, sentences[0].relations)",
    "ops": "演算 (softmax, layer_norm, gelu, positional_encoding, …)",
    "sqrt": "平方根 (math.sqrt)", "exp": "指数関数 (math.exp)", "log": "自然対数 (math.log)",
    "pi": "円周率 π", "abs": "絶対値 (組み込み)", "min": "最小値 (組み込み)", "max": "最大値 (組み込み)",
    "round": "丸め (組み込み)", "len": "長さ (組み込み)", "sum": "和 (組み込み)",
}  # fmt: skip


def one_line(value):
    doc = inspect.getdoc(value) or ""
    return doc.splitlines()[0] if doc else ""


def cell(text):
    return text.replace("|", "\\|")


def describe(name, value):
    if re.fullmatch(r"s\d", name):
        words = NAMES["sentences"][int(name[1:]) - 1].words
        return f"文{name[1:]}「{' '.join(words)}」の順伝播: すべての中間値"
    if name in JA:
        return JA[name]
    return one_line(value)


def kind(value):
    if isinstance(value, types.ModuleType):
        return "モジュール"
    if dataclasses.is_dataclass(value):
        return type(value).__name__
    if callable(value):
        return "関数"
    return type(value).__name__


def field_comments(cls):
    """The shape comments written beside each field in the source (``scores: np.ndarray  # (h, T, T)``)."""
    found = re.findall(r"^\s+(\w+): [^#\n]+#\s*(.*)$", inspect.getsource(cls), flags=re.M)
    return dict(found)


def fields_table(value, title):
    notes = field_comments(type(value))
    print(f'\n??? info "{title}"\n')
    print("    | 属性 | 文1 での形 | ソースの注記 |\n    |---|---|---|")
    for field in dataclasses.fields(value):
        item = getattr(value, field.name)
        shape = f"`{item.shape}`" if isinstance(item, np.ndarray) else f"`{type(item).__name__}`"
        print(f"    | `{field.name}` | {shape} | {cell(notes.get(field.name, ''))} |")


def module_table(name, module):
    rows = []
    for member, value in sorted(vars(module).items()):
        if member.startswith("_") or inspect.ismodule(value):
            continue
        if getattr(value, "__module__", module.__name__) != module.__name__:
            continue  # imported from elsewhere
        what = "クラス" if inspect.isclass(value) else "関数" if callable(value) else f"値 ({type(value).__name__})"
        rows.append(f"    | `{name}.{member}` | {what} | {cell(one_line(value) if callable(value) else '')} |")
    if rows:
        print(f'\n??? info "`{name}` の中身"\n')
        print("    | 名前 | 種類 | 説明 (docstring の 1 行目) |\n    |---|---|---|")
        print("\n".join(rows))


print("| 名前 | 種類 | 内容 |\n|---|---|---|")
for name, value in NAMES.items():
    print(f"| `{name}` | {kind(value)} | {cell(describe(name, value))} |")

fields_table(NAMES["s1"], "s1 … s8 の属性 (BlockTrace)")
fields_table(NAMES["W"], "W の属性 (BlockWeights)")
for name, value in NAMES.items():
    if isinstance(value, types.ModuleType):
        module_table(name, value)
