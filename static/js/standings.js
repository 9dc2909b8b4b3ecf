/* Standings on a phone and for a player looking for themselves.
 * - "Find my line": rows whose name, club or player number contains what was typed stay, the others are
 *   hidden; the text is remembered on the device (localStorage) for the next visit.
 * - On a narrow screen a row of a "phone-rows" table shows rank, name and total (the
 *   standings; league tables, ranking lists and player cards the same way); a tap opens the
 *   hidden cells (class "detail") in a row below it, labelled with their column headers.
 * Both survive the live swap of the public page (live.js sends "live:swapped"). */
(function () {
  "use strict";
  var KEY = "romme.findLine";
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 700px)") : null;
  var box = document.querySelector("[data-find-line]");
  var count = document.querySelector("[data-find-count]");

  function fold(text) {
    // Ä with A, ß as ss: "muller" finds "Müller", as German name sorting reads them.
    return (text || "").toLowerCase().replace(/ß/g, "ss").normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function rows() {
    return document.querySelectorAll("table.phone-rows > tbody > tr:not(.row-detail)");
  }

  function applyFind() {
    if (!box) {
      return;
    }
    var query = fold(box.value.trim());
    var shown = 0;
    var total = 0;
    rows().forEach(function (row) {
      if (!row.cells.length || row.cells.length === 1) {
        return; // "no results yet"
      }
      total += 1;
      var name = row.querySelector("td.name");
      var club = row.querySelector("td.detail");
      var numbers = row.getAttribute("data-numbers") || "";
      var hay = fold((name ? name.textContent : "") + " " + (club ? club.textContent : "") + " " + numbers);
      var match = !query || hay.indexOf(query) !== -1;
      row.hidden = !match;
      var detail = row.nextElementSibling;
      if (detail && detail.classList.contains("row-detail")) {
        detail.hidden = !match;
      }
      if (match) {
        shown += 1;
      }
    });
    if (count) {
      var text = count.getAttribute("data-template") || "";
      count.textContent = query ? text.replace("{shown}", shown).replace("{total}", total) : "";
    }
  }

  function headers(table) {
    return Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
      return th.textContent.replace(/\s+/g, " ").trim();
    });
  }

  function toggle(row) {
    var button = row.querySelector("button.row-toggle");
    var next = row.nextElementSibling;
    if (next && next.classList.contains("row-detail")) {
      next.remove();
      row.classList.remove("open");
      if (button) {
        button.setAttribute("aria-expanded", "false");
      }
      return;
    }
    var table = row.closest("table");
    var labels = headers(table);
    var list = document.createElement("dl");
    Array.prototype.forEach.call(row.cells, function (cell, index) {
      if (!cell.classList.contains("detail")) {
        return;
      }
      var term = document.createElement("dt");
      term.textContent = labels[index] || "";
      var value = document.createElement("dd");
      Array.prototype.forEach.call(cell.childNodes, function (node) {
        value.appendChild(node.cloneNode(true));
      });
      list.appendChild(term);
      list.appendChild(value);
    });
    var detail = document.createElement("tr");
    detail.className = "row-detail";
    var cell = document.createElement("td");
    cell.colSpan = row.cells.length;
    cell.appendChild(list);
    detail.appendChild(cell);
    row.after(detail);
    row.classList.add("open");
    if (button) {
      button.setAttribute("aria-expanded", "true");
    }
  }

  function shownCell(row) {
    // The button goes into the first cell a phone shows (a card's date is a detail).
    for (var i = 0; i < row.cells.length; i += 1) {
      if (!row.cells[i].classList.contains("detail")) {
        return row.cells[i];
      }
    }
    return row.cells[0];
  }

  function prepare() {
    // On a phone each row with hidden cells gets a button (keyboard and screen readers;
    // a tap anywhere on the row does the same); on a wide screen the buttons go.
    var small = narrow && narrow.matches;
    var label = document.querySelector("[data-find-line]");
    var text = (label && label.getAttribute("data-details")) || "Details";
    rows().forEach(function (row) {
      var button = row.querySelector("button.row-toggle");
      if (small && !button && row.querySelector("td.detail")) {
        button = document.createElement("button");
        button.type = "button";
        button.className = "row-toggle";
        button.setAttribute("aria-expanded", "false");
        button.setAttribute("aria-label", text);
        shownCell(row).prepend(button);
      } else if (!small && button) {
        button.remove();
      }
    });
    if (!small) {
      document.querySelectorAll("tr.row-detail").forEach(function (detail) {
        detail.previousElementSibling.classList.remove("open");
        detail.remove();
      });
    }
  }

  document.addEventListener("click", function (event) {
    if (!narrow || !narrow.matches) {
      return;
    }
    var toggleButton = event.target.closest("button.row-toggle");
    if (!toggleButton && event.target.closest("a, summary, button, input")) {
      return;
    }
    var row = event.target.closest("table.phone-rows > tbody > tr");
    if (row && row.querySelector("button.row-toggle")) {
      toggle(row);
    }
  });

  if (box) {
    try {
      box.value = window.localStorage.getItem(KEY) || "";
    } catch (e) {
      // private mode: nothing remembered
    }
    box.addEventListener("input", function () {
      try {
        window.localStorage.setItem(KEY, box.value);
      } catch (e) {
        // private mode
      }
      applyFind();
    });
  }
  if (narrow && narrow.addEventListener) {
    narrow.addEventListener("change", prepare);
  }
  document.addEventListener("live:swapped", function () {
    prepare();
    applyFind();
  });
  prepare();
  applyFind();
})();
