/* Hall display: rotate between the standings panels and reload the page regularly.
 * No controls, no dependencies. data-rotate / data-refresh on <body> are in seconds. */
(function () {
  "use strict";
  var body = document.body;
  var rotate = Math.max(3, parseInt(body.getAttribute("data-rotate"), 10) || 10) * 1000;
  var refresh = Math.max(10, parseInt(body.getAttribute("data-refresh"), 10) || 30) * 1000;
  var panels = Array.prototype.slice.call(document.querySelectorAll("[data-panel]"));
  // The page reloads every few seconds to pick up new results; the rotation resumes where
  // it was, so every page of a large field is shown in turn, not only the first ones.
  var key = "display-panel:" + window.location.pathname;
  var current = 0;
  try {
    current = (parseInt(window.sessionStorage.getItem(key), 10) || 0) % Math.max(1, panels.length);
  } catch (e) {}

  function show(index) {
    panels.forEach(function (panel, i) {
      panel.classList.toggle("active", i === index);
    });
    try {
      window.sessionStorage.setItem(key, String(index));
    } catch (e) {}
  }

  if (panels.length > 1) {
    show(current);
    window.setInterval(function () {
      current = (current + 1) % panels.length;
      show(current);
    }, rotate);
  }

  var clock = document.querySelector("[data-clock]");
  function tick() {
    if (clock) {
      var now = new Date();
      clock.textContent = ("0" + now.getHours()).slice(-2) + ":" + ("0" + now.getMinutes()).slice(-2);
    }
  }
  tick();
  window.setInterval(tick, 15000);

  // Reload only when the server answers, so a short network outage keeps the last standings.
  window.setInterval(function () {
    fetch(window.location.href, { method: "HEAD", cache: "no-store" })
      .then(function (response) {
        if (response.ok) {
          window.location.reload();
        }
      })
      .catch(function () {});
  }, refresh);
})();
