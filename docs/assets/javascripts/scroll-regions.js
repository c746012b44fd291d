/* Keyboard access to what scrolls sideways: a heat table, a wide Markdown table, a display formula, a figure or a
 * code listing wider than its column (a phone) scrolls inside its box, which a mouse or a finger can scroll but the
 * keyboard cannot reach unless the box itself takes focus. Each such box that overflows now gets tabindex="0" (then
 * the arrow keys scroll it), role="region" and a name that says what it is; a box that fits loses them again, so a
 * wide screen has no extra tab stops. Runs once the theme has started the page (document$), on resize, and when a
 * panel has drawn.
 *
 * Never while the page is being read in, and never as one long task: the boxes are measured when the browser is
 * idle, a slice of at most SLICE_MS at a time (a long lesson has hundreds of boxes; on a phone, measuring them all
 * at once blocked the page for a quarter of a second and more). Within a slice every box is measured first and the
 * changes are written after, so a slice lays the page out at most once, not once per box.
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
    // Material gives a wide code block its tab stop only once the block has come into view (content.lazy), so a
    // keyboard reader could not reach one further down before scrolling to it
    [".md-typeset pre > code", "コード"],
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

  // Finding the boxes reads no layout; measuring them does, so that is what is sliced.
  function boxes() {
    var found = [];
    BOXES.forEach(function (entry) {
      document.querySelectorAll(entry[0]).forEach(function (box) { found.push([box, entry[1]]); });
    });
    return found;
  }

  var SLICE_MS = 8; // a slice stays well inside one frame and far below a long task (50 ms)
  var idle = window.requestIdleCallback
    ? function (run) { window.requestIdleCallback(run, { timeout: 2000 }); }
    : function (run) { window.setTimeout(run, 50); };

  // <html data-scroll-regions="pending|done"> says whether boxes are still to be measured (the browser tests wait).
  var root = document.documentElement;
  var queue = []; // [box, kind] still to measure, in the page's order
  var scheduled = false;

  function slice(deadline) {
    scheduled = false;
    if (!queue.length) return; // the page was replaced meanwhile by one without boxes (soon() said done)
    var budget = deadline && !deadline.didTimeout ? Math.min(SLICE_MS, deadline.timeRemaining()) : SLICE_MS;
    var start = window.performance.now();
    var found = [];
    do {
      var item = queue.shift();
      if (item[0].isConnected) found.push([item[0], item[1], overflows(item[0])]);
    } while (queue.length && window.performance.now() - start < budget);
    write(found); // every read of the slice before any write: one layout, not one per box
    if (queue.length) schedule();
    else root.dataset.scrollRegions = "done";
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    idle(slice);
  }

  // Every box (again): the page, its fonts, a tab or a fold, or the width changed. A pass under way starts over.
  function soon() {
    queue = boxes();
    if (!queue.length) {
      root.dataset.scrollRegions = "done";
      return;
    }
    root.dataset.scrollRegions = "pending";
    schedule();
  }

  var timer = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(soon, 150);
  });
  document.addEventListener("toggle", soon, true); // a <details> opened: what it holds now has a size
  document.addEventListener("change", soon, true); // a tab selected (Material's tabs are radio inputs)
  document.addEventListener("tm:blocks-shown", soon); // a phone's later blocks are shown (later-blocks.js)
  // a panel has drawn its tables (panels.js, as the reader comes near it), or KaTeX has typeset what it drew
  document.addEventListener("tm:drawn", soon);
  // a formula's width is final only once KaTeX's web fonts have loaded
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(soon);
  window.addEventListener("load", soon);
  if (typeof document$ !== "undefined") document$.subscribe(soon);
  else document.addEventListener("DOMContentLoaded", soon);
})();
