"""確認問題 in the browser: every question of every page answered right and wrong, as a reader would.

The markup contract (``transformer_site.exercise_html``): each question is ``.exercise[data-kind]``, a number
question carries ``data-answer`` (its literal), a 「確かめる」 button checks, and the question then has
``data-state="correct"`` or ``"incorrect"``. Here, on the built site: every content page has two questions or
more and the exam page thirty or more; for every number question the literal is accepted and a value one unit
of its last digit away is refused; every choice question accepts exactly its right option; the state survives a
reload and the page's button clears it; questions work after Material's instant navigation; the exam page
orders its questions by the seed; checking sends nothing anywhere.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

CONTENT = re.compile(r"^(notes|chapter|scale)/\d\d-(?!references/|review/)[^/]+/$")
EXAM = "chapter/10-review/"


def _off_by_one_unit(literal: str) -> str:
    """The literal with its last digit moved by one unit (9 → 8, any other d → d + 1)."""
    index = max(i for i, ch in enumerate(literal) if ch.isdigit())
    digit = int(literal[index])
    return literal[:index] + ("8" if digit == 9 else str(digit + 1)) + literal[index + 1 :]


@pytest.fixture()
def tab(shared_browser):
    context = shared_browser.new_context(viewport={"width": 390, "height": 900}, locale="ja-JP")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    yield page, errors
    context.close()


def _state(question) -> str | None:
    return question.get_attribute("data-state")


def test_every_question_accepts_its_answer_and_refuses_a_wrong_one(tab, shared_server, shared_pages):
    page, errors = tab
    content = [p for p in shared_pages if CONTENT.match(p)]
    assert len(content) >= 22, content
    counts, problems = {}, []
    for path in [*content, EXAM]:
        page.goto(shared_server + path, wait_until="networkidle")
        page.wait_for_load_state("load")  # network idle may come before the parser ends
        questions = page.locator(".exercise[data-kind]")
        counts[path] = questions.count()
        for n in range(questions.count()):
            question = questions.nth(n)
            where = f"/{path} 問 {n + 1} ({question.get_attribute('id')})"
            question.scroll_into_view_if_needed()
            kind, answer = question.get_attribute("data-kind"), question.get_attribute("data-answer")
            if kind == "number":
                box = question.locator(".exercise-input")
                for typed, expected in ((_off_by_one_unit(answer), "incorrect"), (answer, "correct")):
                    box.fill(typed)
                    question.locator(".exercise-check").click()
                    if _state(question) != expected:
                        problems.append(f"{where}: {typed!r} (answer {answer}) gave {_state(question)}")
                if not question.locator("details.exercise-solution").evaluate("d => d.open"):
                    problems.append(f"{where}: checking did not open the solution")
            else:
                options = question.locator(".exercise-options input[type=radio]")
                values = [options.nth(i).get_attribute("value") for i in range(options.count())]
                if answer not in values:
                    problems.append(f"{where}: data-answer {answer!r} is none of the options {values}")
                for value in [v for v in values if v != answer] + [answer]:
                    question.locator(f'.exercise-options input[value="{value}"]').check()
                    question.locator(".exercise-check").click()
                    expected = "correct" if value == answer else "incorrect"
                    if _state(question) != expected:
                        problems.append(f"{where}: option {value!r} (answer {answer!r}) gave {_state(question)}")
    small = {path: n for path, n in counts.items() if n < (30 if path == EXAM else 2)}
    listed = ", ".join(f"{p} {n}" for p, n in counts.items())
    print(f"\n{sum(counts.values())} questions on {len(counts)} pages: {listed}")
    assert not small, f"too few questions: {small}"
    assert not problems, "\n".join(problems)
    assert not errors, errors


def test_a_number_is_read_within_the_precision_of_its_literal(tab, shared_server):
    page, _ = tab
    page.goto(shared_server + "notes/03-attention/", wait_until="networkidle")
    page.wait_for_load_state("load")  # network idle may come before the parser ends
    question = page.locator('.exercise[data-kind="number"]').first
    answer = question.get_attribute("data-answer")  # 0.253: three decimals
    assert question.get_attribute("data-decimals") == "3" and "小数第 3 位まで" in question.inner_text()
    box, check = question.locator(".exercise-input"), question.locator(".exercise-check")
    for typed, expected in (
        (answer + "4", "correct"),  # more digits, still within half a unit
        ("０．２５３", "correct"),  # full-width digits, as a Japanese keyboard may give
        (str(round(float(answer) + 0.0004, 4)), "correct"),
        (str(round(float(answer) + 0.0006, 4)), "incorrect"),
        ("0.25", "incorrect"),  # less precise than asked
        ("abc", "incorrect"),
    ):
        box.fill(typed)
        check.click()
        assert _state(question) == expected, f"{typed!r} → {_state(question)}"
    box.fill("")
    check.click()  # nothing typed: a hint to type, not a verdict
    assert "入力してください" in question.locator(".exercise-feedback").inner_text()


def test_keyboard_only_and_feedback_for_screen_readers(tab, shared_server):
    page, _ = tab
    page.goto(shared_server + "notes/03-attention/", wait_until="networkidle")
    page.wait_for_load_state("load")  # network idle may come before the parser ends
    question = page.locator('.exercise[data-kind="number"]').first
    box = question.locator(".exercise-input")
    box.focus()
    page.keyboard.type(question.get_attribute("data-answer"))
    page.keyboard.press("Enter")
    assert _state(question) == "correct"
    feedback = question.locator(".exercise-feedback")
    assert feedback.get_attribute("role") == "status" and "正解" in feedback.inner_text()
    label = question.locator(f'label[for="{box.get_attribute("id")}"]')
    assert "答え" in label.inner_text()  # the box has a name
    choice = page.locator('.exercise[data-kind="choice"]').first
    choice.locator(".exercise-options input").first.focus()
    page.keyboard.press("ArrowDown")  # radio buttons move with the arrow keys
    page.keyboard.press("Enter")
    assert _state(choice) in ("correct", "incorrect")
    assert choice.locator("legend").count() == 1


def _ours(page) -> list[str]:
    """The site's entries in localStorage (Material keeps its palette there too)."""
    return page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('transformer-block-math:'))")


