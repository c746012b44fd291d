# ruff: noqa: E501  (the label tables read best one line per group of names)
"""What a checked number is, in Japanese, for its tooltip: 「文1・ヘッド0 の scores[美しい→花]」.

A label is derived from the expression's structure, never typed beside the number:

- a cell of a sentence's trace (``s1.scores[0, 2, 3]``) names the sentence, the head and the words or
  dimensions of its axes (``TRACE_FIELDS`` says what each axis of each field is);
- a named value is labelled where it lives: a page module's ``LABELS`` (``transformer_pages.notes.attention``),
  or, for the math layer, ``MATH_LABELS`` below (the math layer stays free of the site's language). A key names
  a value (``"N_RELATIONS"``), a call's result (``"verdict()"``) or an attribute of it (``"verdict().weight"``);
  ``{0}``, ``{1}`` … in a label are the call's arguments;
- arithmetic, ``abs``, ``sqrt``, ``.max()``, ``.shape[0]``, indexing, comparisons and ``and``/``or``/``not``
  compose the labels of their parts.

``label(expression)`` is None when some part has no label: ``tests/docs`` fails on such a number.

A label is read by a learner, first thing in the tooltip, so it is written as Japanese, not as the expression:
no space where the 「の」 joining two parts meets Japanese (「例文の数」, not 「例文 の数」), a code word a page passes as an argument or a
key in its Japanese (``ARGUMENT_WORDS``: ``"pre"`` → Pre-LN), a pair picked by its index in words
(「(最小, 最大)[0]」 → 「最小」), powers of constants as superscripts (10⁸), and the lengths of a shape by their
axis.

The module is a catalogue of words as a whole (its tables and the Japanese grammar that joins them): an edition in
another language gives its own.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Mapping
from functools import cache

# What each axis of a trace field is: "token" (a word of the sentence), "head", "dim" (d0 … d15), "col"
# (a column of one head, k), "gcol" (a column of all heads, g), "unit" (a hidden unit of the FFN, h0 … h31).
TRACE_FIELDS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "tokens": ("token id", ("token",)),
    "X_tok": ("X の意味の部分 W_E", ("token", "dim")),
    "X_pos": ("X の位置の部分 W_P", ("token", "dim")),
    "X": ("X", ("token", "dim")),
    "Q": ("Q", ("token", "head", "col")),
    "K": ("K", ("token", "head", "col")),
    "V": ("V", ("token", "head", "col")),
    "Q_full": ("Q_full", ("token", "gcol")),
    "K_full": ("K_full", ("token", "gcol")),
    "V_full": ("V_full", ("token", "gcol")),
    "scores": ("scores", ("head", "query", "key")),
    "attn": ("attn", ("head", "query", "key")),
    "head_out": ("ヘッドの出力 out", ("token", "head", "col")),
    "concat": ("concat", ("token", "gcol")),
    "Y": ("Y", ("token", "dim")),
    "residual1": ("residual1", ("token", "dim")),
    "mu1": ("LayerNorm 1 の平均 μ", ("token",)),
    "var1": ("LayerNorm 1 の分散 σ²", ("token",)),
    "ln1_out": ("ln1_out", ("token", "dim")),
    "ffn_pre": ("ffn_pre", ("token", "unit")),
    "ffn_h": ("ffn_h", ("token", "unit")),
    "ffn_out": ("ffn_out", ("token", "dim")),
    "residual2": ("residual2", ("token", "dim")),
    "mu2": ("LayerNorm 2 の平均 μ", ("token",)),
    "var2": ("LayerNorm 2 の分散 σ²", ("token",)),
    "ln2_out": ("ln2_out", ("token", "dim")),
}

# fmt: off
MATH_LABELS: Mapping[str, str] = {
    # the preset (transformer_math.preset) and its weights
    "preset.T": "1 文のトークン数 T", "preset.D_MODEL": "埋め込みの次元 d_model", "preset.N_HEADS": "ヘッドの数 h",
    "preset.D_K": "1 ヘッドの幅 d_k", "preset.D_FF": "FFN の中間層の幅 d_ff", "preset.EPS": "LayerNorm の ε",
    "preset.VOCAB_SIZE": "語彙の大きさ", "preset.SENTENCES": "例文",
    "preset.CATEGORY_VALUE": "W_E の品詞カテゴリの値", "preset.FEATURE_VALUE": "W_E の意味の特徴の値",
    "preset.TRACE_VALUE": "W_E の識別の痕跡の値", "preset.TRACE_BASE": "識別の痕跡の最初の次元",
    "preset.FIRING_THRESHOLD": "発火のしきい値 (ffn_h)",
    "preset.SINGLE_DETECTOR_BIAS": "単一次元の検出器のバイアス b1",
    "preset.AND_DETECTOR_BIAS": "AND 検出器のバイアス b1",
    "preset.AND_DETECTOR_WEIGHT": "AND 検出器の W1 の重み", "preset.AND_WRITE_BACK": "AND 検出器が W2 で書き戻す倍率",
    "preset.N_SINGLE_DETECTORS": "単一次元の検出器の数",
    "W": "プリセットの重み", "sentences": "例文", "sentences[].position()": "文{i0} での「{1}」の位置",
    "W.W_E": "埋め込み行列 W_E", "W.W_Q": "W_Q", "W.W_K": "W_K", "W.W_V": "W_V", "W.W_O": "W_O",
    "W.W1": "FFN の W1", "W.W2": "FFN の W2", "W.b1": "FFN のバイアス b1", "W.b2": "FFN のバイアス b2",
    "W.ln1_gamma": "LayerNorm 1 の γ", "W.ln1_beta": "LayerNorm 1 の β",
    "W.ln2_gamma": "LayerNorm 2 の γ", "W.ln2_beta": "LayerNorm 2 の β",
    # operations and constants
    "ops.GELU_CUBIC_COEFF": "GELU の tanh 近似の 3 次の係数", "ops.GELU_SQRT_2_OVER_PI": "GELU の tanh 近似の √(2/π)",
    "ops.LAYER_NORM_EPS": "LayerNorm の ε (既定値)", "ops.PE_BASE": "位置エンコーディングの底",
    "ops.gelu()": "GELU({0})", "ops.relu()": "ReLU({0})",
    "ops.positional_encoding()": "位置エンコーディング ({0} 位置 × d_model = {1})",
    "positional.pe_norms()": "位置エンコーディングの各行の長さ ({0} 位置, d_model = {1})",
    "attention.LARGE_NEGATIVE": "−∞ の代わりに使う大きな負の数",
    "torch_crosscheck.TOLERANCE": "PyTorch との照合の許容値 (テストとビルドが使う値)",
    "ops.pe_wavelengths()": "d_model = {0} の位置エンコーディングの波長",
    "activations.gelu_minimum()": "GELU の最小点 (x, GELU(x))", "activations.gelu_derivative()": "GELU′({0})",
    "rounding.MACHINE_EPSILON": "float64 の機械イプシロン",
    "relations.TIE_TOLERANCE": "引き分けとみなす attention の重みの差の上限",
    "rounding.eps_multiple_within()": "{0} を機械イプシロンの倍数で表した上限 (上限 {1} 倍)",
    # the √d_k gradient measurement (transformer_math.backward) and the training lab (transformer_math.training)
    "backward.SQRT_DK_KEYS": "√d_k の勾配の測定の 1 行のキーの数", "backward.SQRT_DK_QUERIES": "√d_k の勾配の測定の行の数",
    "backward.SQRT_DK_SIZES": "√d_k の勾配の測定で調べる d_k", "backward.SATURATED": "行が飽和したとみなす最大の重み",
    "training.SEED": "学習ラボの初期値の乱数の種", "training.STEPS": "学習ラボの学習のステップ数",
    "training.WARMUP": "学習ラボのウォームアップのステップ数", "training.EMBEDDING_STD": "学習ラボの W_E の初期値の標準偏差",
    "training.ADAM_BETA1": "学習ラボの Adam の β1", "training.ADAM_BETA2": "学習ラボの Adam の β2", "training.ADAM_EPS": "学習ラボの Adam の ε",
    # configurations of the papers' models (transformer_math.configs)
    "configs.TRANSFORMER_BASE": "原論文の base モデル", "configs.TRANSFORMER_BIG": "原論文の big モデル",
    "configs.BERT_BASE": "BERT-base", "configs.BERT_LARGE": "BERT-large", "configs.GPT1": "GPT-1",
    "configs.GPT2_SMALL": "GPT-2 small", "configs.GPT3_175B": "GPT-3 175B",
    ".d_model": "d_model", ".n_heads": "ヘッドの数 h", ".d_k": "d_k", ".d_v": "d_v", ".d_ff": "d_ff",
    ".n_layers": "層の数", ".vocab_size": "語彙の大きさ", ".dropout": "ドロップアウト率",
    ".label_smoothing": "ラベル平滑化 ε_ls",
    ".adam_beta1": "Adam の β1", ".adam_beta2": "Adam の β2", ".adam_eps": "Adam の ε", ".warmup_steps": "ウォームアップのステップ数",
    ".train_steps": "学習のステップ数", ".max_position_embeddings": "学習する位置の数", ".type_vocab_size": "セグメントの種類の数",
    ".hidden_size": "隠れ層の幅 H", ".intermediate_size": "FFN の中間層の幅", ".num_layers": "層の数 L",
    ".L": "層の数 L", ".total": "パラメータの合計", "[]": "", ".n_ctx": "文脈の長さ",
    # counting, schedules, masking
    "counting.MULTIPLY_ADD_FLOPS": "積和 1 回の FLOP 数", "counting.ROUGH_BLOCK_ESTIMATE": "元のノートのブロックの概算",
    "counting.ROUGH_PERCEPTRON_ESTIMATE": "元のノートのパーセプトロンの概算", "counting.ROUGH_RATIO": "元のノートの比の概算",
    "counting.weight_sizes()": "プリセットの重み行列の成分数", "counting.nonzero_entries()": "プリセットの重み行列の 0 でない成分の数",
    "counting.weight_sizes()[]": "{1} の成分数", "counting.nonzero_entries()[]": "{1} の 0 でない成分の数",
    "counting.bert_params()": "{0}", "counting.gpt_params()": "{0}",
    "counting.layer_norm_params()": "LayerNorm 1 つのパラメータ数 (d_model = {0})",
    "counting.attention_params()": "Attention のパラメータ数 (d_model = {0})",
    "counting.ffn_params()": "FFN のパラメータ数 (d_model = {0}, d_ff = {1})",
    "counting.ffn_multiplies()": "FFN の掛け算の回数 (n = {0}, d = {1}, d_ff = {2})",
    "counting.perceptron_params()": "全結合パーセプトロンのパラメータ数 (n = {0}, d = {1})",
    "counting.attention_multiplies()": "Attention の掛け算の回数 (クエリ {0}, キー {1}, d = {2})",
    "counting.self_attention_multiplies()": "Self-Attention の掛け算の回数 (n = {0}, d = {1})",
    "counting.recurrent_multiplies()": "再帰層の掛け算の回数 (n = {0}, d = {1})",
    "counting.restricted_attention_multiplies()": "制限付き Self-Attention の掛け算の回数 (n = {0}, d = {1}, r = {2})",
    "counting.crossover_n()": "Self-Attention と再帰層の計算量が並ぶ系列長 (d = {0})",
    "counting.layer_complexity().max_path_length()": "{0} 層の最長経路 (n = {i0})",
    "schedules.noam_peak_step()": "学習率が最大になるステップ", "schedules.noam_peak_lr()": "学習率の最大値",
    "schedules.noam_lr()": "ステップ {0} の学習率",
    "masking.MLM_SELECT_RATE": "MLM で予測の対象に選ぶ割合", "masking.MLM_MASK_RATE": "選んだうち [MASK] にする割合",
    "masking.MLM_RANDOM_RATE": "選んだうちランダムな語にする割合", "masking.MLM_KEEP_RATE": "選んだうちそのままにする割合",
    # builtins and math functions that stand alone
    "pi": "π", "exp()": "exp({0})", "log()": "log({0})", "sqrt()": "√({0})",
}
# fmt: on

_METHODS = {
    "max": " の最大",
    "min": " の最小",
    "sum": " の和",
    "mean": " の平均",
    "std": " の標準偏差",
    "argmax": " の最大の位置",
    "argmin": " の最小の位置",
    "all": " がすべて成り立つ",
    "any": " のどれかが成り立つ",
    "item": "",
}
_OPERATORS = {
    ast.Add: "+",
    ast.Sub: "−",
    ast.Mult: "×",
    ast.Div: "÷",
    ast.FloorDiv: "÷ (切り捨て)",
    ast.Mod: "mod",
    ast.Pow: "^",
    ast.MatMult: "·",
}
_COMPARISONS = {
    ast.Eq: "=",
    ast.NotEq: "≠",
    ast.Lt: "<",
    ast.LtE: "≤",
    ast.Gt: ">",
    ast.GtE: "≥",
    ast.In: "∈",
    ast.NotIn: "∉",
}


class _NoLabel(Exception):
    """Some part of the expression has no label."""


@cache
def label(expression: str, claim: bool = False) -> str | None:
    """The Japanese label of a checked number's expression (or a claim's condition), or None."""
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError:
        return None
    try:
        text = _Labeller().label(tree.body)
    except _NoLabel:
        return None
    text = _tighten(text)
    return f"計算で確かめた条件: {text}" if claim else text


_JAPANESE = "\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e「」『』（）"


def _tighten(text: str) -> str:
    """No space around the 「の」 that joins two labelled parts where Japanese meets Japanese (「例文の数」, not
    「例文 の数」), nor around a quoted word; a space a label's template put between its own words stays."""
    text = re.sub(f"(?<=[{_JAPANESE}]) +(?=[の「])", "", text)  # …and none around a quoted word
    text = re.sub(f"(?<=」) +(?=[{_JAPANESE}])", "", text)
    return re.sub(f"(?<=[{_JAPANESE}]の) +(?=[{_JAPANESE}])", "", text)


