"""The try-it page's generation panel in Debian's chromium: what it shows is what src generates.

Expected values come from ``transformer_math.generation`` on the decoder preset; the panel's cells carry their
full value (``data-value``), compared within the kernel's tolerance; the generated ids (``data-ids``) must be
src's exactly. Bad input gives a message in the page (and a ValueError naming the argument in src); a crafted
link is data, never markup, and falls back to the first setting with a message. Keyboard, phone width and axe.
Set ``SITE_DIR`` to an already built site to skip the build (see tests/browser/conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlencode

import numpy as np
import pytest
from walk import reading_context, start_panels

from transformer_math import decoder_model as dec
from transformer_math import decoder_preset as dp
from transformer_math import generation as gen
from transformer_pages import tryit

pytestmark = [pytest.mark.browser, pytest.mark.build]

PAGE = "tryit/"
TOL = tryit.KERNEL_TOLERANCE
PANEL = '[data-tm-panel="generate"]'
AXE = Path(__file__).with_name("vendor") / "axe-core" / "axe.min.js"


def model() -> dec.Decoder:
    return dp.decoder_preset()


def _watch(tab) -> list[str]:
    errors: list[str] = []
    tab.on("console", lambda m: m.type == "error" and errors.append(f"console error: {m.text}"))
    tab.on("pageerror", lambda e: errors.append(f"uncaught exception: {e}"))
    tab.on("dialog", lambda d: (errors.append(f"a dialog opened: {d.message}"), d.dismiss()))
    return errors


def _goto(tab, url: str) -> None:
    tab.goto(url, wait_until="networkidle")
    tab.wait_for_load_state("load")  # network idle may come before the parser ends
    start_panels(tab, PANEL)


@pytest.fixture(scope="module")
def _loaded(shared_browser, shared_server):
    context = reading_context(shared_browser, viewport={"width": 1280, "height": 900}, locale="ja-JP")
    tab = context.new_page()
    errors = _watch(tab)
    _goto(tab, shared_server + PAGE)
    yield tab, errors
    context.close()


@pytest.fixture()
def page(_loaded):
    """The loaded page, reset to the first setting; any console error or dialog during the test fails it."""
    tab, errors = _loaded
    errors.clear()
    _role(tab, "reset").click()
    yield tab
    assert not errors, "\n".join(errors)


def _role(tab, role: str):
    return tab.locator(f'{PANEL} [data-role="{role}"]')


def _shown_ids(tab) -> list[int]:
    return [int(i) for i in _role(tab, "sentence").get_attribute("data-ids").split(".")]


def _set(tab, **values) -> None:
    """Type into the knobs (each committed with Enter, as a reader does) or choose a top-k."""
    for role, value in values.items():
        role = role.replace("_", "-")
        if role == "top-k":
            _role(tab, role).select_option("" if value is None else str(value))
        else:
            _role(tab, role).fill(str(value))
            _role(tab, role).press("Enter")


def _type_prompt(tab, text: str) -> None:
    _role(tab, "prompt").fill(text)
    _role(tab, "prompt").press("Enter")


def _check_steps(tab, run: gen.Generation) -> None:
    """Every step the panel shows: the word, u, and each shown probability against src's at the tolerance."""
    items = tab.locator(f"{PANEL} li.tm-gen-step")
    assert items.count() == len(run.steps)
    for n, step in enumerate(run.steps):
        item = items.nth(n)
        assert int(item.get_attribute("data-word")) == step.word
        assert float(item.locator('[data-role="u"]').get_attribute("data-value")) == step.choice.u
        rows = item.locator('[data-role="distribution-all"] tbody tr')
        assert rows.count() == model().vocab_size
        for r in range(rows.count()):
            row = rows.nth(r)
            word = int(row.get_attribute("data-word"))
            p_model, p_draw = (float(v) for v in row.locator("td").evaluate_all("tds => tds.map(t => t.dataset.value)"))
            assert abs(p_model - step.choice.probs[word]) <= TOL and abs(p_draw - step.choice.final[word]) <= TOL


# ------------------------------------------------------------ the kernel of the page


def test_the_pages_decoder_is_the_preset_and_equals_src(page) -> None:
    m = model()
    assert page.evaluate("window.TransformerKernel.decoder.vocab") == list(m.vocab)
    assert page.evaluate("[window.TransformerKernel.decoder.heads, window.TransformerKernel.decoder.eps]") == [
        m.n_heads, m.eps]  # fmt: skip
    for n in range(1, 9):
        ids = dp.sentence_ids(n).tolist()
        theirs = page.evaluate("ids => window.TransformerKernel.decoder.forward(ids)", ids)
        ours = dec.forward(m, np.array(ids))
        assert np.max(np.abs(np.array(theirs["logits"]) - ours.logits)) <= TOL
        assert np.max(np.abs(np.array(theirs["probs"]) - ours.probs)) <= TOL
        prompt = ids[: 1 + dp.PROMPT_WORDS]
        greedy = page.evaluate("ids => window.TransformerKernel.decoder.generate(ids, {topK: 1})", prompt)
        assert greedy == ids  # completes the sentence, then <eos>


