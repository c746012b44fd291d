"""JavaScript the browser tests share: put ``/* helpers */`` first in a ``page.evaluate`` function's body and
pass the script through :func:`with_helpers`.

- ``reveal(el)``: open every ``<details>`` around ``el`` and select the tab that holds it, outermost first, so
  that ``el`` has a layout (a closed tab is ``display: none``);
- ``rgba(css)``: a computed colour as ``[r, g, b, a]`` (``null`` if it is not one);
- ``blend(top, under)``: ``top`` painted over the opaque ``under``;
- ``behind(el)``: the opaque colour ``el`` stands on (its own and its ancestors' backgrounds, white last);
- ``hasCopyButton(code)``: whether Material has set the code block up (given it its copy button);
- ``reach(el, done, ms)``: a reader's way to ``el`` — revealed, then scrolled to the middle of the screen on every
  frame until ``done(el)`` or ``ms`` have passed (blocks drawn on the way take their real heights and push ``el``
  off); a promise of ``done(el)``.
"""

from __future__ import annotations

MARKER = "/* helpers */"

HELPERS = r"""
  const reveal = el => {
    const chain = [];
    for (let e = el; e && e !== document.body; e = e.parentElement) chain.unshift(e);
    for (const e of chain) {
      if (e.tagName === "DETAILS") e.open = true;
      if (e.classList && e.classList.contains("tabbed-block")) {
        const index = [...e.parentElement.children].indexOf(e);
        const inputs = [...e.parentElement.parentElement.children].filter(c => c.tagName === "INPUT");
        if (inputs[index]) inputs[index].click();
      }
    }
  };
  const rgba = s => { const m = s.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const blend = (top, under) => { const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]); };
  const behind = el => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let color = [255, 255, 255, 1];
    for (const c of layers.reverse()) color = blend(c, color);
    return color;
  };
  const hasCopyButton = code => !!code.closest("pre").querySelector("button[data-md-type=copy]");
  const reach = async (el, done, ms) => {
    reveal(el);
    const until = performance.now() + ms;
    while (!done(el) && performance.now() < until) {
      el.scrollIntoView({block: "center"});
      await new Promise(resolve => requestAnimationFrame(() => resolve()));
    }
    return done(el);
  };
"""


def with_helpers(script: str) -> str:
    """``script`` with the helpers in place of its one ``/* helpers */`` marker."""
    if script.count(MARKER) != 1:
        raise ValueError(f"a browser script needs exactly one {MARKER} marker, found {script.count(MARKER)}")
    return script.replace(MARKER, HELPERS)
