/* Every page: a table wider than the screen scrolls inside itself (app.css); make such a
 * table reachable by keyboard and named for screen readers, as a scroll region must be. */
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll("table.data-table").forEach(function (table) {
      if (table.scrollWidth > table.clientWidth + 1) {
        table.setAttribute("tabindex", "0");
        table.setAttribute("role", "region");
        if (!table.getAttribute("aria-label")) {
          var heading = table.previousElementSibling;
          while (heading && !/^H[1-6]$/.test(heading.tagName)) {
            heading = heading.previousElementSibling;
          }
          table.setAttribute("aria-label", heading ? heading.textContent.trim() : document.title);
        }
      } else if (table.getAttribute("role") === "region") {
        table.removeAttribute("tabindex");
        table.removeAttribute("role");
      }
    });
  }
  mark();
  window.addEventListener("resize", mark);
})();
