/* Keyboard access to what scrolls sideways: a heat table, a wide Markdown table, a display formula or a figure
 * wider than its column (a phone) scrolls inside its box, which a mouse or a finger can scroll but the keyboard
 * cannot reach unless the box itself takes focus. Each such box that overflows now gets tabindex="0" (then the
 * arrow keys scroll it), role="region" and a name that says what it is; a box that fits loses them again, so a
 * wide screen has no extra tab stops. Runs after each of Material's instant navigations and on resize.
 */
(function () {
  "use strict";

  var BOXES = [
    [".md-typeset .tf-heat-scroll", "表"],
    [".md-typeset .md-typeset__scrollwrap", "表"],
    [".md-typeset div.arithmatex", "数式"],
    [".md-typeset figure.tf-figure", "図"],
    [".md-typeset .tabbed-labels", "タブの見出し"],
    [".md-typeset .jp-Cell .highlight-ipynb", "コード"],
    [".md-typeset .jp-OutputArea-output pre", "出力"],
  ];

  function overflows(box) {
    return box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight; // as axe (and the browser) count it
  }

  function nameOf(box, kind) {
    var figure = box.closest("figure");
    var label = figure && (figure.getAttribute("aria-label") || "");
    var caption = figure && figure.querySelector("figcaption, caption");
    var what = (label || (caption ? caption.textContent : "")).replace(/\s+/g, " ").trim().slice(0, 80);
    return (what ? kind + ": " + what : kind) + "（横にスクロールできます）";
  }

  function mark() {
    BOXES.forEach(function (entry) {
      document.querySelectorAll(entry[0]).forEach(function (box) {
        var made = box.dataset.scrollRegion === "1";
        if (overflows(box)) {
          if (made || box.hasAttribute("tabindex")) return;
          box.dataset.scrollRegion = "1";
          box.setAttribute("tabindex", "0");
          if (!box.hasAttribute("role")) box.setAttribute("role", "region");
          if (!box.hasAttribute("aria-label")) box.setAttribute("aria-label", nameOf(box, entry[1]));
        } else if (made) {
          delete box.dataset.scrollRegion;
          box.removeAttribute("tabindex");
          box.removeAttribute("role");
          box.removeAttribute("aria-label");
        }
      });
    });
  }

  // after KaTeX (katex-init.js) and the figures have their size
  function soon() { window.requestAnimationFrame(function () { window.requestAnimationFrame(mark); }); }

  var timer = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(mark, 150);
  });
  document.addEventListener("toggle", soon, true); // a <details> opened: what it holds now has a size
  document.addEventListener("change", soon, true); // a tab selected (Material's tabs are radio inputs)
  // a formula's width is final only once KaTeX's web fonts have loaded
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(soon);
  window.addEventListener("load", soon);
  if (typeof document$ !== "undefined") document$.subscribe(soon);
  else document.addEventListener("DOMContentLoaded", soon);
})();
