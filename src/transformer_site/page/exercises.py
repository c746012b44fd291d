"""確認問題 (exercises): the block syntax an author writes in a page, read with its lines, and checked against ``src``.

A question is an admonition-like block at the top level of a page (any text inside is Markdown):

```markdown
!!! exercise number
    answer: {{ 0.253 = notes.attention_questions.row_weight() }}

    文1 のヘッド 0 で、です が 花 を見る重みを求めてください。

    hint:
        softmax は行ごとにかかります。

    solution:
        5 つの exp の和で 花 の項を割ると {{ 0.253 = notes.attention_questions.row_weight() }} です。
```

- the kind after ``exercise``: ``number`` (a number to compute), ``choice`` (one right option among several) or
  ``stage`` ("which stage / which shape": a choice whose options are stages of the block or shapes);
- ``answer:`` — always computed by ``src``. A number question's answer is one checked number ``{{ literal =
  expression }}``: the build and pytest verify the literal like any other, and its form sets the precision the
  reader must give (``0.652`` → 小数第 3 位まで). A choice or stage question's answer is ``key = expression``,
  the key of the right option followed by the expression whose value (a ``str`` or ``int``) must equal it;
- ``option KEY: text`` (choice and stage, two or more, one line each): every *wrong* option carries, on the
  lines indented under it, the reason it is wrong (shown with the solution); the right one may explain itself;
- ``hint:`` and ``solution:`` (both required), each followed by indented Markdown;
- ``form: fraction`` (number questions, optional): a fraction such as ``1/8`` is accepted too. The rest of the
  form the reader must give is the literal's own: its decimals (``0.652`` → 小数第 3 位まで, ``8`` → 整数で) and
  a percentage (``{{ 1.5 % = … }}`` → the reader gives 1.5, in %). :attr:`Exercise.form` says it in the page's
  words, once, for the label, the notebook and the solution;
- ``topic: KEY`` (on a bank page that declares topics, required there): the key of the bank's topic the
  question tests; its tag shows the topic's name;
- every other line is the question's text, written before the options, hint and solution.

``!!! exercise-bank`` makes the page a question bank (the exam page): the reader gets a seed to reorder the
page's questions, a score per topic and a review of the questions missed. Its indented lines declare the topics,
each with the pages to reread (Markdown) on the lines under it; every question of the page then names one, and
each topic has at least :data:`MIN_PER_TOPIC` questions::

    !!! exercise-bank
        topic sqrt_dk: なぜ $\\sqrt{d_k}$ で割るか
            [3 種類の Attention](02-attention-kinds.md)

The options of a choice or stage question are served in the order :func:`served_order` gives: over a page the
right option's position takes turns, from a start drawn from the page's path, so that the order an author
writes (the right option first) tells a reader nothing; each reader's browser then draws an order of its own
(``docs/assets/exercises.js``).

:func:`find_exercises` reads the blocks of a page and reports every mistake as :class:`ExerciseError`
naming ``page.md:line``. ``transformer_site.exercises.render.check_answer`` evaluates an answer in the citable
namespace; the page's HTML is made by ``transformer_site.exercises.html``, the notebook's cells by
``transformer_site.notebooks.export``.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, field

from transformer_site.page.fences import fence_spans, line_starts

KINDS = ("number", "choice", "stage")
_HEADER = re.compile(r"^(?P<indent>[ \t>]*)(?P<marker>!!!|\?\?\?\+?)[ \t]+exercise(?P<rest>[^\n]*)$")
_BANK = re.compile(r"^!!![ \t]+exercise-bank[ \t]*$")
_TOPIC = re.compile(r"^topic[ \t]+(?P<key>[A-Za-z0-9_-]+):[ \t]*(?P<name>\S.*?)[ \t]*$")
_FIELD = re.compile(r"^(?P<name>[a-z]+)(?:[ \t]+(?P<key>[^:\s]+))?:(?:[ \t]+(?P<value>.*?))?[ \t]*$")
_OPTION_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_CHECKED = re.compile(r"^\{\{(?P<body>.*)\}\}$")
_CHOICE_ANSWER = re.compile(r"^(?P<key>[^=\s]+)[ \t]*=[ \t]*(?P<expression>\S.*)$")
# The numbers a reader can type: an optional sign, digits (with thousands separators), decimals, and a percentage
# sign (the reader then answers in %). No exponent: the input box reads these forms (docs/assets/exercises.js).
NUMBER_LITERAL = re.compile(r"^(?P<number>[+\-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?P<percent>[ \t]?%)?$")
FIELDS = ("answer", "form", "topic", "option", "hint", "solution")
FORMS = ("fraction",)
"""What ``form:`` may declare beyond the literal's own form."""
TEXT = {
    "kinds": {"number": "計算", "choice": "選択", "stage": "段と形"},
    "forms": {"fraction": "分数でも可"},
    "decimals": "小数第 {decimals} 位まで",
    "integer": "整数で",
    "percent": "% で、{precision}",
    "integer_percent": "整数の % で",
    "form_added": "。{form}",
}
"""The reader-facing words: each kind's name on a question's label, and the form a number answer asks for."""
MIN_PER_TOPIC = 2
"""A bank asks each of its topics at least this many times (one question tests an answer, two a point)."""
INDENT = " " * 4


