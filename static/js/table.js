/* The phone page of a table link (issue 16): hands survive a dropped hall Wi-Fi.
 *
 * A hand form is not sent straight away: the hand goes into localStorage (one queue per
 * table link) with a client id of its own, then the queue is sent in order. A hand whose
 * request does not get through stays queued and is sent again when the connection returns
 * (the "online" event, and every few seconds); the server stores a client id once, so a
 * resend never duplicates a hand. The status line says "gespeichert" or "wartet auf Netz";
 * while the server answers 503 (its disk full or read-only: romme/faults.py) it shows the
 * server's own words from the answer's JSON instead, and the hands stay queued.
 * Texts come translated from the page (data-* attributes) or from the server's JSON; no
 * inline script (CSP).
 */
(function () {
  "use strict";
  var root = document.getElementById("table-phone");
  if (!root) return;
  var status = document.getElementById("net-status");
  var queueKey = "romme-table-queue:" + root.dataset.key;
  var draftKey = "romme-table-draft:" + root.dataset.key;
  var sending = false;
  var savedSome = false;
  var paused = false;
  var fault = "";  // the server's words for a 503 (disk full, read-only), shown while it lasts
  var stale = false;  // the page has no valid CSRF cookie: the queue waits for a reload

  function newId() {
    if (window.crypto && window.crypto.getRandomValues) {
      var bytes = new Uint8Array(16);
      window.crypto.getRandomValues(bytes);
      return Array.prototype.map.call(bytes, function (b) {
        return ("0" + b.toString(16)).slice(-2);
      }).join("");
    }
    return String(Date.now()) + String(Math.random()).slice(2);
  }

  function load() {
    try { return JSON.parse(localStorage.getItem(queueKey) || "[]"); } catch (e) { return []; }
  }

  function store(queue) {
    try {
      if (queue.length) localStorage.setItem(queueKey, JSON.stringify(queue));
      else localStorage.removeItem(queueKey);
    } catch (e) { /* private mode: the hand is still sent now */ }
  }

  function show(kind, text) {
    if (!status) return;
    status.hidden = false;
    status.className = "net-status " + kind;
    status.textContent = text;
  }

  function showQueue(queue) {
    if (queue.length) {
      show("waiting", fault || status.dataset.waiting.replace("#", String(queue.length)));
    }
  }

  function faultText(data) {
    var english = (document.documentElement.lang || "").slice(0, 2) === "en";
    return (english && data.message_en) || data.message || "";
  }

  function showErrors(errors) {
    var list = document.getElementById("phone-errors");
    if (!list) {
      list = document.createElement("ul");
      list.id = "phone-errors";
      list.className = "messages";
      status.parentNode.insertBefore(list, status.nextSibling);
    }
    list.textContent = "";
    errors.forEach(function (text) {
      var item = document.createElement("li");
      item.className = "message error";
      item.textContent = text;
      list.appendChild(item);
    });
  }

  function typing() {
    var form = document.getElementById("hand-form");
    if (!form) return false;
    return Array.prototype.some.call(form.querySelectorAll("input[type=text], input:not([type])"),
      function (input) { return input.value.trim() !== ""; });
  }

  function finish() {
    sending = false;
    var queue = load();
    if (queue.length) { showQueue(queue); return; }
    if (savedSome) {
      show("saved", status.dataset.saved);
      savedSome = false;
      // Fresh totals and the next hand's form, unless someone is typing the next hand.
      if (!typing()) window.location.reload();
    }
  }

  function sendNext() {
    var queue = load();
    if (!queue.length) { finish(); return; }
    var item = queue[0];
    // The cookie's token now: a hand queued before a new login is sent with the new one.
    item.fields.csrfmiddlewaretoken = window.rommeCsrfToken(item.fields.csrfmiddlewaretoken);
    var body = new URLSearchParams(item.fields);
    fetch(item.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": item.fields.csrfmiddlewaretoken }
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (response.status === 403 && data.stale_page) {
          // No CSRF cookie (the browser dropped it): the hands stay queued, the status line
          // asks for a reload, which brings a cookie and sends them.
          stale = true;
          fault = faultText(data);
          sending = false;
          showQueue(load());
          return;
        }
        var rest = load().filter(function (q) { return q.fields.client_id !== item.fields.client_id; });
        fault = response.status >= 500 ? faultText(data) : "";
        if (response.ok) {
          store(rest);
          savedSome = true;
          sendNext();
          return;
        }
        if (response.status >= 500) { throw new Error("server"); }
        // A closed link (locked, series over): the hands stay on the phone; the page that
        // says so lists them to be handed in on paper (below).
        if (data.closed) { window.location.reload(); return; }
        if (data.taken) {
          // Another phone stored this hand's number: reload for the sheet as it is now, with
          // what was typed back in the form as the next hand (see "draft" below).
          store(rest);
          try {
            sessionStorage.setItem(draftKey, JSON.stringify({ fields: item.fields, errors: data.errors }));
          } catch (e) { /* private mode: the page still says why */ }
          window.location.reload();
          return;
        }
        // Refused (a rule): the page says why and the hand goes back into the form to be
        // fixed; later hands wait until it is sent again. While the next hand is being typed
        // the refused one stays queued, and comes back into the form once that is saved.
        if (data.errors) showErrors(data.errors);
        sending = false;
        status.hidden = true;
        if (item.fields.append_as && typing()) { paused = true; return; }
        store(rest);
        if (item.fields.append_as) { paused = true; restore(item); }
      });
    }).catch(function (error) {
      if (!(error && error.message === "server")) fault = "";  // no answer: the network
      sending = false;
      showQueue(load());
    });
  }

  function restore(item) {
    var form = document.getElementById("hand-form");
    if (!form) return;
    form.reset();
    Object.keys(item.fields).forEach(function (name) {
      if (name === "client_id" || name === "csrfmiddlewaretoken") return;
      Array.prototype.forEach.call(form.elements, function (el) {
        if (el.name !== name) return;
        if (el.type === "radio" || el.type === "checkbox") el.checked = el.value === item.fields[name];
        else el.value = item.fields[name];
      });
    });
    setNumber(form, parseInt(item.fields.append_as, 10));
  }

  function setNumber(form, number) {
    form.dataset.number = String(number);
    form.elements.append_as.value = String(number);
    var heading = form.parentNode.querySelector("h2");
    if (heading) heading.textContent = heading.dataset.label.replace("#", String(number));
    // The first dealer is asked with the first hand only.
    var dealer = form.querySelector("#first-dealer");
    if (dealer) {
      dealer.disabled = number > 1;
      dealer.hidden = number > 1;
      if (dealer.labels && dealer.labels[0]) dealer.labels[0].hidden = number > 1;
    }
  }

  function byNumber(a, b) {
    return (parseInt(a.fields.append_as || a.fields.number, 10) || 0) -
      (parseInt(b.fields.append_as || b.fields.number, 10) || 0);
  }

  function flush() {
    if (sending || paused || stale || !load().length) return;
    sending = true;
    sendNext();
  }

  function fieldsOf(form) {
    var fields = {};
    new FormData(form).forEach(function (value, name) { fields[name] = String(value); });
    return fields;
  }

  Array.prototype.forEach.call(document.querySelectorAll("form.hand-form"), function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var fields = fieldsOf(form);
      fields.client_id = newId();
      var queue = load();
      queue.push({ url: form.action, fields: fields });
      queue.sort(byNumber);
      store(queue);
      showQueue(queue);
      paused = false;
      var errors = document.getElementById("phone-errors");
      if (errors) errors.textContent = "";
      if (form.id === "hand-form") {
        // Ready for the next hand while this one is on its way.
        var next = 0;
        queue.forEach(function (q) { next = Math.max(next, parseInt(q.fields.append_as, 10) || 0); });
        form.reset();
        setNumber(form, next + 1);
        var first = form.querySelector("input[type=radio]");
        if (first) first.focus();
      }
      flush();
    });
  });

  window.addEventListener("online", flush);
  window.setInterval(flush, 4000);
  var draft = null;
  try {
    draft = JSON.parse(sessionStorage.getItem(draftKey) || "null");
    sessionStorage.removeItem(draftKey);
  } catch (e) { draft = null; }
  var handForm = document.getElementById("hand-form");
  if (draft && draft.fields && handForm) {
    draft.fields.append_as = handForm.dataset.number;
    restore(draft);
    showErrors(draft.errors || []);
  }
  if (load().length) { showQueue(load()); flush(); }
})();


