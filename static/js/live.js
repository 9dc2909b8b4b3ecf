/* Public standings: follow the results live without a reload.
 * The region [data-live] names the results version it shows and where to ask for the
 * current one (a tiny JSON). Every few seconds, while the page is visible, it asks; when
 * the version changed it fetches the page and swaps the region. */
(function () {
  "use strict";
  var region = document.querySelector("[data-live]");
  if (!region || !window.fetch || !window.DOMParser) {
    return;
  }
  var url = region.getAttribute("data-version-url");
  var poll = Math.max(1, parseInt(region.getAttribute("data-poll"), 10) || 5) * 1000;
  var busy = false;

  function swap() {
    return fetch(window.location.href, { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-live]");
        if (fresh) {
          region.innerHTML = fresh.innerHTML;
          region.setAttribute("data-version", fresh.getAttribute("data-version"));
          region.dispatchEvent(new CustomEvent("live:swapped", { bubbles: true }));
        }
      });
  }

  window.setInterval(function () {
    if (busy || document.hidden) {
      return;
    }
    busy = true;
    fetch(url, { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (data) {
        if (data && String(data.version) !== region.getAttribute("data-version")) {
          return swap();
        }
      })
      .catch(function () {})
      .then(function () {
        busy = false;
      });
  }, poll);
})();
