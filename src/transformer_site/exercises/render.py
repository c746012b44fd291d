"""The build's work on one page's questions: find the question blocks, check them against ``src``, replace them."""

from __future__ import annotations

import html
import os
from pathlib import Path

from transformer_site.execution.isolation import StateBaseline
from transformer_site.exercises.html import bank_markdown, exercise_markdown
from transformer_site.exercises.syntax import ExerciseError, check_answer, find_exercises
from transformer_site.failures import Failures


def render_page(
    markdown: str,
    original: str,
    src_path: str | os.PathLike | None,
    root: str | os.PathLike | None = None,
    failures: Failures | None = None,
    baseline: StateBaseline | None = None,
) -> str:
    """``markdown`` (the page after the checked numbers were written as literals) with every question block
    replaced by its markup. ``original``: the page as MkDocs read it, line for line the same as ``markdown``.
    Each problem is reported to ``failures`` (the build's) as ``page.md:line: …``; ``baseline``: the build's
    record of the state executed code may not change."""
    from transformer_site.checked.render import source_line_offset
    from transformer_site.checked.verify import display_path

    if "exercise" not in original:
        return markdown  # the common case, at no cost
    failures = Failures() if failures is None else failures
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

    def copy(until: int) -> None:  # the page's own lines, the bank marker replaced by its controls
        for index in range(pos, until):
            out.extend(bank_markdown(bank, len(exercises)) if bank and index == bank.index else [lines[index]])

    for number, exercise in enumerate(exercises, start=1):
        copy(exercise.start)
        problem = check_answer(exercise, baseline)
        if problem is None:
            out.extend(exercise_markdown(exercise, number, lines))
        else:
            failures.report(f"question: {problem}")
            out.extend(_error_markdown(problem))
        pos = exercise.end
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