class ExerciseError(ValueError):
    """A mistake in a question block; the message starts with ``page.md:line``."""


@dataclass(frozen=True)
class Section:
    """Lines ``start``–``end`` (0-based, end excluded) of the page, read with ``indent`` columns removed.

    ``head``: the index of a field's own line (``hint: text``) whose text after the colon comes first.
    """

    start: int
    end: int
    indent: int
    head: int | None = None

    def text(self, lines: list[str]) -> str:
        """The section's Markdown taken from ``lines`` (the page's, or the same page after checked numbers were
        written as literals: a line-for-line copy), dedented, without blank lines around it."""
        body = [_dedent(line, self.indent) for line in lines[self.start : self.end]]
        if self.head is not None:
            body.insert(0, _field_value(lines[self.head]))
        return "\n".join(body).strip("\n")


@dataclass(frozen=True)
class Option:
    key: str
    line: int  # 1-based line in the page's file
    index: int  # 0-based line index in the page's Markdown (the option's own line)
    reason: Section | None

    def text(self, lines: list[str]) -> str:
        """The option's one-line text from ``lines`` (a line-for-line copy of the page, see :meth:`Section.text`)."""
        return _field_value(lines[self.index])


@dataclass(frozen=True)
class NumberForm:
    """The form a number question asks for: the literal's decimals and percentage, and what ``form:`` adds."""

    decimals: int
    percent: bool = False
    fraction: bool = False

    @property
    def words(self) -> str:
        """The form in the page's words: 小数第 2 位まで / 整数で / % で、小数第 1 位まで / … 。分数でも可."""
        precision = TEXT["decimals"].format(decimals=self.decimals) if self.decimals else TEXT["integer"]
        if self.percent:
            precision = TEXT["percent"].format(precision=precision) if self.decimals else TEXT["integer_percent"]
        return precision + (TEXT["form_added"].format(form=TEXT["forms"]["fraction"]) if self.fraction else "")


