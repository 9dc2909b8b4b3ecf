/* Score-sheet entry: keyboard moves and checks as you type.
 *
 * No rule lives here. Every check, every total and every card reading comes from the
 * server (rules through the sheet's check endpoint); this script only moves the
 * focus, toggles the hand-Rommé box of a row and shows what the server answered.
 *
 * It also keeps the person at the keyboard from losing work: the cursor starts in the
 * first empty cell; typed cells are kept as a draft in this browser (localStorage, per
 * user, table and version) and restored after a reload or a failed save; leaving with
 * unsaved typing asks first. On an entered sheet the confirm button is shown only while
 * the grid equals the stored version (the server checks that too). After a refused save the
 * cursor starts on the summary of the problems above the grid; each one links to its cell.
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
  var storedNode = document.getElementById("sheet-stored");
  var stored = storedNode ? JSON.parse(storedNode.textContent) : null;
  var confirmButton = document.getElementById("sheet-confirm");
  var confirmHelp = document.getElementById("sheet-confirm-help");
  var saveButton = document.getElementById("sheet-submit");
  var editedNote = document.getElementById("sheet-edited-note");
  var versionInput = document.getElementById("expected-version");
  var draftKey = form.dataset.draftKey;
  var pageVersion = versionInput.value; // the version the page shows
  var submitting = false;

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
    afterChange();
  }


  /* ----- the grid's values, drafts and what may be pressed ----- */

  function fields() {
    return Array.prototype.filter.call(form.elements, function (el) {
      return /^(cell-|melded-|romme-|first_dealer$)/.test(el.name || "");
    });
  }

  function valueOf(el) {
    if (el.type === "checkbox") return el.checked ? "1" : "";
    return (el.value || "").trim();
  }

  function setValue(el, value) {
    if (el.type === "checkbox") {
      el.checked = value === "1";
      var row = el.closest("tr");
      if (row) row.classList.toggle("romme", el.checked);
    } else {
      el.value = value;
    }
  }

  function snapshot() {
    var out = {};
    fields().forEach(function (el) {
      out[el.name] = valueOf(el);
    });
    return out;
  }

  function differs(a, b) {
    return Object.keys(a).some(function (name) {
      return (a[name] || "") !== ((b && b[name]) || "");
    });
  }

  var loaded = snapshot(); // what the page came with
  // "Unsaved" means: different from the stored version (or, on a blind page, from the load).
  var baseline = stored || loaded;

  function apply(values) {
    fields().forEach(function (el) {
      if (Object.prototype.hasOwnProperty.call(values, el.name)) setValue(el, values[el.name]);
    });
  }

  function draftKeyFor(version) {
    return draftKey + ":" + version;
  }

  function readDraft(key) {
    try {
      var text = window.localStorage.getItem(key);
      return text ? JSON.parse(text) : null;
    } catch (e) {
      return null;
    }
  }

  function olderDraft(version) {
    /* A draft typed on an older version of this sheet (someone saved meanwhile). */
    var best = null;
    try {
      for (var i = 0; i < window.localStorage.length; i++) {
        var key = window.localStorage.key(i);
        if (key && key.indexOf(draftKey + ":") === 0) {
          var v = parseInt(key.slice(draftKey.length + 1), 10);
          if (v < version && (!best || v > best.version)) best = { version: v, key: key };
        }
      }
    } catch (e) {
      return null;
    }
    return best;
  }

  function dropDraft(version) {
    try {
      window.localStorage.removeItem(draftKeyFor(version));
    } catch (e) {
      /* storage unavailable: nothing to drop */
    }
  }

  function keepDraft() {
    if (!draftKey) return;
    var now = snapshot();
    try {
      if (differs(now, loaded) || differs(now, baseline)) {
        window.localStorage.setItem(
          draftKeyFor(versionInput.value),
          JSON.stringify({ savedAt: new Date().toISOString(), fields: now })
        );
      } else {
        window.localStorage.removeItem(draftKeyFor(versionInput.value));
      }
    } catch (e) {
      /* storage full or blocked: the beforeunload question still protects the typing */
    }
  }

  function showDraftNote(older) {
    var note = document.getElementById("sheet-draft-note");
    if (!note) return;
    note.hidden = false;
    var olderText = document.getElementById("sheet-draft-older");
    if (olderText) olderText.hidden = !older;
  }

  function dropAllDrafts() {
    try {
      var found;
      while ((found = olderDraft(Infinity))) window.localStorage.removeItem(found.key);
    } catch (e) {
      /* nothing stored */
    }
  }

  function restoreDraft() {
    if (!draftKey) return false;
    var version = parseInt(versionInput.value, 10);
    if (form.dataset.draftSaved) dropDraft(form.dataset.draftSaved);
    if (form.dataset.fromPost) {
      /* The server answered a save (conflict, problems) with the typed grid itself: it is
         the draft now, kept under the version the page shows. */
      dropAllDrafts();
      keepDraft();
      return false;
    }
    var draft = readDraft(draftKeyFor(version));
    var older = null;
    if (!draft) {
      older = olderDraft(version);
      if (older) {
        draft = readDraft(older.key);
        window.localStorage.removeItem(older.key);
      }
    }
    /* A draft the page already shows is no draft: above all the grid of a save whose
       answer was lost (a 503 after the commit), now the stored version. */
    if (!draft || !draft.fields || !differs(draft.fields, snapshot())) return false;
    /* Save from the version the draft was typed on: the server then shows the
       differences instead of overwriting the newer version. */
    if (older) versionInput.value = String(older.version);
    apply(draft.fields);
    if (older) keepDraft();
    showDraftNote(Boolean(older));
    return true;
  }

  function discardDraft() {
    dropAllDrafts();
    versionInput.value = pageVersion;
    apply(loaded);
    var note = document.getElementById("sheet-draft-note");
    if (note) note.hidden = true;
    afterChange();
  }

  function updateActions() {
    if (!confirmButton || !stored) return;
    var same = !differs(snapshot(), stored) && versionInput.value === pageVersion;
    confirmButton.hidden = !same;
    confirmButton.disabled = !same;
    if (confirmHelp) confirmHelp.hidden = !same;
    if (saveButton) saveButton.hidden = same;
    if (editedNote) editedNote.hidden = same;
  }

  function afterChange() {
    updateActions();
    keepDraft();
    schedule();
  }

  function firstEmptyCell() {
    var all = grid.querySelectorAll("input.cell-input:not(.melded)");
    for (var i = 0; i < all.length; i++) {
      if (!all[i].value.trim()) return all[i];
    }
    return null;
  }

  window.addEventListener("beforeunload", function (event) {
    if (submitting) return;
    if (!differs(snapshot(), baseline) && !differs(snapshot(), loaded)) return;
    keepDraft();
    event.preventDefault();
    event.returnValue = "";
  });

  form.addEventListener("submit", function () {
    submitting = true;
    keepDraft(); // kept until the server says it is saved: a failed save loses nothing
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button");
    if (!button) return;
    if (button.classList.contains("take-value")) {
      var el = form.elements[button.dataset.name];
      if (el) {
        setValue(el, button.dataset.value);
        afterChange();
      }
    } else if (button.id === "conflict-take-stored" || button.id === "dispute-take-first" ||
               button.id === "dispute-take-second") {
      var table = button.id === "conflict-take-stored" ? "#conflict-cells" : "#dispute-cells";
      var nth = button.id === "dispute-take-second" ? 1 : 0;
      Array.prototype.forEach.call(document.querySelectorAll(table + " tbody tr"), function (tr) {
        var take = tr.querySelectorAll("button.take-value")[nth];
        var el = take && form.elements[take.dataset.name];
        if (el) setValue(el, take.dataset.value);
      });
      afterChange();
    } else if (button.id === "conflict-keep-mine") {
      var box = document.getElementById("sheet-conflict");
      if (box) box.hidden = true;
      if (saveButton) saveButton.focus();
    } else if (button.id === "sheet-draft-discard") {
      discardDraft();
    }
  });

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
      afterChange();
    }
  });

  form.addEventListener("input", afterChange);
  if (firstDealer) firstDealer.addEventListener("change", afterChange);

  function schedule() {
    if (timer) clearTimeout(timer);
    timer = setTimeout(check, 300);
  }

  function check() {
    timer = null;
    var mine = ++sequence;
    var data = new FormData(form);
    data.delete("action");
    data.set("csrfmiddlewaretoken", window.rommeCsrfToken(data.get("csrfmiddlewaretoken")));
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

  function countRefused(problems) {
    /* After a refused save the summary's heading counts what is still wrong. */
    var heading = document.getElementById("sheet-error-heading");
    if (!heading) return;
    var n = problems + parseInt(heading.dataset.errors || "0", 10);
    var label = n === 0 ? heading.dataset.none : n === 1 ? heading.dataset.one : heading.dataset.other;
    heading.textContent = label.replace("#", String(n));
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
    fields().forEach(function (el) {
      el.removeAttribute("aria-invalid");
      el.removeAttribute("aria-describedby");
    });
    var problems = answer.problems || [];
    problems.forEach(function (problem) {
      var li = document.createElement("li");
      li.className = "error";
      li.id = problem.id;
      li.dataset.code = problem.code;
      li.dataset.hand = problem.hand === null ? "" : problem.hand;
      li.dataset.seat = problem.seat === null ? "" : problem.seat;
      var link = document.createElement("a");
      link.href = "#" + problem.target;
      link.dataset.target = problem.target;
      link.textContent = problem.message;
      li.appendChild(link);
      problemsList.appendChild(li);
      var field = problem.field ? document.getElementById(problem.field) : null;
      if (field) {
        field.setAttribute("aria-invalid", "true");
        var ids = field.getAttribute("aria-describedby");
        field.setAttribute("aria-describedby", ids ? ids + " " + problem.id : problem.id);
      }
      var tr = problem.hand ? rowOf(problem.hand) : null;
      if (!tr) return;
      // Any problem of a hand marks its row, also one named by a seat (two winners).
      tr.classList.add("has-problem");
      if (problem.seat !== null) {
        var td = tr.querySelectorAll("td.cell")[problem.seat];
        if (td) {
          td.classList.add("has-problem");
          td.title = problem.message;
        }
      }
    });
    countRefused(problems.length);
    Array.prototype.forEach.call(grid.querySelectorAll("tfoot td.total"), function (td, s) {
      td.textContent = answer.totals && answer.totals[s] !== undefined ? answer.totals[s] : "";
    });
    if (ready) ready.hidden = !answer.ready;
  }

  // A link to a problem puts the cursor into its cell, not only the cell into view.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#sheet-problems a[data-target]");
    var el = link && document.getElementById(link.dataset.target);
    if (!el || el.tagName === "TABLE") return;
    event.preventDefault();
    el.scrollIntoView({ block: "center" });
    focusInput(el);
  });

  if (restoreDraft()) schedule();
  updateActions();
  var summary = document.getElementById("sheet-error-summary");
  var start = firstEmptyCell();
  if (summary) {
    // A refused save: the phone shows what to fix first (from its top), not a cell far below.
    summary.focus({ preventScroll: true });
    summary.scrollIntoView({ block: "start" });
  } else if (start && !document.getElementById("sheet-conflict")) {
    start.focus();
  }
})();
