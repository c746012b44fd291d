"""The interactive panels in Debian's chromium: each control shows what src computes for that setting.

Expected values are computed here from ``transformer_math`` (ops, panels, derivations) and formatted with
the page's display rule (``transformer_site.panels.format_value``); nothing is typed in by hand.
Set ``SITE_DIR`` to an already built site to skip the build (see tests/browser/conftest.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from transformer_math import SENTENCES, build_preset, ops, preset_trace
from transformer_math import derivations as dv
from transformer_math import panels as mp
from transformer_site.panels import CELL_DECIMALS, DERIVATION_DECIMALS, STAT_DECIMALS, format_value, pe_data

pytestmark = [pytest.mark.browser, pytest.mark.build]

PAGE = "tryit/"


@pytest.fixture(scope="module")
def base_url(shared_server: str) -> str:
    """The site built once per session by tests/browser/conftest.py (``SITE_DIR`` reuses a built one)."""
    return shared_server


@pytest.fixture(scope="module")
def browser(shared_browser):
    return shared_browser


@pytest.fixture(scope="module")
def _loaded(browser, base_url):
    """One load of the 動かしてみる page (700 KB) shared by the tests; each test sets every control it reads."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: m.type == "error" and errors.append(f"console error: {m.text}"))
    tab.on("pageerror", lambda e: errors.append(f"uncaught exception: {e}"))
    tab.goto(base_url + PAGE, wait_until="networkidle")
    tab.wait_for_selector('[data-tm-panel][data-tm-ready="1"]')
    yield tab, errors
    context.close()


@pytest.fixture()
def page(_loaded):
    """The loaded page; any console error or uncaught exception during the test fails it."""
    tab, errors = _loaded
    errors.clear()
    yield tab
    assert not errors, "\n".join(errors)


def _role(page, panel: str, role: str):
    return page.locator(f'[data-tm-panel="{panel}"] [data-role="{role}"]')


def _set_checkbox(page, panel: str, role: str, on: bool) -> None:
    box = _role(page, panel, role)
    if box.is_checked() != on:
        box.click()


# ------------------------------------------------------------ scaled dot-product panel


@pytest.mark.parametrize(("d_k", "scale", "causal"), [(1, True, False), (8, False, True), (64, False, False),
                                                       (64, True, True), (37, True, False)])  # fmt: skip
def test_sdpa_controls_show_src_values(page, d_k: int, scale: bool, causal: bool) -> None:
    _role(page, "sdpa", "dk").fill(str(d_k))
    _set_checkbox(page, "sdpa", "scale", scale)
    _set_checkbox(page, "sdpa", "causal", causal)
    state = mp.sdpa_state(d_k, scale, causal)
    assert _role(page, "sdpa", "dk-out").inner_text() == str(d_k)
    assert _role(page, "sdpa", "std").inner_text() == format_value(state.scores_std, STAT_DECIMALS)
    assert _role(page, "sdpa", "row-max").inner_text() == format_value(state.mean_row_max, STAT_DECIMALS)
    shown = _role(page, "sdpa", "heatmap").locator("tbody td").all_inner_texts()
    assert shown == [format_value(w, CELL_DECIMALS) for w in state.weights.ravel()]


def test_sdpa_slider_moves_with_the_keyboard(page) -> None:
    _set_checkbox(page, "sdpa", "scale", True)
    _set_checkbox(page, "sdpa", "causal", False)
    slider = _role(page, "sdpa", "dk")
    slider.focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    state = mp.sdpa_state(2, True, False)
    assert _role(page, "sdpa", "dk-out").inner_text() == "2"
    assert _role(page, "sdpa", "std").inner_text() == format_value(state.scores_std, STAT_DECIMALS)
    _role(page, "sdpa", "causal").focus()
    page.keyboard.press("Space")
    assert _role(page, "sdpa", "row-max").inner_text() == format_value(
        mp.sdpa_state(2, True, True).mean_row_max, STAT_DECIMALS
    )


# ------------------------------------------------------------ positional-encoding panel


@pytest.mark.parametrize(("i", "pos"), [(0, 0), (0, 1), (5, 77), (31, 127), (12, 3)])
def test_pe_controls_show_src_values(page, i: int, pos: int) -> None:
    _role(page, "pe", "i").fill(str(i))
    _role(page, "pe", "pos").fill(str(pos))
    pe = ops.positional_encoding(mp.PE_POSITIONS, mp.PE_D_MODEL)
    assert _role(page, "pe", "sin").inner_text() == format_value(pe[pos, 2 * i], 3)
    assert _role(page, "pe", "cos").inner_text() == format_value(pe[pos, 2 * i + 1], 3)
    assert _role(page, "pe", "wavelength").inner_text() == format_value(ops.pe_wavelengths(mp.PE_D_MODEL)[i], 1)
    assert _role(page, "pe", "sin-path").get_attribute("d") == pe_data()["sin_path"][i]
    x = float(_role(page, "pe", "cursor").get_attribute("x1"))
    assert x == pytest.approx(pos / (mp.PE_POSITIONS - 1) * pe_data()["width"], abs=0.05)


# ------------------------------------------------------------ sentence explorer

