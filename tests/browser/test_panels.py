"""The interactive panels in Debian's chromium: each control shows what src computes for that setting.

Expected values are computed here from ``transformer_math`` and ``transformer_pages.tryit`` and formatted with
the page's display rule (``transformer_site.panels.html.format_value``); nothing is typed in by hand. The explorer's
cells carry their full value (``data-value``), compared with src within the kernel's tolerance.
Set ``SITE_DIR`` to an already built site to skip the build (see tests/browser/conftest.py).
"""

from __future__ import annotations

from urllib.parse import urlencode

import numpy as np
import pytest
from walk import reading_context, start_panels

from transformer_figures.heat_table import _hex
from transformer_figures.plots import ColourScale
from transformer_math import SENTENCES, build_preset, derivations, forward, ops, preset, relations, tokenize
from transformer_pages import tryit
from transformer_site.panels.html import (
    CELL_DECIMALS,
    STAT_DECIMALS,
    SUMMARY_DECIMALS,
    format_signed,
    format_value,
    pe_data,
)

pytestmark = [pytest.mark.browser, pytest.mark.build]

PAGE = "tryit/"
TOL = tryit.KERNEL_TOLERANCE


@pytest.fixture(scope="module")
def base_url(shared_server: str) -> str:
    """The site built once per session by tests/browser/conftest.py (``SITE_DIR`` reuses a built one)."""
    return shared_server


@pytest.fixture(scope="module")
def browser(shared_browser):
    return shared_browser


def _open(browser, url: str, **context):
    context = reading_context(browser, **{"viewport": {"width": 1280, "height": 900}, "locale": "ja-JP", **context})
    tab = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    tab.on("console", lambda m: m.type == "error" and errors.append(f"console error: {m.text}"))
    tab.on("pageerror", lambda e: errors.append(f"uncaught exception: {e}"))
    tab.on("dialog", lambda d: (errors.append(f"a dialog opened: {d.message}"), d.dismiss()))
    tab.on("request", lambda r: requests.append(r.url))
    tab.goto(url, wait_until="networkidle")
    tab.wait_for_load_state("load")  # network idle may come before the parser ends
    start_panels(tab)  # each starts as the reader scrolls near it
    return context, tab, errors, requests


@pytest.fixture(scope="module")
def _loaded(browser, base_url):
    """One load of the 動かしてみる page shared by the tests; each test sets every control it reads."""
    context, tab, errors, requests = _open(browser, base_url + PAGE)
    yield tab, errors, requests
    context.close()


@pytest.fixture()
def page(_loaded):
    """The loaded page; any console error, uncaught exception or dialog during the test fails it."""
    tab, errors, _ = _loaded
    errors.clear()
    yield tab
    assert not errors, "\n".join(errors)


def _role(page, panel: str, role: str):
    return page.locator(f'[data-tm-panel="{panel}"] [data-role="{role}"]')


def _set_checkbox(locator, on: bool) -> None:
    if locator.is_checked() != on:
        locator.click()


# ------------------------------------------------------------ scaled dot-product panel


@pytest.mark.parametrize(("d_k", "scale", "causal"), [(1, True, False), (8, False, True), (64, False, False),
                                                       (64, True, True), (37, True, False)])  # fmt: skip
def test_sdpa_controls_show_src_values(page, d_k: int, scale: bool, causal: bool) -> None:
    _role(page, "sdpa", "dk").fill(str(d_k))
    _set_checkbox(_role(page, "sdpa", "scale"), scale)
    _set_checkbox(_role(page, "sdpa", "causal"), causal)
    state = tryit.sdpa_state(d_k, scale, causal)
    assert _role(page, "sdpa", "dk-out").inner_text() == str(d_k)
    assert _role(page, "sdpa", "std").inner_text() == format_value(state.scores_std, STAT_DECIMALS)
    assert _role(page, "sdpa", "row-max").inner_text() == format_value(state.mean_row_max, STAT_DECIMALS)
    cells = _role(page, "sdpa", "heatmap").locator("tbody td")
    assert cells.all_inner_texts() == [format_value(w, CELL_DECIMALS) for w in state.weights.ravel()]
    # the heat tables' colours: the sequential map over [0, 1]
    shown = cells.first.evaluate("td => getComputedStyle(td).backgroundColor")
    expected = _hex(ColourScale.for_values(None, vmin=0.0, vmax=1.0).rgba(round(state.weights[0, 0], 2)))
    assert shown == _rgb(expected)


