// coachloop dashboard: live updates over server-sent events, with a bounded DOM.
// The server renders (and escapes) every fragment; this script only places them.
"use strict";
(function () {
  function parse(html) {
    const t = document.createElement("template");
    t.innerHTML = html.trim();
    return t.content.firstElementChild;
  }

  // A page left open for hours keeps at most data-max entries.
  function trim(list) {
    const max = parseInt(list.dataset.max || "200", 10);
    while (list.children.length > max) list.lastElementChild.remove();
  }

  function connect(list, handlers) {
    const source = new EventSource(list.dataset.stream);
    for (const [name, handle] of Object.entries(handlers)) {
      source.addEventListener(name, function (e) {
        handle(e.data);
        trim(list);
      });
    }
    source.onopen = function () { document.body.dataset.live = "on"; };
    source.onerror = function () { document.body.dataset.live = "off"; };
  }

  function fresh(el) {
    el.classList.add("fresh");
    setTimeout(function () { el.classList.remove("fresh"); }, 4000);
  }

  const rows = document.getElementById("rows");
  if (rows && rows.dataset.stream) {
    connect(rows, {
      row: function (html) {
        const el = parse(html);
        if (!el) return;
        const old = document.getElementById(el.id);
        if (old) old.remove();
        rows.prepend(el);
        fresh(el);
        const empty = document.getElementById("empty");
        if (empty) empty.remove();
      },
      gone: function (id) {
        const old = document.getElementById(id);
        if (old) old.remove();
      },
    });
  }

  const items = document.getElementById("items");
  if (items && items.dataset.stream) {
    connect(items, {
      item: function (html) {
        const el = parse(html);
        if (!el || document.getElementById(el.id)) return;
        items.prepend(el);
        fresh(el);
      },
      head: function (html) {
        const el = parse(html);
        const old = document.getElementById("head");
        if (el && old) old.replaceWith(el);
      },
    });
  }

  // Ages ("5m") stay true on a page left open.
  function age(seconds) {
    const units = [["d", 86400], ["h", 3600], ["m", 60]];
    for (const [unit, size] of units) {
      if (seconds >= size) return Math.floor(seconds / size) + unit;
    }
    return Math.max(0, Math.floor(seconds)) + "s";
  }
  setInterval(function () {
    const now = Date.now() / 1000;
    for (const el of document.querySelectorAll("[data-ts]")) {
      el.textContent = age(now - parseFloat(el.dataset.ts));
    }
  }, 30000);
})();