def _module_labels(dotted: str) -> Mapping[str, str]:
    """``LABELS`` of a page module (``notes.attention`` → ``transformer_pages.notes.attention``)."""
    try:
        module = importlib.import_module(f"transformer_pages.{dotted}")
    except ImportError:
        return {}
    return getattr(module, "LABELS", {})


def _literal(node: ast.AST):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return -node.operand.value
    if isinstance(node, (ast.Tuple, ast.List)):
        return [_literal(e) for e in node.elts]
    raise _NoLabel


class _Labeller:
    def label(self, node: ast.AST) -> str:
        if isinstance(node, ast.Constant):
            return str(node.value)
        if isinstance(node, (ast.Tuple, ast.List)):
            return str(tuple(_literal(node)))
        if isinstance(node, ast.BinOp):
            power = _superscript_power(node)
            if power:
                return power
            return f"{self._operand(node.left)} {_OPERATORS[type(node.op)]} {self._operand(node.right)}"
        if isinstance(node, ast.UnaryOp):
            inner = self._operand(node.operand)
            return {ast.USub: f"−{inner}", ast.UAdd: inner, ast.Not: f"「{inner}」ではない"}[type(node.op)]
        if isinstance(node, ast.Compare):
            parts = [self.label(node.left)]
            for op, right in zip(node.ops, node.comparators, strict=True):
                parts += [_COMPARISONS[type(op)], self.label(right)]
            return " ".join(parts)
        if isinstance(node, ast.BoolOp):
            joiner = " かつ " if isinstance(node.op, ast.And) else " または "
            return joiner.join(f"({self.label(v)})" for v in node.values)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return self._builtin(node)
        return self._chain(node)

    def _operand(self, node: ast.AST) -> str:
        text = self.label(node)
        wrap = isinstance(node, ast.Compare) or (isinstance(node, ast.BinOp) and not _superscript_power(node))
        return f"({text})" if wrap else text

    def _builtin(self, node: ast.Call) -> str:
        name = node.func.id
        args = [self.label(a) for a in node.args]
        if name == "abs" and len(args) == 1:
            return f"|{args[0]}|"
        if name in ("max", "min") and len(args) == 1:
            return f"{args[0]}{_METHODS[name]}"
        if name in ("max", "min", "round") and len(args) >= 1:
            return f"{name}({', '.join(args)})" if name != "round" else f"{args[0]} (丸めた値)"
        if name == "len" and len(args) == 1:
            return f"{args[0]} の数"
        if name in ("all", "any") and len(args) == 1:
            return f"{args[0]}{_METHODS[name]}"
        if name == "sum" and len(args) == 1:
            return f"{args[0]} の和"
        key = f"{name}()"
        if key in MATH_LABELS:
            return MATH_LABELS[key].format(*args)
        raise _NoLabel

    def _chain(self, node: ast.AST) -> str:
        """A name followed by attributes, calls and indexing: ``notes.ffn.find(2, "人気", 11).tok``."""
        steps = []  # innermost first: ("attr", name) / ("call", node) / ("item", node)
        while not isinstance(node, ast.Name):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or isinstance(
                node, (ast.BinOp, ast.Compare, ast.BoolOp, ast.UnaryOp)
            ):
                steps.reverse()  # abs(…).max(), (a - b).max(): the builtin's or the arithmetic's label, then the rest
                return self._operand(node) + self._suffix(steps)
            if isinstance(node, ast.Attribute):
                steps.append(("attr", node.attr))
                node = node.value
            elif isinstance(node, ast.Call):
                steps.append(("call", node))
                node = node.func
            elif isinstance(node, ast.Subscript):
                steps.append(("item", node.slice))
                node = node.value
            else:
                raise _NoLabel
        steps.reverse()
        root = node.id
        if len(root) == 2 and root[0] == "s" and root[1].isdigit():
            return self._trace(int(root[1]), steps)
        return self._named(root, steps)

    # ---------------------------------------------------------------------------------------- named values

    def _named(self, root: str, steps: list) -> str:
        """Find the longest labelled prefix of ``root.step.step…``; label the rest generically."""
        module_path, rest = root, steps
        table = MATH_LABELS
        if root in ("notes", "chapter", "scale", "backprop", "decoder") and steps and steps[0][0] == "attr":
            module_path, rest = f"{root}.{steps[0][1]}", steps[1:]
            table = _module_labels(module_path)
        elif root in ("tryit", "course"):  # top-level page modules (the explorer, the front page's course)
            table = _module_labels(root)
        key = "" if table is not MATH_LABELS else root
        args: list = []
        best, best_at, best_args = table.get(key) if key else None, 0, []
        for at, (kind, value) in enumerate(rest, start=1):
            if kind == "attr":
                key = f"{key}.{value}" if key else value
            elif kind == "call":
                key += "()"
                args = (
                    args + [self._argument(a) for a in value.args] + [self._argument(k.value) for k in value.keywords]
                )
            else:
                key += "[]"
                args = [*args, _index_value(value)]
            if key in table:
                best, best_at, best_args = table[key], at, list(args)
        if best is None:
            return self._config(root, rest)
        text = _format(best, best_args)
        axes = ("row", "column") if table is MATH_LABELS and key_is_matrix(root, rest[:best_at]) else None
        return self._picked(text, rest[best_at:], axes)

    def _picked(self, text: str, steps: list, axes: tuple[str, ...] | None = None) -> str:
        """``…の (最小, 最大)`` indexed by 0 reads 「…の最小」; then the rest of the steps as usual."""
        if steps and steps[0][0] == "item":
            index = _index_value(steps[0][1])
            start, words = _trailing_tuple(text)
            if words and isinstance(index, int) and -len(words) <= index < len(words):
                head = text[:start].rstrip()
                joint = "" if head.endswith("の") else " の "  # 「…の (最小, 最大)」 / 「最小点 (x, GELU(x))」
                return head + joint + words[index] + self._suffix(steps[1:])
        return text + self._suffix(steps, axes)

    def _argument(self, node: ast.AST):
        """A call's argument as the label shows it: a constant as itself, a named value by its label."""
        try:
            return _literal(node)
        except _NoLabel:
            return self.label(node)

    def _config(self, root: str, steps: list) -> str:
        """``configs.BERT_BASE.vocab_size``: the model's label and the field's."""
        if root == "configs" and len(steps) >= 2 and steps[0][0] == steps[1][0] == "attr":
            model = MATH_LABELS.get(f"configs.{steps[0][1]}")
            field = MATH_LABELS.get(f".{steps[1][1]}")
            if model and field:
                return f"{model}の {field}" + self._suffix(steps[2:])
        raise _NoLabel

    def _suffix(self, steps: list, axes: tuple[str, ...] | None = None) -> str:
        """What follows a labelled value: ``.max()``, ``.shape[0]``, ``[3]``, ``.total``.

        ``axes``: what each axis of the value is (a trace field's), so that ``.shape[k]`` says what it counts.
        """
        text = ""
        i = 0
        while i < len(steps):
            kind, value = steps[i]
            if kind == "attr" and value == "shape" and i + 1 < len(steps) and steps[i + 1][0] == "item":
                text += _shape_text(_index_value(steps[i + 1][1]), axes)
                i += 2
                continue
            if kind == "attr" and i + 1 < len(steps) and steps[i + 1][0] == "call" and value in _METHODS:
                text += _METHODS[value]
                i += 2
                continue
            if kind == "attr" and f".{value}" in MATH_LABELS:
                text += f" の {MATH_LABELS[f'.{value}']}"
            elif kind == "item":
                text += _item_text(value)
            else:
                raise _NoLabel
            i += 1
        return text

    # --------------------------------------------------------------------------------------------- traces

    def _trace(self, sentence: int, steps: list) -> str:
        if not steps:
            return f"文{sentence}"
        if steps[0][0] != "attr" or steps[0][1] not in TRACE_FIELDS:
            raise _NoLabel
        field = steps[0][1]
        name, axes = TRACE_FIELDS[field]
        rest = steps[1:]
        index = ()
        if rest and rest[0][0] == "item":
            index = _index_parts(rest[0][1])
            rest = rest[1:]
            while rest and rest[0][0] == "item" and len(index) < len(axes):  # s1.scores[0][:, …]
                index = index + _index_parts(rest[0][1])
                rest = rest[1:]
        return _trace_cell(sentence, name, axes, index) + self._suffix(rest, axes if not index else None)


