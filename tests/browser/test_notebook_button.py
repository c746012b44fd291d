"""The notebook download button is readable on both palettes (WCAG AA: text contrast at least 4.5:1)."""

from __future__ import annotations

import pytest
from page_scripts import with_helpers
from walk import reading_context

pytestmark = [pytest.mark.browser, pytest.mark.build]

_CONTRAST = with_helpers("""
() => {
  /* helpers */
  const link = document.querySelector(".tf-notebook a.md-button");
  if (!link) return null;
  const luminance = ([r, g, b]) => {
    const lin = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const under = behind(link);
  const ink = blend(rgba(getComputedStyle(link).color), under);
  const [a, b] = [luminance(ink), luminance(under)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}
""")


@pytest.mark.parametrize(("preference", "scheme"), [("light", "default"), ("dark", "slate")])
def test_notebook_button_text_has_aa_contrast(shared_browser, shared_server, shared_pages, preference, scheme):
    path = next(p for p in shared_pages if p.startswith("notes/") and p != "notes/")
    context = reading_context(shared_browser,
        color_scheme=preference, viewport={"width": 1280, "height": 900}, locale="ja-JP"
    )
    page = context.new_page()
    try:
        page.goto(shared_server + path, wait_until="networkidle")
        page.wait_for_load_state("load")  # network idle may come before the parser ends
        assert page.evaluate("document.body.dataset.mdColorScheme") == scheme
        ratio = page.evaluate(_CONTRAST)
    finally:
        context.close()
    assert ratio is not None, f"/{path}: no notebook button"
    print(f"\n/{path} ({scheme}): notebook button contrast {ratio:.2f}:1")
    assert ratio >= 4.5, f"/{path} ({scheme}): notebook button text contrast {ratio:.2f}:1, below 4.5:1"
