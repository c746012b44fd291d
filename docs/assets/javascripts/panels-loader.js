/* The panels' scripts — the kernel (assets/javascripts/kernel.js), then the panels (assets/panels.js) — are
 * loaded the first time a panel comes within a screen of the reader's view, not with every page: most pages have
 * no panel, most panels lie far below the first screen, and a phone would otherwise fetch and run both on each
 * page. If they cannot be loaded, every panel on the page says so (and the console names the script).
 */
(function () {
  "use strict";

  var TEXT = {
    failed: "この図を動かすスクリプトを読み込めませんでした。ページを再読み込みしてください。",
  };
  var here = document.currentScript && document.currentScript.src;
  var ASSETS = here ? here.replace(/javascripts\/panels-loader\.js(\?.*)?$/, "") : null;
  var SCRIPTS = ["javascripts/kernel.js", "panels.js"]; // in this order: panels.js computes through the kernel
  var loading = null; // the promise of both scripts, once asked for
  // Asked for when a panel comes within a screen of the reader's view (panels.js starts a panel at the same
  // distance), so a page whose panels are far below starts without them.
  var NEAR = "100% 0px";

  function load(src) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = function () { reject(new Error("panels-loader: could not load " + src)); };
      document.head.appendChild(script);
    });
  }

  function loadAll() {
    return SCRIPTS.reduce(function (done, src) {
      return done.then(function () { return load(ASSETS + src); });
    }, Promise.resolve());
  }

  function sayFailed(error) {
    console.error(error);
    document.querySelectorAll("[data-tm-panel]").forEach(function (panel) {
      if (panel.querySelector(".tm-load-failed")) return;
      var message = document.createElement("p");
      message.className = "tm-message tm-load-failed";
      message.setAttribute("role", "alert");
      message.textContent = TEXT.failed;
      panel.insertBefore(message, panel.firstChild);
    });
  }

  function loadNow() {
    if (loading) return;
    if (!ASSETS) {
      sayFailed(new Error("panels-loader: the script's own address is unknown, so the panels' cannot be found"));
      return;
    }
    loading = loadAll().catch(sayFailed); // panels.js then starts each panel itself as it comes near
  }

  function loadNear(entries, observer) {
    if (!entries.some(function (entry) { return entry.isIntersecting; })) return;
    observer.disconnect();
    loadNow();
  }

  function check() {
    var panels = document.querySelectorAll("[data-tm-panel]");
    if (loading || !panels.length) return;
    if (!("IntersectionObserver" in window)) {
      loadNow();
      return;
    }
    var watching = new IntersectionObserver(loadNear, { rootMargin: NEAR });
    panels.forEach(function (panel) { watching.observe(panel); });
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(check);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", check);
  } else {
    check();
  }
})();