/* The page of a closed table link (scoring/table_closed.html): hands this phone could not send
 * before the link closed are listed, so that they reach the director on paper. They stay
 * stored: a link opened again sends them. */
(function () {
  "use strict";
  var box = document.getElementById("unsent-hands");
  var closed = document.getElementById("link-closed");
  var path = window.location.pathname.match(/^\/t\/[^/]+\//);
  if (!box || !path || !closed || ["revoked", "expired"].indexOf(closed.dataset.reason) < 0) return;
  var hands = [];
  Object.keys(localStorage).forEach(function (key) {
    if (key.indexOf("romme-table-queue:") !== 0) return;
    var queue;
    try { queue = JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return; }
    queue.forEach(function (item) {
      var where = item.url ? new URL(item.url, window.location.href).pathname : "";
      if (where.indexOf(path[0]) === 0) hands.push(item.fields);
    });
  });
  if (!hands.length) return;
  var list = box.querySelector("ul");
  hands.forEach(function (fields) {
    var parts = [];
    if (fields.winner) parts.push(box.dataset.winner.replace("#", fields.winner));
    Object.keys(fields).sort().forEach(function (name) {
      var seat = name.match(/^(points|cards)-(\d+)$/);
      if (seat && fields[name] && String(fields.winner) !== seat[2]) {
        parts.push(box.dataset.seat.replace("#", seat[2]) + ": " + fields[name]);
      }
    });
    if (fields.romme) parts.push(box.dataset.romme);
    var item = document.createElement("li");
    item.textContent = box.dataset.hand.replace("#", fields.append_as || fields.number || "?") +
      " – " + parts.join(", ");
    list.appendChild(item);
  });
  box.hidden = false;
})();
