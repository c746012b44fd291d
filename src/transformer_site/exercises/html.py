"""A question block (``transformer_site.page.exercises``) as the page shows it: Markdown with the form around it.

The markup is the contract that ``docs/assets/exercises.js`` and any test drive::

    <div class="exercise" data-kind="number|choice|stage" data-answer="0.652" id="q-…">   (md_in_html)
      <p class="exercise-label">問 1 …</p>
      question text (Markdown)
      number: <input class="exercise-input">     choice, stage: <fieldset> of radio buttons
      <button class="exercise-check">確かめる</button>  <p class="exercise-feedback" role="status">
      ??? tip exercise-hint "ヒント"           (pymdownx.details: folded)
      ??? success exercise-solution "解答"     the answer, the worked solution, why each wrong option is wrong
    </div>

``data-answer`` is the literal of the answer computed at build time (a number's literal fixes the precision:
``data-decimals``), or the key of the right option. After a check the script sets ``data-state="correct"`` or
``"incorrect"`` on the element. Nothing is computed in the browser.
"""

from __future__ import annotations

import html

from transformer_site.page.exercises import KINDS, Bank, Exercise

INDENT = " " * 4


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def _indented(text: str) -> list[str]:
    return [INDENT + line if line.strip() else "" for line in text.split("\n")]


def exercise_markdown(exercise: Exercise, number: int, lines: list[str]) -> list[str]:
    """The Markdown lines that replace the block (``lines``: the page's lines, checked numbers already shown as
    their literals, line for line as the source). ``number``: the question's number on its page."""
    qid = exercise.exercise_id
    attrs = f'class="exercise" data-kind="{exercise.kind}" data-answer="{_attr(exercise.answer_literal)}" id="{qid}"'
    if exercise.kind == "number":
        attrs += f' data-decimals="{exercise.decimals}"'
    if exercise.topic:
        attrs += f' data-topic="{_attr(exercise.topic)}"'
    kind = KINDS[exercise.kind]
    label = f'<span class="exercise-number">問 {number}</span> <span class="exercise-kind">{kind}</span>'
    if exercise.topic:
        label += f' <span class="exercise-topic">{html.escape(exercise.topic)}</span>'
    out = ["", f"<div {attrs} markdown>", f'<p class="exercise-label" id="{qid}-label">{label}</p>', ""]
    for section in exercise.question:
        out += [section.text(lines), ""]
    feedback = f'<p class="exercise-feedback" id="{qid}-feedback" role="status" aria-live="polite"></p>'
    button = (
        '<button type="button" class="md-button md-button--primary exercise-check" '
        f'aria-describedby="{qid}-feedback">確かめる</button>'
    )
    if exercise.kind == "number":
        out.append(
            f'<div class="exercise-form"><label class="exercise-input-label" for="{qid}-input">答え'
            f'<span class="exercise-precision">（{exercise.precision}）</span></label> '
            f'<input class="exercise-input" id="{qid}-input" type="text" inputmode="decimal" autocomplete="off" '
            f'spellcheck="false" aria-describedby="{qid}-feedback"> {button}{feedback}</div>'
        )
    else:
        out += [
            f'<fieldset class="exercise-options" markdown><legend class="exercise-legend">問 {number} の答えを 1 つ選ぶ'
            "</legend>",
            *[
                f'<div class="exercise-option" markdown="span"><label><input type="radio" name="{qid}" '
                f'value="{_attr(option.key)}"> <span class="exercise-option-text">{option.text(lines)}</span>'
                "</label></div>"
                for option in exercise.options
            ],
            "</fieldset>",
            "",
            f'<div class="exercise-form">{button}{feedback}</div>',
        ]
    out += ["", '??? tip exercise-hint "ヒント"', *_indented(exercise.hint.text(lines)), ""]
    out += ['??? success exercise-solution "解答"', *_indented(_answer_line(exercise, lines)), ""]
    out += [*_indented(exercise.solution.text(lines)), ""]
    wrong = [o for o in exercise.options if o.key != exercise.answer_literal]
    if wrong:
        out += [INDENT + "**ほかの選択肢が違う理由**", ""]
        for option in wrong:
            reason = " ".join(part.strip() for part in option.reason.text(lines).split("\n") if part.strip())
            out.append(f"{INDENT}- 「{option.text(lines)}」: {reason}")
        out.append("")
    out += ["</div>", ""]
    return out


def _answer_line(exercise: Exercise, lines: list[str]) -> str:
    if exercise.kind == "number":
        return f"答え: **{exercise.answer_literal}**（{exercise.precision}）"
    right = exercise.option(exercise.answer_literal)
    text = right.text(lines)
    if right.reason is not None:
        return f"答え: **{text}**\n\n" + right.reason.text(lines)
    return f"答え: **{text}**"


def bank_markdown(bank: Bank, count: int) -> list[str]:
    """The controls of a question bank: the seed that orders the questions, and the score."""
    return [
        "",
        f'<div class="exercise-bank" data-count="{count}">'
        '<p class="exercise-bank-row"><label for="exercise-seed">並べ方の番号 (シード)</label> '
        '<input id="exercise-seed" class="exercise-seed" type="number" min="0" step="1" value="1" inputmode="numeric"> '
        '<button type="button" class="md-button exercise-shuffle">この番号で並べ替える</button> '
        '<button type="button" class="md-button exercise-reseed">別の番号にする</button></p>'
        f'<p class="exercise-score" role="status" aria-live="polite">{count} 問</p></div>',
        "",
    ]
