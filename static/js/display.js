/* Hall display: rotate between the standings panels and follow the results live.
 * No controls, no dependencies. data-rotate / data-poll on <body> are in seconds.
 * Every few seconds the display asks the results version (data-version-url, a tiny JSON);
 * when it changed, it fetches the page and swaps the panels without a reload, keeping
 * the panel it shows, so every page of a large field is shown in turn. */
(function () {
  "use strict";
  var body = document.body;
  var rotate = Math.max(3, parseInt(body.getAttribute("data-rotate"), 10) || 10) * 1000;
  var poll = Math.max(1, parseInt(body.getAttribute("data-poll"), 10) || 5) * 1000;
  var versionUrl = body.getAttribute("data-version-url");
  var key = "display-panel:" + window.location.pathname;
  var panels = [];
  var current = 0;
  try {
    current = parseInt(window.sessionStorage.getItem(key), 10) || 0;
  } catch (e) {}

  function collect() {
    panels = Array.prototype.slice.call(document.querySelectorAll("[data-panel]"));
    current = current % Math.max(1, panels.length);
  }

  function show(index) {
    panels.forEach(function (panel, i) {
      panel.classList.toggle("active", i === index);
    });
    try {
      window.sessionStorage.setItem(key, String(index));
    } catch (e) {}
  }

  collect();
  if (panels.length) {
    show(current);
  }
  window.setInterval(function () {
    if (panels.length > 1) {
      current = (current + 1) % panels.length;
      show(current);
    }
  }, rotate);

  var clock = document.querySelector("[data-clock]");
  function tick() {
    if (clock) {
      var now = new Date();
      clock.textContent = ("0" + now.getHours()).slice(-2) + ":" + ("0" + now.getMinutes()).slice(-2);
    }
  }
  tick();
  window.setInterval(tick, 15000);

  // Swap the panels for those of the fresh page; on any error keep the last standings.
  function refresh(version) {
    return fetch(window.location.href, { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var main = fresh.querySelector("main");
        if (!main) {
          return;
        }
        document.querySelector("main").innerHTML = main.innerHTML;
        body.setAttribute("data-version", fresh.body.getAttribute("data-version") || version);
        collect();
        show(current);
      });
  }

  var busy = false;
  function check() {
    if (busy || !versionUrl) {
      return;
    }
    busy = true;
    fetch(versionUrl, { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (data) {
        if (data && String(data.version) !== body.getAttribute("data-version")) {
          return refresh(String(data.version));
        }
      })
      .catch(function () {})
      .then(function () {
        busy = false;
      });
  }
  window.setInterval(check, poll);
})();
