"""確認問題 in the browser: every question of every page answered right and wrong, as a reader would.

The markup contract (``transformer_site.exercises.html``): each question is ``.exercise[data-kind]``, a number
question carries ``data-answer`` (its literal), a 「確かめる」 button checks, and the question then has
``data-state="correct"`` or ``"incorrect"``. Here, on the built site: every content page has two questions or
more and the exam page thirty or more; for every number question the literal is accepted and a value one unit
of its last digit away is refused; every choice question accepts exactly its right option; the state survives a
reload and the page's button clears it; questions work after Material's instant navigation; the exam page
orders its questions by the seed; checking sends nothing anywhere.

Every question of the site is answered on the browser walk's visit of each page at 390 px (``walk.py``), in one
script per page: the answer goes in through the page's own handlers (an ``input`` event in the box, a click on
the radio button and on 「確かめる」), and the button must be where a tap at its centre lands. Playwright's own
typing, tapping and keys, one round trip each, drive the tests after it, on a few questions each (a round trip
per step on every question cost a minute and a half of the suite).
"""

from __future__ import annotations

import re

import pytest
from walk import in_views, probe, reading_context, readings

pytestmark = pytest.mark.browser

CONTENT = re.compile(r"^(notes|chapter|scale)/\d\d-(?!references/|review/)[^/]+/$")
EXAM = "chapter/10-review/"
PHONE = (390, "light")

# Per question: {id, kind, answer, values (the choice's options), tries: [[given, state], …], clickable, opened}.
# A number question gets first the literal moved by one unit of its last digit (9 → 8, any other d → d + 1),
# then the literal itself; a choice question gets each wrong option, then the right one.
_ANSWER_ALL = probe("exercises", views=(PHONE,), reveals=True, script="""
async () => {
  const offByOneUnit = literal => {
    const at = Math.max(...[...literal].map((ch, i) => (/[0-9]/.test(ch) ? i : -1)));
    const digit = Number(literal[at]);
    return literal.slice(0, at) + (digit === 9 ? "8" : String(digit + 1)) + literal.slice(at + 1);
  };
  const answered = [];
  for (const question of document.querySelectorAll(".exercise[data-kind]")) {
    const { kind, answer } = question.dataset;
    const check = question.querySelector(".exercise-check");
    check.scrollIntoView({ block: "center" });
    const box = check.getBoundingClientRect();
    const landed = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const radios = [...question.querySelectorAll(".exercise-options input[type=radio]")];
    const values = radios.map(radio => radio.value);
    const tries = [];
    if (kind === "number") {
      const input = question.querySelector(".exercise-input");
      for (const typed of [offByOneUnit(answer), answer]) {
        input.focus();
        input.value = typed;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        check.click();
        tries.push([typed, question.dataset.state || null]);
      }
    } else {
      for (const value of [...values.filter(v => v !== answer), answer]) {
        const radio = radios.find(r => r.value === value);
        if (!radio) continue;  // the answer is none of the options: reported from ``values``
        radio.click();
        check.click();
        tries.push([value, question.dataset.state || null]);
      }
    }
    const solution = question.querySelector("details.exercise-solution");
    answered.push({ id: question.id, kind, answer, values, tries, clickable: check.contains(landed),
                    opened: !!(solution && solution.open) });
  }
  return answered;
}
""")


def _off_by_one_unit(literal: str) -> str:
    """The literal with its last digit moved by one unit (9 → 8, any other d → d + 1)."""
    index = max(i for i, ch in enumerate(literal) if ch.isdigit())
    digit = int(literal[index])
    return literal[:index] + ("8" if digit == 9 else str(digit + 1)) + literal[index + 1 :]


@pytest.fixture()
def tab(shared_browser):
    context = reading_context(shared_browser, viewport={"width": 390, "height": 900}, locale="ja-JP")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    yield page, errors
    context.close()


def _state(question) -> str | None:
    return question.get_attribute("data-state")


@in_views(PHONE)
def test_every_question_accepts_its_answer_and_refuses_a_wrong_one(page_walk, view):
    pages = [(path, answered) for path, answered in readings(page_walk, _ANSWER_ALL, *view)
             if CONTENT.match(path) or path == EXAM]  # fmt: skip
    assert len(pages) >= 23, [path for path, _ in pages]
    counts, problems = {}, []
    for path, answered in pages:
        counts[path] = len(answered)
        for n, question in enumerate(answered, start=1):
            problems += _faults(f"/{path} 問 {n} ({question['id']})", question)
    small = {path: n for path, n in counts.items() if n < (30 if path == EXAM else 2)}
    listed = ", ".join(f"{p} {n}" for p, n in counts.items())
    print(f"\n{sum(counts.values())} questions on {len(counts)} pages: {listed}")
    assert not small, f"too few questions: {small}"
    assert not problems, "\n".join(problems)


def _faults(where: str, question: dict) -> list[str]:
    """What went wrong with one answered question (the walk's ``exercises`` probe)."""
    answer, tries = question["answer"], question["tries"]
    faults = [] if question["clickable"] else [f"{where}: a tap on 「確かめる」 lands on another element"]
    if question["kind"] == "number":
        expected = [[_off_by_one_unit(answer), "incorrect"], [answer, "correct"]]
        if not question["opened"]:
            faults.append(f"{where}: checking did not open the solution")
    else:
        if answer not in question["values"]:
            faults.append(f"{where}: data-answer {answer!r} is none of the options {question['values']}")
        expected = [[v, "correct" if v == answer else "incorrect"] for v in question["values"] if v != answer]
        expected += [[answer, "correct"]] if answer in question["values"] else []
    if tries != expected:
        faults.append(f"{where}: (given, state) {tries}, expected {expected} (answer {answer!r})")
    return faults


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
