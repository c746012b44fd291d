/* The search index (search/search_index.json, the largest file a page can ask for) is fetched when the reader
 * opens search, not with every page. Material's bundle asks for it as soon as it starts, and its configuration
 * has no setting to put that off, so this script, which runs just before the bundle, holds that one request and
 * sends it the first time the reader focuses the search box, presses the search button, or arrives with a search
 * query in the address (?q=). Until then Material's search box shows its own "initialising" message; every other
 * request is left alone.
 */
(function () {
  "use strict";

  var INDEX = /\/search\/search_index\.json(?:[?#]|$)/;
  var SEARCH_BOX = "[data-md-component=search-query]";
  var SEARCH_TOGGLE = "__search"; // the checkbox Material's search button and shortcuts switch on
  var SEARCH_BUTTON = "label[for=" + SEARCH_TOGGLE + "]";

  var opened = false;
  var held = new WeakSet(); // requests for the index, opened by the bundle
  var waiting = []; // the sends put off until search opens

  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;

  XMLHttpRequest.prototype.open = function (method, url) {
    if (INDEX.test(String(url))) held.add(this);
    else held.delete(this);
    return open.apply(this, arguments);
  };

  XMLHttpRequest.prototype.send = function () {
    if (opened || !held.has(this)) return send.apply(this, arguments);
    var request = this;
    var args = arguments;
    waiting.push(function () {
      // an abort while waiting leaves the request unsent: nothing to send then
      if (request.readyState === XMLHttpRequest.OPENED) send.apply(request, args);
    });
  };

  function searchOpens() {
    if (opened) return;
    opened = true;
    waiting.splice(0).forEach(function (sendNow) { sendNow(); });
  }

  function isSearch(target, selector) {
    return target instanceof Element && target.closest(selector) !== null;
  }

  document.addEventListener("focusin", function (event) {
    if (isSearch(event.target, SEARCH_BOX)) searchOpens();
  }, true);
  // the button's press, a moment before its click switches search on (the box itself counts when it takes focus)
  document.addEventListener("pointerdown", function (event) {
    if (isSearch(event.target, SEARCH_BUTTON)) searchOpens();
  }, true);
  document.addEventListener("change", function (event) {
    if (event.target instanceof HTMLInputElement && event.target.id === SEARCH_TOGGLE && event.target.checked) {
      searchOpens();
    }
  }, true);
  if (new URLSearchParams(location.search).has("q")) searchOpens();
})();
