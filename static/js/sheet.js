/* Score-sheet entry: keyboard moves and checks as you type.
 *
 * No rule lives here. Every check, every total and every card reading comes from the
 * server (scoring.rules through the sheet's check endpoint); this script only moves the
 * focus, toggles the hand-Rommé box of a row and shows what the server answered.
 */
(function () {
  "use strict";

  var form = document.getElementById("sheet-form");
  if (!form || !form.dataset.editable) return;
  var checkUrl = form.dataset.checkUrl;
  var grid = document.getElementById("sheet-grid");
  var problemsList = document.getElementById("sheet-problems");
  var ready = document.getElementById("sheet-ready");
  var firstDealer = document.getElementById("first-dealer");
  var seatNames = Array.prototype.map.call(grid.querySelectorAll("thead .seat-head"), function (th) {
    return th.dataset.name;
  });
  var timer = null;
  var sequence = 0;

  function inputs() {
    return Array.prototype.slice.call(grid.querySelectorAll("input.cell-input"));
  }

  function focusInput(el) {
    el.focus();
    if (el.select) el.select();
  }

  function moveFrom(el, step) {
    var all = inputs();
    var i = all.indexOf(el) + step;
    if (i >= all.length) {
      var submit = document.getElementById("sheet-submit");
      if (submit) submit.focus();
      return;
    }
    if (i >= 0) focusInput(all[i]);
  }

  function toggleRomme(el) {
    var row = el.closest("tr");
    var box = row && row.querySelector(".romme-cell input[type=checkbox]");
    if (!box) return;
    box.checked = !box.checked;
    row.classList.toggle("romme", box.checked);
    schedule();
  }

  grid.addEventListener("keydown", function (event) {
    var el = event.target;
    if (!el.classList || !el.classList.contains("cell-input")) return;
    if (event.key === "Enter") {
      event.preventDefault();
      moveFrom(el, event.shiftKey ? -1 : 1);
    } else if (event.key === "+") {
      event.preventDefault();
      toggleRomme(el);
    }
  });

  grid.addEventListener("change", function (event) {
    var el = event.target;
    if (el.type === "checkbox") {
      el.closest("tr").classList.toggle("romme", el.checked);
      schedule();
    }
  });

  form.addEventListener("input", schedule);
  if (firstDealer) firstDealer.addEventListener("change", schedule);

  function schedule() {
    if (timer) clearTimeout(timer);
    timer = setTimeout(check, 300);
  }

  function check() {
    timer = null;
    var mine = ++sequence;
    var data = new FormData(form);
    data.delete("action");
    form.classList.add("checking");
    fetch(checkUrl, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { "X-Requested-With": "XMLHttpRequest" },
    })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.json();
      })
      .then(function (answer) {
        if (mine === sequence) show(answer);
      })
      .catch(function () {
        /* The server checks again on save; a failed check only leaves the old hints. */
      })
      .then(function () {
        if (mine === sequence) form.classList.remove("checking");
      });
  }

  function rowOf(hand) {
    return grid.querySelector('tbody tr[data-hand="' + hand + '"]');
  }

  function show(answer) {
    var rows = grid.querySelectorAll("tbody tr");
    Array.prototype.forEach.call(rows, function (tr, r) {
      tr.classList.remove("has-problem");
      var dealer = answer.dealers ? answer.dealers[r] : null;
      var dealerCell = tr.querySelector("td.dealer");
      if (dealer !== null && dealer !== undefined && dealerCell && seatNames[dealer] !== undefined) {
        dealerCell.textContent = seatNames[dealer];
        dealerCell.dataset.dealer = dealer;
      }
      var running = answer.running ? answer.running[r] : null;
      var winner = answer.winners ? answer.winners[r] : null;
      Array.prototype.forEach.call(tr.querySelectorAll("td.cell"), function (td, s) {
        td.classList.remove("has-problem");
        td.classList.toggle("winner", winner === s);
        if (!td.classList.contains("differs")) td.removeAttribute("title");
        td.querySelector(".reading").textContent = "";
        td.querySelector(".running").textContent =
          running && running[s] !== undefined ? String(running[s]) : "";
      });
    });
    (answer.readings || []).forEach(function (reading) {
      var tr = rowOf(reading.hand);
      var td = tr && tr.querySelectorAll("td.cell")[reading.seat];
      if (td) td.querySelector(".reading").textContent = reading.text;
    });
    problemsList.textContent = "";
    (answer.problems || []).forEach(function (problem) {
      var li = document.createElement("li");
      li.className = "error";
      li.dataset.code = problem.code;
      li.dataset.hand = problem.hand === null ? "" : problem.hand;
      li.dataset.seat = problem.seat === null ? "" : problem.seat;
      li.textContent = problem.message;
      problemsList.appendChild(li);
      var tr = problem.hand ? rowOf(problem.hand) : null;
      if (!tr) return;
      if (problem.seat === null) {
        tr.classList.add("has-problem");
      } else {
        var td = tr.querySelectorAll("td.cell")[problem.seat];
        if (td) {
          td.classList.add("has-problem");
          td.title = problem.message;
        }
      }
    });
    Array.prototype.forEach.call(grid.querySelectorAll("tfoot td.total"), function (td, s) {
      td.textContent = answer.totals && answer.totals[s] !== undefined ? answer.totals[s] : "";
    });
    if (ready) ready.hidden = !answer.ready;
  }
})();
