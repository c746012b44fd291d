"""The try-it page's generation panel: the decoder preset continues a prompt one word at a time in the browser.

The page embeds the decoder preset for the kernel (:func:`transformer_site.panels.kernel_data.decoder_data`, read by
``TransformerKernel.decoder``) and what the panel draws with: the prompts it offers, the knobs' defaults and limits,
the colour map of the attention rows and its words. The kernel computes every number the panel shows
(docs/assets/panels.js, ``initGenerate``). Data is HTML-escaped text inside a ``<template>``: never markup.
"""

from __future__ import annotations

import html
from functools import lru_cache

from transformer_figures.palette_data import palette_data
from transformer_math import decoder_preset as dp
from transformer_site.panels.html import MAX_QUERY_LENGTH, MAX_TEXT_LENGTH, _check_id, _template
from transformer_site.panels.kernel_data import decoder_data

MAX_TEMPERATURE = 10
"""The largest temperature the panel takes (any τ > 0 is a temperature; beyond 10 every word is nearly as likely)."""
TOP_ROWS = 5
"""Words shown per step before a reader opens the whole distribution."""
DEFAULTS = {"temperature": 1.0, "top_k": None, "top_p": 1.0, "seed": 0}

TEXT = {
    "prompt_legend": "プロンプト",
    "examples": "例文の最初の 3 語",
    "typed": "（入力したプロンプト）",
    "bos_only": "<bos> だけ",
    "prompt_label": "プロンプトを入力（語を空白で区切る。先頭の <bos> は自動で付きます）",
    "prompt_example": "例: 私 は 猫",
    "generate": "このプロンプトで生成",
    "knobs_legend": "語の選び方",
    "temperature": "温度 τ（0 より大きい数）",
    "top_k": "top-k（確率の高い k 語だけ残す）",
    "all_words": "すべての語",
    "top_p": "top-p（0 より大きく 1 以下）",
    "seed": "乱数の種（0〜4294967295 の整数）",
    "next_seed": "次の種",
    "reset": "最初の設定に戻す",
    "share": "この生成へのリンク",
    "hint": (
        "top-k を 1 にすると、毎回いちばん確率の高い語を選ぶ貪欲法になり、種を変えても結果は変わりません。"
        "各ステップの「注意を見る」を開くと、そのステップで最後の語が前の語にかけた注意の重みが出ます。"
    ),
    "result": "生成の結果",
    "steps": "ステップごとの次の語の確率",
    "noscript": "生成を動かすには JavaScript が必要です。",
    # drawn by panels.js
    "word": "語",
    "p_model": "モデルの確率",
    "p_draw": "抽選に使う確率",
    "chosen": "選んだ語",
    "dropped": "外した",
    "top_words": "確率の高い {n} 語（τ・top-k・top-p で変えた後の確率も）",
    "all_words_caption": "すべての語",
    "open_all": "すべての語の確率を見る",
    "open_attention": "このステップの注意を見る",
    "attention_caption": "最後の語から前の語への注意の重み（行 = ブロックとヘッド、列 = 語と位置）",
    "block_head": "ブロック {b}・ヘッド {a}",
    "step_title": "ステップ {n}:「{last}」の次は ",
    "u_line": "一様乱数 u = {u}、抽選に残った語は {kept} 語",
    "stopped_eos": "<eos> を選んだので止まりました。",
    "stopped_positions": "入力がモデルの読める {n} 位置に届いたので止まりました。",
    "stopped_steps": "決めた語数に届いたので止まりました。",
    "empty_prompt": (
        "プロンプトが空です。語を 1 つ以上入れてください"
        "（<bos> だけから始めるには、例文の選択で「<bos> だけ」を選びます）。"
    ),
    "unknown_word": "「{word}」は語彙にない語です（入力の {n} 語目）。使える語: ",
    "too_long": "<bos> を入れて {count} 語あります。モデルが読めるのは {n} 語までです。",
    "bad_temperature": "温度 τ は 0 より大きく {max} 以下の数にしてください。",
    "bad_top_p": "top-p は 0 より大きく 1 以下の数にしてください。",
    "bad_seed": "乱数の種は 0〜4294967295 の整数にしてください。",
    "url_too_long": "URL の状態が長すぎます（{n} 文字）",
    "url_prompt": "gw は <bos> の番号 {bos} で始まり、語の番号を {n} 個までピリオドでつないだものです",
    "url_temperature": "gt は 0 より大きく {max} 以下の数です",
    "url_top_k": "gk は 1〜{n} の整数です",
    "url_top_p": "gp は 0 より大きく 1 以下の数です",
    "url_seed": "gs は 0〜4294967295 の整数です",
    "url_fallback": "。最初の設定で表示しています。",
}