RNG = np.random.default_rng(7)
CELLS = [
    (1, "scores", (0, 2, 3)), (1, "attn", (0, 2, 3)), (1, "ln1_out", (3, 0)), (1, "ffn_h", (3, 12)),
    (1, "ln2_out", (3, 8)), (3, "attn", (1, 4, 2)), (5, "scores", (1, 4, 2)),
] + [
    (int(RNG.integers(1, 9)), stage, tuple(int(RNG.integers(0, n)) for n in getattr(preset_trace(1), stage).shape))
    for stage in dv.STAGES
]  # fmt: skip


def _explore(page, number: int, stage: str) -> None:
    _role(page, "explorer", "sentence").select_option(str(number - 1))
    _role(page, "explorer", "stage").select_option(stage)


@pytest.mark.parametrize(("number", "stage", "index"), CELLS)
def test_clicked_cell_shows_the_src_derivation(page, number: int, stage: str, index: tuple[int, ...]) -> None:
    _explore(page, number, stage)
    page.locator(f'[data-tm-panel="explorer"] button.tm-cell[data-index="{",".join(map(str, index))}"]').click()
    der = dv.derive(preset_trace(number), stage, index, build_preset())
    panel = _role(page, "explorer", "derivation")
    assert panel.locator('[data-role="cell"]').inner_text() == der.cell
    terms = panel.locator('[data-role="terms"] > li')
    assert terms.locator(".tm-term-label").all_inner_texts() == [t.label for t in der.terms]
    assert terms.locator(".tm-term-value").all_inner_texts() == [
        format_value(t.value, DERIVATION_DECIMALS) for t in der.terms
    ]
    rows = panel.locator('[data-role="intermediates"] > div')
    assert [rows.nth(k).get_attribute("data-name") for k in range(rows.count())] == [q.name for q in der.intermediates]
    assert rows.locator("dd").all_inner_texts() == [
        format_value(q.value, DERIVATION_DECIMALS) for q in der.intermediates
    ]
    assert panel.locator('[data-role="value"]').inner_text() == format_value(der.value, DERIVATION_DECIMALS)
    assert panel.locator(".katex").count() >= 1 + len(der.intermediates)  # formula and names typeset
    status = _role(page, "explorer", "status").inner_text()
    assert status.startswith(f"{der.cell} = {format_value(der.value, DERIVATION_DECIMALS)}")


@pytest.mark.parametrize("stage", mp.EXPLORER_STAGES)
def test_every_stage_shows_src_matrix(page, stage: str) -> None:
    number = 1 + mp.EXPLORER_STAGES.index(stage) % len(SENTENCES)
    _explore(page, number, stage)
    matrix = mp.explorer_matrix(preset_trace(number), stage)
    shown = _role(page, "explorer", "tables").locator("tbody td").all_inner_texts()
    assert shown == [format_value(v, CELL_DECIMALS) for v in matrix.ravel()]


def test_focus_by_keyboard_shows_derivation(page) -> None:
    _explore(page, 2, "ffn_h")
    first = page.locator('[data-tm-panel="explorer"] button.tm-cell').first
    first.focus()
    page.keyboard.press("Tab")  # the second cell: ffn_h[0, 1]
    der = dv.derive_ffn_h(preset_trace(2), build_preset(), 0, 1)
    assert _role(page, "explorer", "derivation").locator('[data-role="cell"]').inner_text() == der.cell


# ------------------------------------------------------------ navigation and layout


def test_panels_start_after_navigating_from_another_page(browser, base_url) -> None:
    """A link click from the home page, and (if the site enables it) Material's instant navigation.

    Instant navigation swaps the page in without reloading and re-creates every <script> of the new page;
    it is driven through Material's own ``location$`` so the test does not depend on how the click is routed.
    """
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))

    def panels_work() -> None:
        tab.wait_for_selector('[data-tm-panel="explorer"][data-tm-ready="1"]')
        assert tab.locator('[data-tm-panel="sdpa"] tbody td').count() == mp.SDPA_N**2
        tab.locator('[data-tm-panel="sdpa"] [data-role="dk"]').fill("5")
        shown = tab.locator('[data-tm-panel="sdpa"] [data-role="std"]').inner_text()
        assert shown == format_value(mp.sdpa_state(5, True, False).scores_std, STAT_DECIMALS)

    tab.goto(base_url, wait_until="networkidle")
    tab.locator(f'a[href$="{PAGE}"]').first.click()
    panels_work()

    tab.goto(base_url, wait_until="networkidle")
    features = tab.evaluate("JSON.parse(document.getElementById('__config').textContent).features")
    if "navigation.instant" in features:
        tab.evaluate("window.__tmMarker = 1")  # survives only if the page is swapped in, not reloaded
        tab.evaluate(f"location$.next(new URL({PAGE!r}, location.href))")
        panels_work()
        assert tab.evaluate("window.__tmMarker") == 1, "the page was reloaded, not swapped in"
    context.close()
    assert not errors, errors


def test_usable_at_phone_width(browser, base_url) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.goto(base_url + PAGE, wait_until="networkidle")
    tab.wait_for_selector('[data-tm-panel="explorer"][data-tm-ready="1"]')
    overflow = tab.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at 360 px"
    for role in ("dk", "scale", "causal"):
        box = tab.locator(f'[data-tm-panel="sdpa"] [data-role="{role}"]').bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
    context.close()