def _rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def test_sdpa_slider_moves_with_the_keyboard(page) -> None:
    _set_checkbox(_role(page, "sdpa", "scale"), True)
    _set_checkbox(_role(page, "sdpa", "causal"), False)
    slider = _role(page, "sdpa", "dk")
    slider.focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    state = tryit.sdpa_state(2, True, False)
    assert _role(page, "sdpa", "dk-out").inner_text() == "2"
    assert _role(page, "sdpa", "std").inner_text() == format_value(state.scores_std, STAT_DECIMALS)
    _role(page, "sdpa", "causal").focus()
    page.keyboard.press("Space")
    assert _role(page, "sdpa", "row-max").inner_text() == format_value(
        tryit.sdpa_state(2, True, True).mean_row_max, STAT_DECIMALS
    )


# ------------------------------------------------------------ positional-encoding panel


@pytest.mark.parametrize(("i", "pos"), [(0, 0), (0, 1), (5, 77), (31, 127), (12, 3)])
def test_pe_controls_show_src_values(page, i: int, pos: int) -> None:
    _role(page, "pe", "i").fill(str(i))
    _role(page, "pe", "pos").fill(str(pos))
    pe = ops.positional_encoding(tryit.PE_POSITIONS, tryit.PE_D_MODEL)
    assert _role(page, "pe", "sin").inner_text() == format_value(pe[pos, 2 * i], 3)
    assert _role(page, "pe", "cos").inner_text() == format_value(pe[pos, 2 * i + 1], 3)
    assert _role(page, "pe", "wavelength").inner_text() == format_value(ops.pe_wavelengths(tryit.PE_D_MODEL)[i], 1)
    assert _role(page, "pe", "sin-path").get_attribute("d") == pe_data()["sin_path"][i]
    x = float(_role(page, "pe", "cursor").get_attribute("x1"))
    assert x == pytest.approx(pos / (tryit.PE_POSITIONS - 1) * pe_data()["width"], abs=0.05)


_PE_LAYOUT = """
root => {
  const box = el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const rows = [...root.querySelectorAll(".tm-controls > .tm-row")].map(row =>
    [row.querySelector("label").textContent.trim().slice(0, 6), box(row.querySelector("label")),
     box(row.querySelector("input"))]);
  const plot = root.querySelector(".tm-pe-plot");
  const texts = [...plot.querySelectorAll("text")].map(t => {
    const m = t.getScreenCTM();
    return [t.textContent, Math.hypot(m.a, m.b) * parseFloat(getComputedStyle(t).fontSize), box(t)];
  });
  return {rows, plot: box(plot), texts};
}
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_pe_panel_gives_each_control_its_row_and_the_plot_labelled_axes(browser, base_url, width) -> None:
    context = reading_context(browser, viewport={"width": width, "height": 900}, locale="ja-JP")
    tab = context.new_page()
    try:
        tab.goto(base_url + PAGE, wait_until="networkidle")
        tab.wait_for_load_state("load")  # network idle may come before the parser ends
        layout = tab.locator('[data-tm-panel="pe"]').evaluate(_PE_LAYOUT)
    finally:
        context.close()
    (i_name, i_label, i_input), (pos_name, pos_label, _pos_input) = layout["rows"]
    assert i_name.startswith("次元の組") and pos_name.startswith("位置 pos"), layout["rows"]
    assert pos_label[1] >= max(i_label[3], i_input[3]) - 0.5, "the pos label sits on the row of the i slider"
    assert i_label[3] > i_input[1] and i_input[3] > i_label[1], "the i label is not on the row of its slider"
    texts = {text: (px, box) for text, px, box in layout["texts"]}
    last = tryit.PE_POSITIONS - 1
    expected = ["+1", "0", "−1", *[str(p) for p in [*range(0, last, 32), last]], "位置 pos", "値"]
    assert set(expected) <= set(texts), f"the plot's axes lack {sorted(set(expected) - set(texts))}"
    small = {text: round(px, 1) for text, (px, _box) in texts.items() if px < 11}
    assert not small, f"axis text under 11 px at {width} px: {small}"
    left, _top, right, bottom = layout["plot"]
    outside = [t for t, (_px, b) in texts.items() if b[0] < left - 0.5 or b[2] > right + 0.5 or b[3] > bottom + 0.5]
    assert not outside, f"axis text cut off by the plot's box: {outside}"


# ------------------------------------------------------------ the explorer: the kernel in the page


def test_the_pages_kernel_equals_src_on_the_eight_sentences(page) -> None:
    ids = [s.token_ids.tolist() for s in SENTENCES]
    traces = page.evaluate("ids => ids.map(t => TransformerKernel.forward(t))", ids)
    weights = build_preset()
    for s, trace in zip(SENTENCES, traces, strict=True):
        ours = forward(weights, s.token_ids)
        for name in ("X", "Q", "K", "V", "scores", "attn", "head_out", "Y", "residual1", "ln1_out", "ffn_pre", "ffn_h",
                     "ffn_out", "residual2", "ln2_out"):  # fmt: skip
            assert np.max(np.abs(np.asarray(trace[name]) - getattr(ours, name))) <= TOL, (s.number, name)


def _explorer(page):
    return page.locator('[data-tm-panel="explorer"]')


def _reset(page, stage: str = "attn") -> None:
    """Sentence 1, the preset's knobs and switches, the given stage, no message."""
    ex = _explorer(page)
    ex.locator('[data-role="preset"]').select_option("0")
    ex.locator('[data-role="reset"]').click()
    ex.locator('[data-role="stage"]').select_option(stage)


