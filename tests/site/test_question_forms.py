"""確認問題 that measure what the reader knows, checked without a build: the form a number question asks for
(one place: the literal and ``form:``), the order options are served in (no position gathers the right answers,
over the site and over any page), a bank's topics, and the exam page's coverage of the chapter's review list and
of the paper's training setup, with counts that agree."""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from transformer_pages import course
from transformer_site.checked.verify import display_path, markdown_files, read_page
from transformer_site.exercises.html import bank_markdown, exercise_markdown, results_markdown
from transformer_site.page.exercises import (
    MIN_PER_TOPIC,
    ExerciseError,
    NumberForm,
    find_exercises,
    served_order,
    served_orders,
)

ROOT = Path(__file__).resolve().parents[2]
EXAM = ROOT / "docs" / "chapter" / "10-review.md"
HS = "\n\nhint:\n    h\n\nsolution:\n    s\n"


def _page(*blocks: str, bank: str = "") -> str:
    text = "# 題\n\n" + (f"!!! exercise-bank\n{textwrap.indent(bank, '    ')}\n\n" if bank else "")
    return text + "\n".join(blocks)


def _number(answer: str, extra: str = "", topic: str = "") -> str:
    body = f"answer: {{{{ {answer} }}}}\n{extra}" + (f"topic: {topic}\n" if topic else "") + "\n問題。" + HS
    return "!!! exercise number\n" + textwrap.indent(body, "    ")


def _choice(keys: str = "abcd", right: str = "a", topic: str = "", text: str = "どれ") -> str:
    options = "".join(f"option {k}: {k} の選択肢\n" + ("" if k == right else "    違う理由。\n") for k in keys)
    body = f'answer: {right} = "{right}"\n' + (f"topic: {topic}\n" if topic else "") + f"\n{text}ですか。\n\n"
    return "!!! exercise choice\n" + textwrap.indent(body + options + HS, "    ")


# ------------------------------------------------------------------------------------------------ the form


@pytest.mark.parametrize(
    ("answer", "extra", "form", "words"),
    [
        ("0.253 = 0.2534", "", NumberForm(3), "小数第 3 位まで"),
        ("8 = 8", "", NumberForm(0), "整数で"),
        ("1,048,576 = 2 ** 20", "", NumberForm(0), "整数で"),
        ("1.5 % = 0.015", "", NumberForm(1, percent=True), "% で、小数第 1 位まで"),
        ("15 % = 0.15", "", NumberForm(0, percent=True), "整数の % で"),
        ("0.125 = 1 / 8", "form: fraction\n", NumberForm(3, fraction=True), "小数第 3 位まで。分数でも可"),
    ],
)
def test_a_number_question_states_its_form_from_its_literal_and_form_field(answer, extra, form, words):
    (exercise,), _ = find_exercises(_page(_number(answer, extra)), "docs/t.md")
    assert exercise.form == form and exercise.form.words == words
    html = "\n".join(exercise_markdown(exercise, 1, _page(_number(answer, extra)).split("\n")))
    assert f'data-form="{words}"' in html and f"（{words}）" in html  # stated once, shown where it is asked
    assert ('data-percent="1"' in html) == form.percent and ('data-fraction="1"' in html) == form.fraction
    assert f'data-answer="{exercise.answer_number}"' in html and "%" not in exercise.answer_number


@pytest.mark.parametrize(
    ("block", "message"),
    [
        (_number("0.5 = 0.5", "form: decimal\n"), r"t\.md:5: `form:` is for number questions"),
        (_choice().replace("answer:", "form: fraction\n    answer:"), r"t\.md:4: `form:` is for number questions"),
    ],
)
def test_a_form_a_question_cannot_have_is_an_error(block, message):
    with pytest.raises(ExerciseError, match=message):
        find_exercises(_page(block), "docs/t.md")


# ------------------------------------------------------------------------------------------ served order


def _site_questions():
    found = []
    for path in markdown_files([ROOT / "docs"]):
        exercises, _ = find_exercises(read_page(path), display_path(path, ROOT))
        found += [(e, order) for e, order in zip(exercises, served_orders(exercises), strict=True) if order]
    return found


def _position(exercise, order) -> int:
    return [o.key for o in order].index(exercise.answer_literal)


def test_over_the_site_no_served_position_holds_more_than_two_fifths_of_the_right_options():
    questions = _site_questions()
    positions = Counter(_position(e, order) for e, order in questions)
    assert len(questions) >= 42
    share = {p: n / len(questions) for p, n in sorted(positions.items())}
    assert max(share.values()) <= 0.4, share
    written_first = sum(e.options[0].key == e.answer_literal for e, _ in questions)
    assert written_first / len(questions) > 0.9, "the pages were expected to write the right option first"


def test_on_a_page_the_right_option_takes_turns_and_the_order_is_stable():
    page = _page(*[_choice(text=f"問{n}") for n in range(4)], _number("1 = 1"), _choice(keys="abc"))
    exercises, _ = find_exercises(page, "docs/t.md")
    orders = served_orders(exercises)
    positions = [_position(e, o) for e, o in zip(exercises, orders, strict=True) if o]
    start = positions[0]
    assert positions[:4] == [(start + k) % 4 for k in range(4)]
    assert positions[4] == (start + 4) % 3 and orders[4] == ()
    assert [served_order(exercises[0], 0)] == [orders[0]]  # the same in every process: no hash seed, no clock
    assert sorted(o.key for o in orders[0]) == list("abcd")