# ------------------------------------------------------------ what the panel shows


def test_the_first_setting_shows_src_generation_step_by_step(page) -> None:
    run = gen.generate(model(), gen.prompt_ids(model(), "これ は 美しい"), seed=0)
    assert _shown_ids(page) == run.tokens.tolist()
    assert _role(page, "stopped").get_attribute("data-stopped") == run.stopped == "eos"
    _check_steps(page, run)


SETTINGS = [
    ("", {"temperature": 1.5, "top_k": 5, "top_p": 0.9, "seed": 3}),
    ("これ は 美しい", {"temperature": 2, "seed": 0}),
    ("私 は", {"temperature": 0.7, "top_p": 0.5, "seed": 12345}),
    ("私 私 を", {"top_k": 1, "seed": 9}),
]


@pytest.mark.parametrize(("prompt", "settings"), SETTINGS, ids=lambda x: str(x))
def test_prompts_and_knobs_give_src_generation(page, prompt: str, settings: dict) -> None:
    if prompt:
        _type_prompt(page, prompt)
        ids = gen.prompt_ids(model(), prompt)
    else:
        page.locator(f'{PANEL} [data-role="preset"]').select_option(str(len(model().sentences)))  # <bos> alone
        ids = np.array([model().bos])
    _set(page, **settings)
    run = gen.generate(model(), ids, **settings)
    assert not _role(page, "message").is_visible()
    assert _shown_ids(page) == run.tokens.tolist()
    _check_steps(page, run)


def test_each_steps_attention_opens_with_the_keyboard_and_equals_src(page) -> None:
    _type_prompt(page, "大きい 猫 は")
    run = gen.generate(model(), gen.prompt_ids(model(), "大きい 猫 は"), seed=0)
    step = len(run.steps) - 1
    summary = page.locator(f"{PANEL} li.tm-gen-step").nth(step).locator('[data-role="attention-details"] summary')
    summary.focus()
    page.keyboard.press("Enter")
    table = page.locator(f"{PANEL} li.tm-gen-step").nth(step).locator('[data-role="attention"]')
    table.wait_for(state="visible")
    shown = [float(v) for v in table.locator("td[data-value]").evaluate_all("tds => tds.map(t => t.dataset.value)")]
    expected = np.concatenate([a.reshape(-1) for a in run.steps[step].attn])  # block, then head, then key
    assert np.max(np.abs(np.array(shown) - expected)) <= TOL