def _choose_words(page, words) -> None:
    for t, word in enumerate(words):
        _explorer(page).locator(f'[data-role="word"][data-t="{t}"]').select_option(str(preset.WORD_ID[word]))


def _cell(page, index) -> object:
    return _explorer(page).locator(f'button.tm-cell[data-index="{",".join(map(str, index))}"]')


def _set_knob(page, name: str, value: float) -> None:
    slider = _explorer(page).locator(f'[data-role="knob"][data-knob="{name}"]')
    slider.fill(str(np.log10(value) if tryit.knob_range(name).log else value))


def test_a_sentence_that_is_no_preset_shows_src_values(page) -> None:
    """The bar: 「これ は 大きい 猫 です」 chosen word by word; a cell of attn and of ffn_h read from the page."""
    _reset(page, "attn")
    _choose_words(page, tryit.EXAMPLE.split())
    assert _explorer(page).locator('[data-role="preset"]').input_value() == ""  # not one of the eight
    trace = forward(build_preset(), tokenize(tryit.EXAMPLE))
    cell = _cell(page, (0, 2, 3))  # head 0, 大きい → 猫
    assert cell.inner_text() == format_value(trace.attn[0, 2, 3], CELL_DECIMALS)
    assert float(cell.get_attribute("data-value")) == pytest.approx(trace.attn[0, 2, 3], abs=TOL)
    _explorer(page).locator('[data-role="stage"]').select_option("ffn_h")
    cell = _cell(page, (3, 13))  # 猫, h13 名詞∧大きさ
    assert cell.inner_text() == format_value(trace.ffn_h[3, 13], CELL_DECIMALS)
    assert float(cell.get_attribute("data-value")) == pytest.approx(trace.ffn_h[3, 13], abs=TOL)
    # colour: the diverging map centred at 0 over the stage, as heat_table draws it
    scale = ColourScale.for_values(trace.ffn_h, center=0.0)
    shown = cell.evaluate("b => getComputedStyle(b.parentElement).backgroundColor")
    assert shown == _rgb(_hex(scale.rgba(trace.ffn_h[3, 13])))


def _summary(page) -> list[tuple]:
    rows = _explorer(page).locator('[data-role="relations"] > li')
    return [(int(r.get_attribute("data-query")), int(r.get_attribute("data-key")), r.get_attribute("data-wins"),
             r.locator('[data-role="margin"]').inner_text()) for r in rows.all()]  # fmt: skip


def _expected_summary(text: str, **settings) -> list[tuple]:
    outcomes = relations.relation_outcomes(tryit.explore(text, **settings))
    return [(o.query_pos, o.key_pos, "true" if o.wins else "false", format_signed(o.margin, SUMMARY_DECIMALS))
            for o in outcomes]  # fmt: skip


