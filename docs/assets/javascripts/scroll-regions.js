/* Keyboard access to what scrolls sideways: a heat table, a wide Markdown table, a display formula or a figure
 * wider than its column (a phone) scrolls inside its box, which a mouse or a finger can scroll but the keyboard
 * cannot reach unless the box itself takes focus. Each such box that overflows now gets tabindex="0" (then the
 * arrow keys scroll it), role="region" and a name that says what it is; a box that fits loses them again, so a
 * wide screen has no extra tab stops. Runs after each of Material's instant navigations and on resize.
 *
 * Never while the page is being read in: the boxes are measured when the browser is idle, all of them first and
 * then every change written at once. Measuring one box and then changing it, box by box, made the browser lay the
 * page out again for every box (hundreds of layouts on a long lesson, on a phone a second or more of blocked
 * page); measured together the page is laid out once, when it already is.
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

  function measure() {
    var found = [];
    BOXES.forEach(function (entry) {
      document.querySelectorAll(entry[0]).forEach(function (box) {
        found.push([box, entry[1], overflows(box)]);
      });
    });
    return found;
  }

  function write(found) {
    found.forEach(function (item) {
      var box = item[0];
      var made = box.dataset.scrollRegion === "1";
      if (item[2]) {
        if (made || box.hasAttribute("tabindex")) return;
        box.dataset.scrollRegion = "1";
        box.setAttribute("tabindex", "0");
        if (!box.hasAttribute("role")) box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label")) box.setAttribute("aria-label", nameOf(box, item[1]));
      } else if (made) {
        delete box.dataset.scrollRegion;
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    });
  }

  function mark() {
    write(measure()); // every read before any write: one layout, not one per box
  }

  // When the browser has nothing else to do (after KaTeX, the figures and the first paint), at most once at a time.
  // <html data-scroll-regions="pending|done"> says whether a measurement is still to come (the browser tests wait).
  var root = document.documentElement;
  var pending = false;
  function soon() {
    if (pending) return;
    pending = true;
    root.dataset.scrollRegions = "pending";
    var run = function () { pending = false; mark(); root.dataset.scrollRegions = "done"; };
    if (window.requestIdleCallback) window.requestIdleCallback(run, { timeout: 2000 });
    else window.setTimeout(run, 200);
  }

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