def _index_value(node: ast.AST):
    if isinstance(node, ast.Slice):
        return ":"
    if isinstance(node, ast.Tuple):
        return ", ".join(str(_index_value(e)) for e in node.elts)
    try:
        return _literal(node)
    except _NoLabel:
        return _Labeller().label(node)  # an index that is itself a named value


def _index_parts(node: ast.AST) -> tuple:
    elements = node.elts if isinstance(node, ast.Tuple) else [node]
    return tuple(_index_value(e) for e in elements)


def _trailing_tuple(text: str) -> tuple[int, list[str]]:
    """A label ending in a tuple of words, 「…の (最小, 最大)」 or 「(x, GELU(x))」: where it starts, and its words."""
    if not text.endswith(")"):
        return 0, []
    depth, parts, part = 0, [], ""
    for at in range(len(text) - 1, -1, -1):
        ch = text[at]
        depth += {")": 1, "(": -1}.get(ch, 0)
        if depth == 0:
            parts.append(part[::-1].strip())
            return (at, parts[::-1]) if len(parts) > 1 else (0, [])
        if ch == "," and depth == 1:
            parts.append(part[::-1].strip())
            part = ""
        elif not (ch == ")" and depth == 1 and at == len(text) - 1):
            part += ch
    return 0, []


def key_is_matrix(root: str, steps: list) -> bool:
    """``W.W_Q``, ``W.W1``: a weight matrix of the preset, whose two axes are rows and columns."""
    return root == "W" and len(steps) == 1 and steps[0][0] == "attr" and steps[0][1][0] == "W"


