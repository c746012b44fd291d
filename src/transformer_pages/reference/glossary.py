"""The glossary (用語集): every term the pages use, its written forms, a short definition, and where it is taught.

One table, :data:`TERMS`, read by two things that must not disagree: the glossary page
(``docs/reference/glossary.md``, rendered from it at build time) and the hover/focus definitions on every page
(``transformer_site.course.glossary`` wraps the first occurrence of a term's written form on each page).

Each term has:

- ``headword``: how the glossary lists it;
- ``reading``: its reading in hiragana (for the 五十音 order; empty for a headword that starts in Latin letters,
  which is sorted alphabetically and listed before the kana);
- ``english``: the name papers and exams use (Query, residual connection, layer normalization), shown in the
  entry and in the tooltip;
- ``forms``: the spellings that occur in the prose, each wrapped on its page (the headword is one of them unless
  it only exists in formulas). A form in Latin letters only matches as a whole word; a form in katakana only
  matches when no katakana touches it (ヘッド is not found inside マルチヘッド);
- ``definition``: one or two sentences in plain Japanese, with no numbers (the numbers of the preset belong
  to the pages, where they are checked);
- ``taught_at``: the page (and section) that explains it, as a path under ``docs/`` with an optional
  ``#anchor``; the strict build checks the link from the glossary page, a site test checks the anchor;
- ``not_in``: longer words that contain a form but mean something else (「Tab キー」 is no attention key,
  「位置埋め込み」 no word embedding): where one of them is written, the form is not the term;
- ``site_only``: a word of this site's hand-made model, not of the literature (the entry and tooltip say so);
- ``search_also``: spellings a reader may type into the search that the prose does not write (the katakana of an
  English name: レイヤー正規化 for LayerNorm). The search treats all of a term's spellings — its forms, its English
  names and these — as one (``transformer_site`` search: a section that writes one is found by the others).

The module is a catalogue of words as a whole: an edition in another language gives its own table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    headword: str
    reading: str
    english: str
    forms: tuple[str, ...]
    definition: str
    taught_at: str
    not_in: tuple[str, ...] = ()
    site_only: bool = False
    search_also: tuple[str, ...] = ()

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
    # The preset and its wiring (notes §0–§2, §6): words of this site, with the English a paper would use
    Term("bond", "", "bond", ("bond",),
         "このサイトのプリセットの W_Q と W_K で、同じ列に 1 が立っている組。クエリ側の品詞の次元 (形容詞・指示詞・"
         "述語) とキー側の名詞の次元を結び、「名詞を探す」関係を作る。",
         "notes/02-qkv.md#bond-3", site_only=True),
    Term("品詞カテゴリ", "ひんしかてごり", "part-of-speech category", ("品詞カテゴリ",),
         "このサイトのプリセットの埋め込みの前半の次元 (d0 から d7)。名詞・形容詞・指示詞と代名詞・述語と、"
         "助詞・「です」のそれぞれに 1 つの次元があり、語の属するものにだけ大きな値が入る。",
         "notes/01-embedding.md#w_e", site_only=True),
    Term("意味の特徴", "いみのとくちょう", "semantic feature", ("意味の特徴",),
         "埋め込みの次元のうち、美しさ・大きさ・書物・人気度を表すもの。当てはまる語にだけ値が入る。",
         "notes/01-embedding.md#w_e", site_only=True),
    Term("識別の痕跡", "しきべつのこんせき", "identity trace", ("識別の痕跡",),
         "埋め込みの最後の 4 つの次元のどれか 1 つに、語の id で決めて置いた小さな値。"
         "同じカテゴリの語 (「これ」と「それ」など) がまったく同じベクトルにならないようにするためのもの。",
         "notes/01-embedding.md#w_e", site_only=True),
    Term("検出器", "けんしゅつき", "detector", ("検出器ニューロン", "検出器"),
         "FFN の中間層の 1 ユニットで、入力がある特徴を持つときに大きな正の値を出すよう、重みとバイアスを手で決めた"
         "もの。1 つの次元を見る単一次元の検出器と、2 つの次元を見る AND 検出器がある。",
         "notes/06-ffn.md#detectors", site_only=True),
    Term("AND 検出器", "", "AND detector", ("AND 検出器",),
         "名詞の次元と特徴の次元の両方が立つときだけ発火するよう意図して作った検出器。実際には片方だけが大きい"
         "ときにも発火することがあり、§6 でその理由を分解する。",
         "notes/06-ffn.md#and-and", site_only=True),
    Term("発火", "はっか", "firing", ("発火",),
         "検出器の出力 ffn_h が、決めたしきい値を超えること。どの検出器が発火したかで、FFN がそのトークンに"
         "何を見つけたかが読める。",
         "notes/06-ffn.md#ffn_h", site_only=True),
    Term("プリセット", "ぷりせっと", "preset", ("プリセット", "preset"),
         "このサイトの数学ノートで使う、重みを学習ではなく規則で手作りした小さな Transformer ブロック。"
         "各次元と各重みに意味があるので、計算の一つひとつを読み解ける。",
         "notes/00-notation.md", site_only=True),
    # Embedding and position (notes §1, the chapter)
    Term("トークン", "とーくん", "token", ("トークン",),
         "入力の文を区切った一つひとつの単位。このサイトの例では 1 語が 1 トークンで、ブロックの中では"
         "トークンごとに行列の 1 行になる。",
         "notes/00-notation.md"),
    Term("語彙", "ごい", "vocabulary", ("語彙",),
         "モデルが扱えるトークンの種類の一覧。埋め込み行列の各行が語彙の 1 語に対応し、出力層は語彙のどの語かの"
         "確率を出す。",
         "notes/01-embedding.md#w_e"),
    Term("埋め込み", "うめこみ", "embedding", ("埋め込み行列", "埋め込み"),
         "語の id を、埋め込み行列 W_E のその語の行 (d_model 次元のベクトル) に置き換えること、またはその"
         "ベクトル。",
         "notes/01-embedding.md#w_e", not_in=("位置埋め込み", "セグメント埋め込み")),
    Term("位置エンコーディング", "いちえんこーでぃんぐ", "positional encoding", ("位置エンコーディング",),
         "何番目のトークンかを表すベクトル (W_P の行)。埋め込みに足して、それだけでは語順を区別できない注意に"
         "位置を伝える。原論文とこのサイトでは、正弦波と余弦波から計算する。",
         "notes/01-embedding.md#w_p"),
    Term("位置埋め込み", "いちうめこみ", "learned position embedding", ("位置埋め込み",),
         "位置ごとに 1 つのベクトルを持つ表で、重みとして学習するもの。BERT と GPT は、正弦波の位置エンコーディングの"
         "代わりにこれを使う。",
         "chapter/04-positional-encoding.md"),
    # Attention (notes §2–§4, the chapter)
    Term("クエリ", "くえり", "Query", ("クエリ",),
         "注意で「探す側」のベクトル (Q)。入力 X に W_Q を掛けて作り、キーとの内積でどこを見るかを決める。",
         "notes/02-qkv.md"),
    Term("キー", "きー", "Key", ("キー",),
         "注意で「探される側」のベクトル (K)。入力 X に W_K を掛けて作り、クエリとの内積がスコアになる。",
         "notes/02-qkv.md", not_in=("Tab キー", "Esc キー", "Enter キー", "Shift キー", "矢印キー")),
    Term("バリュー", "ばりゅー", "Value", ("バリュー",),
         "注意の重みで混ぜ合わされる中身のベクトル (V)。入力 X に W_V を掛けて作る。",
         "notes/02-qkv.md"),
    Term("内積", "ないせき", "dot product", ("内積",),
         "2 つのベクトルの同じ位置の成分どうしを掛けて足したもの。長さが同じなら、向きがそろっているほど大きくなる。",
         "notes/03-attention.md#scores", not_in=("スケール化内積注意",)),
    Term("スコア", "すこあ", "attention score", ("スコア",),
         "クエリとキーの内積を √d_k で割った値。大きいほどそのキーに注意が向き、softmax を通すと注意の重みになる。",
         "notes/03-attention.md#scores"),
    Term("softmax", "", "softmax function", ("softmax", "ソフトマックス"),
         "並んだ値それぞれの exp をとって合計で割り、すべて正で足すと 1 になる値に変える関数。大きな値ほど"
         "強く強調される。",
         "notes/03-attention.md#attn-softmax"),
    Term("注意の重み", "ちゅういのおもみ", "attention weight", ("注意の重み", "attention weight"),
         "クエリのトークンがキーの各トークンをどれだけ見るかの割合 (attn)。スコアを softmax に通したもので、"
         "行ごとに足すと 1 になる。",
         "notes/03-attention.md#attn-softmax"),
    Term("注意機構", "ちゅういきこう", "attention (attention mechanism)", ("注意機構",),
         "各トークンが、クエリとキーの内積で決めた重みでほかのトークンのバリューを足し合わせ、文のほかの位置の"
         "情報を集める仕組み。Transformer では、スケール化内積注意の形で計算する。",
         "notes/03-attention.md", search_also=("アテンション", "注意")),
    Term("スケール化内積注意", "すけーるかないせきちゅうい", "Scaled Dot-Product Attention",
         ("スケール化内積注意", "Scaled Dot-Product Attention"),
         "クエリとキーの内積を √d_k で割ってスコアにし、各行を softmax で注意の重みに変え、その重みでバリューを"
         "足し合わせる計算。Transformer の注意はすべてこの形をとる。",
         "notes/03-attention.md"),
    Term("ヘッド", "へっど", "attention head", ("ヘッド",),
         "Multi-Head Attention で、Q・K・V の列を分けて別々に行う注意の計算の一つひとつ。ヘッドごとに別の"
         "関係を見られる。",
         "notes/02-qkv.md#split-heads"),
    Term("Multi-Head Attention", "", "Multi-Head Attention", ("Multi-Head Attention",),
         "いくつものヘッドで注意を並行に計算し、その出力を連結して W_O を掛ける仕組み。",
         "chapter/03-multi-head.md"),
    Term("Self-Attention", "", "Self-Attention", ("Self-Attention",),
         "クエリ・キー・バリューをすべて同じ系列から作る注意。系列の中のトークンどうしが互いを見る。",
         "chapter/02-attention-kinds.md"),
    Term("Source-Target Attention", "", "Source-Target Attention (encoder-decoder attention, cross-attention)",
         ("Source-Target Attention", "Cross-Attention"),
         "クエリをデコーダ側から、キーとバリューをエンコーダの出力から作る注意。Cross-Attention とも呼ぶ。",
         "chapter/02-attention-kinds.md#source-target-attention"),
    Term("マスク", "ますく", "mask (causal mask)", ("因果マスク", "マスク"),
         "softmax の前のスコアに足して、見てはいけない位置の注意の重みを 0 にする値。因果マスクは、各位置が"
         "自分より後ろの位置を見ないようにする。",
         "chapter/02-attention-kinds.md#softmax"),
    Term("パディング", "ぱでぃんぐ", "padding", ("パディング",),
         "長さの違う系列をまとめて計算するために、短い系列の後ろに詰める意味のないトークン。パディングマスクで"
         "その位置の列を隠し、どのクエリもそれをキーとして見ないようにする。",
         "chapter/02-attention-kinds.md#padding-mask"),
    Term("自己回帰", "じこかいき", "autoregressive", ("自己回帰",),
         "系列を左から 1 トークンずつ、それまでのトークンだけから次のトークンを予測し、予測したものを入力の後ろに"
         "つないでまた予測する進め方。デコーダと GPT はこの形で生成し、学習では因果マスクで同じ条件を作る。",
         "chapter/02-attention-kinds.md#softmax"),
    Term("エンコーダ", "えんこーだ", "encoder", ("エンコーダ",),
         "入力の系列全体を読み、各トークンのベクトルに書き換えるブロックの積み重ね。"
         "Self-Attention にマスクをかけない。",
         "chapter/01-overview.md"),
    Term("デコーダ", "でこーだ", "decoder", ("デコーダ",),
         "出力の系列を左から 1 トークンずつ作るブロックの積み重ね。因果マスクをかけた Self-Attention と、"
         "エンコーダを見る Source-Target Attention を持つ。",
         "chapter/01-overview.md"),
    # Residual, LayerNorm, FFN (notes §5–§7, the chapter)
    Term("残差接続", "ざんさせつぞく", "residual connection", ("残差接続", "残差"),
         "部分層の入力を、その出力に足し戻すつなぎ方。部分層が何も足さなくても、入力がそのまま次の段に届く。",
         "notes/05-layernorm1.md#why-residual", not_in=("残差ストリーム",)),
    Term("残差ストリーム", "ざんさすとりーむ", "residual stream", ("残差ストリーム",),
         "残差接続でブロックからブロックへ受け渡されていく、各トークンのベクトル。各部分層はこれを読み、"
         "出力をこれに足し込む。",
         "chapter/06-add-norm.md#placements"),
    Term("LayerNorm", "", "layer normalization", ("LayerNorm", "層正規化"),
         "トークンごとに、その行の成分の平均を引いて標準偏差で割る正規化 (そのあと γ 倍して β を足す)。"
         "このサイトのプリセットの γ と β は何も変えない値なので、標準化だけになる。",
         "notes/05-layernorm1.md", search_also=("レイヤー正規化", "レイヤーノーム")),
    Term("Post-LN", "", "Post-LN (post-layer normalization)", ("Post-LN",),
         "残差を足した後に LayerNorm を通す置き方。元の Transformer とこのサイトのプリセットの形で、残差の道"
         "そのものが正規化を通る。",
         "chapter/06-add-norm.md#placements"),
    Term("Pre-LN", "", "Pre-LN (pre-layer normalization)", ("Pre-LN",),
         "部分層に入る前に LayerNorm を通し、残差の道には正規化を挟まない置き方。GPT-2 などが使う。",
         "chapter/06-add-norm.md#placements"),
    Term("FFN", "", "position-wise feed-forward network", ("FFN", "Position-wise Feed-Forward Network"),
         "トークンごとに同じ 2 層の全結合 (W1、活性化関数、W2 の順) を掛ける部分層。トークンどうしは混ぜない。",
         "notes/06-ffn.md"),
    Term("活性化関数", "かっせいかかんすう", "activation function", ("活性化関数",),
         "FFN の中間層で、各成分に 1 つずつかける非線形の関数。ReLU や GELU がある。これがないと 2 層の全結合は"
         "1 つの行列の積と同じになる。",
         "notes/06-ffn.md#gelu-relu"),
    Term("GELU", "", "Gaussian Error Linear Unit", ("GELU",),
         "入力 x に Φ(x) を掛けた活性化関数 x·Φ(x)。Φ(x) = P(Z ≤ x) は、標準正規分布に従う Z が x 以下になる"
         "確率。大きな正の値はほぼそのまま通し、大きな負の値はほぼ 0 にする。このサイトでは tanh を使った近似式で"
         "計算する。",
         "notes/06-ffn.md#gelu-relu"),
    Term("ReLU", "", "rectified linear unit", ("ReLU",),
         "負の値を 0 にし、正の値はそのまま通す活性化関数 max(0, x)。元の Transformer の FFN が使う。",
         "chapter/05-ffn.md#relu-gelu"),
    # Learning (the backward pass, the chapter)
    Term("損失", "そんしつ", "loss", ("損失",),
         "予測がどれだけ外れたかを表す 1 つの数 L。学習は、これが小さくなるように重みを変えていく。",
         "backprop/01-loss.md"),
    Term("交差エントロピー", "こうさえんとろぴー", "cross-entropy", ("交差エントロピー",),
         "目標の分布で重みを付けた、予測の確率の対数の和にマイナスを付けたもの。目標が one-hot なら、正解の語に"
         "予測が与えた確率の対数にマイナスを付けたものになり、正解を確実に当てると 0、外すほど大きくなる。",
         "backprop/01-loss.md#cross-entropy-gradient"),
    Term("勾配", "こうばい", "gradient", ("勾配",),
         "ある値を少しだけ変えたとき、損失がどれだけ変わるかを表す偏微分 (∂L/∂…)。学習はこれをもとに重みを"
         "動かす。",
         "backprop/01-loss.md#cross-entropy-gradient", search_also=("グラディエント",)),
    Term("逆伝播", "ぎゃくでんぱ", "backpropagation", ("誤差逆伝播", "逆伝播"),
         "損失の勾配を、出力の側から入力の側へ、連鎖律で 1 段ずつさかのぼって求める計算。",
         "backprop/02-output-ffn.md"),
    Term("ヤコビアン", "やこびあん", "Jacobian", ("ヤコビアン",),
         "ベクトルを受け取ってベクトルを返す関数の、各出力を各入力で偏微分した値を並べた行列。逆伝播では、"
         "上流から届いた勾配にこれを掛けて、1 段手前の勾配にする。",
         "backprop/03-attention.md#softmax"),
    Term("学習率", "がくしゅうりつ", "learning rate", ("学習率",),
         "1 ステップで重みを動かす大きさを決める倍率。",
         "chapter/07-training.md#learning-rate"),
    Term("ウォームアップ", "うぉーむあっぷ", "warmup", ("ウォームアップ",),
         "学習の初めの一定のステップのあいだ、学習率を小さな値から少しずつ上げていくこと。",
         "chapter/07-training.md#learning-rate"),
    Term("Adam", "", "Adam (adaptive moment estimation)", ("Adam",),
         "勾配の移動平均と、勾配の 2 乗の移動平均を覚えておき、前者を後者の平方根で割った向きに重みを動かす"
         "最適化の方法。",
         "chapter/07-training.md#adam"),
    Term("ドロップアウト", "どろっぷあうと", "dropout", ("ドロップアウト",),
         "学習のあいだだけ、各要素を決めた確率 P_drop で 0 にし、残った要素を 1/(1 − P_drop) 倍して期待値を保つ"
         "正則化。推論では何もしない。原論文は各部分層の出力 (残差に足す前) と、埋め込みと位置エンコーディングの和に"
         "かける。",
         "chapter/07-training.md#dropout"),
    Term("ラベル平滑化", "らべるへいかつか", "label smoothing", ("ラベル平滑化",),
         "one-hot の目標に 1 − ε_ls を掛け、残りの ε_ls を語彙のすべての語に均等に配った分布を目標にして学習すること。"
         "正解のロジットをほかより限りなく大きくしようとするのを抑える。",
         "chapter/07-training.md#label-smoothing"),
    # Models built from the block (the chapter)
    Term("BERT", "", "Bidirectional Encoder Representations from Transformers", ("BERT",),
         "Transformer のエンコーダだけを積み重ね、MLM と NSP で事前学習したモデル。各トークンが左右両方の文脈を"
         "見る。出力層を足して、タスクごとに微調整して使う。",
         "chapter/09-bert-gpt.md#bert"),
    Term("GPT", "", "Generative Pre-trained Transformer", ("GPT",),
         "因果マスクをかけた Self-Attention のブロック (Source-Target Attention はない) を積み重ね、前の語から"
         "次の語を当てる言語モデルとして事前学習したモデル。自己回帰で文を生成する。",
         "chapter/09-bert-gpt.md#gpt"),
    Term("MLM", "", "masked language model", ("MLM",),
         "入力のトークンの一部を予測の対象に選び、その多くを [MASK] に、一部をランダムな語に置き換え、残りは"
         "そのままにして、選んだ位置の元の語を当てさせる事前学習の課題。BERT が使う。",
         "chapter/09-bert-gpt.md#mlm"),
    Term("NSP", "", "next sentence prediction", ("NSP",),
         "2 つの文を [SEP] でつないで入力し、2 文目が 1 文目の本当の続きか、コーパスから無作為に選んだ文かを"
         "[CLS] の位置の出力から当てさせる事前学習の課題。BERT が MLM と一緒に使う。",
         "chapter/09-bert-gpt.md#nsp"),
    Term("事前学習", "じぜんがくしゅう", "pre-training", ("事前学習",),
         "ラベルなしの大量のテキストから作れる課題 (穴埋めや次の語の予測) でモデルを学習しておくこと。"
         "その重みから始めて、個々のタスクに合わせて微調整する。",
         "chapter/09-bert-gpt.md"),
    Term("微調整", "びちょうせい", "fine-tuning", ("微調整", "ファインチューニング"),
         "事前学習した重みから始めて、個々のタスクのラベル付きデータでモデル全体をさらに学習すること。",
         "chapter/09-bert-gpt.md#bert"),
    # Why self-attention (the chapter)
    Term("再帰層", "さいきそう", "recurrent layer (RNN)", ("再帰層", "RNN"),
         "系列を 1 位置ずつ順に読み、前の位置の隠れ状態と今の入力から次の隠れ状態を作る層。位置の数だけ"
         "順番に計算するので、系列の中では並列にできない。",
         "chapter/08-why-self-attention.md"),
    Term("畳み込み層", "たたみこみそう", "convolutional layer", ("畳み込み層",),
         "決まった幅の窓に入る近くの位置だけを混ぜる計算を、系列に沿ってずらしながら使う層。遠い位置どうしを"
         "つなぐには層を重ねる必要がある。",
         "chapter/08-why-self-attention.md"),
    Term("最長経路", "さいちょうけいろ", "maximum path length", ("最長経路",),
         "系列のある位置の情報が別の位置に届くまでに通る段数の、位置の組についての最大。Self-Attention は 1 層で"
         "どの 2 位置もつなぐ。",
         "chapter/08-why-self-attention.md"),
    # Accuracy (notes §9)
    Term("機械イプシロン", "きかいいぷしろん", "machine epsilon", ("機械イプシロン",),
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
        if not term.english or not term.english.isascii():
            problems.append(f"{where}: no English name (the name papers and exams use)")
        for phrase in term.not_in:
            if not any(form in phrase for form in term.forms):
                problems.append(f"{where}: not_in phrase {phrase!r} contains none of its forms")
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