# ----------------------------------------------------------------------------------------------- banks

TOPICS = "topic one: 一つ目\n    [ページ](a.md)\ntopic two: 二つ目\n    [別のページ](b.md)"


def test_a_bank_declares_its_topics_with_the_pages_to_reread():
    page = _page(_choice(topic="one"), _number("1 = 1", topic="one"), _choice(topic="two", text="別"),
                 _number("2 = 2", topic="two"), bank=TOPICS)  # fmt: skip
    exercises, bank = find_exercises(page, "docs/t.md")
    assert [(t.key, t.name, t.line) for t in bank.topics] == [("one", "一つ目", 4), ("two", "二つ目", 6)]
    lines = page.split("\n")
    table = "\n".join(bank_markdown(bank, exercises, lines))
    assert "| 一つ目 |" in table and "[ページ](a.md)" in table and "（2 問）" in table
    assert table.count('class="exercise-ref"') == 4 and 'data-count="4"' in table
    results = "\n".join(results_markdown(bank, exercises, lines))
    assert "## 着眼点ごとの結果" in results and results.count('class="exercise-topic-score"') == 2
    assert 'class="md-button exercise-review"' in results
    label = "\n".join(exercise_markdown(exercises[0], 1, lines, bank=bank))
    assert '<span class="exercise-topic">一つ目</span>' in label  # the tag shows the topic's name


@pytest.mark.parametrize(
    ("page", "message"),
    [
        (_page(_choice(topic="one"), _choice(topic="three", text="別"), bank=TOPICS),
         r"t\.md:\d+: `topic: three`; a question of this bank names one of its topics \(one, two\)"),
        (_page(_choice(), bank=TOPICS), r"no `topic:`"),
        (_page(_choice(topic="one"), _choice(topic="one", text="別"), _choice(topic="two", text="三"), bank=TOPICS),
         rf"t\.md:6: topic two has 1 question\(s\); a bank asks each of its topics at least {MIN_PER_TOPIC} times"),
        (_page(bank="topic one: 名前\n"), r"t\.md:4: topic one has no page to reread"),
        (_page(bank="何か\n"), r"t\.md:4: a bank declares its topics as `topic KEY: name`"),
        (_page(bank=TOPICS + "\ntopic one: また\n    [x](x.md)"), r"t\.md:8: topic one is declared twice"),
        (_page(_choice(topic="one")), r"t\.md:3: `topic: one` names a topic of the page.s bank"),
    ],
)  # fmt: skip
def test_each_mistake_in_a_bank_is_an_error_naming_page_and_line(page, message):
    with pytest.raises(ExerciseError, match=message):
        find_exercises(page, "docs/t.md")


# ------------------------------------------------------------------------------------------- the exam page

TRAINING = {"adam": "§5.3", "warmup": "§5.3", "dropout": "§5.4", "label_smoothing": "§5.4"}


def _exam():
    return find_exercises(read_page(EXAM), display_path(EXAM, ROOT))


def test_the_exam_covers_every_point_of_the_review_list_and_the_training_setup_twice_or_more():
    exercises, bank = _exam()
    per_topic = Counter(e.topic for e in exercises)
    assert {t.key for t in bank.topics} == set(per_topic)
    assert set(TRAINING) <= set(per_topic)
    assert min(per_topic.values()) >= 2, per_topic
    points = ("sqrt_dk", "kinds", "mask", "heads", "pe_reason", "pe_formula", "ffn", "add_norm", "bert", "gpt",
              "complexity")  # the chapter's review list, one key per point  # fmt: skip
    assert set(points) <= set(per_topic)
    assert {"decoding", "kv_cache", "cross_attention", "bpe"} <= set(per_topic)  # the decoder track's points
    for topic in bank.topics:
        assert re.search(r"\]\([^)]+\.md(#[\w-]+)?\)", topic.reread.text(read_page(EXAM).split("\n"))), topic.key


def test_the_exam_says_where_its_statements_about_the_training_setup_come_from():
    exercises, _ = _exam()
    for key, section in TRAINING.items():
        cited = [e for e in exercises if e.topic == key and f"[@vaswani2017, {section}]" in e.raw]
        assert cited, f"no question on {key} cites [@vaswani2017, {section}]"


def test_the_counts_on_the_exam_page_agree():
    """The course frame's 「問題 N」, the bank's count and the topics' counts are all the number of questions."""
    text = read_page(EXAM)
    exercises, bank = _exam()
    assert course.reading(text).questions == len(exercises)
    table = "\n".join(bank_markdown(bank, exercises, text.split("\n")))
    counts = [int(n) for n in re.findall(r'class="exercise-topic-refs" data-topic="[^"]+" data-count="(\d+)"', table)]
    assert sum(counts) == len(exercises) and f'data-count="{len(exercises)}"' in table
    assert f">{len(exercises)} 問</p>" in table


def test_the_exam_page_names_no_code_in_what_a_reader_sees():
    """Its question text, options, hints and solutions speak of the Transformer, not of the build (the answer's
    expression stays in the answer line; the site-wide rule is the lint's)."""
    exercises, _ = _exam()
    for exercise in exercises:
        shown = "\n".join(line for line in exercise.raw.split("\n")[1:] if not line.lstrip().startswith("answer:"))
        shown = re.sub(r"\{\{.*?\}\}", "", shown)
        assert not re.search(r"`[\w.]+`|\b(ops|schedules|adam|transformer_\w+)\.\w", shown), exercise.location
