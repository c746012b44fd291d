"""The build's work on one page's questions: check each against ``src`` and replace it by its markup.

The question blocks are the page model's (``Page.exercises``, read with the page's lines); :func:`check_answer`
evaluates an answer in the citable namespace (``transformer_site.citable``) and says what is wrong with it, if
anything; the markup is ``transformer_site.exercises.html``'s.
"""

from __future__ import annotations

import html

from transformer_site.checked.evaluation import ExpressionError, evaluate
from transformer_site.execution.isolation import StateBaseline
from transformer_site.exercises.html import bank_markdown, exercise_markdown, results_markdown
from transformer_site.failures import Failures
from transformer_site.page import Page
from transformer_site.page.exercises import Exercise, served_orders
from transformer_site.page.formats import NotANumber, as_number

TEXT = {"failed": "この問題は作れませんでした"}
"""The reader-facing words: the title shown in place of a question that could not be made (the build fails)."""


def render_page(
    page: Page, markdown: str, failures: Failures | None = None, baseline: StateBaseline | None = None
) -> str:
    """``markdown`` (the page's Markdown as the builder converts it, after the checked numbers were written as
    literals: line for line the page's body) with every question block replaced by its markup. Each problem is
    reported to ``failures`` (the build's) as ``page.md:line: …``; ``baseline``: the build's record of the state
    executed code may not change."""
    if not page.exercises and page.bank is None and page.exercise_error is None:
        return markdown  # the common case, at no cost
    failures = Failures() if failures is None else failures
    lines = markdown.split("\n")
    body = len(page.lines) - page.body_index
    if page.exercise_error is not None:
        failures.report(f"question: {page.exercise_error}")
        return markdown
    if len(lines) != body:
        failures.report(
            f"question: {page.path}: the page's lines changed before its questions were read ({body} → "
            f"{len(lines)}); the questions are read after the checked numbers, line for line"
        )
        return markdown
    exercises, bank = page.exercises, page.bank
    out: list[str] = []
    pos = 0

    def copy(until: int) -> None:  # the page's own lines, the bank's block replaced by its table and controls
        index = pos
        while index < until:
            if bank and index == bank.index:
                out.extend(bank_markdown(bank, exercises, lines))
                index = bank.end
                continue
            out.append(lines[index])
            index += 1

    for number, (exercise, order) in enumerate(zip(exercises, served_orders(exercises), strict=True), start=1):
        copy(exercise.start)
        problem = check_answer(exercise, baseline)
        if problem is None:
            out.extend(exercise_markdown(exercise, number, lines, order, bank))
        else:
            failures.report(f"question: {problem}")
            out.extend(_error_markdown(problem))
        pos = exercise.end
        if bank and number == len(exercises):
            out.extend(results_markdown(bank, exercises, lines))
    copy(len(lines))
    return "\n".join(out)


def _error_markdown(problem: str) -> list[str]:
    return [
        "",
        f'<div class="admonition failure"><p class="admonition-title">{TEXT["failed"]}</p>'
        f"<pre>{html.escape(problem)}</pre></div>",
        "",
    ]


def check_answer(exercise: Exercise, baseline: StateBaseline | None = None) -> str | None:
    """What is wrong with the answer as ``src`` computes it now (None: nothing). Evaluated in the citable names.

    A number's literal against its value is the checked number's own check (``transformer_site.checked``);
    here: the value is a number at all. A choice: the value is one of the options, and the one the page marks.
    ``baseline``: the build's record of the state executed code may not change (None outside a build).
    """
    at = f"{exercise.page}:{exercise.answer_line}"
    expression = exercise.answer_expression
    try:
        value = evaluate(expression, where=at, baseline=baseline)
    except ExpressionError as exc:
        return f"{at}: the answer of this question cannot be computed: {exc}"
    if exercise.kind == "number":
        try:
            as_number(value)
        except NotANumber as exc:
            return f"{at}: the answer of a number question is not a number: {expression} is {exc}"
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        return (
            f"{at}: the answer of a {exercise.kind} question is an option's key; {expression} gives a "
            f"{type(value).__name__} ({value!r})"
        )
    computed = str(value)
    keys = [o.key for o in exercise.options]
    if computed not in keys:
        return f"{at}: the right option computed by src, {computed!r}, is not among the options ({', '.join(keys)})"
    if computed != exercise.answer_literal:
        return f"{at}: the page marks option {exercise.answer_literal!r} as right, but src computes {computed!r}"
    return None
