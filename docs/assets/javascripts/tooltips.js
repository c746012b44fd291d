/* The one tooltip of a page, for checked numbers and claims (.checked-number) and glossary terms (.glossary-term).
 *
 * Nothing is mounted per number or term while the page loads: one listener per kind of event on the document, and
 * one tooltip element, made the first time it is needed and filled from the data attributes of what it explains
 * (transformer_site.checked.render writes data-label, data-value and data-expr; transformer_site.course.glossary
 * writes data-name and data-def). A number's tooltip leads with what the value is and its full value; its expression is
 * one step further, behind the button 「計算式」 (or Enter on the focused number). On a wide screen the tooltip sits
 * beside the word; on a phone (≤ 600 px) it is a sheet along the bottom of the screen. It opens on hover, keyboard
 * focus and tap; Esc closes it without moving the focus; moving the pointer onto it keeps it open.
 *
 * The marking of checked numbers is quiet unless the reader switches it on (the header's button, remembered on
 * this device in localStorage under "tm.markChecked"; the class tm-mark-checked on <html>).
 */
(function () {
  "use strict";

  var TARGETS = ".checked-number, .glossary-term";
  var PHONE = window.matchMedia("(max-width: 600px)");
  var GAP = 6; // px between the word and the tooltip
  var MARGIN = 8; // px kept free at the screen's edges
  var MARK_KEY = "tm.markChecked";

  var tip = null; // the tooltip element, made on first use
  var current = null; // the element whose tooltip is open
  var closing = null; // timer: the pointer left the word or the tooltip

  function make() {
    tip = document.createElement("div");
    tip.id = "tm-tip";
    tip.className = "tm-tip";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    tip.innerHTML =
      '<div class="tm-tip__name"></div><div class="tm-tip__body"></div>' +
      '<div class="tm-tip__more"><button type="button" class="tm-tip__toggle" aria-expanded="false">計算式</button>' +
      '<code class="tm-tip__expr" hidden></code></div>';
    tip.addEventListener("mouseenter", function () { window.clearTimeout(closing); });
    tip.addEventListener("mouseleave", closeSoon);
    tip.querySelector(".tm-tip__toggle").addEventListener("click", toggleExpression);
    document.body.appendChild(tip);
  }

  function fill(el) {
    var number = el.classList.contains("checked-number");
    var name = number ? el.dataset.label : el.dataset.name;
    var body = number ? el.dataset.value : el.dataset.def;
    tip.querySelector(".tm-tip__name").textContent = name || "";
    tip.querySelector(".tm-tip__body").textContent = body || "";
    var more = tip.querySelector(".tm-tip__more");
    var expr = tip.querySelector(".tm-tip__expr");
    more.hidden = !(number && el.dataset.expr);
    expr.textContent = el.dataset.expr || "";
    expr.hidden = true;
    tip.querySelector(".tm-tip__toggle").setAttribute("aria-expanded", "false");
    tip.classList.toggle("tm-tip--term", !number);
  }

  function place(el) {
    if (PHONE.matches) {
      tip.classList.add("tm-tip--sheet");
      tip.style.left = tip.style.top = "";
      return;
    }
    tip.classList.remove("tm-tip--sheet");
    var word = el.getBoundingClientRect();
    var box = tip.getBoundingClientRect();
    var left = Math.min(word.left, window.innerWidth - MARGIN - box.width);
    var top = word.top - GAP - box.height; // above the word, or below it where there is no room above
    if (top < MARGIN) top = word.bottom + GAP;
    tip.style.left = Math.max(MARGIN, left) + "px";
    tip.style.top = Math.max(MARGIN, top) + "px";
  }

  function open(el) {
    window.clearTimeout(closing);
    if (!tip) make();
    if (current && current !== el) current.removeAttribute("aria-describedby");
    current = el;
    fill(el);
    tip.hidden = false;
    place(el);
    el.setAttribute("aria-describedby", tip.id);
  }

  function close() {
    window.clearTimeout(closing);
    if (!current) return;
    current.removeAttribute("aria-describedby");
    current = null;
    tip.hidden = true;
  }

  function closeSoon() {
    window.clearTimeout(closing);
    closing = window.setTimeout(function () {
      var focused = document.activeElement;
      if (current && focused !== current && !tip.contains(focused)) close();
    }, 200);
  }

  function toggleExpression() {
    var expr = tip.querySelector(".tm-tip__expr");
    expr.hidden = !expr.hidden;
    tip.querySelector(".tm-tip__toggle").setAttribute("aria-expanded", String(!expr.hidden));
    if (current) place(current);
  }

  function target(event) {
    return event.target && event.target.closest ? event.target.closest(TARGETS) : null;
  }

  document.addEventListener("focusin", function (event) {
    var el = target(event);
    if (el) open(el);
  });
  document.addEventListener("focusout", function (event) {
    if (!current || event.target !== current) return;
    if (event.relatedTarget && tip.contains(event.relatedTarget)) return; // into the tooltip's button
    close();
  });
  document.addEventListener("mouseover", function (event) {
    if (PHONE.matches) return; // a phone opens on tap (focus), not on the hover a tap also fires
    var el = target(event);
    if (el) open(el);
  });
  document.addEventListener("mouseout", function (event) {
    var el = target(event);
    if (el && el === current && document.activeElement !== el) closeSoon();
  });
  document.addEventListener("pointerdown", function (event) {
    if (current && !target(event) && !(tip && tip.contains(event.target))) close();
  });
  document.addEventListener("keydown", function (event) {
    if (!current) return;
    if (event.key === "Escape") {
      close();
    } else if (event.key === "Enter" && document.activeElement === current && !tip.querySelector(".tm-tip__more").hidden) {
      toggleExpression();
      event.preventDefault();
    }
  });
  window.addEventListener("resize", function () { if (current) place(current); });
  window.addEventListener("scroll", function () { if (current && !PHONE.matches) place(current); }, { passive: true });

  // The header's switch for the marking of checked numbers (overrides/partials/palette.html renders the button).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".tm-mark-toggle");
    if (!button) return;
    var on = !document.documentElement.classList.contains("tm-mark-checked");
    document.documentElement.classList.toggle("tm-mark-checked", on);
    button.setAttribute("aria-pressed", String(on));
    try {
      if (on) localStorage.setItem(MARK_KEY, "1");
      else localStorage.removeItem(MARK_KEY);
    } catch (e) { /* storage refused: the switch works for this page only */ }
  });
})();