@dataclass(frozen=True)
class Exercise:
    page: str  # as messages show it: docs/notes/03-attention.md
    line: int  # 1-based line of the "!!! exercise" header in the page's file
    start: int  # 0-based index of the header in the Markdown given
    end: int  # 0-based index after the block's last non-blank line
    kind: str
    answer: str  # the answer field as written: "{{ 0.652 = … }}" or "before = …"
    answer_line: int
    question: tuple[Section, ...]
    options: tuple[Option, ...] = ()
    hint: Section | None = None
    solution: Section | None = None
    topic: str = ""
    forms: tuple[str, ...] = ()  # what ``form:`` declares (keys of FORMS)
    raw: str = field(default="", repr=False)  # the block's source, for a stable id

    @property
    def location(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def kind_name(self) -> str:
        """The kind as the question's label names it (計算, 選択, 段と形)."""
        return TEXT["kinds"][self.kind]

    @property
    def answer_literal(self) -> str:
        """What the reader must give: the number's literal, or the right option's key."""
        if self.kind == "number":
            literal, _ = _split_checked(self.answer)
            return literal
        return _CHOICE_ANSWER.match(self.answer)["key"]

    @property
    def answer_expression(self) -> str:
        if self.kind == "number":
            return _split_checked(self.answer)[1] or ""
        return _CHOICE_ANSWER.match(self.answer)["expression"].strip()

    @property
    def answer_number(self) -> str:
        """The number a reader gives, in the question's form: the literal without its % (``1.5 %`` → ``1.5``)."""
        found = NUMBER_LITERAL.match(self.answer_literal)
        return found["number"] if found else self.answer_literal

    @property
    def decimals(self) -> int:
        """Digits after the point the reader gives (number questions): the literal's own."""
        number = self.answer_number
        return len(number.split(".", 1)[1]) if "." in number else 0

    @property
    def form(self) -> NumberForm:
        """What the reader must give (number questions), computed once from the literal and ``form:``."""
        found = NUMBER_LITERAL.match(self.answer_literal)
        percent = bool(found and found["percent"])
        return NumberForm(self.decimals, percent, "fraction" in self.forms)

    @property
    def exercise_id(self) -> str:
        """Stable across builds while the question's own text stays the same (the key of the reader's progress)."""
        return "q-" + hashlib.sha256(self.raw.encode("utf-8")).hexdigest()[:10]

    def option(self, key: str) -> Option | None:
        return next((o for o in self.options if o.key == key), None)


@dataclass(frozen=True)
class Topic:
    """A point a bank tests: its key (what a question's ``topic:`` names), its name, the pages to reread."""

    key: str
    name: str
    line: int  # 1-based line in the page's file
    reread: Section


@dataclass(frozen=True)
class Bank:
    """``!!! exercise-bank``: the page's questions can be reordered by a seed, scored per topic and reviewed."""

    page: str
    line: int
    index: int  # 0-based index of the marker in the page's Markdown
    end: int = 0  # 0-based index after the block's last non-blank line
    topics: tuple[Topic, ...] = ()

    def topic(self, key: str) -> Topic | None:
        return next((t for t in self.topics if t.key == key), None)


def _field_value(line: str) -> str:
    """The text after ``name:`` / ``option KEY:`` on a field's line."""
    found = _FIELD.match(_dedent(line, 4).rstrip())
    return (found["value"] or "") if found else ""


def _dedent(line: str, columns: int) -> str:
    stripped = len(line) - len(line.lstrip(" "))
    return line[min(stripped, columns) :]


def _indent_of(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))


def _split_checked(answer: str) -> tuple[str, str | None]:
    """``{{ 0.652 = expr }}`` → ("0.652", "expr"); ``{{ 0.652 unchecked }}`` or a bare literal → (literal, None)."""
    m = _CHECKED.match(answer.strip())
    if m is None:
        return answer.strip(), None
    body = m["body"]
    if "=" not in body:
        return body.replace("unchecked", "").strip(), None
    literal, expression = body.split("=", 1)
    return literal.strip(), expression.strip() or None


def _in_code(lines: list[str]) -> set[int]:
    """Indices of lines inside fenced code (an ``!!! exercise`` there is an example, not a question)."""
    text = "\n".join(lines)
    starts = line_starts(text)
    inside: set[int] = set()
    for start, end in fence_spans(text):
        first = starts.index(start) if start in starts else 0
        last = next((i for i, s in enumerate(starts) if s >= end), len(starts))
        inside.update(range(first, last))
    return inside


