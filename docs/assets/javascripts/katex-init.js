/* Typeset the formulas that are not typeset yet, and only those.
 *
 * The build typesets every formula of a page already (transformer_site.publishing.formulas: KaTeX's HTML and
 * MathML, the element marked data-typeset="done"), so a page's first paint draws finished formulas and no script runs for
 * them. What is left to do here is what a panel draws in the browser (docs/assets/panels.js calls
 * window.tmTypeset): pymdownx.arithmatex's shape, <span class="arithmatex">\(…\)</span> or
 * <div class="arithmatex">\[…\]</div>. KaTeX's script (assets/vendor/katex/katex.min.js) is loaded the first time
 * such a formula appears (when a panel starts), not with every page. A formula KaTeX cannot parse is reported with console.error (the
 * browser test fails on it) and marked with the class "math-error" instead of silently showing red source text.
 */
(function () {
  "use strict";

  var here = document.currentScript && document.currentScript.src;
  var KATEX_SRC = here ? here.replace(/javascripts\/katex-init\.js(\?.*)?$/, "vendor/katex/katex.min.js") : null;
  var loading = null; // the promise of KaTeX's script, once asked for
  var waiting = []; // roots to typeset once it has loaded

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

  function pending(root) {
    return Array.prototype.filter.call(root.querySelectorAll(".arithmatex"), function (el) {
      return el.dataset.typeset !== "done" && el.dataset.typeset !== "error";
    });
  }

  function typesetNow(nodes) {
    nodes.forEach(function (el) {
      var display = el.tagName === "DIV";
      var tex = stripDelimiters(el.textContent);
      try {
        katex.render(tex, el, {
          displayMode: display,
          throwOnError: true,
          strict: "error",
          trust: false,
          output: "htmlAndMathml", // MathML for screen readers, HTML for the eye (as the build's)
        });
        el.dataset.typeset = "done";
      } catch (err) {
        el.classList.add("math-error");
        el.dataset.typeset = "error";
        console.error("KaTeX: " + err.message + " in: " + tex);
      }
    });
  }

  function loadKatex() {
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = KATEX_SRC;
        script.onload = resolve;
        script.onerror = function () { reject(new Error("KaTeX could not be loaded from " + KATEX_SRC)); };
        document.head.appendChild(script);
      });
      loading.then(function () {
        var roots = waiting;
        waiting = [];
        roots.forEach(function (root) { typesetNow(pending(root)); });
        document.dispatchEvent(new CustomEvent("tm:drawn")); // formulas have their widths now (scroll-regions.js)
      }, function (err) { console.error(err.message); });
    }
    return loading;
  }

  function render(root) {
    var nodes = pending(root || document.body);
    if (!nodes.length) return;
    if (typeof katex !== "undefined") {
      typesetNow(nodes);
    } else {
      waiting.push(root || document.body);
      loadKatex();
    }
  }

  // The one renderer of the site: the panels (docs/assets/panels.js) typeset what they draw through it.
  window.tmTypeset = render;

  // A panel asks for its formulas when it starts, as it comes near the reader's view (panels.js): KaTeX is
  // fetched then, not while the page starts.
  function prepare() {
    render(document.body);
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(prepare);
  } else {
    document.addEventListener("DOMContentLoaded", prepare);
  }
})();