def test_progress_survives_a_reload_and_the_page_button_clears_it(tab, shared_server):
    page, _ = tab
    url = shared_server + "notes/05-layernorm1/"
    page.goto(url, wait_until="networkidle")
    page.wait_for_load_state("load")  # network idle may come before the parser ends
    number = page.locator('.exercise[data-kind="number"]').first
    number.locator(".exercise-input").fill(number.get_attribute("data-answer"))
    number.locator(".exercise-check").click()
    choice = page.locator('.exercise[data-kind="choice"]').first
    values = choice.locator("input[type=radio]").evaluate_all("els => els.map(e => e.value)")
    wrong = next(v for v in values if v != choice.get_attribute("data-answer"))
    choice.locator(f'input[value="{wrong}"]').check()
    choice.locator(".exercise-check").click()
    page.reload(wait_until="networkidle")
    page.wait_for_load_state("load")  # network idle may come before the parser ends
    number = page.locator('.exercise[data-kind="number"]').first
    choice = page.locator('.exercise[data-kind="choice"]').first
    assert (_state(number), _state(choice)) == ("correct", "incorrect")
    assert number.locator(".exercise-input").input_value() == number.get_attribute("data-answer")
    assert choice.locator(f'input[value="{wrong}"]').is_checked()
    assert "正解 1 / " in page.locator(".exercise-score").inner_text()
    assert _ours(page) == ["transformer-block-math:exercises:/notes/05-layernorm1/"]  # one entry, this page's
    page.locator(".exercise-clear").click()
    assert _state(number) is None and _ours(page) == []
    page.reload(wait_until="networkidle")
    page.wait_for_load_state("load")  # network idle may come before the parser ends
    assert _state(page.locator('.exercise[data-kind="number"]').first) is None


def test_questions_work_after_instant_navigation_and_send_nothing(tab, shared_server):
    page, errors = tab
    requests: list[str] = []
    page.goto(shared_server + "notes/02-qkv/", wait_until="networkidle")
    page.wait_for_load_state("load")  # network idle may come before the parser ends
    page.evaluate("window.__noReload = true")
    before = page.locator('.exercise[data-kind="number"]').first.get_attribute("id")
    target = shared_server + "notes/03-attention/"
    page.evaluate(
        "url => { const a = document.createElement('a'); a.href = url; document.body.append(a); a.click(); }", target
    )
    page.wait_for_url(target)
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__noReload === true"), "the page reloaded instead of instant navigation"
    # The URL changes before Material swaps the content in: wait for the new page's first question, set up by
    # exercises.js, and keep to that one element (the answer read and the input filled must be the same question).
    first = page.wait_for_function(
        """old => { const q = document.querySelector('.exercise[data-kind="number"]');
                    return q && q.id !== old && q.dataset.ready === "1" && q.id; }""",
        arg=before,
    ).json_value()
    page.on("request", lambda r: requests.append(f"{r.method} {r.url}"))
    question = page.locator(f"#{first}")
    question.locator(".exercise-input").fill(question.get_attribute("data-answer"))
    question.locator(".exercise-check").click()
    assert _state(question) == "correct"
    assert page.locator(".exercise-toolbar").count() == 1
    # Opening the solution may fetch the site's own font for its formulas; nothing else, and nothing is sent.
    sent = [r for r in requests if not r.startswith(f"GET {shared_server}assets/")]
    assert sent == [], f"checking an answer made requests: {sent}"
    assert not errors, errors


def _order(page) -> list[str]:
    return page.locator(".exercise[data-kind]").evaluate_all("els => els.map(e => e.id)")


def test_the_exam_page_orders_its_questions_by_a_seed_and_scores_them(tab, shared_server):
    page, _ = tab
    page.goto(shared_server + EXAM, wait_until="networkidle")
    page.wait_for_load_state("load")  # network idle may come before the parser ends
    first = _order(page)
    assert len(first) >= 30 and len(set(first)) == len(first)
    seed = page.locator(".exercise-seed")
    seed.fill("7")
    page.locator(".exercise-shuffle").click()
    seven = _order(page)
    assert sorted(seven) == sorted(first) and seven != first
    numbers = page.locator(".exercise-number").evaluate_all("els => els.map(e => e.textContent)")
    assert numbers[:3] == ["問 1", "問 2", "問 3"]  # renumbered in the new order
    seed.fill("1")
    seed.press("Enter")
    assert _order(page) == first, "the same seed gave another order"
    topics = set(page.locator(".exercise").evaluate_all("els => els.map(e => e.dataset.topic)"))
    assert len(topics) >= 10, topics  # every point of the review list
    question = page.locator(".exercise[data-kind]").first
    if question.get_attribute("data-kind") == "number":
        question.locator(".exercise-input").fill(question.get_attribute("data-answer"))
    else:
        question.locator(f'input[value="{question.get_attribute("data-answer")}"]').check()
    question.locator(".exercise-check").click()
    assert page.locator(".exercise-bank .exercise-score").inner_text().startswith(f"正解 1 / {len(first)} 問")
    seed.fill("7")
    page.locator(".exercise-shuffle").click()
    page.reload(wait_until="networkidle")
    page.wait_for_load_state("load")  # network idle may come before the parser ends
    assert _order(page) == seven and page.locator(".exercise-seed").input_value() == "7"  # kept with the progress