def find_exercises(
    markdown: str, page: str, first_line: int = 1, code: set[int] | None = None
) -> tuple[list[Exercise], Bank | None]:
    """The question blocks of one page, in order, and its bank marker if any.

    ``first_line``: the file's line number of ``markdown``'s first line (MkDocs strips front matter); ``code``:
    the indices of its lines inside fenced code, if known. Every mistake raises :class:`ExerciseError` naming
    ``page:line``; the first one found is reported.
    """
    lines = markdown.split("\n")
    code = _in_code(lines) if code is None else code
    exercises: list[Exercise] = []
    bank: Bank | None = None
    i = 0
    while i < len(lines):
        if i in code:
            i += 1
            continue
        if _BANK.match(lines[i]):
            if bank is not None:
                raise ExerciseError(f"{page}:{i + first_line}: a second `!!! exercise-bank`; a page has one bank")
            bank = _read_bank(lines, i, page, first_line)
            i = bank.end
            continue
        header = _HEADER.match(lines[i])
        if header is None:
            i += 1
            continue
        exercise = _read_block(lines, i, page, first_line, header)
        exercises.append(exercise)
        i = exercise.end
    ids = {}
    for exercise in exercises:
        earlier = ids.setdefault(exercise.exercise_id, exercise)
        if earlier is not exercise:
            raise ExerciseError(f"{exercise.location}: the same question as {earlier.location}")
    if bank is not None and bank.topics:
        _check_topics(bank, exercises)
    else:
        for exercise in exercises:
            if exercise.topic:
                raise ExerciseError(
                    f"{exercise.location}: `topic: {exercise.topic}` names a topic of the page's bank, and this page "
                    "declares none (`!!! exercise-bank` with `topic KEY: name` lines)"
                )
    return exercises, bank


def _block_end(lines: list[str], start: int) -> int:
    """The index after the last non-blank line indented under ``lines[start]``."""
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or _indent_of(lines[end]) >= 4):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # trailing blank lines belong to the page
    return end


def _read_bank(lines: list[str], start: int, page: str, first_line: int) -> Bank:
    """The bank marker and the topics declared under it (``topic KEY: name``, the pages to reread under each)."""
    end = _block_end(lines, start)
    topics: list[Topic] = []
    j = start + 1
    while j < end:
        line = lines[j]
        if not line.strip():
            j += 1
            continue
        at = f"{page}:{j + first_line}"
        found = _TOPIC.match(_dedent(line, 4).rstrip()) if _indent_of(line) == 4 else None
        if found is None:
            raise ExerciseError(
                f"{at}: a bank declares its topics as `topic KEY: name` (KEY: letters, digits, - or _), the pages "
                "to reread on the lines indented under it"
            )
        stop = _next_top_line(lines, j + 1, end)
        reread = Section(j + 1, stop, 8)
        if not reread.text(lines).strip():
            raise ExerciseError(f"{at}: topic {found['key']} has no page to reread (indented under it)")
        if any(t.key == found["key"] for t in topics):
            raise ExerciseError(f"{at}: topic {found['key']} is declared twice")
        topics.append(Topic(found["key"], found["name"], j + first_line, reread))
        j = stop
    return Bank(page, start + first_line, start, end, tuple(topics))


def _check_topics(bank: Bank, exercises: list[Exercise]) -> None:
    """Every question names one of the bank's topics, and every topic has at least MIN_PER_TOPIC questions."""
    keys = [t.key for t in bank.topics]
    for exercise in exercises:
        if exercise.topic not in keys:
            said = f"`topic: {exercise.topic}`" if exercise.topic else "no `topic:`"
            raise ExerciseError(
                f"{exercise.location}: {said}; a question of this bank names one of its topics ({', '.join(keys)})"
            )
    for topic in bank.topics:
        count = sum(e.topic == topic.key for e in exercises)
        if count < MIN_PER_TOPIC:
            raise ExerciseError(
                f"{bank.page}:{topic.line}: topic {topic.key} has {count} question(s); a bank asks each of its "
                f"topics at least {MIN_PER_TOPIC} times"
            )


def served_order(exercise: Exercise, slot: int) -> tuple[Option, ...]:
    """The options of ``exercise`` in the order the page serves them (``slot``: how many questions with options
    come before it on its page).

    The right option stands at position (start + slot) mod n, ``start`` drawn from the page's path: over a page
    the right positions take turns, and over the site no position gathers the right answers. The wrong options
    follow an order drawn from the question's id. Both are stable from build to build.
    """
    right = exercise.option(exercise.answer_literal)
    if right is None:
        return exercise.options
    wrong = [o for o in exercise.options if o is not right]
    random.Random(exercise.exercise_id).shuffle(wrong)  # seeded by a str: the same order in every process
    start = int(hashlib.sha256(exercise.page.encode("utf-8")).hexdigest(), 16) % 12  # 12: lcm of 2, 3 and 4
    position = (start + slot) % len(exercise.options)
    return (*wrong[:position], right, *wrong[position:])


