/* Every page: a table wider than the screen scrolls inside itself (app.css); make such a
 * table reachable by keyboard and named for screen readers, as a scroll region must be. */
(function () {
  "use strict";
  // The nearest heading before the table, also before its wrapper (div.table-scroll):
  // two tables of one page must not share the page's title as their name.
  function headingBefore(node) {
    for (; node && node !== document.body; node = node.parentElement) {
      for (var s = node.previousElementSibling; s; s = s.previousElementSibling) {
        if (/^H[1-6]$/.test(s.tagName)) {
          return s;
        }
      }
    }
    return null;
  }
  function mark() {
    document.querySelectorAll("table.data-table").forEach(function (table) {
      if (table.scrollWidth > table.clientWidth + 1) {
        table.setAttribute("tabindex", "0");
        table.setAttribute("role", "region");
        if (!table.getAttribute("aria-label")) {
          var heading = table.caption || headingBefore(table);
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
