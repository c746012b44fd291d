/* On a phone, the blocks below a page's first screen are shown after the page has started, one at a time.
 *
 * As the theme's script starts it restyles the whole page several times (its palette, its `js` class), and each
 * restyle costs in proportion to the elements the browser draws. content-visibility: auto (site.css) leaves out
 * what lies far below, but Chromium still draws everything within one and a half screens below the first, and
 * on a lesson that is 1,000–1,500 elements, most of them formulas. So while the page starts, the blocks after its
 * second section heading (which lies below the first screen on a phone: tests/browser/test_lazy_blocks.py) are
 * not displayed at all (site.css, html.tm-later), and this script shows them afterwards, in the page's order,
 * one block each time the browser is idle, so that no step is a long task. Once a block lies beyond the reach
 * of content-visibility, the rest are shown together: they stay skipped until the reader nears them.
 *
 * The class tm-later is set in the page's head (overrides/main.html) when the page is opened or reached by a link,
 * and the address names no place in it; it is taken off there if this script never ran. A page returned to (back,
 * forward, reload) is whole, so the browser can put it back where the reader was. The reader never waits for a
 * block: on a scroll, or a link followed, everything is shown at once.
 * <html data-tm-blocks="later|shown"> says whether blocks are still to come (the browser tests wait).
 */
(function () {
  "use strict";

  var root = document.documentElement;
  var LATER = ".md-content__inner > h2 ~ h2 ~ :is(p, ul, ol, dl, table, .arithmatex, .admonition, details," +
    " .tabbed-set, .exercise, .md-typeset__scrollwrap, figure, .highlight):not(.tm-shown)"; // the selector of site.css
  var PHONE = window.matchMedia("(max-width: 29.9375em)"); // site.css hides them only at this width
  var REACH = 3; // screens below the top beyond which a block is not drawn until the reader nears it
  var idle = window.requestIdleCallback
    ? function (run) { window.requestIdleCallback(run, { timeout: 1000 }); }
    : function (run) { window.setTimeout(run, 50); };

  var waiting = []; // the page's blocks still hidden, in the page's order
  var last = null; // the block shown by the previous step

  function showAll() {
    waiting.forEach(function (block) { block.classList.add("tm-shown"); });
    waiting = [];
    last = null;
    if (root.dataset.tmBlocks === "later") document.dispatchEvent(new Event("tm:blocks-shown")); // measured again
    root.dataset.tmBlocks = "shown";
  }

  function step() {
    if (!waiting.length) return; // all shown meanwhile
    // the last block shown lies beyond reach: the rest stay skipped (content-visibility) once shown
    if (last && last.getBoundingClientRect().top > REACH * window.innerHeight) return showAll();
    last = waiting.shift();
    last.classList.add("tm-shown");
    if (!waiting.length) return showAll();
    idle(step);
  }

  function start() {
    if (!root.classList.contains("tm-later") || !PHONE.matches || window.location.hash) {
      // a page returned to, a wider screen (which never hides them) or a place to scroll to: nothing waits
      root.classList.remove("tm-later");
      waiting = [];
      return showAll();
    }
    waiting = Array.prototype.slice.call(document.querySelectorAll(LATER));
    if (!waiting.length) return showAll();
    root.dataset.tmBlocks = "later";
    idle(step);
  }

  function noMoreWaiting() {
    if (waiting.length) showAll();
    root.classList.remove("tm-later");
  }

  // A link followed (to a place in this page or to another page): every block is there before the browser or the
  // theme scrolls to the place. An address changed by hand is scrolled to before the blocks come, on a page that
  // may still be too short to reach it: once they are there it is scrolled to again.
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("a[href]")) noMoreWaiting();
  }, true);
  window.addEventListener("popstate", noMoreWaiting);
  window.addEventListener("hashchange", function () {
    var held = root.classList.contains("tm-later");
    noMoreWaiting();
    var place = held && document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    if (place) place.scrollIntoView();
  });
  window.addEventListener("scroll", function () { if (waiting.length) showAll(); }, { passive: true });
  // once the theme has started the page
  if (typeof document$ !== "undefined") document$.subscribe(start);
  else start();
})();
