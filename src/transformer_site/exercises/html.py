"""A question block (``transformer_site.page.exercises``) as the page shows it: Markdown with the form around it.

The markup is the contract that ``docs/assets/exercises.js`` and any test drive::

    <div class="exercise" data-kind="number|choice|stage" data-answer="0.652" id="q-…">   (md_in_html)
      <p class="exercise-label">問 1 …</p>
      question text (Markdown)
      number: <input class="exercise-input">     choice, stage: <fieldset> of radio buttons, in served order
      <button class="exercise-check">確かめる</button>  <p class="exercise-feedback" role="status">
      ??? tip exercise-hint "ヒント"           (pymdownx.details: folded)
      ??? success exercise-solution "解答"     the answer, the worked solution, why each wrong option is wrong
    </div>

``data-answer`` is the answer computed at build time: the number the reader gives in the question's form
(``data-decimals``, ``data-percent``, ``data-fraction``; ``data-form`` says it in words), or the key of the right
option. Each wrong option's reason carries ``data-option`` (a marker at the start of its line in the solution),
so a wrong choice can be answered with its own reason. After a check the script sets ``data-state="correct"``
or ``"incorrect"``, ``data-tries`` and, once settled, ``data-outcome`` (``first``, ``retry`` or ``shown``).
Nothing is computed in the browser.

A bank page (``!!! exercise-bank``) gets, where its marker stands, the table of its topics (each topic's
questions and the pages to reread) and the controls (the seed, the score, the review of the questions missed);
after its last question, the score per topic.
"""

from __future__ import annotations

import html

from transformer_site.page.exercises import Bank, Exercise, Option

INDENT = " " * 4

TEXT = {
    "number": "問 {number}",
    "check": "確かめる",
    "answer_label": "答え",
    "choose": "問 {number} の答えを 1 つ選ぶ",
    "hint": "ヒント",
    "solution": "解答",
    "why_not": "**ほかの選択肢が違う理由**",
    "wrong_option": "「{option}」: {reason}",
    "number_answer": "答え: **{answer}**（{form}）",
    "choice_answer": "答え: **{text}**",
    "refs_joined": "、",
    "topics_header": "| 着眼点 | 問題 | 読み直すページ |",
    "asked": "（{count} 問）",
    "seed": "並べ方の番号 (シード)",
    "shuffle": "この番号で並べ替える",
    "reseed": "別の番号にする",
    "score": "{count} 問",
    "review": "間違えた問題と解答を見た問題だけ解き直す",
    "results_title": "## 着眼点ごとの結果",
    "results_header": "| 着眼点 | 結果 | 読み直すページ |",
    "unanswered": "{count} 問（未回答）",
}
"""The reader-facing words of a question and of a bank: labels, buttons, headings, the answer's line."""


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def _indented(text: str) -> list[str]:
    return [INDENT + line if line.strip() else "" for line in text.split("\n")]


def exercise_markdown(
    exercise: Exercise, number: int, lines: list[str], order: tuple[Option, ...] = (), bank: Bank | None = None
) -> list[str]:
    """The Markdown lines that replace the block (``lines``: the page's lines, checked numbers already shown as
    their literals, line for line as the source). ``number``: the question's number on its page; ``order``: its
    options in served order (``exercises.served_order``; default: as written); ``bank``: the page's bank."""
    qid = exercise.exercise_id
    answer = exercise.answer_number if exercise.kind == "number" else exercise.answer_literal
    attrs = f'class="exercise" data-kind="{exercise.kind}" data-answer="{_attr(answer)}" id="{qid}"'
    if exercise.kind == "number":
        form = exercise.form
        attrs += f' data-decimals="{form.decimals}" data-form="{_attr(form.words)}"'
        attrs += ' data-percent="1"' * form.percent + ' data-fraction="1"' * form.fraction
    if exercise.topic:
        attrs += f' data-topic="{_attr(exercise.topic)}"'
    label = (
        f'<span class="exercise-number">{TEXT["number"].format(number=number)}</span> '
        f'<span class="exercise-kind">{exercise.kind_name}</span>'
    )
    topic = bank.topic(exercise.topic) if bank is not None and exercise.topic else None
    if topic is not None:
        label += f' <span class="exercise-topic">{html.escape(topic.name)}</span>'
    out = ["", f"<div {attrs} markdown>", f'<p class="exercise-label" id="{qid}-label">{label}</p>', ""]
    for section in exercise.question:
        out += [section.text(lines), ""]
    feedback = f'<p class="exercise-feedback" id="{qid}-feedback" role="status" aria-live="polite"></p>'
    button = (
        '<button type="button" class="md-button md-button--primary exercise-check" '
        f'aria-describedby="{qid}-feedback">{TEXT["check"]}</button>'
    )
    if exercise.kind == "number":
        unit = '<span class="exercise-unit" aria-hidden="true">%</span>' if exercise.form.percent else ""
        out.append(
            f'<div class="exercise-form"><label class="exercise-input-label" for="{qid}-input">{TEXT["answer_label"]}'
            f'<span class="exercise-precision">（{exercise.form.words}）</span></label> '
            f'<span class="exercise-entry"><input class="exercise-input" id="{qid}-input" type="text" '
            'inputmode="decimal" autocomplete="off" spellcheck="false" '
            f'aria-describedby="{qid}-feedback">{unit}</span> {button}{feedback}</div>'
        )
    else:
        out += [
            '<fieldset class="exercise-options" markdown><legend class="exercise-legend">'
            f'{TEXT["choose"].format(number=number)}</legend>',
            *[
                f'<div class="exercise-option" data-served="{position}" markdown="span"><label><input type="radio" '
                f'name="{qid}" value="{_attr(option.key)}"> <span class="exercise-option-text">{option.text(lines)}'
                "</span></label></div>"
                for position, option in enumerate(order or exercise.options)
            ],
            "</fieldset>",
            "",
            f'<div class="exercise-form">{button}{feedback}</div>',
        ]
    out += ["", f'??? tip exercise-hint "{TEXT["hint"]}"', *_indented(exercise.hint.text(lines)), ""]
    out += [f'??? success exercise-solution "{TEXT["solution"]}"', *_indented(_answer_line(exercise, lines)), ""]
    out += [*_indented(exercise.solution.text(lines)), ""]
    wrong = [o for o in (order or exercise.options) if o.key != exercise.answer_literal]
    if wrong:
        out += [INDENT + TEXT["why_not"], ""]
        for option in wrong:
            reason = " ".join(part.strip() for part in option.reason.text(lines).split("\n") if part.strip())
            marker = f'<span class="exercise-reason" data-option="{_attr(option.key)}" hidden></span>'
            out.append(f"{INDENT}- {marker}" + TEXT["wrong_option"].format(option=option.text(lines), reason=reason))
        out.append("")
    out += ["</div>", ""]
    return out


