/* The director's page of a series' table links: the progress table refreshes itself every
 * 15 seconds (hands entered, confirmed, disputed, last activity), so the director sees the
 * tables live without reloading the printable QR codes. No inline script (CSP). */
(function () {
  "use strict";
  var table = document.getElementById("link-progress");
  if (!table || !window.fetch || !window.DOMParser) return;
  function refresh() {
    fetch(window.location.href, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("link-progress");
        var current = document.getElementById("link-progress");
        if (fresh && current) current.tBodies[0].innerHTML = fresh.tBodies[0].innerHTML;
      })
      .catch(function () { /* offline: try again at the next tick */ });
  }
  window.setInterval(refresh, 15000);
})();