_AXIS_WORDS = {"row": "行", "column": "列","token": "トークン", "query": "クエリ", "key": "キー", "head": "ヘッド", "dim": "次元",
               "unit": "中間層のユニット", "col": "列", "gcol": "列"}  # fmt: skip


def _shape_text(axis, axes: tuple[str, ...] | None) -> str:
    """``.shape[k]`` in words: what the axis counts when it is known (「のトークンの数」), else its number."""
    if axes is not None and isinstance(axis, int) and -len(axes) <= axis < len(axes):
        return f" の{_AXIS_WORDS[axes[axis]]}の数"
    return f" の軸 {axis} の長さ"
_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _superscript_power(node: ast.AST) -> str | None:
    """``10**8`` as 10⁸: a power of two integer constants, as a formula writes it."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow)):
        return None
    try:
        base, exponent = _literal(node.left), _literal(node.right)
    except _NoLabel:
        return None
    if isinstance(base, int) and isinstance(exponent, int) and not isinstance(base, bool):
        return f"{base}{str(exponent).translate(_SUPERSCRIPTS)}"
    return None


def _item_text(node: ast.AST) -> str:
    """An index after a labelled value: a key in its words, a first or last element, a range of elements."""
    value = _index_value(node)
    if isinstance(value, str) and value in ARGUMENT_WORDS:
        return f" ({ARGUMENT_WORDS[value]})"
    if isinstance(node, ast.Slice):
        return _slice_text(node)
    if value == 0:
        return " の最初の値"
    if value == -1:
        return " の最後の値"
    return f"[{_index_text(node)}]"


def _slice_text(node: ast.Slice) -> str:
    """``[1:]`` and ``[:-1]``, the two ranges a comparison of neighbours uses, in words; any other as it is."""
    try:
        lower = _literal(node.lower) if node.lower is not None else None
        upper = _literal(node.upper) if node.upper is not None else None
    except _NoLabel:
        return "[:]"
    if node.step is None and (lower, upper) == (1, None):
        return " の 2 つ目から最後まで"
    if node.step is None and (lower, upper) == (None, -1):
        return " の最初から最後の 1 つ前まで"
    if node.step is None and lower is None and upper is None:
        return ""
    return f"[{'' if lower is None else lower}:{'' if upper is None else upper}]"


def _index_text(node: ast.AST) -> str:
    return ", ".join(str(v) for v in _index_parts(node))


def _format(template: str, args: list) -> str:
    """``{0}`` … are the arguments; ``{i0}`` … the first index into the result (``sentences[0]`` → 文1)."""
    shown = [_shown_argument(a) for a in args] + ["既定"] * 6  # an argument left out takes its default
    named = {f"i{n}": (a + 1 if isinstance(a, int) else a) for n, a in enumerate(args)}
    try:
        return template.format(*shown, **named)
    except (IndexError, KeyError):
        raise _NoLabel from None


# Code names that page functions take as arguments, as a student reads them in a tooltip.
ARGUMENT_WORDS = {
    "initial": "学習前", "learned": "学習後", "preset": "プリセット",
    "jacobian_norm": "‖J‖₂", "d_scores_rms": "スコアに届く勾配の RMS", "saturated_fraction": "飽和した行の割合",
    "direct": "直接", "mean": "平均", "variance": "分散", "total": "合計", "input": "入力", "output": "出力",
    "pre": "Pre-LN", "post": "Post-LN", "min": "最小", "max": "最大", "sum": "和",
    "mean_in": "入力の平均", "std_in": "入力の標準偏差", "std_out": "出力の標準偏差",
    "selected": "予測の対象に選ばれた", "masked": "[MASK] にした", "random": "ランダムな語にした",
    "unchanged": "そのままにした", "zero_fraction": "0 になった割合", "embeddings": "埋め込み",
    "jacobian": "ヤコビアン", "eps": "ε", "sqrt_d_k": "√d_k", "q_projection": "Q の射影",
    "ln1_gamma": "LayerNorm 1 の γ", "ln1_beta": "LayerNorm 1 の β", "ln2_gamma": "LayerNorm 2 の γ",
    "ln2_beta": "LayerNorm 2 の β",
}  # fmt: skip


def _shown_argument(value) -> str:
    if isinstance(value, str) and value in ARGUMENT_WORDS:
        return ARGUMENT_WORDS[value]
    if isinstance(value, bool):
        return "あり" if value else "なし"
    if isinstance(value, (int, float)) and value < 0:
        return "−" + str(-value)  # a minus sign, as the pages print one
    if isinstance(value, list):  # a tuple of words, ("は", "です") → 「は」・「です」: tokens used as words are quoted
        return "・".join(f"「{v}」" if isinstance(v, str) and v not in ARGUMENT_WORDS else _shown_argument(v)
                        for v in value)
    return str(value)


def _trace_cell(sentence: int, name: str, axes: tuple[str, ...], index: tuple) -> str:
    from transformer_math import preset

    if not index:  # the whole array (its shape, its maximum …): no cell to name
        return f"文{sentence} の {name}"
    words = preset.sentence(sentence).words
    head = None
    shown = []
    for axis, value in zip(axes, index + (":",) * (len(axes) - len(index)), strict=True):
        if axis == "head":
            head = value
            continue
        if value == ":":
            shown.append("全トークン" if axis in ("token", "query", "key") else ":")
        elif isinstance(value, list):
            shown.append("・".join(_axis_value(axis, v, words) for v in value))
        else:
            shown.append(_axis_value(axis, value, words))
    where = f"文{sentence}" + (f"・ヘッド{head}" if head not in (None, ":") else "")
    if axes[1:3] == ("query", "key") and len(shown) == 2:
        cell = f"{shown[0]}→{shown[1]}"
    else:
        cell = ", ".join(shown)
    return f"{where} の {name}[{cell}]" if cell else f"{where} の {name}"


def _axis_value(axis: str, value, words: tuple[str, ...]) -> str:
    if axis in ("token", "query", "key"):
        return words[value]
    if axis == "dim":
        return f"d{value}"
    if axis == "unit":
        return f"h{value}"
    if axis == "gcol":
        return f"g{value}"
    return f"k={value}"