def served_orders(exercises: list[Exercise]) -> list[tuple[Option, ...]]:
    """:func:`served_order` for each question of one page, in page order (``()`` for a number question)."""
    orders, slot = [], 0
    for exercise in exercises:
        orders.append(served_order(exercise, slot) if exercise.options else ())
        slot += bool(exercise.options)
    return orders


def _read_block(lines: list[str], start: int, page: str, first_line: int, header: re.Match) -> Exercise:
    where = f"{page}:{start + first_line}"
    if header["indent"]:
        raise ExerciseError(f"{where}: a question stands at the top level of the page (not indented, not quoted)")
    if header["marker"] != "!!!":
        raise ExerciseError(
            f"{where}: write a question as `!!! exercise KIND` (its hint and solution fold by themselves)"
        )
    rest = header["rest"]
    if rest and not rest[0].isspace():
        raise ExerciseError(f"{where}: `!!! exercise{rest}`: write `!!! exercise KIND` (KIND: {', '.join(KINDS)})")
    kind = rest.strip()
    if kind not in KINDS:
        raise ExerciseError(
            f"{where}: unknown question kind {kind!r}; write `!!! exercise number`, `choice` or `stage`"
            if kind
            else f"{where}: say the question's kind: `!!! exercise number`, `choice` or `stage`"
        )
    end = _block_end(lines, start)
    if end == start + 1:
        raise ExerciseError(f"{where}: an empty question; its lines are indented by four spaces under the header")

    answer, answer_line, topic, forms = None, 0, "", ()
    question: list[Section] = []
    options: list[Option] = []
    hint = solution = None
    j = start + 1
    while j < end:
        line = lines[j]
        if not line.strip() or _indent_of(line) > 4:
            j += 1  # a blank line, or the continuation of the question text (a list item's second line)
            continue
        body = _dedent(line, 4).rstrip()
        at = f"{page}:{j + first_line}"
        field_match = _FIELD.match(body)
        if field_match is None or field_match["name"] not in FIELDS:
            if field_match is not None and field_match["name"] not in FIELDS and field_match["key"] is None:
                raise ExerciseError(f"{at}: unknown field `{field_match['name']}:` (fields: {', '.join(FIELDS)})")
            if options or hint or solution:
                raise ExerciseError(f"{at}: the question's text comes before its options, hint and solution")
            stop = _next_top_line(lines, j + 1, end, fields_only=True)
            question.append(Section(j, stop, 4))
            j = stop
            continue
        name, key, value = field_match["name"], field_match["key"], field_match["value"] or ""
        if name != "option" and key is not None:
            raise ExerciseError(f"{at}: `{name} {key}:` — only options have a key (`option KEY: text`)")
        stop = _next_top_line(lines, j + 1, end)
        nested = stop > j + 1 and any(lines[k].strip() for k in range(j + 1, stop))
        if name in ("answer", "topic", "form"):
            if nested:
                raise ExerciseError(f"{at}: `{name}:` takes one line")
            if not value:
                raise ExerciseError(f"{at}: `{name}:` is empty")
            if name == "answer":
                if answer is not None:
                    raise ExerciseError(f"{at}: a second `answer:`")
                answer, answer_line = value, j + first_line
            elif name == "form":
                forms = tuple(part.strip() for part in value.split(","))
                unknown = [f for f in forms if f not in FORMS]
                if kind != "number" or unknown:
                    raise ExerciseError(
                        f"{at}: `form:` is for number questions and says what else they accept: "
                        f"{', '.join(FORMS)} (the literal gives the decimals and %)"
                    )
            else:
                topic = value
        elif name == "option":
            if kind == "number":
                raise ExerciseError(f"{at}: a number question has no options (use `!!! exercise choice`)")
            if key is None or not _OPTION_KEY.match(key):
                raise ExerciseError(f"{at}: write an option as `option KEY: text`, KEY made of letters, digits, - or _")
            if not value:
                raise ExerciseError(f"{at}: option {key} has no text (it stands on the option's own line)")
            if any(o.key == key for o in options):
                raise ExerciseError(f"{at}: option {key} is there twice")
            reason = Section(j + 1, stop, 8) if nested else None
            options.append(Option(key, j + first_line, j, reason))
        else:  # hint, solution
            if (hint if name == "hint" else solution) is not None:
                raise ExerciseError(f"{at}: a second `{name}:`")
            section = Section(j + 1, stop, 8, head=j)
            if not section.text(lines).strip():
                raise ExerciseError(f"{at}: `{name}:` is empty; its Markdown is indented under it")
            if name == "hint":
                hint = section
            else:
                solution = section
        j = stop

    exercise = Exercise(
        page, start + first_line, start, end, kind, answer or "", answer_line, tuple(question), tuple(options),
        hint, solution, topic, forms, raw="\n".join(lines[start:end]),
    )  # fmt: skip
    _check_shape(exercise, where)
    return exercise