def test_the_url_holds_prompt_knobs_and_seed(page, shared_browser) -> None:
    _type_prompt(page, "それ は")
    _set(page, temperature=1.3, top_k=4, top_p=0.8, seed=77)
    ids = gen.prompt_ids(model(), "それ は").tolist()
    parts = ["gw=" + ".".join(map(str, ids)), "gt=1.3", "gk=4", "gp=0.8", "gs=77"]
    page.wait_for_function("parts => parts.every(p => location.search.includes(p))", arg=parts)
    href = _role(page, "share").get_attribute("href")
    assert all(p in href for p in parts) and href.endswith("#generate")
    context = reading_context(shared_browser, viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors = _watch(tab)
    try:
        _goto(tab, page.url)
        run = gen.generate(model(), np.array(ids), temperature=1.3, top_k=4, top_p=0.8, seed=77)
        assert _shown_ids(tab) == run.tokens.tolist()
        assert _role(tab, "temperature").input_value() == "1.3" and _role(tab, "seed").input_value() == "77"
        assert not errors, errors
    finally:
        context.close()


# ------------------------------------------------------------ bad input: a message in the page, ValueError in src

BAD_PROMPTS = [("", "空"), ("犬", "「犬」は語彙にない語"), (" ".join(["猫"] * 12), "13 語")]


@pytest.mark.parametrize(("text", "expected"), BAD_PROMPTS)
def test_a_bad_prompt_gives_a_message_and_src_refuses_it(page, text: str, expected: str) -> None:
    before = _shown_ids(page)
    _type_prompt(page, text)
    message = _role(page, "message")
    assert message.is_visible() and expected in message.inner_text()
    assert _shown_ids(page) == before  # the last result stays, marked as not the controls' any more
    assert _role(page, "result").get_attribute("data-stale") == "true"
    with pytest.raises(ValueError, match="prompt"):
        gen.prompt_ids(model(), text)


BAD_KNOBS = [
    ("temperature", "0", "temperature"), ("temperature", "-1", "temperature"), ("temperature", "abc", None),
    ("top_p", "0", "top_p"), ("top_p", "1.5", "top_p"), ("seed", "-1", "seed"), ("seed", "4294967296", "seed"),
]  # fmt: skip


@pytest.mark.parametrize(("knob", "value", "argument"), BAD_KNOBS)
def test_a_bad_knob_gives_a_message_and_src_names_it(page, knob: str, value: str, argument: str | None) -> None:
    _set(page, **{knob: value})
    message = _role(page, "message")
    assert message.is_visible() and message.inner_text()
    if argument is not None:
        with pytest.raises(ValueError, match=argument):
            gen.generate(model(), [model().bos], **{argument: float(value) if knob != "seed" else int(value)})
    _role(page, "reset").click()
    assert not message.is_visible()


# ------------------------------------------------------------ crafted links

INJECTIONS = [
    {"gw": "<img src=x onerror=window.__pwned=1>"},
    {"gt": '"><script>window.__pwned=1</script>'},
    {"gk": "<svg onload=window.__pwned=1>"},
    {"gp": "__proto__"},
    {"gt": "1e309"},
    {"gt": "0"},
    {"gt": "NaN"},
    {"gp": "1.5"},
    {"gk": "99"},
    {"gs": "99999999999"},
    {"gw": "1.12.8"},  # not starting with <bos>
    {"gw": "16.99"},
    {"gw": "16." * 40 + "1"},  # more words than positions
    {"gw": "16." * 15_000 + "1"},  # long, yet within what a server takes in one request line
    {"gs": "1" * 5000},
]


@pytest.fixture(scope="module")
def probe(shared_browser):
    context = reading_context(shared_browser, viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors = _watch(tab)
    yield tab, errors
    context.close()


@pytest.mark.parametrize("params", INJECTIONS, ids=lambda p: ",".join(f"{k}={v[:20]}" for k, v in p.items()))
def test_a_crafted_link_falls_back_to_the_first_setting_with_a_message(probe, shared_server, params) -> None:
    tab, errors = probe
    errors.clear()
    _goto(tab, shared_server + PAGE + "?" + urlencode(params))
    message = _role(tab, "message")
    assert message.is_visible() and "最初の設定" in message.inner_text()
    assert tab.evaluate("window.__pwned") is None
    assert tab.locator(f"{PANEL} img, {PANEL} script, {PANEL} svg").count() == 0
    run = gen.generate(model(), gen.prompt_ids(model(), "これ は 美しい"), seed=0)
    assert _shown_ids(tab) == run.tokens.tolist()
    assert tab.evaluate("1 + 1") == 2  # the page still answers: the state did not freeze it
    assert not errors, errors


def test_the_explorer_and_the_panel_keep_each_others_keys(probe, shared_server) -> None:
    tab, errors = probe
    errors.clear()
    _goto(tab, shared_server + PAGE + "?w=0.12.7.3.15&gs=5&gk=3")
    tab.locator('[data-tm-panel="explorer"] [data-role="stage"]').select_option("ffn_h")
    _set(tab, seed=6)
    tab.wait_for_function("['w=0.12.7.3.15', 'stage=ffn_h', 'gs=6', 'gk=3'].every(p => location.search.includes(p))")
    assert not errors, errors


# ------------------------------------------------------------ phone width and axe


@pytest.mark.parametrize("width", [360, 390])
def test_usable_at_phone_width(shared_browser, shared_server, width: int) -> None:
    context = reading_context(shared_browser, viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True)
    tab = context.new_page()
    _goto(tab, shared_server + PAGE + "?gw=16.2.2.14&gk=1")
    for details in tab.locator(f"{PANEL} details").all()[:4]:
        details.evaluate("d => { d.open = true; }")
    overflow = tab.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at {width} px"
    for role in ("preset", "prompt", "temperature", "top-k", "top-p", "seed", "next-seed", "reset", "share"):
        box = _role(tab, role).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, role
    context.close()


@pytest.mark.parametrize(("width", "scheme"), [(390, "dark"), (1280, "light")])
def test_the_panel_is_axe_clean_with_every_fold_open(shared_browser, shared_server, width, scheme) -> None:
    context = reading_context(shared_browser, viewport={"width": width, "height": 900}, color_scheme=scheme)
    tab = context.new_page()
    _goto(tab, shared_server + PAGE + "?gw=16.2.2.14&gk=1")
    tab.add_script_tag(path=str(AXE))
    violations = tab.evaluate(
        """async (include) => {
        for (const d of document.querySelectorAll(include + " details")) d.open = true;
        await new Promise(resolve => setTimeout(resolve, 300));  // the toggles reach scroll-regions.js
        while (document.documentElement.dataset.scrollRegions !== "done") {
            await new Promise(resolve => setTimeout(resolve, 50));  // it gives what now scrolls keyboard access
        }
        const options = {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}};
        const results = await axe.run({include: [[include]]}, options);
        return results.violations.map(v => [v.id, v.help, v.nodes.map(n => n.target.join(" "))]);
    }""",
        PANEL,
    )
    context.close()
    assert violations == [], json.dumps(violations, ensure_ascii=False, indent=1)
