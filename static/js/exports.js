/* Exports: long exports run as jobs with a progress bar; the print page prints.
   The rule-set page polls its change the same way (data-reload-when-done).
   No libraries, no CDN. Without JavaScript the job forms post and the job page reloads. */
(function () {
  "use strict";

  var POLL_MS = 700;

  function show(box, status) {
    box.hidden = false;
    var bar = box.querySelector("progress");
    var message = box.querySelector(".export-progress-message");
    var link = box.querySelector(".export-download");
    if (bar) { bar.value = status.percent || 0; }
    if (message) { message.textContent = status.message || ""; }
    if (link) {
      if (status.download_url) {
        link.href = status.download_url;
        if (status.filename) { link.setAttribute("download", status.filename); }
        link.hidden = false;
      } else {
        link.hidden = true;
      }
    }
  }

  function poll(box, url, done) {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.json();
      })
      .then(function (status) {
        show(box, status);
        if (status.state === "done" || status.state === "failed") {
          if (done) { done(status); }
        } else {
          window.setTimeout(function () { poll(box, url, done); }, POLL_MS);
        }
      })
      .catch(function () {
        window.setTimeout(function () { poll(box, url, done); }, POLL_MS * 3);
      });
  }

  function startJob(form) {
    var cell = form.closest("td") || form.parentNode;
    var box = cell.querySelector(".export-progress");
    var buttons = cell.querySelectorAll("button, a.button");
    var token = form.querySelector("input[name=csrfmiddlewaretoken]");
    Array.prototype.forEach.call(buttons, function (b) { b.setAttribute("disabled", ""); });
    show(box, { percent: 0, message: "…" });
    fetch(form.action, {
      method: "POST",
      headers: { Accept: "application/json", "X-CSRFToken": token ? token.value : "" },
      credentials: "same-origin",
    })
      .then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.json();
      })
      .then(function (job) {
        poll(box, job.status_url, function () {
          Array.prototype.forEach.call(buttons, function (b) { b.removeAttribute("disabled"); });
        });
      })
      .catch(function () {
        // Fall back to the page that works without JavaScript.
        form.submit();
      });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches && form.matches("form[data-export-job]") && window.fetch) {
      event.preventDefault();
      startJob(form);
    }
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target.matches && target.matches("[data-print]")) { window.print(); }
  });

  Array.prototype.forEach.call(document.querySelectorAll("[data-export-status]"), function (box) {
    if (!window.fetch) { return; }
    poll(box, box.getAttribute("data-export-status"), function () {
      // A rule-set change that finished: the page shows the new rule set after a reload.
      if (box.hasAttribute("data-reload-when-done")) { window.location.reload(); }
    });
  });
})();
