"""The training lab in the built site: a page produced by mkdocs-jupyter from the notebook the build executed.

Read from the built files: mkdocs-jupyter's markup with this build's outputs (the training loop's printed loss
equals ``training.default_run()``'s), a Japanese H1 whose id is not empty, the CSS pruned, the readers' notebook
beside the page with its outputs and bare literals. In Debian's chromium, at 1280 and 390 px: every formula of
its Markdown cells typeset by the site's KaTeX, every table-of-contents link landing on a heading, no request to
another host, no console error, the download link served.
"""

from __future__ import annotations

import json
import re

import pytest
from walk import reading_context

from transformer_math import training

pytestmark = [pytest.mark.browser, pytest.mark.build]

PAGE = "backprop/05-lab/"


@pytest.fixture(scope="module")
def html(shared_site) -> str:
    return (shared_site / PAGE / "index.html").read_text(encoding="utf-8")


def test_the_page_is_mkdocs_jupyters_with_the_outputs_of_this_build(html):
    assert 'class="jupyter-wrapper"' in html and html.count("jp-CodeCell") >= 5
    run = training.default_run()
    assert f"平均損失 {run.initial_loss:.4f} → {run.final_loss:.4f} ({run.steps} ステップ)" in html
    assert html.count('class="tf-figure"') >= 1 and "<svg" in html  # the loss curve, drawn in the kernel
    assert "tabbed-set" in html  # the learned attention beside the preset's, one tab per sentence
    h1 = re.search(r"<h1 id=\"([^\"]*)\">学習ラボ", html)
    assert h1 is not None and h1[1] != ""


def test_the_inlined_css_is_pruned(html):
    styles = re.findall(r"<style[^>]*>(.*?)</style>", html, re.S)
    assert len(styles) == 1
    assert len(styles[0].encode()) < 50_000, "mkdocs-jupyter inlines ~590 KB; pruning keeps what can apply"
    assert "jupyter-wrapper" in styles[0]


def test_the_readers_notebook_has_the_outputs_and_plain_numbers(shared_site):
    notebook = json.loads((shared_site / PAGE / "05-lab.ipynb").read_text(encoding="utf-8"))
    text = json.dumps(notebook, ensure_ascii=False)
    assert "{{" not in text and "checked-number" not in text  # literals, not the page's spans
    outputs = [o for cell in notebook["cells"] if cell["cell_type"] == "code" for o in cell["outputs"]]
    assert any(o.get("output_type") == "display_data" for o in outputs)
    intro, setup, title = notebook["cells"][:3]  # the notebook export's intro and setup cell, then the lab
    assert "Google Colab" in "".join(intro["source"]) and setup["metadata"]["tags"] == ["setup"]
    assert title["source"][0].startswith("# 学習ラボ")  # its Markdown as written, for Jupyter


_ALL_TYPESET = """() => {
  const math = [...document.querySelectorAll('.jupyter-wrapper .arithmatex')];
  return math.length > 0 && math.every(e => e.dataset.typeset === 'done');
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_in_the_browser(shared_browser, shared_server, width):
    context = reading_context(shared_browser, viewport={"width": width, "height": 900}, locale="ja-JP")
    tab = context.new_page()
    errors, requests = [], []
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("request", lambda r: requests.append(r.url))
    tab.goto(shared_server + PAGE, wait_until="networkidle")
    tab.wait_for_load_state("load")  # network idle may come before the parser ends
    try:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout  # here: collecting needs no browser

        try:  # KaTeX typesets after the load: on a busy machine that can end after the network is idle
            tab.wait_for_function(_ALL_TYPESET, timeout=30_000)
        except PlaywrightTimeout:
            pass  # the assertion below reports what was left
        state = tab.evaluate(
            """() => ({
              math: [...document.querySelectorAll('.jupyter-wrapper .arithmatex')].map(e => e.dataset.typeset),
              dollars: [...document.querySelectorAll('.jp-MarkdownOutput')]
                .some(e => /\\$[^$]+\\$/.test(e.textContent)),
              toc: [...document.querySelectorAll('.md-sidebar--secondary a.md-nav__link')].map(a => a.hash),
              ids: [...document.querySelectorAll('[id]')].map(e => e.id),
              download: document.querySelector('.tf-notebook a').href,
              wide: document.documentElement.scrollWidth > window.innerWidth + 1,
            })"""
        )
        assert state["math"] and all(s == "done" for s in state["math"]), state["math"]
        assert not state["dollars"], "a formula left as $…$ source"
        assert state["toc"] and all(h[1:] in state["ids"] for h in state["toc"]), state["toc"]
        assert not state["wide"], "the page scrolls sideways"
        assert not errors, errors
        assert all(u.startswith(shared_server) or u.startswith("data:") for u in requests), requests
        response = context.request.get(state["download"])
        assert response.status == 200 and json.loads(response.body())["cells"]
    finally:
        context.close()
