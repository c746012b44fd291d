/* Typeset the formulas that pymdownx.arithmatex (generic mode) leaves in the page.
 *
 * arithmatex wraps inline math as <span class="arithmatex">\(…\)</span> and display math as
 * <div class="arithmatex">\[…\]</div>. We render exactly those elements, so a "$" in prose or code is never
 * touched. A formula KaTeX cannot parse is reported with console.error (the browser test fails on it) and
 * marked with the class "math-error" instead of silently showing red source text.
 */
(function () {
  "use strict";

  function stripDelimiters(text) {
    var t = text.trim();
    var pairs = [["\\(", "\\)"], ["\\[", "\\]"], ["$$", "$$"], ["$", "$"]];
    for (var i = 0; i < pairs.length; i++) {
      var open = pairs[i][0], close = pairs[i][1];
      if (t.startsWith(open) && t.endsWith(close) && t.length >= open.length + close.length) {
        return t.slice(open.length, t.length - close.length);
      }
    }
    return t;
  }

  function render(root) {
    var nodes = root.querySelectorAll(".arithmatex");
    nodes.forEach(function (el) {
      if (el.dataset.typeset === "done") return;
      var display = el.tagName === "DIV";
      var tex = stripDelimiters(el.textContent);
      try {
        katex.render(tex, el, {
          displayMode: display,
          throwOnError: true,
          strict: "error",
          trust: false,
          output: "htmlAndMathml", // MathML for screen readers, HTML for the eye
        });
        el.dataset.typeset = "done";
      } catch (err) {
        el.classList.add("math-error");
        el.dataset.typeset = "error";
        console.error("KaTeX: " + err.message + " in: " + tex);
      }
    });
  }

  // The one renderer of the site: the panels (docs/assets/panels.js) typeset what they draw through it too.
  window.tmTypeset = render;

  if (typeof document$ !== "undefined") {
    document$.subscribe(function () { render(document.body); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { render(document.body); });
  }
})();
