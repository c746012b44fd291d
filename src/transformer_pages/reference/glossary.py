"""The glossary (用語集): every term the pages use, its written forms, a short definition, and where it is taught.

One table, :data:`TERMS`, read by two things that must not disagree: the glossary page
(``docs/reference/glossary.md``, rendered from it at build time) and the hover/focus definitions on every page
(``transformer_site.course.glossary`` wraps the first occurrence of a term's written form on each page).

Each term has:

- ``headword``: how the glossary lists it;
- ``reading``: its reading in hiragana (for the 五十音 order; empty for a headword that starts in Latin letters,
  which is sorted alphabetically and listed before the kana);
- ``forms``: the spellings that occur in the prose, each wrapped on its page (the headword is one of them unless
  it only exists in formulas). A form in Latin letters only matches as a whole word; a form in katakana only
  matches when no katakana touches it (ヘッド is not found inside マルチヘッド);
- ``definition``: one or two sentences in plain Japanese, with no numbers (the numbers of the preset belong
  to the pages, where they are checked);
- ``taught_at``: the page (and section) that explains it, as a path under ``docs/`` with an optional
  ``#anchor``; the strict build checks the link from the glossary page, a site test checks the anchor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    headword: str
    reading: str
    forms: tuple[str, ...]
    definition: str
    taught_at: str

    @property
    def key(self) -> str:
        """A stable id for the term (its anchor on the glossary page): the headword, ASCII where possible."""
        return _slug(self.headword)


def _slug(text: str) -> str:
    """Latin letters and digits as they are (lower case), any other character as its code point in hex."""
    parts = re.findall(r"[0-9a-z]+|[^0-9a-z\s\-_]", text.lower())
    slug = "-".join(p if p.isascii() else f"{ord(p):x}" for p in parts)
    return slug if text[0].isascii() else f"term-{slug}"


TERMS: tuple[Term, ...] = (
    # The preset and its wiring (notes §0–§2, §6)
    Term("bond", "", ("bond",),
         "この preset の W_Q と W_K で、同じ列に 1 が立っている組。クエリ側の品詞の次元 (形容詞・指示詞・述語) と"
         "キー側の名詞の次元を結び、「名詞を探す」関係を作る。",
         "notes/02-qkv.md#bond-3"),
    Term("品詞カテゴリ", "ひんしかてごり", ("品詞カテゴリ",),
         "この preset の埋め込みの前半の次元 (d0 から d7)。名詞・形容詞・指示詞と代名詞・述語と、助詞・です の"
         "それぞれに 1 つの次元があり、語の属するものにだけ大きな値が入る。",
         "notes/01-embedding.md#w_e"),
    Term("意味の特徴", "いみのとくちょう", ("意味の特徴",),
         "埋め込みの次元のうち、美しさ・大きさ・書物・人気度を表すもの。当てはまる語にだけ値が入る。",
         "notes/01-embedding.md#w_e"),
    Term("識別の痕跡", "しきべつのこんせき", ("識別の痕跡",),
         "埋め込みの最後の 4 つの次元のどれか 1 つに、語の id で決めて置いた小さな値。"
         "同じカテゴリの語 (これ と それ など) がまったく同じベクトルにならないようにするためのもの。",
         "notes/01-embedding.md#w_e"),
    Term("検出器", "けんしゅつき", ("検出器ニューロン", "検出器"),
         "FFN の中間層の 1 ユニットで、入力がある特徴を持つときに大きな正の値を出すよう、重みとバイアスを手で決めた"
         "もの。1 つの次元を見る単一次元の検出器と、2 つの次元を見る AND 検出器がある。",
         "notes/06-ffn.md#detectors"),
    Term("AND 検出器", "", ("AND 検出器",),
         "名詞の次元と特徴の次元の両方が立つときだけ発火するよう意図して作った検出器。実際には片方だけが大きい"
         "ときにも発火することがあり、§6 でその理由を分解する。",
         "notes/06-ffn.md#and-and"),
    Term("発火", "はっか", ("発火",),
         "検出器の出力 ffn_h が、決めたしきい値を超えること。どの検出器が発火したかで、FFN がそのトークンに"
         "何を見つけたかが読める。",
         "notes/06-ffn.md#ffn_h"),
    Term("プリセット", "ぷりせっと", ("プリセット", "preset"),
         "このサイトの数学ノートで使う、重みを学習ではなく規則で手作りした小さな Transformer ブロック。"
         "各次元と各重みに意味があるので、計算の一つひとつを読み解ける。",
         "notes/00-notation.md"),
    # Embedding and position (notes §1)
    Term("トークン", "とーくん", ("トークン",),
         "入力の文を区切った一つひとつの単位。このサイトの例では 1 語が 1 トークンで、ブロックの中では"
         "トークンごとに行列の 1 行になる。",
         "notes/00-notation.md"),
    Term("埋め込み", "うめこみ", ("埋め込み行列", "埋め込み"),
         "語の id を、埋め込み行列 W_E のその語の行 (d_model 次元のベクトル) に置き換えること、またはその"
         "ベクトル。",
         "notes/01-embedding.md#w_e"),
    Term("位置エンコーディング", "いちえんこーでぃんぐ", ("位置エンコーディング",),
         "何番目のトークンかを表すベクトル (W_P の行)。埋め込みに足して、それだけでは語順を区別できない注意に"
         "位置を伝える。このサイトでは正弦波と余弦波から計算する。",
         "notes/01-embedding.md#w_p"),
    # Attention (notes §2–§4, the chapter)
    Term("クエリ", "くえり", ("クエリ",),
         "注意で「探す側」のベクトル (Q)。入力 X に W_Q を掛けて作り、キーとの内積でどこを見るかを決める。",
         "notes/02-qkv.md"),
    Term("キー", "きー", ("キー",),
         "注意で「探される側」のベクトル (K)。入力 X に W_K を掛けて作り、クエリとの内積がスコアになる。",
         "notes/02-qkv.md"),
    Term("バリュー", "ばりゅー", ("バリュー",),
         "注意の重みで混ぜ合わされる中身のベクトル (V)。入力 X に W_V を掛けて作る。",
         "notes/02-qkv.md"),
    Term("内積", "ないせき", ("内積",),
         "2 つのベクトルの同じ位置の成分どうしを掛けて足したもの。向きがそろっているほど大きくなる。",
         "notes/03-attention.md#scores"),
    Term("スコア", "すこあ", ("スコア", "scores", "score"),
         "クエリとキーの内積を √d_k で割った値。大きいほどそのキーに注意が向き、softmax を通すと注意の重みになる。",
         "notes/03-attention.md#scores"),
    Term("softmax", "", ("softmax", "ソフトマックス"),
         "並んだ値それぞれの exp をとって合計で割り、すべて正で足すと 1 になる値に変える関数。大きな値ほど"
         "強く強調される。",
         "notes/03-attention.md#attn-softmax"),
    Term("注意の重み", "ちゅういのおもみ", ("注意の重み", "attention weight"),
         "クエリのトークンがキーの各トークンをどれだけ見るかの割合 (attn)。スコアを softmax に通したもので、"
         "行ごとに足すと 1 になる。",
         "notes/03-attention.md#attn-softmax"),
    Term("ヘッド", "へっど", ("ヘッド",),
         "Multi-Head Attention で、Q・K・V の列を分けて別々に行う注意の計算の一つひとつ。ヘッドごとに別の"
         "関係を見られる。",
         "notes/02-qkv.md#split-heads"),
    Term("Multi-Head Attention", "", ("Multi-Head Attention",),
         "いくつものヘッドで注意を並行に計算し、その出力を連結して W_O を掛ける仕組み。",
         "chapter/03-multi-head.md"),
    Term("Self-Attention", "", ("Self-Attention",),
         "クエリ・キー・バリューをすべて同じ系列から作る注意。系列の中のトークンどうしが互いを見る。",
         "chapter/02-attention-kinds.md"),
    Term("Source-Target Attention", "", ("Source-Target Attention", "Cross-Attention"),
         "クエリをデコーダ側から、キーとバリューをエンコーダの出力から作る注意。Cross-Attention とも呼ぶ。",
         "chapter/02-attention-kinds.md#source-target-attention"),
    Term("マスク", "ますく", ("因果マスク", "マスク"),
         "softmax の前のスコアに足して、見てはいけない位置の注意の重みを 0 にする値。因果マスクは、各位置が"
         "自分より後ろの位置を見ないようにする。",
         "chapter/02-attention-kinds.md#softmax"),
    Term("エンコーダ", "えんこーだ", ("エンコーダ",),
         "入力の系列全体を読み、各トークンのベクトルに書き換えるブロックの積み重ね。"
         "Self-Attention にマスクをかけない。",
         "chapter/01-overview.md"),
    Term("デコーダ", "でこーだ", ("デコーダ",),
         "出力の系列を左から 1 トークンずつ作るブロックの積み重ね。因果マスクをかけた Self-Attention と、"
         "エンコーダを見る Source-Target Attention を持つ。",
         "chapter/01-overview.md"),
    # Residual, LayerNorm, FFN (notes §5–§7, the chapter)
    Term("残差接続", "ざんさせつぞく", ("残差接続", "残差"),
         "部分層の入力を、その出力に足し戻すつなぎ方。部分層が何も足さなくても、入力がそのまま次の段に届く。",
         "notes/05-layernorm1.md#why-residual"),
    Term("LayerNorm", "", ("LayerNorm", "層正規化"),
         "トークンごとに、その行の成分の平均を引いて標準偏差で割る正規化 (そのあと γ 倍して β を足す)。"
         "この preset の γ と β は何も変えない値なので、標準化だけになる。",
         "notes/05-layernorm1.md"),
    Term("Post-LN", "", ("Post-LN",),
         "残差を足した後に LayerNorm を通す置き方。元の Transformer とこの preset の形で、残差の道そのものが"
         "正規化を通る。",
         "chapter/06-add-norm.md#placements"),
    Term("Pre-LN", "", ("Pre-LN",),
         "部分層に入る前に LayerNorm を通し、残差の道には正規化を挟まない置き方。GPT-2 などが使う。",
         "chapter/06-add-norm.md#placements"),
    Term("FFN", "", ("FFN", "Position-wise Feed-Forward Network"),
         "トークンごとに同じ 2 層の全結合 (W1、活性化関数、W2 の順) を掛ける部分層。トークンどうしは混ぜない。",
         "notes/06-ffn.md"),
    Term("GELU", "", ("GELU",),
         "入力 x に「x が正である確からしさ」を掛けた形の、なめらかな活性化関数。大きな正の値はほぼそのまま通し、"
         "大きな負の値はほぼ 0 にする。",
         "notes/06-ffn.md#gelu-relu"),
    Term("ReLU", "", ("ReLU",),
         "負の値を 0 にし、正の値はそのまま通す活性化関数。元の Transformer の FFN が使う。",
         "chapter/05-ffn.md#relu-gelu"),
    # Learning (the backward pass, the chapter)
    Term("損失", "そんしつ", ("損失",),
         "予測がどれだけ外れたかを表す 1 つの数 L。学習は、これが小さくなるように重みを変えていく。",
         "backprop/01-loss.md"),
    Term("交差エントロピー", "こうさえんとろぴー", ("交差エントロピー",),
         "正解の語に予測が与えた確率の対数に、マイナスを付けたもの。正解を確実に当てると 0 になり、"
         "外すほど大きくなる。",
         "backprop/01-loss.md#cross-entropy-gradient"),
    Term("勾配", "こうばい", ("勾配",),
         "ある値を少しだけ変えたとき、損失がどれだけ変わるかを表す偏微分 (∂L/∂…)。学習はこれをもとに重みを"
         "動かす。",
         "backprop/01-loss.md#cross-entropy-gradient"),
    Term("逆伝播", "ぎゃくでんぱ", ("誤差逆伝播", "逆伝播"),
         "損失の勾配を、出力の側から入力の側へ、連鎖律で 1 段ずつさかのぼって求める計算。",
         "backprop/02-output-ffn.md"),
    Term("学習率", "がくしゅうりつ", ("学習率",),
         "1 ステップで重みを動かす大きさを決める倍率。",
         "chapter/07-training.md#learning-rate"),
    Term("ウォームアップ", "うぉーむあっぷ", ("ウォームアップ",),
         "学習の初めの一定のステップのあいだ、学習率を小さな値から少しずつ上げていくこと。",
         "chapter/07-training.md#learning-rate"),
    Term("Adam", "", ("Adam",),
         "勾配の移動平均と、勾配の 2 乗の移動平均を覚えておき、前者を後者の平方根で割った向きに重みを動かす"
         "最適化の方法。",
         "chapter/07-training.md#adam"),
    # Accuracy (notes §9)
    Term("機械イプシロン", "きかいいぷしろん", ("機械イプシロン",),
         "1 と、浮動小数点数で 1 の次に大きい数との差。計算のたびに入る丸め誤差の大きさの目安になる。",
         "notes/09-accuracy.md"),
)  # fmt: skip


_HIRAGANA = re.compile(r"^[\u3041-\u309f\u30fc]+$")
# What the site calls a number a reader sees (a decimal, or an integer of two or more digits): a definition has
# none, because nothing checks it there. Single digits of notation (d0, W1, "1 語") are words, not data.
_NUMBER = re.compile(r"\d[.,]\d|\d{2,}")


def _sort_key(term: Term) -> tuple[int, str]:
    """Latin headwords first (A to Z, case folded), then the kana headwords in 五十音 order of their reading."""
    if term.reading:
        return (1, term.reading)
    return (0, term.headword.casefold())


def in_order() -> tuple[Term, ...]:
    """The terms as the glossary page lists them."""
    return tuple(sorted(TERMS, key=_sort_key))


def check_terms(terms: tuple[Term, ...] = TERMS) -> list[str]:
    """Problems of the table, each naming the term: readings, forms, duplicates, definitions with digits."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for term in terms:
        where = f"glossary term {term.headword!r}"
        if term.reading and not _HIRAGANA.match(term.reading):
            problems.append(f"{where}: reading {term.reading!r} is not hiragana")
        if not term.reading and not term.headword[0].isascii():
            problems.append(f"{where}: a headword in Japanese needs a reading")
        if not term.forms:
            problems.append(f"{where}: no written form")
        for form in term.forms:
            if form in seen:
                problems.append(f"{where}: form {form!r} is also a form of {seen[form]!r}")
            seen[form] = term.headword
        if _NUMBER.search(term.definition):
            problems.append(
                f"{where}: the definition quotes a number; numbers belong to the pages, where they are checked"
            )
        if not term.definition.endswith("。"):
            problems.append(f"{where}: the definition should end with 。")
        if "#" in term.taught_at and not term.taught_at.split("#", 1)[1]:
            problems.append(f"{where}: empty anchor in {term.taught_at!r}")
    return problems
