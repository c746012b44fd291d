# What prose may cite: every name of transformer_site.citable.NAMES, listed at build time (never stale).
# reads source of: transformer_math transformer_pages transformer_site.citable transformer_site.torch_crosscheck
import dataclasses
import inspect
import re
import types

import numpy as np

from transformer_figures import markdown_table
from transformer_site.citable import NAMES

JA = {
    "W": "プリセットの重み (W.W_E, W.W_Q, W.b1, …)",
    "preset": "プリセットの定数: 次元 (preset.D_K)、語彙、bond、検出器の定数",
    "sentences": "8 つの例文 (sentences[0].words, sentences[0].relations)",
    "ops": "演算 (softmax, layer_norm, gelu, positional_encoding, …)",
    "notes": "数学ノートの各ページの値 (notes.attention.verdict(1, 0).weight)",
    "chapter": "教科書の章の各ページの値 (chapter.attention_kinds.mask())",
    "scale": "スケールのノートの各ページの値 (scale.parameters.BLOCK_WEIGHTS)",
    "backprop": "逆伝播と学習ラボの各ページの値 (backprop.lab.run().final_loss)",
    "sqrt": "平方根 (math.sqrt)",
    "exp": "指数関数 (math.exp)",
    "log": "自然対数 (math.log)",
    "pi": "円周率 π",
    "abs": "絶対値 (組み込み)",
    "min": "最小値 (組み込み)",
    "max": "最大値 (組み込み)",
    "round": "丸め (組み込み)",
    "len": "長さ (組み込み)",
    "sum": "和 (組み込み)",
    "all": "すべて真か (組み込み、検査つきの主張の条件で)",
    "any": "どれかが真か (組み込み、検査つきの主張の条件で)",
    "torch_crosscheck": "PyTorch との照合の定数 (torch_crosscheck.TOLERANCE: テストとビルドの許容値)",
}

WORD_TABLES = {"TEXT", "LABELS"}


def one_line(value):
    doc = inspect.getdoc(value) or ""
    return doc.splitlines()[0] if doc else ""


def describe(name, value):
    if re.fullmatch(r"s\d", name):
        return f"文{name[1:]}「{' '.join(NAMES['sentences'][int(name[1:]) - 1].words)}」の順伝播: すべての中間値"
    return JA.get(name) or one_line(value)


def kind(value):
    if isinstance(value, types.ModuleType):
        return "モジュール"
    if dataclasses.is_dataclass(value):
        return type(value).__name__
    return "関数" if callable(value) else type(value).__name__


def field_comments(cls):
    """The shape comments written beside each field in the source (``scores: np.ndarray  # (h, T, T)``)."""
    return dict(re.findall(r"^\s+(\w+): [^#\n]+#\s*(.*)$", inspect.getsource(cls), flags=re.M))


def indented(title, table):
    """A collapsed admonition holding ``table`` (Markdown), indented as its body."""
    return f'??? info "{title}"\n\n' + "\n".join("    " + line for line in table.splitlines())


def fields_rows(value):
    notes = field_comments(type(value))
    rows = []
    for field in dataclasses.fields(value):
        item = getattr(value, field.name)
        shape = f"`{item.shape}`" if isinstance(item, np.ndarray) else f"`{type(item).__name__}`"
        rows.append([f"`{field.name}`", shape, notes.get(field.name, "")])
    return rows


def module_rows(name, module):
    rows = []
    for member, value in sorted(vars(module).items()):
        if member.startswith("_") or inspect.ismodule(value):
            continue
        if member in WORD_TABLES:
            continue  # the words a module shows readers, not a value prose cites
        if getattr(value, "__module__", module.__name__) != module.__name__:
            continue  # imported from elsewhere
        what = "クラス" if inspect.isclass(value) else "関数" if callable(value) else f"値 ({type(value).__name__})"
        rows.append([f"`{name}.{member}`", what, one_line(value) if callable(value) else ""])
    return rows


def modules(name, value):
    """``name`` and, for a section of the pages layer (notes, chapter, scale), each of its page modules."""
    yield name, value
    for member, sub in sorted(vars(value).items()):
        if isinstance(sub, types.ModuleType) and sub.__name__.startswith(value.__name__ + "."):
            yield f"{name}.{member}", sub


listing = [[f"`{name}`", kind(value), describe(name, value)] for name, value in NAMES.items()]
FIELDS = ["属性", "文1 での形", "ソースの注記"]
MEMBERS = ["名前", "種類", "説明 (docstring の 1 行目)"]
sections = [
    ("s1 … s8 の属性 (BlockTrace)", FIELDS, fields_rows(NAMES["s1"])),
    ("W の属性 (BlockWeights)", FIELDS, fields_rows(NAMES["W"])),
]
for name, value in NAMES.items():
    if isinstance(value, types.ModuleType):
        sections += [(f"`{n}` の中身", MEMBERS, module_rows(n, m)) for n, m in modules(name, value)]

print(
    "\n\n".join(
        [markdown_table(["名前", "種類", "内容"], listing)]
        + [indented(title, markdown_table(headers, rows)) for title, headers, rows in sections if rows]
    )
)