def _answer_line(exercise: Exercise, lines: list[str]) -> str:
    if exercise.kind == "number":
        return TEXT["number_answer"].format(answer=exercise.answer_literal, form=exercise.form.words)
    right = exercise.option(exercise.answer_literal)
    line = TEXT["choice_answer"].format(text=right.text(lines))
    if right.reason is not None:
        return line + "\n\n" + right.reason.text(lines)
    return line


def _one_line(text: str) -> str:
    """Markdown made one line (a table cell): its lines joined by spaces."""
    return " ".join(part.strip() for part in text.split("\n") if part.strip())


def _refs(exercises: list[Exercise], numbers: dict[str, int], key: str) -> str:
    """Links to a topic's questions, numbered as built (the script renumbers them with the questions)."""
    return TEXT["refs_joined"].join(
        f'<a class="exercise-ref" href="#{e.exercise_id}">{TEXT["number"].format(number=numbers[e.exercise_id])}</a>'
        for e in exercises
        if e.topic == key
    )


def bank_markdown(bank: Bank, exercises: list[Exercise], lines: list[str]) -> list[str]:
    """Where the bank marker stands: the table of its topics (each with its questions and the pages to reread),
    then the controls (the seed that orders the questions, the score, the review of the questions missed)."""
    count = len(exercises)
    numbers = {e.exercise_id: n for n, e in enumerate(exercises, start=1)}
    out = [""]
    if bank.topics:
        out += [TEXT["topics_header"], "|---|---|---|"]
        for topic in bank.topics:
            asked = sum(e.topic == topic.key for e in exercises)
            refs = _refs(exercises, numbers, topic.key)
            out.append(
                f'| {topic.name} | <span class="exercise-topic-refs" data-topic="{_attr(topic.key)}" '
                f'data-count="{asked}">{refs}</span>{TEXT["asked"].format(count=asked)} | '
                f"{_one_line(topic.reread.text(lines))} |"
            )
        out.append("")
    out += [
        f'<div class="exercise-bank" data-count="{count}">'
        f'<p class="exercise-bank-row"><label for="exercise-seed">{TEXT["seed"]}</label> '
        '<input id="exercise-seed" class="exercise-seed" type="number" min="0" step="1" value="1" inputmode="numeric"> '
        f'<button type="button" class="md-button exercise-shuffle">{TEXT["shuffle"]}</button> '
        f'<button type="button" class="md-button exercise-reseed">{TEXT["reseed"]}</button></p>'
        f'<p class="exercise-score" role="status" aria-live="polite">{TEXT["score"].format(count=count)}</p>'
        f"{_review_row()}</div>",
        "",
    ]
    return out


def _review_row() -> str:
    return (
        '<p class="exercise-bank-row"><button type="button" class="md-button exercise-review" hidden>'
        f"{TEXT['review']}</button>"
        '<span class="exercise-review-status" role="status" aria-live="polite"></span></p>'
    )


def results_markdown(bank: Bank, exercises: list[Exercise], lines: list[str]) -> list[str]:
    """After a bank's last question: the score per topic, each with the pages to reread, and the review."""
    if not bank.topics:
        return []
    out = ["", TEXT["results_title"], "", '<div class="exercise-results" markdown>', ""]
    out += [TEXT["results_header"], "|---|---|---|"]
    for topic in bank.topics:
        asked = sum(e.topic == topic.key for e in exercises)
        out.append(
            f'| {topic.name} | <span class="exercise-topic-score" data-topic="{_attr(topic.key)}" '
            f'data-count="{asked}">{TEXT["unanswered"].format(count=asked)}</span> | '
            f"{_one_line(topic.reread.text(lines))} |"
        )
    out += ["", _review_row(), "", "</div>", ""]
    return out
