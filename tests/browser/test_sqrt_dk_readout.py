"""The √d_k (scaled dot-product) panel's gradient readout: for the selected d_k and √d_k switch it shows the
softmax Jacobian's size and the RMS of the gradient reaching the scores, as ``backward.sqrt_dk_sweep`` measures
them at build time (the browser selects and formats them; it computes nothing).
"""

from __future__ import annotations

import pytest
from walk import reading_context, start_panels

from transformer_math import backward
from transformer_site.panels.html import STAT_DECIMALS, format_value

pytestmark = [pytest.mark.browser, pytest.mark.build]


def _role(tab, role: str):
    return tab.locator(f'[data-tm-panel="sdpa"] [data-role="{role}"]').first


@pytest.mark.parametrize("page", ["tryit/", "chapter/02-attention-kinds/"])
def test_the_readout_is_the_sweep_for_the_selected_setting(shared_browser, shared_server, page):
    context = reading_context(shared_browser, viewport={"width": 1280, "height": 900}, locale="ja-JP")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
    tab.goto(shared_server + page, wait_until="networkidle")
    tab.wait_for_load_state("load")  # network idle may come before the parser ends
    start_panels(tab, '[data-tm-panel="sdpa"]')  # it starts as it comes into view
    sweep = backward.sqrt_dk_sweep()  # the chapter's sweep (d_k = 1, 2, 4, …): the panel's values at those d_k
    try:
        for d_k, scaled, causal in ((64, False, False), (8, True, True), (1, False, False)):
            _role(tab, "dk").fill(str(d_k))
            for name, on in (("scale", scaled), ("causal", causal)):
                if _role(tab, name).is_checked() != on:
                    _role(tab, name).click()
            measured = sweep.at(d_k, scaled)
            assert _role(tab, "jacobian").inner_text() == format_value(measured.jacobian_norm, STAT_DECIMALS)
            assert _role(tab, "d-scores").inner_text() == format_value(measured.d_scores_rms, STAT_DECIMALS)
        # the switch changes the readout where the division matters
        _role(tab, "dk").fill("64")
        shown = {}
        for on in (True, False):
            if _role(tab, "scale").is_checked() != on:
                _role(tab, "scale").click()
            shown[on] = _role(tab, "d-scores").inner_text()
        assert shown[True] != shown[False]
        assert not errors, errors
    finally:
        context.close()