def test_moving_a_bond_knob_changes_the_summary_as_src_predicts(page) -> None:
    _reset(page)
    _choose_words(page, tryit.EXAMPLE.split())
    assert _summary(page) == _expected_summary(tryit.EXAMPLE)
    _set_knob(page, "bond0", 0.0)
    after = _summary(page)
    assert after == _expected_summary(tryit.EXAMPLE, bond0=0.0)
    assert after != _expected_summary(tryit.EXAMPLE)
    _set_knob(page, "bond2", 3.0)  # 述語→名詞: no predicate here, so nothing changes
    assert _summary(page) == _expected_summary(tryit.EXAMPLE, bond0=0.0, bond2=3.0)
    _set_checkbox(_explorer(page).locator('[data-switch="causal"]'), True)
    assert _summary(page) == _expected_summary(tryit.EXAMPLE, bond0=0.0, bond2=3.0, causal=True)
    detectors = _explorer(page).locator('[data-role="detectors"] > li')
    trace = tryit.explore(tryit.EXAMPLE, bond0=0.0, bond2=3.0, causal=True)
    fired = relations.firing_detectors(trace)
    for t in range(preset.T):
        units = ",".join(str(k) for tt, k, _ in fired if tt == t)
        assert detectors.nth(t).get_attribute("data-units") == units


@pytest.mark.parametrize(
    ("text", "words"),
    [("これは大きい猫です", None), ("  私 は 本 を 読む ", None), ("それ　は　人気　小説　です", None)],
)
def test_typed_text_goes_through_the_tokenizer(page, text: str, words) -> None:
    _reset(page)
    _explorer(page).locator('[data-role="text"]').fill(text)
    _explorer(page).locator('[data-role="text-form"] button[type="submit"]').click()
    ids = tokenize(text).tolist()
    shown = [int(_explorer(page).locator(f'[data-role="word"][data-t="{t}"]').input_value()) for t in range(preset.T)]
    assert shown == ids
    assert _explorer(page).locator('[data-role="text-error"]').is_hidden()


@pytest.mark.parametrize(
    ("text", "expected"),
    [("これ は 大きい 犬 です", ["「犬」は語彙にない語です", "4 語目", "t = 3"]),
     ("これは大きい犬です", ["7 文字目から始まる語が語彙にありません", "「犬です」"]),
     ("これ は 猫", ["語が 3 個あります", "ちょうど 5 語"]),
     ("<img src=x onerror=alert(1)> は 猫", ["「<img」は語彙にない語です"])],
)  # fmt: skip
def test_a_bad_sentence_gives_a_message_naming_what_and_where(page, text: str, expected: list[str]) -> None:
    _reset(page)
    before = [_explorer(page).locator(f'[data-role="word"][data-t="{t}"]').input_value() for t in range(preset.T)]
    with pytest.raises(ValueError):
        tokenize(text)  # src refuses it too
    _explorer(page).locator('[data-role="text"]').fill(text)
    _explorer(page).locator('[data-role="text"]').press("Enter")
    message = _explorer(page).locator('[data-role="text-error"]')
    assert message.is_visible()
    for part in expected:
        assert part in message.inner_text()
    assert _explorer(page).locator("img").count() == 0  # the text is shown as text
    after = [_explorer(page).locator(f'[data-role="word"][data-t="{t}"]').input_value() for t in range(preset.T)]
    assert after == before  # the sentence did not change


def _lines(page) -> list[dict]:
    return (
        _explorer(page)
        .locator('[data-role="derivation"] li[data-name]')
        .evaluate_all(
            "items => items.map(li => ({name: li.dataset.name, value: li.dataset.value, tex: li.querySelector("
            "'annotation') ? li.querySelector('annotation').textContent : li.textContent}))"
        )
    )