def _next_top_line(lines: list[str], j: int, end: int, fields_only: bool = False) -> int:
    """The next line of the block at the block's own indentation (a new field, or for question text: a field)."""
    while j < end:
        line = lines[j]
        if line.strip() and _indent_of(line) <= 4:
            if not fields_only:
                return j
            found = _FIELD.match(_dedent(line, 4).rstrip())
            if found is not None:
                return j
        j += 1
    while j > 0 and not lines[j - 1].strip():
        j -= 1
    return j


def _check_shape(exercise: Exercise, where: str) -> None:
    """What a question needs whatever ``src`` says: text, a computed answer, a hint, a solution, options."""
    if not exercise.question:
        raise ExerciseError(f"{where}: the question has no text")
    if not exercise.answer:
        raise ExerciseError(
            f"{where}: a question without a computed answer: add `answer: "
            + ("{{ literal = expression }}`" if exercise.kind == "number" else "KEY = expression`")
            + " (the expression, in the citable names, computes it)"
        )
    at = f"{exercise.page}:{exercise.answer_line}"
    if exercise.kind == "number":
        literal, expression = _split_checked(exercise.answer)
        if not _CHECKED.match(exercise.answer.strip()):
            raise ExerciseError(
                f"{at}: the answer {exercise.answer!r} is typed, not computed: write it as a checked number "
                "`{{ literal = expression }}`"
            )
        if expression is None:
            raise ExerciseError(f"{at}: a question without a computed answer: {exercise.answer} has no expression")
        if not NUMBER_LITERAL.match(literal):
            raise ExerciseError(
                f"{at}: the answer {literal!r} of a number question is not a number a reader can type "
                "(digits, an optional sign, decimals, thousands separators, a final %; no exponent)"
            )
    else:
        found = _CHOICE_ANSWER.match(exercise.answer)
        if found is None:
            raise ExerciseError(
                f"{at}: a question without a computed answer: write `answer: KEY = expression` (the right "
                f"option's key, then the expression that computes it), not {exercise.answer!r}"
            )
        if len(exercise.options) < 2:
            raise ExerciseError(f"{where}: a {exercise.kind} question needs two options or more (`option KEY: text`)")
        right = exercise.option(found["key"])
        if right is None:
            keys = ", ".join(o.key for o in exercise.options)
            raise ExerciseError(f"{at}: the right option {found['key']!r} is not among the options ({keys})")
        for option in exercise.options:
            if option is not right and option.reason is None:
                raise ExerciseError(
                    f"{exercise.page}:{option.line}: option {option.key} is wrong: say why on the lines indented "
                    "under it"
                )
    if exercise.hint is None:
        raise ExerciseError(f"{where}: the question has no `hint:`")
    if exercise.solution is None:
        raise ExerciseError(f"{where}: the question has no `solution:`")