def prompts() -> list[dict]:
    """The prompts the panel offers: <bos> and the first three words of each example sentence, then <bos> alone."""
    model = dp.decoder_preset()
    out = []
    for n in range(1, len(model.sentences) + 1):
        ids = dp.sentence_ids(n)[: 1 + dp.PROMPT_WORDS].tolist()
        out.append({"label": f"{n}: {model.text(ids[1:])} …", "ids": ids})
    out.append({"label": TEXT["bos_only"], "ids": [model.bos]})
    return out


@lru_cache(maxsize=1)
def generation_data() -> dict:
    return {
        "prompts": prompts(),
        "defaults": DEFAULTS,
        "max_temperature": MAX_TEMPERATURE,
        "max_query_length": MAX_QUERY_LENGTH,
        "top_rows": TOP_ROWS,
        "palette": palette_data()["sequential"],
        "text": TEXT,
    }


def _options(items: list[tuple[str, str]]) -> str:
    return "".join(f'<option value="{html.escape(v)}">{html.escape(label)}</option>' for v, label in items)


def generation_panel_html(panel_id: str = "generate") -> str:
    """Prompt (an example's or typed), temperature, top-k, top-p and seed; the generated words step by step."""
    p = _check_id(panel_id)
    data = generation_data()
    t = {k: html.escape(v) for k, v in TEXT.items()}
    examples = _options([("", TEXT["typed"])] + [(str(i), q["label"]) for i, q in enumerate(data["prompts"])])
    n_words = len(dp.decoder_preset().vocab)
    top_k = _options([("", TEXT["all_words"])] + [(str(k), str(k)) for k in range(1, n_words + 1)])
    return f"""<div class="tm-panel tm-generate" data-tm-panel="generate" id="{p}">
<p class="tm-message" role="alert" data-role="message" hidden></p>
<fieldset class="tm-group"><legend>{t["prompt_legend"]}</legend>
<div class="tm-controls">
<label for="{p}-preset">{t["examples"]}</label>
<select id="{p}-preset" data-role="preset">{examples}</select>
</div>
<form class="tm-text" data-role="prompt-form">
<label for="{p}-prompt">{t["prompt_label"]}</label>
<span class="tm-text-row"><input type="text" id="{p}-prompt" data-role="prompt" maxlength="{MAX_TEXT_LENGTH}"
 autocomplete="off" spellcheck="false" placeholder="{t["prompt_example"]}">
<button type="submit" class="md-button">{t["generate"]}</button></span>
</form>
</fieldset>
<fieldset class="tm-group"><legend>{t["knobs_legend"]}</legend>
<div class="tm-gen-knobs">
<label for="{p}-temperature">{t["temperature"]}</label>
<input type="text" inputmode="decimal" id="{p}-temperature" data-role="temperature" autocomplete="off">
<label for="{p}-top-k">{t["top_k"]}</label>
<select id="{p}-top-k" data-role="top-k">{top_k}</select>
<label for="{p}-top-p">{t["top_p"]}</label>
<input type="text" inputmode="decimal" id="{p}-top-p" data-role="top-p" autocomplete="off">
<label for="{p}-seed">{t["seed"]}</label>
<span class="tm-text-row"><input type="text" inputmode="numeric" id="{p}-seed" data-role="seed" autocomplete="off">
<button type="button" class="md-button" data-role="next-seed">{t["next_seed"]}</button></span>
</div>
<p class="tm-hint">{t["hint"]}</p>
<p><button type="button" class="md-button" data-role="reset">{t["reset"]}</button>
<a data-role="share" href="">{t["share"]}</a></p>
</fieldset>
<section class="tm-summary" data-role="result" aria-live="polite" aria-label="{t["result"]}"></section>
<ol class="tm-gen-steps" data-role="steps" aria-label="{t["steps"]}"></ol>
<noscript>{t["noscript"]}</noscript>
{_template("tm-panel-data", data)}
{_template("tm-decoder-data", decoder_data())}
</div>
"""
