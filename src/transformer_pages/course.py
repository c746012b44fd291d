"""The course: the stages of the block, the reading tracks, which pages face each other, and reading times.

What the index (``docs/index.md``) and every page's frame cite. One table each, so the block map, the path on
the index and the links between the tracks cannot disagree:

- :data:`STAGES`: the block's stages in the order the forward pass runs, each with its page in the notes and in
  the chapter. A page declares its stage in its front matter (``stage: attention``); ``block`` means the page
  is about the whole block (no single stage).
- :data:`TRACKS`: the reading orders (the worked model, the backward pass, the decoder, the chapter, the sizes),
  each with what it assumes.
- :data:`STAGE_EXTRAS`: pages of other tracks the large map also links from a stage (the decoder's).
- :data:`COUNTERPARTS`: for each page, the page of the other track that covers the same idea.
- :func:`reading_minutes`: how long a page takes, computed from its Markdown by one stated rule.

The tables are a catalogue of names and descriptions as a whole: an edition in another language gives its own.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Stage:
    key: str
    label: str  # short, for the small map
    does: str  # one line, for the large map on the index
    notes: str  # docs path of its notes page
    chapter: str  # docs path of the chapter page covering it


STAGES: tuple[Stage, ...] = (
    Stage("embed", "埋め込み + 位置", "語を W_E の行に、位置を W_P の行に変えて足す", "notes/01-embedding.md",
          "chapter/04-positional-encoding.md"),
    Stage("qkv", "Q・K・V", "X に W_Q・W_K・W_V を掛け、ヘッドに分ける", "notes/02-qkv.md", "chapter/03-multi-head.md"),
    Stage("attention", "注意 (softmax)", "Q と K の内積を softmax で重みにし、V を混ぜる", "notes/03-attention.md",
          "chapter/02-attention-kinds.md"),
    Stage("concat", "連結 + W_O", "ヘッドの出力を並べて W_O を掛ける", "notes/04-concat.md",
          "chapter/03-multi-head.md"),
    Stage("norm1", "残差 + LN 1", "入力を足し戻し、トークンごとに正規化する", "notes/05-layernorm1.md",
          "chapter/06-add-norm.md"),
    Stage("ffn", "FFN", "トークンごとに W1 → GELU → W2", "notes/06-ffn.md", "chapter/05-ffn.md"),
    Stage("norm2", "残差 + LN 2", "FFN の出力を足し戻し、もう一度正規化する", "notes/07-layernorm2.md",
          "chapter/06-add-norm.md"),
)  # fmt: skip

WHOLE_BLOCK = "block"
"""The stage of a page about the whole block (§0, §8, the chapter's overview …): the map marks every stage."""

STAGE_KEYS: tuple[str, ...] = (*(s.key for s in STAGES), WHOLE_BLOCK)

MAPPED_SECTIONS: tuple[str, ...] = ("notes", "chapter")
"""Sections whose every page must declare its stage (a missing or unknown one fails the build at page:line)."""


def stage(key: str) -> Stage:
    for s in STAGES:
        if s.key == key:
            return s
    raise KeyError(f"unknown stage {key!r}; the stages are {', '.join(STAGE_KEYS)}")


@dataclass(frozen=True)
class Track:
    key: str
    title: str
    assumes: str  # what the reader should know before starting
    pages: tuple[str, ...]  # docs paths, in reading order

    @property
    def name(self) -> str:
        """The track's short name (its title before the colon): what its start button on the index says."""
        return self.title.split(":", 1)[0].strip()


TRACKS: tuple[Track, ...] = (
    Track("notes", "数学ノート: 小さなモデルを手で追う",
          "行列の積と、ベクトルの内積が計算できること。Transformer の予備知識は要りません。",
          tuple(f"notes/{n}" for n in ("intuition.md", "00-notation.md", "01-embedding.md", "02-qkv.md",
                                          "03-attention.md", "04-concat.md", "05-layernorm1.md", "06-ffn.md",
                                          "07-layernorm2.md", "08-block.md", "09-accuracy.md"))),
    Track("backprop", "逆伝播と学習: ノートの続き",
          "数学ノート §1〜§8 (順伝播の各段) と、偏微分の連鎖律。",
          tuple(f"backprop/{n}" for n in ("01-loss.md", "02-output-ffn.md", "03-attention.md", "04-sizes.md",
                                             "05-lab.md"))),
    Track("decoder", "デコーダと生成: 文を作るモデル",
          "数学ノート §1〜§8 (ブロックの順伝播)。逆伝播 1 (交差エントロピー) を読んでいると、"
          "損失の話が分かりやすくなります。",
          tuple(f"decoder/{n}" for n in ("01-masked-attention.md", "02-next-word.md", "03-decoding.md",
                                            "04-kv-cache.md", "05-cross-attention.md", "06-additive-attention.md",
                                            "07-tokenization.md"))),
    Track("chapter", "Transformer の章: モデル全体と設計の理由",
          "ベクトルと行列、softmax の形。ノートを先に読んでいれば式の意味がすぐ分かりますが、必須ではありません。",
          tuple(f"chapter/{n}" for n in ("01-overview.md", "02-attention-kinds.md", "03-multi-head.md",
                                            "04-positional-encoding.md", "05-ffn.md", "06-add-norm.md",
                                            "07-training.md", "08-why-self-attention.md", "09-bert-gpt.md",
                                            "10-review.md"))),
    Track("scale", "規模の見積もり: 大きさと計算量",
          "ブロックの段の並び (章の「全体像」か、ノート §8)。掛け算と足し算だけで数えます。",
          tuple(f"scale/{n}" for n in ("01-parameters.md", "02-complexity.md", "03-pre-ln.md"))),
)  # fmt: skip


def track_of(path: str) -> Track | None:
    return next((t for t in TRACKS if path in t.pages), None)


# The page of the other track that covers the same idea: notes ↔ chapter for each stage, and where the scale
# notes' quantities come from. Each pair is listed once and read both ways (``counterparts``).
COUNTERPARTS: tuple[tuple[str, str], ...] = (
    *dict.fromkeys((s.notes, s.chapter) for s in STAGES),
    ("notes/intuition.md", "chapter/01-overview.md"),
    ("notes/00-notation.md", "chapter/01-overview.md"),
    ("notes/08-block.md", "chapter/01-overview.md"),
    ("notes/03-attention.md", "chapter/08-why-self-attention.md"),
    ("notes/09-accuracy.md", "backprop/04-sizes.md"),
    ("backprop/01-loss.md", "chapter/07-training.md"),
    ("backprop/05-lab.md", "chapter/07-training.md"),
    ("notes/08-block.md", "chapter/09-bert-gpt.md"),
    ("scale/01-parameters.md", "notes/08-block.md"),
    ("scale/02-complexity.md", "chapter/08-why-self-attention.md"),
    ("scale/02-complexity.md", "chapter/03-multi-head.md"),
    ("scale/03-pre-ln.md", "chapter/06-add-norm.md"),
    ("chapter/10-review.md", "chapter/01-overview.md"),
    ("decoder/01-masked-attention.md", "chapter/02-attention-kinds.md"),
    ("decoder/02-next-word.md", "backprop/01-loss.md"),
    ("decoder/02-next-word.md", "chapter/09-bert-gpt.md"),
    ("decoder/04-kv-cache.md", "scale/02-complexity.md"),
    ("decoder/05-cross-attention.md", "chapter/02-attention-kinds.md"),
    ("decoder/06-additive-attention.md", "notes/03-attention.md"),
    ("decoder/07-tokenization.md", "notes/01-embedding.md"),
)  # fmt: skip

STAGE_EXTRAS: tuple[tuple[str, str, str], ...] = (
    ("embed", "デコーダ", "decoder/07-tokenization.md"),
    ("qkv", "デコーダ", "decoder/04-kv-cache.md"),
    ("attention", "デコーダ", "decoder/01-masked-attention.md"),
)
"""(stage, link label, page): a page of another track that the large map links from that stage, beside its notes
and chapter pages."""


def stage_extras(key: str) -> tuple[tuple[str, str], ...]:
    """(label, page) of every extra link of stage ``key`` on the large map."""
    return tuple((label, page) for stage_key, label, page in STAGE_EXTRAS if stage_key == key)


def counterparts(path: str) -> tuple[str, ...]:
    """The pages of the other tracks that cover the same idea as ``path`` (both directions of COUNTERPARTS)."""
    found = [b for a, b in COUNTERPARTS if a == path] + [a for a, b in COUNTERPARTS if b == path]
    return tuple(dict.fromkeys(p for p in found if p != path))


# --- reading time ---------------------------------------------------------------------------------------------
# A student reads explanatory Japanese at about CHARS_PER_MINUTE characters a minute (ordinary prose is read
# faster, 500–600; a page of definitions and formulas is slower), and stops at each figure, display formula and
# question. The rule counts what the reader sees: prose characters without markup, code or the source of
# checked numbers, and each fenced block (a figure or table the page executes, or code to read), display
# formula and question (``!!! exercise``).
CHARS_PER_MINUTE = 350
MINUTES_PER_FIGURE = 1.0
MINUTES_PER_FORMULA = 0.5
MINUTES_PER_QUESTION = 2.0

_FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n.*?\n(?:\.{3}|-{3})[ \t]*\n", re.S)
_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})([^\n]*)\n.*?^\1\2[ \t]*$", re.S | re.M)
_EXERCISE = re.compile(r"^!!! exercise(?![\w-])[^\n]*\n(?:(?:[ \t]+[^\n]*)?\n)*", re.M)
_DISPLAY_MATH = re.compile(r"\$\$.*?\$\$", re.S)
_CHECKED = re.compile(r"\{\{\s*(.*?)\s*(?:=|\bif\b|\breported\b|\byear\b|\bpage\b|\bsection\b|\bindex\b)[^}]*\}\}")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_MARKUP = re.compile(r"<[^>]+>|[#*_`|>\[\]$\\{}~-]")
_COMMENT = re.compile(r"<!--.*?-->", re.S)


