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
    var used = {};
    document.querySelectorAll("table.data-table[role=region][aria-label]").forEach(function (t) {
      used[t.getAttribute("aria-label")] = true;
    });
    document.querySelectorAll("table.data-table").forEach(function (table) {
      if (table.scrollWidth > table.clientWidth + 1) {
        table.setAttribute("tabindex", "0");
        table.setAttribute("role", "region");
        if (!table.getAttribute("aria-label")) {
          var heading = table.caption || headingBefore(table);
          var name = heading ? heading.textContent.trim() : document.title;
          // Two tables under headings of one name ("Wildcards" in the list and in the
          // officer's form) are told apart by a number: a region's name is unique.
          for (var n = 2, base = name; used[name]; n++) {
            name = base + " (" + n + ")";
          }
          used[name] = true;
          table.setAttribute("aria-label", name);
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

/* Every form sends the CSRF token of the browser's cookie as it is now. A new login (in another
 * tab, say) replaces the cookie's token, and a page opened before it would otherwise be refused
 * with what was typed (romme.views.csrf_failure). Django's default cookie name, readable by
 * scripts (romme/settings.py changes neither); static/js/table.js asks the same for its queue. */
(function () {
  "use strict";
  window.rommeCsrfToken = function (fallback) {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : fallback;
  };
  // Capture: before any form's own handler reads its fields (table.js, exports.js).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var input = form.querySelector && form.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) input.value = window.rommeCsrfToken(input.value);
  }, true);
})();
