"""The exercises hook's work on one page: find the question blocks, check them against ``src``, replace them.

Kept out of the hook file so that tests and the notebook export use the same steps (the hook files hold no
state and import nothing at load time; see ``transformer_site.hooks``).
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from transformer_site.exercise_html import bank_markdown, exercise_markdown, results_markdown
from transformer_site.exercises import ExerciseError, check_answer, find_exercises, served_orders


def render_page(
    markdown: str, original: str, src_path: str | os.PathLike | None, root: str | os.PathLike | None = None
) -> str:
    """``markdown`` (the page after the checked numbers were written as literals) with every question block
    replaced by its markup. ``original``: the page as MkDocs read it, line for line the same as ``markdown``.
    Each problem is reported (``transformer_site.failures``) as ``page.md:line: …``."""
    from transformer_site import failures
    from transformer_site.checked.render import source_line_offset
    from transformer_site.checked.verify import display_path

    if "exercise" not in original:
        return markdown  # the common case, at no cost
    path = display_path(src_path, root) if src_path is not None else "<generated page>"
    first_line = 1 + source_line_offset(original, src_path)
    lines, source = markdown.split("\n"), original.split("\n")
    try:
        if len(lines) != len(source):
            raise ExerciseError(
                f"{path}: the page's lines changed before its questions were read ({len(source)} → {len(lines)}); "
                "the exercises hook must come right after checked_numbers in mkdocs.yml"
            )
        exercises, bank = find_exercises(original, path, first_line)
    except ExerciseError as exc:
        failures.report(f"question: {exc}")
        return markdown
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
        problem = check_answer(exercise)
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
        '<div class="admonition failure"><p class="admonition-title">この問題は作れませんでした</p>'
        f"<pre>{html.escape(problem)}</pre></div>",
        "",
    ]


def page_exercises(path: Path, root: Path):
    """(exercises, bank) of one page file, with lines as its file numbers them (for tests and the notebooks)."""
    from transformer_site.checked.verify import display_path, read_page

    text = read_page(path)
    return find_exercises(text, display_path(path, root))