@dataclass(frozen=True)
class Reading:
    chars: int
    figures: int  # fenced blocks: executed figures and tables, code to read
    formulas: int
    questions: int

    @property
    def minutes(self) -> int:
        """Whole minutes, rounded up: prose at CHARS_PER_MINUTE plus the allowances."""
        m = (self.chars / CHARS_PER_MINUTE + self.figures * MINUTES_PER_FIGURE
             + self.formulas * MINUTES_PER_FORMULA + self.questions * MINUTES_PER_QUESTION)  # fmt: skip
        return max(1, math.ceil(m))


def reading(markdown: str) -> Reading:
    """What a reader has to read on a page whose Markdown source is ``markdown``."""
    text = _COMMENT.sub("", _FRONT_MATTER.sub("", markdown, count=1))
    figures = len(_FENCE.findall(text))  # an executed figure or table, or code to read (a lab's cells)
    text = _FENCE.sub("", text)
    questions = len(_EXERCISE.findall(text))
    text = _EXERCISE.sub("", text)
    formulas = len(_DISPLAY_MATH.findall(text))
    text = _DISPLAY_MATH.sub("", text)
    text = _CHECKED.sub(lambda m: m.group(1), text)
    text = _MARKUP.sub("", _LINK_TARGET.sub("]", text))
    chars = len(re.sub(r"\s+", "", text))
    return Reading(chars, figures, formulas, questions)


def reading_minutes(markdown: str) -> int:
    return reading(markdown).minutes


LABELS = {
    "STAGES": "ブロックの段",
    "TRACKS": "読む道",
    "CHARS_PER_MINUTE": "読む速さ (1 分あたりの字数)",
    "MINUTES_PER_FIGURE": "図・表・コード 1 つに足す分",
    "MINUTES_PER_FORMULA": "別行の数式 1 つに足す分",
    "MINUTES_PER_QUESTION": "確認問題 1 問に足す分",
}
