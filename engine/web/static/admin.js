/* The director's arbitration screen (/director/admin): see engine/web/admin.py. */
(function () {
  "use strict";
  var API = "/api/director/admin/";
  var KEY = "directorKey";
  var $ = function (s) { return document.querySelector(s); };
  // German numbers with the real minus sign (U+2212), as the exported pages write them
  function deFormat(opts) {
    var f = new Intl.NumberFormat("de-DE", opts);
    return {format: function (n) { return f.format(n).replace("-", "\u2212"); }};
  }
  var num = deFormat();
  var pct = deFormat({minimumFractionDigits: 2, maximumFractionDigits: 2});
  var state = null, skew = 0, gridRound = null, busy = false;

  // the key: from the link printed at start (#key=...), kept for this browser tab only
  var m = /(?:^#|&)key=([^&]+)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem(KEY, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname);
  }
  function key() { return sessionStorage.getItem(KEY) || ""; }

  // a command named in a server message (`simultan new`) in German quotation marks, never backticks
  function quote(text) { return String(text || "").replace(/`([^`]*)`/g, "„$1“"); }

  function message(text, ok) {
    var el = $("#msg");
    el.textContent = quote(text);
    el.className = text ? (ok ? "ok" : "err") : "";
  }

  function call(path, body) {
    var opts = {method: body === undefined ? "GET" : "POST", cache: "no-store",
                headers: {"X-Director-Key": key()}};
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch(API + path, opts).then(function (r) {
      return r.json().catch(function () { return {error: "Antwort " + r.status}; }).then(function (d) {
        if (r.status === 401 || r.status === 403) { showLogin(d.error); throw new Error(d.error); }
        if (!r.ok) { var e = new Error(d.error || ("Fehler " + r.status)); e.data = d; throw e; }
        if (d.state) render(d.state);
        return d;
      });
    });
  }

  function showLogin(why) {
    $("#login").hidden = false;
    $("#main").hidden = true;
    if (why && key()) message(why, false);
    $("#key").focus();
  }

  $("#login-form").addEventListener("submit", function (e) {
    e.preventDefault();
    sessionStorage.setItem(KEY, $("#key").value.trim());
    $("#login").hidden = true;
    refresh();
  });

  function resultText(s) {
    if (!s) return "";
    if (s.move === "-") return "kein Zug · 0 Punkte";
    if (s.valid) {
      var words = s.words.map(function (w) { return w[0] + " " + num.format(w[1]); });
      var bonus = s.score - s.words.reduce(function (a, w) { return a + w[1]; }, 0);
      if (bonus) words.push("Bonus " + num.format(bonus));
      return s.notation + " · " + num.format(s.score) + " Punkte (" + words.join(" + ") + ")";
    }
    return (s.notation || s.move) + " · ungültig, 0 Punkte: " + s.reason +
      (s.would_score !== null && s.would_score !== undefined ? " (wäre " + num.format(s.would_score) + ")" : "");
  }

  function setResult(cell, s, error) {
    if (error) { cell.textContent = quote(error); cell.className = "res err"; return; }
    cell.textContent = resultText(s);
    cell.className = "res" + (s ? (s.valid ? " ok" : " bad") : "") + (s && s.late !== null && s.late !== undefined ? " late" : "");
  }

  function gridKey(st) {
    return st.current.round + "|" + st.event.players.map(function (p) {
      return p + (st.players[p] && st.players[p].left ? "!" : "");
    }).join("|");
  }

  function dedText(info) {
    if (!info || (!info.deduction && !info.warnings)) return "";
    var parts = [];
    if (info.deduction) parts.push((info.deduction > 0 ? "−" : "+") + num.format(Math.abs(info.deduction)));
    if (info.warnings) parts.push(info.warnings + "× verw.");
    return parts.join(" · ");
  }

  function applyFilter() {
    var t = $("#table-filter").value, q = $("#name-filter").value.trim().toLowerCase(), shown = 0, all = 0;
    document.querySelectorAll("#grid tbody tr").forEach(function (tr) {
      all++;
      var ok = (!t || tr.dataset.table === t) && (!q || tr.dataset.player.toLowerCase().indexOf(q) >= 0);
      tr.hidden = !ok;
      if (ok) shown++;
    });
    $("#grid-count").textContent = shown === all ? all + " Spieler" : shown + " von " + all + " Spielern";
  }
  $("#table-filter").addEventListener("change", applyFilter);
  $("#name-filter").addEventListener("input", applyFilter);

  function buildGrid(st) {
    var body = $("#grid tbody");
    body.textContent = "";
    st.event.players.forEach(function (p, i) {
      var info = st.players[p] || {};
      var tr = document.createElement("tr");
      tr.dataset.player = p;
      tr.dataset.table = info.table === null || info.table === undefined ? "" : String(info.table);
      if (info.left) tr.className = "gone";
      var tcell = document.createElement("td");
      tcell.className = "tcol";
      tcell.textContent = tr.dataset.table;
      var name = document.createElement("td");
      name.textContent = p + (info.left ? " (ausgeschieden in Runde " + info.left + ")" :
        info.joined ? " (ab Runde " + info.joined + ")" : "");
      var td = document.createElement("td");
      var input = document.createElement("input");
      input.className = "move";
      input.dataset.player = p;
      input.autocomplete = "off";
      input.spellcheck = false;
      input.maxLength = 64;
      input.setAttribute("aria-label", "Zug von " + p);
      input.disabled = !!info.left;
      input.addEventListener("input", function () { input.dataset.dirty = "1"; });
      input.addEventListener("keydown", function (e) {
        if (e.key === "Enter") { e.preventDefault(); submit(input, i); }
      });
      td.appendChild(input);
      var lc = document.createElement("td");
      var late = document.createElement("input");
      late.type = "checkbox";
      late.className = "late";
      late.dataset.player = p;
      late.disabled = !!info.left;
      late.setAttribute("aria-label", "zu spät abgegeben: " + p);
      lc.appendChild(late);
      var res = document.createElement("td");
      res.className = "res";
      res.dataset.player = p;
      var ded = document.createElement("td");
      ded.className = "n ded";
      ded.dataset.player = p;
      ded.textContent = dedText(info);
      ded.title = (info.notes || []).join("\n");
      tr.appendChild(tcell); tr.appendChild(name); tr.appendChild(td); tr.appendChild(lc); tr.appendChild(res);
      tr.appendChild(ded);
      body.appendChild(tr);
    });
    applyFilter();
  }

  function submit(input, i) {
    var move = input.value.trim();
    var res = document.querySelector('td.res[data-player="' + CSS.escape(input.dataset.player) + '"]');
    if (!move || !state || !state.current) return;
    var late = input.closest("tr").querySelector("input.late");
    call("submit", {round: state.current.round, player: input.dataset.player, move: move,
                    late: !!(late && late.checked)}).then(function (d) {
      input.dataset.dirty = "";
      var s = d.submission;
      setResult(res, s);
      message(input.dataset.player + ": " + resultText(s) + (s.handed_late ? " · zu spät abgegeben" : ""), true);
      var inputs = Array.prototype.filter.call(document.querySelectorAll("#grid input.move"), function (x) {
        return !x.disabled && !x.closest("tr").hidden;
      });
      var k = inputs.indexOf(input);
      if (k >= 0 && k + 1 < inputs.length) inputs[k + 1].focus(); else $("#close-btn").focus();
    }).catch(function (e) {
      setResult(res, null, e.message);
      message(e.message, false);
    });
  }

  function render(st) {
    state = st;
    skew = Date.now() / 1000 - st.now;
    $("#login").hidden = true;
    $("#main").hidden = false;
    $("#ev-name").textContent = st.event.name;
    document.title = "Simultan – Schiedsrichter – " + st.event.name;
    var cur = st.current;
    $("#round-box").hidden = !cur;
    if (cur) $("#round-box").textContent = "Runde " + cur.round;
    if (!cur) {
      $("#round-title").textContent = "Partie beendet";
      $("#rack").textContent = "";
      $("#rack-note").textContent = st.end_reason;
      $("#start-form").hidden = $("#entry-sec").hidden = $("#close-sec").hidden = true;
    } else {
      var started = cur.started_at !== null;
      $("#round-title").textContent = "Runde " + cur.round + (started ? " läuft" : " – noch nicht gestartet");
      var hide = st.event.physical_bag && !started;
      $("#rack").textContent = hide ? "–" : cur.rack.split("").join(" ");
      $("#rack-note").textContent = (cur.leave ? "Rest aus der Vorrunde: " + cur.leave + " · " : "") +
        "im Beutel: " + num.format(cur.bag) + (cur.rack_from === "bag" ? " · aus dem Beutel eingegeben" : "");
      $("#start-form").hidden = started;
      $("#draw-note").textContent = st.event.physical_bag ? "Pflicht: die gezogenen Steine" :
        "leer lassen = vorgeschlagene Buchstaben";
      $("#entry-sec").hidden = $("#close-sec").hidden = !started;
      if (gridRound !== gridKey(st)) { buildGrid(st); gridRound = gridKey(st); }
      document.querySelectorAll("#grid input.move").forEach(function (input) {
        var s = cur.submissions[input.dataset.player];
        if (document.activeElement !== input && !input.dataset.dirty) input.value = s ? s.move : "";
        var tr = input.closest("tr");
        var res = tr.querySelector("td.res");
        if (!res.classList.contains("err") || s) setResult(res, s);
        var late = tr.querySelector("input.late");
        if (s && document.activeElement !== late) late.checked = !!s.handed_late;
        var info = st.players[input.dataset.player];
        var ded = tr.querySelector("td.ded");
        ded.textContent = dedText(info);
        ded.title = (info && info.notes || []).join("\n");
      });
      var tops = $("#tops");
      var tkey = cur.tops.map(function (t) { return t.notation; }).join("|");
      if (cur.tops.length && tops.dataset.key !== tkey) {
        tops.dataset.key = tkey;
        tops.textContent = "";
        var head = document.createElement("p");
        head.className = "note";
        head.textContent = cur.tops.length > 1 ? cur.tops.length + " Top-Züge mit " + num.format(cur.tops[0].score) +
          " Punkten; der erste ist die Wahl des Tie-Breaks:" : "Top: " + num.format(cur.tops[0].score) + " Punkte";
        tops.appendChild(head);
        cur.tops.slice(0, 30).forEach(function (t, i) {
          var label = document.createElement("label");
          var r = document.createElement("input");
          r.type = "radio"; r.name = "top"; r.value = t.notation; r.checked = i === 0;
          label.appendChild(r);
          label.appendChild(document.createTextNode(" " + t.notation + " · " + num.format(t.score) +
            (t.leave ? " · Rest " + t.leave : "")));
          tops.appendChild(label);
        });
      }
    }
    document.body.classList.toggle("no-tables", !st.event.tables.length);
    var tf = $("#table-filter");
    $("#table-filter-label").hidden = !st.event.tables.length;
    if (tf.options.length - 1 !== st.event.tables.length) {
      var keep = tf.value;
      while (tf.options.length > 1) tf.remove(1);
      st.event.tables.forEach(function (t) { tf.add(new Option("Tisch " + t, String(t))); });
      tf.value = keep;
    }
    $("#room-sec").hidden = !cur && !st.last_round;
    $("#room-rules").textContent = st.event.rules_text;
    var dl = $("#room-players");
    if (dl.children.length !== st.event.players.length) {
      dl.textContent = "";
      st.event.players.forEach(function (p) { var o = document.createElement("option"); o.value = p; dl.appendChild(o); });
    }
    var links = st.player_links;
    $("#links-sec").hidden = !links;
    if (links && $("#links tbody").children.length !== Object.keys(links).length) {
      $("#links tbody").textContent = "";
      Object.keys(links).forEach(function (p) {
        var tr = document.createElement("tr");
        var a = document.createElement("td"); a.textContent = p; a.className = "who";
        var b = document.createElement("td"); b.textContent = links[p].url; b.className = "url";
        var c = document.createElement("td"); c.className = "qr";
        c.innerHTML = links[p].qr;  /* SVG made by the server (segno) */
        tr.appendChild(a); tr.appendChild(b); tr.appendChild(c); $("#links tbody").appendChild(tr);
      });
    }
    var undo = $("#undo-btn");
    undo.hidden = !st.last_action;
    if (st.last_action) {
      undo.textContent = "Rückgängig: " + st.last_action.what + " (Eintrag " + st.last_action.seq + ")";
      undo.dataset.expect = st.last_action.seq;
    }
    var last = st.last_round;
    $("#last-sec").hidden = !last;
    if (last) {
      $("#last-title").textContent = "Runde " + last.round + ": Top " + last.top + " · " + num.format(last.score) +
        " Punkte" + (last.chosen_by === "director" ? " (gewählt)" : "");
      var lb = $("#last tbody");
      lb.textContent = "";
      last.scores.forEach(function (r) {
        var tr = document.createElement("tr");
        if (r.top) tr.className = "hit";
        var what = r.absent ? "nicht dabei" : (r.move || "–") + (r.late ? " (zu spät)" : "") +
          (r.valid === false && r.reason ? " · ungültig: " + quote(r.reason) : "");   // why it scored 0
        [r.rank + ".", r.player, what + (r.note ? " · " + r.note : ""), num.format(r.total)].forEach(function (v, i) {
          var td = document.createElement("td"); td.textContent = v; if (i === 3) td.className = "n";
          tr.appendChild(td);
        });
        lb.appendChild(tr);
      });
    }
    var closed = !!last;
    $("#stand-sec").hidden = !closed;
    if (closed) {
      $("#stand-title").textContent = "Stand nach Runde " + last.round + " · Top gesamt " + num.format(st.master_total);
      var sb = $("#stand tbody");
      sb.textContent = "";
      st.standings.forEach(function (s) {
        var tr = document.createElement("tr");
        var who = s.player + (s.left ? " (ausgeschieden)" : s.joined ? " (ab Runde " + s.joined + ")" : "");
        [s.rank + ".", s.table === null || s.table === undefined ? "" : String(s.table), who, num.format(s.total),
         pct.format(s.percent) + "\u00a0%", String(s.tops), s.penalty ? "−" + num.format(s.penalty) : "",
         s.warnings ? String(s.warnings) : ""]
          .forEach(function (v, i) {
            var td = document.createElement("td"); td.textContent = v;
            td.className = (i === 1 ? "n tcol" : i !== 2 ? "n" : "") + (i === 6 ? " ded" : "");
            tr.appendChild(td);
          });
        sb.appendChild(tr);
      });
    }
    tick();
  }

  function tick() {
    var el = $("#clock"), cur = state && state.current;
    if (!cur || cur.started_at === null) { el.textContent = ""; return; }
    var left = cur.started_at + state.event.round_time - (Date.now() / 1000 - skew);
    if (left <= 0) { el.textContent = "Zeit!"; el.className = "clock low"; return; }
    var s = Math.ceil(left);
    el.textContent = Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
    el.className = "clock" + (left <= 30 ? " low" : "");
  }
  setInterval(tick, 500);

  function action(path, body, done) {
    if (busy) return;
    busy = true;
    call(path, body).then(function (d) { message(done(d), true); })
      .catch(function (e) { message(e.message, false); })
      .then(function () { busy = false; });
  }

  $("#start-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var rack = $("#draw").value.trim();
    action("start", {round: state.current.round, rack: rack || null}, function (d) {
      $("#draw").value = "";
      var first = document.querySelector("#grid input.move");
      if (first) first.focus();
      return "Runde " + d.state.current.round + " gestartet: " + d.state.current.rack;
    });
  });

  $("#close-btn").addEventListener("click", function () {
    var chosen = document.querySelector('#tops input[name="top"]:checked');
    var body = {round: state.current.round};
    if (chosen && state.current.tops.length > 1 && chosen.value !== state.current.tops[0].notation) {
      body.choose = chosen.value;
    }
    action("close", body, function (d) {
      return "Runde " + d.closed.round + " geschlossen: Top " + d.closed.top + " · " + num.format(d.closed.score) +
        " Punkte";
    });
  });

  $("#undo-btn").addEventListener("click", function () {
    var n = parseInt($("#undo-btn").dataset.expect, 10);
    action("undo", {expect: n}, function (d) { return "Rückgängig gemacht: " + d.undone.what; });
  });

  function roomKind() {
    var k = $("#room-kind").value;
    $("#room-points").hidden = k !== "penalty";
    $("#room-table").hidden = k !== "join";
    $("#room-round").hidden = k !== "penalty" && k !== "warn";
    $("#room-reason").hidden = k === "join" || k === "leave";
    $("#room-player").placeholder = k === "join" ? "Name des Nachzüglers" : "Spieler";
    $("#room-note").textContent = {
      warn: "Die Verwarnung gilt für die offene Runde (oder die angegebene); sie kostet Punkte, wenn die Regeln es sagen.",
      penalty: "Punkte werden in der Runde abgezogen (negativ: zurückgeben).",
      join: "Der Nachzügler spielt ab der offenen Runde; die Runden davor zählen 0.",
      leave: "Ein schon eingetragener Zug der offenen Runde zählt; danach zählt jede Runde 0."}[k];
  }
  $("#room-kind").addEventListener("change", roomKind);
  roomKind();

  $("#room-form").addEventListener("submit", function (e) {
    e.preventDefault();
    if (!state) return;
    var k = $("#room-kind").value, who = $("#room-player").value.trim();
    var cur = state.current, body;
    var rnd = $("#room-round").value ? parseInt($("#room-round").value, 10) : null;
    if (k === "warn") body = {player: who, round: rnd, reason: $("#room-reason").value};
    else if (k === "penalty") body = {player: who, points: parseInt($("#room-points").value || "0", 10), round: rnd,
                                      reason: $("#room-reason").value};
    else if (k === "join") body = {round: cur ? cur.round : 0, name: who,
                                   table: $("#room-table").value ? parseInt($("#room-table").value, 10) : null};
    else body = {round: cur ? cur.round : 0, player: who};
    action(k, body, function (d) {
      var r = d.recorded;
      $("#room-player").value = $("#room-points").value = $("#room-reason").value = $("#room-round").value = "";
      if (k === "warn") return "Verwarnung " + d.warning.number + " für " + r.player + " in Runde " + r.round +
        (d.warning.points ? ": −" + d.warning.points + " Punkte" : " (ohne Abzug)");
      if (k === "penalty") return r.player + ": " + (r.points > 0 ? "−" + r.points : "+" + (-r.points)) +
        " Punkte in Runde " + r.round;
      if (k === "join") return r.player + " spielt ab Runde " + r.round + " mit" +
        (r.table ? " (Tisch " + r.table + ")" : "") + (d.link ? " · Link: " + d.link : "");
      return r.player + " scheidet in Runde " + r.round + " aus";
    });
  });

  $("#print-links").addEventListener("click", function () {
    document.body.classList.add("print-links");
    window.print();
    document.body.classList.remove("print-links");
  });

  $("#export-btn").addEventListener("click", function () {
    action("export", {}, function (d) { return d.exported.length + " Dateien geschrieben in " + d.directory; });
  });

  function refresh() {
    if (!key()) { showLogin(); return; }
    call("state").catch(function (e) { if ($("#login").hidden) message(e.message, false); });
  }
  refresh();
  // the command line may change the event too: ask again every 3 s (inputs being typed are kept)
  setInterval(function () { if (key() && !busy && $("#login").hidden) call("state").catch(function () {}); }, 3000);
})();