@pytest.mark.parametrize("stage", tryit.EXPLORER_STAGES)
def test_every_stage_derives_a_cell_from_src_terms(page, stage: str) -> None:
    _reset(page, stage)
    _choose_words(page, tryit.EXAMPLE.split())
    weights, trace = build_preset(), forward(build_preset(), tokenize(tryit.EXAMPLE))
    shape = getattr(trace, stage).shape
    index = tuple(min(2, n - 1) if n <= preset.T else n // 2 + 1 for n in shape)
    _cell(page, index).click()
    der = derivations.derive(trace, stage, index, weights)
    panel = _explorer(page).locator('[data-role="derivation"]')
    assert panel.locator('[data-role="cell"]').inner_text() == der.cell
    assert panel.locator('[data-role="terms"] > li').evaluate_all("l => l.map(li => li.dataset.label)") == [
        t.label for t in der.terms]  # fmt: skip
    lines = _lines(page)
    assert lines[0]["name"] == "formula" and lines[-1]["name"] == "value"  # formula first, the result last
    assert float(lines[-1]["value"]) == pytest.approx(der.value, abs=TOL)
    for line in lines[1:-1]:
        assert float(line["value"]) == pytest.approx(der.intermediate(line["name"]), abs=TOL), (stage, line["name"])
    # every line typeset (KaTeX's script comes after the page: katex-init.js loads it for the panels)
    panel.evaluate("el => new Promise(done => { const ready = () => el.querySelector('.arithmatex:not([data-typeset])')"
                   " ? setTimeout(ready, 20) : done(); ready(); })")
    assert panel.locator(".katex").count() >= len(lines)
    assert _cell(page, index).evaluate("b => b.parentElement.classList.contains('f')")  # the cell stays marked


def test_softmax_ends_with_the_division_and_epsilon_is_not_zero(page) -> None:
    _reset(page, "attn")
    _cell(page, (0, 2, 3)).click()
    last = _lines(page)[-1]["tex"]
    assert "\\frac" in last and last.startswith("\\mathrm{attn}[0,2,3]")
    _explorer(page).locator('[data-role="stage"]').select_option("ln1_out")
    _cell(page, (3, 0)).click()
    root = next(line for line in _lines(page) if line["name"] == "sqrt_var_eps")["tex"]
    assert "10^{-5}" in root and "0.000" not in root


def test_the_selected_cell_stays_marked_when_a_knob_moves(page) -> None:
    _reset(page, "ffn_h")
    _cell(page, (3, 12)).click()
    _set_knob(page, "and_bias", -0.2)
    marked = _explorer(page).locator("td.f button")
    assert marked.count() == 1 and marked.get_attribute("data-index") == "3,12"
    value = tryit.explore(SENTENCES[0].text, and_bias=-0.2).ffn_h[3, 12]
    assert float(_lines(page)[-1]["value"]) == pytest.approx(value, abs=TOL)


def test_arrow_keys_move_the_selected_cell(page) -> None:
    _reset(page, "scores")
    _cell(page, (0, 1, 1)).click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert _explorer(page).locator('[data-role="cell"]').inner_text() == "scores[0,2,2]"
    assert page.evaluate("document.activeElement.dataset.index") == "0,2,2"


def test_the_url_holds_the_state_and_reset_returns_to_the_preset(page, browser) -> None:
    _reset(page, "ffn_h")
    _choose_words(page, tryit.EXAMPLE.split())
    _set_knob(page, "bond1", 2.5)
    _set_knob(page, "eps", 0.1)
    _set_checkbox(_explorer(page).locator('[data-switch="positions"]'), False)
    _cell(page, (3, 12)).click()
    parts = ["w=0.12.7.3.15", "bond1=2.5", "eps=0.1", "positions=0", "stage=ffn_h", "cell=3.12"]
    page.wait_for_function("parts => parts.every(p => location.search.includes(p))", arg=parts)
    url = page.url
    context, tab, errors, _ = _open(browser, url)
    try:
        shown = [int(tab.locator(f'[data-role="word"][data-t="{t}"]').input_value()) for t in range(preset.T)]
        assert shown == tokenize(tryit.EXAMPLE).tolist()
        assert tab.locator('[data-role="stage"]').input_value() == "ffn_h"
        value = tryit.explore(tryit.EXAMPLE, bond1=2.5, eps=0.1, positions=False).ffn_h[3, 12]
        assert float(tab.locator("td.f button").get_attribute("data-value")) == pytest.approx(value, abs=TOL)
        assert tab.locator('[data-role="cell"]').inner_text() == "ffn_h[3,12]"
        tab.locator('[data-tm-panel="explorer"] [data-role="reset"]').click()
        tab.wait_for_function("!location.search.includes('bond1') && !location.search.includes('positions')")
        value = tryit.explore(tryit.EXAMPLE).ffn_h[3, 12]
        assert float(tab.locator("td.f button").get_attribute("data-value")) == pytest.approx(value, abs=TOL)
        assert not errors, errors
    finally:
        context.close()


INJECTIONS = [
    {"w": "<img src=x onerror=window.__pwned=1>"},
    {"stage": '"><script>window.__pwned=1</script>'},
    {"stage": "__proto__"},
    {"cell": "<svg onload=window.__pwned=1>"},
    {"bond0": "1e309"},
    {"eps": "0"},
    {"w": "0.12.8.4.99"},
    {"w": "0.12.8.4"},
    {"cell": "9.9.9", "stage": "attn"},
    {"scale": "yes"},
    {"w": "0." * 15_000 + "1"},  # long, yet within what a server takes in one request line
    {"bond0": "1" * 5000},
]


@pytest.fixture(scope="module")
def probe(browser):
    """One tab for the crafted links: each test loads its own URL in it."""
    context = reading_context(browser, viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: m.type == "error" and errors.append(f"console error: {m.text}"))
    tab.on("pageerror", lambda e: errors.append(f"uncaught exception: {e}"))
    tab.on("dialog", lambda d: (errors.append(f"a dialog opened: {d.message}"), d.dismiss()))
    yield tab, errors
    context.close()


@pytest.mark.parametrize("params", INJECTIONS, ids=lambda p: ",".join(f"{k}={v[:20]}" for k, v in p.items()))
def test_crafted_state_falls_back_to_the_preset_with_a_message(probe, base_url, params) -> None:
    tab, errors = probe
    errors.clear()
    tab.goto(base_url + PAGE + "?" + urlencode(params), wait_until="networkidle")
    tab.wait_for_load_state("load")  # network idle may come before the parser ends
    start_panels(tab, '[data-tm-panel="explorer"]')
    message = tab.locator('[data-tm-panel="explorer"] [data-role="message"]')
    assert message.is_visible() and "プリセット" in message.inner_text()
    assert tab.evaluate("window.__pwned") is None
    assert tab.locator('[data-tm-panel="explorer"] img, [data-tm-panel="explorer"] script').count() == 0
    assert tab.evaluate("[...document.scripts].some(s => s.textContent.includes('__pwned'))") is False
    shown = [int(tab.locator(f'[data-role="word"][data-t="{t}"]').input_value()) for t in range(preset.T)]
    assert shown == SENTENCES[0].token_ids.tolist()
    assert tab.evaluate("1 + 1") == 2  # the page still answers: the state did not freeze it
    assert not errors, errors


def test_no_request_leaves_the_site(_loaded, base_url) -> None:
    _, _, requests = _loaded
    assert requests and all(r.startswith(base_url) or r.startswith("data:") for r in requests), [
        r for r in requests if not r.startswith(base_url)]  # fmt: skip


# ------------------------------------------------------------ navigation and layout


def test_panels_start_after_navigating_from_another_page(browser, base_url) -> None:
    context = reading_context(browser, viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))

    def panels_work() -> None:
        tab.wait_for_selector('[data-tm-panel="generate"]', state="attached")  # the new page is there
        start_panels(tab)
        assert tab.locator('[data-tm-panel="sdpa"] tbody td').count() == tryit.SDPA_N**2
        tab.locator('[data-tm-panel="sdpa"] [data-role="dk"]').fill("5")
        shown = tab.locator('[data-tm-panel="sdpa"] [data-role="std"]').inner_text()
        assert shown == format_value(tryit.sdpa_state(5, True, False).scores_std, STAT_DECIMALS)
        tab.locator('[data-tm-panel="explorer"] [data-role="knob"][data-knob="bond0"]').fill("0")
        expected = _expected_summary(SENTENCES[0].text, bond0=0.0)
        assert [r.get_attribute("data-wins") for r in tab.locator('[data-role="relations"] > li').all()] == [
            e[2] for e in expected]  # fmt: skip

    tab.goto(base_url, wait_until="networkidle")
    tab.wait_for_load_state("load")  # network idle may come before the parser ends
    tab.locator(f'a[href$="{PAGE}"]').first.click()
    panels_work()
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("width", [360, 390])
def test_usable_at_phone_width(browser, base_url, width: int) -> None:
    context = reading_context(browser, viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.goto(base_url + PAGE + "?stage=ffn_h&cell=3.12", wait_until="networkidle")
    tab.wait_for_load_state("load")  # network idle may come before the parser ends
    start_panels(tab, '[data-tm-panel="explorer"]')
    overflow = tab.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at {width} px"
    explorer = '[data-tm-panel="explorer"] '
    for selector in ('[data-tm-panel="sdpa"] [data-role="dk"]', explorer + '[data-role="knob"][data-knob="eps"]',
                     explorer + '[data-role="text"]', explorer + '[data-role="reset"]',
                     explorer + 'select[data-t="4"]'):  # fmt: skip
        box = tab.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, selector
    context.close()


def test_the_panel_scripts_load_only_on_a_page_with_a_panel_and_a_failed_load_is_said(browser, base_url):
    """The kernel and panels.js are fetched for the try-it page, not for the front page; when the kernel cannot
    be fetched, every panel says so in the page (and the console names the script), instead of staying blank."""
    context = reading_context(browser, viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    fetched: list[str] = []
    tab.on("request", lambda r: fetched.append(r.url))
    tab.goto(base_url, wait_until="networkidle")
    assert not [u for u in fetched if u.endswith(("/kernel.js", "/panels.js"))], "fetched on a page without a panel"
    errors: list[str] = []
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
    tab.route("**/javascripts/kernel.js", lambda route: route.abort())
    tab.goto(base_url + PAGE, wait_until="networkidle")
    tab.wait_for_load_state("load")
    panels = tab.locator("[data-tm-panel]")
    assert panels.count() >= 4
    for i in range(panels.count()):
        message = panels.nth(i).locator(".tm-load-failed[role=alert]")
        assert message.count() == 1 and "読み込めません" in message.inner_text()
        assert panels.nth(i).get_attribute("data-tm-ready") is None
    assert any("kernel.js" in e for e in errors), errors
    context.close()


_PANEL_FILES = ("/kernel.js", "/panels.js", "/katex.min.js", ".json")


def _panel_requests(fetched: list[str]) -> list[str]:
    return [u.rsplit("/", 1)[-1] for u in fetched if u.endswith(_PANEL_FILES) and "/search/" not in u]


def test_a_panel_far_below_waits_until_the_reader_comes_near(browser, base_url):
    """On a phone, try-it's panels lie screens below the first: the page starts without their scripts and data,
    and a panel starts, fetching what it needs, when the reader scrolls near it; the others still wait."""
    # 640 px high: a panel starts within a screen of the view, and the first lies about 1,900 px down at 390 px
    context = reading_context(browser, viewport={"width": 390, "height": 640}, is_mobile=True, has_touch=True)
    tab = context.new_page()
    fetched: list[str] = []
    tab.on("request", lambda r: fetched.append(r.url))
    tab.goto(base_url + PAGE, wait_until="networkidle")
    tab.wait_for_function("document.documentElement.dataset.tmBlocks === 'shown'")
    tab.wait_for_timeout(500)
    assert _panel_requests(fetched) == [], "fetched while the page started"
    assert tab.locator("[data-tm-panel][data-tm-ready]").count() == 0
    start_panels(tab, '[data-tm-panel="sdpa"]')
    tab.wait_for_load_state("networkidle")
    first = _panel_requests(fetched)
    assert {"kernel.js", "panels.js"} <= set(first)
    assert len([name for name in first if name.endswith(".json")]) == 1, first  # the SDPA panel's own data
    ready = tab.locator("[data-tm-panel][data-tm-ready]")
    assert [ready.nth(i).get_attribute("data-tm-panel") for i in range(ready.count())] == ["sdpa"]
    context.close()


def test_a_panel_whose_data_cannot_be_fetched_says_so(browser, base_url):
    context = reading_context(browser, viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
    tab.route("**/panel-data/*.json", lambda route: route.fulfill(status=404, body="not here"))
    tab.goto(base_url + PAGE, wait_until="networkidle")
    start_panels(tab, '[data-tm-panel="sdpa"]')
    message = tab.locator('[data-tm-panel="sdpa"] .tm-load-failed[role=alert]')
    assert message.count() == 1 and "読み込めません" in message.inner_text()
    assert tab.locator('[data-tm-panel="sdpa"]').get_attribute("data-tm-ready") is None
    assert tab.locator('[data-tm-panel="sdpa"] tbody td').count() == 0
    assert any("panel-data/" in e and "404" in e for e in errors), errors
    context.close()
